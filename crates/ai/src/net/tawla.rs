//! Tawla's (Plakoto's) input encoding: TD-Gammon units per point and side,
//! where each side has a checker pinned, the mothers, and a few features.

use super::encode::{Encoding, NetVariant, longest_prime, point_units};
use spelbord_engine::tawla::{CHECKERS, TawlaBoard, TawlaRules};

/// Inputs per point and side: four TD-Gammon units and "pinned here".
const PER_POINT: usize = 5;
/// Inputs of one side's points.
const POINTS: usize = 24 * PER_POINT;
/// Features per side after the points.
const FEATURES: usize = 9;

/// One side's view of a Tawla board in its own numbering (index i: its
/// point i + 1).
#[derive(Default)]
struct Side {
    /// Its free checkers on top of each point.
    top: [u8; 24],
    /// Whether one of its checkers lies pinned on each point.
    pinned: [bool; 24],
    /// Whether it pins an opposing checker on each point.
    pins: [bool; 24],
}

/// Both sides of `board` (the side on roll first), each in its own numbering.
fn sides(board: &TawlaBoard) -> [Side; 2] {
    let (mut me, mut them) = (Side::default(), Side::default());
    for n in 1..=24u8 {
        let (i, j) = (n as usize - 1, 24 - n as usize);
        let c = board.top(n);
        if c > 0 {
            me.top[i] = c as u8;
            if board.opponent_pinned_at(n) {
                me.pins[i] = true;
                them.pinned[j] = true;
            }
        } else if c < 0 {
            them.top[j] = (-c) as u8;
            if board.mover_pinned_at(n) {
                them.pins[j] = true;
                me.pinned[i] = true;
            }
        }
    }
    [me, them]
}

impl Side {
    /// The per-side features (see [`TawlaRules::encode`]), given its pips
    /// and borne-off count.
    fn features(&self, pips: u32, off: u8, out: &mut [f32]) {
        let mother_free = self.top[23] == 1 && !self.pins[23];
        let pins_held = self.pins.iter().filter(|&&p| p).count();
        let pinned = self.pinned.iter().filter(|&&p| p).count();
        // A blot: a lone free checker that pins nothing (the other side may land on it).
        let blots = (0..24)
            .filter(|&i| self.top[i] == 1 && !self.pins[i])
            .count();
        let prime = longest_prime((0..24).map(|i| self.top[i] >= 2 || self.pins[i]));
        let outside: u32 = (6..24)
            .map(|i| u32::from(self.top[i]) + u32::from(self.pinned[i]))
            .sum();
        let may_bear_off = outside == 0 && !self.pinned.iter().any(|&p| p);
        out[0] = f32::from(off) / f32::from(CHECKERS);
        out[1] = pips as f32 / 200.0;
        out[2] = f32::from(mother_free);
        out[3] = f32::from(self.pinned[23]);
        out[4] = pins_held as f32 / 3.0;
        out[5] = pinned as f32 / 3.0;
        out[6] = blots as f32 / 5.0;
        out[7] = f32::from(prime) / 6.0;
        out[8] = outside as f32 / f32::from(CHECKERS) + f32::from(may_bear_off);
    }

    /// Its rearmost checker's point (own numbering), 0 with none left.
    fn rearmost(&self) -> usize {
        (0..24)
            .rev()
            .find(|&i| self.top[i] > 0 || self.pinned[i])
            .map_or(0, |i| i + 1)
    }
}

/// Inputs of encoding 1.
const INPUTS: usize = 2 * (POINTS + FEATURES) + 1;

impl NetVariant for TawlaRules {
    // With every checker home, none pinned and the sides apart, TAW-7..TAW-10
    // are backgammon's rules (no backgammons, no mother can be pinned any
    // more): `tawla_bears_off_as_backgammon` compares every play.
    const BEAR_OFF: bool = true;
    /// Encoding 1 (259 inputs).
    const NEWEST: Encoding<TawlaBoard> = Encoding {
        version: 1,
        inputs: INPUTS,
        extends: None,
        encode,
    };
}

