//! Observation tensors: a fixed-length vector of floats per game and
//! options, made from the engine's observation for one viewer (so it never
//! holds what that viewer may not see). Absolute seats; the viewer and the
//! player to move are one-hot.

use serde_json::Value;
use spelbord_engine::Viewer;

/// Players the tensors reserve room for (the most any game seats).
const SEATS: usize = 5;

/// Appends features to a vector.
struct Features<'a>(&'a mut Vec<f32>);

impl Features<'_> {
    fn num(&mut self, value: f64) {
        self.0.push(value as f32);
    }
    fn field(&mut self, obs: &Value, key: &str, scale: f64) {
        self.num(obs[key].as_f64().unwrap_or(0.0) / scale);
    }
    fn flag(&mut self, on: bool) {
        self.0.push(if on { 1.0 } else { 0.0 });
    }
    /// One-hot of `index` among `n` (all zeros when `None` or out of range).
    fn one_hot(&mut self, index: Option<usize>, n: usize) {
        for i in 0..n {
            self.flag(index == Some(i));
        }
    }
    /// One-hot of a word among `words`.
    fn word(&mut self, value: &Value, words: &[&str]) {
        let index = value
            .as_str()
            .and_then(|s| words.iter().position(|w| *w == s));
        self.one_hot(index, words.len());
    }
    /// The viewer and whose turn it is: chance, over, or a player.
    fn turn_and_viewer(&mut self, obs: &Value, viewer: Viewer) {
        let turn = &obs["turn"];
        self.flag(turn == "chance");
        self.flag(turn == "over");
        self.one_hot(turn["player"].as_u64().map(|p| p as usize), SEATS);
        self.one_hot(
            match viewer {
                Viewer::Player(p) => Some(p),
                Viewer::Spectator => None,
            },
            SEATS,
        );
    }
    /// Two dice as one-hots (zeros when there are none).
    fn dice(&mut self, dice: &Value) {
        for i in 0..2 {
            let die = dice[i].as_u64().filter(|d| (1..=6).contains(d));
            self.one_hot(die.map(|d| d as usize - 1), 6);
        }
    }
    /// A set of cards, by card index.
    fn cards(&mut self, cards: &Value) {
        let start = self.0.len();
        self.0.resize(start + CARDS, 0.0);
        for card in cards.as_array().into_iter().flatten() {
            if let Some(i) = card.as_str().and_then(card_index) {
                self.0[start + i] = 1.0;
            }
        }
    }
}

/// Card slots: 13 ranks in each of 4 suits.
const CARDS: usize = 52;
const SUITS: &str = "CDHS";
const RANKS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// The slot of a card written like `10C` or `AS`.
fn card_index(text: &str) -> Option<usize> {
    let suit = SUITS.find(text.get(text.len().checked_sub(1)?..)?)?;
    let rank = RANKS.iter().position(|r| *r == &text[..text.len() - 1])?;
    Some(suit * RANKS.len() + rank)
}

/// Writes the tensor of observation `obs` of game `game` into `out`.
pub fn encode(game: &str, obs: &Value, viewer: Viewer, out: &mut Vec<f32>) {
    out.clear();
    let mut f = Features(out);
    f.turn_and_viewer(obs, viewer);
    match game {
        "tawla" | "backgammon" => tables(&mut f, obs),
        "high-gammon" | "tric-trac" => high_gammon(&mut f, obs),
        "stumphog" => stumphog(&mut f, obs),
        "stortok" => stortok(&mut f, obs),
        "lager" => lager(&mut f, obs),
        _ => {}
    }
}

/// Tawla and backgammon: checkers per point and player (on top and pinned
/// under), bar, off, phase, dice, cube and match.
fn tables(f: &mut Features, obs: &Value) {
    let board = &obs["board"];
    for layer in ["top", "under"] {
        for side in [1.0, -1.0] {
            for point in 0..24 {
                let n = board[layer][point].as_f64().unwrap_or(0.0) * side;
                f.num(n.max(0.0) / 15.0);
            }
        }
    }
    for key in ["bar", "off"] {
        for side in 0..2 {
            f.num(board[key][side].as_f64().unwrap_or(0.0) / 15.0);
        }
    }
    f.word(
        &obs["phase"],
        &[
            "opening",
            "colour_choice",
            "cube_decision",
            "cube_response",
            "rolling",
            "moving",
            "over",
        ],
    );
    f.dice(&obs["dice"]);
    f.num(obs["cube"].as_f64().unwrap_or(1.0).max(1.0).log2() / 6.0);
    f.one_hot(obs["cube_owner"].as_u64().map(|p| p as usize), 2);
    f.flag(obs["cube_enabled"] == true);
    f.field(obs, "match_to", 25.0);
    for side in 0..2 {
        f.num(obs["score"][side].as_f64().unwrap_or(0.0) / 25.0);
    }
    f.flag(obs["crawford_game"] == true);
}

