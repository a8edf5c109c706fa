//! Game records: everything needed to replay a game exactly, as JSON.

use crate::dynamic::DynState;
use crate::error::{Error, Result};
use crate::game::Turn;
use crate::options::Options;
use crate::outcome::Outcome;
use crate::registry::find_game;
use serde::{Deserialize, Serialize};

/// The record format's version.
pub const RECORD_FORMAT: u32 = 1;

/// A game as played: game id, options, players, every action (chance
/// outcomes included) in notation, and the result (returns and outcome).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The record format's version.
    #[serde(default = "default_format")]
    pub format: u32,
    /// The game's id.
    pub game: String,
    /// Every option's value.
    #[serde(default)]
    pub options: Options,
    /// Who sat in each seat (names or agent names).
    #[serde(default)]
    pub players: Vec<String>,
    /// The seed of the dice, when they came from a seeded generator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Every action in order, in the game's notation.
    pub actions: Vec<String>,
    /// Returns per player when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Vec<f64>>,
    /// Who won (or the ranking, or a draw) and how, when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn default_format() -> u32 {
    RECORD_FORMAT
}

impl Record {
    /// An empty record of a game with these options.
    pub fn new(game: &str, options: Options, players: Vec<String>) -> Self {
        Record {
            format: RECORD_FORMAT,
            game: game.into(),
            options,
            players,
            seed: None,
            actions: Vec::new(),
            result: None,
            outcome: None,
        }
    }

    /// Notes a finished game's returns and outcome.
    pub fn finish(&mut self, returns: &[f64], outcome: Option<Outcome>) {
        self.result = Some(returns.to_vec());
        self.outcome = outcome;
    }

    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|e| Error::BadRecord(e.to_string()))
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serializes")
    }

    /// Replays every action from the start. Fails with the index of the first
    /// action that cannot be read or is illegal, or if the stated result
    /// differs from the replayed one.
    pub fn replay(&self) -> Result<Box<dyn DynState>> {
        if self.format != RECORD_FORMAT {
            return Err(Error::BadRecord(format!(
                "format {} is not supported (expected {RECORD_FORMAT})",
                self.format
            )));
        }
        let game = find_game(&self.game)?;
        let options = Options::from_map(
            &self.game,
            game.option_specs(),
            self.options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        )?;
        let mut state = game.new_state(&options)?;
        for (index, action) in self.actions.iter().enumerate() {
            state
                .apply_text(action)
                .map_err(|source| Error::RecordAction {
                    index,
                    action: action.clone(),
                    source: Box::new(source),
                })?;
        }
        if let Some(result) = &self.result {
            if state.turn() != Turn::Over {
                return Err(Error::BadRecord(
                    "the record states a result but the game is not over".into(),
                ));
            }
            if result.len() != state.num_players()
                || result
                    .iter()
                    .zip(state.returns())
                    .any(|(a, b)| (a - b).abs() > 1e-9)
            {
                return Err(Error::BadRecord(format!(
                    "the record states result {result:?} but replaying gives {:?}",
                    state.returns()
                )));
            }
        }
        if let Some(outcome) = &self.outcome
            && state.outcome().as_ref() != Some(outcome)
        {
            return Err(Error::BadRecord(format!(
                "the record states outcome {} but replaying gives {}",
                serde_json::to_string(outcome).unwrap_or_default(),
                state.outcome_json()
            )));
        }
        Ok(state)
    }
}
