//! The backgammon board in the frame of the player to move.

use crate::tables::{AbsBoard, BAR, OFF, Step, StepBoard, StepList, points};

/// A backgammon board seen by the player to move: index i is his point i+1
/// (he moves from 24 down to 1 and bears off below 1). Positive counts are
/// his checkers, negative the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackgammonBoard {
    pts: [i8; 24],
    /// On the bar: the mover's, then the opponent's.
    bar: [u8; 2],
    /// Borne off: the mover's, then the opponent's.
    off: [u8; 2],
    /// Bit i: the mover has a checker on point i+1 (kept in step with `pts`).
    mine: u32,
    /// Bit i: the opponent has a checker on point i+1.
    theirs: u32,
    /// Bit i: the opponent holds point i+1 with two or more (closed).
    closed: u32,
}

impl BackgammonBoard {
    /// BG-start: two on the 24 point, five on 13, three on 8, five on 6, for
    /// each player in his own numbering.
    pub fn start() -> Self {
        let mut pts = [0i8; 24];
        for (point, n) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            pts[point - 1] = n;
            pts[24 - point] = -n;
        }
        Self::from_parts(pts, [0, 0], [0, 0])
    }

    /// A board from counts in the mover's numbering: `pts[i]` is point i+1
    /// (positive: the mover's), then bar and borne-off counts (mover first).
    pub fn from_parts(pts: [i8; 24], bar: [u8; 2], off: [u8; 2]) -> Self {
        let mut b = BackgammonBoard {
            pts,
            bar,
            off,
            mine: 0,
            theirs: 0,
            closed: 0,
        };
        b.recount();
        b
    }

    #[inline]
    fn recount(&mut self) {
        let m = points::masks(&self.pts);
        self.mine = m.positive;
        self.theirs = m.negative;
        self.closed = m.negative & !m.minus_one;
    }

    /// The signed count on the mover's point `n` (1..24).
    pub fn at(&self, n: u8) -> i8 {
        self.pts[n as usize - 1]
    }

    /// Checkers on the bar: 0 the mover, 1 the opponent.
    pub fn bar(&self, who: usize) -> u8 {
        self.bar[who]
    }

    /// Checkers borne off: 0 the mover, 1 the opponent.
    pub fn off(&self, who: usize) -> u8 {
        self.off[who]
    }

    /// All checkers of the mover (0) or the opponent (1): points, bar and off.
    pub fn checkers(&self, who: usize) -> u32 {
        let sign: i8 = if who == 0 { 1 } else { -1 };
        let on: u32 = self.pts.iter().map(|&c| (c * sign).max(0) as u32).sum();
        on + self.bar[who] as u32 + self.off[who] as u32
    }

    /// Turns the board to the other player's frame.
    pub fn flip(&mut self) {
        self.pts = points::flipped(&self.pts);
        self.bar.swap(0, 1);
        self.off.swap(0, 1);
        self.recount();
    }

    /// The board in absolute terms (this board must be in the first player's frame).
    pub fn absolute(&self) -> AbsBoard {
        AbsBoard {
            top: self.pts,
            under: [0; 24],
            bar: self.bar,
            off: self.off,
        }
    }

    /// Pips each side still has to travel (mover, opponent); the bar counts 25.
    pub fn pips(&self) -> [u32; 2] {
        let mut pips = [self.bar[0] as u32 * 25, self.bar[1] as u32 * 25];
        for (i, &c) in self.pts.iter().enumerate() {
            if c > 0 {
                pips[0] += c as u32 * (i as u32 + 1);
            } else if c < 0 {
                pips[1] += (-c) as u32 * (24 - i as u32);
            }
        }
        pips
    }

    /// Whether the opponent still has a checker on the bar or in the mover's
    /// home board (the mover's points 1..6): a backgammon if the mover wins now.
    pub fn opponent_in_mover_home(&self) -> bool {
        self.bar[1] > 0 || self.pts[..6].iter().any(|&c| c < 0)
    }

    /// A quick evaluation for the mover, -1..1: the race, blots, made points
    /// in the home board and the bar.
    pub fn heuristic(&self) -> f64 {
        let [mine, theirs] = self.pips();
        let mut score = (theirs as f64 - mine as f64) / 40.0;
        for (i, &c) in self.pts.iter().enumerate() {
            if c == 1 {
                score -= 0.06;
            } else if c == -1 {
                score += 0.06;
            } else if c >= 2 && i < 7 {
                score += 0.07;
            } else if c <= -2 && i > 16 {
                score -= 0.07;
            }
        }
        score += (self.off[0] as f64 - self.off[1] as f64) * 0.04;
        score.tanh()
    }

    /// Whether every checker of the mover is in his home board (points 1..6).
    #[inline]
    fn all_home(&self) -> bool {
        self.bar[0] == 0 && self.mine >> 6 == 0
    }
}

