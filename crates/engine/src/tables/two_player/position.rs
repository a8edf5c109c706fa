//! Position notation of the two-player tables games (Tawla, backgammon).
//!
//! `POINTS MOVER PHASE [bar=a,b] [off=a,b] [stake=V] [owner=P] [score=a,b]
//! [crawford=game|after] [last=W,POINTS,ENDING] [options]`:
//! - `POINTS`: 24 counts separated by commas, the first player's points 1
//!   to 24; positive counts are the first player's checkers, negative the
//!   second's; a pinned checker under the top is written after a slash
//!   (`2/-1`: two of the first player's on one of the second's, Tawla);
//! - `MOVER`: the player whose turn it is (0 or 1); while a double is
//!   answered, the doubler;
//! - `PHASE`: `opening`, `cube_decision`, `cube_response`, `rolling`, the
//!   dice being played (`6-5`), or `over`;
//! - `bar`, `off`: checkers on the bar and borne off per player;
//! - `stake` and `owner`: the cube's value and who owns it;
//! - `score`, `crawford`: the match score, and whether this is the
//!   Crawford game or after it;
//! - `last`: the last finished game's winner (`draw` for none), points and
//!   ending.

use super::{Phase, TablesOptions, TablesState, TablesVariant};
use crate::error::{Error, PositionError};
use crate::outcome::Ending;
use crate::position::{Fields, bad_position, from_position_json, read, read_list};
use std::fmt;
use std::str::FromStr;

const FIXED: [&str; 3] = ["POINTS", "MOVER", "PHASE"];

impl<V: TablesVariant> fmt::Display for TablesState<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let abs = self.absolute();
        let points: Vec<String> = (0..24)
            .map(|i| match abs.under[i] {
                0 => abs.top[i].to_string(),
                u => format!("{}/{u}", abs.top[i]),
            })
            .collect();
        write!(f, "{} {} ", points.join(","), self.side)?;
        match self.phase {
            Phase::Opening => f.write_str("opening")?,
            Phase::CubeDecision => f.write_str("cube_decision")?,
            Phase::CubeResponse => f.write_str("cube_response")?,
            Phase::Rolling => f.write_str("rolling")?,
            Phase::Moving([a, b]) => write!(f, "{a}-{b}")?,
            Phase::Over => f.write_str("over")?,
        }
        if abs.bar != [0, 0] {
            write!(f, " bar={},{}", abs.bar[0], abs.bar[1])?;
        }
        if abs.off != [0, 0] {
            write!(f, " off={},{}", abs.off[0], abs.off[1])?;
        }
        if self.cube_log2 > 0 {
            write!(f, " stake={}", self.cube_value())?;
        }
        if self.cube_owner < 2 {
            write!(f, " owner={}", self.cube_owner)?;
        }
        if self.score != [0, 0] {
            write!(f, " score={},{}", self.score[0], self.score[1])?;
        }
        match self.crawford {
            1 => f.write_str(" crawford=game")?,
            2 => f.write_str(" crawford=after")?,
            _ => {}
        }
        if let Some((w, points, ending)) = self.last_game {
            let winner = match w {
                2 => "draw".to_string(),
                w => w.to_string(),
            };
            write!(f, " last={winner},{points},{}", ending_word(ending))?;
        }
        let mut options = self.variant.option_fields();
        options.extend(self.options.option_fields());
        for o in options {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

/// An ending's word, as in JSON (`gammon`, `both_mothers`).
fn ending_word(ending: Ending) -> String {
    match serde_json::to_value(ending) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{ending:?}"),
    }
}

fn read_ending(text: &str) -> Result<Ending, PositionError> {
    serde_json::from_value(serde_json::Value::String(text.into())).map_err(|_| {
        PositionError::Unreadable {
            field: "ending",
            text: text.into(),
            expected: "an ending such as single, gammon or dropped".into(),
        }
    })
}

fn read_pair(field: &'static str, text: &str, max: u8) -> Result<[u8; 2], PositionError> {
    let expected = format!("two numbers 0..={max} such as 0,3");
    let v = read_list(field, text, 2, |t| read::<u8>(field, t, &expected))?;
    if v.iter().any(|&n| n > max) {
        return Err(PositionError::Unreadable {
            field,
            text: text.into(),
            expected,
        });
    }
    Ok([v[0], v[1]])
}

