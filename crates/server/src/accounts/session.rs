//! The session cookie: a random token, HttpOnly, SameSite=Lax, Secure over
//! HTTPS (as a trusted proxy says, or always when the operator says so).

use crate::limits::{Clients, ForwardedHeader};
use axum::http::{HeaderMap, HeaderValue, header};
use cookie::{Cookie, SameSite};
use std::net::IpAddr;

/// The cookie's name.
pub const COOKIE: &str = "spelbord_session";

/// The `Set-Cookie` value that holds `token` for `seconds`.
pub fn set_cookie(token: &str, seconds: i64, secure: bool) -> HeaderValue {
    let cookie = Cookie::build((COOKIE, token.to_string()))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(seconds))
        .build();
    HeaderValue::from_str(&cookie.to_string()).unwrap_or(HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that removes the cookie.
pub fn clear_cookie(secure: bool) -> HeaderValue {
    set_cookie("", 0, secure)
}

/// The session token of the request's cookie, if any.
pub fn token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == COOKIE)
        .map(|c| c.value().to_string())
        .filter(|t| !t.is_empty() && t.len() <= 256)
}

/// Whether the request from `peer` came over HTTPS: a trusted proxy said so
/// in the forwarded header it writes (`X-Forwarded-Proto: https` beside
/// `X-Forwarded-For`, or `proto=https` in its `Forwarded` element).
pub fn is_https(clients: &Clients, peer: IpAddr, headers: &HeaderMap) -> bool {
    if !clients.is_trusted(peer) {
        return false;
    }
    match clients.header {
        ForwardedHeader::XForwardedFor => headers
            .get_all("x-forwarded-proto")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https")),
        ForwardedHeader::Forwarded => headers
            .get_all(header::FORWARDED)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .is_some_and(|element| {
                element.split(';').any(|pair| {
                    pair.split_once('=').is_some_and(|(k, v)| {
                        k.trim().eq_ignore_ascii_case("proto")
                            && v.trim().trim_matches('"').eq_ignore_ascii_case("https")
                    })
                })
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_when_asked() {
        let plain = set_cookie("abc", 60, false);
        let plain = plain.to_str().unwrap();
        assert!(plain.starts_with("spelbord_session=abc"), "{plain}");
        assert!(
            plain.contains("HttpOnly") && plain.contains("SameSite=Lax"),
            "{plain}"
        );
        assert!(!plain.contains("Secure"), "{plain}");
        let secure = set_cookie("abc", 60, true);
        assert!(secure.to_str().unwrap().contains("Secure"));
        assert!(clear_cookie(false).to_str().unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn the_token_is_read_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "a=1; spelbord_session=tok; b=2".parse().unwrap(),
        );
        assert_eq!(token(&headers).as_deref(), Some("tok"));
        assert_eq!(token(&HeaderMap::new()), None);
    }

    #[test]
    fn https_only_from_a_trusted_proxy() {
        let mut clients = Clients {
            trusted_proxies: vec![crate::limits::parse_network("127.0.0.1").unwrap()],
            ..Clients::default()
        };
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-proto", "https".parse().unwrap());
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(is_https(&clients, proxy, &headers));
        assert!(!is_https(&clients, "192.0.2.1".parse().unwrap(), &headers));
        clients.header = ForwardedHeader::Forwarded;
        assert!(!is_https(&clients, proxy, &headers));
        headers.insert(
            header::FORWARDED,
            "for=192.0.2.1;proto=https".parse().unwrap(),
        );
        assert!(is_https(&clients, proxy, &headers));
    }
}
