//! The object-safe layer: games and states behind `dyn`, actions as text and JSON.

use crate::error::{Error, Result};
use crate::game::{Game, GameState, Notation, Turn, Viewer};
use crate::options::{OptionSpec, Options};
use crate::outcome::Outcome;
use crate::resign::{Resign, Resignation};
use rand::RngCore;
use serde::Serialize;
use serde_json::Value;
use std::marker::PhantomData;

/// An action described for a UI: its notation and its JSON form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionInfo {
    /// The action in the game's short text notation.
    pub text: String,
    /// The action as JSON.
    pub json: Value,
}

/// A game behind `dyn`: its description and a factory for states.
pub trait DynGame: Send + Sync {
    /// The game's id, e.g. `tawla`.
    fn id(&self) -> &'static str;
    /// The game's display name.
    fn name(&self) -> &'static str;
    /// One line on what the game is.
    fn summary(&self) -> &'static str;
    /// Fewest and most players.
    fn players(&self) -> (usize, usize);
    /// The options with their defaults.
    fn option_specs(&self) -> &'static [OptionSpec];
    /// Whether players hold information others may not see.
    fn hidden_information(&self) -> bool;
    /// Whether chance acts (dice, deals).
    fn chance(&self) -> bool;
    /// The rules for players, in Markdown.
    fn rules(&self) -> &'static str;
    /// Parses `key=value` pairs against this game's options.
    fn parse_options(&self, pairs: &[String]) -> Result<Options> {
        Options::parse(self.id(), self.option_specs(), pairs)
    }
    /// A new game with these options.
    fn new_state(&self, options: &Options) -> Result<Box<dyn DynState>>;
}

/// A state behind `dyn`, for the command line and the server.
pub trait DynState: Send + Sync {
    /// The id of the game.
    fn game_id(&self) -> &'static str;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// The legal actions of the player to move.
    fn legal_actions(&self) -> Vec<ActionInfo>;
    /// The chance outcomes with probabilities.
    fn chance_outcomes(&self) -> Vec<(ActionInfo, f64)>;
    /// Draws a chance outcome from `rng`, without applying it.
    fn sample_chance(&self, rng: &mut dyn RngCore) -> ActionInfo;
    /// Applies an action written in notation; on error nothing changes.
    fn apply_text(&mut self, text: &str) -> Result<ActionInfo>;
    /// Applies an action given as JSON; on error nothing changes.
    fn apply_json(&mut self, json: &Value) -> Result<ActionInfo>;
    /// Applies an action as a stored record wrote it; on error nothing
    /// changes. Records of the tables games written before hits were
    /// marked with `*` name a hitting play without its marks: such a text
    /// is read as the one legal action it names once marks are set aside.
    fn apply_recorded(&mut self, text: &str) -> Result<ActionInfo> {
        if let Some(resign) = Resign::parse(text) {
            let resign = resign?;
            return self.resign(resign.seat, resign.kind);
        }
        self.apply_text(text).or_else(|error| {
            if text.contains('*') {
                return Err(error);
            }
            let mut named = self
                .legal_actions()
                .into_iter()
                .filter(|a| a.text.contains('*') && a.text.replace('*', "") == text);
            match (named.next(), named.next()) {
                (Some(one), None) => self.apply_json(&one.json),
                _ => Err(error),
            }
        })
    }
    /// Ends the game as if `seat` gave up `kind` ([`crate::GameState::resign`]),
    /// whoever is to move; gives the record's entry for it. On error nothing
    /// changes.
    fn resign(&mut self, seat: usize, kind: Resignation) -> Result<ActionInfo>;
    /// Reads an action in notation and gives it in canonical form (no legality check).
    fn parse_text(&self, text: &str) -> Result<ActionInfo>;
    /// Final returns per player (zeros before the end).
    fn returns(&self) -> Vec<f64>;
    /// The most plies a game with these rules can last ([`GameState::max_game_length`]).
    fn max_game_length(&self) -> u64;
    /// Who won (or the ranking, or a draw) and how, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome as JSON (`null` before the end): result, winner, loser,
    /// places and ending.
    fn outcome_json(&self) -> Value {
        serde_json::to_value(self.outcome()).unwrap_or(Value::Null)
    }
    /// What `viewer` may see, as JSON.
    fn observation_json(&self, viewer: Viewer) -> Value;
    /// The whole state as JSON (everything, hidden parts included).
    fn state_json(&self) -> Value;
    /// A text drawing for `viewer`.
    fn render(&self, viewer: Viewer, color: bool) -> String;
    /// Events of the last action, in English.
    fn events(&self) -> Vec<String>;
    /// Events of the last action, typed.
    fn game_events(&self) -> Vec<crate::game::GameEvent>;
    /// The legal plays made step by step, where the game has plays of steps.
    fn play_steps(&self) -> Option<crate::tables::StepsView>;
    /// The positions the legal play of steps `action` (JSON) passes through,
    /// the board now first ([`crate::game::Notation::play_boards`]).
    fn play_boards(&self, action: &Value) -> Option<Vec<Value>>;
    /// What the last action showed `viewer` alone (e.g. the card he drew).
    fn private_events(&self, viewer: Viewer) -> Vec<String>;
    /// The roll the server may play for the player to move at a cube
    /// decision ([`crate::Notation::auto_roll`]): always with `always`,
    /// otherwise only where doubling cannot gain. `None` by default.
    fn auto_roll_action(&self, _always: bool) -> Option<ActionInfo> {
        None
    }
    /// A copy of this state.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The concrete state, for code generic over the game (a [`StateOf`]).
    fn as_any(&self) -> &dyn std::any::Any;
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Wraps a game type as a [`DynGame`].
pub struct DynGameOf<G: Game>(PhantomData<fn() -> G>);

impl<G: Game> DynGameOf<G> {
    /// The wrapper for `G`.
    pub const fn new() -> Self {
        DynGameOf(PhantomData)
    }
}

impl<G: Game> Default for DynGameOf<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> DynGame for DynGameOf<G> {
    fn id(&self) -> &'static str {
        G::ID
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn summary(&self) -> &'static str {
        G::SUMMARY
    }
    fn players(&self) -> (usize, usize) {
        G::PLAYERS
    }
    fn option_specs(&self) -> &'static [OptionSpec] {
        G::option_specs()
    }
    fn hidden_information(&self) -> bool {
        G::HIDDEN_INFORMATION
    }
    fn chance(&self) -> bool {
        G::CHANCE
    }
    fn rules(&self) -> &'static str {
        G::RULES
    }
    fn new_state(&self, options: &Options) -> Result<Box<dyn DynState>> {
        let game = G::from_options(options)?;
        Ok(Box::new(StateOf::<G>(game.initial_state())))
    }
}

