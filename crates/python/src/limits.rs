//! Each game's bounds in OpenSpiel's terms: how many action ids, chance
//! outcome ids and plies there can be.

use spelbord_engine::Options;

/// Bounds of one game with its options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Action ids are below this (a decision's legal actions are 0..n).
    pub num_distinct_actions: usize,
    /// Chance outcome ids are below this.
    pub max_chance_outcomes: usize,
    /// The most actions, chance included, a game can last; for the games
    /// without a cap in their rules, a bound far above any game seen.
    pub max_game_length: usize,
    /// The smallest and largest return any player can get.
    pub utility: (f64, f64),
}

/// The bounds of game `id` with `options`.
pub fn limits(id: &str, options: &Options) -> Limits {
    let cube = 64.0;
    match id {
        // A turn's play is one action; random play (300 games) saw at most
        // 828 legal plays and games of 548 plies.
        "tawla" | "backgammon" => Limits {
            num_distinct_actions: 4096,
            max_chance_outcomes: 30,
            max_game_length: 10_000,
            utility: if id == "tawla" {
                (-2.0 * cube, 2.0 * cube)
            } else {
                (-3.0 * cube, 3.0 * cube)
            },
        },
        // Random play saw at most 75 legal plays and games of 1,799 plies.
        "high-gammon" | "tric-trac" => Limits {
            num_distinct_actions: 1024,
            max_chance_outcomes: 6 * 6 * 6 * 6,
            max_game_length: 50_000,
            utility: (-500.0, 500.0),
        },
        "stumphog" => Limits {
            num_distinct_actions: 64,
            max_chance_outcomes: 36,
            max_game_length: 4 * options.int("turns").max(1) as usize + 4,
            utility: (-1.0, 1.0),
        },
        // A hand holds at most the 52 cards, plus picking up; the cap counts
        // player turns, and each card is dealt or drawn at most once.
        "stortok" => Limits {
            num_distinct_actions: 64,
            max_chance_outcomes: 52,
            max_game_length: options.int("cap").max(1) as usize + 53,
            utility: (-1.0, 1.0),
        },
        // Places (4 stones, one camp row), moves and a blockade on any free
        // square of the largest board (99 squares) stay below 256.
        _ => Limits {
            num_distinct_actions: 256,
            max_chance_outcomes: 0,
            max_game_length: options.int("max_plies").max(1) as usize,
            utility: (-1.0, 1.0),
        },
    }
}
