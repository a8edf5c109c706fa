//! `spelbord verify`: recompute every roll and deal of a server game from its
//! revealed seeds (the commit–reveal scheme of docs/server.md).

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::Value;
use spelbord_engine::Record;
use spelbord_server::dice::{DiceProof, Verdict, verify};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `spelbord verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A finished table's record as the server gives it
    /// (`GET /api/tables/{id}/record`), with its `dice` field.
    file: PathBuf,
}

/// Runs `spelbord verify`: exit 0 and "verified" if every chance action
/// matches the seeds, 1 naming the first that does not.
pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let value: Value = serde_json::from_str(&text).context("the record is not JSON")?;
    let Some(dice) = value.get("dice").filter(|d| !d.is_null()) else {
        bail!(
            "the record has no `dice` field: it is not from a spelbord server with verifiable dice"
        );
    };
    let proof: DiceProof =
        serde_json::from_value(dice.clone()).context("the record's `dice` field is malformed")?;
    let record: Record = serde_json::from_value(value).context("the record is malformed")?;
    match verify(&record, &proof).map_err(anyhow::Error::msg)? {
        Verdict::Verified(count) => {
            println!(
                "verified: all {count} chance actions of table {} ({}) follow from the seeds \
                 (commitment {})",
                proof.table, record.game, proof.commitment
            );
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Mismatch {
            version,
            recorded,
            derived,
        } => {
            println!(
                "NOT verified: chance action {version} is `{recorded}` in the record, \
                 but the seeds give `{derived}`"
            );
            Ok(ExitCode::from(1))
        }
    }
}
