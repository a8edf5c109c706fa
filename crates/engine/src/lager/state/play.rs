//! Applying an action: the stones and blockades moved, knocked out and
//! hashed, and the end of the game (LAG-9..LAG-12).

use super::{Captured, End, LagerAction, LagerState, NO_KNOCKOUT, Piece};
use crate::game::Player;
use crate::lager::geometry::Stone;
use crate::lager::repetition;
use crate::lager::zobrist::{self, OUT, UNPLAYED};

impl LagerState {
    fn set_stone(&mut self, player: Player, k: usize, loc: u8) {
        let old = self.stones[player][k];
        self.hash ^= zobrist::stone(player, k, old) ^ zobrist::stone(player, k, loc);
        self.stones[player][k] = loc;
    }

    fn set_blockade(&mut self, player: Player, loc: u8) {
        let old = self.blockades[player];
        self.hash ^= zobrist::blockade(player, old) ^ zobrist::blockade(player, loc);
        self.blockades[player] = loc;
    }

    /// Applies a legal action.
    ///
    /// The repetition window (LAG-11) records every action that could be
    /// undone, one byte each, and is cleared by any other: nothing before
    /// such an action can occur again. Blockade actions can never be undone
    /// (a blockade is placed once and leaves only by being knocked out).
    /// With `captured=out` a knocked-out stone never comes back, so stone
    /// placements, captures and blue and yellow moves (forward only) cannot
    /// be undone either, and only plain black and white moves are recorded.
    /// With `captured=return` a knocked-out stone can be placed again, so
    /// every stone action is recorded.
    pub(in crate::lager) fn play(&mut self, action: LagerAction) {
        let g = self.geometry();
        let p = self.side as usize;
        let returning = self.config.captured == Captured::Return;
        self.knockout = NO_KNOCKOUT;
        let mut record = None;
        match action {
            LagerAction::Place { stone, to } => {
                let t = g.index(to);
                self.set_stone(p, stone.index(), t);
                self.occupied |= 1u128 << t;
                if returning {
                    record = Some(repetition::place(stone.index()));
                }
            }
            LagerAction::Blockade { to } => {
                let t = g.index(to);
                self.set_blockade(p, t);
                self.occupied |= 1u128 << t;
            }
            LagerAction::Move { from, to } => {
                let (f, t) = (g.index(from), g.index(to));
                let Some(k) = self.stones[p].iter().position(|&l| l == f) else {
                    return;
                };
                let (dc, dr) = (to.col as i8 - from.col as i8, to.row as i8 - from.row as i8);
                if self.occupied >> t & 1 == 1 {
                    if let (Some(j), true) = (self.knock_out(t), returning) {
                        record = repetition::capture(k, dc, dr, j);
                    }
                } else if returning || Stone::ALL[k].reversible() {
                    record = repetition::step(k, dc, dr);
                }
                self.set_stone(p, k, t);
                self.occupied = (self.occupied & !(1u128 << f)) | 1u128 << t;
            }
        }
        self.plies += 1;
        self.side ^= 1;
        self.hash ^= zobrist::SIDE;
        let maybe_third = self.window.push(record, self.hash);
        let end = if self.stones_in_camp(p, 1 - p) >= 2 {
            Some(End::Camp { winner: p })
        } else if !self.has_action(1 - p) {
            Some(End::NoAction { winner: p })
        } else if maybe_third && self.occurrences() >= 3 {
            Some(End::Repetition)
        } else if self.plies >= self.config.max_plies {
            Some(End::PlyCap)
        } else {
            None
        };
        self.end = end.map_or(0, End::code);
    }

    /// Knocks out the piece on square `t`; gives the stone's index if it
    /// was a stone.
    fn knock_out(&mut self, t: u8) -> Option<usize> {
        let (owner, piece) = self.piece_at_index(t)?;
        let (code, stone) = match piece {
            Piece::Blockade => {
                self.set_blockade(owner, OUT);
                (4, None)
            }
            Piece::Stone(s) => {
                let to = match self.config.captured {
                    Captured::Out => OUT,
                    Captured::Return => UNPLAYED,
                };
                self.set_stone(owner, s.index(), to);
                (s.index() as u8, Some(s.index()))
            }
        };
        self.knockout = [code | (owner as u8) << 3, t];
        stone
    }

    /// How often the current position (same player to move) has occurred
    /// since the last action that cannot be undone: 1 if it is new (LAG-11).
    /// Positions from before such an action can never come back.
    pub fn occurrences(&self) -> usize {
        let columns = self.geometry().columns;
        self.window.occurrences(self.stones, self.mover(), columns)
    }
}
