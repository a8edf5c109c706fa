//! A quick evaluation: the race against the average opponent, blots that
//! can be hit, bands, stones on the bar, and opposing bands on one's own goal
//! points (which is also what tells the places at the table apart, HG-5).

use super::geometry::{FIELDS, GOAL_FIRST, TRACK, field, is_rest};
use super::state::HgState;
use crate::game::{GameState, Heuristic, Player, terminal_value};

impl HgState {
    /// Whether an opposing stone stands within 1..6 fields behind ring
    /// field r (on that opponent's own track), so that r can be hit.
    fn threatened(&self, p: Player, r: usize) -> bool {
        (0..self.num_players()).any(|q| {
            if q == p || !self.is_active(q) {
                return false;
            }
            let seat = self.seat(q);
            let d = super::geometry::distance(seat, r);
            if d >= TRACK {
                return false;
            }
            self.board.bar[q] > 0 && d < 6
                || (1..=6).any(|k| d >= k && self.board.cnt[field(seat, d - k)][q] > 0)
        })
    }
}

impl HgState {
    /// Player p's goal points on which an opposing band stands: he cannot
    /// come home there until it leaves. With three players the start leaves
    /// Blue's last goal point under Red's band and Red's under Yellow's,
    /// while Yellow's is free; in 2,000 games of `ai:medium` choosing its
    /// colour at random (before this term) Yellow won 43.6%, Red 31.4%,
    /// Blue 25.0%.
    pub(super) fn blocked_goal_points(&self, p: Player) -> usize {
        let seat = self.seat(p);
        (GOAL_FIRST..TRACK)
            .filter(|&d| {
                let r = field(seat, d);
                (0..self.num_players()).any(|q| q != p && self.board.cnt[r][q] >= 2)
            })
            .count()
    }
}

impl Heuristic for HgState {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        if !self.is_active(player) {
            return -1.0;
        }
        let mine = self.pips(player) as f64;
        let others: Vec<f64> = (0..self.num_players())
            .filter(|&q| q != player && self.is_active(q))
            .map(|q| self.pips(q) as f64)
            .collect();
        let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
        let mut score = (avg - mine) / 25.0;
        for r in 0..FIELDS {
            let c = self.board.cnt[r][player];
            if c == 0 || is_rest(r) {
                continue;
            }
            if c == 1 && self.threatened(player, r) {
                score -= 0.12;
            } else if c >= 2 {
                score += 0.04;
            }
        }
        score -= 0.1 * self.board.bar[player] as f64;
        score -= 0.05 * self.blocked_goal_points(player) as f64;
        score.tanh()
    }
}
