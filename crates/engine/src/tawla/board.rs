//! The Tawla board in the frame of the player to move.

use super::CHECKERS;
use crate::tables::{AbsBoard, OFF, Step, StepBoard, StepList, points};

/// A Tawla board seen by the player to move: index i is his point i+1.
/// Positive counts are his checkers on top, negative the opponent's; a set
/// bit in `pinned` means one checker of the other side lies pinned below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TawlaBoard {
    pts: [i8; 24],
    pinned: u32,
    /// Bit i: the mover has free checkers on point i+1 (derived from `pts`).
    mine: u32,
    /// Bit i: point i+1 is closed to the mover (derived; it cannot change
    /// during his turn, so it is recomputed only when the board flips).
    closed: u32,
    /// Borne off: the mover's, then the opponent's.
    off: [u8; 2],
}

impl TawlaBoard {
    /// TAW-2: all 15 on each player's own point 24.
    pub fn start() -> Self {
        let mut pts = [0; 24];
        pts[23] = CHECKERS as i8;
        pts[0] = -(CHECKERS as i8);
        Self::from_parts(pts, &[], [0, 0])
    }

    /// A board from counts in the mover's numbering: `pts[i]` is point i+1
    /// (positive: the mover's), `pinned_at` the points (1..24) holding a
    /// pinned checker under the top, and the borne-off counts.
    pub fn from_parts(pts: [i8; 24], pinned_at: &[u8], off: [u8; 2]) -> Self {
        let pinned = pinned_at.iter().fold(0u32, |m, &p| m | 1 << (p - 1));
        let mut board = TawlaBoard {
            pts,
            pinned,
            mine: 0,
            closed: 0,
            off,
        };
        board.refresh_masks();
        board
    }

    /// Recomputes the derived masks from the counts.
    #[inline]
    fn refresh_masks(&mut self) {
        let m = points::masks(&self.pts);
        self.mine = m.positive;
        // TAW-5/TAW-6: a band, or a lone checker on top of a pin
        self.closed = (m.negative & !m.minus_one) | (m.minus_one & self.pinned);
    }

    /// The signed count on top of the mover's point `n` (1..24).
    pub fn top(&self, n: u8) -> i8 {
        self.pts[n as usize - 1]
    }

    /// Checkers borne off: 0 the mover, 1 the opponent.
    pub fn off(&self, who: usize) -> u8 {
        self.off[who]
    }

    fn is_pinned(&self, i: usize) -> bool {
        self.pinned >> i & 1 == 1
    }

    /// Whether an opponent checker lies pinned under the mover's on point `n`.
    pub fn opponent_pinned_at(&self, n: u8) -> bool {
        let i = n as usize - 1;
        self.pts[i] > 0 && self.is_pinned(i)
    }

    /// Whether a mover's checker lies pinned under the opponent's on point `n`.
    pub fn mover_pinned_at(&self, n: u8) -> bool {
        let i = n as usize - 1;
        self.pts[i] < 0 && self.is_pinned(i)
    }

    /// The mover's checkers on point `n`, free or pinned.
    pub fn mover_checkers_at(&self, n: u8) -> u8 {
        let i = n as usize - 1;
        self.pts[i].max(0) as u8 + self.mover_pinned_at(n) as u8
    }

    /// All checkers of the mover (0) or the opponent (1): on points, pinned or off.
    pub fn checkers(&self, who: usize) -> u32 {
        let sign: i8 = if who == 0 { 1 } else { -1 };
        let mut n = self.off[who] as u32;
        for (i, &c) in self.pts.iter().enumerate() {
            let c = c * sign;
            if c > 0 {
                n += c as u32;
            } else if c < 0 && self.is_pinned(i) {
                n += 1;
            }
        }
        n
    }

    /// Turns the board to the other player's frame.
    pub fn flip(&mut self) {
        self.pts = points::flipped(&self.pts);
        self.pinned = self.pinned.reverse_bits() >> 8;
        self.off.swap(0, 1);
        self.refresh_masks();
    }

    /// The board in absolute terms (this board must be in the first player's frame).
    pub fn absolute(&self) -> AbsBoard {
        let mut abs = AbsBoard {
            top: self.pts,
            off: self.off,
            ..AbsBoard::default()
        };
        for i in 0..24 {
            if self.is_pinned(i) {
                abs.under[i] = -self.pts[i].signum();
            }
        }
        abs
    }

