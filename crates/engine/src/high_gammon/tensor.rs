//! The observation tensor of High-O Gammon and Tric-Trac ([`HG_TENSOR_LEN`]
//! floats), after the common head ([`crate::tensor::HEAD_LEN`]); room for
//! four players, zeros for seats a smaller game leaves empty:
//! - 112: stones per field (1 to 28) and player, `/ 9`;
//! - 40: per player, stones on the board, on the bar, borne off and waiting
//!   to enter (Tric-Trac), `/ 9`; pips to go `/ 200`; whether still in the
//!   game; his seat at the table one-hot (HG-5);
//! - 4: the player to move one-hot;
//! - 7: the phase one-hot (opening, colour choice, cube decision, cube
//!   response, rolling, moving, over), as in the tables games;
//! - 12: the dice to move with ([`crate::tensor::Features::dice`]);
//! - 1: whether this roll is a roll again after a double;
//! - 1: the cube (cube scoring), log2 / 6; 0 without one.

use super::geometry::FIELDS;
use super::state::{HgState, Phase};
use super::view::{HgView, PlayerView};
use crate::game::Viewer;
use crate::tables::tensor::PHASES;
use crate::tensor::{DICE_LEN, Features, HEAD_LEN, ObservationTensor};

/// Seats the tensor has room for.
const SEATS: usize = 4;
/// Features per player.
const PLAYER_LEN: usize = 6 + SEATS;

/// The length of every High-O Gammon and Tric-Trac observation tensor.
pub const HG_TENSOR_LEN: usize =
    HEAD_LEN + FIELDS * SEATS + SEATS * PLAYER_LEN + SEATS + PHASES + DICE_LEN + 2;

/// Stones on a field, the bar or off, as a feature.
const STONES: f64 = 9.0;
/// Pips to go, as a feature.
const PIPS: f64 = 200.0;

impl ObservationTensor for HgState {
    fn observation_tensor_len(&self) -> usize {
        HG_TENSOR_LEN
    }

    fn encode_observation(view: &HgView, viewer: Viewer, f: &mut Features) {
        f.turn_and_viewer(view.turn, viewer);
        for field in &view.fields {
            for &stones in field {
                f.scaled(stones, STONES);
            }
        }
        for p in 0..SEATS {
            player(f, view.players.get(p));
        }
        f.one_hot(Some(view.mover), SEATS);
        let (phase, dice, again) = match view.phase {
            Phase::Opening { .. } => (0, None, false),
            Phase::ColourChoice => (1, None, false),
            Phase::CubeDecision => (2, None, false),
            Phase::CubeResponse { .. } => (3, None, false),
            Phase::Rolling { again } => (4, None, again),
            Phase::Moving { dice } => (5, Some(dice), false),
            Phase::Over => (6, None, false),
        };
        f.one_hot(Some(phase), PHASES);
        f.dice(dice);
        f.flag(again);
        f.cube(view.cube);
    }
}

/// One player's counts, whether he plays on and his seat (zeros for none).
fn player(f: &mut Features, player: Option<&PlayerView>) {
    let counts = player.map_or([0; 4], |p| [p.on_board, p.bar, p.off, p.waiting]);
    for count in counts {
        f.scaled(count, STONES);
    }
    f.scaled(player.map_or(0, |p| p.pips), PIPS);
    f.flag(player.is_some_and(|p| p.active));
    f.one_hot(player.map(|p| usize::from(p.seat)), SEATS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameState, Turn};
    use crate::high_gammon::{HighGammon, TricTrac};
    use crate::tensor::tests::{Change, assert_each_change_shows, check_tensor_lengths, mid_game};

    #[test]
    fn every_observation_has_the_documented_length() {
        assert_eq!(HG_TENSOR_LEN, 189);
        for (options, seed) in [
            (["players=2", "scoring=points"], 1),
            (["players=3", "scoring=cube"], 2),
            (["players=4", "scoring=traditional"], 3),
        ] {
            let n = check_tensor_lengths::<HighGammon>(&options, 2, seed, HG_TENSOR_LEN);
            assert!(n > 100, "{options:?}: {n}");
        }
        let n = check_tensor_lengths::<TricTrac>(&["players=3"], 1, 4, HG_TENSOR_LEN);
        assert!(n > 100);
    }

    const CHANGES: &[Change<HgView>] = &[
        ("turn", |v| v.turn = Turn::Chance),
        ("fields", |v| v.fields[27][3] += 1),
        ("players.on_board", |v| v.players[0].on_board += 1),
        ("players.bar", |v| v.players[1].bar += 1),
        ("players.off", |v| v.players[2].off += 1),
        ("players.waiting", |v| v.players[0].waiting += 1),
        ("players.pips", |v| v.players[1].pips += 1),
        ("players.active", |v| {
            v.players[2].active = !v.players[2].active
        }),
        ("players.seat", |v| {
            v.players[0].seat = (v.players[0].seat + 1) % 4
        }),
        ("players (how many)", |v| {
            v.players.pop();
        }),
        ("mover", |v| v.mover = (v.mover + 1) % 3),
        ("phase", |v| v.phase = Phase::ColourChoice),
        ("dice", |v| {
            if let Phase::Moving { dice } = &mut v.phase {
                dice[0] = dice[0] % 6 + 1;
            }
        }),
        ("phase, roll again", |v| {
            v.phase = Phase::Rolling { again: true }
        }),
        ("cube", |v| v.cube = Some(v.cube.unwrap_or(1) * 2)),
    ];

    #[test]
    fn every_field_shows_in_the_tensor() {
        let state = mid_game::<HighGammon>(&["players=3", "scoring=cube"], 5, |s| {
            matches!(s.phase(), Phase::Moving { .. })
        });
        let view = state.observation(Viewer::Player(0));
        assert_each_change_shows::<HgState>(&view, CHANGES);
    }
}
