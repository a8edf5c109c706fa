//! `spelbord bench`: random playouts per second on one core, or with
//! `--agent` an agent's speed: MCTS iterations per second from the start, or
//! milliseconds per move for the other agents.

use anyhow::Result;
use clap::Args;
use serde::Serialize;
use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameVisitor, Options, visit_game};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Options of `spelbord bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The game's id.
    pub game: String,
    /// How long to measure.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Run exactly this many playouts instead of a time budget.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Measure this agent instead of random playouts (e.g. `mcts`,
    /// `ai:hard`): MCTS iterations per second from the start position, or
    /// milliseconds per move.
    #[arg(long)]
    pub agent: Option<String>,
}

/// What one bench run measured.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    game: String,
    options: Options,
    playouts: u64,
    plies: u64,
    seconds: f64,
    playouts_per_sec: f64,
    plies_per_sec: f64,
    plies_mean: f64,
    /// CPU time this thread used: on a busy machine the honest measure of one core.
    cpu_seconds: f64,
    plies_per_cpu_sec: f64,
}

struct Bench(BenchArgs);

impl GameVisitor for Bench {
    type Output = Result<BenchReport>;
    fn visit<G: Game>(self) -> Result<BenchReport> {
        let args = self.0;
        let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
        let game = G::from_options(&options)?;
        let mut rng = seeded(args.seed);
        let mut playout = Playout::<G::State>::default();
        let budget = Duration::from_secs_f64(args.seconds.max(0.01));
        let (mut playouts, mut plies) = (0u64, 0u64);
        let start = Instant::now();
        let cpu_start = cpu_time::ThreadTime::now();
        while match args.playouts {
            Some(n) => playouts < n,
            None => start.elapsed() < budget,
        } {
            let mut state = game.initial_state();
            plies += playout.run(&mut state, &mut rng, |_, _| {})?;
            playouts += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        let cpu_seconds = cpu_start.elapsed().as_secs_f64();
        Ok(BenchReport {
            game: G::ID.into(),
            options,
            playouts,
            plies,
            seconds,
            playouts_per_sec: playouts as f64 / seconds,
            plies_per_sec: plies as f64 / seconds,
            plies_mean: plies as f64 / playouts.max(1) as f64,
            cpu_seconds,
            plies_per_cpu_sec: plies as f64 / cpu_seconds.max(1e-9),
        })
    }
}

/// Runs `spelbord bench`.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    if args.agent.is_some() {
        return crate::bench_agent::run(args);
    }
    let json = args.json;
    let r = visit_game(&args.game.clone(), Bench(args))??;
    if json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!(
            "{}: {:.0} playouts/s, {:.0} plies/s ({:.0} per CPU second; {:.1} plies per game; {} playouts in {:.2} s, one core)",
            r.game,
            r.playouts_per_sec,
            r.plies_per_sec,
            r.plies_per_cpu_sec,
            r.plies_mean,
            r.playouts,
            r.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
