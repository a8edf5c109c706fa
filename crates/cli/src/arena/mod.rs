//! `spelbord arena`: agents play many games against each other; seats
//! rotate so that every agent plays every seat equally (in turn round the
//! table, or one agent alone at a table of another); each agent's mean
//! score with its 95% confidence interval, the Elo difference of two agents,
//! and the thinking time per move.

mod tally;

use crate::term::{progress, progress_wanted};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use spelbord_ai::arena::{GameResult, Seating, play_game};
use spelbord_ai::{Agent, make_agent_for};
use spelbord_engine::{Game, GameState, GameVisitor, Options, Record, visit_game};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tally::{Table, Tally};

/// Options of `spelbord arena`.
#[derive(Args, Debug, Clone)]
pub struct ArenaArgs {
    /// The game's id.
    pub game: String,
    /// The agents, separated by commas, e.g. `ai:hard,greedy` or
    /// `mcts:iters=500,cutoff=10,random` (a `key=value` after an agent is
    /// one of its parameters).
    #[arg(long, value_name = "A,B[,C..]")]
    pub agents: String,
    /// Number of games (rounded up to a multiple of the number of agents,
    /// so that the seats rotate fully).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the dice and the agents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (one core each).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A game option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write each game's record to this folder as JSON
    /// (`GAME-NNNNNN.json`, the agents named as the players).
    #[arg(long, value_name = "DIR")]
    pub record: Option<std::path::PathBuf>,
    /// How the agents sit: `rotate` (in turn round the table, A B A B) or
    /// `alone` (the first of two agents alone at a table of the second, its
    /// seat moving round; each scores its seats' mean finishing place).
    #[arg(long, value_enum, default_value_t = SeatingArg::Rotate)]
    pub seating: SeatingArg,
}

/// How an arena seats its agents (see [`Seating`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatingArg {
    /// In turn round the table (A B A B), every agent through every seat.
    Rotate,
    /// The first of two agents alone at a table of the second.
    Alone,
}

impl SeatingArg {
    fn seating(self) -> Seating {
        match self {
            SeatingArg::Rotate => Seating::Rotate,
            SeatingArg::Alone => Seating::Alone,
        }
    }
}

/// Splits the agents list: a `key=value` item belongs to the agent before it.
pub fn split_agents(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match out.last_mut() {
            Some(last) if item.contains('=') && !item.contains(':') => {
                last.push(',');
                last.push_str(item);
            }
            _ => out.push(item.to_string()),
        }
    }
    out
}

/// The Elo difference of the first agent over the second.
#[derive(Debug, Serialize)]
pub struct EloReport {
    /// The difference at the mean score.
    pub difference: f64,
    /// Its 95% interval, from the score's.
    pub ci95: [f64; 2],
}

/// What an arena run measured.
#[derive(Debug, Serialize)]
pub struct ArenaReport {
    game: String,
    options: Options,
    /// The agents, in the order given (a repeated name gets `#2`, `#3`).
    agents: Vec<String>,
    games: u64,
    seed: u64,
    seats: usize,
    /// How the agents sat (`rotate` or `alone`).
    seating: SeatingArg,
    /// Mean score per agent (1 win, 0.5 draw, 0 loss; see `docs/ai.md` for
    /// more than two players).
    score: BTreeMap<String, f64>,
    /// The 95% confidence interval of each agent's score (over rotations:
    /// the games of one rotation share their dice).
    ci95: BTreeMap<String, [f64; 2]>,
    /// Mean thinking time per decision (CPU time, milliseconds).
    ms_per_move: BTreeMap<String, f64>,
    /// The longest single decision (CPU time, milliseconds).
    max_ms_per_move: BTreeMap<String, f64>,
    /// Mean return per seat occupied.
    mean_return: BTreeMap<String, f64>,
    /// The 95% confidence interval of each agent's mean return (over
    /// rotations, like the score's).
    return_ci95: BTreeMap<String, [f64; 2]>,
    /// The share of each agent's games that were drawn against the others
    /// (equal returns, e.g. a High-O Gammon win that scores no points).
    draws: BTreeMap<String, f64>,
    /// High-O Gammon and Tric-Trac: each agent's share of the games whose
    /// sole winner sat in one of its seats, draws shared (HG-15: the winner
    /// first, whatever the losers pay).
    #[serde(skip_serializing_if = "Option::is_none")]
    winner_first: Option<BTreeMap<String, f64>>,
    /// The 95% confidence interval of each agent's winner-first share (over
    /// rotations, like the score's).
    #[serde(skip_serializing_if = "Option::is_none")]
    winner_first_ci95: Option<BTreeMap<String, [f64; 2]>>,
    /// The first agent's Elo difference over the second (two agents only).
    elo: Option<EloReport>,
    /// Mean score per seat whoever sat there (seat 0 moves first; the share
    /// of the other seats it finished ahead of, ties half): how fair the
    /// game is to each seat, best read with one agent in every seat.
    seat_score: Vec<f64>,
    /// The 95% confidence interval of each seat's score (over games).
    seat_ci95: Vec<[f64; 2]>,
    /// The share of games stopped by a turn cap (no loser, no winner).
    capped: f64,
    plies_mean: f64,
    seconds: f64,
}

