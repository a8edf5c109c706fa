//! Stumphög: dice and 70 neutral stones in piles. The players push stones
//! round a shared track into Stumpen and bat them out to their own Ute;
//! first past 40 wins. Rules STU-1..STU-18, see `docs/rules/stumphog.md`.

mod action;
mod board;
mod heuristic;
mod notation;
mod position;
mod render;
mod state;
mod tensor;
#[cfg(test)]
mod tests;

pub use action::StumphogAction;
pub use board::{Board, COLUMNS, Destination, Landing, Row, STONES, STUMPEN, destination};
pub use state::{End, Phase, Rules, STUMPVARNING, StumphogState, StumphogView};
pub use tensor::STUMPHOG_TENSOR_LEN;

use crate::error::Result;
use crate::game::Game;
use crate::options::{OptionKind, OptionSpec, Options};

/// The game's id.
pub const ID: &str = "stumphog";

/// The game Stumphög with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct Stumphog {
    rules: Rules,
}

static OPTION_SPECS: [OptionSpec; 2] = [
    OptionSpec {
        key: "win",
        default: "41",
        kind: OptionKind::Int { min: 1, max: 55 },
        help: "a player wins at once when his Ute holds this many stones (the seed: more than 40)",
    },
    OptionSpec {
        key: "turns",
        default: "2000",
        kind: OptionKind::Int {
            min: 1,
            max: 1_000_000,
        },
        help: "turn cap: after this many turns (both players counted) the game is a draw",
    },
];

impl Game for Stumphog {
    type State = StumphogState;
    const ID: &'static str = ID;
    const NAME: &'static str = "Stumphög";
    const SUMMARY: &'static str = "dice and 70 neutral stones: push stones into Stumpen and bat them out; \
         the one whose Hög and Ute run dry loses";
    const PLAYERS: (usize, usize) = (2, 2);
    const RULES: &'static str = include_str!("../../../../docs/rules/stumphog.md");

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Result<Self> {
        let defaults = Rules::default();
        let int = |key: &str, default: i64, max: i64| match options.get(key) {
            "" => default,
            _ => options.int(key).clamp(1, max),
        };
        Ok(Stumphog {
            rules: Rules {
                win: int("win", defaults.win as i64, 55) as u8,
                turn_cap: int("turns", defaults.turn_cap as i64, 1_000_000) as u32,
            },
        })
    }

    fn initial_state(&self) -> StumphogState {
        StumphogState::new(self.rules)
    }
}
