//! Expectimax: a fixed number of decision plies through chance nodes (dice),
//! each player maximizing his own value (max^n, which for two players is
//! expectiminimax), the game's heuristic at the horizon. Forward pruning
//! keeps the search cheap: at every decision only the actions that look best
//! after one ply are searched deeper (as backgammon programs' move filters
//! do). Cube decisions inside the search are played as "no double" / "take".

use crate::greedy::best_index;
use crate::spec::ExpectimaxConfig;
use crate::values::{Values, search_actions, state_scores};
use crate::{ActionEstimate, Agent};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, MAX_PLAYERS, Player, Turn};

/// The expectimax agent.
#[derive(Debug)]
pub struct ExpectimaxAgent {
    config: ExpectimaxConfig,
    rng: SeededRng,
    nodes: u64,
}

/// Actions with their one-ply values, best first for `player`.
fn ranked<S: GameState + Heuristic>(state: &S, player: Player) -> Vec<(S::Action, S, Values)> {
    let mut actions = Vec::new();
    search_actions(state, &mut actions);
    let mut out: Vec<(S::Action, S, Values)> = actions
        .into_iter()
        .map(|a| {
            let mut next = state.clone();
            next.apply(a);
            let v = state_scores(&next);
            (a, next, v)
        })
        .collect();
    // Stable: equal values keep the generator's order.
    out.sort_by(|x, y| y.2[player].total_cmp(&x.2[player]));
    out
}

impl ExpectimaxAgent {
    /// An expectimax agent with these settings.
    pub fn new(config: ExpectimaxConfig, seed: u64) -> Self {
        ExpectimaxAgent {
            config,
            rng: seeded(seed),
            nodes: 0,
        }
    }

    /// The value of `state` searched `depth` decision plies deep.
    fn value<S: GameState + Heuristic>(&mut self, state: &S, depth: u32) -> Values {
        self.nodes += 1;
        match state.turn() {
            Turn::Over => state_scores(state),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                state.chance_outcomes(&mut outcomes);
                let mut total = [0.0; MAX_PLAYERS];
                for (a, p) in outcomes {
                    let mut next = state.clone();
                    next.apply(a);
                    let v = self.value(&next, depth);
                    for (t, x) in total.iter_mut().zip(v) {
                        *t += p * x;
                    }
                }
                total
            }
            Turn::Player(q) => {
                if depth == 0 {
                    return state_scores(state);
                }
                let mut children = ranked(state, q);
                if children.len() == 1 {
                    // A cube decision played by default spends no ply; a
                    // forced move does (chains of passes would explode).
                    let (a, next, v) = children.pop().expect("one child");
                    return if state.cube_action(a).is_some() {
                        self.value(&next, depth)
                    } else if depth == 1 {
                        v
                    } else {
                        self.value(&next, depth - 1)
                    };
                }
                if depth == 1 {
                    return children.first().map(|c| c.2).unwrap_or_default();
                }
                children.truncate(self.config.width);
                let mut best: Option<Values> = None;
                for (_, next, _) in &children {
                    let v = self.value(next, depth - 1);
                    if best.is_none_or(|b| v[q] > b[q]) {
                        best = Some(v);
                    }
                }
                best.unwrap_or_default()
            }
        }
    }

    /// Every root action with its searched value for the mover (actions
    /// outside the root filter keep their one-ply value).
    fn root_values<S: GameState + Heuristic>(
        &mut self,
        state: &S,
        me: Player,
    ) -> Vec<(S::Action, f64, bool)> {
        let children = ranked(state, me);
        let deep = self.config.depth > 1 && children.len() > 1;
        children
            .into_iter()
            .enumerate()
            .map(|(i, (a, next, v))| {
                if deep && i < self.config.root_width {
                    (a, self.value(&next, self.config.depth - 1)[me], true)
                } else {
                    (a, v[me], !deep)
                }
            })
            .collect()
    }
}

impl<S: GameState + Heuristic> Agent<S> for ExpectimaxAgent {
    fn name(&self) -> String {
        let c = self.config;
        format!(
            "expectimax:depth={},width={},root={}",
            c.depth, c.width, c.root_width
        )
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("expectimax asked to choose when no player is to move");
        };
        let values = self.root_values(state, me);
        // Only actions searched to full depth compete (the others scored
        // one ply only and were filtered out).
        let scores: Vec<f64> = values
            .iter()
            .map(|&(_, v, full)| if full { v } else { f64::NEG_INFINITY })
            .collect();
        values[best_index(&scores, &mut self.rng)].0
    }

    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        // One ply less than a move's search: an estimate at a chance node
        // spans every roll.
        Some(self.value(state, self.config.depth.saturating_sub(1).max(1))[player])
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        let before = self.nodes;
        let mut out: Vec<ActionEstimate<S::Action>> = self
            .root_values(state, me)
            .into_iter()
            .filter(|&(_, _, full)| full)
            .map(|(action, score, _)| ActionEstimate {
                action,
                score,
                margin: None,
                samples: 1,
                equity: None,
            })
            .collect();
        let nodes = self.nodes - before;
        for e in &mut out {
            e.samples = nodes;
        }
        out
    }
}
