//! The position notation of High-O Gammon and Tric-Trac (see
//! `docs/engine.md`): `FIELDS MOVER PHASE [key=value ...] [options]`.
//! - `FIELDS`: the 28 ring fields in field order, separated by commas, each
//!   `0` or its stones as count and colour letter (`3B`; `B R Y G` are the
//!   seats' colours: Blue, Red, Yellow, Green);
//! - `MOVER`: the player to move, by index (the doubler while a double is
//!   answered);
//! - `PHASE`: `opening:P,Q,...` (the players rolling for the start, with
//!   `:first` in the first round), `colour_choice` (the opening winner
//!   chooses his colour), `cube_decision`, `cube_response:P`,
//!   `rolling` (`rolling:again` after a double), the dice to play smaller
//!   first (`2-5`), or `over`;
//! - `bar`, `off`, `pool` (Tric-Trac stones not yet entered): counts per
//!   player, separated by commas;
//! - `stake`: the cube's value; `dropped`: per player the stake at which he
//!   dropped out (0: still in); `winner`; `resigned`: who resigned (each
//!   also dropped out); `opening`: the dice of the last
//!   opening round (0: did not roll), with `doubled` when equal numbers
//!   doubled the stake; `colours`: each player's colour letter when they
//!   differ from the default seats (HG-5); `game=tric-trac` for Tric-Trac.
//!
//! What the last action did (for its events) is not part of a position.

use super::board::Board;
use super::geometry::{FIELDS, LETTERS, STONES, is_rest, seats};
use super::rules::HgRules;
use super::state::{HgState, MAX_CUBE_LOG2, NOBODY, Phase};
use super::{HighGammon, TricTrac};
use crate::error::{Error, PositionError};
use crate::game::Game;
use crate::options::{OptionSpec, Options};
use crate::position::{Fields, bad_position, from_position_json, option_fields, read, read_list};
use std::fmt;
use std::str::FromStr;

fn counts(values: &[u8]) -> String {
    values
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn players_text(mask: u8, n: usize) -> String {
    (0..n)
        .filter(|p| mask >> p & 1 == 1)
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl HgState {
    fn specs(&self) -> &'static [OptionSpec] {
        if self.rules.tric {
            TricTrac::option_specs()
        } else {
            HighGammon::option_specs()
        }
    }

    fn rule_options(&self) -> Options {
        let r = self.rules;
        let pairs = [
            ("players".to_string(), r.players.to_string()),
            ("doubles".to_string(), r.doubles.word().to_string()),
            ("scoring".to_string(), r.scoring.word().to_string()),
        ];
        let specs = self.specs();
        let pairs = pairs
            .into_iter()
            .filter(|(k, _)| specs.iter().any(|s| s.key == k));
        Options::from_map("high-gammon", specs, pairs).unwrap_or_default()
    }
}

impl fmt::Display for HgState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.rules.players as usize;
        let seat = &self.table[..n];
        let fields: Vec<String> = self
            .board
            .cnt
            .iter()
            .map(|field| {
                let text: String = (0..n)
                    .filter(|&p| field[p] > 0)
                    .map(|p| format!("{}{}", field[p], LETTERS[seat[p] as usize]))
                    .collect();
                if text.is_empty() { "0".into() } else { text }
            })
            .collect();
        write!(f, "{} {} ", fields.join(","), self.mover)?;
        match self.phase {
            Phase::Opening { rolling, first } => {
                write!(f, "opening:{}", players_text(rolling, n))?;
                if first {
                    f.write_str(":first")?;
                }
            }
            Phase::ColourChoice => f.write_str("colour_choice")?,
            Phase::CubeDecision => f.write_str("cube_decision")?,
            Phase::CubeResponse { responder } => write!(f, "cube_response:{responder}")?,
            Phase::Rolling { again: false } => f.write_str("rolling")?,
            Phase::Rolling { again: true } => f.write_str("rolling:again")?,
            Phase::Moving { dice: [a, b] } => write!(f, "{a}-{b}")?,
            Phase::Over => f.write_str("over")?,
        }
        let b = &self.board;
        for (key, values) in [("bar", b.bar), ("off", b.off), ("pool", b.pool)] {
            if values[..n].iter().any(|&v| v > 0) {
                write!(f, " {key}={}", counts(&values[..n]))?;
            }
        }
        if self.cube_log2 > 0 {
            write!(f, " stake={}", self.cube_value())?;
        }
        if self.dropped[..n].iter().any(|&d| d > 0) {
            let stakes: Vec<u32> = (0..n).map(|p| self.dropped_at(p).unwrap_or(0)).collect();
            let text: Vec<String> = stakes.iter().map(u32::to_string).collect();
            write!(f, " dropped={}", text.join(","))?;
        }
        if self.winner != NOBODY {
            write!(f, " winner={}", self.winner)?;
        }
        if self.resigned != 0 {
            write!(f, " resigned={}", players_text(self.resigned, n))?;
        }
        if self.opening[..n].iter().any(|&d| d > 0) || self.opening_doubled {
            write!(f, " opening={}", counts(&self.opening[..n]))?;
            if self.opening_doubled {
                f.write_str(",doubled")?;
            }
        }
        if seat != seats(n) {
            let letters: String = seat.iter().map(|&c| LETTERS[c as usize]).collect();
            write!(f, " colours={letters}")?;
        }
        if self.rules.tric {
            f.write_str(" game=tric-trac")?;
        }
        for o in option_fields(self.specs(), &self.rule_options()) {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

impl FromStr for HgState {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        parse(text).map_err(|reason| bad_position(text, reason))
    }
}

impl<'de> serde::Deserialize<'de> for HgState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_position_json(d)
    }
}

