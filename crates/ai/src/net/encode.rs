//! Input encodings: a board in the frame of the player on roll becomes the
//! network's input vector.

use super::contact::{self, Side};
use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules};
use spelbord_engine::tables::TablesVariant;

/// One input encoding of a game's networks.
#[derive(Debug)]
pub struct Encoding<B: 'static> {
    /// Its version (the weights file's `encoding` field).
    pub version: u16,
    /// Its inputs.
    pub inputs: usize,
    /// The encoding whose inputs this one's begin with, unchanged: a
    /// network of that encoding widens to this one.
    pub extends: Option<u16>,
    /// Writes the inputs for a board seen by the player on roll (who is
    /// about to roll) into the slice (length `inputs`).
    pub encode: fn(&B, &mut [f32]),
}

impl<B> Clone for Encoding<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Encoding<B> {}

/// A two-player tables game with an evaluation network.
pub trait NetVariant: TablesVariant {
    /// The encoding of a new network.
    const NEWEST: Encoding<Self::Board>;
    /// Older encodings whose networks still load and play.
    const OLDER: &'static [Encoding<Self::Board>] = &[];

    /// The encoding of `version`, if the game has it.
    fn encoding(version: u16) -> Option<Encoding<Self::Board>> {
        std::iter::once(&Self::NEWEST)
            .chain(Self::OLDER)
            .find(|e| e.version == version)
            .copied()
    }
    /// Whether positions where the sides can no longer meet, every checker
    /// home or off, are valued from the bear-off databases
    /// ([`crate::bearoff`]): only where bearing off follows backgammon's
    /// rules there.
    const BEAR_OFF: bool = false;
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

/// Backgammon's encoding 1 (206 inputs, [`encode_v1`]).
const BACKGAMMON_V1: Encoding<BackgammonBoard> = Encoding {
    version: 1,
    inputs: 206,
    extends: None,
    encode: encode_v1,
};

impl NetVariant for BackgammonRules {
    const BEAR_OFF: bool = true;
    /// Encoding 2 (221 inputs, [`encode_v2`]).
    const NEWEST: Encoding<BackgammonBoard> = Encoding {
        version: 2,
        inputs: 206 + contact::FEATURES,
        extends: Some(1),
        encode: encode_v2,
    };
    const OLDER: &'static [Encoding<BackgammonBoard>] = &[BACKGAMMON_V1];
}

/// Checker counts per side in each side's own numbering (index i: point i + 1).
fn counts(board: &BackgammonBoard) -> [[u8; 24]; 2] {
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
    [mine, theirs]
}

/// Backgammon, encoding 1: for each side (on roll first) and each of its
/// points 1..24 in its own numbering the four TD-Gammon units (192); bar /
/// 2 and borne off / 15 per side (4); then per side: pips / 100, blots / 5,
/// longest prime / 6, points made in the other's home board (anchors) / 3,
/// checkers back in the other's home board or on the bar / 5 (10).
pub fn encode_v1(board: &BackgammonBoard, out: &mut [f32]) {
    points_and_features(board, &counts(board), out);
}

/// Backgammon, encoding 2: encoding 1's 206 inputs, then per side (on
/// roll first) escapes of its rearmost checker, the other's containment,
/// shots at its blots and the pips they cost, pips to break contact,
/// outfield timing and the chance to dance (7 each), then contact (15 in
/// all; `contact.rs` gives their scales).
pub fn encode_v2(board: &BackgammonBoard, out: &mut [f32]) {
    let [mine, theirs] = counts(board);
    points_and_features(board, &[mine, theirs], out);
    let me = Side {
        counts: &mine,
        bar: board.bar(0),
    };
    let them = Side {
        counts: &theirs,
        bar: board.bar(1),
    };
    contact::features(&me, &them, &mut out[206..206 + contact::FEATURES]);
}

/// Encoding 1's inputs from the board and its counts.
fn points_and_features(board: &BackgammonBoard, counts: &[[u8; 24]; 2], out: &mut [f32]) {
    for (side, counts) in counts.iter().enumerate() {
        for (i, &n) in counts.iter().enumerate() {
            let at = side * 96 + i * 4;
            point_units(n, &mut out[at..at + 4]);
        }
    }
    let pips = board.pips();
    for (side, counts) in counts.iter().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_encodes_both_sides_alike() {
        let mut x = vec![0.0; 206];
        encode_v1(&BackgammonBoard::start(), &mut x);
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
        let mut x = vec![0.0; 206];
        encode_v1(&b, &mut x);
        assert_eq!(x[0..4], [1.0, 1.0, 1.0, 6.0]);
        // The opponent's three on the mover's 24 point are on his own 1 point.
        assert_eq!(x[96..100], [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(
            (x[192], x[193], x[194], x[195]),
            (0.0, 1.0, 0.0, 10.0 / 15.0)
        );
    }

    #[test]
    fn encoding_2_begins_with_encoding_1() {
        let mut pts = [0i8; 24];
        pts[5] = 13;
        pts[9] = 1;
        pts[3] = -1;
        pts[20] = -12;
        let b = BackgammonBoard::from_parts(pts, [1, 1], [0, 1]);
        let (mut one, mut two) = (vec![0.0; 206], vec![0.0; 221]);
        encode_v1(&b, &mut one);
        encode_v2(&b, &mut two);
        assert_eq!(one[..], two[..206]);
        assert_ne!(two[206..], [0.0; 15]);
        let v = BackgammonRules::encoding(1).map(|e| (e.version, e.inputs));
        assert_eq!(v, Some((1, 206)));
        assert_eq!(BackgammonRules::NEWEST.extends, Some(1));
        assert!(BackgammonRules::encoding(3).is_none());
    }
}
