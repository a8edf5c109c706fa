//! Läger, the camp game: four stones that move in different ways and a
//! blockade, captures by threatening a square with two stones, and a race to
//! put two stones in the opponent's camp. Rules LAG-1..LAG-11, see
//! `docs/rules/lager.md`.

mod api;
mod geometry;
mod heuristic;
mod notation;
mod position;
mod render;
mod repetition;
mod state;
mod tensor;
mod view;
mod zobrist;

#[cfg(test)]
mod tests;

pub use geometry::{COLUMNS, Geometry, ROWS, Square, Stone};
pub use state::{
    Captured, End, Knockout, LagerAction, LagerConfig, LagerState, Location, MAX_ON_BOARD,
    MAX_PLY_CAP, Piece,
};
pub use tensor::lager_tensor_len;
pub use view::{LagerView, PlayerView};

use crate::error::Result;
use crate::game::Game;
use crate::options::{OptionKind, OptionSpec, Options};

/// The game Läger with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lager {
    config: LagerConfig,
}

static OPTION_SPECS: [OptionSpec; 5] = [
    OptionSpec {
        key: "columns",
        default: "5",
        kind: OptionKind::Int {
            min: COLUMNS.0 as i64,
            max: COLUMNS.1 as i64,
        },
        help: "board width in squares (LAG-1)",
    },
    OptionSpec {
        key: "rows",
        default: "7",
        kind: OptionKind::Int {
            min: ROWS.0 as i64,
            max: ROWS.1 as i64,
        },
        help: "board length in squares, camp to camp (LAG-1)",
    },
    OptionSpec {
        key: "captured",
        default: "out",
        kind: OptionKind::Choice {
            values: &["out", "return"],
        },
        help: "a knocked-out stone leaves the game, or returns to its owner's unplayed stones (LAG-7)",
    },
    OptionSpec {
        key: "max_plies",
        default: "200",
        kind: OptionKind::Int {
            min: 20,
            max: MAX_PLY_CAP as i64,
        },
        help: "the game is drawn after this many plies (LAG-11)",
    },
    OptionSpec {
        key: "opening",
        default: "stone",
        kind: OptionKind::Choice {
            values: &["stone", "any"],
        },
        help: "stone: each player's first action places a stone in his camp, as the seed tells the opening (LAG-4); any: the first turns may also be a blockade",
    },
];

impl Lager {
    /// The game with these options.
    pub fn new(config: LagerConfig) -> Self {
        Lager { config }
    }

    /// Its options.
    pub fn config(&self) -> LagerConfig {
        self.config
    }
}

impl Game for Lager {
    type State = LagerState;
    const ID: &'static str = "lager";
    const NAME: &'static str = "Läger";
    const SUMMARY: &'static str = "the camp game: four stones and a blockade, capture by threatening with two, \
         race two stones into the opponent's camp";
    const PLAYERS: (usize, usize) = (2, 2);
    const CHANCE: bool = false;
    const RULES: &'static str = include_str!("../../../../docs/rules/lager.md");

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Result<Self> {
        let int = |key: &str, (min, max): (u8, u8)| options.int(key).clamp(min as i64, max as i64);
        Ok(Lager {
            config: LagerConfig {
                geometry: Geometry {
                    columns: int("columns", COLUMNS) as u8,
                    rows: int("rows", ROWS) as u8,
                },
                captured: if options.get("captured") == "return" {
                    Captured::Return
                } else {
                    Captured::Out
                },
                max_plies: options.int("max_plies").clamp(20, MAX_PLY_CAP as i64) as u16,
                stone_first: options.get("opening") != "any",
            },
        })
    }

    fn initial_state(&self) -> LagerState {
        LagerState::new(self.config)
    }
}
