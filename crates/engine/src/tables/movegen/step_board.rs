//! What the generator asks of a board: its single steps per die
//! ([`StepBoard`]) in a fixed-size list ([`StepList`]), with the fast paths
//! a plain board may offer.

use crate::tables::play::{Play, Step};
/// The single steps possible with one die (at most one per source point).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepList {
    steps: [Step; 16],
    len: u8,
}

impl StepList {
    /// Adds a step (ignored past 16, which no game reaches).
    #[inline]
    pub fn push(&mut self, step: Step) {
        if (self.len as usize) < self.steps.len() {
            self.steps[self.len as usize] = step;
            self.len += 1;
        }
    }

    /// The steps.
    #[inline]
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Removes all steps.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the steps whose source is at most `ceiling`, in order.
    pub fn retain_up_to(&mut self, ceiling: u8) {
        self.retain(|s| s.from <= ceiling);
    }

    /// Keeps only the steps for which `keep` holds, in order.
    pub fn retain(&mut self, keep: impl Fn(&Step) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            if keep(&self.steps[i]) {
                self.steps[kept] = self.steps[i];
                kept += 1;
            }
        }
        self.len = kept as u8;
    }
}

/// A board seen by the player to move, on which single steps can be made.
pub trait StepBoard: Copy {
    /// True when steps of equal dice can always be reordered with sources
    /// from high to low without losing a position (so the generator only
    /// tries that order for doubles), and a step's destination follows from
    /// its source and die. Then different sets of sources move different
    /// checkers' counts, so every play of equal dice found in that order
    /// reaches its own position and the generator skips the key set.
    const SAME_DIE_ORDER_FREE: bool = false;
    /// Replaces `out` with every legal single step using `die`, one per source.
    fn steps(&self, die: u8, out: &mut StepList);
    /// Like [`StepBoard::steps`], keeping only steps whose source is at most
    /// `ceiling` (override to skip the others while listing).
    fn steps_up_to(&self, die: u8, ceiling: u8, out: &mut StepList) {
        self.steps(die, out);
        out.retain_up_to(ceiling);
    }
    /// True when `first` then `second` (both legal in that order) gives the
    /// same position as `second` then `first` whenever `second` was legal at
    /// the start too; lets the generator skip the repeated order.
    fn commutes(_first: Step, _second: Step) -> bool {
        false
    }
    /// The steps with `die` after `first` (played with the other die),
    /// leaving out those whose source is in `sources` (bit = source) and
    /// that commute with `first`: the other order reached their positions.
    /// True if any step was possible before leaving those out.
    fn steps_after(&self, die: u8, first: Step, sources: u32, out: &mut StepList) -> bool {
        self.steps(die, out);
        let any = !out.as_slice().is_empty();
        out.retain(|y| !(sources >> y.from & 1 == 1 && Self::commutes(first, *y)));
        any
    }
    /// True when no two steps of different dice from this board can enter
    /// from the bar or bear off, every step goes from a point down to the
    /// point `die` lower, steps are listed by source from low to high, and
    /// the key counts the mover's checkers per point (plus what
    /// [`StepBoard::transit_leaves_no_trace`] allows for). Then the only
    /// plays of two different dice that repeat a position are the moves of
    /// one checker by both dice, and the generator finds those repeats
    /// without the key set (see `PlayGen::repeats`).
    fn plain_two_steps(&self) -> bool {
        false
    }
    /// Whether a checker landing on `point` and moving on in the same turn
    /// leaves the position as if it had not landed there (false where a
    /// landing hits).
    fn transit_leaves_no_trace(&self, _point: u8) -> bool {
        false
    }
    /// Where [`StepBoard::plain_two_steps`] holds: the points holding the
    /// mover's checkers (bit p for point p).
    fn plain_own(&self) -> u32 {
        0
    }
    /// Where [`StepBoard::plain_two_steps`] holds: the points (bit p for
    /// point p) from which a checker could step by `die` onto an open point.
    /// Which points are open must not change during the turn.
    fn plain_reach(&self, _die: u8) -> u32 {
        0
    }
    /// Whether the mover has exactly one checker on `point` (1..24).
    fn lone_at(&self, _point: u8) -> bool {
        false
    }
    /// Like [`StepBoard::plain_two_steps`] for `count` steps of one die:
    /// no checker on the bar, and so many of the mover's points outside his
    /// home quarter that `count` steps cannot bring all home.
    fn plain_equal_steps(&self, _count: usize) -> bool {
        false
    }
    /// The mover's checkers per point (index p for point p; 0 unused).
    fn own_counts(&self) -> [u8; 25] {
        [0; 25]
    }
    /// Where the board can list the plays of two dice played in the order
    /// given ([`DiceRule::InOrder`](super::DiceRule::InOrder), `first` then `second`) without keys:
    /// appends them to `out` in the order the keyed search finds them and
    /// returns true; else returns false with `out` untouched.
    fn two_steps_in_order(&self, _first: u8, _second: u8, _out: &mut Vec<Play>) -> bool {
        false
    }
    /// Makes one step (which `steps` offered).
    fn apply_step(&mut self, step: Step);
    /// A key that is equal for two boards exactly when they are the same
    /// position (within one turn of one mover).
    fn key(&self) -> u128;
    /// The key after `step`, given this board's `key` (override when it can
    /// be updated without recomputing).
    fn key_after(&self, _key: u128, step: Step) -> u128 {
        let mut next = *self;
        next.apply_step(step);
        next.key()
    }
}
