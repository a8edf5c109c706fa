//! The board as text: the two rows, Stumpen, both Hög and Ute, seen from
//! one player's side (spectators: from the side of the player to move).

use super::board::COLUMNS;
use super::state::{End, Phase, STUMPVARNING, StumphogState};
use crate::game::{Player, Viewer};
use std::fmt::Write;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The name of a player.
pub fn name(p: Player) -> String {
    format!("Player {p}")
}

/// Draws the state from `viewer`'s side.
pub fn render(s: &StumphogState, viewer: Viewer, color: bool) -> String {
    let me = match viewer {
        Viewer::Player(p) if p < 2 => p,
        _ => s.mover(),
    };
    let you = matches!(viewer, Viewer::Player(p) if p == me);
    let q = 1 - me;
    let b = s.board();
    let rules = s.rules();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Stumphög: first to {} in Ute wins; turn {} (a draw after {})",
        rules.win,
        s.turns(),
        rules.turn_cap
    );
    out.push('\n');

    let who = |p: Player| {
        let mut text = name(p);
        if you && p == me {
            text.push_str(" (you");
        }
        if matches!(s.phase(), Phase::Rolling | Phase::Acting(_)) && s.mover() == p {
            text.push_str(if you && p == me {
                ", to move"
            } else {
                " (to move)"
            });
        }
        if you && p == me {
            text.push(')');
        }
        format!("{text:<24}")
    };
    let side_piles = |p: Player| {
        let mut text = format!("Hög {:>2}   Ute {:>2}", b.hog[p], b.ute[p]);
        let ute_text = format!("{:>2}", b.ute[p]);
        // STU-16: the label shows only while the Ute holds 30 or more.
        if b.ute[p] >= STUMPVARNING {
            text = format!(
                "Hög {:>2}   Ute {}  {}",
                b.hog[p],
                paint(&ute_text, "1", color),
                paint("STUMPVARNING", "1;31", color)
            );
        }
        text
    };
    let row = |p: Player| {
        let mut text = String::new();
        for (c, &n) in b.rows[p].iter().enumerate() {
            if c == 4 {
                text.push_str(" |");
            }
            let _ = write!(text, "{n:>4}");
        }
        text
    };
    let mut header = String::new();
    for c in 1..=COLUMNS {
        if c == 5 {
            header.push_str(" |");
        }
        let _ = write!(header, "{c:>4}");
    }

    let _ = writeln!(out, "  {}  {}", who(q), side_piles(q));
    let _ = writeln!(out, "  column       {header}");
    let _ = writeln!(out, "  Bortom  ->   {} --\\", row(q));
    let _ = writeln!(
        out,
        "{:15}{:<16} |{:<12}   {}",
        "",
        "   Port  Borta",
        " Hemma",
        paint(&format!("Stumpen {:>2}", b.stumpen), "1;33", color)
    );
    let _ = writeln!(out, "  Hitom   <-   {} --/", row(me));
    let _ = writeln!(out, "  column       {header}");
    let _ = writeln!(out, "  {}  {}", who(me), side_piles(me));
    out.push('\n');

    let mover = name(s.mover());
    match s.phase() {
        Phase::Opening => {
            let _ = writeln!(
                out,
                "Roll for Stumpen: one die each (ties rolled again). The higher lays Stumpen\n\
                 and begins with 27 in Hög; the other gets the last stone (28). 2 in hand."
            );
        }
        Phase::Rolling => {
            let _ = writeln!(out, "{mover} to roll.");
        }
        Phase::Acting([d1, d2]) => {
            let _ = write!(out, "{mover} to move with {d1}-{d2}: ");
            let reading = |k: u8, n: u8| {
                format!(
                    "{k} stone{} {n} step{}",
                    if k == 1 { "" } else { "s" },
                    if n == 1 { "" } else { "s" }
                )
            };
            if d1 == d2 {
                out.push_str(&reading(d1, d1));
            } else {
                let _ = write!(out, "{} or {}", reading(d1, d2), reading(d2, d1));
            }
            if d1 == 6 {
                let _ = write!(out, ", or bat in {d2}");
                if d2 == 6 {
                    let _ = write!(out, " (or 6 from opponent)");
                }
            }
            if d1 == d2 {
                let _ = write!(out, ", or bat out {}", d1 + d2);
            }
            out.push_str(".\n");
            if s.mover() == me {
                out.push_str(
                    "Rows are named from your side: your stones go Hitom 7 -> 1 (Port), across\n\
                     to Bortom 1 -> 7 and into Stumpen. Hemma piles (5-7) move 1 step only.\n",
                );
            } else {
                let _ = writeln!(
                    out,
                    "{mover} names the rows from his side: his Hitom is your Bortom."
                );
            }
        }
        Phase::Over => {
            let text = match s.end() {
                Some(End::PastForty { winner }) => format!(
                    "{} wins with {} stones in Ute.",
                    name(winner),
                    b.ute[winner]
                ),
                Some(End::DriedOut { loser }) => format!(
                    "{} is uttorkad (no stones in Hög or Ute): {} wins.",
                    name(loser),
                    name(1 - loser)
                ),
                Some(End::BothDriedOut) => "Both players are uttorkade: a draw.".into(),
                Some(End::Resigned { loser }) => {
                    format!("{} resigned: {} wins.", name(loser), name(1 - loser))
                }
                Some(End::TurnCap) | None => {
                    format!("The turn cap ({}) is reached: a draw.", rules.turn_cap)
                }
            };
            let _ = writeln!(out, "Game over. {}", paint(&text, "1", color));
        }
    }
    out
}
