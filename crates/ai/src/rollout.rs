//! Rollouts with common random numbers: the candidate actions (the best by
//! one ply) are each played out many times by a greedy policy, and the
//! k-th playout of every candidate uses the same dice, so that the
//! comparison between candidates is not drowned by the luck of the dice (the
//! classic way of analysing backgammon positions). Playouts may stop after
//! a number of decisions and let the heuristic score the position.
//!
//! With hidden cards every trial deals the unseen cards afresh from the
//! mover's own observation (the engine's sampler), and every candidate is
//! played on in that same world with the same later draws: the comparison
//! averages over the worlds the mover cannot tell apart instead of trusting
//! one of them.

use crate::greedy::best_index;
use crate::spec::RolloutConfig;
use crate::values::{Values, final_scores, search_actions, state_score, state_scores};
use crate::{ActionEstimate, Agent};
use rand::{Rng, RngCore};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Player, Turn, Viewer};

/// The rollout agent.
#[derive(Debug)]
pub struct RolloutAgent<S: GameState> {
    config: RolloutConfig,
    rng: SeededRng,
    actions: Vec<S::Action>,
    /// Whether every trial samples the unseen cards from the mover's view.
    hidden: bool,
}

/// Plays on greedily from `state`: chance from `dice`, decisions the best
/// by one ply (ties to the first listed), until the end or `cutoff`
/// decisions; every player's score.
pub(crate) fn greedy_playout<S: GameState + Heuristic>(
    state: &mut S,
    dice: &mut SeededRng,
    cutoff: u32,
    actions: &mut Vec<S::Action>,
) -> Values {
    let mut decisions = 0;
    loop {
        match state.turn() {
            Turn::Over => return final_scores(state),
            Turn::Chance => {
                let a = state.sample_chance(dice);
                state.apply(a);
            }
            Turn::Player(p) => {
                if decisions >= cutoff {
                    return state_scores(state);
                }
                decisions += 1;
                search_actions(state, actions);
                let mut best = (f64::NEG_INFINITY, actions[0]);
                if actions.len() > 1 {
                    for &a in actions.iter() {
                        let mut next = state.clone();
                        next.apply(a);
                        let v = state_score(&next, p);
                        if v > best.0 {
                            best = (v, a);
                        }
                    }
                }
                state.apply(best.1);
            }
        }
    }
}

impl<S: GameState + Heuristic> RolloutAgent<S> {
    /// A rollout agent with these settings.
    pub fn new(config: RolloutConfig, seed: u64) -> Self {
        RolloutAgent {
            config,
            rng: seeded(seed),
            actions: Vec::new(),
            hidden: false,
        }
    }

    /// A rollout agent for a game with hidden cards: every trial plays in a
    /// world dealt afresh from what the mover sees.
    pub fn sampling(config: RolloutConfig, seed: u64) -> Self {
        RolloutAgent {
            hidden: true,
            ..Self::new(config, seed)
        }
    }

    /// The world a trial plays in: a fresh deal of the unseen cards from
    /// `me`'s observation, or `state` itself when nothing is hidden.
    fn world(&mut self, state: &S, me: Player) -> Option<S> {
        if self.hidden {
            S::sample_from_observation(&state.observation(Viewer::Player(me)), &mut self.rng)
        } else {
            Some(state.clone())
        }
    }

    /// The candidates with their mean scores for `me` and the standard
    /// error of each mean.
    fn evaluate(&mut self, state: &S, me: Player) -> Vec<(S::Action, f64, f64)> {
        let Some(first) = self.world(state, me) else {
            return Vec::new();
        };
        search_actions(&first, &mut self.actions);
        let mut ranked: Vec<(S::Action, f64)> = self
            .actions
            .iter()
            .map(|&a| {
                let mut next = first.clone();
                next.apply(a);
                (a, state_score(&next, me))
            })
            .collect();
        ranked.sort_by(|x, y| y.1.total_cmp(&x.1));
        ranked.truncate(self.config.width.max(1));
        if ranked.len() == 1 {
            return vec![(ranked[0].0, ranked[0].1, 0.0)];
        }
        let mut sum = vec![0.0; ranked.len()];
        let mut sq = vec![0.0; ranked.len()];
        let mut buf = Vec::new();
        let mut trials = 0u32;
        for _ in 0..self.config.samples.max(1) {
            let Some(world) = self.world(state, me) else {
                break;
            };
            let seed = self.rng.next_u64();
            search_actions(&world, &mut self.actions);
            if ranked.iter().any(|(a, _)| !self.actions.contains(a)) {
                continue;
            }
            trials += 1;
            for (j, &(a, _)) in ranked.iter().enumerate() {
                let mut s = world.clone();
                s.apply(a);
                let mut dice = seeded(seed);
                let v = greedy_playout(&mut s, &mut dice, self.config.cutoff, &mut buf)[me];
                sum[j] += v;
                sq[j] += v * v;
            }
        }
        let n = trials.max(1) as f64;
        ranked
            .iter()
            .enumerate()
            .map(|(j, (a, _))| {
                let mean = sum[j] / n;
                let var = (sq[j] / n - mean * mean).max(0.0);
                (*a, mean, (var / n).sqrt())
            })
            .collect()
    }
}

impl<S: GameState + Heuristic> Agent<S> for RolloutAgent<S> {
    fn name(&self) -> String {
        "rollout".into()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("rollout asked to choose when no player is to move");
        };
        if let Some(action) = self
            .world(state, me)
            .and_then(|world| world.settling_action())
        {
            return action;
        }
        let values = self.evaluate(state, me);
        if values.is_empty() {
            return crate::random::first_searchable(state);
        }
        let scores: Vec<f64> = values.iter().map(|v| v.1).collect();
        values[best_index(&scores, &mut self.rng)].0
    }

    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        let mut total = 0.0;
        let mut buf = Vec::new();
        let n = self.config.samples.max(1);
        for _ in 0..n {
            let mut s = self.world(state, player)?;
            let mut dice = seeded(self.rng.random());
            total += greedy_playout(&mut s, &mut dice, self.config.cutoff, &mut buf)[player];
        }
        Some(total / n as f64)
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        let mut out: Vec<ActionEstimate<S::Action>> = self
            .evaluate(state, me)
            .into_iter()
            .map(|(action, score, se)| ActionEstimate {
                action,
                score,
                margin: Some(1.96 * se),
                samples: self.config.samples as u64,
                equity: None,
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        out
    }
}
