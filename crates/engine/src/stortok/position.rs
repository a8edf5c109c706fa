//! Stortok's position notation (see `docs/engine.md`): the full state,
//! hidden cards included, for setting up a deal or a game in progress; not
//! something to show a player.
//!
//! `HANDS TABLE PHASE MOVER [key=value ...] [options]`:
//! - `HANDS`: each seat's hand, `/` between seats, cards separated by
//!   commas (`10S,QH`), `-` for an empty hand;
//! - `TABLE`: the table's cards, bottom first (`-`: none);
//! - `PHASE`: `deal`, `draw`, `play` or `over`; `MOVER`: the seat to act
//!   (during a draw, the seat that draws);
//! - `known`: the cards of each hand everyone knows are there (like
//!   `HANDS`); `turned`: the turned trump card, with `,stock` while it
//!   still lies face up under the stock; `discarded`: cards out of play;
//! - `after_draw`, `dealt`, `plies`, `trick_start`, `trick_played` (seats
//!   separated by commas), `last` (who played the top card), `loser`,
//!   `capped=1`, `resigned=1` (the loser resigned): the rest of the turn
//!   cycle.
//!
//! Every card of the deck in no other place is in the stock (face down,
//! unordered). What the last action did (for its events) is not part of a
//! position.

use super::cards::{Card, Cards, mask_of};
use super::{Phase, Stortok, StortokState};
use crate::error::{Error, PositionError};
use crate::game::{Game, MAX_PLAYERS};
use crate::options::Options;
use crate::position::{Fields, bad_position, from_position_json, option_fields, read};
use std::fmt;
use std::str::FromStr;

fn cards_text(mask: u64) -> String {
    match mask {
        0 => "-".into(),
        m => Cards(m)
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(","),
    }
}

fn seats_text(masks: &[u64]) -> String {
    masks
        .iter()
        .map(|&m| cards_text(m))
        .collect::<Vec<_>>()
        .join("/")
}

fn read_cards(field: &'static str, text: &str) -> Result<Vec<Card>, PositionError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|t| {
            t.parse().map_err(|e: String| PositionError::Unreadable {
                field,
                text: t.into(),
                expected: e,
            })
        })
        .collect()
}

/// A set of distinct cards.
fn read_set(field: &'static str, text: &str) -> Result<u64, PositionError> {
    let mut mask = 0;
    for c in read_cards(field, text)? {
        if mask & c.bit() != 0 {
            return Err(PositionError::Overlap(format!("the card {c}")));
        }
        mask |= c.bit();
    }
    Ok(mask)
}

fn read_seats(
    field: &'static str,
    text: &str,
    n: usize,
) -> Result<[u64; MAX_PLAYERS], PositionError> {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != n {
        return Err(PositionError::Size {
            what: if field == "hands" {
                "hands"
            } else {
                "known cards"
            },
            expected: n,
            found: parts.len(),
        });
    }
    let mut masks = [0; MAX_PLAYERS];
    for (p, t) in parts.iter().enumerate() {
        masks[p] = read_set(field, t)?;
    }
    Ok(masks)
}

fn seat(field: &'static str, text: &str, n: usize) -> Result<u8, PositionError> {
    let p: u8 = read(field, text, "a seat number")?;
    if p as usize >= n {
        return Err(PositionError::Unreadable {
            field,
            text: text.into(),
            expected: format!("a seat 0..{n}"),
        });
    }
    Ok(p)
}

/// A `0`/`1` field; absent is `0`.
fn flag(
    keyed: &std::collections::BTreeMap<&'static str, &str>,
    field: &'static str,
) -> Result<bool, PositionError> {
    match keyed.get(field).copied() {
        None | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(t) => Err(PositionError::Unreadable {
            field,
            text: t.into(),
            expected: "0 or 1".into(),
        }),
    }
}

