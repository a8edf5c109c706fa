//! Standard backgammon as a variant of the shared two-player tables game:
//! rules BG-1..BG-10, see `docs/rules/backgammon.md`. The turn cycle, the
//! doubling cube and match play come from [`crate::tables::TablesState`].

mod board;
#[cfg(test)]
mod tests;

pub use board::BackgammonBoard;

use crate::error::{PositionError, Result};
use crate::game::Game;
use crate::options::{OptionSpec, Options};
use crate::outcome::Ending;
use crate::tables::{AbsBoard, GameEnd, TablesOptions, TablesState, TablesVariant};

/// Checkers per player (BG-1).
pub const CHECKERS: u8 = 15;

/// Backgammon's rules: no options of its own beyond the cube and match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BackgammonRules;

/// A backgammon state.
pub type BackgammonState = TablesState<BackgammonRules>;

impl TablesVariant for BackgammonRules {
    type Board = BackgammonBoard;
    const ID: &'static str = "backgammon";
    // BG-2: the opening roll is the first player's first roll.
    const OPENING_DICE_PLAYED: bool = true;
    const BACKGAMMONS: bool = true;

    fn start_board(&self) -> BackgammonBoard {
        BackgammonBoard::start()
    }

    fn flip(board: &mut BackgammonBoard) {
        board.flip();
    }

    fn game_end(&self, board: &BackgammonBoard) -> Option<GameEnd> {
        // BG-8: single game, gammon (loser bore off none), backgammon (and
        // the loser still has a checker on the bar or in the winner's home).
        if board.off(0) < CHECKERS {
            return None;
        }
        Some(if board.off(1) > 0 {
            GameEnd::MoverWins(1, Ending::Single)
        } else if board.opponent_in_mover_home() {
            GameEnd::MoverWins(3, Ending::Backgammon)
        } else {
            GameEnd::MoverWins(2, Ending::Gammon)
        })
    }

    fn absolute(board: &BackgammonBoard) -> AbsBoard {
        board.absolute()
    }

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(_options: &Options) -> Self {
        BackgammonRules
    }

    fn board_from_absolute(abs: &AbsBoard) -> std::result::Result<BackgammonBoard, PositionError> {
        if abs.under != [0; 24] {
            return Err(PositionError::Inconsistent(
                "backgammon has no pinned checkers: a blot is hit".into(),
            ));
        }
        abs.check(CHECKERS as u32)?;
        Ok(BackgammonBoard::from_parts(abs.top, abs.bar, abs.off))
    }

    fn heuristic(&self, board: &BackgammonBoard) -> f64 {
        board.heuristic()
    }
}

/// The game of backgammon with its options (cube, match).
#[derive(Clone, Debug, PartialEq)]
pub struct Backgammon {
    tables: TablesOptions,
}

static OPTION_SPECS: [OptionSpec; 2] = TablesOptions::SPECS;

impl Game for Backgammon {
    type State = BackgammonState;
    const ID: &'static str = "backgammon";
    const NAME: &'static str = "Backgammon";
    const SUMMARY: &'static str =
        "the classic race and hitting game, with gammons, backgammons and the doubling cube";
    const PLAYERS: (usize, usize) = (2, 2);
    const RULES: &'static str = include_str!("../../../../docs/rules/backgammon.md");

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Result<Self> {
        Ok(Backgammon {
            tables: TablesOptions::from_options(options),
        })
    }

    fn initial_state(&self) -> BackgammonState {
        TablesState::new(BackgammonRules, self.tables)
    }

    fn num_players(&self) -> usize {
        2
    }
}
