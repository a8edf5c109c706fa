//! Uniform random playouts, for self-play, benches and property tests.

use crate::error::{Error, Result};
use crate::game::{GameState, Turn};
use rand::Rng;

/// Reusable buffers for playouts, so that a playout allocates nothing.
#[derive(Debug)]
pub struct Playout<S: GameState> {
    actions: Vec<S::Action>,
}

impl<S: GameState> Default for Playout<S> {
    fn default() -> Self {
        Playout {
            actions: Vec::with_capacity(256),
        }
    }
}

impl<S: GameState> Playout<S> {
    /// Plays uniformly random legal actions (and sampled chance) to the end;
    /// returns the number of plies, chance plies included. Calls `each` with
    /// every action before applying it. A game still going after
    /// [`GameState::max_game_length`] plies stops there with
    /// [`Error::TooLong`].
    pub fn run<R: Rng + ?Sized>(
        &mut self,
        state: &mut S,
        rng: &mut R,
        mut each: impl FnMut(&S, S::Action),
    ) -> Result<u64> {
        let limit = state.max_game_length();
        let mut plies = 0;
        loop {
            if plies == limit && state.turn() != Turn::Over {
                return Err(Error::TooLong(limit));
            }
            let action = match state.turn() {
                Turn::Over => return Ok(plies),
                Turn::Chance => state.sample_chance(rng),
                Turn::Player(_) => state.random_action(rng, &mut self.actions),
            };
            each(state, action);
            state.apply(action);
            plies += 1;
        }
    }
}
