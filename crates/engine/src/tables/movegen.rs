//! The play generator: every way to play a roll under a dice-usage rule,
//! each resulting position offered once. Allocates nothing once warmed up.

use super::play::{Play, Step};

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
}

impl PlayGen {
    /// Generates the distinct plays of `dice` on `board` (read them with
    /// [`PlayGen::plays`]). For [`DiceRule::Maximize`] with two different dice
    /// both orders are tried. A roll that cannot be played gives the one
    /// empty play.
    pub fn generate<B: StepBoard>(&mut self, board: &B, dice: &[u8], rule: DiceRule) {
        self.leaves.clear();
        self.max_len = 0;
        match rule {
            DiceRule::Maximize => {
                self.search(board, dice, 0, Play::EMPTY, true);
                if dice.len() == 2 && dice[0] != dice[1] {
                    let swapped = [dice[1], dice[0]];
                    self.search(board, &swapped, 0, Play::EMPTY, true);
                    if self.max_len == 1 {
                        let high = dice[0].max(dice[1]);
                        if self.leaves.iter().any(|(_, p)| p.steps()[0].die == high) {
                            self.leaves.retain(|(_, p)| p.steps()[0].die == high);
                        }
                    }
                }
            }
            DiceRule::InOrder => self.search(board, dice, 0, Play::EMPTY, false),
        }
        self.leaves.sort_unstable_by_key(|&(k, _)| k);
        self.leaves.dedup_by_key(|&mut (k, _)| k);
    }

    /// The plays found by the last [`PlayGen::generate`].
    pub fn plays(&self) -> impl ExactSizeIterator<Item = Play> + '_ {
        self.leaves.iter().map(|&(_, p)| p)
    }

    fn search<B: StepBoard>(
        &mut self,
        board: &B,
        dice: &[u8],
        depth: usize,
        play: Play,
        maximize: bool,
    ) {
        if depth < dice.len() {
            let mut steps = StepList::default();
            board.steps(dice[depth], &mut steps);
            if steps.len > 0 {
                for &step in steps.as_slice() {
                    let mut next = *board;
                    next.apply_step(step);
                    self.search(&next, dice, depth + 1, play.with(step), maximize);
                }
                return;
            }
        }
        if maximize {
            if depth < self.max_len {
                return;
            }
            if depth > self.max_len {
                self.leaves.clear();
                self.max_len = depth;
            }
        }
        self.leaves.push((board.key(), play));
    }
}