/// Wraps a game's state as a [`DynState`].
#[derive(Clone, Debug)]
pub struct StateOf<G: Game>(pub G::State);

impl<G: Game> StateOf<G> {
    fn info(&self, action: <G::State as GameState>::Action) -> ActionInfo {
        ActionInfo {
            text: self.0.format_action(action),
            json: serde_json::to_value(action).unwrap_or(Value::Null),
        }
    }
}

impl<G: Game> DynState for StateOf<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn legal_actions(&self) -> Vec<ActionInfo> {
        let mut actions = Vec::new();
        self.0.legal_actions(&mut actions);
        actions.into_iter().map(|a| self.info(a)).collect()
    }
    fn chance_outcomes(&self) -> Vec<(ActionInfo, f64)> {
        let mut outcomes = Vec::new();
        self.0.chance_outcomes(&mut outcomes);
        outcomes
            .into_iter()
            .map(|(a, p)| (self.info(a), p))
            .collect()
    }
    fn sample_chance(&self, rng: &mut dyn RngCore) -> ActionInfo {
        let action = self.0.sample_chance(rng);
        self.info(action)
    }
    fn apply_text(&mut self, text: &str) -> Result<ActionInfo> {
        if self.0.turn() == Turn::Over {
            return Err(Error::GameOver);
        }
        let action = self.0.parse_action(text)?;
        let info = self.info(action);
        self.0.try_apply(action)?;
        Ok(info)
    }
    fn apply_json(&mut self, json: &Value) -> Result<ActionInfo> {
        if self.0.turn() == Turn::Over {
            return Err(Error::GameOver);
        }
        let action: <G::State as GameState>::Action =
            serde_json::from_value(json.clone()).map_err(|e| Error::BadJson(e.to_string()))?;
        let action = self.0.canonical_action(action);
        let info = self.info(action);
        self.0.try_apply(action)?;
        Ok(info)
    }
    fn parse_text(&self, text: &str) -> Result<ActionInfo> {
        let action = self.0.parse_action(text)?;
        Ok(self.info(action))
    }
    fn resign(&mut self, seat: usize, kind: Resignation) -> Result<ActionInfo> {
        self.0.resign(seat, kind)?;
        let resign = Resign { seat, kind };
        Ok(ActionInfo {
            text: resign.text(),
            json: resign.json(),
        })
    }
    fn returns(&self) -> Vec<f64> {
        self.0.returns().as_slice().to_vec()
    }
    fn max_game_length(&self) -> u64 {
        self.0.max_game_length()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn observation_json(&self, viewer: Viewer) -> Value {
        serde_json::to_value(self.0.observation(viewer)).unwrap_or(Value::Null)
    }
    fn state_json(&self) -> Value {
        serde_json::to_value(&self.0).unwrap_or(Value::Null)
    }
    fn render(&self, viewer: Viewer, color: bool) -> String {
        self.0.render(viewer, color)
    }
    fn events(&self) -> Vec<String> {
        self.0.events()
    }
    fn game_events(&self) -> Vec<crate::game::GameEvent> {
        self.0.game_events()
    }
    fn play_steps(&self) -> Option<crate::tables::StepsView> {
        self.0.play_steps()
    }
    fn play_boards(&self, action: &Value) -> Option<Vec<Value>> {
        let action = serde_json::from_value(action.clone()).ok()?;
        self.0.play_boards(action)
    }

    fn private_events(&self, viewer: Viewer) -> Vec<String> {
        self.0.private_events(viewer)
    }
    fn auto_roll_action(&self, always: bool) -> Option<ActionInfo> {
        self.0.auto_roll(always).map(|a| self.info(a))
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
