//! Monte Carlo tree search (UCT) with chance nodes and any number of players:
//! every node keeps each player's score sum and the player to move picks by
//! his own mean. Chance nodes sample an outcome per iteration. Selection is
//! UCB1, or PUCT with priors from a softmax over one-ply heuristic scores.
//! New nodes are scored by a playout (pluggable policy, optional cut-off to
//! the heuristic). The tree can be kept between moves: the agent follows the
//! actions it is told of and starts its next search from the matching node.

use crate::playout::Playouts;
use crate::spec::{Budget, MctsConfig};
use crate::tree::{Edge, NONE, Tree};
use crate::values::{Values, search_actions, state_score};
use crate::{ActionEstimate, Agent};
use rand::seq::SliceRandom;
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Player, Turn};
use std::time::{Duration, Instant};

/// The most heap bytes a search tree may hold (256 MiB); a search, with a
/// time budget or not, stops early when its tree reaches it.
pub const MAX_TREE_BYTES: usize = 256 << 20;

/// Priors from a softmax over one-ply scores for `player`.
pub(crate) fn priors<S: GameState + Heuristic>(
    state: &S,
    actions: &[S::Action],
    player: Player,
    temperature: f64,
) -> Vec<f32> {
    let scores: Vec<f64> = actions
        .iter()
        .map(|&a| {
            let mut next = state.clone();
            next.apply(a);
            state_score(&next, player)
        })
        .collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = scores
        .iter()
        .map(|s| ((s - best) / temperature.max(1e-6)).exp())
        .collect();
    let total: f64 = w.iter().sum();
    w.iter().map(|x| (x / total) as f32).collect()
}

/// Picks an edge of a decision node for `player` by UCB1 (unvisited edges
/// first, in their shuffled order) or PUCT.
pub(crate) fn select_edge<A>(
    tree: &Tree<A>,
    node: u32,
    player: Player,
    config: &MctsConfig,
) -> usize {
    let n = &tree.nodes[node as usize];
    if config.prior {
        let sqrt_n = (n.visits.max(1) as f64).sqrt();
        let fpu = n.mean(player, 0.5) - 0.1;
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, e) in n.edges.iter().enumerate() {
            let (q, visits) = if e.child == NONE {
                (fpu, 0.0)
            } else {
                let c = &tree.nodes[e.child as usize];
                (c.mean(player, fpu), c.visits as f64)
            };
            let u = q + config.exploration * e.prior as f64 * sqrt_n / (1.0 + visits);
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    } else {
        if let Some(i) = n.edges.iter().position(|e| e.child == NONE) {
            return i;
        }
        let log_n = (n.visits.max(1) as f64).ln();
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, e) in n.edges.iter().enumerate() {
            let c = &tree.nodes[e.child as usize];
            let v = c.visits.max(1) as f64;
            let u = c.mean(player, 0.5) + config.exploration * (log_n / v).sqrt();
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    }
}

/// The edge to play at the root: most visits, then best mean.
pub(crate) fn most_visited<A>(tree: &Tree<A>, node: u32, player: Player) -> Option<usize> {
    let n = &tree.nodes[node as usize];
    let key = |e: &Edge<A>| {
        if e.child == NONE {
            (0, f64::NEG_INFINITY)
        } else {
            let c = &tree.nodes[e.child as usize];
            (c.visits, c.mean(player, 0.0))
        }
    };
    (0..n.edges.len()).max_by(|&a, &b| {
        let (ka, kb) = (key(&n.edges[a]), key(&n.edges[b]));
        ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
    })
}

/// Root statistics as estimates, best first.
pub(crate) fn root_estimates<A: Copy>(tree: &Tree<A>, player: Player) -> Vec<ActionEstimate<A>> {
    let root = &tree.nodes[0];
    let mut out: Vec<ActionEstimate<A>> = root
        .edges
        .iter()
        .filter(|e| e.child != NONE)
        .map(|e| {
            let c = &tree.nodes[e.child as usize];
            ActionEstimate {
                action: e.action,
                score: c.mean(player, 0.5),
                margin: Some(c.margin(player)),
                samples: c.visits as u64,
                equity: None,
            }
        })
        .collect();
    out.sort_by(|a, b| b.samples.cmp(&a.samples).then(b.score.total_cmp(&a.score)));
    out
}

/// Whether a search may go on after `done` iterations.
pub(crate) fn within_budget(budget: Budget, done: u64, start: Instant) -> bool {
    match budget {
        Budget::Iterations(n) => done < n,
        Budget::Millis(ms) => {
            !done.is_multiple_of(16) || start.elapsed() < Duration::from_millis(ms)
        }
    }
}

/// The MCTS agent.
#[derive(Debug)]
pub struct MctsAgent<S: GameState> {
    config: MctsConfig,
    rng: SeededRng,
    tree: Tree<S::Action>,
    playouts: Playouts<S>,
    /// Where the actions told since the last search lead: a node of the
    /// tree (or [`NONE`]) and the state reached.
    cursor: Option<(u32, S)>,
    path: Vec<u32>,
    actions: Vec<S::Action>,
    /// Iterations run by the last search.
    pub last_iterations: u64,
    /// The memory cap of the tree ([`MAX_TREE_BYTES`] unless changed).
    max_tree_bytes: usize,
}

