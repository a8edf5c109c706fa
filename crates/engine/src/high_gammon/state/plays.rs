//! The mover's legal plays: generated on his view of the board along his
//! own track, and turned into absolute field codes.

use super::{HgAction, HgState, Phase};
use crate::game::GameState;
use crate::high_gammon::board::{Board, MoverView};
use crate::high_gammon::geometry::{BAR_CODE, FIELDS, IN_CODE, MAX_SEATS, OFF_CODE};
use crate::tables::{
    DiceRule, Play, PlayGen, Step, StepBoard, StepList, StepsView, play_boards, step_graph,
    with_play_gen,
};

impl HgState {
    /// Calls `f` with the distinct legal plays of `dice` for the player to
    /// move, in absolute codes.
    pub fn with_plays<T>(
        &self,
        dice: [u8; 2],
        f: impl FnOnce(&mut dyn Iterator<Item = Play>) -> T,
    ) -> T {
        let (view, seat) = self.mover_view();
        self.with_generator(&view, dice, |g| {
            f(&mut g.plays().map(|play| absolute_play(play, seat)))
        })
    }

    /// The mover's view of the board, and his seat.
    fn mover_view(&self) -> (MoverView, u8) {
        let p = self.mover as usize;
        let seat = self.seat(p);
        (self.board.view(p, seat, self.rules.tric), seat)
    }

    /// Calls `f` with the play generator holding the legal plays of `dice`
    /// on the mover's `view` (in the mover's frame).
    fn with_generator<T>(
        &self,
        view: &MoverView,
        dice: [u8; 2],
        f: impl FnOnce(&PlayGen) -> T,
    ) -> T {
        let mut buf = [0u8; 4];
        let len = self.rules.dice_list(dice, &mut buf);
        with_play_gen(|g| {
            // HG-8: the smaller number first; a number that cannot be played
            // ends the play.
            g.generate(view, &buf[..len], DiceRule::InOrder);
            f(g)
        })
    }

    /// A uniformly random legal play of `dice` (the one at index
    /// `rng.random_range(0..n)` of [`HgState::with_plays`]).
    pub(super) fn random_play<R: rand::Rng + ?Sized>(&self, dice: [u8; 2], rng: &mut R) -> Play {
        let (view, seat) = self.mover_view();
        self.with_generator(&view, dice, |g| {
            absolute_play(g.play(rng.random_range(0..g.len())), seat)
        })
    }

    /// The legal plays made step by step, with the board after each step
    /// (see [`mod@crate::tables::step_graph`]); steps in absolute codes.
    pub fn play_steps(&self) -> Option<StepsView> {
        let Phase::Moving { dice } = self.phase else {
            return None;
        };
        let p = self.mover as usize;
        let (view, seat) = self.mover_view();
        let mut buf = [0u8; 4];
        let len = self.rules.dice_list(dice, &mut buf);
        let plays: Vec<Play> = self.with_generator(&view, dice, |g| g.plays().collect());
        let start = Traced {
            view,
            board: self.board,
            player: p,
            seat,
        };
        let graph = step_graph(&start, &buf[..len], DiceRule::InOrder, &plays);
        Some(graph.view(|t| self.board_json(&t.board), |c| absolute_code(c, seat)))
    }

    /// The positions the legal play `action` passes through, the board now
    /// first, as [`HgState::play_steps`] draws them.
    pub fn play_boards(&self, action: HgAction) -> Option<Vec<serde_json::Value>> {
        let HgAction::Play(play) = action else {
            return None;
        };
        if !matches!(self.phase, Phase::Moving { .. }) || !self.is_legal(action) {
            return None;
        }
        let p = self.mover as usize;
        let apply = |b: &mut Board, step| {
            b.apply_step(p, step);
        };
        Some(play_boards(self.board, play.steps(), apply, |b| {
            self.board_json(b)
        }))
    }

    /// A board as the observation shows its stones.
    fn board_json(&self, board: &Board) -> serde_json::Value {
        let n = self.rules.players as usize;
        serde_json::json!({
            "fields": board.cnt,
            "bar": &board.bar[..n],
            "waiting": &board.pool[..n],
            "off": &board.off[..n],
        })
    }
}

/// A play from the mover's relative codes (d + 1) to absolute ones.
fn absolute_play(play: Play, seat: u8) -> Play {
    let mut out = Play::EMPTY;
    for s in play.steps() {
        out = out.with(absolute_step(*s, seat));
    }
    out
}

/// A step from the mover's relative codes to absolute ones.
fn absolute_step(step: Step, seat: u8) -> Step {
    Step {
        from: absolute_code(step.from, seat),
        to: absolute_code(step.to, seat),
        die: step.die,
    }
}

/// A field code from the mover's relative numbering (d + 1) to the ring's.
#[inline]
fn absolute_code(code: u8, seat: u8) -> u8 {
    ABSOLUTE_CODES[seat as usize % MAX_SEATS][code as usize % 32]
}

/// [`absolute_code`] by seat and relative code (all codes are below 32).
const ABSOLUTE_CODES: [[u8; 32]; MAX_SEATS] = {
    let mut codes = [[0u8; 32]; MAX_SEATS];
    let mut seat = 0;
    while seat < MAX_SEATS {
        let mut c = 0;
        while c < 32 {
            codes[seat][c] = match c as u8 {
                BAR_CODE | IN_CODE | OFF_CODE => c as u8,
                // the same as field(seat, c - 1) + 1
                _ => ((7 * seat + c - 1) % FIELDS) as u8 + 1,
            };
            c += 1;
        }
        seat += 1;
    }
    codes
};

/// The mover's view with the whole board beside it, so that the board after
/// each step of a play is known.
#[derive(Clone, Copy, Debug)]
struct Traced {
    view: MoverView,
    board: Board,
    player: usize,
    seat: u8,
}

impl StepBoard for Traced {
    fn steps(&self, die: u8, out: &mut StepList) {
        self.view.steps(die, out);
    }
    fn apply_step(&mut self, step: Step) {
        self.view.apply_step(step);
        self.board
            .apply_step(self.player, absolute_step(step, self.seat));
    }
    fn key(&self) -> u128 {
        self.view.key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::high_gammon::geometry::field;

    /// HG-3: the table of absolute codes is the seat's track laid on the
    /// ring (d = code - 1 at field 7·seat + d), bar, entry and off kept.
    #[test]
    fn hg3_absolute_codes_follow_the_track() {
        for seat in 0..MAX_SEATS as u8 {
            for code in 0..32u8 {
                let want = match code {
                    BAR_CODE | IN_CODE | OFF_CODE => code,
                    c => field(seat, c as usize - 1) as u8 + 1,
                };
                assert_eq!(absolute_code(code, seat), want, "seat {seat} code {code}");
            }
        }
    }
}
