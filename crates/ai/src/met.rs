//! A match equity table: the chance of winning a match from each score,
//! generated (not copied from any published table) by the recursion below
//! over a simple model of a game:
//!
//! - each game is won by either player with probability ½, and a win is a
//!   gammon (two points times the cube) with probability [`GAMMON_RATE`];
//!   backgammons are left out;
//! - before the Crawford game the cube is left out (each game is worth one
//!   or two points): a model that ignores the cube's volatility, so the
//!   table is flatter than tables built from real play;
//! - the Crawford game is played without the cube;
//! - after it the trailer doubles at once in every game, so each game is
//!   worth two (or four) points to him and one to the leader, who needs
//!   one.
//!
//! The table answers scores up to [`MAX_AWAY`] points away each.

use std::sync::OnceLock;

/// The share of wins that are gammons in the model.
pub const GAMMON_RATE: f64 = 0.2;
/// The largest number of points away the table covers.
pub const MAX_AWAY: usize = 25;

/// Where a match stands with regard to the Crawford rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crawford {
    /// Neither player has yet been one point away.
    Before,
    /// This game is the Crawford game (no doubling).
    ThisGame,
    /// The Crawford game has been played.
    After,
}

struct Table {
    /// `pre[a][b]`: the chance of the player `a` away winning against one
    /// `b` away, before the Crawford game (a, b ≥ 1; a side at 1 means the
    /// next game is the Crawford game).
    pre: Vec<Vec<f64>>,
    /// `post[b]`: the trailer's chance, `b` away, against a leader one away,
    /// after the Crawford game.
    post: Vec<f64>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Table {
    let g = GAMMON_RATE;
    let n = MAX_AWAY + 1;
    let mut post = vec![0.0; n];
    let post_at = |post: &[f64], b: isize| if b <= 0 { 1.0 } else { post[b as usize] };
    post[1] = 0.5;
    for b in 2..n {
        let b = b as isize;
        post[b as usize] = 0.5 * ((1.0 - g) * post_at(&post, b - 2) + g * post_at(&post, b - 4));
    }
    // The Crawford game: the trailer `b` away, no cube.
    let crawford = |b: usize| -> f64 {
        if b == 1 {
            return 0.5;
        }
        let b = b as isize;
        0.5 * ((1.0 - g) * post_at(&post, b - 1) + g * post_at(&post, b - 2))
    };
    let mut pre = vec![vec![0.0; n]; n];
    for (a, row) in pre.iter_mut().enumerate().skip(1) {
        for (b, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = match (a, b) {
                (1, 1) => 0.5,
                (1, b) => 1.0 - crawford(b),
                (a, 1) => crawford(a),
                _ => 0.0,
            };
        }
    }
    // Fill the rest in order of the points still to play, so every score a
    // game can lead to is known.
    for total in 4..=2 * MAX_AWAY {
        for a in 2..n {
            let Some(b) = total.checked_sub(a).filter(|&b| (2..n).contains(&b)) else {
                continue;
            };
            let at = |a: isize, b: isize| -> f64 {
                if a <= 0 {
                    1.0
                } else if b <= 0 {
                    0.0
                } else {
                    pre[a as usize][b as usize]
                }
            };
            let (ai, bi) = (a as isize, b as isize);
            pre[a][b] = 0.5 * ((1.0 - g) * at(ai - 1, bi) + g * at(ai - 2, bi))
                + 0.5 * ((1.0 - g) * at(ai, bi - 1) + g * at(ai, bi - 2));
        }
    }
    Table { pre, post }
}

/// The chance that the player `away` points from winning wins the match
/// against one `other_away` points away, with the Crawford rule at
/// `crawford`. A player at 0 or less has won. Scores beyond [`MAX_AWAY`]
/// are read as [`MAX_AWAY`].
pub fn match_winning_chance(away: i32, other_away: i32, crawford: Crawford) -> f64 {
    if away <= 0 {
        return 1.0;
    }
    if other_away <= 0 {
        return 0.0;
    }
    let t = table();
    let a = (away as usize).min(MAX_AWAY);
    let b = (other_away as usize).min(MAX_AWAY);
    match (crawford, a, b) {
        (Crawford::After, 1, 1) => 0.5,
        (Crawford::After, 1, b) => 1.0 - t.post[b],
        (Crawford::After, a, 1) => t.post[a],
        _ => t.pre[a][b],
    }
}

/// Where the Crawford rule stands after a game that leaves the players
/// `away` and `other_away` points from winning, when it stood at `now`.
pub fn crawford_after(now: Crawford, away: i32, other_away: i32) -> Crawford {
    match now {
        Crawford::Before if away == 1 || other_away == 1 => Crawford::ThisGame,
        Crawford::Before => Crawford::Before,
        Crawford::ThisGame | Crawford::After => Crawford::After,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_scores_are_even_and_the_table_is_complementary() {
        for a in 1..=MAX_AWAY as i32 {
            assert!((match_winning_chance(a, a, Crawford::Before) - 0.5).abs() < 1e-12);
            for b in 1..=MAX_AWAY as i32 {
                let sum = match_winning_chance(a, b, Crawford::Before)
                    + match_winning_chance(b, a, Crawford::Before);
                assert!((sum - 1.0).abs() < 1e-9, "{a} {b}: {sum}");
            }
        }
    }

    #[test]
    fn being_closer_to_winning_is_better() {
        for a in 2..=MAX_AWAY as i32 {
            for b in 1..=MAX_AWAY as i32 {
                let closer = match_winning_chance(a - 1, b, Crawford::Before);
                let farther = match_winning_chance(a, b, Crawford::Before);
                assert!(closer > farther, "{a} {b}: {closer} <= {farther}");
            }
        }
    }

    #[test]
    fn post_crawford_trailer_two_away_wins_half_and_the_crawford_game_follows_one_away() {
        // The trailer doubles at once: one game for the match.
        assert!((match_winning_chance(2, 1, Crawford::After) - 0.5).abs() < 1e-12);
        assert_eq!(crawford_after(Crawford::Before, 1, 4), Crawford::ThisGame);
        assert_eq!(crawford_after(Crawford::ThisGame, 1, 3), Crawford::After);
        assert_eq!(crawford_after(Crawford::Before, 2, 4), Crawford::Before);
    }
}
