#![forbid(unsafe_code)]
//! `spelbord-server`: the play server on its own (the same as `spelbord serve`).

use clap::Parser;
use std::process::ExitCode;

/// Serve the spelbord games over HTTP and WebSocket.
#[derive(Parser, Debug)]
#[command(name = "spelbord-server", version, about)]
struct Cli {
    #[command(flatten)]
    serve: spelbord_server::ServeArgs,
}

fn main() -> ExitCode {
    match spelbord_server::run(Cli::parse().serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("spelbord-server: {e:#}");
            ExitCode::from(2)
        }
    }
}