struct Run(ArenaArgs);

impl GameVisitor for Run {
    type Output = Result<ArenaReport>;
    fn visit<G: Game>(self) -> Result<ArenaReport> {
        arena::<G>(&self.0)
    }
}

fn unique_names(agents: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in agents {
        let seen = out
            .iter()
            .filter(|n| n.split('#').next() == Some(a))
            .count();
        out.push(if seen == 0 {
            a.clone()
        } else {
            format!("{a}#{}", seen + 1)
        });
    }
    out
}

/// The agent of a name: `gnubg:HOST:PORT` (GNU Backgammon's external
/// player), or any agent of the AI crate.
fn agent_for<G: Game>(name: &str, seats: usize, seed: u64) -> Result<Box<dyn Agent<G::State>>> {
    match name.strip_prefix("gnubg:") {
        Some(addr) => crate::gnubg::gnubg_agent::<G::State>(addr),
        None => Ok(make_agent_for::<G>(name, seats, seed)?),
    }
}

/// One game's seating (agent per seat) and result.
type Seated = (Vec<usize>, GameResult);

fn agent_seed(seed: u64, game: u64, seat: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(game.wrapping_mul(1_000_003))
        .wrapping_add(seat as u64 * 7919)
}

/// Plays the arena's games and sums them up.
fn arena<G: Game>(args: &ArenaArgs) -> Result<ArenaReport> {
    let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
    let game = G::from_options(&options)?;
    let seats = game.initial_state().num_players();
    let agents = checked_agents::<G>(args, seats)?;
    let k = agents.len();
    let mode = args.seating.seating();
    // Games in one rotation: they share their dice and deals.
    let rotation = mode.rotation(k, seats) as u64;
    let games = args.games.max(1).div_ceil(rotation) * rotation;
    let start = Instant::now();
    let results = play_all(&game, args, &agents, games, rotation);
    let names = unique_names(&agents);
    if let Some(dir) = &args.record {
        write_records::<G>(dir, &options, &names, &results)?;
    }
    let tally = Tally::of(&results, mode, k, seats, rotation);
    let table = Table {
        options,
        names,
        games,
        seats,
        start,
    };
    Ok(tally.report::<G>(args, table))
}

/// The agents `--agents` names, each made once to check its name; refused
/// where fewer than two, or other than two for `--seating alone`.
fn checked_agents<G: Game>(args: &ArenaArgs, seats: usize) -> Result<Vec<String>> {
    let agents = split_agents(&args.agents);
    if agents.len() < 2 {
        bail!("an arena needs at least two agents (e.g. --agents ai:hard,random)");
    }
    for a in &agents {
        agent_for::<G>(a, seats, 0)?;
    }
    if args.seating.seating() == Seating::Alone && agents.len() != 2 {
        bail!("--seating alone seats one agent at a table of another: give two agents");
    }
    Ok(agents)
}

/// Plays `games` games on `--threads` threads, each seated as the seating
/// rotates, the games of a rotation with the same dice; in game order.
fn play_all<G: Game>(
    game: &G,
    args: &ArenaArgs,
    agents: &[String],
    games: u64,
    rotation: u64,
) -> Vec<Seated> {
    let seats = game.initial_state().num_players();
    let (k, mode) = (agents.len(), args.seating.seating());
    let bar = progress(games, progress_wanted(args.json));
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<Option<Seated>>> = Mutex::new(vec![None; games as usize]);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let seated = mode.seats(i, k, seats);
                    let mut players: Vec<Box<dyn Agent<G::State>>> = seated
                        .iter()
                        .enumerate()
                        .map(|(s, &a)| {
                            agent_for::<G>(&agents[a], seats, agent_seed(args.seed, i, s))
                                .expect("checked above")
                        })
                        .collect();
                    // The games of one rotation share their dice.
                    let dice = args.seed.wrapping_add(i / rotation);
                    let result = play_game(game, &mut players, dice);
                    results.lock().expect("no panics")[i as usize] = Some((seated, result));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    results
        .into_inner()
        .expect("no panics")
        .into_iter()
        .flatten()
        .collect()
}

