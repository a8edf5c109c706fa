//! Tawla's (Plakoto's) input encodings: TD-Gammon units per point and side,
//! where each side has a checker pinned, the mothers, and a few features
//! (encoding 1); then per side its escapes, the rolls that pin its blots
//! and its mother, and the pips it must play to pass the other (encoding 2).

use super::contact::{BOARD, escapes, hits, mirror};
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

    /// The points (bit n: point n in its own numbering) where `holds`.
    fn mask(&self, holds: impl Fn(usize) -> bool) -> u32 {
        (0..24)
            .filter(|&i| holds(i))
            .fold(0, |m, i| m | 1 << (i + 1))
    }

    /// The points closed to the other side (TAW-5, TAW-6): two or more of
    /// its free checkers, or one pinning.
    fn closed(&self) -> u32 {
        self.mask(|i| self.top[i] >= 2 || self.pins[i])
    }

    /// The contact features of this side (see [`encode_v2`]), `them` being
    /// the other side.
    fn contact(&self, them: &Side, out: &mut [f32]) {
        let blocks = mirror(them.closed());
        let back = (0..24)
            .rev()
            .find(|&i| self.top[i] > 0)
            .map_or(0, |i| i + 1);
        let contained = (15..=24).map(|p| escapes(blocks, p)).min().unwrap_or(36);
        // The other side's free checkers, moving up in this side's numbering.
        let from = mirror(them.mask(|i| them.top[i] > 0));
        let open = !self.closed() & BOARD;
        let blots = self.mask(|i| self.top[i] == 1 && !self.pins[i]);
        let mother = blots & 1 << 24;
        let (mut pin_rolls, mut mother_rolls) = (0, 0);
        if blots != 0 && from != 0 {
            for a in 1..=6u32 {
                for b in a..=6u32 {
                    let landed = hits(from, 0, open, a, b);
                    let weight = if a == b { 1 } else { 2 };
                    if landed & blots != 0 {
                        pin_rolls += weight;
                    }
                    if landed & mother != 0 {
                        mother_rolls += weight;
                    }
                }
            }
        }
        // The other side's rearmost checker (free or pinned) in this side's
        // numbering: this side's checkers below it have passed it.
        let theirs = mirror(them.mask(|i| them.top[i] > 0 || them.pinned[i]));
        let rear = if theirs == 0 {
            25
        } else {
            theirs.trailing_zeros()
        };
        let to_pass: u32 = (0..24)
            .map(|i| {
                let n = u32::from(self.top[i]) + u32::from(self.pinned[i]);
                n * (i as u32 + 1).saturating_sub(rear)
            })
            .sum();
        out[0] = escapes(blocks, back as u32) as f32 / 36.0;
        out[1] = 1.0 - contained as f32 / 36.0;
        out[2] = pin_rolls as f32 / 36.0;
        out[3] = mother_rolls as f32 / 36.0;
        out[4] = to_pass as f32 / 300.0;
    }
}

/// Inputs of encoding 1.
const INPUTS: usize = 2 * (POINTS + FEATURES) + 1;
/// Contact features per side in encoding 2.
const CONTACT: usize = 5;
/// Inputs of encoding 2.
const INPUTS_2: usize = INPUTS + 2 * CONTACT;

/// Tawla's encoding 1 (259 inputs, [`encode`]): the network shipped until
/// 2026-12-01 was of it.
const TAWLA_V1: Encoding<TawlaBoard> = Encoding {
    version: 1,
    inputs: INPUTS,
    extends: None,
    encode,
};

impl NetVariant for TawlaRules {
    // With every checker home, none pinned and the sides apart, TAW-7..TAW-10
    // are backgammon's rules (no backgammons, no mother can be pinned any
    // more): `tawla_bears_off_as_backgammon` compares every play.
    const BEAR_OFF: bool = true;
    /// Encoding 2 (269 inputs, `encode_v2`).
    const NEWEST: Encoding<TawlaBoard> = Encoding {
        version: 2,
        inputs: INPUTS_2,
        extends: Some(1),
        encode: encode_v2,
    };
    const OLDER: &'static [Encoding<TawlaBoard>] = &[TAWLA_V1];
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
    encode_sides(board, &sides(board), out);
}

