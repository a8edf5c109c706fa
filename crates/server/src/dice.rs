//! Dice and deals anyone can verify (commit–reveal, scheme `spelbord-dice-v1`).
//!
//! A table draws a secret 32-byte server seed and publishes its SHA-256 (the
//! commitment) when it is created; each seat may add a seed of its own when
//! it joins. The chance action at version `v` (its 1-based place in the
//! record) is chosen by
//!
//! ```text
//! mac = HMAC-SHA256(key = server seed,
//!                   message = "spelbord-dice-v1:" + table id + ":" + v + ":" + seed of seat 0 + ":" + seed of seat 1 ...)
//! x   = (first 8 bytes of mac as a big-endian integer >> 11) / 2^53
//! ```
//!
//! and the engine's chance outcomes at that point, in the engine's order:
//! the first outcome whose running sum of probabilities (added left to right
//! in 64-bit floating point) exceeds `x`, or the last one. The server seed is
//! revealed once the game is over, so anyone can recompute every roll and
//! deal (`spelbord verify RECORD`, or the replay in the browser).

use crate::token::hex;
use hmac::{Hmac, Mac};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use spelbord_engine::{ActionInfo, DynState, Record, Turn, find_game};

/// The name of the scheme, part of every message.
pub const SCHEME: &str = "spelbord-dice-v1";

/// Longest seed a seat may give.
pub const MAX_SEAT_SEED: usize = 64;

/// A table's secret server seed.
pub type ServerSeed = [u8; 32];

/// A new secret server seed from the operating system's secure generator.
pub fn new_server_seed() -> ServerSeed {
    let mut seed = [0u8; 32];
    rand::rng().fill_bytes(&mut seed);
    seed
}

/// The published commitment to a server seed: its SHA-256 in hexadecimal.
pub fn commitment(seed: &ServerSeed) -> String {
    hex(&Sha256::digest(seed))
}

/// Whether a seat's seed may be used: 1 to 64 of `0-9 a-z A-Z _ -`.
pub fn is_valid_seat_seed(seed: &str) -> bool {
    (1..=MAX_SEAT_SEED).contains(&seed.len())
        && seed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The number in [0, 1) that chooses the chance action at `version`.
pub fn draw(server_seed: &ServerSeed, table: &str, version: u64, seat_seeds: &[String]) -> f64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(server_seed).expect("any key length");
    mac.update(format!("{SCHEME}:{table}:{version}").as_bytes());
    for seed in seat_seeds {
        mac.update(b":");
        mac.update(seed.as_bytes());
    }
    let bytes = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes[..8]);
    (u64::from_be_bytes(first) >> 11) as f64 / (1u64 << 53) as f64
}

/// The outcome that `x` chooses among `outcomes` (in the engine's order).
pub fn choose(outcomes: &[(ActionInfo, f64)], x: f64) -> Option<&ActionInfo> {
    let mut sum = 0.0;
    for (action, p) in outcomes {
        sum += p;
        if x < sum {
            return Some(action);
        }
    }
    outcomes.last().map(|(a, _)| a)
}

/// The chance action at `version` of a state at a chance node.
pub fn chance_action(
    state: &dyn DynState,
    server_seed: &ServerSeed,
    table: &str,
    version: u64,
    seat_seeds: &[String],
) -> Option<ActionInfo> {
    let outcomes = state.chance_outcomes();
    choose(&outcomes, draw(server_seed, table, version, seat_seeds)).cloned()
}

/// What a record carries to check its dice: the `dice` field of a table's
/// record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiceProof {
    /// The scheme, `spelbord-dice-v1`.
    pub scheme: String,
    /// The table's id.
    pub table: String,
    /// SHA-256 of the server seed, published at creation.
    pub commitment: String,
    /// The server seed in hexadecimal, once the game is over.
    #[serde(default)]
    pub server_seed: Option<String>,
    /// Each seat's seed (empty if the seat gave none).
    pub seat_seeds: Vec<String>,
}

/// The outcome of checking a record's dice.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Every chance action matches; how many there were.
    Verified(usize),
    /// The first chance action that does not match.
    Mismatch {
        /// Its version (1-based place in the record).
        version: u64,
        /// The action in the record.
        recorded: String,
        /// The action the seeds give.
        derived: String,
    },
}

fn unhex(text: &str) -> Option<ServerSeed> {
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// Recomputes every chance action of `record` from `proof`; an error if the
/// proof is incomplete (seed not revealed, or not matching its commitment)
/// or the record does not replay.
pub fn verify(record: &Record, proof: &DiceProof) -> Result<Verdict, String> {
    if proof.scheme != SCHEME {
        return Err(format!("unknown dice scheme `{}`", proof.scheme));
    }
    let seed_text = proof
        .server_seed
        .as_deref()
        .ok_or("the server seed is not revealed yet (it is when the game is over)")?;
    let seed = unhex(seed_text).ok_or("the server seed is not 64 hexadecimal digits")?;
    if commitment(&seed) != proof.commitment.to_ascii_lowercase() {
        return Err("the server seed does not match the commitment".into());
    }
    let game = find_game(&record.game).map_err(|e| e.to_string())?;
    let pairs: Vec<String> = record
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let options = game.parse_options(&pairs).map_err(|e| e.to_string())?;
    let mut state = game.new_state(&options).map_err(|e| e.to_string())?;
    let mut checked = 0;
    for (index, recorded) in record.actions.iter().enumerate() {
        let version = index as u64 + 1;
        if state.turn() == Turn::Chance {
            let derived = chance_action(&*state, &seed, &proof.table, version, &proof.seat_seeds)
                .ok_or_else(|| format!("no chance outcome at version {version}"))?;
            let same = state
                .parse_text(recorded)
                .is_ok_and(|a| a.text == derived.text);
            if !same {
                return Ok(Verdict::Mismatch {
                    version,
                    recorded: recorded.clone(),
                    derived: derived.text,
                });
            }
            checked += 1;
        }
        state
            .apply_recorded(recorded)
            .map_err(|e| format!("action {version} (`{recorded}`) does not replay: {e}"))?;
    }
    Ok(Verdict::Verified(checked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_in_the_unit_interval_and_depend_on_every_input() {
        let seed = [7u8; 32];
        let seats = vec!["a".to_string(), String::new()];
        let x = draw(&seed, "t", 1, &seats);
        assert!((0.0..1.0).contains(&x));
        assert_ne!(x, draw(&seed, "t", 2, &seats));
        assert_ne!(x, draw(&seed, "u", 1, &seats));
        assert_ne!(x, draw(&[8u8; 32], "t", 1, &seats));
        assert_ne!(x, draw(&seed, "t", 1, &["b".to_string(), String::new()]));
    }

    #[test]
    fn the_commitment_is_the_seeds_sha256() {
        assert_eq!(
            commitment(&[0u8; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(unhex(&hex(&[9u8; 32])), Some([9u8; 32]));
    }

    #[test]
    fn seat_seeds_are_short_and_plain() {
        assert!(is_valid_seat_seed("abc-DEF_123"));
        assert!(!is_valid_seat_seed(""));
        assert!(!is_valid_seat_seed("a:b"));
        assert!(!is_valid_seat_seed(&"a".repeat(65)));
    }
}
