//! Game options: declared per game with defaults, given as `key=value`.

use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::BTreeMap;

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionKind {
    /// One of a fixed list of words.
    Choice {
        /// The accepted words.
        values: &'static [&'static str],
    },
    /// A whole number in a range (inclusive).
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
}

/// One option a game accepts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OptionSpec {
    /// The key, e.g. `mother`.
    pub key: &'static str,
    /// The default value, as text.
    pub default: &'static str,
    /// The accepted values.
    #[serde(flatten)]
    pub kind: OptionKind,
    /// One line on what it does.
    pub help: &'static str,
}

impl OptionSpec {
    /// Checks one value against this option.
    pub fn check(&self, value: &str) -> Result<()> {
        let ok = match self.kind {
            OptionKind::Choice { values } => values.contains(&value),
            OptionKind::Int { min, max } => {
                value.parse::<i64>().is_ok_and(|v| (min..=max).contains(&v))
            }
        };
        if ok {
            Ok(())
        } else {
            Err(Error::BadOptionValue {
                key: self.key.into(),
                value: value.into(),
                expected: self.expected(),
            })
        }
    }

    /// The accepted values, described for a person.
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Choice { values } => format!("one of {}", values.join("|")),
            OptionKind::Int { min, max } => format!("a whole number from {min} to {max}"),
        }
    }
}

/// A complete set of option values for one game (every key present).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// Every option at its default.
    pub fn defaults(specs: &[OptionSpec]) -> Self {
        Options(
            specs
                .iter()
                .map(|s| (s.key.to_string(), s.default.to_string()))
                .collect(),
        )
    }

    /// Defaults overridden by `key=value` pairs, each checked.
    pub fn parse<S: AsRef<str>>(game: &str, specs: &[OptionSpec], pairs: &[S]) -> Result<Self> {
        let mut map = Vec::new();
        for pair in pairs {
            let pair = pair.as_ref();
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| Error::MalformedOption(pair.into()))?;
            map.push((k.trim().to_string(), v.trim().to_string()));
        }
        Self::from_map(game, specs, map)
    }

    /// Defaults overridden by the given values, each checked.
    pub fn from_map(
        game: &str,
        specs: &[OptionSpec],
        values: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self> {
        let mut options = Self::defaults(specs);
        for (k, v) in values {
            let spec = specs
                .iter()
                .find(|s| s.key == k)
                .ok_or_else(|| Error::UnknownOption {
                    game: game.into(),
                    key: k.clone(),
                    known: specs.iter().map(|s| s.key).collect::<Vec<_>>().join(", "),
                })?;
            spec.check(&v)?;
            options.0.insert(k, v);
        }
        Ok(options)
    }

    /// The value of an option as text (empty if absent).
    pub fn get(&self, key: &str) -> &str {
        self.0.get(key).map(String::as_str).unwrap_or("")
    }

    /// The value of a whole-number option (0 if absent or not a number).
    pub fn int(&self, key: &str) -> i64 {
        self.get(key).parse().unwrap_or(0)
    }

    /// All key/value pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}