    /// Pips each side still has to travel (mover, opponent), pinned checkers included.
    pub fn pips(&self) -> [u32; 2] {
        let mut pips = [0u32; 2];
        for (i, &c) in self.pts.iter().enumerate() {
            let (mine, theirs) = (i as u32 + 1, 24 - i as u32);
            if c > 0 {
                pips[0] += c as u32 * mine;
            } else if c < 0 {
                pips[1] += (-c) as u32 * theirs;
            }
            if self.is_pinned(i) {
                if c > 0 {
                    pips[1] += theirs;
                } else {
                    pips[0] += mine;
                }
            }
        }
        pips
    }

    /// A quick evaluation for the mover, -1..1: the race, pinned checkers
    /// (weighted by how far they still have to go) and bands.
    pub fn heuristic(&self, mother: bool) -> f64 {
        let [mine, theirs] = self.pips();
        let mut score = (theirs as f64 - mine as f64) / 30.0;
        for (i, &c) in self.pts.iter().enumerate() {
            if self.is_pinned(i) {
                // a pinned checker deep in the owner's journey costs more
                let weight = if c > 0 {
                    (24 - i) as f64
                } else {
                    (i + 1) as f64
                } / 24.0;
                score += if c > 0 { 0.6 + weight } else { -(0.6 + weight) };
            } else if c == 1 && i < 23 {
                score -= 0.08;
            } else if c >= 2 {
                score += 0.05;
            }
        }
        if mother && self.mover_pinned_at(24) {
            score -= 1.5;
        }
        if mother && self.opponent_pinned_at(1) {
            score += 1.5;
        }
        score += (self.off[0] as f64 - self.off[1] as f64) * 0.05;
        score.tanh()
    }

    /// TAW-8: bearing off needs all 15 in the home quarter and none pinned.
    #[inline]
    fn may_bear_off(&self) -> bool {
        self.mine >> 6 == 0 && self.pinned & !self.mine == 0
    }
}

/// The key bit of the mover's borne-off count (his count on point index i
/// is the nibble at bit 4i).
const OFF_SHIFT: u32 = 96;

/// One checker in the key, by point (1..24; [`OFF`] for borne off).
const KEY_UNIT: [u128; 25] = {
    let mut unit = [1u128 << OFF_SHIFT; 25];
    let mut n = 1;
    while n < 25 {
        unit[n] = 1 << (4 * (n - 1));
        n += 1;
    }
    unit
};

impl TawlaBoard {
    /// Sources (bit i: point i + 1) of moves with `die` onto open points.
    #[inline]
    fn movable(&self, die: u8) -> u32 {
        let d = die as u32;
        // TAW-4/5: sources at least `die` from off whose target is open
        self.mine & !(self.closed << d) & !((1u32 << d) - 1)
    }

    /// The steps with `die`: moves from the sources in `sources` (bit i:
    /// point i + 1), then bearing off from a point at most `ceiling`.
    #[inline]
    fn list_steps(&self, die: u8, sources: u32, ceiling: u8, out: &mut StepList) {
        out.clear();
        let d = die as u32;
        let mut movable = self.movable(die) & sources;
        while movable != 0 {
            let from = movable.trailing_zeros() as u8 + 1;
            out.push(Step {
                from,
                to: from - die,
                die,
            });
            movable &= movable - 1;
        }
        // TAW-8/9: bearing off, exactly or from the highest point
        if self.may_bear_off() {
            let home = self.mine & 0x3F;
            if home >> (d - 1) & 1 == 1 {
                if die <= ceiling {
                    out.push(Step {
                        from: die,
                        to: OFF,
                        die,
                    });
                }
            } else if home != 0 && home < 1 << (d - 1) {
                let from = 32 - home.leading_zeros() as u8;
                if from <= ceiling {
                    out.push(Step { from, to: OFF, die });
                }
            }
        }
    }
}

impl StepBoard for TawlaBoard {
    // Landing rights depend only on the opponent's checkers, which do not
    // move during the turn, and moving higher checkers first only helps
    // bearing off; so equal-die steps can be sorted by source.
    const SAME_DIE_ORDER_FREE: bool = true;

    // Only bearing off depends on where the other checkers stand.
    fn commutes(first: Step, second: Step) -> bool {
        first.to != OFF && second.to != OFF
    }

