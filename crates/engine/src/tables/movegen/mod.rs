//! The play generator: every way to play a roll under a dice-usage rule,
//! each resulting position offered once. Allocates nothing once warmed up.
//!
//! Two different dice are played in both orders by two flat loops, equal
//! dice by an explicit stack with sources taken from high to low where the
//! board allows, and positions are told apart by keys in a small hash set
//! that is cleared by zeroing only the slots in use. On a plain board (no
//! bar, no bearing off within the turn) both work on bit masks of sources
//! instead of board copies and step lists, and need no keys.

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use super::play::{Play, Step};

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
    /// Where the dice are played in the order given: appends to `out` the
    /// plays of two different dice, `a` then `b`, each reaching its own
    /// position, in the order the keyed search lists them; false (and
    /// `out` unchanged) where the board cannot tell repeats without keys.
    fn distinct_plays_in_order(&self, _a: u8, _b: u8, _out: &mut Vec<Play>) -> bool {
        false
    }
    /// Like [`StepBoard::distinct_plays_in_order`] for two steps of one die.
    fn distinct_equal_pair(&self, _die: u8, _out: &mut Vec<Play>) -> bool {
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

/// The first slots of the key set's table each generation (a power of two).
const MIN_SLOTS: usize = 64;

/// The keys of the positions reached so far, in the order found, with an
/// open-addressed table of their indices.
#[derive(Debug)]
struct KeySet {
    /// Index + 1 into `keys`, 0 for an empty slot; only `..=mask` is in use.
    slots: Vec<u32>,
    keys: Vec<u128>,
    mask: usize,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet {
            slots: vec![0; 1 << 12],
            keys: Vec::with_capacity(1 << 11),
            mask: MIN_SLOTS - 1,
        }
    }
}

impl KeySet {
    #[inline]
    fn clear(&mut self) {
        if self.keys.is_empty() {
            return;
        }
        self.slots[..=self.mask].fill(0);
        self.keys.clear();
        self.mask = MIN_SLOTS - 1;
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 40) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 40) as usize & mask
    }

    /// Adds `key`; false if it was there already.
    #[inline(always)]
    fn insert(&mut self, key: u128) -> bool {
        if self.keys.len() * 2 >= self.mask {
            self.grow();
        }
        let mut i = Self::slot_of(key, self.mask);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.keys.push(key);
                self.slots[i] = self.keys.len() as u32;
                return true;
            }
            if self.keys[slot as usize - 1] == key {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        self.slots[..=self.mask].fill(0);
        self.mask = self.mask * 2 + 1;
        if self.slots.len() <= self.mask {
            self.slots.resize(self.mask + 1, 0);
        }
        for (n, &key) in self.keys.iter().enumerate() {
            let mut i = Self::slot_of(key, self.mask);
            while self.slots[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = n as u32 + 1;
        }
    }
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

/// One level of the search over equal dice: the board reached, its key,
/// the play so far, the steps to try and the next one to try.
#[derive(Clone, Copy)]
struct Level<B> {
    board: B,
    key: u128,
    play: Play,
    steps: StepList,
    next: u8,
    any: bool,
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
                if rule == DiceRule::InOrder
                    && board.distinct_plays_in_order(*a, *b, &mut self.leaves)
                {
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

    /// `count` steps of the same `die`, sources from high to low when the
    /// board allows reordering them (then every play is a new position).
    fn equal_dice<B: StepBoard>(&mut self, board: &B, die: u8, count: usize) {
        if B::SAME_DIE_ORDER_FREE && board.plain_equal_steps(count) {
            let mut counts = board.own_counts();
            let reach = board.plain_reach(die);
            let own = board.plain_own();
            self.plain_equal(
                reach,
                die,
                count,
                0,
                own,
                u32::MAX,
                Play::EMPTY,
                &mut counts,
            );
            return;
        }
        if !self.maximize && count == 2 && board.distinct_equal_pair(die, &mut self.leaves) {
            return;
        }
        let key = if B::SAME_DIE_ORDER_FREE {
            0
        } else {
            board.key()
        };
        let mut stack = [Level {
            board: *board,
            key,
            play: Play::EMPTY,
            steps: StepList::default(),
            next: 0,
            any: false,
        }; 4];
        board.steps(die, &mut stack[0].steps);
        let mut depth = 0;
        loop {
            let level = &mut stack[depth];
            let steps = level.steps.as_slice();
            let Some(&step) = steps.get(level.next as usize) else {
                if !level.any {
                    let (key, play) = (level.key, level.play);
                    self.leaf(depth, key, play, B::SAME_DIE_ORDER_FREE);
                }
                if depth == 0 {
                    return;
                }
                depth -= 1;
                continue;
            };
            level.next += 1;
            level.any = true;
            // Plays found in the high-to-low order are distinct positions
            // (see `StepBoard::SAME_DIE_ORDER_FREE`): no keys needed.
            let next_key = if B::SAME_DIE_ORDER_FREE {
                0
            } else {
                level.board.key_after(level.key, step)
            };
            let play = level.play.with(step);
            if depth + 1 == count {
                self.leaf(count, next_key, play, B::SAME_DIE_ORDER_FREE);
                continue;
            }
            let mut board = level.board;
            board.apply_step(step);
            if B::SAME_DIE_ORDER_FREE && depth + 2 == count {
                // the last die: each of its steps ends a play of its own
                let mut last = StepList::default();
                board.steps_up_to(die, step.from, &mut last);
                if last.as_slice().is_empty() {
                    self.leaf(depth + 1, 0, play, true);
                } else {
                    self.distinct_leaves(count, play, last.as_slice());
                }
                continue;
            }
            let child = &mut stack[depth + 1];
            child.board = board;
            child.key = next_key;
            child.play = play;
            child.next = 0;
            child.any = false;
            if B::SAME_DIE_ORDER_FREE {
                board.steps_up_to(die, step.from, &mut child.steps);
            } else {
                board.steps(die, &mut child.steps);
            }
            depth += 1;
        }
    }

    /// Equal dice on a board with [`StepBoard::plain_equal_steps`], from
    /// `depth` steps made (`play`): the mover's points `own`, his checkers
    /// per point `counts` (restored on return), sources at most the last
    /// step's (`ceiling`, as in [`PlayGen::equal_dice`]) among those that
    /// `reach` an open point.
    #[allow(clippy::too_many_arguments)]
    fn plain_equal(
        &mut self,
        reach: u32,
        die: u8,
        count: usize,
        depth: usize,
        own: u32,
        ceiling: u32,
        play: Play,
        counts: &mut [u8; 25],
    ) {
        let sources = own & reach & ceiling;
        if sources == 0 {
            self.leaf(depth, 0, play, true);
            return;
        }
        if depth + 1 == count {
            self.mask_leaves(count, play, sources, die);
            return;
        }
        let mut left = sources;
        while left != 0 {
            let from = left.trailing_zeros() as u8;
            left &= left - 1;
            let to = from - die;
            counts[from as usize] -= 1;
            counts[to as usize] += 1;
            let emptied = if counts[from as usize] == 0 {
                1 << from
            } else {
                0
            };
            let next_own = own & !emptied | 1 << to;
            let step = Step { from, to, die };
            let up_to_from = (2u32 << from) - 1;
            self.plain_equal(
                reach,
                die,
                count,
                depth + 1,
                next_own,
                up_to_from,
                play.with(step),
                counts,
            );
            counts[from as usize] += 1;
            counts[to as usize] -= 1;
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
