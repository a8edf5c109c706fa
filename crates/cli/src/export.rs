//! `spelbord export`: a backgammon record in the formats backgammon players
//! use (Jellyfish `.mat`, GNU Backgammon's `.sgf`).

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
    /// GNU Backgammon's own file (`load match FILE`).
    Sgf,
}

/// Options of `spelbord export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The backgammon record (JSON): one money game or a whole match.
    file: PathBuf,
    /// The format to write (default: by the output file's extension,
    /// `.sgf` or else `.mat`).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Where to write (standard output when not given).
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `spelbord export`.
pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let record = Record::from_json(&text)?;
    let by_name = args
        .out
        .as_ref()
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    let format = args
        .format
        .unwrap_or(if by_name { Format::Sgf } else { Format::Mat });
    let written = match format {
        Format::Mat => crate::mat::to_mat(&record)?,
        Format::Sgf => crate::sgf::to_sgf(&record)?,
    };
    match &args.out {
        Some(path) => std::fs::write(path, written)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{written}"),
    }
    Ok(ExitCode::SUCCESS)
}
