//! `spelbord bearoff`: generates the bear-off databases that the network
//! evaluation uses (see docs/ai.md).

use anyhow::{Context, Result, bail};
use clap::Args;
use spelbord_ai::bearoff::build::{one_sided_file, two_sided_file};
use spelbord_ai::bearoff::{Home, shipped};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `spelbord bearoff`.
#[derive(Args, Debug)]
pub struct BearoffArgs {
    /// Where to write the one-sided database.
    #[arg(long, value_name = "FILE")]
    one_sided: Option<PathBuf>,
    /// Where to write the two-sided database.
    #[arg(long, value_name = "FILE")]
    two_sided: Option<PathBuf>,
    /// Most checkers of a side in the one-sided database (15 shipped).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(1..=15))]
    one_sided_checkers: u8,
    /// Most checkers of a side in the two-sided database (6 shipped).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=8))]
    two_sided_checkers: u8,
    /// Instead, print the shipped databases' values of the positions in
    /// FILE: one a line, the side on roll's checkers on its points 1 to 6,
    /// a space, the other side's (e.g. `0,2,1,0,0,3 1,1,0,0,0,0`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["one_sided", "two_sided"])]
    evaluate: Option<PathBuf>,
}

/// A home board written as six counts, points 1 to 6.
fn parse_home(text: &str) -> Result<Home> {
    let counts: Vec<u8> = text
        .split(',')
        .map(|c| c.trim().parse::<u8>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("{text}: six counts 0..15 separated by commas"))?;
    let home: Home = counts
        .try_into()
        .map_err(|_| anyhow::anyhow!("{text}: six counts, points 1 to 6"))?;
    if home.iter().map(|&c| u32::from(c)).sum::<u32>() > 15 {
        bail!("{text}: more than 15 checkers");
    }
    Ok(home)
}

/// Prints the databases' probabilities of each position in `path`: the
/// position, then win, win a gammon, lose a gammon of the side on roll and
/// whether the value is exact (two-sided) or from the one-sided database.
fn evaluate(path: &Path) -> Result<ExitCode> {
    let db = shipped().context("the shipped bear-off databases do not read")?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    println!("mover\tother\twin\twin_gammon\tlose_gammon\tsource");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split_whitespace();
        let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
            bail!("{line}: two home boards separated by a space");
        };
        let (mover, other) = (parse_home(a)?, parse_home(b)?);
        let (p, source) = match db.exact(&mover, &other) {
            Some(p) => (p, "two-sided"),
            None => (
                db.probs(&mover, &other).context("not in the databases")?,
                "one-sided",
            ),
        };
        println!("{a}\t{b}\t{:.6}\t{:.6}\t{:.6}\t{source}", p[0], p[1], p[3]);
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `bytes` to `path` and says what was written and how long it took.
fn write(path: &Path, bytes: &[u8], what: &str, started: Instant) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    println!(
        "{what}: {} bytes in {:.1} s to {}",
        bytes.len(),
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// Runs `spelbord bearoff`.
pub fn run(args: BearoffArgs) -> Result<ExitCode> {
    if let Some(path) = &args.evaluate {
        return evaluate(path);
    }
    if args.one_sided.is_none() && args.two_sided.is_none() {
        bail!("nothing to do: give --one-sided FILE, --two-sided FILE or both, or --evaluate FILE");
    }
    if let Some(path) = &args.one_sided {
        let started = Instant::now();
        let n = usize::from(args.one_sided_checkers);
        let bytes = one_sided_file(n)?;
        write(path, &bytes, &format!("one-sided, {n} checkers"), started)?;
    }
    if let Some(path) = &args.two_sided {
        let started = Instant::now();
        let n = usize::from(args.two_sided_checkers);
        let bytes = two_sided_file(n)?;
        write(path, &bytes, &format!("two-sided, {n} checkers"), started)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_ai::bearoff::{OneSided, TwoSided};

    #[test]
    fn home_boards_are_six_counts_of_at_most_fifteen_checkers() {
        assert_eq!(parse_home("0,2,1,0,0,3").unwrap(), [0, 2, 1, 0, 0, 3]);
        for bad in [
            "0,2,1,0,0",
            "0,2,1,0,0,3,1",
            "a,0,0,0,0,0",
            "9,9,0,0,0,0",
            "-1,0,0,0,0,0",
        ] {
            assert!(parse_home(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_command_writes_files_that_read_back() {
        let dir = std::env::temp_dir().join(format!("spelbord-bearoff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (one, two) = (dir.join("one.bo"), dir.join("two.bo"));
        let args = BearoffArgs {
            one_sided: Some(one.clone()),
            two_sided: Some(two.clone()),
            one_sided_checkers: 3,
            two_sided_checkers: 2,
            evaluate: None,
        };
        run(args).unwrap();
        let one = OneSided::from_bytes(&std::fs::read(&one).unwrap()).unwrap();
        let two = TwoSided::from_bytes(&std::fs::read(&two).unwrap()).unwrap();
        assert_eq!((one.checkers, two.checkers, two.positions()), (3, 2, 28));
        let positions = dir.join("positions.txt");
        std::fs::write(&positions, "0,2,1,0,0,3 1,1,0,0,0,0\n").unwrap();
        assert!(evaluate(&positions).is_ok());
        std::fs::write(&positions, "0,2,1,0,0,3\n").unwrap();
        assert!(evaluate(&positions).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
