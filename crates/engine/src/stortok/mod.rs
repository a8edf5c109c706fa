//! Stortok: the Swedish beating card game with two trump suits, in four
//! versions (1847, 1858, Schenkmanis, Helmfrid). Rules STO-1..STO-16, see
//! `docs/rules/stortok.md`.
//!
//! The deal is dealt one card at a time by chance (outcomes: every face-down
//! card, uniform), and so is each draw from the stock, so the stock has no
//! order until a card is drawn. Each player's observation holds only what he
//! may see; [`StortokObservation::sample_state`] deals the unseen cards at
//! random from one observation alone (for determinized search).

mod cards;
mod heuristic;
mod notation;
mod observe;
mod position;
#[cfg(test)]
mod props;
mod render;
mod rules;
#[cfg(test)]
mod sampler_props;
mod tensor;
#[cfg(test)]
mod tests;
mod valid;

pub use cards::{Card, Cards, DECK_36, DECK_52, Kind, Suit, Trumps};
pub use heuristic::SETTLE_AFTER;
pub use observe::StortokObservation;
pub use tensor::STORTOK_TENSOR_LEN;

use crate::error::Result;
use crate::game::{Game, MAX_PLAYERS};
use crate::options::{OptionKind, OptionSpec, Options};
use serde::{Deserialize, Serialize};

/// Which of the four versions is played (option `version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Version {
    /// Lindskog 1847 (STO-6..STO-9): tricks stay on the table, the whole
    /// pile is picked up.
    #[serde(rename = "1847")]
    Lindskog1847,
    /// Öberg 1858 (STO-10, STO-11): 52 cards all dealt, no tricks, no stock.
    #[serde(rename = "1858")]
    Oberg1858,
    /// Schenkmanis, 20th century (STO-12..STO-14): the turned card opens the
    /// first trick, tricks are set aside, only the top card is picked up.
    #[serde(rename = "schenkmanis")]
    Schenkmanis,
    /// Schenkmanis with Sten Helmfrid's correction (STO-15): the 1847 start.
    #[serde(rename = "helmfrid")]
    Helmfrid,
}

