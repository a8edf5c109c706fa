//! Tawla / Mahbusa (Plakoto): the pinning tables game. Rules TAW-1..TAW-12,
//! see `docs/rules/tawla.md`.

mod board;
#[cfg(test)]
mod tests;

pub use board::TawlaBoard;

use crate::error::{PositionError, Result};
use crate::game::Game;
use crate::options::{OptionKind, OptionSpec, Options};
use crate::outcome::Ending;
use crate::tables::{AbsBoard, GameEnd, TablesOptions, TablesState, TablesVariant};

/// Checkers per player.
pub const CHECKERS: u8 = 15;

/// Tawla's own rules beyond the board: the mother option (TAW-11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TawlaRules {
    /// Whether pinning the opponent's mother wins (TAW-11).
    pub mother: bool,
}

/// A Tawla state.
pub type TawlaState = TablesState<TawlaRules>;

impl TablesVariant for TawlaRules {
    type Board = TawlaBoard;
    const ID: &'static str = "tawla";

    fn start_board(&self) -> TawlaBoard {
        TawlaBoard::start()
    }

    fn flip(board: &mut TawlaBoard) {
        board.flip();
    }

    fn game_end(&self, board: &TawlaBoard) -> Option<GameEnd> {
        // TAW-10: all 15 borne off; 2 points if the loser has borne off none.
        if board.off(0) == CHECKERS {
            return Some(if board.off(1) == 0 {
                GameEnd::MoverWins(2, Ending::Gammon)
            } else {
                GameEnd::MoverWins(1, Ending::Single)
            });
        }
        // TAW-11: the mother. The opponent's start is the mover's point 1;
        // the mover's start is his point 24.
        if self.mother {
            let theirs_pinned = board.opponent_pinned_at(1);
            let mine_pinned = board.mover_pinned_at(24);
            if theirs_pinned && mine_pinned {
                return Some(GameEnd::Draw(Ending::BothMothers));
            }
            if theirs_pinned && board.mover_checkers_at(24) == 0 {
                return Some(GameEnd::MoverWins(2, Ending::Mother));
            }
        }
        None
    }

    fn heuristic(&self, board: &TawlaBoard) -> f64 {
        board.heuristic(self.mother)
    }

    fn absolute(board: &TawlaBoard) -> AbsBoard {
        board.absolute()
    }

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Self {
        TawlaRules {
            mother: options.get("mother") != "off",
        }
    }

    fn option_fields(&self) -> Vec<String> {
        match self.mother {
            true => Vec::new(),
            false => vec!["mother=off".into()],
        }
    }

    fn board_from_absolute(abs: &AbsBoard) -> std::result::Result<TawlaBoard, PositionError> {
        if abs.bar != [0, 0] {
            return Err(PositionError::Inconsistent(
                "Tawla has no bar: a lone checker is pinned, not hit".into(),
            ));
        }
        abs.check(CHECKERS as u32)?;
        let pinned: Vec<u8> = (1..=24)
            .filter(|&n| abs.under[n as usize - 1] != 0)
            .collect();
        Ok(TawlaBoard::from_parts(abs.top, &pinned, abs.off))
    }
}

/// The game Tawla with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct Tawla {
    rules: TawlaRules,
    tables: TablesOptions,
}

static OPTION_SPECS: [OptionSpec; 3] = [
    OptionSpec {
        key: "mother",
        default: "on",
        kind: OptionKind::Choice {
            values: &["on", "off"],
        },
        help: "pinning the opponent's last checker on his starting point wins 2 (TAW-11)",
    },
    TablesOptions::SPECS[0],
    TablesOptions::SPECS[1],
];

impl Game for Tawla {
    type State = TawlaState;
    const ID: &'static str = "tawla";
    const NAME: &'static str = "Tawla / Mahbusa (Plakoto)";
    const SUMMARY: &'static str = "tables game where a lone checker is pinned, not hit";
    const PLAYERS: (usize, usize) = (2, 2);
    const RULES: &'static str = include_str!("../../../../docs/rules/tawla.md");

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Result<Self> {
        Ok(Tawla {
            rules: TawlaRules::from_options(options),
            tables: TablesOptions::from_options(options),
        })
    }

    fn initial_state(&self) -> TawlaState {
        TablesState::new(self.rules, self.tables)
    }
}
