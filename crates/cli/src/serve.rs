//! `spelbord serve`: the play server (HTTP, WebSocket, SQLite) from the one binary.

use anyhow::Result;
use std::process::ExitCode;

pub use spelbord_server::ServeArgs;

/// Runs `spelbord serve` until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    spelbord_server::run(args)?;
    Ok(ExitCode::SUCCESS)
}