/// Writes each game's record to `dir`.
fn write_records<G: Game>(
    dir: &std::path::Path,
    options: &Options,
    names: &[String],
    results: &[Seated],
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (i, (seated, r)) in results.iter().enumerate() {
        let players = seated.iter().map(|&a| names[a].clone()).collect();
        let mut record = Record::new(G::ID, options.clone(), players);
        record.actions = r.actions.clone();
        if r.outcome.is_some() {
            record.finish(&r.returns, r.outcome);
        }
        let path = dir.join(format!("{}-{i:06}.json", G::ID));
        std::fs::write(&path, record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Runs `spelbord arena`.
pub fn run(args: ArenaArgs) -> Result<ExitCode> {
    let json = args.json;
    let r = visit_game(&args.game.clone(), Run(args))??;
    if json {
        println!("{}", serde_json::to_string(&r)?);
        return Ok(ExitCode::SUCCESS);
    }
    let seating = match r.seating {
        SeatingArg::Rotate => "seats rotating",
        SeatingArg::Alone => "the first agent alone at a table of the second",
    };
    println!(
        "{} games of {} ({} seats, seed {}), {seating}",
        r.games, r.game, r.seats, r.seed
    );
    let width = r.agents.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
    println!(
        "  {:<width$}  {:>6}  {:>15}  {:>9}  {:>9}  {:>8}",
        "agent", "score", "95% interval", "ms/move", "max ms", "return"
    );
    for a in &r.agents {
        let ci = r.ci95[a];
        println!(
            "  {:<width$}  {:>5.1}%  {:>6.1}% – {:>5.1}%  {:>9.2}  {:>9.1}  {:>+8.3}",
            a,
            100.0 * r.score[a],
            100.0 * ci[0],
            100.0 * ci[1],
            r.ms_per_move[a],
            r.max_ms_per_move[a],
            r.mean_return[a]
        );
    }
    if let (Some(first), Some(ci)) = (&r.winner_first, &r.winner_first_ci95) {
        for a in &r.agents {
            println!(
                "  {:<width$}  winner first (HG-15): {:.1}% (95%: {:.1}% – {:.1}%)",
                a,
                100.0 * first[a],
                100.0 * ci[a][0],
                100.0 * ci[a][1]
            );
        }
    }
    if let Some(e) = &r.elo {
        println!(
            "  Elo difference ({} over {}): {:+.0} (95%: {:+.0} to {:+.0})",
            r.agents[0], r.agents[1], e.difference, e.ci95[0], e.ci95[1]
        );
    }
    let seat_scores: Vec<String> = r
        .seat_score
        .iter()
        .zip(&r.seat_ci95)
        .enumerate()
        .map(|(s, (m, ci))| {
            format!(
                "seat {s} {:.1}% ({:.1}–{:.1})",
                100.0 * m,
                100.0 * ci[0],
                100.0 * ci[1]
            )
        })
        .collect();
    println!("  by seat: {}", seat_scores.join(", "));
    if r.capped > 0.0 {
        println!(
            "  stopped by the turn cap: {:.1}% of games",
            100.0 * r.capped
        );
    }
    println!("  {:.1} plies per game, {:.1} s", r.plies_mean, r.seconds);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_keep_parameters_with_their_agent() {
        assert_eq!(
            split_agents("mcts:iters=500,cutoff=10,random, ai:hard"),
            vec!["mcts:iters=500,cutoff=10", "random", "ai:hard"]
        );
        assert_eq!(unique_names(&["a".into(), "a".into()]), vec!["a", "a#2"]);
    }

    fn args(game: &str, players: &str, games: u64) -> ArenaArgs {
        ArenaArgs {
            game: game.into(),
            agents: "greedy,random".into(),
            games,
            seed: 3,
            threads: 1,
            options: vec![format!("players={players}")],
            json: true,
            record: None,
            seating: SeatingArg::Rotate,
        }
    }

    #[test]
    fn sto16_the_alone_seating_puts_one_agent_at_a_table_of_another() {
        use spelbord_engine::stortok::Stortok;
        let mut a = args("stortok", "4", 6);
        a.agents = "greedy,random".into();
        a.seating = SeatingArg::Alone;
        let r = arena::<Stortok>(&a).unwrap();
        // Whole rotations of four games, greedy once in every seat.
        assert_eq!(r.games, 8);
        assert_eq!(r.seating, SeatingArg::Alone);
        // Each game: greedy's seat scores 0 or 2/3, the other seats' mean
        // makes the four seats average one half.
        let g = r.score["greedy"];
        let rest = r.score["random"];
        assert!((g + 3.0 * rest - 2.0).abs() < 1e-9, "{g} {rest}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["seating"], "alone");
        // Three agents cannot sit alone.
        a.agents = "greedy,random,greedy:temp=1".into();
        assert!(arena::<Stortok>(&a).is_err());
    }

    #[test]
    fn hg15_the_arena_reports_the_winner_first_share() {
        use spelbord_engine::high_gammon::{HighGammon, TricTrac};
        for r in [
            arena::<HighGammon>(&args("high-gammon", "4", 6)).unwrap(),
            arena::<TricTrac>(&args("tric-trac", "3", 6)).unwrap(),
        ] {
            let first = r.winner_first.as_ref().expect("winner first");
            let ci = r.winner_first_ci95.as_ref().expect("interval");
            // Two agents: every game's winner sat in one of their seats.
            assert!((first["greedy"] + first["random"] - 1.0).abs() < 1e-9);
            assert!(ci["greedy"][0] <= first["greedy"] && first["greedy"] <= ci["greedy"][1]);
            let json = serde_json::to_value(&r).unwrap();
            assert_eq!(json["winner_first"]["greedy"], first["greedy"]);
        }
        let mut bg = args("backgammon", "2", 2);
        bg.options.clear();
        let r = arena::<spelbord_engine::backgammon::Backgammon>(&bg).unwrap();
        assert!(r.winner_first.is_none());
        assert!(
            serde_json::to_value(&r)
                .unwrap()
                .get("winner_first")
                .is_none()
        );
    }
}
