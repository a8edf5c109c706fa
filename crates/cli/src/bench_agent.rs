//! `spelbord bench --agent A`: an agent's speed on one core. For `mcts`
//! (and `ismcts`) the search iterations per second from the start position
//! (for ISMCTS, the first decision); for other agents the time per move over
//! the decisions of a few seeded games against a random opponent; for `net`
//! the network positions evaluated per second.

use crate::bench::BenchArgs;
use anyhow::Result;
use serde::Serialize;
use spelbord_ai::{AgentSpec, Budget, bench_ismcts, bench_search, make_agent_for, resolve_at};
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameState, GameVisitor, Heuristic, Options, Turn, visit_game};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What an agent bench measured.
#[derive(Debug, Serialize)]
pub struct AgentBenchReport {
    game: String,
    agent: String,
    options: Options,
    /// Search iterations (MCTS) or decisions (other agents).
    iterations: u64,
    seconds: f64,
    cpu_seconds: f64,
    /// MCTS iterations per second (wall clock), 0 for other agents.
    iterations_per_sec: f64,
    /// MCTS iterations per CPU second of this thread: one core's speed on a
    /// busy machine.
    iterations_per_cpu_sec: f64,
    /// Milliseconds of CPU time per decision (for MCTS: per search of the
    /// bench's length, i.e. the whole run).
    ms_per_move: f64,
    /// The backgammon network's encoding (`net` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<u16>,
    /// CPU nanoseconds per position of the encoding alone (`net` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    encode_ns: Option<f64>,
}

struct Bench(BenchArgs);

impl GameVisitor for Bench {
    type Output = Result<AgentBenchReport>;
    fn visit<G: Game>(self) -> Result<AgentBenchReport> {
        bench::<G>(&self.0)
    }
}

fn first_decision<S: GameState>(mut state: S, seed: u64) -> S {
    let mut rng = seeded(seed);
    while state.turn() == Turn::Chance {
        let a = state.sample_chance(&mut rng);
        state.apply(a);
    }
    state
}

/// Measures the agent `--agent` in the game `G` (see the module's text).
fn bench<G: Game>(args: &BenchArgs) -> Result<AgentBenchReport> {
    let name = args.agent.clone().unwrap_or_default();
    let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
    let game = G::from_options(&options)?;
    let start_state = game.initial_state();
    let players = start_state.num_players();
    let spec = resolve_at::<G>(&name, players, start_state.level_variant())?;
    let budget = Budget::Millis((args.seconds.max(0.01) * 1000.0) as u64);
    let wall = Instant::now();
    let cpu = cpu_time::ThreadTime::now();
    let (iterations, decisions) = match spec {
        AgentSpec::Mcts(c) => (bench_search(c, &start_state, budget, args.seed), 1),
        AgentSpec::Ismcts(c) if G::HIDDEN_INFORMATION => {
            let state = first_decision(start_state, args.seed);
            (bench_ismcts(c, &state, budget, args.seed), 1)
        }
        AgentSpec::Ismcts(c) => (bench_search(c, &start_state, budget, args.seed), 1),
        AgentSpec::Net(c) => {
            return net_bench::<G>(args, name, options, wall, c.file.as_deref());
        }
        _ => (0, games_against_random(&game, &name, args, wall)?),
    };
    let seconds = wall.elapsed().as_secs_f64();
    let cpu_seconds = cpu.elapsed().as_secs_f64();
    Ok(AgentBenchReport {
        game: G::ID.into(),
        agent: name,
        options,
        iterations: if iterations > 0 {
            iterations
        } else {
            decisions
        },
        seconds,
        cpu_seconds,
        iterations_per_sec: iterations as f64 / seconds.max(1e-9),
        iterations_per_cpu_sec: iterations as f64 / cpu_seconds.max(1e-9),
        ms_per_move: 1000.0 * cpu_seconds / decisions.max(1) as f64,
        encoding: None,
        encode_ns: None,
    })
}

/// The `net` agent's bench: network positions evaluated per CPU second
/// (the rolls' candidate positions of random games, a batch per roll),
/// then the time of their encoding alone.
fn net_bench<G: Game>(
    args: &BenchArgs,
    agent: String,
    options: Options,
    wall: Instant,
    file: Option<&str>,
) -> Result<AgentBenchReport> {
    let b = spelbord_ai::net::bench_backgammon(args.seconds, args.seed, file)?;
    Ok(AgentBenchReport {
        game: G::ID.into(),
        agent,
        options,
        iterations: b.positions,
        seconds: wall.elapsed().as_secs_f64(),
        cpu_seconds: b.cpu_seconds,
        iterations_per_sec: b.positions as f64 / wall.elapsed().as_secs_f64().max(1e-9),
        iterations_per_cpu_sec: b.positions as f64 / b.cpu_seconds.max(1e-9),
        ms_per_move: 0.0,
        encoding: Some(b.encoding),
        encode_ns: Some(b.encode_ns),
    })
}

/// Whole games of the agent `name` (seat 0) against random play until
/// `--seconds` have passed since `wall`; the agent's decisions.
fn games_against_random<G: Game>(
    game: &G,
    name: &str,
    args: &BenchArgs,
    wall: Instant,
) -> Result<u64> {
    let players = game.initial_state().num_players();
    let limit = Duration::from_secs_f64(args.seconds.max(0.01));
    let mut decisions = 0u64;
    let mut g = 0u64;
    while wall.elapsed() < limit {
        let mut agent = make_agent_for::<G>(name, players, args.seed + g)?;
        let mut random = make_agent_for::<G>("random", players, args.seed + g)?;
        let mut rng = seeded(args.seed + g);
        let mut state = game.initial_state();
        while wall.elapsed() < limit {
            let a = match state.turn() {
                Turn::Over => break,
                Turn::Chance => state.sample_chance(&mut rng),
                Turn::Player(0) => {
                    decisions += 1;
                    agent.choose(&state)
                }
                Turn::Player(_) => random.choose(&state),
            };
            state.apply(a);
        }
        g += 1;
    }
    Ok(decisions)
}

/// Runs `spelbord bench --agent`.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    let json = args.json;
    let r = visit_game(&args.game.clone(), Bench(args))??;
    if json {
        println!("{}", serde_json::to_string(&r)?);
    } else if r.iterations_per_sec > 0.0 {
        println!(
            "{} {}: {:.0} iterations/s ({:.0} per CPU second; {} iterations in {:.2} s, one core)",
            r.game,
            r.agent,
            r.iterations_per_sec,
            r.iterations_per_cpu_sec,
            r.iterations,
            r.seconds
        );
        if let (Some(e), Some(ns)) = (r.encoding, r.encode_ns) {
            println!("encoding {e}: {ns:.0} ns per position (CPU time, encoding alone)");
        }
    } else {
        println!(
            "{} {}: {:.2} ms per move (CPU time; {} moves in {:.2} s, one core)",
            r.game, r.agent, r.ms_per_move, r.iterations, r.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
