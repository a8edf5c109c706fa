//! A text drawing of a Läger position: the grid with both camps marked, the
//! squares the player to move threatens, and every piece off the board.

use super::geometry::{Square, Stone};
use super::notation::end_text;
use super::state::{Captured, LagerState, Location, Piece};
use super::view::{PLAYER_NAMES, piece_letter};
use crate::game::{GameState, Turn, Viewer};
use std::fmt::Write;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color && !code.is_empty() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn piece_color(piece: Piece) -> &'static str {
    match piece {
        Piece::Stone(Stone::Blue) => "1;34",
        Piece::Stone(Stone::Yellow) => "1;33",
        Piece::Stone(Stone::Black) => "1;90",
        Piece::Stone(Stone::White) => "1;97",
        Piece::Blockade => "1;31",
    }
}

fn letters(s: &LagerState, p: usize, want: Location) -> String {
    let v: Vec<String> = Stone::ALL
        .iter()
        .filter(|&&st| s.stone_location(p, st) == want)
        .map(|&st| piece_letter(p, Piece::Stone(st)).to_string())
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(" ")
    }
}

/// Draws the board, North's camp at the top; both players see everything.
pub fn render_state(s: &LagerState, _viewer: Viewer, color: bool) -> String {
    let g = s.geometry();
    let over = s.turn() == Turn::Over;
    let mover = s.mover();
    let threat = if over { 0 } else { s.threatened(mover) };
    let capture = threat & if over { 0 } else { s.capturable(mover) };
    let mut out = String::new();
    let c = s.config();
    let _ = writeln!(
        out,
        "Läger {}×{} · captured stones {} · ply {} of {}",
        g.columns,
        g.rows,
        match c.captured {
            Captured::Out => "leave the game",
            Captured::Return => "return",
        },
        s.plies(),
        c.max_plies
    );
    let files: String = (0..g.columns)
        .map(|col| format!(" {} ", (b'a' + col) as char))
        .collect();
    let _ = writeln!(out, "     {files}");
    let _ = writeln!(out, "    +{}+", "-".repeat(3 * g.columns as usize));
    for row in (0..g.rows).rev() {
        write_row(&mut out, s, row, (threat, capture), color);
    }
    let _ = writeln!(out, "    +{}+", "-".repeat(3 * g.columns as usize));
    let _ = writeln!(out, "     {files}");
    write_status(&mut out, s);
    out
}

/// Draws one row of the board: its number, each square (a piece, a
/// threatened square `*`, a capturable piece in brackets) and whose camp it
/// is; `marks` are the squares the mover threatens and can capture on.
fn write_row(out: &mut String, s: &LagerState, row: u8, marks: (u128, u128), color: bool) {
    let g = s.geometry();
    let (threat, capture) = marks;
    let camp = if row == g.camp_row(1) {
        Some(1)
    } else if row == g.camp_row(0) {
        Some(0)
    } else {
        None
    };
    let _ = write!(out, "{:>3} |", row as u32 + 1);
    for col in 0..g.columns {
        let sq = Square::new(col, row);
        let bit = 1u128 << g.index(sq);
        let cell = match s.piece_at(sq) {
            Some((p, piece)) => {
                let letter = piece_letter(p, piece).to_string();
                let letter = paint(&letter, piece_color(piece), color);
                if capture & bit != 0 {
                    format!("({letter})")
                } else {
                    format!(" {letter} ")
                }
            }
            None if threat & bit != 0 => paint(" * ", "1;35", color),
            None if camp.is_some() => paint(" - ", "2", color),
            None => paint(" . ", "2", color),
        };
        out.push_str(&cell);
    }
    out.push('|');
    if let Some(p) = camp {
        let _ = write!(out, " {}'s camp", PLAYER_NAMES[p]);
    }
    out.push('\n');
}

/// Writes each player's pieces off the board, the key to the letters, and
/// the game's end or whose turn it is.
fn write_status(out: &mut String, s: &LagerState) {
    let g = s.geometry();
    let mover = s.mover();
    for p in 0..2 {
        let blockade = match s.blockade_location(p) {
            Location::Unplayed => "in hand".to_string(),
            Location::At(sq) => format!("on {sq}"),
            Location::Out => "knocked out".into(),
        };
        let _ = writeln!(
            out,
            "{:<5} ({}): unplayed {} · out {} · on board {}/3 · blockade {} · in {}'s camp {}/2",
            PLAYER_NAMES[p],
            if p == 0 { "upper case" } else { "lower case" },
            letters(s, p, Location::Unplayed),
            letters(s, p, Location::Out),
            s.stones_on_board(p),
            blockade,
            PLAYER_NAMES[1 - p],
            s.stones_in_camp(p, 1 - p),
        );
    }
    let _ = writeln!(
        out,
        "B blue (1-2 straight ahead)  Y yellow (1-2 diagonally ahead)  K black (1 diagonally)  \
         W white (1 any way)  R blockade"
    );
    match s.end() {
        Some(end) => {
            let _ = writeln!(out, "game over: {}", end_text(end));
        }
        None => {
            let _ = writeln!(
                out,
                "* = square {} threatens, (x) = piece {} can knock out",
                PLAYER_NAMES[mover], PLAYER_NAMES[mover]
            );
            let repeat = match s.occurrences() {
                1 => String::new(),
                n => format!(" (this position for the {} time)", ordinal(n)),
            };
            let _ = writeln!(
                out,
                "{} to move{repeat}: place (B@{}), move (c2-c3), capture (b2xc3) or blockade (R@c4)",
                PLAYER_NAMES[mover],
                Square::new(0, g.camp_row(mover))
            );
        }
    }
}

fn ordinal(n: usize) -> String {
    match n {
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
