//! The turn cycle: the opening roll and the choice of colour, playing,
//! the cube's answers, and leaving the game.

use super::{HgState, Last, MAX_CUBE_LOG2, Phase};
use crate::game::Player;
use crate::high_gammon::board::Board;
use crate::high_gammon::geometry::{GOAL_FIRST, STONES, TRACK, seats};
use crate::high_gammon::rules::{Doubles, Scoring};
use crate::tables::Play;

impl HgState {
    /// The next player after `p` in turn order (counter-clockwise, HG-5)
    /// who is still in the game.
    pub(super) fn next_active(&self, p: u8) -> u8 {
        let n = self.rules.players;
        let mut q = p;
        for _ in 0..n {
            q = (q + 1) % n;
            if self.active >> q & 1 == 1 {
                return q;
            }
        }
        p
    }

    pub(super) fn begin_turn(&mut self) {
        self.phase = if self.rules.scoring == Scoring::Cube
            && !self.rules.tric
            && self.cube_log2 < MAX_CUBE_LOG2
        {
            Phase::CubeDecision
        } else {
            Phase::Rolling { again: false }
        };
    }

    pub(super) fn apply_play(&mut self, play: Play) {
        let p = self.mover as usize;
        let mut hits = [(0u8, 0u8); 4];
        for (i, &step) in play.steps().iter().enumerate() {
            if let Some(victim) = self.board.apply_step(p, step) {
                hits[i] = (step.to, victim as u8);
            }
        }
        self.last = Last::Played {
            by: self.mover,
            hits,
        };
        if self.has_won(p) {
            self.winner = self.mover;
            self.phase = Phase::Over;
            return;
        }
        let rolled_double = matches!(self.phase, Phase::Moving { dice } if dice[0] == dice[1]);
        if rolled_double && self.rules.doubles == Doubles::Reroll {
            // HG-13 a: after playing a double, roll again.
            self.phase = Phase::Rolling { again: true };
        } else {
            self.mover = self.next_active(self.mover);
            self.begin_turn();
        }
    }

    /// HG-15: all 9 borne off; TT-4: all 9 on the goal points, 3 on each.
    pub(super) fn has_won(&self, p: Player) -> bool {
        if self.rules.tric {
            let seat = self.seat(p);
            (GOAL_FIRST..TRACK).all(|d| self.board.at(p, seat, d) == 3)
        } else {
            self.board.off[p] == STONES
        }
    }

    /// `p` resigns: he leaves the game as a dropper does (HG-17: owing the
    /// stake; without the cube, what the scoring charges the most, see
    /// [`HgState::payments`]) and the others play on; the last one left
    /// wins. His turn, or his answer to a double, passes on.
    pub(super) fn leave(&mut self, p: u8) {
        self.resigned |= 1 << p;
        if let Phase::CubeResponse { responder } = self.phase
            && responder == p
        {
            self.answer_double(p, false);
            return;
        }
        self.dropped[p as usize] = self.cube_log2 + 1;
        self.active &= !(1 << p);
        self.board.remove_player(p as usize);
        self.last = Last::Nothing;
        if self.active.count_ones() == 1 {
            self.winner = self.active.trailing_zeros() as u8;
            self.mover = self.winner;
            self.phase = Phase::Over;
            return;
        }
        match self.phase {
            Phase::Opening { rolling, first } => {
                let rolling = match rolling & self.active {
                    0 | 1 | 2 | 4 | 8 => self.active,
                    left => left,
                };
                self.phase = Phase::Opening { rolling, first };
            }
            // A double offered by the resigner lapses.
            Phase::CubeResponse { .. } if self.mover == p => {
                self.mover = self.next_active(p);
                self.begin_turn();
            }
            _ if self.mover == p => {
                self.mover = self.next_active(p);
                self.begin_turn();
            }
            _ => {}
        }
    }

    pub(super) fn answer_double(&mut self, responder: u8, accept: bool) {
        if !accept {
            // HG-17: the dropper owes the stake before this double and leaves.
            self.dropped[responder as usize] = self.cube_log2 + 1;
            self.active &= !(1 << responder);
            self.board.remove_player(responder as usize);
        }
        let next = self.next_active(responder);
        self.last = Last::Answered {
            by: responder,
            accept,
            settled: next == self.mover,
        };
        if next != self.mover {
            self.phase = Phase::CubeResponse { responder: next };
            return;
        }
        if self.active == 1 << self.mover {
            // everyone else dropped: the doubler wins at once
            self.winner = self.mover;
            self.phase = Phase::Over;
        } else {
            self.cube_log2 += 1;
            self.phase = Phase::Rolling { again: false };
        }
    }

    pub(super) fn apply_opening(&mut self, dice: [u8; 4]) {
        let Phase::Opening { rolling, first } = self.phase else {
            return;
        };
        self.opening = dice;
        let n = self.rules.players as usize;
        let rollers = (0..n).filter(|&p| rolling >> p & 1 == 1);
        let high = rollers.clone().map(|p| dice[p]).max().unwrap_or(0);
        let tied = rollers
            .clone()
            .filter(|&p| dice[p] == high)
            .fold(0u8, |m, p| m | 1 << p);
        if first && self.rules.scoring == Scoring::Cube && !self.rules.tric {
            // HG-17: equal numbers in the roll for the start double the stake.
            let any_pair = rollers
                .clone()
                .any(|p| rollers.clone().any(|q| q > p && dice[q] == dice[p]));
            if any_pair {
                self.cube_log2 = 1;
                self.opening_doubled = true;
            }
        }
        self.last = Last::Opening {
            tied,
            doubled: first && self.opening_doubled,
        };
        if tied.count_ones() == 1 {
            // HG-5: the highest chooses his colour and moves first.
            self.mover = tied.trailing_zeros() as u8;
            self.phase = Phase::ColourChoice;
        } else {
            self.phase = Phase::Opening {
                rolling: tied,
                first: false,
            };
        }
    }

    /// HG-5: the opening winner takes seat `seat`; the others keep their
    /// turn order after him, each in the next seat in play counter-clockwise.
    /// The stones are set up again for the new seats (High-O Gammon).
    pub(super) fn choose_colour(&mut self, seat: u8) {
        let n = self.rules.players as usize;
        let in_play = seats(n);
        let Some(k) = in_play.iter().position(|&s| s == seat) else {
            return;
        };
        let w = self.mover as usize;
        let was = self.table[w];
        for i in 0..n {
            self.table[(w + i) % n] = in_play[(k + i) % n];
        }
        if !self.rules.tric {
            self.board = Board::high_gammon(&self.table[..n]);
        }
        self.last = Last::Chose {
            by: self.mover,
            was,
        };
        self.begin_turn();
    }
}
