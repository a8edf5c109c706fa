//! The play generator: every way to play a roll under a dice-usage rule,
//! each resulting position offered once. Allocates nothing once warmed up.
//!
//! Two different dice are played in both orders by two flat loops, equal
//! dice by an explicit stack with sources taken from high to low where the
//! board allows, and positions are told apart by keys in a small hash set
//! that is cleared by zeroing only the slots in use. On a plain board (no
//! bar, no bearing off within the turn) both work on bit masks of sources
//! instead of board copies and step lists, and need no keys.

mod equal;
mod key_set;
#[cfg(test)]
mod reference;
mod step_board;
#[cfg(test)]
mod tests;

use super::play::{Play, Step};
use key_set::KeySet;
pub use step_board::{StepBoard, StepList};

/// How the dice of one roll must be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceRule {
    /// Backgammon's rule: use as many dice as possible, in any order; if only
    /// one of two different dice can be used, the higher when either could.
    Maximize,
    /// The dice are played in the order given; a die that cannot be played
    /// ends the play (High-O Gammon's smaller-first rule).
    InOrder,
}

thread_local! {
    /// The thread's play generator, shared by every tables game.
    static PLAY_GEN: std::cell::RefCell<PlayGen> = std::cell::RefCell::new(PlayGen::default());
}

/// Calls `f` with this thread's play generator (its buffers are reused).
pub fn with_play_gen<T>(f: impl FnOnce(&mut PlayGen) -> T) -> T {
    PLAY_GEN.with(|g| f(&mut g.borrow_mut()))
}

/// Reusable buffers for generating plays.
#[derive(Debug)]
pub struct PlayGen {
    leaves: Vec<Play>,
    seen: KeySet,
    max_len: usize,
    maximize: bool,
}

impl Default for PlayGen {
    fn default() -> Self {
        PlayGen {
            // sized for the largest rolls, so that generation never allocates
            leaves: Vec::with_capacity(2048),
            seen: KeySet::default(),
            max_len: 0,
            maximize: true,
        }
    }
}

impl PlayGen {
    /// Generates the distinct plays of `dice` on `board` (read them with
    /// [`PlayGen::plays`]). For [`DiceRule::Maximize`] with two different dice
    /// both orders are tried. A roll that cannot be played gives the one
    /// empty play.
    pub fn generate<B: StepBoard>(&mut self, board: &B, dice: &[u8], rule: DiceRule) {
        self.leaves.clear();
        self.seen.clear();
        self.max_len = 0;
        self.maximize = rule == DiceRule::Maximize;
        if let ([a, b], DiceRule::InOrder) = (dice, rule)
            && board.two_steps_in_order(*a, *b, &mut self.leaves)
        {
            return;
        }
        match dice {
            [a, b] if *a != *b => {
                if board.plain_two_steps() {
                    let firsts = board.plain_own() & board.plain_reach(*a);
                    self.plain_order(board, *a, *b, firsts, None);
                    if rule == DiceRule::Maximize {
                        let seconds = board.plain_own() & board.plain_reach(*b);
                        self.plain_order(board, *b, *a, seconds, Some(firsts));
                        self.keep_higher_die(*a, *b);
                    }
                    return;
                }
                let key = board.key();
                self.in_order(board, *a, *b, key, None);
                if rule == DiceRule::Maximize {
                    self.other_order(board, *a, *b, key);
                }
            }
            [a, rest @ ..] if rest.iter().all(|d| d == a) => self.equal_dice(board, *a, dice.len()),
            _ => self.search(board, dice, Play::EMPTY, board.key(), u8::MAX),
        }
    }