/// Tawla, encoding 1 (259 inputs): for each side (on roll first) and each
/// of its points 1..24 in its own numbering the four TD-Gammon units of
/// its free checkers on top and 1 when one of its checkers lies pinned
/// there (240); then per side: borne off / 15, pips / 200, its mother
/// alone and free on its starting point, its mother pinned, pins held /
/// 3, own checkers pinned / 3, blots / 5, longest prime (points held
/// with two or with a pin) / 6, checkers outside home / 15 plus 1 when
/// it may bear off (18); last, 1 while the sides can still meet.
fn encode(board: &TawlaBoard, out: &mut [f32]) {
    let sides = sides(board);
    let pips = board.pips();
    for (s, side) in sides.iter().enumerate() {
        for i in 0..24 {
            let at = s * POINTS + i * PER_POINT;
            point_units(side.top[i], &mut out[at..at + 4]);
            out[at + 4] = f32::from(side.pinned[i]);
        }
        let at = 2 * POINTS + s * FEATURES;
        side.features(pips[s], board.off(s), &mut out[at..at + FEATURES]);
    }
    // The sides still meet while their rearmost checkers have not passed
    // each other: points p (mine) and q (theirs) face when p + q = 25.
    let contact = sides[0].rearmost() + sides[1].rearmost() > 25;
    out[2 * (POINTS + FEATURES)] = f32::from(contact);
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::tables::TablesVariant;

    fn encoded(board: &TawlaBoard) -> Vec<f32> {
        let mut x = vec![0.0; INPUTS];
        encode(board, &mut x);
        x
    }

    #[test]
    fn the_start_position_encodes_both_sides_alike() {
        // TAW-2: all 15 on each side's point 24.
        let x = encoded(&TawlaRules::default().start_board());
        assert_eq!(x[..POINTS], x[POINTS..2 * POINTS]);
        let at = 23 * PER_POINT;
        assert_eq!(x[at..at + 5], [1.0, 1.0, 1.0, 6.0, 0.0]);
        let f = 2 * POINTS;
        assert_eq!(x[f..f + FEATURES], x[f + FEATURES..f + 2 * FEATURES]);
        assert_eq!(x[f + 1], 360.0 / 200.0);
        assert_eq!(x[f + 8], 1.0);
        assert_eq!(x[INPUTS - 1], 1.0);
    }

    #[test]
    fn pins_and_mothers_are_seen_from_each_side() {
        // TAW-6, TAW-11: the mover pins the opponent's mother (his point 24
        // is the mover's point 1) and has one checker of his own pinned on
        // his point 10 by two of the opponent's.
        let mut pts = [0i8; 24];
        pts[0] = 1; // on top of the opponent's mother
        pts[9] = -2; // on top of the mover's pinned checker
        pts[23] = 13;
        pts[14] = -12;
        let b = TawlaBoard::from_parts(pts, &[1, 10], [0, 0]);
        let x = encoded(&b);
        // Mover's point 10: no free checker, one pinned.
        let at = 9 * PER_POINT;
        assert_eq!(x[at..at + 5], [0.0, 0.0, 0.0, 0.0, 1.0]);
        // Opponent's point 24 (the mover's 1): his mother, pinned.
        let at = POINTS + 23 * PER_POINT;
        assert_eq!(x[at..at + 5], [0.0, 0.0, 0.0, 0.0, 1.0]);
        let (me, them) = (2 * POINTS, 2 * POINTS + FEATURES);
        assert_eq!((x[me + 3], x[them + 3]), (0.0, 1.0), "mother pinned");
        assert_eq!(
            (x[me + 4], x[them + 4]),
            (1.0 / 3.0, 1.0 / 3.0),
            "pins held"
        );
        assert_eq!((x[me + 5], x[them + 5]), (1.0 / 3.0, 1.0 / 3.0), "pinned");
        // The mover's checker on his point 1 pins: it is no blot.
        assert_eq!(x[me + 6], 0.0);
        assert_eq!(x[INPUTS - 1], 1.0);
    }

    #[test]
    fn a_race_has_no_contact_and_a_lone_start_checker_is_a_free_mother() {
        let mut pts = [0i8; 24];
        pts[2] = 14;
        pts[23] = 1; // the mover's mother, alone on his start
        pts[0] = -15; // the opponent's 15 on his start (the mover's 1)
        let x = encoded(&TawlaBoard::from_parts(pts, &[], [0, 0]));
        assert_eq!(x[2 * POINTS + 2], 1.0);
        assert_eq!(x[INPUTS - 1], 1.0);
        let mut pts = [0i8; 24];
        pts[2] = 15;
        pts[20] = -15; // the opponent on his point 4, past every checker of the mover
        let x = encoded(&TawlaBoard::from_parts(pts, &[], [0, 0]));
        assert_eq!(x[INPUTS - 1], 0.0);
        assert_eq!(x[2 * POINTS + 8], 1.0, "the mover may bear off");
    }
}
