//! Information-set MCTS (single observer): every iteration deals the unseen
//! cards afresh from the agent's own observation (the engine's sampler, which
//! reads nothing else) and walks one tree of player actions, choosing only
//! among actions available in that deal (UCB1 with availability counts).
//! Chance events pass through (they are part of the sampled world), so the
//! tree never branches on a card the agent cannot see.

use crate::mcts::{most_visited, root_estimates, within_budget};
use crate::playout::Playouts;
use crate::spec::{Budget, MctsConfig};
use crate::tree::{Edge, NONE, Tree};
use crate::values::{Values, final_scores, search_actions};
use crate::{ActionEstimate, Agent};
use rand::seq::SliceRandom;
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Player, Turn, Viewer};
use std::time::Instant;

/// The ISMCTS agent.
#[derive(Debug)]
pub struct IsmctsAgent<S: GameState> {
    config: MctsConfig,
    rng: SeededRng,
    tree: Tree<S::Action>,
    playouts: Playouts<S>,
    path: Vec<u32>,
    actions: Vec<S::Action>,
    /// Iterations run by the last search.
    pub last_iterations: u64,
}

impl<S: GameState + Heuristic> IsmctsAgent<S> {
    /// An ISMCTS agent with these settings.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        IsmctsAgent {
            config,
            rng: seeded(seed),
            tree: Tree::new(),
            playouts: Playouts::new(config.playout, config.cutoff),
            path: Vec::with_capacity(64),
            actions: Vec::new(),
            last_iterations: 0,
        }
    }

    /// Marks the actions available at `node` in this world and picks one:
    /// an untried one first, else by UCB1 over the available ones.
    fn select(&mut self, node: u32, state: &S, player: Player) -> usize {
        search_actions(state, &mut self.actions);
        self.actions.shuffle(&mut self.rng);
        let mut untried = None;
        for &a in &self.actions {
            let found = self.tree.nodes[node as usize]
                .edges
                .iter()
                .position(|e| e.action == a);
            let i = found.unwrap_or_else(|| {
                self.tree.push_edge(
                    node,
                    Edge {
                        action: a,
                        prior: 0.0,
                        available: 0,
                        child: NONE,
                    },
                )
            });
            let edges = &mut self.tree.nodes[node as usize].edges;
            edges[i].available += 1;
            if untried.is_none() && edges[i].child == NONE {
                untried = Some(i);
            }
        }
        if let Some(i) = untried {
            return i;
        }
        let n = &self.tree.nodes[node as usize];
        let mut best = (f64::NEG_INFINITY, 0);
        for &a in &self.actions {
            let i = n
                .edges
                .iter()
                .position(|e| e.action == a)
                .expect("marked above");
            let e = &n.edges[i];
            let c = &self.tree.nodes[e.child as usize];
            let v = c.visits.max(1) as f64;
            let u = c.mean(player, 0.5)
                + self.config.exploration * ((e.available.max(1) as f64).ln() / v).sqrt();
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    }

    fn iterate(&mut self, mut state: S, players: usize) {
        let mut node = 0u32;
        self.path.clear();
        self.path.push(node);
        let scores: Values = loop {
            match state.turn() {
                Turn::Over => break final_scores(&state),
                Turn::Chance => {
                    let outcome = state.sample_chance(&mut self.rng);
                    state.apply(outcome);
                }
                Turn::Player(p) => {
                    let i = self.select(node, &state, p);
                    let (action, child, created) = self.tree.follow(node, i);
                    state.apply(action);
                    node = child;
                    self.path.push(node);
                    if created {
                        break self.playouts.run(&mut state, &mut self.rng);
                    }
                }
            }
        };
        self.tree.back_up(&self.path, &scores, players);
    }

    /// Searches from what `me` sees of the game; false if the observation
    /// could not be sampled.
    fn search(&mut self, observation: &S::Observation, budget: Budget) -> bool {
        self.tree = Tree::new();
        let start = Instant::now();
        let mut done = 0u64;
        while within_budget(budget, done, start) && self.tree.bytes() < crate::mcts::MAX_TREE_BYTES
        {
            let Some(world) = S::sample_from_observation(observation, &mut self.rng) else {
                break;
            };
            let players = world.num_players();
            self.iterate(world, players);
            done += 1;
        }
        self.last_iterations = done;
        done > 0
    }
}

impl<S: GameState + Heuristic> Agent<S> for IsmctsAgent<S> {
    fn name(&self) -> String {
        "ismcts".into()
    }

    /// Reads only `state`'s turn and the mover's own observation.
    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("ismcts asked to choose when no player is to move");
        };
        let observation = state.observation(Viewer::Player(me));
        if let Some(action) = S::sample_from_observation(&observation, &mut self.rng)
            .and_then(|world| world.settling_action())
        {
            self.last_iterations = 0;
            return action;
        }
        if self.search(&observation, self.config.budget) {
            let root = &self.tree.nodes[0];
            if root.edges.len() == 1 {
                return root.edges[0].action;
            }
            if let Some(i) = most_visited(&self.tree, 0, me) {
                return self.tree.nodes[0].edges[i].action;
            }
        }
        // No information-set sampler for this game: a perfect-information
        // game, where the observation is the state.
        crate::random::first_searchable(state)
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        let observation = state.observation(Viewer::Player(me));
        if !self.search(&observation, self.config.budget) {
            return Vec::new();
        }
        root_estimates(&self.tree, me)
    }
}

/// Runs a fresh search for the player to move in `state` within `budget`
/// (for benches); returns the iterations done.
pub fn bench_ismcts<S: GameState + Heuristic>(
    config: MctsConfig,
    state: &S,
    budget: Budget,
    seed: u64,
) -> u64 {
    let Turn::Player(me) = state.turn() else {
        return 0;
    };
    let mut agent = IsmctsAgent::<S>::new(config, seed);
    agent.search(&state.observation(Viewer::Player(me)), budget);
    agent.last_iterations
}
