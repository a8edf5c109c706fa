//! `spelbord export`: a backgammon record in the formats backgammon players
//! use (Jellyfish `.mat`).

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use spelbord_engine::Record;
use std::path::PathBuf;
use std::process::ExitCode;

/// The formats `spelbord export` writes.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    /// Jellyfish's match file, read by GNU Backgammon (`import mat FILE`).
    Mat,
}

/// Options of `spelbord export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The backgammon record (JSON): one money game or a whole match.
    file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value = "mat")]
    format: Format,
    /// Where to write (standard output when not given).
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `spelbord export`.
pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record = Record::from_json(&text)?;
    let written = match args.format {
        Format::Mat => crate::mat::to_mat(&record)?,
    };
    match &args.out {
        Some(path) => std::fs::write(path, written)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{written}"),
    }
    Ok(ExitCode::SUCCESS)
}