    fn steps(&self, die: u8, out: &mut StepList) {
        self.steps_up_to(die, u8::MAX, out);
    }

    #[inline]
    fn steps_up_to(&self, die: u8, ceiling: u8, out: &mut StepList) {
        let below = if ceiling >= 24 {
            u32::MAX
        } else {
            (1u32 << ceiling) - 1
        };
        self.list_steps(die, below, ceiling, out);
    }

    #[inline]
    fn steps_after(&self, die: u8, first: Step, sources: u32, out: &mut StepList) -> bool {
        if first.to == OFF {
            self.steps(die, out);
            return !out.as_slice().is_empty();
        }
        // every step but bearing off commutes with `first`: leave out the
        // moves from sources in `sources` (bit i + 1 for point i + 1)
        self.list_steps(die, !(sources >> 1), u8::MAX, out);
        !out.as_slice().is_empty() || self.movable(die) & sources >> 1 != 0
    }

    /// With checkers on three points outside the home quarter, two steps
    /// cannot bring all home to bear off (TAW-8); there is no bar.
    #[inline]
    fn plain_two_steps(&self) -> bool {
        points::at_least_three_bits(self.mine >> 6)
    }

    /// A landing on a lone checker pins it, and moving on frees it (TAW-6).
    #[inline]
    fn transit_leaves_no_trace(&self, _point: u8) -> bool {
        true
    }

    #[inline]
    fn plain_own(&self) -> u32 {
        self.mine << 1
    }

    /// Points at least `die` from off whose target is not closed; which
    /// points are closed cannot change during the mover's turn.
    #[inline]
    fn plain_reach(&self, die: u8) -> u32 {
        let d = die as u32;
        (!(self.closed << d) & !((1u32 << d) - 1) & 0xFF_FFFF) << 1
    }

    #[inline]
    fn lone_at(&self, point: u8) -> bool {
        self.pts[point as usize - 1] == 1
    }

    /// With more points outside the home quarter than steps, not all can
    /// come home to bear off.
    #[inline]
    fn plain_equal_steps(&self, count: usize) -> bool {
        (self.mine >> 6).count_ones() as usize > count
    }

    #[inline]
    fn own_counts(&self) -> [u8; 25] {
        let mut counts = [0; 25];
        for (c, &n) in counts[1..].iter_mut().zip(&self.pts) {
            *c = n.max(0) as u8;
        }
        counts
    }

    #[inline]
    fn apply_step(&mut self, step: Step) {
        let f = step.from as usize - 1;
        self.pts[f] -= 1;
        if self.pts[f] == 0 {
            self.mine &= !(1 << f);
            if self.is_pinned(f) {
                self.pts[f] = -1;
                self.pinned &= !(1 << f);
            }
        }
        if step.to == OFF {
            self.off[0] += 1;
        } else {
            let t = step.to as usize - 1;
            if self.pts[t] == -1 {
                self.pts[t] = 1;
                self.pinned |= 1 << t;
            } else {
                self.pts[t] += 1;
            }
            self.mine |= 1 << t;
        }
    }

    #[inline]
    fn key(&self) -> u128 {
        // The mover's counts (0..15) as nibbles, and his borne-off count:
        // within a turn they fix the whole position (pins follow from them).
        let mut k = (self.off[0] as u128) << OFF_SHIFT;
        for (c, chunk) in self.pts.chunks_exact(8).enumerate() {
            let mut bytes = [0u8; 8];
            for (b, &n) in bytes.iter_mut().zip(chunk) {
                *b = n as u8;
            }
            let w = u64::from_le_bytes(bytes);
            // zero the negative (opponent) bytes
            let neg = (w >> 7) & 0x0101_0101_0101_0101;
            let w = w & !(neg * 0xFF);
            // pack the eight bytes (each < 16) into 32 bits of nibbles
            let w = (w | w >> 4) & 0x00FF_00FF_00FF_00FF;
            let w = (w | w >> 8) & 0x0000_FFFF_0000_FFFF;
            let w = (w | w >> 16) & 0xFFFF_FFFF;
            k |= (w as u128) << (32 * c);
        }
        k
    }

    #[inline]
    fn key_after(&self, key: u128, step: Step) -> u128 {
        key - KEY_UNIT[step.from as usize] + KEY_UNIT[step.to as usize]
    }
}
