//! Position notation: a game's state written as one line of text, as FEN
//! is for chess. Every game's state implements `Display` (the text) and
//! `FromStr` (a validated setup: wrong counts, overlapping pieces, bad
//! sizes and parts that do not fit are typed errors). The fields of each
//! game are described in `docs/engine.md`.
//!
//! A position is a list of fields separated by spaces: first the game's
//! fixed fields in order, then `key=value` fields, which are either the
//! position's own (e.g. `off=3,0`) or the game's options (e.g. `cube=on`;
//! options at their default are left out).

use crate::error::{Error, PositionError};
use crate::options::{OptionSpec, Options};
use serde::{Deserialize, Deserializer, Serialize};
use std::str::FromStr;

/// A position's text split into its fixed fields and its `key=value` fields.
#[derive(Debug)]
pub struct Fields<'a> {
    /// The fixed fields, in order.
    pub fixed: Vec<&'a str>,
    keyed: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    /// Splits `text` at spaces; `fixed` names the fixed fields the game's
    /// notation has, for the error when their number is wrong.
    pub fn split(text: &'a str, fixed: &[&str]) -> Result<Self, PositionError> {
        let (keyed, plain): (Vec<&str>, Vec<&str>) =
            text.split_whitespace().partition(|t| t.contains('='));
        if plain.len() != fixed.len() {
            return Err(PositionError::FieldCount {
                expected: fixed.join(" "),
                found: plain.len(),
            });
        }
        Ok(Fields {
            fixed: plain,
            keyed: keyed
                .into_iter()
                .filter_map(|t| t.split_once('='))
                .collect(),
        })
    }

    /// Removes and returns the value of the position's own field `key`.
    pub fn take(&mut self, key: &str) -> Option<&'a str> {
        let i = self.keyed.iter().position(|&(k, _)| k == key)?;
        Some(self.keyed.remove(i).1)
    }

    /// The remaining `key=value` fields read as the game's options.
    pub fn options(&self, game: &str, specs: &[OptionSpec]) -> Result<Options, PositionError> {
        let pairs = self.keyed.iter().map(|&(k, v)| (k.into(), v.into()));
        Options::from_map(game, specs, pairs).map_err(|e| PositionError::Option(e.to_string()))
    }
}

/// The options that differ from their defaults, as `key=value` fields.
pub fn option_fields(specs: &[OptionSpec], options: &Options) -> Vec<String> {
    specs
        .iter()
        .filter(|s| options.get(s.key) != s.default)
        .map(|s| format!("{}={}", s.key, options.get(s.key)))
        .collect()
}

/// Reads a number (or anything `FromStr`) in the field `field`.
pub fn read<T: FromStr>(
    field: &'static str,
    text: &str,
    expected: &str,
) -> Result<T, PositionError> {
    text.parse().map_err(|_| PositionError::Unreadable {
        field,
        text: text.into(),
        expected: expected.into(),
    })
}

/// Reads a comma-separated list of `n` entries with `entry`.
pub fn read_list<T>(
    what: &'static str,
    text: &str,
    n: usize,
    entry: impl Fn(&str) -> Result<T, PositionError>,
) -> Result<Vec<T>, PositionError> {
    let items: Vec<&str> = if text.is_empty() {
        Vec::new()
    } else {
        text.split(',').collect()
    };
    if items.len() != n {
        return Err(PositionError::Size {
            what,
            expected: n,
            found: items.len(),
        });
    }
    items.into_iter().map(entry).collect()
}

/// The error for `text` that is no valid position.
pub fn bad_position(text: &str, reason: PositionError) -> Error {
    Error::BadPosition {
        text: text.into(),
        reason,
    }
}

/// A state's JSON: its view beside its position text, from which it is read
/// back ([`from_position_json`]).
#[derive(Serialize)]
pub struct WithPosition<V: Serialize> {
    /// The view of the state.
    #[serde(flatten)]
    pub view: V,
    /// The state in position notation.
    pub position: String,
}

/// Reads a state from its JSON by its `position` field.
pub fn from_position_json<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr<Err = Error>,
{
    #[derive(Deserialize)]
    struct Text {
        position: String,
    }
    let Text { position } = Text::deserialize(d)?;
    position.parse().map_err(serde::de::Error::custom)
}