fn read_point(text: &str) -> Result<(i8, i8), PositionError> {
    const EXPECTED: &str = "a signed count such as 3, -2 or 1/-1";
    let (top, under) = text.split_once('/').unwrap_or((text, "0"));
    Ok((
        read::<i8>("point", top, EXPECTED)?,
        read::<i8>("point", under, EXPECTED)?,
    ))
}

fn read_phase(text: &str) -> Result<Phase, PositionError> {
    Ok(match text {
        "opening" => Phase::Opening,
        "cube_decision" => Phase::CubeDecision,
        "cube_response" => Phase::CubeResponse,
        "rolling" => Phase::Rolling,
        "over" => Phase::Over,
        dice => {
            let die = |t: &str| read::<u8>("dice", t, "dice such as 6-5").ok();
            let rolled = dice
                .split_once('-')
                .and_then(|(a, b)| Some([die(a)?, die(b)?]))
                .filter(|d| d.iter().all(|x| (1..=6).contains(x)));
            let [a, b] = rolled.ok_or_else(|| PositionError::Unreadable {
                field: "phase",
                text: text.into(),
                expected: "opening, cube_decision, cube_response, rolling, dice such as 6-5, \
                           or over"
                    .into(),
            })?;
            Phase::Moving([a.max(b), a.min(b)])
        }
    })
}

impl<V: TablesVariant> FromStr for TablesState<V> {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        if V::ID == "backgammon" && super::gnubg_id::is_gnubg_id(text) {
            let notation = super::gnubg_id::gnubg_id_to_notation(text)
                .map_err(|reason| bad_position(text, reason))?;
            return parse(&notation).map_err(|reason| bad_position(text, reason));
        }
        parse(text).map_err(|reason| bad_position(text, reason))
    }
}

/// Reads a position written as this module's text says.
fn parse<V: TablesVariant>(text: &str) -> Result<TablesState<V>, PositionError> {
    let mut fields = Fields::split(text, &FIXED)?;
    let points = read_list("points", fields.fixed[0], 24, read_point)?;
    let mut abs = super::AbsBoard::default();
    for (i, (top, under)) in points.into_iter().enumerate() {
        abs.top[i] = top;
        abs.under[i] = under;
    }
    if let Some(t) = fields.take("bar") {
        abs.bar = read_pair("bar", t, 15)?;
    }
    if let Some(t) = fields.take("off") {
        abs.off = read_pair("off", t, 15)?;
    }
    let side: u8 = read("mover", fields.fixed[1], "0 or 1")?;
    if side > 1 {
        return Err(PositionError::Unreadable {
            field: "mover",
            text: side.to_string(),
            expected: "0 or 1".into(),
        });
    }
    let phase = read_phase(fields.fixed[2])?;
    let stake = read_stake(fields.take("stake"))?;
    let owner = read_owner(fields.take("owner"))?;
    let score = match fields.take("score") {
        Some(t) => read_pair("score", t, u8::MAX)?,
        None => [0, 0],
    };
    let crawford = read_crawford(fields.take("crawford"))?;
    let last_game = fields.take("last").map(read_last).transpose()?;
    let specs = V::option_specs();
    let options = fields.options(V::ID, specs)?;
    let variant = V::from_options(&options);
    let tables = TablesOptions::from_options(&options);
    let mut board = V::board_from_absolute(&abs)?;
    if side == 1 {
        V::flip(&mut board);
    }
    let state = TablesState {
        board,
        variant,
        options: tables,
        side,
        phase,
        cube_log2: stake.trailing_zeros() as u8,
        cube_owner: owner,
        score,
        crawford,
        last_game,
    };
    state.check().map_err(PositionError::Inconsistent)?;
    Ok(state)
}

/// The cube's value (1 when not given): a power of two up to 64.
fn read_stake(text: Option<&str>) -> Result<u32, PositionError> {
    let stake: u32 = match text {
        Some(t) => read("stake", t, "the cube's value: 1, 2, 4 ... 64")?,
        None => 1,
    };
    if !stake.is_power_of_two() || stake > 1 << super::MAX_CUBE_LOG2 {
        return Err(PositionError::Unreadable {
            field: "stake",
            text: stake.to_string(),
            expected: "the cube's value: 1, 2, 4 ... 64".into(),
        });
    }
    Ok(stake)
}