impl fmt::Display for StortokState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n as usize;
        let table: Vec<String> = self.table().iter().map(Card::to_string).collect();
        let phase = match self.phase {
            Phase::Deal => "deal",
            Phase::Draw => "draw",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        write!(
            f,
            "{} {} {phase} {}",
            seats_text(&self.hands[..n]),
            if table.is_empty() {
                "-".into()
            } else {
                table.join(",")
            },
            self.to_move
        )?;
        if self.known[..n].iter().any(|&k| k != 0) {
            write!(f, " known={}", seats_text(&self.known[..n]))?;
        }
        if let Some(c) = self.turned {
            let under = if self.turned_in_stock { ",stock" } else { "" };
            write!(f, " turned={c}{under}")?;
        }
        if self.discards != 0 {
            write!(f, " discarded={}", cards_text(self.discards))?;
        }
        for (key, value) in [
            ("after_draw", self.after_draw as u32),
            ("dealt", self.dealt as u32),
            ("plies", self.plies),
            ("trick_start", self.trick_start as u32),
        ] {
            if value != 0 {
                write!(f, " {key}={value}")?;
            }
        }
        if self.trick_played != 0 {
            let seats: Vec<String> = (0..n)
                .filter(|p| self.trick_played >> p & 1 == 1)
                .map(|p| p.to_string())
                .collect();
            write!(f, " trick_played={}", seats.join(","))?;
        }
        if let Some(p) = self.last {
            write!(f, " last={p}")?;
        }
        if let Some(p) = self.loser {
            write!(f, " loser={p}")?;
        }
        if self.capped {
            f.write_str(" capped=1")?;
        }
        if self.resigned {
            f.write_str(" resigned=1")?;
        }
        for o in option_fields(Stortok::option_specs(), &self.options()) {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

impl StortokState {
    fn options(&self) -> Options {
        let pairs = [
            ("players", self.n.to_string()),
            ("version", self.version.name().to_string()),
            ("cap", self.cap.to_string()),
        ];
        Options::from_map(
            Stortok::ID,
            Stortok::option_specs(),
            pairs.map(|(k, v)| (k.to_string(), v)),
        )
        .unwrap_or_default()
    }
}

impl FromStr for StortokState {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        parse(text).map_err(|reason| bad_position(text, reason))
    }
}

impl<'de> serde::Deserialize<'de> for StortokState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        from_position_json(d)
    }
}

/// Reads a position written as this module's text says.
fn parse(text: &str) -> Result<StortokState, PositionError> {
    let mut fields = Fields::split(text, &["HANDS", "TABLE", "PHASE", "MOVER"])?;
    let mut keyed = std::collections::BTreeMap::new();
    for key in [
        "known",
        "turned",
        "discarded",
        "after_draw",
        "dealt",
        "plies",
        "trick_start",
        "trick_played",
        "last",
        "loser",
        "capped",
        "resigned",
    ] {
        if let Some(v) = fields.take(key) {
            keyed.insert(key, v);
        }
    }
    let options = fields.options(Stortok::ID, Stortok::option_specs())?;
    let game = Stortok::from_options(&options).map_err(|e| PositionError::Option(e.to_string()))?;
    let mut s = game.initial_state();
    let n = s.n as usize;
    let f = &fields.fixed;
    s.hands = read_seats("hands", f[0], n)?;
    if let Some(t) = keyed.get("known") {
        s.known = read_seats("known", t, n)?;
    }
    let table = read_cards("table", f[1])?;
    s.phase = read_phase(f[2])?;
    s.to_move = seat("mover", f[3], n)?;
    if let Some(t) = keyed.get("turned") {
        let (card, under) = read_turned(t)?;
        s.turned = Some(card);
        s.turned_in_stock = under;
    }
    if let Some(t) = keyed.get("discarded") {
        s.discards = read_set("discarded", t)?;
    }
    let number = |key: &'static str| -> Result<u32, PositionError> {
        keyed
            .get(key)
            .map_or(Ok(0), |t| read(key, t, "a whole number"))
    };
    s.after_draw = match keyed.get("after_draw") {
        Some(t) => seat("after_draw", t, n)?,
        None => 0,
    };
    s.dealt = number("dealt")?.min(u8::MAX as u32) as u8;
    s.plies = number("plies")?;
    s.trick_start = number("trick_start")?.min(u8::MAX as u32) as u8;
    if let Some(t) = keyed.get("trick_played") {
        for p in t.split(',') {
            s.trick_played |= 1 << seat("trick_played", p, n)?;
        }
    }
    s.last = keyed.get("last").map(|t| seat("last", t, n)).transpose()?;
    s.loser = keyed
        .get("loser")
        .map(|t| seat("loser", t, n))
        .transpose()?;
    s.capped = flag(&keyed, "capped")?;
    s.resigned = flag(&keyed, "resigned")?;
    place_cards(&mut s, table)?;
    if !s.is_consistent() {
        return Err(PositionError::Inconsistent(
            "the cards, the deal and the turn do not fit together under the rules".into(),
        ));
    }
    Ok(s)
}

