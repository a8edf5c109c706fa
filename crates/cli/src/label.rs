//! `spelbord label`: backgammon positions from self-play, each labelled by
//! full rollouts of the network, appended to a text file that
//! `spelbord train --fit` learns from; a run resumes where the file ends.

use crate::term::{progress, progress_wanted};
use anyhow::{Context, Result, bail};
use clap::Args;
use spelbord_ai::net::label::{Labelled, label_position};
use spelbord_ai::net::{Encoding, Mlp, check, load};
use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules, BackgammonState};
use spelbord_engine::tables::{TablesOptions, TablesState};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Options of `spelbord label`.
#[derive(Args, Debug, Clone)]
pub struct LabelArgs {
    /// The game's id (backgammon only).
    pub game: String,
    /// Positions to label in this run.
    #[arg(long, default_value_t = 1_000)]
    pub positions: u64,
    /// Rollout trials per position (each to the end of the game).
    #[arg(long, default_value_t = 42)]
    pub trials: u32,
    /// Seed of the run: position k comes from self-play game `seed + k`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions labelled at once (one core each).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The network that plays the games and the rollouts (default: shipped).
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
    /// The file the labels are appended to; its lines so far are the
    /// positions already labelled, so the run goes on after them.
    #[arg(long, value_name = "FILE")]
    pub out: String,
}

/// One label as a line: the position's GNU Backgammon ID (the side on roll
/// is player 0 of a money game) and the five probabilities.
pub fn to_line(l: &Labelled<BackgammonBoard>) -> String {
    let state = TablesState::with_position(BackgammonRules, TablesOptions::default(), l.board, 0);
    let p = l.probs;
    format!(
        "{} {:.5} {:.5} {:.5} {:.5} {:.5}",
        state.gnubg_id(),
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    )
}

/// The label on a line written by [`to_line`].
pub fn from_line(line: &str) -> Result<Labelled<BackgammonBoard>> {
    let mut fields = line.split_whitespace();
    let id = fields.next().context("an empty line")?;
    let state: BackgammonState = id.parse().with_context(|| format!("position {id}"))?;
    let mut probs = [0.0f32; 5];
    for p in probs.iter_mut() {
        *p = fields
            .next()
            .with_context(|| format!("five probabilities after {id}"))?
            .parse()
            .with_context(|| format!("a probability after {id}"))?;
    }
    Ok(Labelled {
        board: *state.board(),
        probs,
    })
}

/// The labels in the file at `path`.
pub fn read_labels(path: &str) -> Result<Vec<Labelled<BackgammonBoard>>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    text.lines()
        .enumerate()
        .map(|(i, l)| from_line(l).with_context(|| format!("{path}:{}", i + 1)))
        .collect()
}

/// Positions already in `path` (each a whole line); no file: none.
fn labelled_so_far(path: &str) -> Result<u64> {
    match std::fs::read_to_string(path) {
        Ok(text) if !text.is_empty() && !text.ends_with('\n') => {
            bail!("{path} ends in a partial line: remove it to resume")
        }
        Ok(text) => Ok(text.lines().count() as u64),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e).with_context(|| format!("reading {path}")),
    }
}

/// Positions a thread labels, on average, between two writes of the file.
const CHUNK_PER_THREAD: u64 = 16;

/// The lines of positions `range`, in order, labelled on `threads` threads.
fn label_range(
    mlp: &Mlp,
    encoding: Encoding<BackgammonBoard>,
    args: &LabelArgs,
    range: std::ops::Range<u64>,
    threads: u64,
) -> Vec<String> {
    let next = AtomicU64::new(range.start);
    let mut done: Vec<(u64, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= range.end {
                            return mine;
                        }
                        let l = label_position(
                            mlp,
                            encoding,
                            BackgammonRules,
                            args.seed,
                            i,
                            args.trials,
                        );
                        mine.extend(l.map(|l| (i, to_line(&l) + "\n")));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("labelling does not panic"))
            .collect()
    });
    done.sort_unstable_by_key(|d| d.0);
    done.into_iter().map(|d| d.1).collect()
}

/// Runs `spelbord label`.
pub fn run(args: LabelArgs) -> Result<ExitCode> {
    if args.game != "backgammon" {
        bail!("labelling by rollouts is built for backgammon only");
    }
    let net = load::<BackgammonRules>(args.net.as_deref())?;
    let encoding = check::<BackgammonRules>(&net, args.net.as_deref().unwrap_or("shipped"))?;
    let first = labelled_so_far(&args.out)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("opening {}", args.out))?;
    let threads = args.threads.max(1) as u64;
    let show = progress_wanted(false);
    let bar = progress(args.positions, show);
    let start = Instant::now();
    let (last, mut k) = (first + args.positions, first);
    while k < last {
        // A chunk of positions shared out as the threads come free (a
        // rollout takes from milliseconds to seconds), written in order.
        let end = last.min(k + threads * CHUNK_PER_THREAD);
        let lines = label_range(&net.net, encoding, &args, k..end, threads);
        file.write_all(lines.concat().as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("writing {}", args.out))?;
        k = end;
        bar.set_position(k - first);
    }
    bar.finish_and_clear();
    eprintln!(
        "backgammon: positions {first}..{last} labelled ({} trials each) in {:.0} s; appended to {}",
        args.trials,
        start.elapsed().as_secs_f64(),
        args.out
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_survives_its_line() {
        let net = load::<BackgammonRules>(None).unwrap();
        let enc = check::<BackgammonRules>(&net, "shipped").unwrap();
        let l = label_position(&net.net, enc, BackgammonRules, 3, 2, 2).unwrap();
        let back = from_line(&to_line(&l)).unwrap();
        assert_eq!(back.board, l.board);
        for (a, b) in back.probs.iter().zip(l.probs) {
            assert!((a - b).abs() <= 5e-6);
        }
        assert!(from_line("4HPwATDgc/ABMA 0.5 0.1").is_err());
    }

    #[test]
    fn a_run_goes_on_after_the_lines_already_written() {
        let dir = std::env::temp_dir().join(format!("spelbord-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("l.txt").display().to_string();
        let args = |positions| LabelArgs {
            game: "backgammon".into(),
            positions,
            trials: 1,
            seed: 5,
            threads: 2,
            net: None,
            out: out.clone(),
        };
        run(args(3)).unwrap();
        run(args(1)).unwrap();
        let twice = std::fs::read_to_string(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        run(args(4)).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), twice);
        assert_eq!(read_labels(&out).unwrap().len(), 4);
        std::fs::write(&out, "partial").unwrap();
        assert!(run(args(1)).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
