//! Playouts for the Monte Carlo searches: a pluggable policy plays on from
//! a new node, to the end or for a fixed number of decisions after which the
//! heuristic scores the position.

use crate::spec::PlayoutPolicy;
use crate::values::{Values, final_scores, search_actions, state_score, state_scores};
use rand::Rng;
use spelbord_engine::{GameState, Heuristic, Turn};

/// Reusable buffers and settings of playouts.
#[derive(Debug)]
pub struct Playouts<S: GameState> {
    policy: PlayoutPolicy,
    cutoff: u32,
    actions: Vec<S::Action>,
}

impl<S: GameState + Heuristic> Playouts<S> {
    /// Playouts with this policy, scored by the heuristic after `cutoff`
    /// decisions (`u32::MAX`: never).
    pub fn new(policy: PlayoutPolicy, cutoff: u32) -> Self {
        Playouts {
            policy,
            cutoff,
            actions: Vec::with_capacity(64),
        }
    }

    /// Plays on from `state` (changing it) and gives every player's score.
    pub fn run<R: Rng>(&mut self, state: &mut S, rng: &mut R) -> Values {
        let mut decisions = 0u32;
        loop {
            match state.turn() {
                Turn::Over => return final_scores(state),
                Turn::Chance => {
                    let a = state.sample_chance(rng);
                    state.apply(a);
                }
                Turn::Player(p) => {
                    if decisions >= self.cutoff {
                        return state_scores(state);
                    }
                    decisions += 1;
                    search_actions(state, &mut self.actions);
                    let a = match self.policy {
                        PlayoutPolicy::Random => {
                            self.actions[rng.random_range(0..self.actions.len())]
                        }
                        PlayoutPolicy::Greedy { epsilon } => {
                            if self.actions.len() == 1 || rng.random::<f64>() < epsilon {
                                self.actions[rng.random_range(0..self.actions.len())]
                            } else if let Some(a) = state.playout_action() {
                                a
                            } else {
                                let mut best = (f64::NEG_INFINITY, self.actions[0]);
                                for &a in &self.actions {
                                    let mut next = state.clone();
                                    next.apply(a);
                                    // a little noise breaks ties without bias
                                    let v = state_score(&next, p) + rng.random::<f64>() * 1e-6;
                                    if v > best.0 {
                                        best = (v, a);
                                    }
                                }
                                best.1
                            }
                        }
                    };
                    state.apply(a);
                }
            }
        }
    }
}