/// The phase: deal, draw, play or over.
fn read_phase(t: &str) -> Result<Phase, PositionError> {
    Ok(match t {
        "deal" => Phase::Deal,
        "draw" => Phase::Draw,
        "play" => Phase::Play,
        "over" => Phase::Over,
        t => {
            return Err(PositionError::Unreadable {
                field: "phase",
                text: t.into(),
                expected: "deal, draw, play or over".into(),
            });
        }
    })
}

/// The turned-up card, and whether it lies under the stock (`,stock`).
fn read_turned(t: &str) -> Result<(Card, bool), PositionError> {
    let (card, under) = match t.split_once(',') {
        Some((c, "stock")) => (c, true),
        Some(_) => {
            return Err(PositionError::Unreadable {
                field: "turned",
                text: t.to_string(),
                expected: "a card, with `,stock` while it lies under the stock".into(),
            });
        }
        None => (t, false),
    };
    Ok((read_cards("turned", card)?[0], under))
}

/// Checks that every card of the hands, the discards, the turned card and
/// `table` is in one place of the deck, makes the rest the stock and lays
/// `table` on the pile.
fn place_cards(s: &mut StortokState, table: Vec<Card>) -> Result<(), PositionError> {
    let n = s.n as usize;
    // Every card in one place; the rest of the deck is the stock.
    let deck = s.version.deck();
    let under = match (s.turned_in_stock, s.turned) {
        (true, Some(c)) => c.bit(),
        _ => 0,
    };
    let mut seen = 0u64;
    let table_mask = mask_of(&table);
    let parts = s.hands[..n].iter().copied().chain([s.discards, under]);
    for (i, part) in parts.chain(table.iter().map(|c| c.bit())).enumerate() {
        if part & seen != 0 {
            return Err(PositionError::Overlap(format!(
                "the card {}",
                cards_text(part & seen)
            )));
        }
        if part & !deck != 0 {
            return Err(PositionError::Inconsistent(format!(
                "{} {} not in the {} deck (part {i})",
                cards_text(part & !deck),
                if (part & !deck).count_ones() == 1 {
                    "is"
                } else {
                    "are"
                },
                s.version.name()
            )));
        }
        seen |= part;
    }
    debug_assert_eq!(seen & table_mask, table_mask);
    s.stock = deck & !seen;
    for c in table {
        if s.pile_len as usize >= 52 {
            break;
        }
        s.push(c);
    }
    Ok(())
}

impl StortokState {
    /// Everything the rules look at: the state without the memory of the
    /// last action and with only the cards on the table.
    fn cmp_key(&self) -> impl PartialEq + std::hash::Hash + '_ {
        (
            (self.version, self.n, self.cap, self.plies, self.phase),
            (self.to_move, self.after_draw, self.dealt),
            (self.hands, self.known, self.stock),
            (self.turned, self.turned_in_stock, self.table()),
            (self.trick_start, self.trick_played, self.last),
            (self.discards, self.loser, self.capped, self.resigned),
        )
    }
}

impl PartialEq for StortokState {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_key() == other.cmp_key()
    }
}

impl Eq for StortokState {}

impl std::hash::Hash for StortokState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.cmp_key().hash(h);
    }
}
