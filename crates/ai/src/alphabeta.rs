//! Alpha-beta search for two-player games without chance (Läger): negamax
//! with iterative deepening, a transposition table keyed by the game's
//! position hash, and move ordering (the table's best move, killer moves,
//! the history heuristic, and one-ply scores near the root). Values are the
//! heuristic scaled to integers; a won game is worth more than any
//! heuristic, sooner wins more.

use crate::spec::{AlphaBetaConfig, Budget};
use crate::values::{heuristic_score, search_actions};
use crate::{ActionEstimate, Agent};
use rand::seq::SliceRandom;
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{GameState, Heuristic, Player, Turn};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The value of a won game (minus the plies it takes).
pub const WIN: i32 = 1_000_000;
/// Values at or beyond this are proven wins or losses.
const PROVEN: i32 = WIN - 10_000;
/// The heuristic's -1..1 times this.
const SCALE: f64 = 10_000.0;
const INF: i32 = i32::MAX / 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<A> {
    key: u64,
    depth: u8,
    bound: Bound,
    value: i32,
    best: Option<A>,
}

/// The alpha-beta agent.
#[derive(Debug)]
pub struct AlphaBetaAgent<S: GameState> {
    config: AlphaBetaConfig,
    rng: SeededRng,
    table: Vec<Option<Entry<S::Action>>>,
    killers: Vec<[Option<S::Action>; 2]>,
    history: HashMap<S::Action, u32>,
    nodes: u64,
    limit_nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The depth of the last completed iteration.
    pub last_depth: u32,
    /// Nodes searched for the last move.
    pub last_nodes: u64,
}

/// Which player's view a child's value is in, relative to the mover.
fn mover_after<S: GameState>(state: &S, mover: Player) -> Player {
    match state.turn() {
        Turn::Player(q) => q,
        _ => 1 - mover.min(1),
    }
}

/// A mate score made relative to the node (stored) or the root (loaded).
fn to_table(v: i32, ply: u32) -> i32 {
    if v >= PROVEN {
        v + ply as i32
    } else if v <= -PROVEN {
        v - ply as i32
    } else {
        v
    }
}

fn from_table(v: i32, ply: u32) -> i32 {
    if v >= PROVEN {
        v - ply as i32
    } else if v <= -PROVEN {
        v + ply as i32
    } else {
        v
    }
}

impl<S: GameState + Heuristic> AlphaBetaAgent<S> {
    /// An alpha-beta agent with these settings.
    pub fn new(config: AlphaBetaConfig, seed: u64) -> Self {
        AlphaBetaAgent {
            config,
            rng: seeded(seed),
            table: vec![None; 1 << config.table_bits],
            killers: Vec::new(),
            history: HashMap::new(),
            nodes: 0,
            limit_nodes: u64::MAX,
            deadline: None,
            stopped: false,
            last_depth: 0,
            last_nodes: 0,
        }
    }

