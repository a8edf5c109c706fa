#![forbid(unsafe_code)]
//! spelbord's rules engine: one game API shared by every game, seeded dice,
//! game records, and one module per game. No I/O.
//!
//! Two layers:
//! - [`GameState`] is the fast generic trait (no allocation in the hot path)
//!   that AI agents and benches use.
//! - [`DynState`] is the object-safe layer (actions as text notation and JSON,
//!   states as JSON) for the command line and the server; [`registry`] finds
//!   games by id.

pub mod backgammon;
pub mod conformance;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod high_gammon;
pub mod lager;
pub mod options;
pub mod outcome;
pub mod playout;
pub mod position;
pub mod record;
pub mod registry;
pub mod resign;
pub mod rng;
pub mod stortok;
pub mod stumphog;
pub mod tables;
pub mod tawla;
pub mod tensor;

pub use dynamic::{ActionInfo, DynGame, DynState};
pub use error::{Error, PositionError, Result};
pub use game::{
    CubeAction, Game, GameEvent, GameState, Heuristic, MAX_PLAYERS, Notation, Player, Returns,
    Turn, Viewer, terminal_value,
};
pub use options::{OptionKind, OptionSpec, Options};
pub use outcome::{Ending, Outcome};
pub use record::Record;
pub use registry::{GameVisitor, find_game, games, visit_game};
pub use resign::{Resign, Resignation};