/// The cube's owner, 0 or 1; 2 (in the middle) when not given.
fn read_owner(text: Option<&str>) -> Result<u8, PositionError> {
    let Some(t) = text else {
        return Ok(2);
    };
    let o: u8 = read("owner", t, "0 or 1")?;
    if o > 1 {
        return Err(PositionError::Unreadable {
            field: "owner",
            text: t.into(),
            expected: "0 or 1".into(),
        });
    }
    Ok(o)
}

/// The Crawford state as the state keeps it: 0 before, 1 the Crawford
/// game, 2 after it.
fn read_crawford(text: Option<&str>) -> Result<u8, PositionError> {
    match text {
        None => Ok(0),
        Some("game") => Ok(1),
        Some("after") => Ok(2),
        Some(t) => Err(PositionError::Unreadable {
            field: "crawford",
            text: t.into(),
            expected: "game or after".into(),
        }),
    }
}

/// The last finished game: its winner (2: a draw), points and ending.
fn read_last(t: &str) -> Result<(u8, u8, Ending), PositionError> {
    let parts: Vec<&str> = t.split(',').collect();
    let [w, points, ending] = parts[..] else {
        return Err(PositionError::Unreadable {
            field: "last",
            text: t.into(),
            expected: "winner,points,ending such as 0,2,gammon or draw,0,both_mothers".into(),
        });
    };
    let w = match w {
        "draw" => 2,
        w => read::<u8>("last", w, "0, 1 or draw")?.min(3),
    };
    if w > 2 {
        return Err(PositionError::Inconsistent(format!(
            "the last game's winner `{t}` is no player"
        )));
    }
    let points = read("last", points, "the points won")?;
    Ok((w, points, read_ending(ending)?))
}

impl<V: TablesVariant> TablesState<V> {
    /// Whether the cube, match and phase fit together.
    fn check(&self) -> Result<(), String> {
        let cube = self.options.cube;
        if !cube && (self.cube_log2 > 0 || self.cube_owner < 2) {
            return Err("a stake or cube owner without the cube (option cube=on)".into());
        }
        if (self.cube_log2 > 0) != (self.cube_owner < 2) {
            return Err("a doubled cube has an owner, a cube at 1 none".into());
        }
        if !cube && matches!(self.phase, Phase::CubeDecision | Phase::CubeResponse) {
            return Err("a cube decision without the cube (option cube=on)".into());
        }
        if self.phase == Phase::CubeDecision && !self.may_double() {
            return Err("a cube decision for a player who may not double".into());
        }
        if self.phase == Phase::CubeResponse && self.cube_log2 >= super::MAX_CUBE_LOG2 {
            return Err("a double beyond 64".into());
        }
        let m = self.options.match_to;
        if m == 0 && (self.score != [0, 0] || self.crawford != 0) {
            return Err("a match score or Crawford game without a match (option match)".into());
        }
        let reached = self.score.iter().filter(|&&s| s >= m).count();
        if m > 0 {
            if reached > 1 || (reached == 1) != (self.phase == Phase::Over) {
                return Err(format!(
                    "the score {},{} and the phase disagree in a match to {m}",
                    self.score[0], self.score[1]
                ));
            }
            if self.crawford == 1 && reached == 0 && !self.score.contains(&(m - 1)) {
                return Err("a Crawford game with nobody one point from the match".into());
            }
        }
        if self.phase == Phase::Over && self.last_game.is_none() {
            return Err("a finished game without its result (last=...)".into());
        }
        if self.phase != Phase::Over && self.options.match_to == 0 && self.last_game.is_some() {
            return Err("a result (last=...) in a single game that goes on".into());
        }
        if self.phase != Phase::Over && self.absolute().off.contains(&15) {
            return Err("a player has borne off every checker but the game goes on".into());
        }
        Ok(())
    }
}

impl<'de, V: TablesVariant> serde::Deserialize<'de> for TablesState<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_position_json(d)
    }
}