impl<S: GameState + Heuristic> MctsAgent<S> {
    /// An MCTS agent with these settings.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        MctsAgent {
            config,
            rng: seeded(seed),
            tree: Tree::new(),
            playouts: Playouts::new(config.playout, config.cutoff),
            cursor: None,
            path: Vec::with_capacity(64),
            actions: Vec::new(),
            last_iterations: 0,
            max_tree_bytes: MAX_TREE_BYTES,
        }
    }

    /// This agent with another memory cap for its tree, in bytes.
    pub fn with_memory_cap(mut self, bytes: usize) -> Self {
        self.max_tree_bytes = bytes;
        self
    }

    /// Heap bytes held by the agent's search tree.
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes()
    }

    /// Lists the actions of a decision node.
    fn expand(&mut self, node: u32, state: &S, player: Player) {
        search_actions(state, &mut self.actions);
        if !self.config.prior {
            self.actions.shuffle(&mut self.rng);
        }
        let priors = if self.config.prior && self.actions.len() > 1 {
            priors(state, &self.actions, player, self.config.prior_temperature)
        } else {
            vec![1.0; self.actions.len()]
        };
        let edges = self
            .actions
            .iter()
            .zip(priors)
            .map(|(&action, prior)| Edge {
                action,
                prior,
                available: 0,
                child: NONE,
            })
            .collect();
        self.tree.nodes[node as usize].expanded = true;
        self.tree.set_edges(node, edges);
    }

    /// One iteration: select down the tree, add a node, play out, back up.
    fn iterate(&mut self, root: &S, players: usize) {
        let mut state = root.clone();
        let mut node = 0u32;
        self.path.clear();
        self.path.push(node);
        let scores: Values = loop {
            match state.turn() {
                Turn::Over => break crate::values::final_scores(&state),
                Turn::Chance => {
                    let outcome = state.sample_chance(&mut self.rng);
                    state.apply(outcome);
                    let (child, created) = self.tree.chance_child(node, outcome);
                    node = child;
                    self.path.push(node);
                    if created {
                        break self.playouts.run(&mut state, &mut self.rng);
                    }
                }
                Turn::Player(p) => {
                    if !self.tree.nodes[node as usize].expanded {
                        self.expand(node, &state, p);
                    }
                    let i = select_edge(&self.tree, node, p, &self.config);
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

    /// Searches from `state` within the budget, keeping or starting the tree.
    fn search(&mut self, state: &S, budget: Budget, keep: bool) {
        let reuse = keep
            && self.config.reuse
            && match &self.cursor {
                Some((node, at)) => *node != NONE && at == state,
                None => false,
            };
        if reuse {
            let node = self.cursor.as_ref().map_or(NONE, |c| c.0);
            self.tree.reroot(node);
        } else {
            self.tree = Tree::new();
        }
        let players = state.num_players();
        let start = Instant::now();
        let mut done = 0u64;
        while within_budget(budget, done, start) && self.tree.bytes() < self.max_tree_bytes {
            self.iterate(state, players);
            done += 1;
        }
        self.last_iterations = done;
        self.cursor = None;
    }
}

impl<S: GameState + Heuristic> Agent<S> for MctsAgent<S> {
    fn name(&self) -> String {
        "mcts".into()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("mcts asked to choose when no player is to move");
        };
        search_actions(state, &mut self.actions);
        if self.actions.len() == 1 {
            let only = self.actions[0];
            self.cursor = None;
            return only;
        }
        self.search(state, self.config.budget, true);
        let i = most_visited(&self.tree, 0, me).expect("a decision has actions");
        if self.config.reuse {
            self.cursor = Some((0, state.clone()));
        }
        self.tree.nodes[0].edges[i].action
    }

    fn inform(&mut self, _state: &S, action: S::Action) {
        if let Some((node, at)) = &mut self.cursor {
            if *node != NONE {
                *node = self.tree.child(*node, action);
            }
            at.apply(action);
            if *node == NONE {
                self.cursor = None;
            }
        }
    }

    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        let budget = match self.config.budget {
            Budget::Iterations(n) => Budget::Iterations((n / 2).max(50)),
            Budget::Millis(ms) => Budget::Millis((ms / 2).max(10)),
        };
        self.search(state, budget, false);
        let root = &self.tree.nodes[0];
        (root.visits > 0).then(|| root.mean(player, 0.5))
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        self.search(state, self.config.budget, false);
        root_estimates(&self.tree, me)
    }
}

/// Runs a fresh search from `state` within `budget` (for benches); returns
/// the iterations done.
pub fn bench_search<S: GameState + Heuristic>(
    config: MctsConfig,
    state: &S,
    budget: Budget,
    seed: u64,
) -> u64 {
    let mut agent = MctsAgent::<S>::new(config, seed);
    agent.search(state, budget, false);
    agent.last_iterations
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::tawla::Tawla;
    use spelbord_engine::{Game, Options};

    #[test]
    fn a_search_stops_when_its_tree_reaches_the_memory_cap() {
        let game = Tawla::from_options(&Options::defaults(Tawla::option_specs())).unwrap();
        let mut state = game.initial_state();
        let mut rng = seeded(5);
        while state.turn() == Turn::Chance {
            let outcome = state.sample_chance(&mut rng);
            state.apply(outcome);
        }
        let budget = 200_000;
        let config = MctsConfig {
            budget: Budget::Iterations(budget),
            ..MctsConfig::default()
        };
        let cap = 1 << 20;
        let mut agent = MctsAgent::<<Tawla as Game>::State>::new(config, 1).with_memory_cap(cap);
        assert!(!agent.analyse(&state).is_empty());
        assert!(agent.last_iterations < budget, "stopped by the cap");
        assert!(agent.tree_bytes() >= cap);
        // the node vector grows by doubling: at most about twice the cap
        assert!(agent.tree_bytes() < 3 * cap, "{} bytes", agent.tree_bytes());
    }
}
