//! The observation tensor of Stumphög ([`STUMPHOG_TENSOR_LEN`] floats),
//! after the common head ([`crate::tensor::HEAD_LEN`]):
//! - 14: stones per pile, the first player's row then the second's,
//!   columns 1 to 7, `/ 10`;
//! - 4: each player's Hög, then each player's Ute, `/ 55`;
//! - 1: Stumpen `/ 10`; 1: stones in hand `/ 10`;
//! - 2: whether each player's Stumpvarning was announced;
//! - 2: the player to move one-hot;
//! - 4: the phase one-hot (opening, rolling, acting, over);
//! - 12: the dice to act on ([`crate::tensor::Features::dice`]);
//! - 1: turns played, as a share of the turn cap.

use super::board::COLUMNS;
use super::state::{Phase, StumphogState, StumphogView};
use crate::game::Viewer;
use crate::tensor::{DICE_LEN, Features, HEAD_LEN, ObservationTensor};

/// The length of every Stumphög observation tensor.
pub const STUMPHOG_TENSOR_LEN: usize = HEAD_LEN + 2 * COLUMNS + 4 + 2 + 2 + 2 + 4 + DICE_LEN + 1;

/// Stones in a pile, Stumpen or the hand, as a feature.
const PILE: f64 = 10.0;
/// Stones in a Hög or an Ute, as a feature.
const HEAP: f64 = 55.0;

impl ObservationTensor for StumphogState {
    fn observation_tensor_len(&self) -> usize {
        STUMPHOG_TENSOR_LEN
    }

    fn encode_observation(view: &StumphogView, viewer: Viewer, f: &mut Features) {
        f.turn_and_viewer(view.turn, viewer);
        for &stones in view.rows.iter().flatten() {
            f.scaled(stones, PILE);
        }
        for &stones in view.hog.iter().chain(&view.ute) {
            f.scaled(stones, HEAP);
        }
        f.scaled(view.stumpen, PILE);
        f.scaled(view.in_hand, PILE);
        for warned in view.stumpvarning {
            f.flag(warned);
        }
        f.one_hot(Some(view.side), 2);
        let (phase, dice) = match view.phase {
            Phase::Opening => (0, None),
            Phase::Rolling => (1, None),
            Phase::Acting(dice) => (2, Some(dice)),
            Phase::Over => (3, None),
        };
        f.one_hot(Some(phase), 4);
        f.dice(dice);
        f.scaled(view.turns, f64::from(view.rules.turn_cap.max(1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameState, Turn};
    use crate::stumphog::Stumphog;
    use crate::tensor::tests::{Change, assert_each_change_shows, check_tensor_lengths, mid_game};

    #[test]
    fn every_observation_has_the_documented_length() {
        assert_eq!(STUMPHOG_TENSOR_LEN, 53);
        let n = check_tensor_lengths::<Stumphog>(&[], 3, 1, STUMPHOG_TENSOR_LEN);
        assert!(n > 100);
        let n = check_tensor_lengths::<Stumphog>(&["turns=40"], 2, 2, STUMPHOG_TENSOR_LEN);
        assert!(n > 50);
    }

    const CHANGES: &[Change<StumphogView>] = &[
        ("turn", |v| v.turn = Turn::Over),
        ("rows", |v| v.rows[1][6] += 1),
        ("hog", |v| v.hog[1] += 1),
        ("ute", |v| v.ute[0] += 1),
        ("stumpen", |v| v.stumpen += 1),
        ("in_hand", |v| v.in_hand += 1),
        ("stumpvarning", |v| v.stumpvarning[1] = !v.stumpvarning[1]),
        ("side", |v| v.side = 1 - v.side),
        ("phase", |v| v.phase = Phase::Rolling),
        ("dice", |v| {
            if let Phase::Acting(d) = &mut v.phase {
                d[1] = d[1] % 6 + 1;
            }
        }),
        ("turns", |v| v.turns += 1),
        ("rules.turn_cap", |v| v.rules.turn_cap += 1),
    ];

    #[test]
    fn every_field_shows_in_the_tensor() {
        let state = mid_game::<Stumphog>(&[], 3, |s| {
            matches!(s.observation(Viewer::Player(0)).phase, Phase::Acting(_))
        });
        assert_each_change_shows::<StumphogState>(&state.observation(Viewer::Player(0)), CHANGES);
    }
}
