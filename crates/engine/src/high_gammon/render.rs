//! The square board drawn as text: four sides of six points, a rest field
//! in each corner, the viewer's own side at the bottom; then the bar, off,
//! stake and each player's counts.

use super::geometry::{ANSI, COLOURS, LETTERS, field, goal_labels, is_rest, start_label};
use super::rules::Scoring;
use super::state::{HgState, Phase};
use crate::game::{GameState, Viewer};
use std::fmt::Write;

const CORNER: usize = 10;
const POINT: usize = 5;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color && !code.is_empty() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Pads `text` (whose visible width is `visible`) to `width`, centred.
fn centre(text: &str, visible: usize, width: usize) -> String {
    let pad = width.saturating_sub(visible);
    let left = pad / 2;
    format!("{}{}{}", " ".repeat(left), text, " ".repeat(pad - left))
}

/// Pads on the right.
fn left(text: &str, visible: usize, width: usize) -> String {
    format!("{}{}", text, " ".repeat(width.saturating_sub(visible)))
}

struct Painter<'a> {
    s: &'a HgState,
    color: bool,
}

impl Painter<'_> {
    /// Stones on ring field r: e.g. `B2`, or `B3R1` on a rest field; `.`
    /// when empty. Returns the text and its visible width.
    fn stones(&self, r: usize) -> (String, usize) {
        let mut text = String::new();
        let mut width = 0;
        for p in 0..self.s.num_players() {
            let c = self.s.board().cnt[r][p];
            if c > 0 {
                let seat = self.s.seat(p) as usize;
                let t = format!("{}{}", LETTERS[seat], c);
                width += t.len();
                text.push_str(&paint(&t, ANSI[seat], self.color));
            }
        }
        if width == 0 {
            (paint(".", "2", self.color), 1)
        } else {
            (text, width)
        }
    }

    /// The number of ring field r, with "rest" for a corner.
    fn number(&self, r: usize) -> (String, usize) {
        let text = if is_rest(r) {
            format!("{} rest", r + 1)
        } else {
            format!("{}", r + 1)
        };
        let w = text.len();
        (text, w)
    }

    /// The mark of ring field r: `B>` on Blue's start point, `[B]` on a
    /// goal point of Blue's; empty otherwise.
    fn tag(&self, r: usize) -> (String, usize) {
        for p in 0..self.s.num_players() {
            let seat = self.s.seat(p);
            let letter = LETTERS[seat as usize];
            let tag = if field(seat, 0) == r {
                format!("{letter}>")
            } else if goal_labels(seat).contains(&(r + 1)) {
                format!("[{letter}]")
            } else {
                continue;
            };
            let w = tag.len();
            return (paint(&tag, ANSI[seat as usize], self.color), w);
        }
        (String::new(), 0)
    }

    /// A field on the left or right side: number, mark, then stones.
    fn side_cell(&self, r: usize) -> (String, usize) {
        let (n, _) = self.number(r);
        let (t, tv) = self.tag(r);
        let (st, sv) = self.stones(r);
        let head = format!("{n:>2} {t}");
        let hv = 3 + tv;
        let gap = CORNER.saturating_sub(hv + sv + 1).max(1);
        (format!("{head}{}{st} ", " ".repeat(gap)), hv + gap + sv + 1)
    }
}

