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
    /// Text that is not a valid position of this game in its position notation.
    #[error("cannot set up the position `{text}`: {reason}")]
    BadPosition {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: PositionError,
    },
}

/// What is wrong with a position given in a game's position notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A field is missing or one too many is given.
    #[error("expected {expected}, found {found} fields")]
    FieldCount {
        /// The fields the notation has.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A field cannot be read.
    #[error("cannot read the {field} `{text}`: expected {expected}")]
    Unreadable {
        /// Which field.
        field: &'static str,
        /// The text given.
        text: String,
        /// What the field holds.
        expected: String,
    },
    /// A list has the wrong number of entries (points, hands, players).
    #[error("the {what} has {found} entries, not {expected}")]
    Size {
        /// Which list.
        what: &'static str,
        /// How many it must have.
        expected: usize,
        /// How many it has.
        found: usize,
    },
    /// A player has too many or too few checkers, stones or cards.
    #[error("player {player} has {found} {what}, not {expected}")]
    Count {
        /// The player, from 0.
        player: usize,
        /// What is counted.
        what: &'static str,
        /// How many the rules give him.
        expected: u32,
        /// How many the position gives him.
        found: u32,
    },
    /// Two players' pieces, or two cards, are in one place.
    #[error("{0} is occupied twice")]
    Overlap(String),
    /// The parts do not fit together under the game's rules.
    #[error("{0}")]
    Inconsistent(String),
    /// An option given in the position is not one of the game's.
    #[error("{0}")]
    Option(String),
}
