//! A two-player tables board in absolute terms, as observations, step
//! graphs and played moves show it: every point, the bar, the borne-off
//! checkers and each side's pip count.

use crate::error::PositionError;
use crate::game::Player;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// A board drawn in absolute terms: index i is the first player's point i+1.
/// Serialised with `pips`, each side's pip count ([`AbsBoard::pips`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbsBoard {
    /// Checkers on top of each point: positive for the first player, negative for the second.
    pub top: [i8; 24],
    /// Pinned checkers under the top (Tawla): same signs.
    pub under: [i8; 24],
    /// Checkers on the bar, per player.
    pub bar: [u8; 2],
    /// Checkers borne off, per player.
    pub off: [u8; 2],
}

impl AbsBoard {
    /// Checks that each player has `checkers` and that pinned checkers lie
    /// only under one of the other player's, as one checker.
    pub fn check(&self, checkers: u32) -> std::result::Result<(), PositionError> {
        for (i, (&top, &under)) in self.top.iter().zip(&self.under).enumerate() {
            if under != 0 && (under.abs() != 1 || top.signum() != -under.signum()) {
                return Err(PositionError::Overlap(format!(
                    "point {} ({top}/{under}: one pinned checker lies under the other player's)",
                    i + 1
                )));
            }
        }
        for player in 0..2 {
            let found = self.checkers(player);
            if found != checkers {
                return Err(PositionError::Count {
                    player,
                    what: "checkers",
                    expected: checkers,
                    found,
                });
            }
        }
        Ok(())
    }

    /// All checkers of one player, wherever they are.
    pub fn checkers(&self, player: Player) -> u32 {
        let sign = if player == 0 { 1 } else { -1 };
        let on_board: i32 = self
            .top
            .iter()
            .chain(self.under.iter())
            .map(|&c| (c as i32 * sign).max(0))
            .sum();
        on_board as u32 + self.bar[player] as u32 + self.off[player] as u32
    }

    /// Each player's pip count, the first player's first: the points his
    /// checkers still have to travel to bear off, a checker on the bar
    /// counting 25 and a pinned one where it lies.
    pub fn pips(&self) -> [u32; 2] {
        let mut pips = [25 * self.bar[0] as u32, 25 * self.bar[1] as u32];
        for (i, (&top, &under)) in self.top.iter().zip(&self.under).enumerate() {
            for c in [top, under] {
                if c > 0 {
                    pips[0] += c as u32 * (i as u32 + 1);
                } else if c < 0 {
                    pips[1] += c.unsigned_abs() as u32 * (24 - i as u32);
                }
            }
        }
        pips
    }
}

impl Serialize for AbsBoard {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("AbsBoard", 5)?;
        out.serialize_field("top", &self.top)?;
        out.serialize_field("under", &self.under)?;
        out.serialize_field("bar", &self.bar)?;
        out.serialize_field("off", &self.off)?;
        out.serialize_field("pips", &self.pips())?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::AbsBoard;

    #[test]
    fn pip_counts_take_the_bar_as_25_and_pinned_checkers_where_they_lie() {
        // Backgammon's start: 167 each.
        let mut start = AbsBoard::default();
        for (i, c) in [
            (5, 5),
            (7, 3),
            (12, 5),
            (23, 2),
            (0, -2),
            (11, -5),
            (16, -3),
            (18, -5),
        ] {
            start.top[i] = c;
        }
        assert_eq!(start.pips(), [167, 167]);
        // The first player on the bar and pinned on his point 10 under the
        // second's checker, which has 15 to go.
        let mut pinned = AbsBoard {
            bar: [1, 0],
            off: [13, 14],
            ..AbsBoard::default()
        };
        pinned.top[9] = -1;
        pinned.under[9] = 1;
        assert_eq!(pinned.pips(), [35, 15]);
        let json = serde_json::to_value(pinned).expect("json");
        assert_eq!(json["pips"], serde_json::json!([35, 15]));
        assert_eq!(json["bar"], serde_json::json!([1, 0]));
    }
}
