//! Lists shown at the prompt: the legal actions in columns, and the hints
//! with their chances or equities.

use anyhow::Result;
use spelbord_ai::{Equity, EquityKind, Hint};
use std::io::Write;
/// Rows of at most 80 columns that `texts` take, each with its number.
pub(super) fn list_rows(texts: &[(usize, String)]) -> usize {
    let width = texts.iter().map(|(_, t)| t.len()).max().unwrap_or(0) + 7;
    texts.len().div_ceil((80 / width).max(1))
}

/// The most rows a list of actions may take under the board; a longer one
/// is shown short (see [`Pending::show_moves`](crate::play_moves::Pending::show_moves)) so that the board stays in sight.
pub(super) const MAX_LIST_ROWS: usize = 12;

pub(super) fn list_actions(out: &mut dyn Write, texts: &[(usize, String)]) -> Result<()> {
    let width = texts.iter().map(|(_, t)| t.len()).max().unwrap_or(0) + 7;
    let per_line = (80 / width).max(1);
    for (k, (i, t)) in texts.iter().enumerate() {
        write!(out, "{:>4}) {:<w$}", i + 1, t, w = width - 6)?;
        if (k + 1) % per_line == 0 {
            writeln!(out)?;
        }
    }
    if !texts.len().is_multiple_of(per_line) {
        writeln!(out)?;
    }
    Ok(())
}

pub(super) fn show_hints(out: &mut dyn Write, hints: &[Hint]) -> Result<()> {
    if hints.is_empty() {
        writeln!(out, "No hint here.")?;
        return Ok(());
    }
    writeln!(
        out,
        "Hints (estimated chance to win after each action, or its equity):"
    )?;
    let width = hints.iter().map(|h| h.text.len()).max().unwrap_or(0);
    for (i, h) in hints.iter().enumerate() {
        let sure = match h.margin {
            Some(0.0) => "certain".to_string(),
            Some(m) => format!("± {:.1}%, {} playouts", 100.0 * m, h.samples),
            None => format!("confidence {:.0}%", 100.0 * h.confidence),
        };
        match &h.equity {
            Some(e) => writeln!(out, "  {}) {:<width$}  {}", i + 1, h.text, equity_text(e))?,
            None => writeln!(
                out,
                "  {}) {:<width$}  {:>5.1}%  ({sure})",
                i + 1,
                h.text,
                100.0 * h.estimate
            )?,
        }
    }
    Ok(())
}

/// A network's value of an action: the equity, and after a play the
/// chances of each result.
fn equity_text(e: &Equity) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    match (e.kind, e.outcomes) {
        (EquityKind::MatchWinningChance, _) => format!("match winning chance {}", pct(e.value)),
        (_, None) => format!("cubeful equity {:+.3}", e.value),
        (_, Some(o)) => format!(
            "equity {:+.3}  win {} (gammon {}, backgammon {})  lose {} (gammon {}, backgammon {})",
            e.value,
            pct(o.win),
            pct(o.win_gammon),
            pct(o.win_backgammon),
            pct(1.0 - o.win),
            pct(o.lose_gammon),
            pct(o.lose_backgammon)
        ),
    }
}
