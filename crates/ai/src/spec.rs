//! Agent names as written on the command line: `random`, `greedy`,
//! `expectimax`, `mcts`, `ismcts`, `alphabeta`, `rollout`, `net`, each optionally with
//! parameters (`mcts:iters=2000,cutoff=20`), and the levels `ai:easy`,
//! `ai:medium`, `ai:hard`, `ai:expert`.

use std::fmt;

/// A search budget: a number of iterations (deterministic for a seed) or a
/// time per move (not deterministic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterations (MCTS) or nodes (alpha-beta) per move.
    Iterations(u64),
    /// Milliseconds of wall-clock time per move.
    Millis(u64),
}

/// How a playout chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayoutPolicy {
    /// Uniformly among the legal actions.
    Random,
    /// The best action by the heuristic after one ply, a random one with
    /// probability `epsilon`.
    Greedy {
        /// Probability of a random action instead.
        epsilon: f64,
    },
}

/// Settings of the Monte Carlo tree searches (`mcts`, `ismcts`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations or time per move.
    pub budget: Budget,
    /// The exploration constant.
    pub exploration: f64,
    /// How playouts choose.
    pub playout: PlayoutPolicy,
    /// Player decisions a playout makes before the heuristic scores the
    /// position (0: score the new node at once; `u32::MAX`: to the end).
    pub cutoff: u32,
    /// Whether to guide selection by heuristic priors (PUCT) instead of UCB1.
    pub prior: bool,
    /// Softmax temperature of the priors, in score units.
    pub prior_temperature: f64,
    /// Whether to keep the tree between moves.
    pub reuse: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            playout: PlayoutPolicy::Random,
            cutoff: u32::MAX,
            prior: false,
            prior_temperature: 0.05,
            reuse: true,
        }
    }
}

/// Settings of the expectimax search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectimaxConfig {
    /// Decision plies searched (1: greedy).
    pub depth: u32,
    /// Actions kept at each decision below the root, best first by one ply.
    pub width: usize,
    /// Actions kept at the root for the deeper search.
    pub root_width: usize,
}

impl Default for ExpectimaxConfig {
    fn default() -> Self {
        ExpectimaxConfig {
            depth: 2,
            width: 4,
            root_width: 8,
        }
    }
}

/// Settings of the rollout agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutConfig {
    /// Playouts per candidate action.
    pub samples: u32,
    /// Candidate actions (the best by one ply).
    pub width: usize,
    /// Player decisions per playout before the heuristic scores the
    /// position (`u32::MAX`: to the end).
    pub cutoff: u32,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        RolloutConfig {
            samples: 100,
            width: 6,
            cutoff: u32::MAX,
        }
    }
}

/// Settings of the alpha-beta search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// The deepest iteration of iterative deepening.
    pub depth: u32,
    /// A node or time budget per move (iterations count nodes).
    pub budget: Option<Budget>,
    /// Transposition table size as a power of two.
    pub table_bits: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: 64,
            budget: Some(Budget::Iterations(200_000)),
            table_bits: 18,
        }
    }
}

/// The most rollout trials per candidate the `net` agent takes.
pub const MAX_ROLLOUTS: u32 = 100_000;

/// Settings of the network agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetConfig {
    /// Plies searched beyond the network (0: the network alone).
    pub plies: u32,
    /// Candidates by 0-ply searched deeper at the root.
    pub filter: usize,
    /// Candidates by 0-ply searched deeper at each ply below the root.
    pub inner: usize,
    /// The move filter's window in thousandths of a point: only candidates
    /// within it of the best by 0-ply are searched deeper.
    pub window: u32,
    /// A weights file to use instead of the shipped network.
    pub file: Option<String>,
    /// A second network whose probabilities are averaged with the first's
    /// at every evaluation: a weights file, or `older` (backgammon's
    /// network shipped before the current one).
    pub with: Option<String>,
    /// Cube decisions from the network's cubeful equity (Janowski); false:
    /// the generic threshold rule of [`crate::cube`].
    pub cubeful: bool,
    /// Rolls a cube decision searches ahead (`cube_depth=`; default 2;
    /// 0: Janowski's formula on the probabilities alone).
    pub cube_depth: Option<u32>,
    /// Full rollout trials that correct the cube search's probabilities
    /// where the decision is close (`cube_rollout=`; 0: none).
    pub cube_rollouts: u32,
    /// Rollout trials per candidate (0: no rollouts).
    pub rollouts: u32,
    /// Player decisions a rollout trial plays before the network scores it.
    pub turns: u32,
    /// Candidates rolled out: the best by 0-ply (seat games) or by the
    /// search (backgammon, Tawla).
    pub width: usize,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            plies: 0,
            filter: 8,
            inner: 3,
            window: 160,
            file: None,
            with: None,
            cubeful: true,
            cube_depth: None,
            cube_rollouts: 0,
            rollouts: 0,
            turns: 8,
            width: 6,
        }
    }
}

