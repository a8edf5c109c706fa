//! Agents that were written for perfect information, made honest in games
//! with hidden cards: before each decision the unseen cards are dealt at
//! random from the mover's own observation (the engine's information-set
//! sampler), and the inner agent decides on that sampled world. The true
//! state is never passed on, nor are the actions of others (a drawn card
//! would give itself away).

use crate::{ActionEstimate, Agent};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Turn, Viewer};

/// Decides on one sampled world per move.
pub struct Determinized<S: GameState> {
    inner: Box<dyn Agent<S>>,
    rng: SeededRng,
}

impl<S: GameState + Heuristic> Determinized<S> {
    /// Wraps `inner`, with its own seeded sampler.
    pub fn new(inner: Box<dyn Agent<S>>, seed: u64) -> Self {
        Determinized {
            inner,
            rng: seeded(seed ^ 0x005E_ED0F_D3A1),
        }
    }

    fn world(&mut self, state: &S) -> Option<S> {
        let Turn::Player(me) = state.turn() else {
            return None;
        };
        S::sample_from_observation(&state.observation(Viewer::Player(me)), &mut self.rng)
    }
}

impl<S: GameState + Heuristic> Agent<S> for Determinized<S> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        match self.world(state) {
            Some(world) => self.inner.choose(&world),
            None => crate::random::first_searchable(state),
        }
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        match self.world(state) {
            Some(world) => self.inner.analyse(&world),
            None => Vec::new(),
        }
    }
}
