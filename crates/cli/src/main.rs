#![forbid(unsafe_code)]
//! `spelbord`: play, study and measure the spelbord games from the terminal.

mod analyse;
mod arena;
mod bearoff;
mod bench;
mod bench_agent;
mod bg_games;
mod catalogue;
mod export;
mod gnubg;
mod import;
mod label;
mod mat;
mod play;
mod play_moves;
mod replay;
mod selfplay;
mod serve;
mod sgf;
mod term;
mod train;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Play, study and measure traditional dice, card and board games.
#[derive(Parser, Debug)]
#[command(name = "spelbord", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games with their player counts and options.
    Games(catalogue::GamesArgs),
    /// Show the rules of a game for players.
    Rules(catalogue::RulesArgs),
    /// Play a game in the terminal against people or the computer.
    Play(play::PlayArgs),
    /// Play many games between random agents and report the results.
    Selfplay(selfplay::SelfplayArgs),
    /// Measure random playouts per second on one core (or an agent's speed).
    Bench(bench::BenchArgs),
    /// Let agents play many games against each other and compare them.
    Arena(arena::ArenaArgs),
    /// Check a game record and summarise it.
    Replay(replay::ReplayArgs),
    /// Rate every decision of a recorded game, the luck of every roll, and
    /// each player's error rate (see docs/ai.md).
    Analyse(analyse::AnalyseArgs),
    /// Write a backgammon record as a Jellyfish .mat or GNU Backgammon .sgf file.
    Export(export::ExportArgs),
    /// Read a Jellyfish .mat match file (e.g. from GNU Backgammon) into records.
    Import(import::ImportArgs),
    /// Train a game's evaluation network by self-play (see docs/ai.md).
    Train(train::TrainArgs),
    /// Label backgammon positions from self-play by rollouts, for `train --fit`.
    Label(label::LabelArgs),
    /// Generate the backgammon bear-off databases (see docs/ai.md).
    Bearoff(bearoff::BearoffArgs),
    /// Serve the games over HTTP and WebSocket (see docs/server.md).
    Serve(serve::ServeArgs),
    /// Check every roll and deal of a finished server game against its seeds.
    Verify(verify::VerifyArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games(a) => catalogue::list(a),
        Command::Rules(a) => catalogue::rules(a),
        Command::Play(a) => play::run(a),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Arena(a) => arena::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Export(a) => export::run(a),
        Command::Import(a) => import::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Train(a) => train::run(a),
        Command::Label(a) => label::run(a),
        Command::Bearoff(a) => bearoff::run(a),
        Command::Verify(a) => verify::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("spelbord: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_train_help_lists_the_games_with_networks() {
        let mut cli = Cli::command();
        let train = cli.find_subcommand_mut("train").unwrap();
        let help = train.render_help().to_string();
        assert!(help.contains("backgammon, tawla"), "{help}");
    }

    /// The README's position notation starts with a minus sign.
    #[test]
    fn a_position_may_begin_with_a_minus_sign() {
        use clap::Parser;
        let position = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 0 6-5";
        for command in [&["play", "backgammon"][..], &["analyse"]] {
            let mut args = vec!["spelbord"];
            args.extend(command);
            args.extend(["--position", position]);
            let parsed = Cli::try_parse_from(args);
            assert!(parsed.is_ok(), "{command:?}: {:?}", parsed.err());
        }
    }
}
