//! The input encoding of Stumphög: the fourteen piles along the viewer's
//! track, Stumpen, both players' Hög and Ute, and what the dice can bring
//! into Stumpen.

use super::format::Outputs;
use super::seats::{Layout, SeatNet};
use spelbord_engine::stumphog::{STUMPEN, StumphogState};
use spelbord_engine::{GameState, Player, Turn};

/// Inputs per pile: stones at least 2..=7 (6), and stones / 10.
const PER_PILE: usize = 7;
/// The piles' inputs: the 14 board piles and Stumpen.
const PILES: usize = 15 * PER_PILE;
/// Features per player after the piles.
const PER_PLAYER: usize = 9;
/// Track positions from which a move lands exactly in Stumpen (STU-10,
/// STU-13): Bortom 7 with one step, Bortom 4, 3, 2 with 4, 5, 6 steps.
const LAUNCH: [u8; 4] = [STUMPEN - 1, 10, 9, 8];

/// The encoding's inputs.
const INPUTS: usize = PILES + 2 * PER_PLAYER + 1;

/// Writes one pile's units.
fn pile_units(c: u8, out: &mut [f32]) {
    for (i, o) in out[..6].iter_mut().enumerate() {
        *o = f32::from(c >= i as u8 + 2);
    }
    out[6] = f32::from(c) / 10.0;
}

impl SeatNet for StumphogState {
    fn net_game(&self) -> &'static str {
        spelbord_engine::stumphog::ID
    }

    fn layout(_game: &str, _players: usize) -> Layout {
        Layout {
            encoding: 1,
            inputs: INPUTS,
            outputs: Outputs::Win,
        }
    }

    fn viewer(&self) -> Player {
        match self.turn() {
            Turn::Player(p) => p,
            _ => self.mover(),
        }
    }

    /// Stumphög, encoding 1 (124 inputs): the piles at the viewer's track
    /// positions 0..13 (his Hitom 7..1, then Bortom 1..7) and Stumpen, each
    /// as stones at least 2, 3, .. 7 and stones / 10 (105); then for the
    /// viewer and for his opponent: Hög / 28, Hög empty, Ute / 41, the
    /// stones Ute still lacks to win / 41, Ute past the Stumpvarning (30),
    /// and the spare stones (above the one that must stay) on each of his
    /// four piles that reach Stumpen with one die, / 5 (9 each); last, the
    /// share of the turn cap played (1).
    fn encode(&self, viewer: Player, out: &mut [f32]) {
        let b = self.board();
        for t in 0..STUMPEN {
            let at = usize::from(t) * PER_PILE;
            pile_units(b.at(viewer, t), &mut out[at..at + PER_PILE]);
        }
        let at = usize::from(STUMPEN) * PER_PILE;
        pile_units(b.stumpen, &mut out[at..at + PER_PILE]);
        let win = f32::from(self.rules().win);
        for (k, p) in [viewer, 1 - viewer].into_iter().enumerate() {
            let f = PILES + k * PER_PLAYER;
            out[f] = f32::from(b.hog[p]) / 28.0;
            out[f + 1] = f32::from(b.hog[p] == 0);
            out[f + 2] = f32::from(b.ute[p]) / 41.0;
            out[f + 3] = (win - f32::from(b.ute[p])).max(0.0) / 41.0;
            out[f + 4] = f32::from(b.ute[p] >= spelbord_engine::stumphog::STUMPVARNING);
            for (i, &t) in LAUNCH.iter().enumerate() {
                out[f + 5 + i] = f32::from(b.at(p, t).saturating_sub(1)) / 5.0;
            }
        }
        out[INPUTS - 1] = self.turns() as f32 / self.rules().turn_cap.max(1) as f32;
    }

    fn points_scale(&self) -> f64 {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::stumphog::{Board, Row, Rules};

    #[test]
    fn stu6_each_player_reads_the_piles_along_his_own_track() {
        // STU-6: my Hitom 7..1 are track 0..6, my Bortom 1..7 are 7..13;
        // the opponent's track is the same piles the other way round.
        let mut board = Board::before_setup();
        board.set_up(0);
        board.set_pile(0, Row::Hitom, 7, 5);
        board.set_pile(0, Row::Bortom, 7, 3);
        board.ute = [12, 31];
        let s = StumphogState::with_position(Rules::default(), board, 0, None);
        assert_eq!(s.viewer(), 0);
        let mut x = vec![0.0; INPUTS];
        s.encode(0, &mut x);
        assert_eq!(x[..7], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.5]);
        assert_eq!(x[13 * 7..14 * 7], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.3]);
        // Bortom 7 is a launch pile: 2 spare stones.
        assert_eq!(x[PILES + 5], 0.4);
        assert_eq!(x[PILES + PER_PLAYER + 4], 1.0, "opponent past 30");
        let mut y = vec![0.0; INPUTS];
        s.encode(1, &mut y);
        // The opponent's Bortom 7 is my Hitom 7: his track position 13.
        assert_eq!(y[13 * 7..14 * 7], x[..7]);
        assert_eq!(y[PILES + 4], 1.0);
        assert_eq!(y[PILES + PER_PLAYER + 5], 0.4);
    }
}