impl BackgammonBoard {
    /// Target indices (bit t: point t + 1) of moves with `die` onto open
    /// points (BG-4: a point is closed by two or more of the opponent's).
    #[inline]
    fn movers(&self, die: u8) -> u32 {
        (self.mine >> die) & !self.closed
    }

    /// The steps with `die`: entering from the bar, or moves onto the
    /// target indices in `targets` (bit t: point t + 1), then bearing off
    /// from a point at most `ceiling`.
    #[inline]
    fn list_steps(&self, die: u8, targets: u32, ceiling: u8, out: &mut StepList) {
        out.clear();
        let d = die as usize;
        if self.bar[0] > 0 {
            // BG-5: a checker on the bar enters on the opponent's home board
            // (the mover's point 25 - die) before anything else moves.
            if self.closed >> (24 - d) & 1 == 0 && ceiling >= BAR {
                out.push(Step {
                    from: BAR,
                    to: 25 - die,
                    die,
                });
            }
            return;
        }
        let mut movers = self.movers(die) & targets;
        while movers != 0 {
            let t = movers.trailing_zeros() as u8;
            movers &= movers - 1;
            out.push(Step {
                from: t + 1 + die,
                to: t + 1,
                die,
            });
        }
        // BG-7: bearing off, from the die's own point or, with a larger die,
        // from the highest occupied point.
        if self.all_home() && self.mine != 0 {
            let highest = 31 - self.mine.leading_zeros() as usize;
            if self.mine >> (d - 1) & 1 == 1 {
                if die <= ceiling {
                    out.push(Step {
                        from: die,
                        to: OFF,
                        die,
                    });
                }
            } else if highest < d - 1 && (highest as u8) < ceiling {
                out.push(Step {
                    from: highest as u8 + 1,
                    to: OFF,
                    die,
                });
            }
        }
    }
}

/// One of the mover's checkers in the key, by point (1..24; [`OFF`] at bit
/// 96 for borne off; none for [`BAR`], which the key leaves out).
const KEY_UNIT: [u128; 26] = {
    let mut unit = [0u128; 26];
    unit[OFF as usize] = 1 << 96;
    let mut n = 1;
    while n < 25 {
        unit[n] = 1 << (4 * (n - 1));
        n += 1;
    }
    unit
};

/// The key bit saying the opponent still stands on a point (1..24).
const KEY_THEIRS: [u128; 25] = {
    let mut bit = [0u128; 25];
    let mut n = 1;
    while n < 25 {
        bit[n] = 1 << (100 + n - 1);
        n += 1;
    }
    bit
};

impl StepBoard for BackgammonBoard {
    // BG-3..BG-7: points only open up during a turn (hits remove blots),
    // so with doubles moving the farthest checkers first never loses a
    // position.
    const SAME_DIE_ORDER_FREE: bool = true;

    /// Two steps of different checkers commute unless one enters from the
    /// bar or bears off (those depend on where the other checkers are).
    fn commutes(first: Step, second: Step) -> bool {
        second.from != first.to
            && first.from != BAR
            && second.from != BAR
            && first.to != OFF
            && second.to != OFF
    }

    fn steps(&self, die: u8, out: &mut StepList) {
        self.steps_up_to(die, u8::MAX, out);
    }

    #[inline]
    fn steps_up_to(&self, die: u8, ceiling: u8, out: &mut StepList) {
        // the target index t = from - 1 - die must be below ceiling - die
        let below = (ceiling as usize).saturating_sub(die as usize).min(31);
        self.list_steps(die, (1u32 << below) - 1, ceiling, out);
    }

