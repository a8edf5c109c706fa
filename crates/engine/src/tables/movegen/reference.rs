//! The first play generator (recursive, a stamped hash set of keys), kept
//! for tests as the reference that the faster generator must match play for
//! play and in the same order.

use super::{DiceRule, StepBoard, StepList};
use crate::tables::play::Play;

/// A set of position keys that is emptied in O(1) by bumping a stamp.
#[derive(Debug)]
struct KeySet {
    keys: Vec<u128>,
    stamps: Vec<u32>,
    stamp: u32,
    len: usize,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet {
            keys: vec![0; 1 << 12],
            stamps: vec![0; 1 << 12],
            stamp: 1,
            len: 0,
        }
    }
}

impl KeySet {
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.len = 0;
    }

    /// Adds `key`; false if it was there already.
    fn insert(&mut self, key: u128) -> bool {
        if self.len * 2 >= self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 40) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut i = (h >> 32) as usize & mask;
        loop {
            if self.stamps[i] != self.stamp {
                self.stamps[i] = self.stamp;
                self.keys[i] = key;
                self.len += 1;
                return true;
            }
            if self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old: Vec<u128> = (0..self.keys.len())
            .filter(|&i| self.stamps[i] == self.stamp)
            .map(|i| self.keys[i])
            .collect();
        let size = self.keys.len() * 2;
        self.keys = vec![0; size];
        self.stamps = vec![0; size];
        self.stamp = 1;
        self.len = 0;
        for k in old {
            self.insert(k);
        }
    }
}

/// Reusable buffers for generating plays.
#[derive(Debug)]
pub(crate) struct ReferenceGen {
    leaves: Vec<Play>,
    seen: KeySet,
    max_len: usize,
    /// Sources (bit per point) from which the die of the first order could
    /// move at the start; used to skip repeats in the swapped order.
    first_sources: u32,
    swapped: bool,
    maximize: bool,
}

impl Default for ReferenceGen {
    fn default() -> Self {
        ReferenceGen {
            // sized for the largest rolls, so that generation never allocates
            leaves: Vec::with_capacity(2048),
            seen: KeySet::default(),
            max_len: 0,
            first_sources: 0,
            swapped: false,
            maximize: true,
        }
    }
}

impl ReferenceGen {
    /// Generates the distinct plays of `dice` on `board` (read them with
    /// [`ReferenceGen::plays`]). For [`DiceRule::Maximize`] with two different dice
    /// both orders are tried. A roll that cannot be played gives the one
    /// empty play.
    pub fn generate<B: StepBoard>(&mut self, board: &B, dice: &[u8], rule: DiceRule) {
        self.leaves.clear();
        self.seen.clear();
        self.max_len = 0;
        self.swapped = false;
        self.maximize = rule == DiceRule::Maximize;
        match rule {
            DiceRule::Maximize => {
                self.search(board, dice, 0, Play::EMPTY, u8::MAX, board.key());
                if dice.len() == 2 && dice[0] != dice[1] {
                    let swapped = [dice[1], dice[0]];
                    let mut first = StepList::default();
                    board.steps(dice[0], &mut first);
                    self.first_sources = first.as_slice().iter().fold(0, |m, s| m | 1 << s.from);
                    self.swapped = true;
                    self.search(board, &swapped, 0, Play::EMPTY, u8::MAX, board.key());
                    if self.max_len == 1 {
                        let high = dice[0].max(dice[1]);
                        if self.leaves.iter().any(|p| p.steps()[0].die == high) {
                            self.leaves.retain(|p| p.steps()[0].die == high);
                        }
                    }
                }
            }
            DiceRule::InOrder => self.search(board, dice, 0, Play::EMPTY, u8::MAX, board.key()),
        }
    }

    /// The plays found by the last [`ReferenceGen::generate`].
    pub fn plays(&self) -> impl ExactSizeIterator<Item = Play> + '_ {
        self.leaves.iter().copied()
    }

    /// Extends `play` by the die at `depth`; `ceiling` bounds the source of
    /// the next step when the previous step used the same die and the board
    /// allows reordering.
    fn search<B: StepBoard>(
        &mut self,
        board: &B,
        dice: &[u8],
        depth: usize,
        play: Play,
        ceiling: u8,
        key: u128,
    ) {
        if depth < dice.len() {
            let mut steps = StepList::default();
            board.steps(dice[depth], &mut steps);
            let same_next = B::SAME_DIE_ORDER_FREE && dice.get(depth + 1) == Some(&dice[depth]);
            let last = depth + 1 == dice.len();
            let mut any = false;
            for &step in steps.as_slice() {
                if step.from > ceiling {
                    continue;
                }
                if self.swapped
                    && depth == 1
                    && self.first_sources >> step.from & 1 == 1
                    && B::commutes(play.steps()[0], step)
                {
                    // the same two steps were played in the other order
                    any = true;
                    continue;
                }
                any = true;
                let next_key = board.key_after(key, step);
                debug_assert_eq!(next_key, {
                    let mut next = *board;
                    next.apply_step(step);
                    next.key()
                });
                if last {
                    // a leaf: no need to make the step on a board
                    self.leaf(depth + 1, next_key, play.with(step));
                    continue;
                }
                let mut next = *board;
                next.apply_step(step);
                let next_ceiling = if same_next { step.from } else { u8::MAX };
                self.search(
                    &next,
                    dice,
                    depth + 1,
                    play.with(step),
                    next_ceiling,
                    next_key,
                );
            }
            if any {
                return;
            }
        }
        debug_assert_eq!(key, board.key());
        self.leaf(depth, key, play);
    }

    /// Records a finished play of `depth` dice reaching the position `key`.
    #[inline]
    fn leaf(&mut self, depth: usize, key: u128, play: Play) {
        if self.maximize {
            if depth < self.max_len {
                return;
            }
            if depth > self.max_len {
                self.leaves.clear();
                self.seen.clear();
                self.max_len = depth;
            }
        }
        if self.seen.insert(key) {
            self.leaves.push(play);
        }
    }
}
