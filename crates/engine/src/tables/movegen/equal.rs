//! Equal dice: an explicit stack of levels with sources taken from high to
//! low where the board allows, or bit masks of sources on a plain board.

use super::{PlayGen, StepBoard, StepList};
use crate::tables::play::{Play, Step};
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
    /// `count` steps of the same `die`, sources from high to low when the
    /// board allows reordering them (then every play is a new position).
    pub(super) fn equal_dice<B: StepBoard>(&mut self, board: &B, die: u8, count: usize) {
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
        } else {
            self.equal_stack(board, die, count);
        }
    }

    /// [`PlayGen::equal_dice`] by an explicit stack of [`Level`]s, one per
    /// step made.
    fn equal_stack<B: StepBoard>(&mut self, board: &B, die: u8, count: usize) {
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
                self.last_equal_die(&board, die, step.from, count, play);
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

    /// The last of `count` equal dice after `play`, on a board where their
    /// order is free: each of its steps from at most `ceiling` ends a play
    /// of its own.
    #[inline(always)]
    fn last_equal_die<B: StepBoard>(
        &mut self,
        board: &B,
        die: u8,
        ceiling: u8,
        count: usize,
        play: Play,
    ) {
        let mut last = StepList::default();
        board.steps_up_to(die, ceiling, &mut last);
        if last.as_slice().is_empty() {
            self.leaf(count - 1, 0, play, true);
        } else {
            self.distinct_leaves(count, play, last.as_slice());
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
}
