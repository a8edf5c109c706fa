//! Reading the client address a proxy forwarded: `X-Forwarded-For` and
//! `Forwarded` (RFC 7239) lists of hops, and the client among them.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Hops read at most (the rightmost are kept: the proxies wrote those).
const MAX_HOPS: usize = 32;

/// The hops of `X-Forwarded-For` header values (in header order), left (the
/// first client) to right (the last proxy); an entry that is no address
/// (`unknown`, garbage) is `None`.
pub fn x_forwarded_for<'a>(values: impl IntoIterator<Item = &'a str>) -> Vec<Option<IpAddr>> {
    let hops = values
        .into_iter()
        .flat_map(|v| v.split(','))
        .map(node)
        .collect();
    rightmost(hops)
}

/// The `for=` hops of `Forwarded` header values (RFC 7239), left to right;
/// an element without one readable `for=` address is `None`.
pub fn forwarded_for<'a>(values: impl IntoIterator<Item = &'a str>) -> Vec<Option<IpAddr>> {
    let hops = values
        .into_iter()
        .flat_map(|v| split_outside_quotes(v, b','))
        .map(|element| {
            let mut found = split_outside_quotes(element, b';')
                .into_iter()
                .filter_map(|pair| pair.split_once('='))
                .filter(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
                .map(|(_, value)| unquote(value.trim()).and_then(|v| node(&v)));
            match (found.next(), found.next()) {
                (Some(hop), None) => hop,
                // No `for`, or two in one element: not readable.
                _ => None,
            }
        })
        .collect();
    rightmost(hops)
}

/// The client among `hops`: the rightmost address that is not a trusted
/// proxy (entries that are no address are passed over); if every address
/// is trusted, the leftmost; `None` when no entry is an address.
pub fn client_of(hops: &[Option<IpAddr>], trusted: impl Fn(IpAddr) -> bool) -> Option<IpAddr> {
    let mut leftmost = None;
    for &hop in hops.iter().rev().flatten() {
        if !trusted(hop) {
            return Some(hop);
        }
        leftmost = Some(hop);
    }
    leftmost
}

fn rightmost(mut hops: Vec<Option<IpAddr>>) -> Vec<Option<IpAddr>> {
    if hops.len() > MAX_HOPS {
        hops.drain(..hops.len() - MAX_HOPS);
    }
    hops
}

/// Splits at `separator` where it is not inside a quoted string.
fn split_outside_quotes(text: &str, separator: u8) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, b) in text.bytes().enumerate() {
        if escaped {
            escaped = false;
        } else if quoted && b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            quoted = !quoted;
        } else if b == separator && !quoted {
            parts.push(&text[start..i]);
            start = i + 1;
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A token as it is, or a quoted string without its quotes and escapes;
/// `None` for an unterminated quote.
fn unquote(value: &str) -> Option<String> {
    let Some(inner) = value.strip_prefix('"') else {
        return Some(value.to_string());
    };
    let inner = inner.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(out)
}

/// An address with an optional port: `192.0.2.1`, `192.0.2.1:4711`,
/// `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:4711`. IPv4-mapped IPv6
/// addresses are read as IPv4.
fn node(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        if !after.is_empty() && !after.strip_prefix(':').is_some_and(is_port) {
            return None;
        }
        return ip
            .parse::<Ipv6Addr>()
            .ok()
            .map(|ip| IpAddr::V6(ip).to_canonical());
    }
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    let (ip, port) = text.rsplit_once(':')?;
    if !is_port(port) {
        return None;
    }
    ip.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

/// A port number, or an obfuscated port (`_` and letters, digits, `.`, `_`, `-`).
fn is_port(port: &str) -> bool {
    let digits = !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
    let obfuscated = port.len() > 1
        && port.starts_with('_')
        && port
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    digits || obfuscated
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn x_forwarded_for_reads_every_hop_and_marks_garbage() {
        let hops = x_forwarded_for(["203.0.113.7, unknown", " 2001:db8::1 ,10.0.0.1:8080"]);
        assert_eq!(
            hops,
            vec![
                Some(ip("203.0.113.7")),
                None,
                Some(ip("2001:db8::1")),
                Some(ip("10.0.0.1"))
            ]
        );
        assert_eq!(
            x_forwarded_for(["[2001:db8::2]:443"]),
            vec![Some(ip("2001:db8::2"))]
        );
        assert_eq!(
            x_forwarded_for(["::ffff:192.0.2.9"]),
            vec![Some(ip("192.0.2.9"))]
        );
        for garbage in [
            "",
            "nonsense",
            "1.2.3",
            "300.1.1.1",
            "1.2.3.4:port",
            "[::1",
            "[::1]x",
        ] {
            assert_eq!(x_forwarded_for([garbage]), vec![None], "{garbage}");
        }
    }

    #[test]
    fn forwarded_reads_quoted_ipv6_with_ports_and_several_hops() {
        let hops = forwarded_for([
            r#"for="[2001:db8:cafe::17]:4711";proto=https, For=192.0.2.60;by=203.0.113.43"#,
            r#"for=198.51.100.17:80, for="_hidden", by=10.0.0.1, for=unknown"#,
        ]);
        assert_eq!(
            hops,
            vec![
                Some(ip("2001:db8:cafe::17")),
                Some(ip("192.0.2.60")),
                Some(ip("198.51.100.17")),
                None,
                None,
                None
            ]
        );
        // A quoted comma or semicolon does not split.
        assert_eq!(
            forwarded_for([r#"for=192.0.2.1;host="a,b;c", for="[2001:db8::5]""#]),
            vec![Some(ip("192.0.2.1")), Some(ip("2001:db8::5"))]
        );
        assert_eq!(
            forwarded_for([r#"for="[2001:db8::1]:_port""#]),
            vec![Some(ip("2001:db8::1"))]
        );
    }

    #[test]
    fn forwarded_garbage_is_not_an_address() {
        for garbage in [
            r#"for="[2001:db8::1"#,
            "for=2001:db8::1:4711:x",
            r#"for=192.0.2.1;for=192.0.2.2"#,
            "proto=https",
            "for",
            "=;=,",
            r#"for="192.0.2.1"#,
        ] {
            assert!(
                forwarded_for([garbage]).iter().all(Option::is_none),
                "{garbage}"
            );
        }
    }

    #[test]
    fn the_client_is_the_rightmost_untrusted_hop() {
        let trusted = |a: IpAddr| a == ip("10.0.0.1") || a == ip("10.0.0.2");
        let hops = x_forwarded_for(["198.51.100.1, 203.0.113.5, 10.0.0.2, garbage, 10.0.0.1"]);
        assert_eq!(client_of(&hops, trusted), Some(ip("203.0.113.5")));
        let inside = x_forwarded_for(["10.0.0.2, 10.0.0.1"]);
        assert_eq!(client_of(&inside, trusted), Some(ip("10.0.0.2")));
        assert_eq!(client_of(&x_forwarded_for(["unknown"]), trusted), None);
        assert_eq!(client_of(&[], trusted), None);
    }

    #[test]
    fn a_long_list_keeps_its_rightmost_hops() {
        let mut list = vec!["198.51.100.1"; 100].join(",");
        list.push_str(",203.0.113.9");
        let hops = x_forwarded_for([list.as_str()]);
        assert_eq!(hops.len(), MAX_HOPS);
        assert_eq!(hops.last(), Some(&Some(ip("203.0.113.9"))));
    }
}
