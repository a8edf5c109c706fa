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

/// A new secret seat token (256 random bits).
pub fn new_token() -> String {
    random_hex(TOKEN_LEN / 2)
}

/// A fresh 64-bit seed for an agent's move.
pub fn new_seed() -> u64 {
    rand::rng().next_u64()
}

/// Whether `text` has the form of a table id (so that junk is never looked up).
pub fn is_table_id(text: &str) -> bool {
    text.len() == TABLE_ID_LEN && text.bytes().all(|b| b.is_ascii_hexdigit())
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
    fn hashes_are_sha256() {
        assert_eq!(
            hex(&hash_token("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