impl Version {
    /// The option values, in order.
    pub const NAMES: [&'static str; 4] = ["1847", "1858", "schenkmanis", "helmfrid"];

    /// The version named by an option value.
    pub fn from_name(name: &str) -> Option<Version> {
        Some(match name {
            "1847" => Version::Lindskog1847,
            "1858" => Version::Oberg1858,
            "schenkmanis" => Version::Schenkmanis,
            "helmfrid" => Version::Helmfrid,
            _ => return None,
        })
    }

    /// The option value naming this version.
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The deck: 52 cards in 1858, else 36 (STO-1, STO-6, STO-10).
    pub const fn deck(self) -> u64 {
        match self {
            Version::Oberg1858 => DECK_52,
            _ => DECK_36,
        }
    }

    /// Whether there is a stock to draw from (all but 1858).
    pub const fn has_stock(self) -> bool {
        !matches!(self, Version::Oberg1858)
    }

    /// Whether play is in tricks (all but 1858, STO-11).
    pub const fn has_tricks(self) -> bool {
        !matches!(self, Version::Oberg1858)
    }

    /// Whether a player who declines picks up the whole pile (1847, 1858)
    /// rather than only the top card (STO-14).
    pub const fn picks_whole_pile(self) -> bool {
        matches!(self, Version::Lindskog1847 | Version::Oberg1858)
    }

    /// Whether completed tricks are set aside (STO-13) rather than staying
    /// on the table (STO-7).
    pub const fn sets_tricks_aside(self) -> bool {
        matches!(self, Version::Schenkmanis | Version::Helmfrid)
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Chance deals the next card (or turns the trump).
    Deal,
    /// Chance gives the player who just played the top card of the stock.
    Draw,
    /// A player leads, beats or picks up.
    Play,
    /// The game is over.
    Over,
}

/// The seat that deals (STO-6): seat 0 in a single game. Forehand is seat 1.
pub const DEALER: u8 = 0;

/// Notable facts about the last player action, for [`crate::Notation::events`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Events {
    /// The seat that acted.
    actor: u8,
    /// Cards picked up (0: none).
    picked: u8,
    /// Cards set aside (out of play).
    set_aside: u8,
    /// A trick was completed.
    trick_done: bool,
    /// Players who went out.
    out: u8,
    /// The card the actor drew from the stock (seen by him alone).
    drew: Option<Card>,
}

/// A Stortok state: a small `Copy` value. Card sets are bitmasks. Two
/// states are equal when their positions are: what the last action did,
/// kept for its events, does not count.
#[derive(Clone, Copy, Debug)]
pub struct StortokState {
    version: Version,
    n: u8,
    cap: u32,
    /// Player actions so far (chance not counted).
    plies: u32,
    phase: Phase,
    /// The player to act; during a draw, the player who draws.
    to_move: u8,
    /// The player to act once the draw is done.
    after_draw: u8,
    /// Cards dealt so far (the turned trump included).
    dealt: u8,
    hands: [u64; MAX_PLAYERS],
    /// Cards in each hand that everyone knows are there (picked up, or the
    /// face-up trump taken into the hand).
    known: [u64; MAX_PLAYERS],
    /// Face-down cards not in any hand: undealt, then the stock (the turned
    /// trump not included).
    stock: u64,
    /// The turned card that fixed the trumps.
    turned: Option<Card>,
    /// Whether the turned card still lies face up under the stock.
    turned_in_stock: bool,
    /// The table, bottom first.
    pile: [Card; 52],
    pile_len: u8,
    /// Where the current trick starts in the pile.
    trick_start: u8,
    /// Seats that have played to the current trick (bits).
    trick_played: u8,
    /// Who played the top card of the pile.
    last: Option<u8>,
    /// Cards set aside, out of play (STO-13, STO-14).
    discards: u64,
    /// The stortok, when the game is over and has a loser.
    loser: Option<u8>,
    /// Whether the game stopped at the safety cap.
    capped: bool,
    /// Whether the loser resigned (rather than being left with cards).
    resigned: bool,
    events: Events,
}

/// The game Stortok with its options.
#[derive(Clone, Debug, PartialEq)]
pub struct Stortok {
    /// The version played.
    pub version: Version,
    /// Number of players, 2..=5.
    pub players: u8,
    /// Safety cap on player actions.
    pub cap: u32,
}

/// The default safety cap on player actions (see option `cap`).
pub const DEFAULT_CAP: u32 = 5000;

static OPTION_SPECS: [OptionSpec; 3] = [
    OptionSpec {
        key: "players",
        default: "3",
        kind: OptionKind::Int { min: 2, max: 5 },
        help: "number of players, 2 to 5 (STO-1)",
    },
    OptionSpec {
        key: "version",
        default: "1847",
        kind: OptionKind::Choice {
            values: &Version::NAMES,
        },
        help: "1847 (Lindskog), 1858 (Öberg, 52 cards), schenkmanis (20th c.) or helmfrid (corrected start)",
    },
    OptionSpec {
        key: "cap",
        default: "5000",
        kind: OptionKind::Int {
            min: 50,
            max: 1_000_000,
        },
        help: "safety cap: pick-ups can cycle forever, so after this many turns the game stops with no loser",
    },
];

impl Game for Stortok {
    type State = StortokState;
    const ID: &'static str = "stortok";
    const NAME: &'static str = "Stortok";
    const SUMMARY: &'static str =
        "Swedish beating card game with a high and a low trump; the last one holding cards loses";
    const PLAYERS: (usize, usize) = (2, 5);
    const RULES: &'static str = include_str!("../../../../docs/rules/stortok.md");
    const HIDDEN_INFORMATION: bool = true;

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn from_options(options: &Options) -> Result<Self> {
        Ok(Stortok {
            version: Version::from_name(options.get("version")).unwrap_or(Version::Lindskog1847),
            players: options.int("players").clamp(2, 5) as u8,
            cap: options.int("cap").clamp(50, 1_000_000) as u32,
        })
    }

    fn initial_state(&self) -> StortokState {
        StortokState::new(self.version, self.players as usize, self.cap)
    }

    fn num_players(&self) -> usize {
        (self.players as usize).clamp(2, MAX_PLAYERS)
    }
}
