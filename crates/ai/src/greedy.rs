//! The one-ply agent: every action's resulting position scored by the game's
//! heuristic; the best is played, or with a temperature one is drawn by
//! softmax over the scores (plausible moves with human-like slips).

use crate::values::{search_actions, state_score};
use crate::{ActionEstimate, Agent};
use rand::Rng;
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Player, Turn};

/// One ply on the heuristic.
#[derive(Debug)]
pub struct GreedyAgent<S: GameState> {
    temperature: f64,
    rng: SeededRng,
    actions: Vec<S::Action>,
    scores: Vec<f64>,
}

impl<S: GameState + Heuristic> GreedyAgent<S> {
    /// A greedy agent; `temperature` 0 always plays the best action.
    pub fn new(temperature: f64, seed: u64) -> Self {
        GreedyAgent {
            temperature: temperature.max(0.0),
            rng: seeded(seed),
            actions: Vec::new(),
            scores: Vec::new(),
        }
    }

    fn score_actions(&mut self, state: &S, me: Player) {
        search_actions(state, &mut self.actions);
        self.scores.clear();
        for &a in &self.actions {
            let mut next = state.clone();
            next.apply(a);
            self.scores.push(state_score(&next, me));
        }
    }
}

/// The index of the best score, ties broken at random.
pub(crate) fn best_index<R: Rng>(scores: &[f64], rng: &mut R) -> usize {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties = scores.iter().filter(|&&s| s >= best - 1e-12).count();
    let mut k = if ties > 1 {
        rng.random_range(0..ties)
    } else {
        0
    };
    for (i, &s) in scores.iter().enumerate() {
        if s >= best - 1e-12 {
            if k == 0 {
                return i;
            }
            k -= 1;
        }
    }
    0
}

/// An index drawn with probabilities proportional to exp(score / temperature).
pub(crate) fn softmax_index<R: Rng>(scores: &[f64], temperature: f64, rng: &mut R) -> usize {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| ((s - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    scores.len() - 1
}

impl<S: GameState + Heuristic> Agent<S> for GreedyAgent<S> {
    fn name(&self) -> String {
        if self.temperature > 0.0 {
            format!("greedy:temp={}", self.temperature)
        } else {
            "greedy".into()
        }
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("greedy agent asked to choose when no player is to move");
        };
        if let Some(action) = state.settling_action() {
            return action;
        }
        self.score_actions(state, me);
        let i = if self.temperature > 0.0 {
            softmax_index(&self.scores, self.temperature, &mut self.rng)
        } else {
            best_index(&self.scores, &mut self.rng)
        };
        self.actions[i]
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        self.score_actions(state, me);
        self.actions
            .iter()
            .zip(&self.scores)
            .map(|(&action, &score)| ActionEstimate {
                action,
                score,
                margin: None,
                samples: 1,
                equity: None,
            })
            .collect()
    }
}