    /// The value of a finished game or the heuristic, for `player`.
    fn evaluate(state: &S, player: Player, ply: u32) -> i32 {
        if let Some(outcome) = state.outcome() {
            let v = outcome.value(player);
            return if v > 0.0 {
                WIN - ply as i32
            } else if v < 0.0 {
                -WIN + ply as i32
            } else {
                0
            };
        }
        (state.heuristic(player).clamp(-1.0, 1.0) * SCALE) as i32
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.limit_nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(1024)
            && let Some(d) = self.deadline
        {
            self.stopped = Instant::now() >= d;
        }
        self.stopped
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    /// Orders `actions`: the table's move, killers, then history.
    fn order(&self, actions: &mut [S::Action], best: Option<S::Action>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        let rank = |a: &S::Action| -> i64 {
            if Some(*a) == best {
                i64::MAX
            } else if Some(*a) == killers[0] {
                i64::MAX - 1
            } else if Some(*a) == killers[1] {
                i64::MAX - 2
            } else {
                *self.history.get(a).unwrap_or(&0) as i64
            }
        };
        actions.sort_by_cached_key(|a| std::cmp::Reverse(rank(a)));
    }

    /// Negamax: the value of `state` for `player`, who is to move.
    fn negamax(
        &mut self,
        state: &S,
        player: Player,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        match state.turn() {
            Turn::Over => return Self::evaluate(state, player, ply),
            Turn::Chance => return self.chance_value(state, player, depth, ply),
            Turn::Player(_) => {}
        }
        if depth == 0 {
            return Self::evaluate(state, player, ply);
        }
        let key = state.position_hash();
        let (tt_best, cut) = self.probe(key, depth, ply, alpha, beta);
        if let Some(v) = cut {
            return v;
        }
        let mut actions = Vec::new();
        search_actions(state, &mut actions);
        self.order(&mut actions, tt_best, ply as usize);
        let alpha0 = alpha;
        let mut best = (-INF, None);
        for &a in &actions {
            let mut next = state.clone();
            next.apply(a);
            let q = mover_after(&next, player);
            let v = if q == player {
                self.negamax(&next, q, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.negamax(&next, q, depth - 1, ply + 1, -beta, -alpha)
            };
            if self.stopped {
                return 0;
            }
            if v > best.0 {
                best = (v, Some(a));
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                self.note_cutoff(a, depth, ply);
                break;
            }
        }
        if let Some(k) = key {
            let bound = if best.0 <= alpha0 {
                Bound::Upper
            } else if best.0 >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let slot = self.slot(k);
            self.table[slot] = Some(Entry {
                key: k,
                depth: depth.min(255) as u8,
                bound,
                value: to_table(best.0, ply),
                best: best.1,
            });
        }
        best.0
    }

    /// The expected value of the chance node `state` for `player` (not a
    /// game for this search, but it copes).
    fn chance_value(&mut self, state: &S, player: Player, depth: u32, ply: u32) -> i32 {
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        let mut total = 0.0;
        for (a, p) in outcomes {
            let mut next = state.clone();
            next.apply(a);
            let q = mover_after(&next, player);
            let v = self.negamax(&next, q, depth, ply, -INF, INF);
            total += p * if q == player { v } else { -v } as f64;
        }
        total as i32
    }

    /// The transposition table's entry for the position `key`: its best
    /// action, and its value where it is deep enough and its bound settles
    /// the window (`alpha`, `beta`).
    fn probe(
        &self,
        key: Option<u64>,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (Option<S::Action>, Option<i32>) {
        let Some(k) = key else {
            return (None, None);
        };
        let Some(e) = self.table[self.slot(k)].filter(|e| e.key == k) else {
            return (None, None);
        };
        if e.depth as u32 >= depth {
            let v = from_table(e.value, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cut {
                return (e.best, Some(v));
            }
        }
        (e.best, None)
    }

    /// Remembers `a`, which caused a cutoff at `ply`, as a killer there and
    /// in the history table.
    fn note_cutoff(&mut self, a: S::Action, depth: u32, ply: u32) {
        let k = &mut self.killers;
        if k.len() <= ply as usize {
            k.resize(ply as usize + 1, [None, None]);
        }
        let slot = &mut k[ply as usize];
        if slot[0] != Some(a) {
            slot[1] = slot[0];
            slot[0] = Some(a);
        }
        *self.history.entry(a).or_insert(0) += depth * depth;
    }

    /// Iterative deepening from the root; every root action with its value
    /// from the deepest completed iteration, best first.
    fn search_root(&mut self, state: &S, me: Player) -> Vec<(S::Action, i32)> {
        self.nodes = 0;
        self.stopped = false;
        self.killers.clear();
        self.history.clear();
        let start = Instant::now();
        (self.limit_nodes, self.deadline) = match self.config.budget {
            Some(Budget::Iterations(n)) => (n, None),
            Some(Budget::Millis(ms)) => (u64::MAX, Some(start + Duration::from_millis(ms))),
            None => (u64::MAX, None),
        };
        let mut actions = Vec::new();
        search_actions(state, &mut actions);
        actions.shuffle(&mut self.rng);
        let mut ranked: Vec<(S::Action, i32)> = actions.iter().map(|&a| (a, 0)).collect();
        self.last_depth = 0;
        for depth in 1..=self.config.depth {
            let mut values = Vec::with_capacity(ranked.len());
            let mut alpha = -INF;
            for &(a, _) in &ranked {
                let mut next = state.clone();
                next.apply(a);
                let q = mover_after(&next, me);
                // Full window for the first action, then null-window-free
                // alpha-beta on the rest (values below alpha are bounds).
                let v = if q == me {
                    self.negamax(&next, q, depth - 1, 1, alpha, INF)
                } else {
                    -self.negamax(&next, q, depth - 1, 1, -INF, -alpha)
                };
                if self.stopped {
                    break;
                }
                alpha = alpha.max(v);
                values.push((a, v));
            }
            if self.stopped {
                break;
            }
            values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            ranked = values;
            self.last_depth = depth;
            // A proven result will not change with more depth.
            if ranked[0].1.abs() >= PROVEN {
                break;
            }
        }
        self.last_nodes = self.nodes;
        ranked
    }
}

impl<S: GameState + Heuristic> Agent<S> for AlphaBetaAgent<S> {
    fn name(&self) -> String {
        "alphabeta".into()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        let Turn::Player(me) = state.turn() else {
            panic!("alphabeta asked to choose when no player is to move");
        };
        self.search_root(state, me)[0].0
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        // The ordinary search finds the depth the budget allows; then each
        // action is searched with a full window one ply less deep, so that
        // every value is exact rather than a bound.
        self.search_root(state, me);
        let depth = self.last_depth.max(1);
        self.limit_nodes = u64::MAX;
        self.deadline = None;
        self.stopped = false;
        let mut actions = Vec::new();
        search_actions(state, &mut actions);
        let mut out: Vec<ActionEstimate<S::Action>> = actions
            .into_iter()
            .map(|a| {
                let mut next = state.clone();
                next.apply(a);
                let q = mover_after(&next, me);
                let v = self.negamax(&next, q, depth - 1, 1, -INF, INF);
                let v = if q == me { v } else { -v };
                let proven = v.abs() >= PROVEN;
                ActionEstimate {
                    action: a,
                    score: if proven {
                        if v > 0 { 1.0 } else { 0.0 }
                    } else {
                        heuristic_score(v as f64 / SCALE)
                    },
                    margin: proven.then_some(0.0),
                    samples: depth as u64,
                    equity: None,
                }
            })
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        out
    }
}