    #[inline]
    fn steps_after(&self, die: u8, first: Step, sources: u32, out: &mut StepList) -> bool {
        if first.from == BAR || first.to == OFF || self.bar[0] > 0 {
            self.steps(die, out);
            return !out.as_slice().is_empty();
        }
        // moves commute with `first` unless they continue it: leave out
        // those from sources in `sources` (bit = point), by target index
        let d = die as u32;
        let left_out = (sources & !(1 << first.to)) >> (1 + d);
        self.list_steps(die, !left_out, u8::MAX, out);
        !out.as_slice().is_empty() || self.movers(die) & left_out != 0
    }

    /// Nothing on the bar (BG-5), and checkers on three points outside the
    /// home board: two steps can neither enter nor bear off (BG-7).
    #[inline]
    fn plain_two_steps(&self) -> bool {
        self.bar[0] == 0 && points::at_least_three_bits(self.mine >> 6)
    }

    /// A landing hits a blot (BG-4); elsewhere it leaves no trace.
    #[inline]
    fn transit_leaves_no_trace(&self, point: u8) -> bool {
        self.pts[point as usize - 1] != -1
    }

    #[inline]
    fn plain_own(&self) -> u32 {
        self.mine << 1
    }

    /// Points `die` above a point the opponent has not closed (hits only
    /// take blots, so no point closes or opens during the turn).
    #[inline]
    fn plain_reach(&self, die: u8) -> u32 {
        ((!self.closed & 0xFF_FFFF) << (1 + die as u32)) & 0x1FF_FFFE
    }

    #[inline]
    fn lone_at(&self, point: u8) -> bool {
        self.pts[point as usize - 1] == 1
    }

    /// With more points outside the home quarter than steps, not all can
    /// come home to bear off.
    #[inline]
    fn plain_equal_steps(&self, count: usize) -> bool {
        self.bar[0] == 0 && (self.mine >> 6).count_ones() as usize > count
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
        if step.from == BAR {
            self.bar[0] -= 1;
        } else {
            let f = step.from as usize - 1;
            self.pts[f] -= 1;
            if self.pts[f] == 0 {
                self.mine &= !(1 << f);
            }
        }
        if step.to == OFF {
            self.off[0] += 1;
        } else {
            let t = step.to as usize - 1;
            if self.pts[t] == -1 {
                // BG-4: a hit; the opponent's blot goes to his bar
                self.pts[t] = 0;
                self.theirs &= !(1 << t);
                self.bar[1] += 1;
            }
            self.pts[t] += 1;
            self.mine |= 1 << t;
        }
    }

    /// The mover's count on every point (4 bits each, point n at bit
    /// 4(n-1)), his borne-off count (bit 96) and the points where the
    /// opponent still stands (bits 100..124): within one turn that says
    /// exactly which blots were hit, and the mover's bar count follows from
    /// the total of 15.
    #[inline]
    fn key(&self) -> u128 {
        let nibbles = |pts: &[i8]| {
            pts.iter()
                .rev()
                .fold(0u64, |k, &c| k << 4 | c.max(0) as u64)
        };
        let lo = nibbles(&self.pts[..16]);
        let hi = nibbles(&self.pts[16..]) | (self.off[0] as u64) << 32 | (self.theirs as u64) << 36;
        (hi as u128) << 64 | lo as u128
    }

    #[inline]
    fn key_after(&self, key: u128, step: Step) -> u128 {
        let mut key = key - KEY_UNIT[step.from as usize] + KEY_UNIT[step.to as usize];
        if step.to != OFF && self.pts[step.to as usize - 1] == -1 {
            key &= !KEY_THEIRS[step.to as usize];
        }
        key
    }
}

#[cfg(test)]
impl BackgammonBoard {
    /// Checks the invariants: 15 checkers each, no point shared.
    pub fn check(&self) {
        assert_eq!(
            self.checkers(0),
            super::CHECKERS as u32,
            "mover's checkers: {self:?}"
        );
        assert_eq!(
            self.checkers(1),
            super::CHECKERS as u32,
            "opponent's checkers: {self:?}"
        );
    }
}
