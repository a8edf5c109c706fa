//! The uniform random agent.

use crate::Agent;
use rand::Rng;
use spelbord_engine::GameState;
use spelbord_engine::rng::{SeededRng, seeded};

/// Chooses uniformly among the legal actions.
#[derive(Debug)]
pub struct RandomAgent {
    rng: SeededRng,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: seeded(seed) }
    }
}

impl<S: GameState> Agent<S> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        actions[self.rng.random_range(0..actions.len())]
    }
}

/// The first action a search would consider (a safe fallback).
pub(crate) fn first_searchable<S: GameState>(state: &S) -> S::Action {
    let mut actions = Vec::new();
    crate::values::search_actions(state, &mut actions);
    actions[0]
}
