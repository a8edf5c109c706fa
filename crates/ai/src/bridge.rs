//! Agents for states behind `dyn` (the server and other callers that do
//! not know the game's type).

use crate::{Agent, make_agent};
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::{
    ActionInfo, DynState, Game, GameState, GameVisitor, Notation, Turn, visit_game,
};
use std::fmt;

/// Why an agent could not choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AiError {
    /// No agent has this name.
    UnknownAgent(String),
    /// The game is not in the registry.
    UnknownGame(String),
    /// It is not a player's turn.
    NotAPlayersTurn,
}

impl fmt::Display for AiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiError::UnknownAgent(a) => write!(f, "unknown agent `{a}`"),
            AiError::UnknownGame(g) => write!(f, "unknown game `{g}`"),
            AiError::NotAPlayersTurn => f.write_str("it is not a player's turn"),
        }
    }
}

impl std::error::Error for AiError {}

struct Choose<'a> {
    state: &'a dyn DynState,
    agent: &'a str,
    seed: u64,
}

impl GameVisitor for Choose<'_> {
    type Output = Result<ActionInfo, AiError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state = &self
            .state
            .as_any()
            .downcast_ref::<StateOf<G>>()
            .ok_or_else(|| AiError::UnknownGame(self.state.game_id().into()))?
            .0;
        if !matches!(state.turn(), Turn::Player(_)) {
            return Err(AiError::NotAPlayersTurn);
        }
        let mut agent: Box<dyn Agent<G::State>> =
            make_agent::<G>(self.agent, self.seed).map_err(|e| AiError::UnknownAgent(e.0))?;
        let action = agent.choose(state);
        Ok(ActionInfo {
            text: state.format_action(action),
            json: serde_json::to_value(action).unwrap_or_default(),
        })
    }
}

/// Lets the named agent (e.g. `random`, `ai:hard`) choose an action for the
/// player to move; does not apply it.
pub fn choose_action(state: &dyn DynState, agent: &str, seed: u64) -> Result<ActionInfo, AiError> {
    visit_game(state.game_id(), Choose { state, agent, seed })
        .map_err(|_| AiError::UnknownGame(state.game_id().into()))?
}
