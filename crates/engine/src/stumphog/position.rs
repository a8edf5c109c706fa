//! Stumphög's position notation (see `docs/engine.md`):
//! `ROWS STUMPEN HOG UTE MOVER PHASE [played=N] [warned=a,b] [end=...]
//! [options]`.
//! - `ROWS`: the first player's row, columns 1 to 7, then `/` and the
//!   second player's, stones per pile separated by commas;
//! - `STUMPEN`: the stones in Stumpen; `HOG`, `UTE`: each player's Hög and
//!   Ute (`27,28`);
//! - `MOVER`: the player to move (0 or 1); `PHASE`: `opening` (the roll for
//!   Stumpen), `rolling`, the dice to act on (`6-5`) or `over`;
//! - `played`: turns played; `warned`: whether each player's Stumpvarning
//!   has been announced (0 or 1 each); `end`: `past_forty:P`,
//!   `dried_out:P` (the loser), `both_dried_out` or `turn_cap`.
//!
//! What the last action did (for its events) is not part of a position.

use super::board::{Board, COLUMNS, STONES};
use super::state::{End, Phase, StumphogState};
use crate::error::{Error, PositionError};
use crate::game::Game;
use crate::options::Options;
use crate::position::{Fields, bad_position, from_position_json, option_fields, read, read_list};
use std::fmt;
use std::str::FromStr;

fn list(values: &[u8]) -> String {
    values
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for StumphogState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.board;
        write!(
            f,
            "{}/{} {} {} {} {} ",
            list(&b.rows[0]),
            list(&b.rows[1]),
            b.stumpen,
            list(&b.hog),
            list(&b.ute),
            self.side
        )?;
        match self.phase {
            Phase::Opening => f.write_str("opening")?,
            Phase::Rolling => f.write_str("rolling")?,
            Phase::Acting([a, c]) => write!(f, "{a}-{c}")?,
            Phase::Over => f.write_str("over")?,
        }
        if self.turns > 0 {
            write!(f, " played={}", self.turns)?;
        }
        if self.warned != [false, false] {
            write!(
                f,
                " warned={},{}",
                self.warned[0] as u8, self.warned[1] as u8
            )?;
        }
        match self.end {
            None => {}
            Some(End::PastForty { winner }) => write!(f, " end=past_forty:{winner}")?,
            Some(End::DriedOut { loser }) => write!(f, " end=dried_out:{loser}")?,
            Some(End::BothDriedOut) => f.write_str(" end=both_dried_out")?,
            Some(End::TurnCap) => f.write_str(" end=turn_cap")?,
            Some(End::Resigned { loser }) => write!(f, " end=resigned:{loser}")?,
        }
        for o in option_fields(super::Stumphog::option_specs(), &self.rules_options()) {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

impl StumphogState {
    fn rules_options(&self) -> Options {
        let pairs = [
            ("win".to_string(), self.rules.win.to_string()),
            ("turns".to_string(), self.rules.turn_cap.to_string()),
        ];
        Options::from_map(super::ID, super::Stumphog::option_specs(), pairs).unwrap_or_default()
    }
}

impl FromStr for StumphogState {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        parse(text).map_err(|reason| bad_position(text, reason))
    }
}

impl<'de> serde::Deserialize<'de> for StumphogState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_position_json(d)
    }
}

fn pile(text: &str) -> Result<u8, PositionError> {
    read("pile", text, "a number of stones")
}

fn pair(field: &'static str, text: &str) -> Result<[u8; 2], PositionError> {
    let v = read_list(field, text, 2, |t| read(field, t, "a number of stones"))?;
    Ok([v[0], v[1]])
}

