//! Hints: the best actions for the player to move, each with the estimated
//! probability of winning after it and how sure that estimate is. Each game
//! has a hint analyser (see [`level_of_hints`]): a search whose per-action
//! statistics are the estimates.

use crate::spec::{AgentSpec, Budget};
use crate::{ActionEstimate, Equity, build};
use serde::Serialize;
use serde_json::Value;
use spelbord_engine::{Game, GameState, Notation, Turn};

/// One hinted action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The action in the game's notation.
    pub text: String,
    /// The action as JSON (as the server's actions are).
    pub json: Value,
    /// The mover's estimated score after this action, 0..1: for two
    /// players the probability of winning (a draw counts half); with more
    /// players the expected share of opponents finished ahead of.
    pub estimate: f64,
    /// How sure the estimate is, 0..1: 1 − 2 × the 95% margin for sampled
    /// estimates (1 for a proven result); for a search without samples,
    /// depth / (depth + 4).
    pub confidence: f64,
    /// Half-width of the 95% confidence interval of `estimate`, when the
    /// estimate is statistical (or 0 when proven).
    pub margin: Option<f64>,
    /// Playouts (or search depth) behind the estimate.
    pub samples: u64,
    /// The action's value in points with the chances of each result, where
    /// the analyser is a network (backgammon); null otherwise.
    pub equity: Option<Equity>,
}

/// The analyser behind the hints of a game, without its budget.
pub fn level_of_hints(game: &str) -> &'static str {
    match game {
        "lager" => "alphabeta",
        "stortok" => "ismcts:cutoff=40",
        "backgammon" => "net:ply=1",
        _ => "mcts:prior=on,cutoff=4,c=1.0",
    }
}

/// A budget for hints in the terminal: a few seconds at most on one core.
pub fn default_hint_budget(game: &str) -> Budget {
    match game {
        "lager" => Budget::Iterations(300_000),
        _ => Budget::Iterations(4000),
    }
}

pub(crate) fn with_budget(mut spec: AgentSpec, budget: Budget) -> AgentSpec {
    match &mut spec {
        AgentSpec::Mcts(c) | AgentSpec::Ismcts(c) => c.budget = budget,
        AgentSpec::AlphaBeta(c) => c.budget = Some(budget),
        _ => {}
    }
    spec
}

fn confidence(e: &ActionEstimate<impl Copy>) -> f64 {
    match e.margin {
        Some(m) => (1.0 - 2.0 * m).clamp(0.0, 1.0),
        None => e.samples as f64 / (e.samples as f64 + 4.0),
    }
}

/// Up to `count` hints for the player to move in `state`, best first,
/// searched within `budget` (iterations/nodes or milliseconds). Empty when
/// no player is to move.
pub fn hints_for<G: Game>(state: &G::State, count: usize, budget: Budget, seed: u64) -> Vec<Hint> {
    if !matches!(state.turn(), Turn::Player(_)) {
        return Vec::new();
    }
    let spec = AgentSpec::parse(level_of_hints(G::ID)).expect("hint analysers parse");
    let mut agent = build::<G::State>(&with_budget(spec, budget), G::HIDDEN_INFORMATION, seed);
    let mut estimates = agent.analyse(state);
    // Cube decisions give their chosen action; list the alternative too.
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    if estimates.len() == 1 && legal.len() == 2 {
        let other = legal
            .iter()
            .copied()
            .find(|&a| a != estimates[0].action)
            .expect("two actions");
        estimates.push(ActionEstimate {
            action: other,
            ..estimates[0]
        });
    }
    if estimates.is_empty() {
        // A forced move: one action, nothing to weigh.
        estimates = legal
            .iter()
            .map(|&action| ActionEstimate {
                action,
                score: 0.5,
                margin: None,
                samples: 0,
                equity: None,
            })
            .collect();
    }
    estimates
        .into_iter()
        .take(count)
        .map(|e| Hint {
            text: state.format_action(e.action),
            json: serde_json::to_value(e.action).unwrap_or(Value::Null),
            estimate: e.score,
            confidence: confidence(&e),
            margin: e.margin,
            samples: e.samples,
            equity: e.equity,
        })
        .collect()
}