/// Encoding 1's inputs from the board and its two sides.
fn encode_sides(board: &TawlaBoard, sides: &[Side; 2], out: &mut [f32]) {
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

/// Tawla, encoding 2 (269 inputs): encoding 1's 259, then per side (on
/// roll first) the rolls of 36 that carry its rearmost free checker past
/// every point the other closes among the 12 in front of it; the other's
/// containment (1 − the fewest such rolls from its points 15..24 / 36);
/// the rolls on which the other side can land on one of its blots and pin
/// it (TAW-6) / 36; those on which it can pin its mother alone on its
/// starting point (TAW-11) / 36; the pips its checkers must play to pass
/// the other's rearmost checker / 300.
fn encode_v2(board: &TawlaBoard, out: &mut [f32]) {
    let sides = sides(board);
    encode_sides(board, &sides, &mut out[..INPUTS]);
    let [me, them] = &sides;
    me.contact(them, &mut out[INPUTS..INPUTS + CONTACT]);
    them.contact(me, &mut out[INPUTS + CONTACT..INPUTS_2]);
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

    /// Encoding 2's contact inputs: the side on roll's, then the other's.
    fn contact(board: &TawlaBoard) -> Vec<f32> {
        let mut x = vec![0.0; INPUTS_2];
        encode_v2(board, &mut x);
        assert_eq!(x[..INPUTS], encoded(board)[..], "encoding 1 first");
        x[INPUTS..].to_vec()
    }

    #[test]
    fn encoding_2_extends_encoding_1_and_the_start_is_alike_for_both() {
        assert_eq!(TawlaRules::NEWEST.extends, Some(1));
        assert_eq!(TawlaRules::encoding(1).map(|e| e.inputs), Some(INPUTS));
        // TAW-2: each side's 15 on its point 24, the other's rearmost on
        // its point 1: 15 · 23 pips to pass; nothing closed in front, no blot.
        let x = contact(&TawlaRules::default().start_board());
        assert_eq!(x[..CONTACT], x[CONTACT..]);
        assert_eq!(x[..CONTACT], [1.0, 0.0, 0.0, 0.0, 345.0 / 300.0]);
    }

    #[test]
    fn a_blot_six_pips_in_front_of_a_checker_is_pinned_by_sixteen_rolls() {
        // TAW-5, TAW-6: the mover's blot on his point 10, his 14 others on
        // his point 6 (closed to the opponent); the opponent's checker on
        // the mover's point 4 (the opponent's 21), six pips from the blot,
        // his 14 others home on his point 1 (the mover's 24).
        let mut pts = [0i8; 24];
        pts[9] = 1;
        pts[5] = 14;
        pts[3] = -1;
        pts[23] = -14;
        let x = contact(&TawlaBoard::from_parts(pts, &[], [0, 0]));
        // Every 6 (11), 5-1 and 4-2 (by the 4 first: the 6 point is
        // closed), 3-3; not 2-2 or 1-1 (stopped by the 6 point): 16.
        assert_eq!(x[2], 16.0 / 36.0);
        assert_eq!(x[3], 0.0, "no mother on the mover's point 24");
        // The mover pins the opponent's blot on point 4 with every 6 (from
        // 10) and every 2 (from 6), 5-1, 3-3 and 1-1: 20 + 2 + 1 + 1.
        assert_eq!(x[CONTACT + 2], 24.0 / 36.0);
    }

    #[test]
    fn a_pin_closes_its_point_and_a_lone_mother_counts_the_rolls_that_pin_her() {
        // TAW-11: the mover's mother alone on his point 24 (the opponent's
        // point 1); the opponent's checkers on his points 7 and 5 (the
        // mover's 18 and 20) reach her with a 6 or a 4. The mover's checker
        // pins one of the opponent's on the mover's point 21 (the
        // opponent's 4): closed to the opponent, so 1-1 (5 → 4 → 3 → 2 → 1)
        // and 3-1 / 2-2 through it are barred.
        let mut pts = [0i8; 24];
        pts[23] = 1;
        pts[20] = 1; // pinning
        pts[2] = 13;
        pts[17] = -1;
        pts[19] = -1;
        pts[8] = -12;
        let b = TawlaBoard::from_parts(pts, &[21], [0, 0]);
        let x = contact(&b);
        // Landings on point 24: every 6 (from 18) and every 4 (from 20),
        // 20 rolls; 5-1 from 18 (via 23 or 19); 2-2 (from 20 via 22); 3-1
        // from 20 via 23 (via 21 is closed); 5-5 from 9 (14, 19, 24). Not
        // 3-3 (18 → 21 is closed) nor 1-1 (20 → 21): 20 + 2 + 1 + 2 + 1.
        assert_eq!(x[3], 26.0 / 36.0);
        // The mother is the mover's only blot (his pinner is none).
        assert_eq!(x[2], x[3]);
        // The mover's mother (and his pinner) can land on the opponent's
        // blots on the mover's points 20 and 18.
        assert!(x[CONTACT + 2] > 0.0);
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
