//! Typed errors for every kind of bad input.

use thiserror::Error;

/// A result whose error is the engine's [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can be wrong with input to the engine.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// No game has this id.
    #[error("unknown game `{0}` (try `spelbord games`)")]
    UnknownGame(String),
    /// The game has no option with this key.
    #[error("game `{game}` has no option `{key}` (its options: {known})")]
    UnknownOption {
        /// The game's id.
        game: String,
        /// The unknown key.
        key: String,
        /// The keys the game does have, comma separated.
        known: String,
    },
    /// An option's value is not one the option accepts.
    #[error("option `{key}` cannot be `{value}`: expected {expected}")]
    BadOptionValue {
        /// The option's key.
        key: String,
        /// The value given.
        value: String,
        /// What the option accepts.
        expected: String,
    },
    /// An option was not written as `key=value`.
    #[error("option `{0}` is not of the form key=value")]
    MalformedOption(String),
    /// Text that is not an action of this game in its notation.
    #[error("cannot read `{text}` as an action: {reason}")]
    BadNotation {
        /// The text given.
        text: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// A typed play that names several legal plays that differ in what they
    /// hit (a merged move such as `24/13` that may go by 18 or by 19).
    #[error("`{text}` is ambiguous: it could be {}; write the one you mean", .plays.join(" or "))]
    AmbiguousPlay {
        /// The text given.
        text: String,
        /// The legal plays it could mean, in notation.
        plays: Vec<String>,
    },
    /// JSON that is not an action of this game.
    #[error("cannot read this JSON as an action: {0}")]
    BadJson(String),
    /// A well-formed action that is not legal in the current state.
    #[error("illegal action `{action}`: {reason}")]
    IllegalAction {
        /// The action in notation.
        action: String,
        /// Why it is not legal here.
        reason: String,
    },
    /// The game is over; no action can be applied.
    #[error("the game is over")]
    GameOver,
    /// A record is malformed or holds an illegal action.
    #[error("record action {index} (`{action}`): {source}")]
    RecordAction {
        /// Zero-based index of the first bad action.
        index: usize,
        /// The action as written in the record.
        action: String,
        /// What is wrong with it.
        source: Box<Error>,
    },
    /// A game went on past its maximum length (a bug in the game's rules).
    #[error("the game did not end within {0} plies")]
    TooLong(u64),
    /// A record is not valid JSON of the record format, or disagrees with itself.
    #[error("bad record: {0}")]
    BadRecord(String),
}
