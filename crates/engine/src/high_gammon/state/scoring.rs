//! What the losers pay: points, the cube's stake or the traditional
//! single, double or triple (HG-16..HG-18), and the pip count.

use super::HgState;
use crate::game::Player;
use crate::high_gammon::geometry::{GOAL_FIRST, HOME_STRETCH, MAX_SEATS, STONES, TRACK};
use crate::high_gammon::rules::Scoring;

impl HgState {
    /// What each loser pays the winner (HG-16..HG-18; Tric-Trac: 1 each).
    pub fn payments(&self) -> [u32; MAX_SEATS] {
        let mut pay = [0u32; MAX_SEATS];
        let Some(w) = self.winner() else {
            return pay;
        };
        for (q, owed) in pay.iter_mut().enumerate().take(self.rules.players as usize) {
            if q == w {
                continue;
            }
            *owed = if self.rules.tric {
                1
            } else {
                match self.rules.scoring {
                    // A resigner's stones are gone: he owes what the most
                    // stones on the bar would.
                    Scoring::Points if self.resigned >> q & 1 == 1 => 8 * STONES as u32,
                    Scoring::Traditional if self.resigned >> q & 1 == 1 => 3,
                    Scoring::Points => self.points_owed(q),
                    Scoring::Cube => match self.dropped_at(q) {
                        Some(stake) => stake,
                        None => self.cube_value(),
                    },
                    Scoring::Traditional => self.traditional_owed(q),
                }
            };
        }
        pay
    }

    /// HG-16: 4 per stone not yet on its goal points, 8 per stone on the bar.
    fn points_owed(&self, q: Player) -> u32 {
        4 * self.short_of_goal(q) + 8 * self.board.bar[q] as u32
    }

    /// `q`'s stones on the board short of its goal points (HG-16's count).
    pub fn short_of_goal(&self, q: Player) -> u32 {
        let seat = self.seat(q);
        (0..GOAL_FIRST)
            .map(|d| self.board.at(q, seat, d) as u32)
            .sum::<u32>()
    }

    /// HG-18: single if any stone is borne off; double if none; triple if
    /// none and a stone is on the bar or short of the home stretch.
    fn traditional_owed(&self, q: Player) -> u32 {
        let seat = self.seat(q);
        if self.board.off[q] > 0 {
            1
        } else if self.board.bar[q] > 0 || (0..HOME_STRETCH).any(|d| self.board.at(q, seat, d) > 0)
        {
            3
        } else {
            2
        }
    }

    /// Pips player p still has to travel: to off (High-O Gammon) or to the
    /// first goal point (Tric-Trac); a stone on the bar or not yet entered
    /// counts as one short of the start.
    pub fn pips(&self, p: Player) -> u32 {
        let seat = self.seat(p);
        let target = if self.rules.tric { GOAL_FIRST } else { TRACK } as u32;
        let mut pips = (self.board.bar[p] as u32 + self.board.pool[p] as u32) * (target + 1);
        for d in 0..TRACK {
            pips += self.board.at(p, seat, d) as u32 * target.saturating_sub(d as u32);
        }
        pips
    }
}
