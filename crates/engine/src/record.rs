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

    /// The game's start position under the record's options.
    pub fn start_state(&self) -> Result<Box<dyn DynState>> {
        let game = find_game(&self.game)?;
        let options = Options::from_map(
            &self.game,
            game.option_specs(),
            self.options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        )?;
        game.new_state(&options)
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
        let mut state = self.start_state()?;
        for (index, action) in self.actions.iter().enumerate() {
            state
                .apply_recorded(action)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;
    use rand::Rng;

    /// A random game of `id` as its record, up to the first few hits.
    fn random_record(id: &str, seed: u64) -> (Record, Box<dyn DynState>) {
        let game = find_game(id).expect("a game");
        let options = game.parse_options(&[]).expect("default options");
        let mut state = game.new_state(&options).expect("a state");
        let mut record = Record::new(id, options, vec![]);
        let mut rng = seeded(seed);
        let mut hits = 0;
        while state.turn() != Turn::Over && hits < 3 {
            let info = if state.turn() == Turn::Chance {
                state.sample_chance(&mut rng)
            } else {
                let legal = state.legal_actions();
                legal[rng.random_range(0..legal.len())].clone()
            };
            hits += usize::from(info.text.contains('*'));
            state
                .apply_text(&info.text)
                .expect("a legal action applies");
            record.actions.push(info.text);
        }
        (record, state)
    }

    #[test]
    fn records_written_before_hit_marks_still_replay() {
        for id in ["backgammon", "tawla"] {
            let (record, state) = random_record(id, 5);
            assert!(
                record.actions.iter().any(|a| a.contains('*')),
                "{id}: no hit"
            );
            let mut old = record.clone();
            for a in &mut old.actions {
                *a = a.replace('*', "");
            }
            // Typed text must mark its hits; a stored record need not.
            let first_hit = old
                .actions
                .iter()
                .zip(&record.actions)
                .position(|(o, r)| o != r)
                .expect("a hit");
            let before = Record {
                actions: record.actions[..first_hit].to_vec(),
                ..record.clone()
            };
            let mut at_hit = before.replay().expect("the start replays");
            assert!(at_hit.apply_text(&old.actions[first_hit]).is_err());
            let replayed = old.replay().expect("an old record replays");
            assert_eq!(replayed.state_json(), state.state_json(), "{id}");
        }
    }
}
