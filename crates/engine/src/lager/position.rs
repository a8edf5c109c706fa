//! Läger's position notation (see `docs/engine.md`):
//! `ROWS MOVER [out=...] [plies=N] [end=...] [knockout=PIECE,SQUARE]
//! [history=HEX] [options]`.
//! - `ROWS`: the board row by row, the far row (the second player's camp)
//!   first, separated by `/`; one character per square: `.` empty, `B Y K W`
//!   the first player's blue, yellow, black and white stones, `b y k w` the
//!   second player's, `R`/`r` the blockades;
//! - `MOVER`: the player to move (0 or 1);
//! - `out`: the pieces knocked out, in the same letters (`Kr`); pieces
//!   neither drawn nor out are unplayed;
//! - `plies`: plies played; `end`: how the game ended (`camp:0`,
//!   `no_action:1`, `resigned:0` (the winner), `repetition`, `ply_cap`);
//! - `knockout`: what the last action knocked out (the piece's letter and
//!   its square), for the events;
//! - `history`: the repetition window (LAG-11), one action code per ply as
//!   two hex digits, oldest first.

use super::geometry::{Geometry, Square, Stone};
use super::repetition::Window;
use super::state::{End, LagerConfig, LagerState, MAX_ON_BOARD, NO_KNOCKOUT};
use super::zobrist::{OUT, UNPLAYED};
use crate::error::{Error, PositionError};
use crate::game::Game;
use crate::position::{Fields, bad_position, from_position_json, option_fields, read};
use std::fmt;
use std::str::FromStr;

/// The letter of piece `k` (0..4 stones, 4 the blockade) of `player`.
fn letter(player: usize, k: usize) -> char {
    let c = if k == 4 { 'R' } else { Stone::ALL[k].letter() };
    if player == 0 {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// The player and piece (0..4 stones, 4 the blockade) of a letter.
fn piece_of(c: char) -> Option<(usize, usize)> {
    let player = if c.is_ascii_uppercase() { 0 } else { 1 };
    let k = match c.to_ascii_uppercase() {
        'R' => 4,
        u => Stone::ALL.iter().position(|s| s.letter() == u)?,
    };
    Some((player, k))
}

impl LagerState {
    fn piece_code(&self, player: usize, k: usize) -> u8 {
        if k == 4 {
            self.blockades[player]
        } else {
            self.stones[player][k]
        }
    }

    fn piece_slot(&mut self, player: usize, k: usize) -> &mut u8 {
        if k == 4 {
            &mut self.blockades[player]
        } else {
            &mut self.stones[player][k]
        }
    }
}

impl fmt::Display for LagerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        let rows: Vec<String> = (0..g.rows)
            .rev()
            .map(|row| {
                (0..g.columns)
                    .map(|col| {
                        let idx = g.index(Square::new(col, row));
                        (0..2)
                            .flat_map(|p| (0..5).map(move |k| (p, k)))
                            .find(|&(p, k)| self.piece_code(p, k) == idx)
                            .map_or('.', |(p, k)| letter(p, k))
                    })
                    .collect()
            })
            .collect();
        write!(f, "{} {}", rows.join("/"), self.side)?;
        let out: String = (0..2)
            .flat_map(|p| (0..5).map(move |k| (p, k)))
            .filter(|&(p, k)| self.piece_code(p, k) == OUT)
            .map(|(p, k)| letter(p, k))
            .collect();
        if !out.is_empty() {
            write!(f, " out={out}")?;
        }
        if self.plies > 0 {
            write!(f, " plies={}", self.plies)?;
        }
        match self.end() {
            None => {}
            Some(End::Camp { winner }) => write!(f, " end=camp:{winner}")?,
            Some(End::NoAction { winner }) => write!(f, " end=no_action:{winner}")?,
            Some(End::Repetition) => f.write_str(" end=repetition")?,
            Some(End::PlyCap) => f.write_str(" end=ply_cap")?,
            Some(End::Resigned { winner }) => write!(f, " end=resigned:{winner}")?,
        }
        if self.knockout != NO_KNOCKOUT {
            let [piece, at] = self.knockout;
            let l = letter((piece >> 3) as usize & 1, (piece & 7).min(4) as usize);
            write!(f, " knockout={l},{}", g.square(at))?;
        }
        let codes = self.window.codes();
        if !codes.is_empty() {
            let hex: String = codes.iter().map(|c| format!("{c:02x}")).collect();
            write!(f, " history={hex}")?;
        }
        for o in option_fields(super::Lager::option_specs(), &self.config.options()) {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

impl FromStr for LagerState {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        parse(text).map_err(|reason| bad_position(text, reason))
    }
}

impl<'de> serde::Deserialize<'de> for LagerState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_position_json(d)
    }
}

