//! Secret tokens, table ids and their hashes, from the operating system's
//! cryptographically secure generator.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// The SHA-256 hash of a secret, as stored.
pub type TokenHash = [u8; 32];

/// Length of a table id in characters.
pub const TABLE_ID_LEN: usize = 24;

/// Length of a seat token in characters.
pub const TOKEN_LEN: usize = 64;

/// Fewest and most characters of a player key chosen by a client.
pub const PLAYER_KEY_LEN: (usize, usize) = (16, 128);

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex(&buf)
}

/// Lower-case hexadecimal digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// A new unguessable table id (96 random bits).
pub fn new_table_id() -> String {
    random_hex(TABLE_ID_LEN / 2)
}

/// A new table id that names `route` (`{route}-{96 random bits}`), or a
/// plain one without a route.
pub fn new_routed_table_id(route: Option<&Route>) -> String {
    match route {
        Some(route) => format!("{}-{}", route.0, new_table_id()),
        None => new_table_id(),
    }
}

/// A new secret seat token (256 random bits).
pub fn new_token() -> String {
    random_hex(TOKEN_LEN / 2)
}

/// A fresh 64-bit seed for an agent's move.
pub fn new_seed() -> u64 {
    rand::rng().next_u64()
}

/// Whether `text` has the form of a table id, with or without a route (so
/// that junk is never looked up).
pub fn is_table_id(text: &str) -> bool {
    let plain = match text.split_once('-') {
        Some((route, plain)) if is_route(route) => plain,
        Some(_) => return false,
        None => text,
    };
    plain.len() == TABLE_ID_LEN && plain.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The pattern of a table id (as [`is_table_id`] checks it, in lower case),
/// for the OpenAPI document.
pub const TABLE_ID_PATTERN: &str = "^([a-z0-9]{1,16}-)?[0-9a-f]{24}$";

/// Most characters of a route name.
pub const ROUTE_MAX_LEN: usize = 16;

/// Whether `name` is a route name: 1 to 16 lower-case ASCII letters and digits.
fn is_route(name: &str) -> bool {
    (1..=ROUTE_MAX_LEN).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// A node's route name (`--route`): put into the ids of the tables it
/// creates, so that a proxy can send their requests to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route(String);

/// A route name that is not 1 to 16 lower-case ASCII letters and digits.
#[derive(Debug, PartialEq, Eq)]
pub struct BadRoute;

impl std::fmt::Display for BadRoute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a route is 1 to {ROUTE_MAX_LEN} lower-case ASCII letters and digits"
        )
    }
}

impl std::error::Error for BadRoute {}

impl std::str::FromStr for Route {
    type Err = BadRoute;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if is_route(name) {
            Ok(Route(name.to_string()))
        } else {
            Err(BadRoute)
        }
    }
}

impl Route {
    /// The route's name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

/// Whether two secrets are equal (compared by their hashes, so the time
/// taken says nothing about where they differ).
pub fn same_secret(a: &[u8], b: &[u8]) -> bool {
    Sha256::digest(a) == Sha256::digest(b)
}

/// The hash under which a secret is stored and looked up.
pub fn hash_token(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_have_their_lengths_and_differ() {
        let a = new_table_id();
        assert!(is_table_id(&a));
        assert_ne!(a, new_table_id());
        assert_eq!(new_token().len(), TOKEN_LEN);
        assert!(!is_table_id("../etc/passwd"));
        assert!(!is_table_id(&"g".repeat(TABLE_ID_LEN)));
    }

    #[test]
    fn route_names_are_short_lower_case_letters_and_digits() {
        for good in ["n1", "a", "node7", "0123456789abcdef"] {
            assert_eq!(good.parse::<Route>().map(|r| r.0), Ok(good.to_string()));
        }
        for bad in [
            "",
            "N1",
            "n-1",
            "n_1",
            "n1 ",
            "0123456789abcdefg",
            "é",
            "n/1",
        ] {
            assert_eq!(bad.parse::<Route>(), Err(BadRoute), "{bad:?}");
        }
    }

    #[test]
    fn routed_ids_name_their_route_and_plain_ids_stay_valid() {
        let route: Route = "n1".parse().expect("a route");
        let id = new_routed_table_id(Some(&route));
        assert!(id.starts_with("n1-"), "{id}");
        assert_eq!(id.len(), 3 + TABLE_ID_LEN);
        assert!(is_table_id(&id));
        let plain = new_routed_table_id(None);
        assert!(is_table_id(&plain));
        assert_eq!(plain.len(), TABLE_ID_LEN);
        let hex = "0123456789abcdef01234567";
        for bad in [
            format!("N1-{hex}"),
            format!("-{hex}"),
            format!("n1--{hex}"),
            format!("n1-{}", &hex[1..]),
            format!("n1-{hex}0"),
            format!("n1-n2-{hex}"),
            format!("{}-{hex}", "a".repeat(17)),
            "n1-".to_string(),
        ] {
            assert!(!is_table_id(&bad), "{bad}");
        }
    }

    #[test]
    fn hashes_are_sha256() {
        assert_eq!(
            hex(&hash_token("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