fn player(field: &'static str, text: &str, n: usize) -> Result<u8, PositionError> {
    let p: u8 = read(field, text, "a player number")?;
    if p as usize >= n {
        return Err(PositionError::Unreadable {
            field,
            text: text.into(),
            expected: format!("a player 0..{n}"),
        });
    }
    Ok(p)
}

fn per_player(field: &'static str, text: &str, n: usize) -> Result<[u8; 4], PositionError> {
    let v = read_list(field, text, n, |t| read(field, t, "a number of stones"))?;
    let mut out = [0; 4];
    out[..n].copy_from_slice(&v);
    Ok(out)
}

fn read_field(text: &str, n: usize, seat: &[u8]) -> Result<[u8; 4], PositionError> {
    let bad = || PositionError::Unreadable {
        field: "field",
        text: text.into(),
        expected: "0, or a count and a colour letter such as 3B".into(),
    };
    let mut out = [0u8; 4];
    if text == "0" {
        return Ok(out);
    }
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let count: u8 = rest[..digits].parse().map_err(|_| bad())?;
        let letter = rest[digits..].chars().next().ok_or_else(bad)?;
        let p = (0..n)
            .find(|&p| LETTERS[seat[p] as usize] == letter.to_ascii_uppercase())
            .ok_or_else(bad)?;
        if out[p] > 0 || count == 0 {
            return Err(bad());
        }
        out[p] = count;
        rest = &rest[digits + letter.len_utf8()..];
    }
    Ok(out)
}

/// Reads a position written as this module's text says.
fn parse(text: &str) -> Result<HgState, PositionError> {
    let mut fields = Fields::split(text, &["FIELDS", "MOVER", "PHASE"])?;
    let keyed: Vec<(&str, Option<&str>)> = [
        "bar", "off", "pool", "stake", "dropped", "winner", "resigned", "opening", "game",
        "colours",
    ]
    .iter()
    .map(|&k| (k, fields.take(k)))
    .collect();
    let get = |key: &str| keyed.iter().find(|(k, _)| *k == key).and_then(|(_, v)| *v);
    let rules = read_rules(get("game"), &fields)?;
    let n = rules.players as usize;
    let mut s = HgState::new(rules);
    let f = &fields.fixed;
    if let Some(t) = get("colours") {
        s.table = read_colours(t, n)?;
    }
    let seat = s.table;
    let mut board = Board::EMPTY;
    board.cnt = read_ring(f[0], n, &seat[..n])?;
    if let Some(t) = get("bar") {
        board.bar = per_player("bar", t, n)?;
    }
    if let Some(t) = get("off") {
        board.off = per_player("off", t, n)?;
    }
    if let Some(t) = get("pool") {
        board.pool = per_player("pool", t, n)?;
    }
    s.board = board;
    s.mover = player("mover", f[1], n)?;
    s.phase = read_phase(f[2], n)?;
    if let Some(t) = get("stake") {
        s.cube_log2 = read_stake(t)?;
    }
    if let Some(t) = get("dropped") {
        s.dropped = read_dropped(t, n)?;
    }
    check_stone_counts(&s, n)?;
    s.active = (0..n as u8)
        .filter(|&p| s.dropped[p as usize] == 0)
        .fold(0, |m, p| m | 1 << p);
    if let Some(t) = get("winner") {
        s.winner = player("winner", t, n)?;
    }
    if let Some(t) = get("resigned") {
        for p in t.split(',') {
            s.resigned |= 1 << player("resigned", p, n)?;
        }
    }
    if let Some(t) = get("opening") {
        (s.opening, s.opening_doubled) = read_opening(t, n)?;
    }
    check(&s).map_err(PositionError::Inconsistent)?;
    Ok(s)
}