/// High-O Gammon and Tric-Trac: stones per field and player, each player's
/// seat (colour, HG-5) and counts, phase, dice and stake.
fn high_gammon(f: &mut Features, obs: &Value) {
    for field in 0..28 {
        for p in 0..4 {
            f.num(obs["fields"][field][p].as_f64().unwrap_or(0.0) / 9.0);
        }
    }
    for p in 0..4 {
        let player = &obs["players"][p];
        for key in ["on_board", "bar", "off", "waiting"] {
            f.field(player, key, 9.0);
        }
        f.field(player, "pips", 200.0);
        f.flag(player["active"] == true);
        f.one_hot(player["seat"].as_u64().map(|seat| seat as usize), 4);
    }
    f.one_hot(obs["mover"].as_u64().map(|p| p as usize), 4);
    f.word(
        &obs["phase"],
        &[
            "opening",
            "colour_choice",
            "cube_decision",
            "cube_response",
            "rolling",
            "moving",
            "over",
        ],
    );
    f.dice(&obs["dice"]);
    f.flag(obs["again"] == true);
    f.num(obs["cube"].as_f64().unwrap_or(1.0).max(1.0).log2() / 6.0);
}

/// Stumphög: stones per pile, the hog, Ute, Stumpen, stones in hand, phase and dice.
fn stumphog(f: &mut Features, obs: &Value) {
    for row in 0..2 {
        for col in 0..7 {
            f.num(obs["rows"][row][col].as_f64().unwrap_or(0.0) / 10.0);
        }
    }
    for key in ["hog", "ute"] {
        for side in 0..2 {
            f.num(obs[key][side].as_f64().unwrap_or(0.0) / 55.0);
        }
    }
    f.field(obs, "stumpen", 10.0);
    f.field(obs, "in_hand", 10.0);
    for side in 0..2 {
        f.flag(obs["stumpvarning"][side] == true);
    }
    f.one_hot(obs["side"].as_u64().map(|s| s as usize), 2);
    f.word(&obs["phase"], &["opening", "rolling", "acting", "over"]);
    f.dice(&obs["dice"]);
    let cap = obs["rules"]["turn_cap"].as_f64().unwrap_or(1.0).max(1.0);
    f.field(obs, "turns", cap);
}

/// Stortok: the viewer's hand, the table, the discards, the cards each
/// player is known to hold, hand sizes, the turned card and the trumps.
fn stortok(f: &mut Features, obs: &Value) {
    f.cards(&obs["hand"]);
    f.cards(&obs["table"]);
    f.cards(&obs["discarded"]);
    for p in 0..SEATS {
        f.cards(&obs["known"][p]);
    }
    for p in 0..SEATS {
        f.num(obs["hand_sizes"][p].as_f64().unwrap_or(0.0) / 13.0);
    }
    f.cards(&Value::Array(vec![obs["turned"].clone()]));
    f.word(&obs["high_trump"], &["C", "D", "H", "S"]);
    f.word(&obs["low_trump"], &["C", "D", "H", "S"]);
    f.word(&obs["phase"], &["deal", "draw", "play", "over"]);
    f.field(obs, "stock", 52.0);
    f.flag(obs["turned_in_stock"] == true);
}

/// Läger: one plane per piece letter over the board's squares (row 1
/// first), then the game's progress.
fn lager(f: &mut Features, obs: &Value) {
    const LETTERS: &str = "BYKWRbykwr";
    let rows = obs["board"].as_array().cloned().unwrap_or_default();
    let squares: Vec<char> = rows
        .iter()
        .rev()
        .flat_map(|row| row.as_str().unwrap_or("").chars().collect::<Vec<_>>())
        .collect();
    for letter in LETTERS.chars() {
        for &c in &squares {
            f.flag(c == letter);
        }
    }
    for p in 0..2 {
        f.field(&obs["players"][p], "in_opponent_camp", 4.0);
    }
    let cap = obs["max_plies"].as_f64().unwrap_or(1.0).max(1.0);
    f.field(obs, "plies", cap);
    f.field(obs, "occurrences", 3.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_have_distinct_slots() {
        let mut seen = std::collections::BTreeSet::new();
        for s in SUITS.chars() {
            for r in RANKS {
                let i = card_index(&format!("{r}{s}")).expect("a card");
                assert!(i < CARDS && seen.insert(i));
            }
        }
        assert_eq!(card_index("1X"), None);
        assert_eq!(card_index(""), None);
    }
}
