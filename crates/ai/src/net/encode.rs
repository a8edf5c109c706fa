//! Input encodings: a board in the frame of the player on roll becomes the
//! network's input vector.

use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules};
use spelbord_engine::tables::TablesVariant;

/// A two-player tables game with an evaluation network.
pub trait NetVariant: TablesVariant {
    /// The version of the input encoding (stored in the weights file).
    const ENCODING: u16;
    /// Inputs of the encoding.
    const INPUTS: usize;
    /// Whether positions where the sides can no longer meet, every checker
    /// home or off, are valued from the bear-off databases
    /// ([`crate::bearoff`]): only where bearing off follows backgammon's
    /// rules there.
    const BEAR_OFF: bool = false;
    /// Writes the inputs for `board`, seen by the player on roll (who is
    /// about to roll), into `out` (length [`Self::INPUTS`]).
    fn encode(board: &Self::Board, out: &mut [f32]);
}

/// The four TD-Gammon units of a point held by `n` checkers of one side.
pub(super) fn point_units(n: u8, out: &mut [f32]) {
    out[0] = f32::from(n >= 1);
    out[1] = f32::from(n >= 2);
    out[2] = f32::from(n >= 3);
    out[3] = if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 };
}

/// The longest run of consecutive points held with two or more.
pub(super) fn longest_prime(made: impl Iterator<Item = bool>) -> u8 {
    let (mut best, mut run) = (0u8, 0u8);
    for m in made {
        run = if m { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

impl NetVariant for BackgammonRules {
    const ENCODING: u16 = 1;
    const INPUTS: usize = 206;
    const BEAR_OFF: bool = true;

    /// Backgammon, encoding 1: for each side (on roll first) and each of its
    /// points 1..24 in its own numbering the four TD-Gammon units (192);
    /// bar / 2 and borne off / 15 per side (4); then per side: pips / 100,
    /// blots / 5, longest prime / 6, points made in the other's home board
    /// (anchors) / 3, checkers back in the other's home board or on the bar
    /// / 5 (10).
    fn encode(board: &BackgammonBoard, out: &mut [f32]) {
        // Counts per side in each side's own numbering (index i: point i+1).
        let mut mine = [0u8; 24];
        let mut theirs = [0u8; 24];
        for n in 1..=24u8 {
            let c = board.at(n);
            if c > 0 {
                mine[n as usize - 1] = c as u8;
            } else if c < 0 {
                theirs[24 - n as usize] = (-c) as u8;
            }
        }
        for (side, counts) in [mine, theirs].iter().enumerate() {
            for (i, &n) in counts.iter().enumerate() {
                let at = side * 96 + i * 4;
                point_units(n, &mut out[at..at + 4]);
            }
        }
        let pips = board.pips();
        for (side, counts) in [mine, theirs].iter().enumerate() {
            out[192 + side] = f32::from(board.bar(side)) / 2.0;
            out[194 + side] = f32::from(board.off(side)) / 15.0;
            let blots = counts.iter().filter(|&&n| n == 1).count();
            let prime = longest_prime(counts.iter().map(|&n| n >= 2));
            let anchors = counts[18..].iter().filter(|&&n| n >= 2).count();
            let back: u8 = counts[18..].iter().sum::<u8>() + board.bar(side);
            let at = 196 + side * 5;
            out[at] = pips[side] as f32 / 100.0;
            out[at + 1] = blots as f32 / 5.0;
            out[at + 2] = f32::from(prime) / 6.0;
            out[at + 3] = anchors as f32 / 3.0;
            out[at + 4] = f32::from(back) / 5.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_encodes_both_sides_alike() {
        let mut x = vec![0.0; BackgammonRules::INPUTS];
        BackgammonRules::encode(&BackgammonBoard::start(), &mut x);
        assert_eq!(x[..96], x[96..192]);
        assert_eq!(x[196..201], x[201..206]);
        // Five on the 6 point: units 1, 1, 1, (5 - 3) / 2.
        assert_eq!(x[5 * 4..5 * 4 + 4], [1.0, 1.0, 1.0, 1.0]);
        // Two on the 24 point: the back checkers, an anchor.
        assert_eq!(x[23 * 4..23 * 4 + 4], [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(x[196], 1.67);
        assert_eq!(x[199], 1.0 / 3.0);
    }

    #[test]
    fn the_encoding_sees_the_side_on_roll_first() {
        let mut pts = [0i8; 24];
        pts[0] = 15;
        pts[23] = -3;
        let b = BackgammonBoard::from_parts(pts, [0, 2], [0, 10]);
        let mut x = vec![0.0; BackgammonRules::INPUTS];
        BackgammonRules::encode(&b, &mut x);
        assert_eq!(x[0..4], [1.0, 1.0, 1.0, 6.0]);
        // The opponent's three on the mover's 24 point are on his own 1 point.
        assert_eq!(x[96..100], [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(
            (x[192], x[193], x[194], x[195]),
            (0.0, 1.0, 0.0, 10.0 / 15.0)
        );
    }
}