fn parse(text: &str) -> Result<StumphogState, PositionError> {
    let mut fields = Fields::split(text, &["ROWS", "STUMPEN", "HOG", "UTE", "MOVER", "PHASE"])?;
    let turns = fields.take("played");
    let warned = fields.take("warned");
    let end = fields.take("end");
    let options = fields.options(super::ID, super::Stumphog::option_specs())?;
    let game = super::Stumphog::from_options(&options)
        .map_err(|e| PositionError::Option(e.to_string()))?;
    let mut s = game.initial_state();
    let f = &fields.fixed;
    let rows: Vec<&str> = f[0].split('/').collect();
    if rows.len() != 2 {
        return Err(PositionError::Size {
            what: "rows",
            expected: 2,
            found: rows.len(),
        });
    }
    let mut board = Board::before_setup();
    for (p, row) in rows.iter().enumerate() {
        let piles = read_list("row", row, COLUMNS, pile)?;
        board.rows[p].copy_from_slice(&piles);
    }
    board.stumpen = pile(f[1])?;
    board.hog = pair("Hög", f[2])?;
    board.ute = pair("Ute", f[3])?;
    let side: u8 = read("mover", f[4], "0 or 1")?;
    if side > 1 {
        return Err(PositionError::Unreadable {
            field: "mover",
            text: f[4].into(),
            expected: "0 or 1".into(),
        });
    }
    let phase = match f[5] {
        "opening" => Phase::Opening,
        "rolling" => Phase::Rolling,
        "over" => Phase::Over,
        dice => {
            let die = |t: &str| t.parse::<u8>().ok().filter(|d| (1..=6).contains(d));
            let [a, c] = dice
                .split_once('-')
                .and_then(|(a, c)| Some([die(a)?, die(c)?]))
                .ok_or_else(|| PositionError::Unreadable {
                    field: "phase",
                    text: dice.into(),
                    expected: "opening, rolling, dice such as 6-5, or over".into(),
                })?;
            Phase::Acting([a.max(c), a.min(c)])
        }
    };
    // STU-1, STU-4: 70 stones, two of them still in hand before the roll
    // for Stumpen.
    let in_hand = if phase == Phase::Opening { 2 } else { 0 };
    let found = board.total() + in_hand;
    if found != STONES {
        return Err(PositionError::Count {
            player: side as usize,
            what: "stones in the game (both players)",
            expected: STONES,
            found,
        });
    }
    s.board = board;
    s.side = side;
    s.phase = phase;
    if let Some(t) = turns {
        s.turns = read("played", t, "the turns played")?;
    }
    if let Some(t) = warned {
        let w = read_list("warned", t, 2, |x| match x {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(PositionError::Unreadable {
                field: "warned",
                text: x.into(),
                expected: "0 or 1".into(),
            }),
        })?;
        s.warned = [w[0], w[1]];
    }
    s.end = match end {
        None => None,
        Some(t) => Some(read_end(t)?),
    };
    check(&s).map_err(PositionError::Inconsistent)?;
    Ok(s)
}

fn read_end(text: &str) -> Result<End, PositionError> {
    let bad = || PositionError::Unreadable {
        field: "end",
        text: text.into(),
        expected: "past_forty:P, dried_out:P, resigned:P, both_dried_out or turn_cap".into(),
    };
    let player = |t: &str| match t {
        "0" => Ok(0),
        "1" => Ok(1),
        _ => Err(bad()),
    };
    Ok(match text.split_once(':') {
        Some(("past_forty", p)) => End::PastForty { winner: player(p)? },
        Some(("dried_out", p)) => End::DriedOut { loser: player(p)? },
        Some(("resigned", p)) => End::Resigned { loser: player(p)? },
        _ if text == "both_dried_out" => End::BothDriedOut,
        _ if text == "turn_cap" => End::TurnCap,
        _ => return Err(bad()),
    })
}

/// Whether the set-up, the phase, the scores and the end fit together.
fn check(s: &StumphogState) -> Result<(), String> {
    let b = &s.board;
    let opening = s.phase == Phase::Opening;
    if opening != (b.stumpen == 0 && s.turns == 0) || (opening && *b != Board::before_setup()) {
        return Err("before the roll for Stumpen the board is as set up (STU-4)".into());
    }
    if (s.phase == Phase::Over) != s.end.is_some() {
        return Err("a game is over exactly when it has an end (end=...)".into());
    }
    if s.turns > s.rules.turn_cap {
        return Err(format!(
            "{} turns under a cap of {}",
            s.turns, s.rules.turn_cap
        ));
    }
    if s.end.is_none() && b.ute.iter().any(|&u| u >= s.rules.win) {
        return Err("a player is past the winning count, but the game goes on".into());
    }
    for p in 0..2 {
        if !s.warned[p] && b.ute[p] >= super::state::STUMPVARNING {
            return Err(format!("player {p} has 30 in Ute without his Stumpvarning"));
        }
    }
    Ok(())
}
