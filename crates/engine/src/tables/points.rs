//! Whole-board operations on the 24 signed point counts of a two-player
//! board, eight points to a 64-bit word (plain integer operations, no
//! `unsafe`, no vector instructions needed).

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// Per-point sign tests of 24 counts, as masks with bit i for point i + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointMasks {
    /// Counts above zero (the mover's points).
    pub positive: u32,
    /// Counts below zero (the opponent's points).
    pub negative: u32,
    /// Counts of exactly -1 (the opponent's single checkers).
    pub minus_one: u32,
}

#[inline]
fn words(pts: &[i8; 24]) -> [u64; 3] {
    let word = |c: usize| {
        let mut bytes = [0u8; 8];
        for (b, &n) in bytes.iter_mut().zip(&pts[8 * c..8 * c + 8]) {
            *b = n as u8;
        }
        u64::from_le_bytes(bytes)
    };
    [word(0), word(1), word(2)]
}

#[inline]
fn from_words(w: [u64; 3]) -> [i8; 24] {
    let mut pts = [0i8; 24];
    for (c, word) in w.iter().enumerate() {
        for (p, b) in pts[8 * c..8 * c + 8].iter_mut().zip(word.to_le_bytes()) {
            *p = b as i8;
        }
    }
    pts
}

/// Each byte negated (two's complement, no carry between bytes).
#[inline]
fn negate_bytes(x: u64) -> u64 {
    let n = !x;
    ((n & LOW7) + ONES) ^ (n & HIGH)
}

/// The high bit of each nonzero byte.
#[inline]
fn nonzero_bytes(x: u64) -> u64 {
    (((x & LOW7) + LOW7) | x) & HIGH
}

/// The high bits of the eight bytes gathered into eight bits.
#[inline]
fn gather(high: u64) -> u32 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

#[inline]
fn mask(w: [u64; 3], test: impl Fn(u64) -> u64) -> u32 {
    gather(test(w[0])) | gather(test(w[1])) << 8 | gather(test(w[2])) << 16
}

/// The counts seen by the other player: point i + 1 becomes point 24 - i
/// and the signs swap.
#[inline]
pub fn flipped(pts: &[i8; 24]) -> [i8; 24] {
    let w = words(pts);
    from_words([
        negate_bytes(w[2].swap_bytes()),
        negate_bytes(w[1].swap_bytes()),
        negate_bytes(w[0].swap_bytes()),
    ])
}

/// Which counts are positive, negative, and exactly -1.
#[inline]
pub fn masks(pts: &[i8; 24]) -> PointMasks {
    let w = words(pts);
    PointMasks {
        positive: mask(w, |x| nonzero_bytes(x) & !x & HIGH),
        negative: mask(w, |x| x & HIGH),
        minus_one: mask(w, |x| !nonzero_bytes(!x) & HIGH),
    }
}

/// Bit i set where `counts[i]` (each below 128) is at least `k`.
#[inline]
pub fn at_least(counts: &[u8; 24], k: u8) -> u32 {
    let w = words(&counts.map(|c| c as i8));
    mask(w, |x| ((x | HIGH) - k as u64 * ONES) & HIGH)
}

/// Whether at least three bits of `mask` are set.
#[inline]
pub fn at_least_three_bits(mask: u32) -> bool {
    let two_fewer = mask & mask.wrapping_sub(1);
    two_fewer & two_fewer.wrapping_sub(1) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn flip_and_masks_match_the_plain_loops(pts in prop::array::uniform24(-15i8..=15)) {
            let mut want = [0i8; 24];
            for (i, p) in want.iter_mut().enumerate() {
                *p = -pts[23 - i];
            }
            prop_assert_eq!(flipped(&pts), want);
            let bits = |f: &dyn Fn(i8) -> bool| {
                pts.iter().enumerate().fold(0u32, |m, (i, &c)| m | (f(c) as u32) << i)
            };
            let m = masks(&pts);
            prop_assert_eq!(m.positive, bits(&|c| c > 0));
            prop_assert_eq!(m.negative, bits(&|c| c < 0));
            prop_assert_eq!(m.minus_one, bits(&|c| c == -1));
        }

        #[test]
        fn at_least_three_bits_counts_bits(mask in any::<u32>()) {
            prop_assert_eq!(at_least_three_bits(mask), mask.count_ones() >= 3);
        }

        #[test]
        fn at_least_matches_the_plain_loop(counts in prop::array::uniform24(0u8..=36), k in 1u8..=4) {
            let want = counts.iter().enumerate().fold(0u32, |m, (i, &c)| m | ((c >= k) as u32) << i);
            prop_assert_eq!(at_least(&counts, k), want);
        }
    }
}