/// Reads a position written as this module's text says.
fn parse(text: &str) -> Result<LagerState, PositionError> {
    let mut fields = Fields::split(text, &["ROWS", "MOVER"])?;
    let out = fields.take("out").unwrap_or("");
    let plies = fields.take("plies");
    let end = fields.take("end");
    let knockout = fields.take("knockout");
    let history = fields.take("history").unwrap_or("");
    let options = fields.options(super::Lager::ID, super::Lager::option_specs())?;
    let config = super::Lager::from_options(&options)
        .map_err(|e| PositionError::Option(e.to_string()))?
        .config();
    let mut s = LagerState::new(config);
    let g = s.geometry();
    read_rows(&mut s, fields.fixed[0])?;
    for c in out.chars() {
        place(&mut s, c, OUT)?;
    }
    let side: usize = read("mover", fields.fixed[1], "0 or 1")?;
    if side > 1 {
        return Err(PositionError::Unreadable {
            field: "mover",
            text: side.to_string(),
            expected: "0 or 1".into(),
        });
    }
    s.side = side as u8;
    for p in 0..2 {
        let on = s.stones_on_board(p);
        if on > MAX_ON_BOARD {
            return Err(PositionError::Count {
                player: p,
                what: "stones on the board",
                expected: MAX_ON_BOARD as u32,
                found: on as u32,
            });
        }
    }
    if let Some(t) = plies {
        s.plies = read("plies", t, "the plies played")?;
    }
    if s.plies > config.max_plies {
        return Err(PositionError::Inconsistent(format!(
            "{} plies played under a cap of {}",
            s.plies, config.max_plies
        )));
    }
    s.end = match end {
        None => 0,
        Some(t) => read_end(t)?.code(),
    };
    if let Some(t) = knockout {
        s.knockout = read_knockout(t, g)?;
    }
    let codes = read_history(history, s.plies)?;
    s.hash = s.compute_hash();
    let template = s;
    s.window = Window::rebuild(&codes, s.stones, side, g.columns, |stones, side| {
        let mut t = template;
        t.stones = stones;
        t.side = side as u8;
        t.compute_hash()
    });
    check(&s).map_err(PositionError::Inconsistent)?;
    Ok(s)
}

/// Places the pieces of the board's rows (top row first, `/` between
/// them) on `s`.
fn read_rows(s: &mut LagerState, text: &str) -> Result<(), PositionError> {
    let g = s.geometry();
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != g.rows as usize {
        return Err(PositionError::Size {
            what: "board's rows",
            expected: g.rows as usize,
            found: rows.len(),
        });
    }
    for (i, line) in rows.iter().enumerate() {
        let row = g.rows - 1 - i as u8;
        let squares: Vec<char> = line.chars().collect();
        if squares.len() != g.columns as usize {
            return Err(PositionError::Size {
                what: "board's row",
                expected: g.columns as usize,
                found: squares.len(),
            });
        }
        for (col, &c) in squares.iter().enumerate() {
            if c != '.' {
                let idx = g.index(Square::new(col as u8, row));
                place(s, c, idx)?;
                s.occupied |= 1u128 << idx;
            }
        }
    }
    Ok(())
}

/// Puts the piece of letter `c` at location `code` (a square or out);
/// each piece once.
fn place(s: &mut LagerState, c: char, code: u8) -> Result<(), PositionError> {
    let (p, k) = piece_of(c).ok_or_else(|| PositionError::Unreadable {
        field: "board",
        text: c.to_string(),
        expected: ". or a piece letter (B Y K W R, lower case for the second player)".into(),
    })?;
    let slot = s.piece_slot(p, k);
    if *slot != UNPLAYED {
        return Err(PositionError::Overlap(format!("the piece `{c}`")));
    }
    *slot = code;
    Ok(())
}