/// The rules of the game `game` names (High-O Gammon by default) with the
/// options the position gives.
fn read_rules(game: Option<&str>, fields: &Fields) -> Result<HgRules, PositionError> {
    let tric = match game {
        None | Some("high-gammon") => false,
        Some("tric-trac") => true,
        Some(t) => {
            return Err(PositionError::Unreadable {
                field: "game",
                text: t.into(),
                expected: "high-gammon or tric-trac".into(),
            });
        }
    };
    let (id, specs) = if tric {
        (TricTrac::ID, TricTrac::option_specs())
    } else {
        (HighGammon::ID, HighGammon::option_specs())
    };
    let options = fields.options(id, specs)?;
    Ok(HgRules {
        tric,
        players: options.int("players").clamp(2, 4) as u8,
        doubles: super::Doubles::from_word(options.get("doubles")),
        scoring: if tric {
            super::Scoring::Points
        } else {
            super::Scoring::from_word(options.get("scoring"))
        },
    })
}

/// HG-5: the colour (seat) each of the `n` players chose, by letter.
fn read_colours(t: &str, n: usize) -> Result<[u8; 4], PositionError> {
    let mut chosen = [0u8; 4];
    let letters: Vec<char> = t.chars().collect();
    if letters.len() != n {
        return Err(PositionError::Size {
            what: "colours",
            expected: n,
            found: letters.len(),
        });
    }
    for (p, c) in letters.iter().enumerate() {
        let k = LETTERS
            .iter()
            .position(|l| l == c)
            .ok_or_else(|| PositionError::Unreadable {
                field: "colours",
                text: t.into(),
                expected: "one colour letter (B R Y G) per player".into(),
            })?;
        if chosen[..p].contains(&(k as u8)) {
            return Err(PositionError::Overlap(format!("the colour {c}")));
        }
        chosen[p] = k as u8;
    }
    Ok(chosen)
}

/// The stones on the ring's fields, of `n` players in these seats; only the
/// rest fields hold stones of several players (HG-3).
fn read_ring(t: &str, n: usize, seat: &[u8]) -> Result<[[u8; 4]; FIELDS], PositionError> {
    let ring = read_list("fields", t, FIELDS, |t| read_field(t, n, seat))?;
    for (r, field) in ring.iter().enumerate() {
        if !is_rest(r) && field.iter().filter(|&&c| c > 0).count() > 1 {
            return Err(PositionError::Overlap(format!("field {}", r + 1)));
        }
    }
    let mut cnt = Board::EMPTY.cnt;
    cnt.copy_from_slice(&ring);
    Ok(cnt)
}

/// The cube's value as a power of two (HG-17).
fn read_stake(t: &str) -> Result<u8, PositionError> {
    let stake: u32 = read("stake", t, "the cube's value: 1, 2, 4 ... 64")?;
    if !stake.is_power_of_two() || stake.trailing_zeros() > MAX_CUBE_LOG2 as u32 {
        return Err(PositionError::Unreadable {
            field: "stake",
            text: t.into(),
            expected: "the cube's value: 1, 2, 4 ... 64".into(),
        });
    }
    Ok(stake.trailing_zeros() as u8)
}

/// Per player the stake he dropped out at, as the state keeps it (0: still
/// in; k + 1: at 2^k).
fn read_dropped(t: &str, n: usize) -> Result<[u8; 4], PositionError> {
    let mut dropped = [0u8; 4];
    let v = read_list("dropped", t, n, |x| {
        read::<u32>("dropped", x, "a stake or 0")
    })?;
    for (p, &stake) in v.iter().enumerate() {
        if stake > 0 && (!stake.is_power_of_two() || stake.trailing_zeros() > 6) {
            return Err(PositionError::Unreadable {
                field: "dropped",
                text: t.into(),
                expected: "per player the stake he dropped at (a power of 2) or 0".into(),
            });
        }
        dropped[p] = if stake == 0 {
            0
        } else {
            stake.trailing_zeros() as u8 + 1
        };
    }
    Ok(dropped)
}

