//! `spelbord import`: a Jellyfish `.mat` match file (from GNU Backgammon
//! or another backgammon program) or a GNU Backgammon `.sgf` file as
//! spelbord records, to replay or analyse.

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `spelbord import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The `.mat` or `.sgf` file (told apart by the name's ending).
    file: PathBuf,
    /// The folder for the records (`backgammon-N.json`: a match is one
    /// record, a money session one per game); without it the records are
    /// printed, one JSON object a line.
    #[arg(long, short = 'o', value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Runs `spelbord import`.
pub fn run(args: ImportArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let sgf = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    let read = if sgf {
        crate::sgf::read_sgf(&text)
    } else {
        crate::mat::read_mat(&text)
    }
    .with_context(|| format!("cannot import {}", args.file.display()))?;
    for skipped in &read.skipped {
        eprintln!("spelbord import: {}: {skipped}", args.file.display());
    }
    let records = read.records;
    if records.is_empty() {
        eprintln!(
            "spelbord import: {}: no game could be read, nothing written",
            args.file.display()
        );
        return Ok(ExitCode::FAILURE);
    }
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for (i, r) in records.iter().enumerate() {
                let path = dir.join(format!("backgammon-{}.json", i + 1));
                std::fs::write(&path, r.to_json())
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("{}", path.display());
            }
        }
        None => {
            for r in &records {
                println!("{}", serde_json::to_string(r)?);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
