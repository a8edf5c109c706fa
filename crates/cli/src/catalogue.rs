//! `spelbord games` and `spelbord rules`.

use anyhow::Result;
use clap::Args;
use serde_json::json;
use spelbord_engine::{OptionKind, find_game, registry};
use std::process::ExitCode;

/// Options of `spelbord games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

/// Options of `spelbord rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The game's id (see `spelbord games`).
    game: String,
}

/// Lists every game with its players and options.
pub fn list(args: GamesArgs) -> Result<ExitCode> {
    if args.json {
        let list: Vec<_> = registry::games()
            .iter()
            .map(|g| {
                json!({
                    "id": g.id(),
                    "name": g.name(),
                    "summary": g.summary(),
                    "players": [g.players().0, g.players().1],
                    "hidden_information": g.hidden_information(),
                    "options": g.option_specs(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    for g in registry::games() {
        let (lo, hi) = g.players();
        let players = if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo}–{hi}")
        };
        println!(
            "{:<12} {} — {} ({} players)",
            g.id(),
            g.name(),
            g.summary(),
            players
        );
        for o in g.option_specs() {
            let values = match o.kind {
                OptionKind::Choice { values } => values.join("|"),
                OptionKind::Int { min, max } => format!("{min}..{max}"),
            };
            println!(
                "    {}={:<18} default {:<6} {}",
                o.key, values, o.default, o.help
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a game's rules for players.
pub fn rules(args: RulesArgs) -> Result<ExitCode> {
    let game = find_game(&args.game)?;
    if game.rules().is_empty() {
        println!("No rules text for {} yet.", game.name());
    } else {
        print!("{}", game.rules());
    }
    Ok(ExitCode::SUCCESS)
}
