//! Resignation: a player gives up the game, or the whole match. What it
//! pays is each game's rule ([`crate::GameState::resign`]); a record writes
//! it as `resign:<seat>:<kind>` (seats from 0), so a resigned game replays.

use crate::error::{Error, Result};
use crate::game::Player;
use serde::{Deserialize, Serialize};

/// What a player gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resignation {
    /// The game, as its plainest loss (the tables games: a single game at
    /// the cube's value).
    Single,
    /// The tables games: a gammon (twice the cube's value).
    Gammon,
    /// Backgammon: a backgammon (three times the cube's value).
    Backgammon,
    /// The whole match (the game, where there is no match): forfeits and
    /// losses on time.
    Match,
}

impl Resignation {
    /// Every kind, plainest first.
    pub const ALL: [Resignation; 4] = [
        Resignation::Single,
        Resignation::Gammon,
        Resignation::Backgammon,
        Resignation::Match,
    ];

    /// The kind's word in records and the API: `single`, `gammon`, …
    pub fn word(self) -> &'static str {
        match self {
            Resignation::Single => "single",
            Resignation::Gammon => "gammon",
            Resignation::Backgammon => "backgammon",
            Resignation::Match => "match",
        }
    }

    /// The kind named by `word`.
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.word() == word)
    }

    /// The points of a tables game resigned this way, before the cube.
    pub fn tables_points(self) -> u8 {
        match self {
            Resignation::Single | Resignation::Match => 1,
            Resignation::Gammon => 2,
            Resignation::Backgammon => 3,
        }
    }
}

/// A seat's resignation, as a record holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// The seat that gives up.
    pub seat: Player,
    /// What it gives up.
    pub kind: Resignation,
}

impl Resign {
    /// The record's text: `resign:<seat>:<kind>`.
    pub fn text(self) -> String {
        format!("resign:{}:{}", self.seat, self.kind.word())
    }

    /// Reads a record's text; `None` when `text` is no resignation.
    pub fn parse(text: &str) -> Option<Result<Self>> {
        let rest = text.strip_prefix("resign:")?;
        let bad = || Error::BadNotation {
            text: text.into(),
            reason: "a resignation is written resign:<seat>:<single|gammon|backgammon|match>"
                .into(),
        };
        let parsed = rest.split_once(':').and_then(|(seat, kind)| {
            Some(Resign {
                seat: seat.parse().ok()?,
                kind: Resignation::from_word(kind)?,
            })
        });
        Some(parsed.ok_or_else(bad))
    }

    /// The resignation as JSON: `{"resign": {"seat", "kind"}}`.
    pub fn json(self) -> serde_json::Value {
        serde_json::json!({"resign": {"seat": self.seat, "kind": self.kind}})
    }
}

/// The error for a resignation the game does not offer now.
pub fn not_offered(kind: Resignation, why: &str) -> Error {
    Error::IllegalAction {
        action: format!("resign {}", kind.word()),
        reason: why.into(),
    }
}

#[cfg(test)]
mod tests;
