//! The match equity table: the chance of winning a match from each score.
//! The figures are the Kazaross-XG2 table (Neil Kazaross, 2011: rolled out
//! by eXtreme Gammon to 9 points, by GNU Backgammon to 15, extended to 25),
//! kept as data in `crates/ai/data/kazaross-xg2.met` with its notice; see
//! that file for the format.
//!
//! The table answers scores up to [`MAX_AWAY`] points away each.

use std::sync::OnceLock;

/// The largest number of points away the table covers.
pub const MAX_AWAY: usize = 25;

/// The table's text, as shipped.
static KAZAROSS_XG2: &str = include_str!("../data/kazaross-xg2.met");

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

/// A match equity table read from its text form.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    /// `pre[a - 1][b - 1]`: the chance of the player `a` away winning
    /// against one `b` away, before the Crawford game (a side at 1: the
    /// Crawford game).
    pre: Vec<Vec<f64>>,
    /// `post[b - 1]`: the trailer's chance, `b` away, against a leader one
    /// away, after the Crawford game.
    post: Vec<f64>,
}

/// Why a table's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetError {
    /// A line is neither a comment nor a `pre` or `post` row of numbers.
    #[error("line {0}: not a `pre` or `post` row of chances")]
    Line(usize),
    /// The rows do not make a square table of [`MAX_AWAY`] and one post row.
    #[error("the table is not {MAX_AWAY} by {MAX_AWAY} with one post-Crawford row")]
    Shape,
}

impl Met {
    /// Reads a table from its text form (see the shipped file).
    pub fn parse(text: &str) -> Result<Met, MetError> {
        let (mut pre, mut post) = (Vec::new(), Vec::new());
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let kind = words.next();
            let row = words
                .map(|w| w.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)))
                .collect::<Option<Vec<f64>>>()
                .ok_or(MetError::Line(i + 1))?;
            match kind {
                Some("pre") => pre.push(row),
                Some("post") => post.push(row),
                _ => return Err(MetError::Line(i + 1)),
            }
        }
        let square = pre.len() == MAX_AWAY && pre.iter().all(|r| r.len() == MAX_AWAY);
        match post.pop() {
            Some(post) if square && post.len() == MAX_AWAY => Ok(Met { pre, post }),
            _ => Err(MetError::Shape),
        }
    }

    /// The shipped table (Kazaross-XG2).
    pub fn shipped() -> &'static Met {
        static TABLE: OnceLock<Met> = OnceLock::new();
        TABLE.get_or_init(|| Met::parse(KAZAROSS_XG2).unwrap_or_else(|_| Met::even()))
    }

    /// A table of even chances everywhere (only if the shipped text were
    /// unreadable, which a test rules out).
    fn even() -> Met {
        Met {
            pre: vec![vec![0.5; MAX_AWAY]; MAX_AWAY],
            post: vec![0.5; MAX_AWAY],
        }
    }

    /// The chance that the player `away` points from winning wins against
    /// one `other_away` away, with the Crawford rule at `crawford`. A
    /// player at 0 or less has won; scores beyond [`MAX_AWAY`] are read as
    /// [`MAX_AWAY`].
    pub fn chance(&self, away: i32, other_away: i32, crawford: Crawford) -> f64 {
        if away <= 0 {
            return 1.0;
        }
        if other_away <= 0 {
            return 0.0;
        }
        let a = (away as usize).min(MAX_AWAY);
        let b = (other_away as usize).min(MAX_AWAY);
        match (crawford, a, b) {
            (Crawford::After, 1, 1) => 0.5,
            (Crawford::After, 1, b) => 1.0 - self.post[b - 1],
            (Crawford::After, a, 1) => self.post[a - 1],
            _ => self.pre[a - 1][b - 1],
        }
    }
}

/// The chance that the player `away` points from winning wins the match
/// against one `other_away` points away, with the Crawford rule at
/// `crawford`, from the shipped table.
pub fn match_winning_chance(away: i32, other_away: i32, crawford: Crawford) -> f64 {
    Met::shipped().chance(away, other_away, crawford)
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
    fn the_shipped_table_reads_and_is_the_kazaross_xg2_table() {
        let met = Met::parse(KAZAROSS_XG2).expect("the shipped table reads");
        // A few figures as published (Kazaross-XG2): 2-away/4-away,
        // 5-away/5-away, 3-away/7-away, the Crawford game at 1-away/2-away,
        // and post-Crawford 2-away and 4-away against 1-away.
        assert_eq!(met.chance(2, 4, Crawford::Before), 0.6687);
        assert_eq!(met.chance(5, 5, Crawford::Before), 0.5);
        assert_eq!(met.chance(1, 2, Crawford::ThisGame), 0.67736);
        assert_eq!(met.chance(2, 1, Crawford::After), 0.48803);
        assert_eq!(met.chance(4, 1, Crawford::After), 0.31002);
        assert_eq!(met.chance(1, 4, Crawford::After), 1.0 - 0.31002);
    }

    #[test]
    fn equal_scores_are_even_and_the_table_is_complementary() {
        for a in 1..=MAX_AWAY as i32 {
            assert!((match_winning_chance(a, a, Crawford::Before) - 0.5).abs() < 1e-12);
            for b in 1..=MAX_AWAY as i32 {
                let sum = match_winning_chance(a, b, Crawford::Before)
                    + match_winning_chance(b, a, Crawford::Before);
                assert!((sum - 1.0).abs() < 1e-4, "{a} {b}: {sum}");
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
    fn broken_tables_are_refused() {
        assert_eq!(Met::parse("pre 0.5 x"), Err(MetError::Line(1)));
        assert_eq!(Met::parse("pre 0.5 1.5"), Err(MetError::Line(1)));
        assert_eq!(Met::parse("# nothing\n"), Err(MetError::Shape));
    }

    #[test]
    fn the_crawford_game_follows_one_away() {
        assert_eq!(crawford_after(Crawford::Before, 1, 4), Crawford::ThisGame);
        assert_eq!(crawford_after(Crawford::ThisGame, 1, 3), Crawford::After);
        assert_eq!(crawford_after(Crawford::Before, 2, 4), Crawford::Before);
    }
}
