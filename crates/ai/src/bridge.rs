//! Agents for states behind `dyn` (the server and other callers that do
//! not know the game's type): an agent's choice, and hints.

pub use crate::hint::Hint;
use crate::hint::hints_for;
use crate::spec::Budget;
use crate::{Agent, make_agent_for};
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
    /// The position cannot be read in the game's notation.
    BadPosition(String),
}

impl fmt::Display for AiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiError::UnknownAgent(a) => f.write_str(a),
            AiError::UnknownGame(g) => write!(f, "unknown game `{g}`"),
            AiError::NotAPlayersTurn => f.write_str("it is not a player's turn"),
            AiError::BadPosition(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for AiError {}

fn concrete<G: Game>(state: &dyn DynState) -> Result<&G::State, AiError> {
    let state = &state
        .as_any()
        .downcast_ref::<StateOf<G>>()
        .ok_or_else(|| AiError::UnknownGame(state.game_id().into()))?
        .0;
    if !matches!(state.turn(), Turn::Player(_)) {
        return Err(AiError::NotAPlayersTurn);
    }
    Ok(state)
}

struct Choose<'a> {
    state: &'a dyn DynState,
    agent: &'a str,
    seed: u64,
}

impl GameVisitor for Choose<'_> {
    type Output = Result<ActionInfo, AiError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state = concrete::<G>(self.state)?;
        let mut agent: Box<dyn Agent<G::State>> =
            make_agent_for::<G>(self.agent, state.num_players(), self.seed)
                .map_err(|e| AiError::UnknownAgent(e.0))?;
        let action = agent.choose(state);
        Ok(ActionInfo {
            text: state.format_action(action),
            json: serde_json::to_value(action).unwrap_or_default(),
        })
    }
}

/// Lets the named agent (e.g. `random`, `ai:hard`, `mcts:iters=500`)
/// choose an action for the player to move; does not apply it.
pub fn choose_action(state: &dyn DynState, agent: &str, seed: u64) -> Result<ActionInfo, AiError> {
    visit_game(state.game_id(), Choose { state, agent, seed })
        .map_err(|_| AiError::UnknownGame(state.game_id().into()))?
}

struct Hints<'a> {
    state: &'a dyn DynState,
    count: usize,
    budget: Budget,
    seed: u64,
}

impl GameVisitor for Hints<'_> {
    type Output = Result<Vec<Hint>, AiError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state = concrete::<G>(self.state)?;
        Ok(hints_for::<G>(state, self.count, self.budget, self.seed))
    }
}

/// Up to `count` hints for the player to move: the best actions, best
/// first, each with the estimated win probability after it and how sure
/// the estimate is. `budget` bounds the search (e.g.
/// `Budget::Iterations(5000)`, reproducible for a seed, or
/// `Budget::Millis(500)`). In games with hidden cards the search reads only
/// the mover's own observation.
pub fn hints(
    state: &dyn DynState,
    count: usize,
    budget: Budget,
    seed: u64,
) -> Result<Vec<Hint>, AiError> {
    visit_game(
        state.game_id(),
        Hints {
            state,
            count,
            budget,
            seed,
        },
    )
    .map_err(|_| AiError::UnknownGame(state.game_id().into()))?
}

/// Hints for a position given as text.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PositionHints {
    /// The position as the game writes it.
    pub position: String,
    /// The player to move.
    pub player: spelbord_engine::Player,
    /// The best actions, best first.
    pub hints: Vec<Hint>,
}

struct HintsAt<'a> {
    position: &'a str,
    count: usize,
    budget: Budget,
    seed: u64,
}

impl GameVisitor for HintsAt<'_> {
    type Output = Result<PositionHints, AiError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state: G::State = self
            .position
            .parse()
            .map_err(|e: spelbord_engine::Error| AiError::BadPosition(e.to_string()))?;
        let Turn::Player(player) = state.turn() else {
            return Err(AiError::NotAPlayersTurn);
        };
        Ok(PositionHints {
            position: state.to_string(),
            player,
            hints: hints_for::<G>(&state, self.count, self.budget, self.seed),
        })
    }
}

/// Up to `count` hints (as [`hints`]) for the player to move in `position`,
/// written in `game`'s position notation (in backgammon also GNU
/// Backgammon's `POSITIONID[:MATCHID]`).
pub fn hints_at_position(
    game: &str,
    position: &str,
    count: usize,
    budget: Budget,
    seed: u64,
) -> Result<PositionHints, AiError> {
    visit_game(
        game,
        HintsAt {
            position,
            count,
            budget,
            seed,
        },
    )
    .map_err(|_| AiError::UnknownGame(game.into()))?
}
