//! The input encoding of High-O Gammon and Tric-Trac (2, 3 and 4 players):
//! each player's stones along his own track, seen by one player.

use super::encode::point_units;
use super::format::Outputs;
use super::seats::{Layout, SeatNet};
use spelbord_engine::high_gammon::{HgState, Phase, STONES, Scoring, TRACK};
use spelbord_engine::{GameState, Player, Turn};

/// Inputs per player: four units for each of the 20 fields of his track,
/// then six features.
const PER_PLAYER: usize = 4 * TRACK + 6;

impl SeatNet for HgState {
    fn net_game(&self) -> &'static str {
        if self.rules().tric {
            "tric-trac"
        } else {
            "high-gammon"
        }
    }

    fn layout(_game: &str, players: usize) -> Layout {
        Layout {
            encoding: 1,
            inputs: players * PER_PLAYER + 4 + players + 1,
            outputs: Outputs::SeatWinPoints(players as u8),
        }
    }

    fn viewer(&self) -> Player {
        match self.turn() {
            Turn::Player(p) => p,
            _ => self.mover(),
        }
    }

    /// High-O Gammon and Tric-Trac, encoding 1 (86 n + n + 5 inputs for n
    /// players): for each player, the viewer first and then the others in
    /// turn order, the four TD-Gammon units of his stones on each field
    /// d = 0..19 of his own track (80), then his stones on the bar / 2,
    /// borne off / 9, not yet entered / 9, pips / 100, blots (lone stones
    /// on points) / 5, and 1 while he is in the game (6); then the viewer's
    /// seat (colour) one-hot (4), the player to act relative to the viewer
    /// one-hot (n), and the cube's value as log2 / 6 (1).
    fn encode(&self, viewer: Player, out: &mut [f32]) {
        let n = self.num_players();
        let board = self.board();
        out.fill(0.0);
        for k in 0..n {
            let p = (viewer + k) % n;
            let seat = self.seat(p);
            let base = k * PER_PLAYER;
            let mut blots = 0;
            for d in 0..TRACK {
                let c = board.at(p, seat, d);
                point_units(c, &mut out[base + 4 * d..base + 4 * d + 4]);
                blots += usize::from(c == 1 && d % 7 != 6);
            }
            let f = base + 4 * TRACK;
            out[f] = f32::from(board.bar[p]) / 2.0;
            out[f + 1] = f32::from(board.off[p]) / f32::from(STONES);
            out[f + 2] = f32::from(board.pool[p]) / f32::from(STONES);
            out[f + 3] = self.pips(p) as f32 / 100.0;
            out[f + 4] = blots as f32 / 5.0;
            out[f + 5] = f32::from(self.is_active(p));
        }
        let at = n * PER_PLAYER;
        out[at + usize::from(self.seat(viewer)) % 4] = 1.0;
        let to_act = match self.phase() {
            Phase::CubeResponse { responder } => usize::from(responder),
            _ => self.mover(),
        };
        out[at + 4 + (to_act + n - viewer) % n] = 1.0;
        out[at + 4 + n] = (self.cube_value().max(1).ilog2()) as f32 / 6.0;
    }

    fn points_scale(&self) -> f64 {
        let losers = (self.num_players() - 1) as f64;
        let rules = self.rules();
        losers
            * if rules.tric {
                1.0
            } else {
                match rules.scoring {
                    // 4 a stone short of its goal, 8 on the bar (HG-16):
                    // 48 is a loser with a dozen stones' worth behind.
                    Scoring::Points => 48.0,
                    Scoring::Traditional => 3.0,
                    Scoring::Cube => 8.0,
                }
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::Game;
    use spelbord_engine::high_gammon::{Board, HighGammon, TricTrac};

    fn encoded(state: &HgState, viewer: Player) -> Vec<f32> {
        let layout = HgState::layout(state.net_game(), state.num_players());
        let mut x = vec![0.0; layout.inputs];
        state.encode(viewer, &mut x);
        x
    }

    fn start<G: Game<State = HgState>>(players: &str) -> HgState {
        let options = spelbord_engine::Options::parse(
            G::ID,
            G::option_specs(),
            &[format!("players={players}")],
        )
        .unwrap();
        G::from_options(&options).unwrap().initial_state()
    }

    #[test]
    fn hg6_every_player_sees_his_start_the_same_way() {
        // HG-6: 2 on d = 0, 3 on d = 6, 4 on d = 12 for every seat.
        let s = start::<HighGammon>("4");
        assert_eq!(s.net_game(), "high-gammon");
        let x0 = encoded(&s, 0);
        let x2 = encoded(&s, 2);
        assert_eq!(x0.len(), 4 * PER_PLAYER + 9);
        assert_eq!(x0[..4 * PER_PLAYER], x2[..4 * PER_PLAYER]);
        assert_eq!(x0[0..4], [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(x0[24..28], [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(x0[48..52], [1.0, 1.0, 1.0, 0.5]);
        // The viewer's seat tells the colours apart.
        assert_eq!(x0[4 * PER_PLAYER], 1.0);
        assert_eq!(x2[4 * PER_PLAYER + 2], 1.0);
        // Player 0 is to act: relative 0 for viewer 0, relative 2 for viewer 2.
        assert_eq!(x0[4 * PER_PLAYER + 4], 1.0);
        assert_eq!(x2[4 * PER_PLAYER + 4 + 2], 1.0);
    }

    #[test]
    fn tt1_stones_waiting_and_on_the_bar_are_seen() {
        // TT-1: all nine start off the board; HG-9: a hit stone goes to the bar.
        let s = start::<TricTrac>("3");
        assert_eq!(s.net_game(), "tric-trac");
        let x = encoded(&s, 1);
        assert_eq!(x.len(), 3 * PER_PLAYER + 4 + 3 + 1);
        assert_eq!(x[4 * TRACK + 2], 1.0, "nine waiting");
        let mut board = Board::tric_trac(3);
        board.pool[1] = 7;
        board.bar[1] = 1;
        board.cnt[7 + 3][1] = 1; // seat 1's d = 3: a blot
        let s = HgState::with_position(s.rules(), board, 1, [2, 5]);
        let x = encoded(&s, 1);
        assert_eq!(x[12..16], [1.0, 0.0, 0.0, 0.0]);
        let f = 4 * TRACK;
        assert_eq!((x[f], x[f + 2], x[f + 4]), (0.5, 7.0 / 9.0, 0.2));
        // Seen by player 0, player 1 comes second.
        let y = encoded(&s, 0);
        assert_eq!(y[PER_PLAYER + 12..PER_PLAYER + 16], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(y[3 * PER_PLAYER + 4 + 1], 1.0, "player 1 to act");
    }
}