/// An agent and its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniformly random legal actions.
    Random,
    /// One ply on the heuristic; a positive temperature chooses by softmax.
    Greedy {
        /// Softmax temperature in score units (0: always the best).
        temperature: f64,
    },
    /// Expectimax through chance nodes.
    Expectimax(ExpectimaxConfig),
    /// Monte Carlo tree search with chance nodes.
    Mcts(MctsConfig),
    /// Information-set MCTS over sampled deals, reading only the agent's
    /// own observation.
    Ismcts(MctsConfig),
    /// Alpha-beta with iterative deepening and a transposition table.
    AlphaBeta(AlphaBetaConfig),
    /// Greedy playouts of the best candidate actions, with common dice.
    Rollout(RolloutConfig),
    /// The game's evaluation network, searched `plies` deep.
    Net(NetConfig),
}

/// A playing strength with a named agent and budget per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Plausible moves with human-like slips.
    Easy,
    /// Sound one-move play.
    Medium,
    /// Searches; answers within a second.
    Hard,
    /// Searches more; answers within five seconds.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The level's name (`easy` .. `expert`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The level written as `ai:LEVEL` or `LEVEL`.
    pub fn parse(text: &str) -> Option<Level> {
        let t = text.strip_prefix("ai:").unwrap_or(text);
        Level::ALL.into_iter().find(|l| l.name() == t)
    }
}

/// Why an agent name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, SpecError> {
    value
        .parse()
        .map_err(|_| SpecError(format!("`{key}={value}`: not a valid number")))
}

fn flag(key: &str, value: &str) -> Result<bool, SpecError> {
    match value {
        "1" | "on" | "true" | "yes" => Ok(true),
        "0" | "off" | "false" | "no" => Ok(false),
        _ => Err(SpecError(format!("`{key}={value}`: use on or off"))),
    }
}

fn budget(key: &str, value: &str) -> Result<Budget, SpecError> {
    Ok(match key {
        "ms" => Budget::Millis(number(key, value)?),
        _ => Budget::Iterations(number(key, value)?),
    })
}

fn mcts_param(c: &mut MctsConfig, key: &str, value: &str) -> Result<(), SpecError> {
    match key {
        "iters" | "ms" => c.budget = budget(key, value)?,
        "c" => c.exploration = number(key, value)?,
        "cutoff" => {
            c.cutoff = if value == "none" {
                u32::MAX
            } else {
                number(key, value)?
            }
        }
        "playout" => {
            c.playout = match value {
                "random" => PlayoutPolicy::Random,
                "greedy" => PlayoutPolicy::Greedy { epsilon: 0.1 },
                _ => {
                    if let Some(e) = value.strip_prefix("greedy") {
                        PlayoutPolicy::Greedy {
                            epsilon: number(key, e)?,
                        }
                    } else {
                        return Err(SpecError(format!(
                            "`playout={value}`: use random, greedy or greedyEPSILON (e.g. greedy0.2)"
                        )));
                    }
                }
            }
        }
        "prior" => c.prior = flag(key, value)?,
        "ptemp" => c.prior_temperature = number(key, value)?,
        "reuse" => c.reuse = flag(key, value)?,
        _ => {
            return Err(unknown(
                key,
                "iters, ms, c, cutoff, playout, prior, ptemp, reuse",
            ));
        }
    }
    Ok(())
}

/// Sets the parameter `key` of the `net` agent to `value`.
fn net_param(c: &mut NetConfig, key: &str, value: &str) -> Result<(), SpecError> {
    match key {
        "ply" => c.plies = number::<u32>(key, value)?.min(3),
        "filter" => c.filter = number::<usize>(key, value)?.max(1),
        "inner" => c.inner = number::<usize>(key, value)?.max(1),
        "window" => {
            let w = number::<f64>(key, value)?;
            if !(0.0..=3.0).contains(&w) {
                return Err(SpecError(format!(
                    "window={value}: expected points of equity, 0 to 3"
                )));
            }
            c.window = (w * 1000.0).round() as u32;
        }
        "file" => c.file = Some(value.to_string()),
        "with" => c.with = Some(value.to_string()),
        "cube_depth" => c.cube_depth = Some(number::<u32>(key, value)?.min(3)),
        "cube" => {
            c.cubeful = match value {
                "janowski" => true,
                "simple" => false,
                _ => {
                    return Err(SpecError(format!(
                        "cube={value}: expected janowski or simple"
                    )));
                }
            }
        }
        "rollout" => c.rollouts = number::<u32>(key, value)?.min(MAX_ROLLOUTS),
        "cube_rollout" => c.cube_rollouts = number::<u32>(key, value)?.min(MAX_ROLLOUTS),
        "turns" => c.turns = number::<u32>(key, value)?.max(1),
        "width" => c.width = number::<usize>(key, value)?.max(1),
        _ => {
            return Err(unknown(
                key,
                "ply, filter, inner, window, file, with, cube, cube_depth, cube_rollout, rollout, turns, width",
            ));
        }
    }
    Ok(())
}

fn unknown(key: &str, known: &str) -> SpecError {
    SpecError(format!("unknown parameter `{key}` (known: {known})"))
}

