//! Seeded randomness: the same seed gives the same dice and the same game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The engine's seeded random number generator.
pub type SeededRng = ChaCha8Rng;

/// A generator from a 64-bit seed.
pub fn seeded(seed: u64) -> SeededRng {
    ChaCha8Rng::seed_from_u64(seed)
}
