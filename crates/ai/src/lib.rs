#![forbid(unsafe_code)]
//! Game-playing agents for spelbord, generic over the engine's fast game API:
//! `random`, `greedy` (one ply on the game's heuristic), `expectimax`
//! (through chance nodes), `mcts` (UCT with chance nodes, any number of
//! players), `ismcts` (information-set MCTS for hidden cards), `alphabeta`
//! (for Läger), the levels `ai:easy` .. `ai:expert` of every game, doubling
//! cube decisions, hints, and the scoring of arena matches.

mod alphabeta;
pub mod analysis;
pub mod arena;
pub mod bearoff;
mod bridge;
pub mod cube;
mod expectimax;
mod greedy;
mod hidden;
mod hint;
mod ismcts;
pub mod levels;
mod mcts;
pub mod met;
pub mod net;
mod playout;
mod random;
mod rollout;
pub mod spec;
mod table_level;
mod tree;
pub mod values;

pub use alphabeta::AlphaBetaAgent;
pub use bridge::{AiError, Hint, PositionHints, choose_action, hints, hints_at_position};
pub use expectimax::ExpectimaxAgent;
pub use greedy::GreedyAgent;
pub use hint::{default_hint_budget, hints_for, level_of_hints};
pub use ismcts::{IsmctsAgent, bench_ismcts};
pub use mcts::{MctsAgent, bench_search};
pub use random::RandomAgent;
pub use rollout::RolloutAgent;
pub use spec::{AgentSpec, Budget, Level, MctsConfig, NetConfig};

use serde::Serialize;
use spelbord_engine::{Game, GameState, Heuristic, Notation, Player};

/// Something that chooses actions for the player to move.
pub trait Agent<S: GameState>: Send {
    /// The agent's name as given on the command line (e.g. `random`).
    fn name(&self) -> String;
    /// Chooses one legal action for the player to move in `state`.
    fn choose(&mut self, state: &S) -> S::Action;
    /// Told of every action about to be applied to the game (by any player,
    /// chance too), so that an agent can keep its search between moves.
    /// Agents for hidden information ignore it.
    fn inform(&mut self, _state: &S, _action: S::Action) {}
    /// The agent's estimate of `player`'s score (0..1, for two players the
    /// probability of winning) in `state`, which may be a chance node; used
    /// for cube decisions. `None`: the agent has no better estimate than
    /// the heuristic.
    fn estimate(&mut self, _state: &S, _player: Player) -> Option<f64> {
        None
    }
    /// The actions of the player to move with the agent's estimate of each
    /// (for hints); empty when the agent does not estimate actions.
    fn analyse(&mut self, _state: &S) -> Vec<ActionEstimate<S::Action>> {
        Vec::new()
    }
    /// The agent's estimate of one legal action of the player to move,
    /// searched as deeply as [`Agent::analyse`] searches its best actions
    /// (for game analysis); `None` when the agent has no such estimate.
    fn rate(&mut self, _state: &S, _action: S::Action) -> Option<ActionEstimate<S::Action>> {
        None
    }
    /// The agent's own choice at a cube decision (double or roll; take or
    /// drop), from its cubeful estimates; `None`: the generic cube rule
    /// ([`cube::decide`]) decides from [`Agent::estimate`].
    fn cube_choice(&mut self, _state: &S) -> Option<S::Action> {
        None
    }
}

/// An action with an agent's estimate of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionEstimate<A> {
    /// The action.
    pub action: A,
    /// The mover's expected score after it: 0..1, for two players the
    /// probability of winning (a draw counting half).
    pub score: f64,
    /// Half-width of the 95% confidence interval of `score` (0 for a proven
    /// result), when the estimate is statistical or proven.
    pub margin: Option<f64>,
    /// Playouts, nodes or plies behind the estimate.
    pub samples: u64,
    /// The action's value in points, where the agent has one (the network
    /// agents of the tables games).
    pub equity: Option<Equity>,
}

/// An action's value in points, as a network agent estimates it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Equity {
    /// What `value` measures.
    pub kind: EquityKind,
    /// The value: points per cube value, or a match winning chance 0..1.
    pub value: f64,
    /// The mover's chances after a play (none for cube actions).
    pub outcomes: Option<Outcomes>,
}

/// What an [`Equity`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EquityKind {
    /// Cubeless money equity of a play: expected points, gammons and
    /// backgammons counted, -3..3.
    Cubeless,
    /// Cubeful money equity of a cube action, per current cube value.
    Cubeful,
    /// The match winning chance after a cube action, 0..1.
    MatchWinningChance,
}

/// The mover's chances of each result after a play.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Outcomes {
    /// Winning.
    pub win: f64,
    /// Winning a gammon or more.
    pub win_gammon: f64,
    /// Winning a backgammon.
    pub win_backgammon: f64,
    /// Losing a gammon or more.
    pub lose_gammon: f64,
    /// Losing a backgammon.
    pub lose_backgammon: f64,
}

/// An agent name that names no agent, or with parameters that do not fit;
/// the text explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAgent(pub String);

impl std::fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnknownAgent {}

/// Names accepted by [`make_agent`] (agents take parameters after a colon).
pub const AGENT_NAMES: &[&str] = &[
    "random",
    "greedy",
    "expectimax",
    "mcts",
    "ismcts",
    "alphabeta",
    "rollout",
    "net",
    "ai:easy",
    "ai:medium",
    "ai:hard",
    "ai:expert",
];

