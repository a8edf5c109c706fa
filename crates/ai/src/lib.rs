#![forbid(unsafe_code)]
//! Game-playing agents for spelbord, generic over the engine's fast game API.

mod bridge;
mod random;

pub use bridge::{AiError, choose_action};
pub use random::RandomAgent;

use spelbord_engine::{Game, GameState};

/// Something that chooses actions for the player to move.
pub trait Agent<S: GameState>: Send {
    /// The agent's name as given on the command line (e.g. `random`).
    fn name(&self) -> String;
    /// Chooses one legal action for the player to move in `state`.
    fn choose(&mut self, state: &S) -> S::Action;
}

/// An error naming an unknown agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAgent(pub String);

impl std::fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown agent `{}` (known: {})",
            self.0,
            AGENT_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownAgent {}

/// Names accepted by [`make_agent`].
pub const AGENT_NAMES: &[&str] = &["random"];

/// The agent with this name for game `G`, seeded for reproducible play.
pub fn make_agent<G: Game>(
    name: &str,
    seed: u64,
) -> Result<Box<dyn Agent<G::State>>, UnknownAgent> {
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        _ => Err(UnknownAgent(name.into())),
    }
}