    /// The plays found by the last [`PlayGen::generate`].
    pub fn plays(&self) -> impl ExactSizeIterator<Item = Play> + '_ {
        self.leaves.iter().copied()
    }

    /// How many plays the last [`PlayGen::generate`] found.
    #[inline]
    pub fn len(&self) -> usize {
        self.leaves.len()
    }

    /// Whether the last [`PlayGen::generate`] found no play (never after a
    /// generation: an unplayable roll gives the empty play).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }

    /// The play at `index` in the order of [`PlayGen::plays`].
    #[inline]
    pub fn play(&self, index: usize) -> Play {
        self.leaves[index]
    }

    /// `a` then `b`; with `skip` (the first order's sources, in the other
    /// order's pass) second steps that give a position the first pass
    /// already reached are left out.
    #[inline(always)]
    fn in_order<B: StepBoard>(&mut self, board: &B, a: u8, b: u8, key: u128, skip: Option<u32>) {
        let mut firsts = StepList::default();
        board.steps(a, &mut firsts);
        if firsts.as_slice().is_empty() {
            self.leaf(0, key, Play::EMPTY, false);
            return;
        }
        let mut seconds = StepList::default();
        for &x in firsts.as_slice() {
            let key_x = board.key_after(key, x);
            let mut next = *board;
            next.apply_step(x);
            let any = match skip {
                Some(sources) => next.steps_after(b, x, sources, &mut seconds),
                None => {
                    next.steps(b, &mut seconds);
                    !seconds.as_slice().is_empty()
                }
            };
            let play_x = Play::EMPTY.with(x);
            for &y in seconds.as_slice() {
                self.leaf(2, next.key_after(key_x, y), play_x.with(y), false);
            }
            if !any {
                self.leaf(1, key_x, play_x, false);
            }
        }
    }

    /// `a` then `b` on a board with [`StepBoard::plain_two_steps`], from the
    /// sources `firsts` (bit p for point p): every step goes from p down to
    /// p - die, so the second steps follow from bit masks without making
    /// the first step on a copy of the board. `skip` as in
    /// [`PlayGen::in_order`]: the other die's sources, in the second pass,
    /// whose steps commute with the first step (all but the checker that
    /// just landed) and were met in the first pass.
    #[inline(always)]
    fn plain_order<B: StepBoard>(
        &mut self,
        board: &B,
        a: u8,
        b: u8,
        firsts: u32,
        skip: Option<u32>,
    ) {
        if firsts == 0 {
            self.leaf(0, 0, Play::EMPTY, true);
            return;
        }
        let own = board.plain_own();
        let reach_b = board.plain_reach(b);
        let mut left = firsts;
        while left != 0 {
            let from = left.trailing_zeros() as u8;
            left &= left - 1;
            let x = Step {
                from,
                to: from - a,
                die: a,
            };
            let emptied = if board.lone_at(from) { 1 << from } else { 0 };
            let all = (own & !emptied | 1 << x.to) & reach_b;
            let mut seconds = match skip {
                Some(sources) => all & !(sources & !(1 << x.to)),
                None => all,
            };
            if seconds >> x.to & 1 == 1 {
                let y = Step {
                    from: x.to,
                    to: x.to - b,
                    die: b,
                };
                if Self::repeats(board, x, y, skip, firsts) {
                    seconds &= !(1 << x.to);
                }
            }
            let play_x = Play::EMPTY.with(x);
            self.mask_leaves(2, play_x, seconds, b);
            if all == 0 {
                self.leaf(1, 0, play_x, true);
            }
        }
    }

    /// Whether the move of one checker by both dice, `x` then `y` (on a
    /// board with [`StepBoard::plain_two_steps`]), reaches a position an
    /// earlier play reached. `own_sources` are the sources of `x`'s die;
    /// `skip` the other die's sources in the second pass.
    ///
    /// The first pass (die a, then b) meets one checker's move from p by
    /// a then b again as the checker on p - b moved by a and then p's
    /// checker by b (found earlier: sources go from low to high), unless
    /// the first landing, p - a, hit. The second pass (b, then a) meets it
    /// again as the first pass's: the checker on p - b moved by a then p's
    /// by b, or p's checker moved by a then b where neither landing hit.
    #[inline(always)]
    fn repeats<B: StepBoard>(board: &B, x: Step, y: Step, skip: Option<u32>, own: u32) -> bool {
        match skip {
            None => own >> (x.from - y.die) & 1 == 1 && board.transit_leaves_no_trace(x.to),
            Some(other) => {
                other >> x.to & 1 == 1
                    || (other >> x.from & 1 == 1
                        && board.transit_leaves_no_trace(x.from - y.die)
                        && board.transit_leaves_no_trace(x.to))
            }
        }
    }

    /// Backgammon's second pass over two different dice: `b` then `a`, then
    /// only the higher die if a single die can be played.
    fn other_order<B: StepBoard>(&mut self, board: &B, a: u8, b: u8, key: u128) {
        let mut firsts = StepList::default();
        board.steps(a, &mut firsts);
        let sources = firsts.as_slice().iter().fold(0, |m, s| m | 1 << s.from);
        self.in_order(board, b, a, key, Some(sources));
        self.keep_higher_die(a, b);
    }

    /// After both orders of two different dice: if only one die can be
    /// played, only the higher where either could.
    fn keep_higher_die(&mut self, a: u8, b: u8) {
        if self.max_len == 1 {
            let high = a.max(b);
            if self.leaves.iter().any(|p| p.steps()[0].die == high) {
                self.leaves.retain(|p| p.steps()[0].die == high);
            }
        }
    }

    /// Any other dice (High-O Gammon's underside rule): in the order given,
    /// depth first; `ceiling` bounds the source after a step of the same die
    /// where the board allows reordering.
    fn search<B: StepBoard>(&mut self, board: &B, dice: &[u8], play: Play, key: u128, ceiling: u8) {
        if let Some((&die, rest)) = dice.split_first() {
            let mut steps = StepList::default();
            board.steps(die, &mut steps);
            let same_next = B::SAME_DIE_ORDER_FREE && rest.first() == Some(&die);
            let mut any = false;
            for &step in steps.as_slice() {
                if step.from > ceiling {
                    continue;
                }
                any = true;
                let mut next = *board;
                next.apply_step(step);
                let next_key = board.key_after(key, step);
                let next_ceiling = if same_next { step.from } else { u8::MAX };
                self.search(&next, rest, play.with(step), next_key, next_ceiling);
            }
            if any {
                return;
            }
        }
        self.leaf(play.len(), key, play, false);
    }

    /// Records the plays `prefix` then each of `steps` (of `depth` dice),
    /// known to reach new positions.
    #[inline(always)]
    fn distinct_leaves(&mut self, depth: usize, prefix: Play, steps: &[Step]) {
        if steps.is_empty() {
            return;
        }
        if self.maximize && depth != self.max_len {
            if depth < self.max_len {
                return;
            }
            self.leaves.clear();
            self.seen.clear();
            self.max_len = depth;
        }
        self.leaves.extend(steps.iter().map(|&s| prefix.with(s)));
    }

    /// Records the plays `prefix` then a step of `die` from each source in
    /// `sources` (bit p for point p, down to p - die), of `depth` dice,
    /// known to reach new positions.
    #[inline(always)]
    fn mask_leaves(&mut self, depth: usize, prefix: Play, mut sources: u32, die: u8) {
        if sources == 0 {
            return;
        }
        if self.maximize && self.max_len != depth {
            if self.max_len > depth {
                return;
            }
            self.leaves.clear();
            self.seen.clear();
            self.max_len = depth;
        }
        self.leaves.reserve(sources.count_ones() as usize);
        while sources != 0 {
            let from = sources.trailing_zeros() as u8;
            sources &= sources - 1;
            self.leaves.push(prefix.with(Step {
                from,
                to: from - die,
                die,
            }));
        }
    }

    /// Records a finished play of `depth` dice reaching the position `key`
    /// (`new`: known to be a position not reached before, key unused).
    #[inline(always)]
    fn leaf(&mut self, depth: usize, key: u128, play: Play, new: bool) {
        if self.maximize && depth != self.max_len {
            if depth < self.max_len {
                return;
            }
            self.leaves.clear();
            self.seen.clear();
            self.max_len = depth;
        }
        if new || self.seen.insert(key) {
            self.leaves.push(play);
        }
    }
}
