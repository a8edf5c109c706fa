//! Each game's bounds in OpenSpiel's terms: how many action ids and chance
//! outcome ids there can be (the most plies is the engine's
//! `GameState::max_game_length`).

/// Bounds of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Action ids are below this (a decision's legal actions are 0..n).
    pub num_distinct_actions: usize,
    /// Chance outcome ids are below this.
    pub max_chance_outcomes: usize,
    /// The smallest and largest return any player can get.
    pub utility: (f64, f64),
}

/// The bounds of game `id`.
pub fn limits(id: &str) -> Limits {
    let cube = 64.0;
    match id {
        // A turn's play is one action; random play (300 games) saw at most
        // 828 legal plays.
        "tawla" | "backgammon" => Limits {
            num_distinct_actions: 4096,
            max_chance_outcomes: 30,
            utility: if id == "tawla" {
                (-2.0 * cube, 2.0 * cube)
            } else {
                (-3.0 * cube, 3.0 * cube)
            },
        },
        // Random play saw at most 75 legal plays.
        "high-gammon" | "tric-trac" => Limits {
            num_distinct_actions: 1024,
            max_chance_outcomes: 6 * 6 * 6 * 6,
            utility: (-500.0, 500.0),
        },
        "stumphog" => Limits {
            num_distinct_actions: 64,
            max_chance_outcomes: 36,
            utility: (-1.0, 1.0),
        },
        // A hand holds at most the 52 cards, plus picking up.
        "stortok" => Limits {
            num_distinct_actions: 64,
            max_chance_outcomes: 52,
            utility: (-1.0, 1.0),
        },
        // Places (4 stones, one camp row), moves and a blockade on any free
        // square of the largest board (99 squares) stay below 256.
        _ => Limits {
            num_distinct_actions: 256,
            max_chance_outcomes: 0,
            utility: (-1.0, 1.0),
        },
    }
}
