//! The options agreed before play: players, doubles and scoring.

use serde::{Deserialize, Serialize};

/// What a double (Pasch) brings (HG-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubles {
    /// Play the number twice, then roll again (default).
    Reroll,
    /// Play the number four times (backgammon).
    Repeat,
    /// Play the number twice, then the undersides (7 − n) twice.
    Underside,
}

impl Doubles {
    /// The option's word.
    pub fn word(self) -> &'static str {
        match self {
            Doubles::Reroll => "reroll",
            Doubles::Repeat => "repeat",
            Doubles::Underside => "underside",
        }
    }

    /// Reads the option's word.
    pub fn from_word(w: &str) -> Self {
        match w {
            "repeat" => Doubles::Repeat,
            "underside" => Doubles::Underside,
            _ => Doubles::Reroll,
        }
    }
}

/// How a game of High-O Gammon is scored (HG-16..HG-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// 4 points per opposing stone short of its goal points, 8 per stone on
    /// the bar (default).
    Points,
    /// Stakes with the doubling cube; players may drop out.
    Cube,
    /// Single, double or triple game per loser.
    Traditional,
}

impl Scoring {
    /// The option's word.
    pub fn word(self) -> &'static str {
        match self {
            Scoring::Points => "points",
            Scoring::Cube => "cube",
            Scoring::Traditional => "traditional",
        }
    }

    /// Reads the option's word.
    pub fn from_word(w: &str) -> Self {
        match w {
            "cube" => Scoring::Cube,
            "traditional" => Scoring::Traditional,
            _ => Scoring::Points,
        }
    }
}

/// Everything agreed before play: which game, how many, doubles, scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HgRules {
    /// Tric-Trac (TT-1..TT-4) rather than High-O Gammon.
    pub tric: bool,
    /// 2, 3 or 4 players.
    pub players: u8,
    /// What doubles bring.
    pub doubles: Doubles,
    /// How the game is scored (High-O Gammon only; Tric-Trac: the first wins).
    pub scoring: Scoring,
}

impl HgRules {
    /// The dice to play for a roll (smaller first), into `buf` (HG-8, HG-13).
    pub fn dice_list(self, dice: [u8; 2], buf: &mut [u8; 4]) -> usize {
        let (lo, hi) = (dice[0].min(dice[1]), dice[0].max(dice[1]));
        if lo != hi {
            *buf = [lo, hi, 0, 0];
            return 2;
        }
        match self.doubles {
            Doubles::Reroll => {
                *buf = [lo, lo, 0, 0];
                2
            }
            Doubles::Repeat => {
                *buf = [lo; 4];
                4
            }
            Doubles::Underside => {
                *buf = [lo, lo, 7 - lo, 7 - lo];
                4
            }
        }
    }
}
