//! Two dice: the 21 distinct rolls and the opening roll.

/// The 21 distinct rolls of two dice, higher die first, with probabilities
/// (1/36 for doubles, 2/36 for the others).
pub const ROLLS: [([u8; 2], f64); 21] = rolls();

const fn rolls() -> [([u8; 2], f64); 21] {
    let mut out = [([0u8; 2], 0.0); 21];
    let mut i = 0;
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            out[i] = ([hi, lo], if hi == lo { 1.0 / 36.0 } else { 2.0 / 36.0 });
            i += 1;
            lo += 1;
        }
        hi += 1;
    }
    out
}

/// The 30 outcomes of the opening roll (one die per player, ties re-rolled):
/// `[first player's die, second player's die]`, each 1/30.
pub const OPENING_ROLLS: [[u8; 2]; 30] = opening();

const fn opening() -> [[u8; 2]; 30] {
    let mut out = [[0u8; 2]; 30];
    let mut i = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            if a != b {
                out[i] = [a, b];
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// Probability of each opening outcome.
pub const OPENING_P: f64 = 1.0 / 30.0;

/// Draws a roll of two dice, higher die first.
pub fn roll<R: rand::Rng + ?Sized>(rng: &mut R) -> [u8; 2] {
    let a = rng.random_range(1..=6u8);
    let b = rng.random_range(1..=6u8);
    [a.max(b), a.min(b)]
}

/// Draws an opening roll (ties re-rolled).
pub fn opening_roll<R: rand::Rng + ?Sized>(rng: &mut R) -> [u8; 2] {
    OPENING_ROLLS[rng.random_range(0..30)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_probabilities_sum_to_one() {
        let total: f64 = ROLLS.iter().map(|r| r.1).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!(ROLLS.iter().filter(|r| r.0[0] == r.0[1]).count(), 6);
    }

    #[test]
    fn opening_rolls_are_the_unequal_pairs() {
        assert!(
            OPENING_ROLLS
                .iter()
                .all(|r| r[0] != r[1] && r[0] >= 1 && r[1] <= 6)
        );
        let mut sorted = OPENING_ROLLS.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 30);
    }
}
