//! The plays of two dice on the mover's view without keys, where neither a
//! stone on the bar nor bearing off can come into the turn.
//!
//! Masks here are indexed by step code: bit c for field d = c - 1, and bit 0
//! for the Tric-Trac stones not yet entered (which enter like a stone at
//! d = -1, and are listed first, as [`crate::tables::StepBoard::steps`] lists them).
//!
//! The generator keeps the first play that reaches each position, trying
//! sources from low to high for the first die, then for the second. With
//! the first die `a` and the second `b`, from sources taken in that order:
//! - `a < b`: two plays reach one position only as the stone on q moved by
//!   both dice (q to q + a to q + a + b) and the stone on q + b moved by `a`
//!   and then q's stone by `b` (which comes later, its first source being
//!   higher). The second is a repeat when the first is legal (q + a open at
//!   the start) and hits nothing on q + a; no other two plays of different
//!   steps move the same stones by the same amounts.
//! - `a == b`: the first step from c and the second from a lower source q
//!   give what q then c gave earlier, if q's step was open at the start
//!   (both land where they would in either order, so they hit the same).

use super::{GOAL_FIRST, IN_CODE, MoverView, TRACK};
use crate::tables::{Play, Step};

/// Bits 1..=20: the codes of the fields on the mover's track.
const FIELD_CODES: u32 = ((1 << TRACK) - 1) << 1;

impl MoverView {
    /// Appends the plays of `a` then `b` (`a <= b`; the second die is lost
    /// if it cannot be played, the roll if the first cannot) to `out` in the
    /// order of the keyed generator, and returns true; returns false, with
    /// `out` untouched, when a stone is on the bar or bearing off could
    /// start within the turn (then the keyed generator must do it).
    pub(super) fn two_step_plays(&self, a: u8, b: u8, out: &mut Vec<Play>) -> bool {
        if self.bar > 0 || (!self.tric && !self.two_outside_goal()) {
            return false;
        }
        let own = self.occupied << 1 | (self.pool > 0) as u32;
        let open = !(self.bands | self.full) << 1 & FIELD_CODES;
        let firsts = own & open >> a;
        if firsts == 0 {
            out.push(Play::EMPTY);
            return true;
        }
        let mut left = firsts;
        while left != 0 {
            let from = left.trailing_zeros();
            left &= left - 1;
            let to = from + a as u32;
            let play = Play::EMPTY.with(step(from, a));
            let (own_after, open_after) = self.after_step(own, open, from, to);
            let all = own_after & open_after >> b;
            if all == 0 {
                out.push(play);
                continue;
            }
            let repeats = if a == b {
                // sources below `from` whose step was open at the start
                ((1 << from) - 1) & open >> a
            } else {
                match from.checked_sub(b as u32) {
                    Some(q) if open >> (q + a as u32) & 1 == 1 && !self.blot_at(q + a as u32) => {
                        1 << q
                    }
                    _ => 0,
                }
            };
            let mut seconds = all & !repeats;
            while seconds != 0 {
                let second = seconds.trailing_zeros();
                seconds &= seconds - 1;
                out.push(play.with(step(second, b)));
            }
        }
        true
    }

    /// The source and open masks after a step from code `from` to code `to`.
    #[inline(always)]
    fn after_step(&self, own: u32, open: u32, from: u32, to: u32) -> (u32, u32) {
        let left_empty = if from == 0 {
            self.pool == 1
        } else {
            self.own[from as usize - 1] == 1
        };
        let own_after = own & !((left_empty as u32) << from) | 1 << to;
        if !self.tric {
            return (own_after, open);
        }
        // TT-3: the field left is below 3 now, the field reached may be full
        let d = to as usize - 1;
        let full = self.own[d] >= 2 && d % 7 != 6;
        let open_after = (open | ((from != 0) as u32) << from) & !((full as u32) << to);
        (own_after, open_after)
    }

    /// Whether an opposing blot stands on the field with code `code`.
    #[inline(always)]
    fn blot_at(&self, code: u32) -> bool {
        self.opp[code as usize - 1] == 1
    }

    /// Whether two or more of the mover's stones stand short of his goal
    /// points (HG-14): then one step cannot bring all home, and no stone
    /// bears off this turn.
    #[inline(always)]
    fn two_outside_goal(&self) -> bool {
        let outside = self.occupied & ((1 << GOAL_FIRST) - 1);
        outside & outside.wrapping_sub(1) != 0
            || (outside != 0 && self.own[outside.trailing_zeros() as usize] >= 2)
    }
}

/// The step from code `from` (0: a stone not yet entered) by `die`.
#[inline(always)]
fn step(from: u32, die: u8) -> Step {
    Step {
        from: if from == 0 { IN_CODE } else { from as u8 },
        to: from as u8 + die,
        die,
    }
}