impl AgentSpec {
    /// Reads `name` or `name:key=value,key=value`.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, p),
            None => (text, ""),
        };
        let mut spec = match name {
            "random" => AgentSpec::Random,
            "greedy" => AgentSpec::Greedy { temperature: 0.0 },
            "expectimax" => AgentSpec::Expectimax(ExpectimaxConfig::default()),
            "mcts" => AgentSpec::Mcts(MctsConfig::default()),
            "ismcts" => AgentSpec::Ismcts(MctsConfig {
                reuse: false,
                ..MctsConfig::default()
            }),
            "alphabeta" => AgentSpec::AlphaBeta(AlphaBetaConfig::default()),
            "rollout" => AgentSpec::Rollout(RolloutConfig::default()),
            "net" => AgentSpec::Net(NetConfig::default()),
            _ => return Err(SpecError(format!("unknown agent `{name}`"))),
        };
        for pair in params.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| SpecError(format!("`{pair}`: parameters are key=value")))?;
            spec.set(key, value)?;
        }
        Ok(spec)
    }

    /// Sets the parameter `key` of this agent to `value`.
    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        match self {
            AgentSpec::Random => return Err(unknown(key, "none")),
            AgentSpec::Greedy { temperature } => match key {
                "temp" => *temperature = number(key, value)?,
                _ => return Err(unknown(key, "temp")),
            },
            AgentSpec::Expectimax(c) => match key {
                "depth" => c.depth = number::<u32>(key, value)?.max(1),
                "width" => c.width = number::<usize>(key, value)?.max(1),
                "root" => c.root_width = number::<usize>(key, value)?.max(1),
                _ => return Err(unknown(key, "depth, width, root")),
            },
            AgentSpec::Mcts(c) | AgentSpec::Ismcts(c) => mcts_param(c, key, value)?,
            AgentSpec::AlphaBeta(c) => match key {
                "depth" => c.depth = number::<u32>(key, value)?.max(1),
                "nodes" | "ms" => c.budget = Some(budget(key, value)?),
                "tt" => c.table_bits = number::<u32>(key, value)?.clamp(10, 26),
                _ => return Err(unknown(key, "depth, nodes, ms, tt")),
            },
            AgentSpec::Rollout(c) => match key {
                "n" => c.samples = number::<u32>(key, value)?.max(1),
                "width" => c.width = number::<usize>(key, value)?.max(1),
                "cutoff" => {
                    c.cutoff = if value == "none" {
                        u32::MAX
                    } else {
                        number(key, value)?
                    }
                }
                _ => return Err(unknown(key, "n, width, cutoff")),
            },
            AgentSpec::Net(c) => net_param(c, key, value)?,
        }
        Ok(())
    }

    /// Whether the agent reads only its own observation of a hidden-information game by itself.
    pub fn samples_information_sets(&self) -> bool {
        matches!(self, AgentSpec::Ismcts(_) | AgentSpec::Random)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_parameters_are_read() {
        let s = AgentSpec::parse("mcts:iters=500,cutoff=10,prior=on,playout=greedy0.2").unwrap();
        let AgentSpec::Mcts(c) = s else {
            panic!("not mcts")
        };
        assert_eq!(c.budget, Budget::Iterations(500));
        assert_eq!(c.cutoff, 10);
        assert!(c.prior);
        assert_eq!(c.playout, PlayoutPolicy::Greedy { epsilon: 0.2 });
        assert_eq!(
            AgentSpec::parse("greedy:temp=0.1").unwrap(),
            AgentSpec::Greedy { temperature: 0.1 }
        );
    }

    #[test]
    fn bad_names_are_errors() {
        assert!(AgentSpec::parse("nobody").is_err());
        assert!(AgentSpec::parse("mcts:iters=many").is_err());
        assert!(AgentSpec::parse("mcts:depth=3").is_err());
        assert!(AgentSpec::parse("greedy:temp").is_err());
        assert!(AgentSpec::parse("random:x=1").is_err());
        assert!(AgentSpec::parse("net:depth=1").is_err());
        assert!(AgentSpec::parse("net:rollout=many").is_err());
        assert!(AgentSpec::parse("net:turns=-1").is_err());
    }

    #[test]
    fn net_rollout_settings_are_read() {
        let AgentSpec::Net(c) = AgentSpec::parse("net:rollout=64,turns=10,width=5").unwrap() else {
            panic!("not net")
        };
        assert_eq!((c.rollouts, c.turns, c.width), (64, 10, 5));
        let AgentSpec::Net(d) = AgentSpec::parse("net").unwrap() else {
            panic!("not net")
        };
        assert_eq!(d.rollouts, 0);
        let AgentSpec::Net(e) = AgentSpec::parse("net:ply=2,with=older").unwrap() else {
            panic!("not net")
        };
        assert_eq!((e.with.as_deref(), d.with), (Some("older"), None));
    }

    #[test]
    fn levels_are_read_with_or_without_prefix() {
        assert_eq!(Level::parse("ai:hard"), Some(Level::Hard));
        assert_eq!(Level::parse("expert"), Some(Level::Expert));
        assert_eq!(Level::parse("ai:master"), None);
    }
}
