//! The observation tensor of Tawla and backgammon ([`TABLES_TENSOR_LEN`]
//! floats), after the common head ([`crate::tensor::HEAD_LEN`]):
//! - 96: checkers per point, `/ 15`: the top layer then the pinned checkers
//!   under it (Tawla), each as the first player's 24 points then the second's;
//! - 4: the bar then borne off, per player, `/ 15`;
//! - 7: the phase one-hot (opening, a slot High-O Gammon's colour choice
//!   uses, cube decision, cube response, rolling, moving, over);
//! - 12: the dice to move with ([`crate::tensor::Features::dice`]);
//! - 1: the cube, log2 / 6; 2: its owner one-hot; 1: whether it is in play;
//! - 1: the match length `/ 25`; 2: the score per player `/ 25`; 1: whether
//!   this is the Crawford game.

use super::two_player::{AbsBoard, Phase, TablesState, TablesVariant, TablesView};
use crate::game::Viewer;
use crate::tensor::{DICE_LEN, Features, HEAD_LEN, ObservationTensor};

/// Phases of the tables games' tensors (shared with High-O Gammon's layout).
pub(crate) const PHASES: usize = 7;

/// The length of every Tawla and backgammon observation tensor.
pub const TABLES_TENSOR_LEN: usize = HEAD_LEN + 96 + 4 + PHASES + DICE_LEN + 4 + 3 + 1;

/// Checkers on a point, bar or tray, as a feature.
const CHECKERS: f64 = 15.0;
/// Match lengths and scores, as a feature.
const MATCH_POINTS: f64 = 25.0;

impl<V: TablesVariant> ObservationTensor for TablesState<V> {
    fn observation_tensor_len(&self) -> usize {
        TABLES_TENSOR_LEN
    }

    fn encode_observation(view: &TablesView, viewer: Viewer, f: &mut Features) {
        f.turn_and_viewer(view.turn, viewer);
        board(f, &view.board);
        let (phase, dice) = match view.phase {
            Phase::Opening => (0, None),
            Phase::CubeDecision => (2, None),
            Phase::CubeResponse => (3, None),
            Phase::Rolling => (4, None),
            Phase::Moving(dice) => (5, Some(dice)),
            Phase::Over => (6, None),
        };
        f.one_hot(Some(phase), PHASES);
        f.dice(dice);
        f.cube(Some(view.cube));
        f.one_hot(view.cube_owner, 2);
        f.flag(view.cube_enabled);
        f.scaled(view.match_to, MATCH_POINTS);
        for score in view.score {
            f.scaled(score, MATCH_POINTS);
        }
        f.flag(view.crawford_game);
    }
}

/// Checkers per layer, side and point, then on the bar and borne off.
fn board(f: &mut Features, board: &AbsBoard) {
    for layer in [&board.top, &board.under] {
        for side in [1, -1] {
            for &point in layer {
                f.scaled((point * side).max(0), CHECKERS);
            }
        }
    }
    for count in board.bar.into_iter().chain(board.off) {
        f.scaled(count, CHECKERS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Backgammon;
    use crate::game::{Game, GameState, Turn};
    use crate::tawla::Tawla;
    use crate::tensor::tests::{Change, assert_each_change_shows, check_tensor_lengths, mid_game};

    #[test]
    fn every_observation_has_the_documented_length() {
        assert_eq!(TABLES_TENSOR_LEN, 139);
        let n = check_tensor_lengths::<Tawla>(&["match=3", "cube=on"], 3, 1, TABLES_TENSOR_LEN);
        assert!(n > 100);
        let n = check_tensor_lengths::<Backgammon>(&["cube=on"], 3, 2, TABLES_TENSOR_LEN);
        assert!(n > 100);
    }

    /// A moving position of a match with the cube, where every field below
    /// can change.
    fn moving<G: Game>(options: &[&str]) -> TablesView
    where
        G::State: GameState<Observation = TablesView>,
    {
        let state = mid_game::<G>(options, 7, |s| {
            let view = s.observation(Viewer::Player(0));
            matches!(view.phase, Phase::Moving(_)) && view.turn != Turn::Over
        });
        state.observation(Viewer::Player(0))
    }

    const CHANGES: &[Change<TablesView>] = &[
        ("turn", |v| v.turn = Turn::Over),
        ("board.top", |v| v.board.top[3] += 1),
        ("board.top, second side", |v| v.board.top[4] -= 1),
        ("board.under", |v| v.board.under[5] += 1),
        ("board.bar", |v| v.board.bar[1] += 1),
        ("board.off", |v| v.board.off[0] += 1),
        ("phase", |v| v.phase = Phase::CubeResponse),
        ("dice", |v| {
            if let Phase::Moving(d) = &mut v.phase {
                d[1] = d[1] % 6 + 1;
            }
        }),
        ("cube", |v| v.cube *= 2),
        ("cube_owner", |v| {
            v.cube_owner = Some(v.cube_owner.map_or(0, |p| 1 - p));
        }),
        ("cube_enabled", |v| v.cube_enabled = !v.cube_enabled),
        ("match_to", |v| v.match_to += 2),
        ("score", |v| v.score[1] += 1),
        ("crawford_game", |v| v.crawford_game = !v.crawford_game),
    ];

    #[test]
    fn every_field_shows_in_the_tensor() {
        let view = moving::<Tawla>(&["match=5", "cube=on"]);
        assert_each_change_shows::<<Tawla as Game>::State>(&view, CHANGES);
        let view = moving::<Backgammon>(&["match=5", "cube=on"]);
        assert_each_change_shows::<<Backgammon as Game>::State>(&view, CHANGES);
    }
}