/// The level an agent name stands for (`ai:hard`, `hard`), if any.
fn level_of_name(name: &str) -> Option<Level> {
    Level::parse(name).filter(|_| name.starts_with("ai:") || !name.contains(':'))
}

/// The spec an agent name stands for in game `G` with `players` players
/// (levels resolved to their agents, at the game's default variant).
pub fn resolve<G: Game>(name: &str, players: usize) -> Result<AgentSpec, UnknownAgent> {
    resolve_at::<G>(name, players, None)
}

/// The spec an agent name stands for in game `G` with `players` players
/// and the rules variant `variant` ([`Heuristic::level_variant`]).
pub fn resolve_at<G: Game>(
    name: &str,
    players: usize,
    variant: Option<&str>,
) -> Result<AgentSpec, UnknownAgent> {
    let text = match level_of_name(name) {
        Some(level) => levels::level_agent(G::ID, players, variant, level),
        None => name,
    };
    let spec = AgentSpec::parse(text).map_err(|e| {
        UnknownAgent(format!(
            "unknown agent `{name}`: {e} (agents: {}; parameters after a colon, e.g. mcts:iters=2000)",
            AGENT_NAMES.join(", ")
        ))
    })?;
    if let AgentSpec::Net(c) = &spec {
        net::available(G::ID, players, c.file.as_deref())
            .map_err(|e| UnknownAgent(format!("agent `{name}`: {e}")))?;
    }
    Ok(spec)
}

/// Builds the agent of a spec for a state type.
pub fn build<S: GameState + Heuristic + Notation>(
    spec: &AgentSpec,
    hidden_information: bool,
    seed: u64,
) -> Box<dyn Agent<S>> {
    let agent: Box<dyn Agent<S>> = match spec {
        AgentSpec::Random => return Box::new(RandomAgent::new(seed)),
        AgentSpec::Greedy { temperature } => Box::new(GreedyAgent::<S>::new(*temperature, seed)),
        AgentSpec::Expectimax(c) => Box::new(ExpectimaxAgent::new(*c, seed)),
        AgentSpec::Mcts(c) => Box::new(MctsAgent::<S>::new(*c, seed)),
        AgentSpec::Ismcts(c) if hidden_information => {
            return Box::new(IsmctsAgent::<S>::new(*c, seed));
        }
        // Without hidden information ISMCTS is plain MCTS.
        AgentSpec::Ismcts(c) => Box::new(MctsAgent::<S>::new(*c, seed)),
        AgentSpec::AlphaBeta(c) => Box::new(AlphaBetaAgent::<S>::new(*c, seed)),
        AgentSpec::Rollout(c) if hidden_information => {
            return Box::new(RolloutAgent::<S>::sampling(*c, seed));
        }
        AgentSpec::Rollout(c) => Box::new(RolloutAgent::<S>::new(*c, seed)),
        // `resolve` has checked that the game has a network; without one
        // the agent plays greedily.
        AgentSpec::Net(c) => net::net_agent::<S>(c, seed)
            .unwrap_or_else(|_| Box::new(GreedyAgent::<S>::new(0.0, seed))),
    };
    let agent = if hidden_information {
        Box::new(hidden::Determinized::new(agent, seed))
    } else {
        agent
    };
    Box::new(cube::CubeAware::new(agent))
}

/// The agent with this name for game `G` (with its default number of
/// players), seeded for reproducible play.
pub fn make_agent<G: Game>(
    name: &str,
    seed: u64,
) -> Result<Box<dyn Agent<G::State>>, UnknownAgent> {
    make_agent_for::<G>(name, G::PLAYERS.0, seed)
}

/// The agent with this name for game `G` played by `players` players.
pub fn make_agent_for<G: Game>(
    name: &str,
    players: usize,
    seed: u64,
) -> Result<Box<dyn Agent<G::State>>, UnknownAgent> {
    let spec = resolve::<G>(name, players)?;
    let mut agent = build::<G::State>(&spec, G::HIDDEN_INFORMATION, seed);
    if let Some(level) = level_of_name(name) {
        agent = Box::new(table_level::TableLevel::<G>::new(
            level, agent, players, seed,
        ));
    }
    if name != "random" && !matches!(spec, AgentSpec::Random) {
        agent = Box::new(Named {
            inner: agent,
            name: name.to_string(),
        });
    }
    Ok(agent)
}

/// An agent under the name it was asked for (e.g. `ai:hard`).
struct Named<S: GameState> {
    inner: Box<dyn Agent<S>>,
    name: String,
}

impl<S: GameState> Agent<S> for Named<S> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, state: &S) -> S::Action {
        self.inner.choose(state)
    }
    fn inform(&mut self, state: &S, action: S::Action) {
        self.inner.inform(state, action);
    }
    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        self.inner.estimate(state, player)
    }
    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        self.inner.analyse(state)
    }
    fn rate(&mut self, state: &S, action: S::Action) -> Option<ActionEstimate<S::Action>> {
        self.inner.rate(state, action)
    }
    fn cube_choice(&mut self, state: &S) -> Option<S::Action> {
        self.inner.cube_choice(state)
    }
}
