//! How a finished game came out: who won (or the ranking, or a draw), and
//! how it ended in the game's own terms, beside the payoff in the returns.

use crate::game::{MAX_PLAYERS, Player};
use serde::{Deserialize, Serialize};

/// How a game ended, in the game's own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Tables: the winner bore off first; the loser had borne off.
    Single,
    /// Tables: the loser had borne off none.
    Gammon,
    /// Backgammon: a gammon with a loser's checker on the bar or in the winner's home.
    Backgammon,
    /// Tawla (TAW-11): the winner pinned the opponent's mother.
    Mother,
    /// Tawla (TAW-11): both mothers pinned at once; a draw.
    BothMothers,
    /// Tables: neither player can ever move again; a draw.
    DeadPosition,
    /// A player refused a double and lost the stake (every opponent, in High-O Gammon).
    Dropped,
    /// A match was won (the last game's own ending is in the record).
    Match,
    /// High-O Gammon (HG-15): the winner bore off all his stones.
    BorneOff,
    /// Tric-Trac (TT-4): the winner filled his goal points.
    GoalPoints,
    /// Stumphög (STU-17): the loser had no stones in Hög nor Ute.
    DriedOut,
    /// Stumphög (STU-17): both dried out by the same action; a draw.
    BothDriedOut,
    /// Stumphög (STU-16): the winner's Ute passed the threshold (past 40).
    UteThreshold,
    /// A turn or ply cap ended the game; a draw.
    TurnCap,
    /// Läger (LAG-9): the winner has two stones in the opponent's camp.
    Camp,
    /// Läger (LAG-10): the loser had no action on his turn.
    NoMove,
    /// Läger (LAG-11): a position occurred a third time; a draw.
    Repetition,
    /// Stortok (STO-4): the last player holding cards is the stortok and loses.
    Stortok,
    /// A player resigned (or forfeited, or lost on time).
    Resigned,
}

/// A finished game's result: each player's place (0 is first, equal places
/// are ties) and how the game ended. A small `Copy` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    places: [u8; MAX_PLAYERS],
    len: u8,
    ending: Ending,
}

impl Outcome {
    /// `winner` first, every other player second.
    pub fn winner(players: usize, winner: Player, ending: Ending) -> Self {
        let mut places = [1; MAX_PLAYERS];
        places[winner] = 0;
        Self::ranking(&places[..players], ending)
    }

    /// `loser` last, every other player first.
    pub fn loser(players: usize, loser: Player, ending: Ending) -> Self {
        let mut places = [0; MAX_PLAYERS];
        places[loser] = 1;
        Self::ranking(&places[..players], ending)
    }

    /// Everyone shares first place.
    pub fn draw(players: usize, ending: Ending) -> Self {
        Self::ranking(&[0; MAX_PLAYERS][..players], ending)
    }

    /// Each player's place (0 is first; equal places are ties).
    pub fn ranking(places: &[u8], ending: Ending) -> Self {
        assert!(places.len() <= MAX_PLAYERS, "at most {MAX_PLAYERS} players");
        let mut p = [0; MAX_PLAYERS];
        p[..places.len()].copy_from_slice(places);
        Outcome {
            places: p,
            len: places.len() as u8,
            ending,
        }
    }

    /// How the game ended.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Each player's place, 0 first.
    pub fn places(&self) -> &[u8] {
        &self.places[..self.len as usize]
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.len as usize
    }

    /// Whether every player shares the same place.
    pub fn is_draw(&self) -> bool {
        let places = self.places();
        places.iter().all(|&p| p == places[0])
    }

    /// The one player alone in first place, if there is one.
    pub fn sole_winner(&self) -> Option<Player> {
        let places = self.places();
        let best = *places.iter().min()?;
        let mut first = places.iter().enumerate().filter(|&(_, &p)| p == best);
        let (w, _) = first.next()?;
        first.next().is_none().then_some(w)
    }

    /// The one player alone in last place, if there is one (the stortok).
    pub fn sole_loser(&self) -> Option<Player> {
        let places = self.places();
        let worst = *places.iter().max()?;
        let mut last = places.iter().enumerate().filter(|&(_, &p)| p == worst);
        let (l, _) = last.next()?;
        last.next().is_none().then_some(l)
    }

    /// Whether `player` finished in first place and the game is not a draw.
    pub fn is_winner(&self, player: Player) -> bool {
        !self.is_draw() && self.places()[player] == 0
    }

