//! Networks for games of any number of players and for games outside the
//! two-player tables family (High-O Gammon, Tric-Trac, Stumphög): a state
//! is encoded from the point of view of the player to act or roll next,
//! and the outputs, counted from that player onwards, are turned into each
//! player's chance of winning and expected points.

use super::format::Outputs;
use spelbord_engine::{GameState, Heuristic, Player};

/// The most players of a game with a seat network.
pub const MAX_SEATS: usize = 4;

/// A game state that a seat network evaluates.
pub trait SeatNet: GameState + Heuristic + Copy {
    /// The id of the game whose network plays this state.
    fn net_game(&self) -> &'static str;
    /// The encoding version, inputs and output meaning of the network of
    /// `game` for `players` players.
    fn layout(game: &str, players: usize) -> Layout;
    /// The player from whose point of view the state is encoded: the one to
    /// act or to roll next (the winner once over).
    fn viewer(&self) -> Player;
    /// Writes the inputs for this state seen by `viewer` into `out`
    /// (length [`Layout::inputs`]).
    fn encode(&self, viewer: Player, out: &mut [f32]);
    /// The points a player may win or lose that the points outputs cover
    /// (returns beyond it are read as it).
    fn points_scale(&self) -> f64;
}

/// What a network of one setting looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The encoding version.
    pub encoding: u16,
    /// Inputs of the encoding.
    pub inputs: usize,
    /// What the outputs mean.
    pub outputs: Outputs,
}

/// Every player's chance of winning and expected points, by player.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SeatValues {
    /// Chance of winning (a draw shared among those it ties).
    pub win: [f32; MAX_SEATS],
    /// Expected points (returns), in points.
    pub points: [f32; MAX_SEATS],
}

impl SeatValues {
    /// The exact values of a finished game.
    pub fn of_finished<S: GameState>(state: &S) -> Self {
        let n = state.num_players().min(MAX_SEATS);
        let mut v = SeatValues::default();
        let returns = state.returns();
        for p in 0..n {
            v.points[p] = returns.get(p) as f32;
        }
        match state.outcome() {
            Some(o) if !o.is_draw() => {
                let winners: Vec<Player> = (0..n).filter(|&p| o.is_winner(p)).collect();
                for &p in &winners {
                    v.win[p] = 1.0 / winners.len() as f32;
                }
            }
            _ => v.win[..n].fill(1.0 / n as f32),
        }
        v
    }

    /// The values read from a network's outputs `y` for a state of `n`
    /// players seen by `viewer`; `scale` as [`SeatNet::points_scale`].
    pub fn from_outputs(y: &[f32], outputs: Outputs, viewer: Player, n: usize, scale: f64) -> Self {
        let mut v = SeatValues::default();
        match outputs {
            Outputs::Win => {
                v.win[viewer] = y[0];
                v.win[1 - viewer] = 1.0 - y[0];
                v.points[viewer] = 2.0 * y[0] - 1.0;
                v.points[1 - viewer] = 1.0 - 2.0 * y[0];
            }
            Outputs::SeatWinPoints(_) => {
                let total: f32 = y[..n].iter().sum::<f32>().max(1e-6);
                for k in 0..n {
                    let p = (viewer + k) % n;
                    v.win[p] = y[k] / total;
                    v.points[p] = ((y[n + k] - 0.5) * 2.0) * scale as f32;
                }
            }
            Outputs::WinGammonBackgammon => {}
        }
        v
    }

    /// The network's targets for these values seen by `viewer` (the inverse
    /// of [`Self::from_outputs`], points clamped to the scale).
    pub fn to_outputs(
        &self,
        outputs: Outputs,
        viewer: Player,
        n: usize,
        scale: f64,
        out: &mut [f32],
    ) {
        match outputs {
            Outputs::Win => out[0] = self.win[viewer],
            Outputs::SeatWinPoints(_) => {
                for k in 0..n {
                    let p = (viewer + k) % n;
                    out[k] = self.win[p];
                    let x = 0.5 + self.points[p] / (2.0 * scale as f32);
                    out[n + k] = x.clamp(0.0, 1.0);
                }
            }
            Outputs::WinGammonBackgammon => {}
        }
    }

    /// Adds `weight` times `other`.
    pub fn add_scaled(&mut self, other: &SeatValues, weight: f32) {
        for p in 0..MAX_SEATS {
            self.win[p] += weight * other.win[p];
            self.points[p] += weight * other.points[p];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_turn_round_with_the_viewer() {
        // Three seats seen by player 1: outputs for players 1, 2, 0.
        let y = [0.5, 0.3, 0.2, 0.75, 0.5, 0.25];
        let v = SeatValues::from_outputs(&y, Outputs::SeatWinPoints(3), 1, 3, 10.0);
        assert_eq!(v.win[..3], [0.2, 0.5, 0.3]);
        assert_eq!(v.points[..3], [-5.0, 5.0, 0.0]);
        let mut back = [0.0; 6];
        v.to_outputs(Outputs::SeatWinPoints(3), 1, 3, 10.0, &mut back);
        assert_eq!(back, y);
        // Seen by player 0 the same values are counted from player 0.
        v.to_outputs(Outputs::SeatWinPoints(3), 0, 3, 10.0, &mut back);
        assert_eq!(back, [0.2, 0.5, 0.3, 0.25, 0.75, 0.5]);
        // One output: the viewer's chance; the other player has the rest.
        let w = SeatValues::from_outputs(&[0.8], Outputs::Win, 1, 2, 1.0);
        assert!((w.win[0] - 0.2).abs() < 1e-6 && w.win[1] == 0.8);
    }
}
