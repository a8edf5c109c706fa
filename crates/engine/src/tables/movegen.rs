//! The play generator: every way to play a roll under a dice-usage rule,
//! each resulting position offered once. Allocates nothing once warmed up.

use super::play::{BAR, OFF, Play, Step};

/// The single steps possible with one die (at most one per source point).
#[derive(Clone, Copy, Debug)]
pub struct StepList {
    steps: [Step; 16],
    len: u8,
}

impl Default for StepList {
    fn default() -> Self {
        StepList {
            steps: [Step::default(); 16],
            len: 0,
        }
    }
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
}

/// A board seen by the player to move, on which single steps can be made.
pub trait StepBoard: Copy {
    /// Whether steps commute as in backgammon, which lets the generator skip
    /// orders that can only repeat positions (a pure speed-up):
    /// - two steps of different checkers, neither entering from the bar nor
    ///   bearing off, give the same legal result in either order;
    /// - any legal sequence of steps with equal dice stays legal, with the
    ///   same result, when reordered so that its sources never increase (in
    ///   the tables numbering, where checkers move from high points to low).
    ///
    /// False by default.
    const STEPS_COMMUTE: bool = false;
    /// Replaces `out` with every legal single step using `die`, one per source.
    fn steps(&self, die: u8, out: &mut StepList);
    /// Makes one step (which `steps` offered).
    fn apply_step(&mut self, step: Step);
    /// A key that is equal for two boards exactly when they are the same
    /// position (within one turn of one mover).
    fn key(&self) -> u128;
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

/// Reusable buffers for generating plays.
#[derive(Debug, Default)]
pub struct PlayGen {
    leaves: Vec<(u128, Play)>,
    max_len: usize,
    /// Open-addressing index of `leaves` by key: (stamp, leaf index); a slot
    /// whose stamp is not the current one is empty.
    slots: Vec<(u32, u32)>,
    stamp: u32,
}

impl PlayGen {
    /// Generates the distinct plays of `dice` on `board` (read them with
    /// [`PlayGen::plays`]). For [`DiceRule::Maximize`] with two different dice
    /// both orders are tried. A roll that cannot be played gives the one
    /// empty play. Of the plays reaching one position the greatest is kept
    /// (checkers from the highest points first): a stable, readable
    /// representative whose merged form ("13/3(2)") matches what players type.
    pub fn generate<B: StepBoard>(&mut self, board: &B, dice: &[u8], rule: DiceRule) {
        self.clear();
        self.max_len = 0;
        match rule {
            DiceRule::Maximize => {
                self.search(board, dice, 0, Play::EMPTY, true, false);
                if dice.len() == 2 && dice[0] != dice[1] {
                    let swapped = [dice[1], dice[0]];
                    self.search(board, &swapped, 0, Play::EMPTY, true, true);
                    if self.max_len == 1 {
                        let high = dice[0].max(dice[1]);
                        if self.leaves.iter().any(|(_, p)| p.steps()[0].die == high) {
                            self.leaves.retain(|(_, p)| p.steps()[0].die == high);
                        }
                    }
                }
            }
            DiceRule::InOrder => self.search(board, dice, 0, Play::EMPTY, false, false),
        }
    }

    /// The plays found by the last [`PlayGen::generate`].
    pub fn plays(&self) -> impl ExactSizeIterator<Item = Play> + '_ {
        self.leaves.iter().map(|&(_, p)| p)
    }

    fn clear(&mut self) {
        self.leaves.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask
    }

    /// Adds a leaf, or keeps the greater play if its position is known.
    fn insert(&mut self, key: u128, play: Play) {
        if 2 * (self.leaves.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut h = Self::slot_of(key, mask);
        loop {
            let (stamp, index) = self.slots[h];
            if stamp != self.stamp {
                self.slots[h] = (self.stamp, self.leaves.len() as u32);
                self.leaves.push((key, play));
                return;
            }
            let leaf = &mut self.leaves[index as usize];
            if leaf.0 == key {
                if play > leaf.1 {
                    leaf.1 = play;
                }
                return;
            }
            h = (h + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(256);
        self.slots.clear();
        self.slots.resize(size, (0, 0));
        self.stamp = 1;
        let mask = size - 1;
        for (i, &(key, _)) in self.leaves.iter().enumerate() {
            let mut h = Self::slot_of(key, mask);
            while self.slots[h].0 == self.stamp {
                h = (h + 1) & mask;
            }
            self.slots[h] = (self.stamp, i as u32);
        }
    }

    /// Whether `step` after `first` (dice in the second order) can only
    /// repeat a position that the first order reached (see
    /// [`StepBoard::STEPS_COMMUTE`]).
    #[inline]
    fn repeats_first_order(first: Step, step: Step) -> bool {
        step.from != first.to
            && first.from != BAR
            && step.from != BAR
            && first.to != OFF
            && step.to != OFF
    }

    fn search<B: StepBoard>(
        &mut self,
        board: &B,
        dice: &[u8],
        depth: usize,
        play: Play,
        maximize: bool,
        swapped: bool,
    ) {
        if depth < dice.len() {
            let mut steps = StepList::default();
            board.steps(dice[depth], &mut steps);
            if steps.len > 0 {
                let last = play.steps().last().copied();
                // Equal dice that commute: only non-increasing sources.
                let bound = match last {
                    Some(last) if B::STEPS_COMMUTE && last.die == dice[depth] => last.from,
                    _ => u8::MAX,
                };
                let skip_independent = B::STEPS_COMMUTE && swapped && depth == 1;
                for &step in steps.as_slice() {
                    if step.from > bound {
                        continue;
                    }
                    if skip_independent
                        && let Some(first) = last
                        && Self::repeats_first_order(first, step)
                    {
                        continue;
                    }
                    let mut next = *board;
                    next.apply_step(step);
                    self.search(&next, dice, depth + 1, play.with(step), maximize, swapped);
                }
                return;
            }
        }
        if maximize {
            if depth < self.max_len {
                return;
            }
            if depth > self.max_len {
                self.clear();
                self.max_len = depth;
            }
        }
        self.insert(board.key(), play);
    }
}
