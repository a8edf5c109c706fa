//! A quick evaluation: the Ute difference, plus the Hög as reserve, plus
//! the stones set up to reach Stumpen, minus the danger of drying out.

use super::board::{Board, STUMPEN};
use super::state::StumphogState;
use crate::game::{Heuristic, Player, terminal_value};

/// Track positions from which a move can land exactly in Stumpen: Bortom
/// 2..4 (Borta, 6..4 steps) and Bortom 7 (Hemma, one step).
const LAUNCH: [u8; 4] = [8, 9, 10, STUMPEN - 1];

/// How well `p` is set up to move stones into Stumpen (each landing bats
/// one out to his Ute): a launch pile counts once it can give a stone, more
/// when it can give several.
fn reach(b: &Board, p: Player) -> f64 {
    LAUNCH
        .iter()
        .map(|&t| {
            let spare = b.at(p, t).saturating_sub(1) as f64;
            if spare > 0.0 {
                1.0 + 0.1 * spare.min(5.0)
            } else {
                0.0
            }
        })
        .sum()
}

/// How close `p` is to drying out (STU-17).
fn danger(b: &Board, p: Player) -> f64 {
    let left = b.hog[p] as f64 + b.ute[p] as f64;
    (8.0 - left).max(0.0) * 0.75
}

/// The raw score for `p`, in stones of Ute.
pub fn score(b: &Board, p: Player) -> f64 {
    let q = 1 - p;
    let ute = b.ute[p] as f64 - b.ute[q] as f64;
    let hog = b.hog[p] as f64 - b.hog[q] as f64;
    ute + 0.25 * hog + 0.5 * (reach(b, p) - reach(b, q)) - (danger(b, p) - danger(b, q))
}

impl Heuristic for StumphogState {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        // Closer to the threshold, each stone of Ute weighs more.
        let near = self.board().ute[0].max(self.board().ute[1]) as f64;
        let scale = (self.rules().win as f64 - near).clamp(4.0, 20.0);
        (score(self.board(), player) / scale).tanh()
    }
}