/// Draws the state for `viewer` (spectators see Blue's side at the bottom).
pub fn render(s: &HgState, viewer: Viewer, color: bool) -> String {
    let me = match viewer {
        Viewer::Player(p) if p < s.num_players() => s.seat(p) as usize,
        _ => 0,
    };
    let pt = Painter { s, color };
    // sides: bottom = my side, then counter-clockwise: right, top, left
    let side = |k: usize| (me + k) % 4;
    let points = |sd: usize| (0..6).map(move |i| 7 * sd + i);
    let rest = |sd: usize| 7 * sd + 6;
    let bottom: Vec<usize> = points(side(0)).collect();
    let right: Vec<usize> = points(side(1)).rev().collect(); // top to bottom
    let top: Vec<usize> = points(side(2)).rev().collect(); // right to left, drawn left to right
    let left_col: Vec<usize> = points(side(3)).collect(); // top to bottom
    let (c_br, c_tr, c_tl, c_bl) = (rest(side(0)), rest(side(1)), rest(side(2)), rest(side(3)));
    let inner = 6 * (POINT + 1) - 1;

    let mut out = String::new();
    let game = if s.rules().tric {
        "Tric-Trac"
    } else {
        "High-O Gammon"
    };
    let mut opts = format!(
        "{} players, doubles: {}",
        s.num_players(),
        s.rules().doubles.word()
    );
    if !s.rules().tric {
        let _ = write!(opts, ", scoring: {}", s.rules().scoring.word());
    }
    let _ = writeln!(out, "{game} — {opts}");

    let rule = format!(
        "+{}+{}+{}+\n",
        "-".repeat(CORNER),
        vec!["-".repeat(POINT); 6].join("+"),
        "-".repeat(CORNER)
    );
    // a band of corner, six points, corner; three lines: numbers, marks, stones
    let band = |out: &mut String, first: usize, six: &[usize], last: usize| {
        out.push_str(&rule);
        for line in 0..3 {
            let cell = |r: usize, w: usize| {
                let (t, v) = match line {
                    0 => pt.number(r),
                    1 => pt.tag(r),
                    _ => pt.stones(r),
                };
                centre(&t, v, w)
            };
            out.push('|');
            out.push_str(&cell(first, CORNER));
            for &r in six {
                out.push('|');
                out.push_str(&cell(r, POINT));
            }
            out.push('|');
            out.push_str(&cell(last, CORNER));
            out.push_str("|\n");
        }
        out.push_str(&rule);
    };
    band(&mut out, c_tl, &top, c_tr);

    // the middle: side columns with the bar, off, stake and dice between
    let middle = middle_lines(s, color);
    for i in 0..6 {
        let (m, mv) = middle.get(i).cloned().unwrap_or_default();
        let (l, lv) = pt.side_cell(left_col[i]);
        let (r, rv) = pt.side_cell(right[i]);
        let _ = writeln!(
            out,
            "|{}|{}|{}|",
            left(&l, lv, CORNER),
            left(&format!(" {m}"), mv + 1, inner),
            left(&r, rv, CORNER),
        );
    }
    band(&mut out, c_bl, &bottom, c_br);
    let _ = writeln!(
        out,
        "  B> Blue's start point   [B] Blue's goal points   stones move counter-clockwise"
    );

    // one line per player
    for p in 0..s.num_players() {
        let seat = s.seat(p);
        let b = s.board();
        let name = paint(
            &format!("{:<6} {}", COLOURS[seat as usize], LETTERS[seat as usize]),
            ANSI[seat as usize],
            color,
        );
        let g = goal_labels(seat);
        let mut line = format!(
            "  {name}  start {:>2}  goal {:>2} {:>2} {:>2} | board {} bar {} ",
            start_label(seat),
            g[0],
            g[1],
            g[2],
            b.on_ring(p),
            b.bar[p]
        );
        if s.rules().tric {
            let _ = write!(
                line,
                "waiting {} | on goal {}",
                b.pool[p],
                b.on_goal(p, seat)
            );
        } else {
            let _ = write!(line, "off {}", b.off[p]);
        }
        let _ = write!(line, " | pips {}", s.pips(p));
        if let Some(stake) = s.dropped_at(p) {
            let _ = write!(line, " | dropped out at stake {stake}");
        }
        if viewer == Viewer::Player(p) {
            line.push_str(" | you");
        }
        if s.winner() == Some(p) {
            line.push_str(" | WINNER");
        } else if s.winner().is_none()
            && s.mover() == p
            && !matches!(s.phase(), Phase::Opening { .. })
        {
            line.push_str("  <- to move");
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{}", status(s));
    out
}

/// The lines in the middle of the board (text, visible width).
fn middle_lines(s: &HgState, color: bool) -> Vec<(String, usize)> {
    let n = s.num_players();
    let b = s.board();
    let mut lines = Vec::new();
    let list = |what: &dyn Fn(usize) -> u8| {
        let mut t = String::new();
        let mut w = 0;
        for p in 0..n {
            let seat = s.seat(p) as usize;
            let item = format!(" {}{}", LETTERS[seat], what(p));
            w += item.len();
            t.push_str(&paint(&item, ANSI[seat], color));
        }
        (t, w)
    };
    let (t, w) = list(&|p| b.bar[p]);
    lines.push((format!("bar:{t}"), 4 + w));
    if s.rules().tric {
        let (t, w) = list(&|p| b.pool[p]);
        lines.push((format!("waiting:{t}"), 8 + w));
    } else {
        let (t, w) = list(&|p| b.off[p]);
        lines.push((format!("off:{t}"), 4 + w));
    }
    if !s.rules().tric && s.rules().scoring == Scoring::Cube {
        let text = format!(
            "cube: {}{}",
            s.cube_value(),
            // The opening's double is the whole stake only until players double.
            if s.opening_doubled() && s.cube_value() == 2 {
                " (doubled by the opening)"
            } else {
                ""
            }
        );
        let w = text.len();
        lines.push((text, w));
    }
    let dice = match s.phase() {
        Phase::Moving { dice } => format!("dice: {}-{} (smaller first)", dice[0], dice[1]),
        Phase::Rolling { again: true } => "rolls again after a double".into(),
        _ => String::new(),
    };
    if !dice.is_empty() {
        let w = dice.len();
        lines.push((dice, w));
    }
    lines
}

fn status(s: &HgState) -> String {
    let name = |p: usize| COLOURS[s.seat(p) as usize];
    let mover = name(s.mover());
    match s.phase() {
        Phase::Over => {
            // HG-15: the winner first, even when the win pays nothing.
            let w = s.winner().unwrap_or(0);
            let pay = s.payments();
            let total: u32 = pay.iter().sum();
            let others: Vec<String> = (0..s.num_players())
                .filter(|&q| q != w)
                .map(|q| format!("{} pays {}", name(q), pay[q]))
                .collect();
            format!(
                "game over: {} wins, {total} {} ({})",
                name(w),
                if total == 1 { "point" } else { "points" },
                others.join(", ")
            )
        }
        Phase::Opening { rolling, first } => {
            let who: Vec<&str> = (0..s.num_players())
                .filter(|&p| rolling >> p & 1 == 1)
                .map(name)
                .collect();
            if first {
                format!(
                    "opening roll: {} each roll one die; the highest starts",
                    who.join(", ")
                )
            } else {
                format!(
                    "opening roll again between {} (tied for highest)",
                    who.join(" and ")
                )
            }
        }
        Phase::ColourChoice => format!(
            "{mover} rolled highest: choose your colour, your place at the table \
             (`choose Blue`, …); the others keep their turn order after you"
        ),
        Phase::CubeDecision => format!(
            "{mover}: `roll`, or `double` the stake to {}",
            2 * s.cube_value()
        ),
        Phase::CubeResponse { responder } => format!(
            "{}: {mover} doubles to {}: `accept`, or `drop` and pay {}",
            name(responder as usize),
            2 * s.cube_value(),
            s.cube_value()
        ),
        Phase::Rolling { again } => format!(
            "{mover} to roll{}",
            if again { " again (a double)" } else { "" }
        ),
        Phase::Moving { dice } => format!(
            "{mover} to play {}-{}: the {} first (moves like 1/3 3/8, bar/4, {}; or pass)",
            dice[0],
            dice[1],
            dice[0],
            if s.rules().tric { "in/2" } else { "19/off" }
        ),
    }
}

#[cfg(test)]
pub(super) fn plain(s: &HgState) -> String {
    render(s, Viewer::Spectator, false)
}