    /// `player`'s share of the other players he finished ahead of, ties
    /// counting half: 1 for a two-player win, 0.5 for a draw, 0 for a loss.
    pub fn score(&self, player: Player) -> f64 {
        let places = self.places();
        let n = places.len();
        if n < 2 {
            return 0.5;
        }
        let mine = places[player];
        let ahead: f64 = places
            .iter()
            .enumerate()
            .filter(|&(q, _)| q != player)
            .map(|(_, &theirs)| match mine.cmp(&theirs) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            })
            .sum();
        ahead / (n - 1) as f64
    }

    /// The result for `player` on the heuristic scale: 1 won, -1 lost, 0 a
    /// draw (`2 * score - 1`).
    pub fn value(&self, player: Player) -> f64 {
        2.0 * self.score(player) - 1.0
    }
}

/// The JSON form of an [`Outcome`]: what a client or a record shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct OutcomeJson<'a> {
    /// "win" (one player first), "loss" (one player last, the others
    /// share first), "ranking" or "draw".
    result: &'static str,
    winner: Option<Player>,
    loser: Option<Player>,
    places: &'a [u8],
    ending: Ending,
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let winner = self.sole_winner();
        let loser = self.sole_loser();
        let result = if self.is_draw() {
            "draw"
        } else if winner.is_some() {
            "win"
        } else if loser.is_some() {
            "loss"
        } else {
            "ranking"
        };
        OutcomeJson {
            result,
            winner: if self.is_draw() { None } else { winner },
            loser: if self.is_draw() { None } else { loser },
            places: self.places(),
            ending: self.ending,
        }
        .serialize(s)
    }
}

/// What an [`Outcome`] is read back from: its places and ending.
#[derive(Deserialize)]
struct OutcomeFields {
    places: Vec<u8>,
    ending: Ending,
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = OutcomeFields::deserialize(d)?;
        if f.places.is_empty() || f.places.len() > MAX_PLAYERS {
            return Err(serde::de::Error::custom(format!(
                "an outcome has 1 to {MAX_PLAYERS} places, not {}",
                f.places.len()
            )));
        }
        Ok(Outcome::ranking(&f.places, f.ending))
    }
}

impl Ending {
    /// The ending in a few words for players, e.g. "gammon".
    pub fn text(self) -> &'static str {
        match self {
            Ending::Single => "single game",
            Ending::Gammon => "gammon",
            Ending::Backgammon => "backgammon",
            Ending::Mother => "the mother pinned",
            Ending::BothMothers => "both mothers pinned",
            Ending::DeadPosition => "no move possible ever again",
            Ending::Dropped => "double dropped",
            Ending::Match => "match won",
            Ending::BorneOff => "all stones borne off",
            Ending::GoalPoints => "goal points filled",
            Ending::DriedOut => "dried out (uttorkad)",
            Ending::BothDriedOut => "both dried out",
            Ending::UteThreshold => "Ute past the threshold",
            Ending::TurnCap => "turn cap reached",
            Ending::Camp => "two stones in the opponent's camp",
            Ending::NoMove => "no action left",
            Ending::Repetition => "the position repeated a third time",
            Ending::Stortok => "the last one holding cards",
            Ending::Resigned => "resigned",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_player_win_scores_one_and_zero() {
        let o = Outcome::winner(2, 1, Ending::Gammon);
        assert_eq!(o.sole_winner(), Some(1));
        assert!(!o.is_draw());
        assert_eq!((o.score(0), o.score(1)), (0.0, 1.0));
        assert_eq!((o.value(0), o.value(1)), (-1.0, 1.0));
    }

    #[test]
    fn a_draw_is_worth_zero_to_everyone() {
        let o = Outcome::draw(2, Ending::TurnCap);
        assert!(o.is_draw());
        assert_eq!(o.sole_winner(), None);
        assert_eq!((o.value(0), o.value(1)), (0.0, 0.0));
        let json = serde_json::to_value(o).unwrap();
        assert_eq!(json["result"], "draw");
        assert_eq!(json["winner"], serde_json::Value::Null);
    }

    #[test]
    fn the_stortok_loses_and_the_others_share_first() {
        let o = Outcome::loser(3, 1, Ending::Stortok);
        assert_eq!(o.sole_loser(), Some(1));
        assert_eq!(o.sole_winner(), None);
        assert_eq!(&[o.score(0), o.score(1), o.score(2)], &[0.75, 0.0, 0.75]);
        let json = serde_json::to_value(o).unwrap();
        assert_eq!(json["result"], "loss");
        assert_eq!(json["loser"], 1);
        assert_eq!(json["ending"], "stortok");
    }

    #[test]
    fn a_winner_is_named_in_json_with_the_ending() {
        let o = Outcome::winner(3, 2, Ending::BorneOff);
        let json = serde_json::to_value(o).unwrap();
        assert_eq!(json["result"], "win");
        assert_eq!(json["winner"], 2);
        assert_eq!(json["places"], serde_json::json!([1, 1, 0]));
        assert_eq!(json["ending"], "borne_off");
        let back: Outcome = serde_json::from_value(json).unwrap();
        assert_eq!(back, o);
    }
}
