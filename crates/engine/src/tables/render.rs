//! A text drawing of a two-player tables board, from one player's side.

use super::two_player::{Phase, TablesState, TablesVariant};
use crate::game::{GameState, Turn, Viewer};
use std::fmt::Write;

const NAMES: [&str; 2] = ["White (X)", "Black (O)"];
const MARKS: [char; 2] = ['X', 'O'];

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Draws the board with the viewer's home at the bottom right and points
/// numbered as that player counts them (spectators: the player to move).
pub fn render_board<V: TablesVariant>(s: &TablesState<V>, viewer: Viewer, color: bool) -> String {
    let me = match viewer {
        Viewer::Player(p) => p,
        Viewer::Spectator => s.mover(),
    };
    let abs = s.absolute();
    // index into abs arrays for my point n (1..=24)
    let idx = |n: usize| if me == 0 { n - 1 } else { 24 - n };
    let cell = |n: usize| -> String {
        let i = idx(n);
        let (top, under) = (abs.top[i], abs.under[i]);
        if top == 0 {
            return paint("  . ", "2", color);
        }
        let owner = if top > 0 { 0 } else { 1 };
        let mut text = format!("{}{}", MARKS[owner], top.unsigned_abs());
        if under != 0 {
            text.push(MARKS[1 - owner].to_ascii_lowercase());
        }
        let text = format!("{text:>4}");
        paint(&text, if owner == 0 { "1;33" } else { "1;36" }, color)
    };
    let mut out = String::new();
    let row = |out: &mut String, points: &[usize]| {
        for (k, &n) in points.iter().enumerate() {
            if k == 6 {
                out.push_str(" |");
            }
            out.push_str(&cell(n));
        }
        out.push('\n');
    };
    let labels = |out: &mut String, points: &[usize]| {
        for (k, &n) in points.iter().enumerate() {
            if k == 6 {
                out.push_str(" |");
            }
            let _ = write!(out, "{n:>4}");
        }
        out.push('\n');
    };
    let top: Vec<usize> = (13..=24).collect();
    let bottom: Vec<usize> = (1..=12).rev().collect();
    let _ = writeln!(
        out,
        "{} — points numbered as {} counts them",
        V::ID,
        NAMES[me]
    );
    labels(&mut out, &top);
    row(&mut out, &top);
    let _ = writeln!(out, "{}", "-".repeat(50));
    row(&mut out, &bottom);
    labels(&mut out, &bottom);
    let _ = writeln!(
        out,
        "off: {} {}  {} {}{}",
        NAMES[0],
        abs.off[0],
        NAMES[1],
        abs.off[1],
        if abs.bar != [0, 0] {
            format!("   bar: X {} O {}", abs.bar[0], abs.bar[1])
        } else {
            String::new()
        }
    );
    write_stakes(&mut out, s, viewer);
    let _ = writeln!(out, "{}", status_line(s));
    out
}

/// Writes the cube's value and owner, and the match score, where they are
/// in play.
fn write_stakes<V: TablesVariant>(out: &mut String, s: &TablesState<V>, viewer: Viewer) {
    if s.options().cube {
        let owner = match s.observation(viewer).cube_owner {
            Some(p) => NAMES[p].to_string(),
            None => "middle".into(),
        };
        let _ = writeln!(out, "cube: {} ({owner})", s.cube_value());
    }
    if s.options().match_to > 0 {
        let _ = writeln!(
            out,
            "match to {}: X {} – O {}{}",
            s.options().match_to,
            s.score()[0],
            s.score()[1],
            if s.observation(viewer).crawford_game {
                " (Crawford game)"
            } else {
                ""
            }
        );
    }
}

/// Where the turn cycle is: whose turn and what he does, or the result.
fn status_line<V: TablesVariant>(s: &TablesState<V>) -> String {
    let mover = NAMES[s.mover()];
    match (s.turn(), s.phase()) {
        (Turn::Over, _) | (_, Phase::Over) => match s.last_game() {
            Some((Some(w), pts)) => format!("game over: {} wins {pts}", NAMES[w]),
            _ => "game over: draw".into(),
        },
        (_, Phase::Opening) => "opening roll: one die each".into(),
        (_, Phase::Rolling) => format!("{mover} to roll"),
        (_, Phase::CubeDecision) => format!("{mover}: roll or double"),
        (_, Phase::CubeResponse) => format!("{}: take or drop the double", NAMES[1 - s.mover()]),
        (_, Phase::Moving(d)) => format!("{mover} to play {}-{}", d[0], d[1]),
    }
}
