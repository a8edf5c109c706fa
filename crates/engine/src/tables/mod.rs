//! What the tables games (Tawla, backgammon, High-O Gammon, Tric-Trac) share:
//! dice, plays made of single checker steps, the play generator with the
//! dice-usage rules, and a two-player state with cube and match play.

pub mod dice;
pub mod movegen;
pub mod notation;
pub mod play;
pub mod points;
pub mod render;
pub mod step_graph;
pub(crate) mod tensor;
pub mod two_player;

pub use dice::{OPENING_ROLLS, ROLLS};
pub use movegen::{DiceRule, PlayGen, StepBoard, StepList, with_play_gen};
pub use notation::{MarkedPlay, TypedStep};
pub use play::{BAR, OFF, Play, Step};
pub use step_graph::{StepGraph, StepsView, play_boards, step_graph};
pub use tensor::TABLES_TENSOR_LEN;
pub use two_player::{
    AbsBoard, GameEnd, Phase, TablesAction, TablesOptions, TablesState, TablesVariant, TablesView,
};