/// The last knockout as the state keeps it: the piece and its square.
fn read_knockout(t: &str, g: Geometry) -> Result<[u8; 2], PositionError> {
    let bad = || PositionError::Unreadable {
        field: "knockout",
        text: t.into(),
        expected: "a piece letter and its square such as k,c3".into(),
    };
    let (c, sq) = t.split_once(',').ok_or_else(bad)?;
    let mut chars = c.chars();
    let (p, k) = chars.next().and_then(piece_of).ok_or_else(bad)?;
    let sq: Square = sq.parse().map_err(|_| bad())?;
    if chars.next().is_some() || !g.contains(sq) {
        return Err(bad());
    }
    Ok([k as u8 | (p as u8) << 3, g.index(sq)])
}

/// The repetition window's codes, two hex digits a ply, at most `plies`.
fn read_history(history: &str, plies: u16) -> Result<Vec<u8>, PositionError> {
    let codes = (0..history.len() / 2)
        .map(|i| u8::from_str_radix(history.get(2 * i..2 * i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()
        .filter(|c| 2 * c.len() == history.len())
        .ok_or_else(|| PositionError::Unreadable {
            field: "history",
            text: history.into(),
            expected: "two hex digits per ply".into(),
        })?;
    if codes.len() > plies as usize {
        return Err(PositionError::Inconsistent(format!(
            "a history of {} plies after {} plies",
            codes.len(),
            plies
        )));
    }
    Ok(codes)
}

fn read_end(text: &str) -> Result<End, PositionError> {
    let bad = || PositionError::Unreadable {
        field: "end",
        text: text.into(),
        expected: "camp:P, no_action:P, resigned:P (the winner), repetition or ply_cap".into(),
    };
    let winner = |t: &str| match t {
        "0" => Ok(0),
        "1" => Ok(1),
        _ => Err(bad()),
    };
    Ok(match text.split_once(':') {
        Some(("camp", w)) => End::Camp { winner: winner(w)? },
        Some(("no_action", w)) => End::NoAction { winner: winner(w)? },
        Some(("resigned", w)) => End::Resigned { winner: winner(w)? },
        _ if text == "repetition" => End::Repetition,
        _ if text == "ply_cap" => End::PlyCap,
        _ => return Err(bad()),
    })
}

/// Whether the pieces, the turn and the end fit together.
fn check(s: &LagerState) -> Result<(), String> {
    let in_camp = [s.stones_in_camp(0, 1), s.stones_in_camp(1, 0)];
    match s.end() {
        Some(End::Camp { winner }) if in_camp[winner] < 2 => Err(format!(
            "player {winner} won in the camp with fewer than two stones there"
        )),
        Some(End::PlyCap) if s.plies < s.config.max_plies => {
            Err("a game ended by the ply cap before the cap".into())
        }
        None if in_camp.iter().any(|&n| n >= 2) => {
            Err("two stones in the opponent's camp, but the game goes on".into())
        }
        None if !s.has_action(s.mover()) => {
            Err("the player to move has no action, but the game goes on".into())
        }
        None if s.plies >= s.config.max_plies => {
            Err("the ply cap is reached, but the game goes on".into())
        }
        _ => Ok(()),
    }
}

impl LagerConfig {
    /// These options as the game's option values.
    pub fn options(&self) -> crate::options::Options {
        let pairs = [
            ("columns", self.geometry.columns.to_string()),
            ("rows", self.geometry.rows.to_string()),
            (
                "captured",
                match self.captured {
                    super::Captured::Out => "out".to_string(),
                    super::Captured::Return => "return".to_string(),
                },
            ),
            ("max_plies", self.max_plies.to_string()),
            (
                "opening",
                if self.stone_first { "stone" } else { "any" }.to_string(),
            ),
        ];
        crate::options::Options::from_map(
            super::Lager::ID,
            super::Lager::option_specs(),
            pairs.map(|(k, v)| (k.to_string(), v)),
        )
        .unwrap_or_default()
    }
}
