//! One side's checkers on its six home points and their index in the
//! databases: positions with fewer checkers first, so that the positions of
//! at most n checkers are the first C(n + 6, 6) of every larger database.
//! Among positions of the same number of checkers, by the count on point 6,
//! then point 5, and so on (fewest first).

/// Points of a home board.
pub const POINTS: usize = 6;

/// A side's checkers on its home points (index i: point i + 1).
pub type Home = [u8; POINTS];

/// The most checkers of a side (backgammon and Tawla).
pub const MAX_CHECKERS: usize = 15;

/// n choose k for the small numbers of the databases (n ≤ 64).
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Positions of at most `checkers` checkers on the six points: C(checkers + 6, 6).
pub const fn positions(checkers: usize) -> usize {
    choose(checkers + POINTS, POINTS)
}

/// Ways to place `m` checkers on `parts` points.
const fn placements(m: usize, parts: usize) -> usize {
    if parts == 0 {
        return (m == 0) as usize;
    }
    choose(m + parts - 1, parts - 1)
}

/// The checkers of `home`.
pub fn checkers(home: &Home) -> usize {
    home.iter().map(|&c| usize::from(c)).sum()
}

/// Pips of `home`: each checker counts its point.
pub fn pips(home: &Home) -> usize {
    home.iter()
        .enumerate()
        .map(|(i, &c)| (i + 1) * usize::from(c))
        .sum()
}

/// The index of `home` in the databases.
pub fn index(home: &Home) -> usize {
    let n = checkers(home);
    let mut at = if n == 0 { 0 } else { positions(n - 1) };
    let mut left = n;
    for k in (1..POINTS).rev() {
        let c = usize::from(home[k]);
        for j in 0..c {
            at += placements(left - j, k);
        }
        left -= c;
    }
    at
}

/// The position at `index` (the inverse of [`index`]); `None` past the
/// positions of [`MAX_CHECKERS`].
pub fn position(index: usize) -> Option<Home> {
    if index >= positions(MAX_CHECKERS) {
        return None;
    }
    let mut n = 0;
    while positions(n) <= index {
        n += 1;
    }
    let mut rest = index - if n == 0 { 0 } else { positions(n - 1) };
    let mut home = [0u8; POINTS];
    let mut left = n;
    for k in (1..POINTS).rev() {
        let mut c = 0;
        while placements(left - c, k) <= rest {
            rest -= placements(left - c, k);
            c += 1;
        }
        home[k] = c as u8;
        left -= c;
    }
    home[0] = left as u8;
    Some(home)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_the_known_ones() {
        assert_eq!(positions(15), 54_264);
        assert_eq!(positions(6), 924);
        assert_eq!(positions(0), 1);
        // positions with exactly 15 checkers
        assert_eq!(positions(15) - positions(14), 15_504);
    }

    #[test]
    fn index_and_position_are_inverse_and_cover_every_index() {
        for i in 0..positions(15) {
            let home = position(i).unwrap();
            assert!(checkers(&home) <= 15);
            assert_eq!(index(&home), i, "{home:?}");
        }
        // the positions of at most n checkers come first
        for n in 0..15 {
            assert_eq!(checkers(&position(positions(n) - 1).unwrap()), n);
            assert_eq!(checkers(&position(positions(n)).unwrap()), n + 1);
        }
        assert_eq!(position(0), Some([0; 6]));
        assert_eq!(position(positions(15)), None);
        assert_eq!(position(usize::MAX), None);
        assert_eq!(pips(&[0, 0, 0, 0, 0, 15]), 90);
    }
}
