//! `spelbord selfplay`: many games between random agents.

use crate::term::{progress, progress_wanted};
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::{
    Ending, Game, GameState, GameVisitor, Notation, Options, Record, visit_game,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `spelbord selfplay`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// The game's id.
    pub game: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write each game's record to this folder as JSON.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
}

/// The results of a self-play run.
#[derive(Debug, Serialize)]
pub struct SelfplayReport {
    game: String,
    options: Options,
    games: u64,
    seed: u64,
    /// Games in which each seat finished first (shared firsts count for
    /// each; a win that pays nothing counts), draws excluded.
    wins: Vec<u64>,
    /// Games in which each seat finished last, draws excluded.
    losses: Vec<u64>,
    /// Games that ended as draws.
    draws: u64,
    /// Games per way of ending (the game's own terms).
    endings: BTreeMap<Ending, u64>,
    /// Mean return per seat.
    mean_returns: Vec<f64>,
    plies_mean: f64,
    plies_max: u64,
    seconds: f64,
    games_per_sec: f64,
}

struct Run(SelfplayArgs);

impl GameVisitor for Run {
    type Output = Result<SelfplayReport>;
    fn visit<G: Game>(self) -> Result<SelfplayReport> {
        selfplay::<G>(&self.0)
    }
}

fn selfplay<G: Game>(args: &SelfplayArgs) -> Result<SelfplayReport> {
    let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
    let game = G::from_options(&options)?;
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let players = game.initial_state().num_players();
    let mut wins = vec![0u64; players];
    let mut losses = vec![0u64; players];
    let mut endings = BTreeMap::new();
    let mut totals = vec![0f64; players];
    let (mut draws, mut plies_total, mut plies_max) = (0u64, 0u64, 0u64);
    let bar = progress(args.games, progress_wanted(args.json));
    let mut playout = Playout::<G::State>::default();
    let start = Instant::now();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let mut rng = seeded(seed);
        let mut state = game.initial_state();
        let mut actions = Vec::new();
        let keep = args.record.is_some();
        let plies = playout
            .run(&mut state, &mut rng, |s, a| {
                if keep {
                    actions.push(s.format_action(a));
                }
            })
            .with_context(|| format!("game {i} (seed {seed})"))?;
        let returns = state.returns();
        let r = returns.as_slice();
        let outcome = state
            .outcome()
            .with_context(|| format!("game {i} (seed {seed}) ended without an outcome"))?;
        *endings.entry(outcome.ending()).or_default() += 1;
        if outcome.is_draw() {
            draws += 1;
        } else {
            let places = outcome.places();
            let last = places.iter().copied().max().unwrap_or(0);
            for (seat, &place) in places.iter().enumerate() {
                wins[seat] += (place == 0) as u64;
                losses[seat] += (place == last) as u64;
            }
        }
        for (t, &v) in totals.iter_mut().zip(r) {
            *t += v;
        }
        plies_total += plies;
        plies_max = plies_max.max(plies);
        if let Some(dir) = &args.record {
            let mut record = Record::new(G::ID, options.clone(), vec!["random".into(); players]);
            record.seed = Some(seed);
            record.actions = actions;
            record.finish(r, Some(outcome));
            let path = dir.join(format!("{}-{:06}.json", G::ID, i));
            std::fs::write(&path, record.to_json())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let n = args.games.max(1) as f64;
    Ok(SelfplayReport {
        game: G::ID.into(),
        options,
        games: args.games,
        seed: args.seed,
        wins,
        losses,
        draws,
        endings,
        mean_returns: totals.iter().map(|t| t / n).collect(),
        plies_mean: plies_total as f64 / n,
        plies_max,
        seconds,
        games_per_sec: args.games as f64 / seconds.max(1e-9),
    })
}

/// Runs `spelbord selfplay`.
pub fn run(args: SelfplayArgs) -> Result<ExitCode> {
    let json = args.json;
    let report = visit_game(&args.game.clone(), Run(args))??;
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} games of {} (seed {})",
            report.games, report.game, report.seed
        );
        for (seat, w) in report.wins.iter().enumerate() {
            println!(
                "  seat {seat}: {w} first, {} last, mean return {:+.3}",
                report.losses[seat], report.mean_returns[seat]
            );
        }
        println!("  draws: {}", report.draws);
        for (ending, count) in &report.endings {
            println!("  {}: {count}", ending.text());
        }
        println!(
            "  plies per game: mean {:.1}, max {}",
            report.plies_mean, report.plies_max
        );
        println!(
            "  {:.2} s, {:.0} games per second",
            report.seconds, report.games_per_sec
        );
    }
    Ok(ExitCode::SUCCESS)
}