/// HG-17: each player has all his stones, but one who dropped out has
/// taken his off.
fn check_stone_counts(s: &HgState, n: usize) -> Result<(), PositionError> {
    for p in 0..n {
        let found = s.board.stones(p) as u32;
        let expected = if s.dropped[p] > 0 { 0 } else { STONES as u32 };
        if found != expected {
            return Err(PositionError::Count {
                player: p,
                what: "stones",
                expected,
                found,
            });
        }
    }
    Ok(())
}

/// The last opening round's dice, and whether they doubled the stake.
fn read_opening(t: &str, n: usize) -> Result<([u8; 4], bool), PositionError> {
    let (dice, doubled) = match t.strip_suffix(",doubled") {
        Some(d) => (d, true),
        None => (t, false),
    };
    let opening = per_player("opening", dice, n)?;
    if opening.iter().any(|&d| d > 6) {
        return Err(PositionError::Unreadable {
            field: "opening",
            text: t.into(),
            expected: "a die 0..=6 per player".into(),
        });
    }
    Ok((opening, doubled))
}

fn read_phase(text: &str, n: usize) -> Result<Phase, PositionError> {
    let bad = || PositionError::Unreadable {
        field: "phase",
        text: text.into(),
        expected: "opening:P,Q[:first], cube_decision, cube_response:P, rolling[:again], \
                   dice such as 2-5, or over"
            .into(),
    };
    Ok(match text {
        "colour_choice" => Phase::ColourChoice,
        "cube_decision" => Phase::CubeDecision,
        "rolling" => Phase::Rolling { again: false },
        "rolling:again" => Phase::Rolling { again: true },
        "over" => Phase::Over,
        _ => {
            if let Some(rest) = text.strip_prefix("opening:") {
                let (list, first) = match rest.strip_suffix(":first") {
                    Some(l) => (l, true),
                    None => (rest, false),
                };
                let mut rolling = 0u8;
                for p in list.split(',') {
                    rolling |= 1 << player("phase", p, n).map_err(|_| bad())?;
                }
                Phase::Opening { rolling, first }
            } else if let Some(p) = text.strip_prefix("cube_response:") {
                Phase::CubeResponse {
                    responder: player("phase", p, n).map_err(|_| bad())?,
                }
            } else {
                let die = |t: &str| t.parse::<u8>().ok().filter(|d| (1..=6).contains(d));
                let [a, b] = text
                    .split_once('-')
                    .and_then(|(a, b)| Some([die(a)?, die(b)?]))
                    .ok_or_else(bad)?;
                Phase::Moving {
                    dice: [a.min(b), a.max(b)],
                }
            }
        }
    })
}

/// Whether the mover, the phase, the cube and the result fit together.
fn check(s: &HgState) -> Result<(), String> {
    let r = s.rules;
    let cube = r.scoring == super::Scoring::Cube && !r.tric;
    let dropped_unresigned = (0..4).any(|p| s.dropped[p] > 0 && s.resigned >> p & 1 == 0);
    if !cube && (s.cube_log2 > 0 || dropped_unresigned) {
        return Err("a stake or a dropped player without the cube (scoring=cube)".into());
    }
    if (0..4).any(|p| s.resigned >> p & 1 == 1 && s.dropped[p] == 0) {
        return Err("a resigned player who did not leave the game (dropped=...)".into());
    }
    if !cube && matches!(s.phase, Phase::CubeDecision | Phase::CubeResponse { .. }) {
        return Err("a cube decision without the cube (scoring=cube)".into());
    }
    if !r.tric && s.board.pool.iter().any(|&p| p > 0) {
        return Err("stones waiting to enter in High-O Gammon (a Tric-Trac rule)".into());
    }
    let over = s.phase == Phase::Over;
    if over != (s.winner != NOBODY) {
        return Err("a game is over exactly when it has a winner (winner=...)".into());
    }
    if !over && !s.is_active(s.mover()) {
        return Err("the player to move has dropped out".into());
    }
    if s.active.count_ones() < if over { 1 } else { 2 } {
        return Err("too few players left in the game".into());
    }
    if let Phase::CubeResponse { responder } = s.phase
        && (responder == s.mover || !s.is_active(responder as usize))
    {
        return Err("the double is answered by the doubler or a player out".into());
    }
    if !over && (0..r.players as usize).any(|p| s.board.off[p] == STONES) {
        return Err("a player has borne off every stone but the game goes on".into());
    }
    Ok(())
}
