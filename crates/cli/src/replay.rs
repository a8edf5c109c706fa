//! `spelbord replay`: validate a record and summarise it.

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use spelbord_engine::{Error, Record, Turn, Viewer};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `spelbord replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record (JSON) to check.
    file: PathBuf,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the final position.
    #[arg(long)]
    board: bool,
}

/// Runs `spelbord replay`: exit 0 if the record is valid, 1 if not.
pub fn run(args: ReplayArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let outcome = Record::from_json(&text).and_then(|r| r.replay().map(|s| (r, s)));
    match outcome {
        Ok((record, state)) => {
            let over = state.turn() == Turn::Over;
            if args.json {
                let summary = json!({
                    "ok": true,
                    "game": record.game,
                    "options": record.options,
                    "players": record.players,
                    "actions": record.actions.len(),
                    "over": over,
                    "returns": state.returns(),
                    "outcome": state.outcome_json(),
                });
                println!("{summary}");
            } else {
                println!(
                    "valid record: {} with {} actions",
                    record.game,
                    record.actions.len()
                );
                for (k, v) in record.options.iter() {
                    println!("  option {k}={v}");
                }
                if !record.players.is_empty() {
                    println!("  players: {}", record.players.join(", "));
                }
                if over {
                    let line = crate::play::outcome_line(
                        state.outcome(),
                        &state.returns(),
                        &seat_names(&record.players, state.num_players()),
                    );
                    println!("  result: {line}");
                } else {
                    println!("  the game is not finished");
                }
                if args.board {
                    print!("{}", state.render(Viewer::Spectator, false));
                    if let Some(id) = gnubg_id(state.as_ref()) {
                        println!("GNU Backgammon ID: {id}");
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let (index, action) = match &e {
                Error::RecordAction { index, action, .. } => (Some(*index), Some(action.clone())),
                _ => (None, None),
            };
            if args.json {
                println!(
                    "{}",
                    json!({ "ok": false, "index": index, "action": action, "error": e.to_string() })
                );
            } else {
                eprintln!("invalid record: {e}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

/// GNU Backgammon's position and match ID of a backgammon position.
pub fn gnubg_id(state: &dyn spelbord_engine::DynState) -> Option<String> {
    let bg = state
        .as_any()
        .downcast_ref::<spelbord_engine::dynamic::StateOf<spelbord_engine::backgammon::Backgammon>>(
        )?;
    Some(bg.0.gnubg_id())
}

/// The players' names from the record, or "?" for seats it does not name.
fn seat_names(players: &[String], n: usize) -> Vec<String> {
    (0..n)
        .map(|p| players.get(p).cloned().unwrap_or_else(|| "?".into()))
        .collect()
}
