//! The server's public origins (`--public-origin`): the `Host` a request
//! must name when some are set, and the `Origin` a WebSocket upgrade may
//! come from (no `Origin`, the request's own host, or a public origin).

use std::fmt;
use std::str::FromStr;

/// A scheme and authority, e.g. `https://example.org` (lowercase, with its
/// port made explicit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicOrigin {
    scheme: &'static str,
    host: String,
    port: u16,
}

/// Why a text is not an origin.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an origin like https://example.org or http://127.0.0.1:8080")]
pub struct BadOrigin(String);

impl FromStr for PublicOrigin {
    type Err = BadOrigin;

    fn from_str(text: &str) -> Result<Self, BadOrigin> {
        let bad = || BadOrigin(text.to_string());
        let (scheme, rest) = text.trim().split_once("://").ok_or_else(bad)?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => "http",
            "https" => "https",
            _ => return Err(bad()),
        };
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        let (host, port) = authority_parts(authority).ok_or_else(bad)?;
        Ok(PublicOrigin {
            scheme,
            host,
            port: port.unwrap_or(if scheme == "https" { 443 } else { 80 }),
        })
    }
}

impl fmt::Display for PublicOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
    }
}

impl PublicOrigin {
    /// Whether a `Host` (`host[:port]`) names this origin: the same host,
    /// and the same port when it gives one (a proxy may leave it out).
    pub fn matches_host(&self, host: &str) -> bool {
        authority_parts(host).is_some_and(|(name, port)| {
            name == self.host && port.is_none_or(|port| port == self.port)
        })
    }
}

/// A host name or address in lowercase and its port, from `host[:port]`
/// (IPv6 in brackets); `None` when it is not one.
fn authority_parts(text: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = if text.starts_with('[') {
        let end = text.find(']')?;
        let (host, rest) = text.split_at(end + 1);
        host[1..end].parse::<std::net::Ipv6Addr>().ok()?;
        (host, rest)
    } else {
        match text.rfind(':') {
            Some(i) => text.split_at(i),
            None => (text, ""),
        }
    };
    let port = match port {
        "" => None,
        port => {
            let digits = port.strip_prefix(':')?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(digits.parse::<u16>().ok()?)
        }
    };
    let name_ok = host.starts_with('[')
        || (!host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b)));
    name_ok.then(|| (host.to_ascii_lowercase(), port))
}

/// The public origins; none means any `Host` is answered.
#[derive(Clone, Debug, Default)]
pub struct Origins(pub Vec<PublicOrigin>);

impl Origins {
    /// Whether a request naming `host` (its `Host`, `None` if absent) is
    /// answered: always when no origin is set, else when it names one.
    pub fn allows_host(&self, host: Option<&str>) -> bool {
        self.0.is_empty() || host.is_some_and(|h| self.0.iter().any(|o| o.matches_host(h)))
    }

    /// Whether a WebSocket upgrade with `origin` (its `Origin` header) to
    /// `host` is allowed: without an `Origin` (not a browser), from the
    /// request's own host, or from a public origin.
    pub fn allows_ws_origin(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let Some(origin) = origin else {
            return true;
        };
        let Ok(origin) = origin.parse::<PublicOrigin>() else {
            return false; // `null`, another scheme, garbage
        };
        host.is_some_and(|h| origin.matches_host(h)) || self.0.contains(&origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(list: &[&str]) -> Origins {
        Origins(list.iter().map(|o| o.parse().unwrap()).collect())
    }

    #[test]
    fn origins_are_read_with_their_default_ports() {
        let o: PublicOrigin = "HTTPS://Example.org/".parse().unwrap();
        assert_eq!(o.to_string(), "https://example.org:443");
        assert_eq!(
            "http://[::1]:8080"
                .parse::<PublicOrigin>()
                .unwrap()
                .to_string(),
            "http://[::1]:8080"
        );
        for bad in [
            "example.org",
            "ftp://example.org",
            "https://",
            "https://example.org/path",
            "https://exa mple.org",
            "https://example.org:99999",
            "https://[::1",
            "https://user@example.org",
        ] {
            assert!(bad.parse::<PublicOrigin>().is_err(), "{bad}");
        }
    }

    #[test]
    fn without_public_origins_any_host_is_answered() {
        assert!(Origins::default().allows_host(Some("anything.example")));
        assert!(Origins::default().allows_host(None));
    }

    #[test]
    fn only_hosts_of_the_public_origins_are_answered() {
        let o = origins(&["https://example.org", "http://127.0.0.1:8080"]);
        for ok in [
            "example.org",
            "EXAMPLE.org:443",
            "127.0.0.1:8080",
            "127.0.0.1",
        ] {
            assert!(o.allows_host(Some(ok)), "{ok}");
        }
        for refused in [
            "evil.example",
            "example.org:80",
            "127.0.0.1:9090",
            "example.org.evil",
        ] {
            assert!(!o.allows_host(Some(refused)), "{refused}");
        }
        assert!(!o.allows_host(None));
    }

    #[test]
    fn websocket_origins_of_other_sites_are_refused() {
        let none = Origins::default();
        let host = Some("127.0.0.1:8080");
        assert!(none.allows_ws_origin(None, host));
        assert!(none.allows_ws_origin(Some("http://127.0.0.1:8080"), host));
        assert!(!none.allows_ws_origin(Some("http://evil.example"), host));
        assert!(!none.allows_ws_origin(Some("http://127.0.0.1:9999"), host));
        assert!(!none.allows_ws_origin(Some("null"), host));
        let public = origins(&["https://play.example"]);
        assert!(public.allows_ws_origin(Some("https://play.example"), Some("10.0.0.5:8080")));
        assert!(!public.allows_ws_origin(Some("http://play.example"), Some("10.0.0.5:8080")));
        // A proxy that passes `Host: play.example` makes it the same origin.
        assert!(none.allows_ws_origin(Some("https://play.example"), Some("play.example")));
    }
}
