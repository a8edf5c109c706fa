//! Checks the games' tensor tests share, and tests of [`Features`].

use super::*;
use crate::conformance::check_random_games;
use crate::game::{Game, Player};
use crate::options::Options;
use crate::rng::seeded;

/// The tensor of `observation` as `viewer` sees it.
pub(crate) fn encode<S: ObservationTensor>(
    observation: &S::Observation,
    viewer: Viewer,
) -> Vec<f32> {
    let mut out = Vec::new();
    S::encode_observation(observation, viewer, &mut Features(&mut out));
    out
}

/// Plays `games` random games of `G` (the conformance checks included) and
/// checks that every viewer's tensor of every state, a spectator's too, has
/// `len` finite floats, the length the state reports and its observation's
/// encoding. Returns how many tensors it checked.
pub(crate) fn check_tensor_lengths<G: Game>(
    options: &[&str],
    games: usize,
    seed: u64,
    len: usize,
) -> usize {
    let mut checked = 0;
    let mut tensor = Vec::new();
    check_random_games::<G>(options, games, seed, |state| {
        assert_eq!(state.observation_tensor_len(), len);
        let players = (0..state.num_players()).map(Viewer::Player);
        for viewer in players.chain([Viewer::Spectator]) {
            observation_tensor(state, viewer, &mut tensor);
            assert_eq!(tensor.len(), len, "{viewer:?} of {state:?}");
            assert!(tensor.iter().all(|x| x.is_finite()), "{tensor:?}");
            assert_eq!(
                tensor,
                encode::<G::State>(&state.observation(viewer), viewer)
            );
            checked += 1;
        }
    });
    checked
}

/// A state of a random game of `G` after at least 10 plies for which `wanted`
/// holds (the first such, over as many games as it takes).
pub(crate) fn mid_game<G: Game>(
    options: &[&str],
    seed: u64,
    wanted: impl Fn(&G::State) -> bool,
) -> G::State {
    let options = Options::parse(G::ID, G::option_specs(), options).expect("valid options");
    let game = G::from_options(&options).expect("game from options");
    let mut rng = seeded(seed);
    let mut actions = Vec::new();
    for _ in 0..1000 {
        let mut state = game.initial_state();
        for ply in 0.. {
            if ply >= 10 && wanted(&state) {
                return state;
            }
            let action = match state.turn() {
                Turn::Over => break,
                Turn::Chance => state.sample_chance(&mut rng),
                Turn::Player(_) => state.random_action(&mut rng, &mut actions),
            };
            state.apply(action);
        }
    }
    panic!("no wanted state in 1000 random games");
}

/// A named change to an observation: a field it changes.
pub(crate) type Change<O> = (&'static str, fn(&mut O));

/// Asserts that each of `changes` to `observation` changes the tensor (seen
/// by the first player), and not its length: every field it names shows.
pub(crate) fn assert_each_change_shows<S: ObservationTensor>(
    observation: &S::Observation,
    changes: &[Change<S::Observation>],
) {
    let viewer = Viewer::Player(0);
    let before = encode::<S>(observation, viewer);
    for (field, change) in changes {
        let mut changed = observation.clone();
        change(&mut changed);
        let after = encode::<S>(&changed, viewer);
        assert_eq!(after.len(), before.len(), "changing {field}");
        assert_ne!(
            after, before,
            "changing {field} leaves the tensor as it was"
        );
    }
}

fn features(write: impl FnOnce(&mut Features)) -> Vec<f32> {
    let mut out = Vec::new();
    write(&mut Features(&mut out));
    out
}

#[test]
fn the_head_shows_the_turn_and_the_viewer() {
    let head = |turn, viewer| features(|f| f.turn_and_viewer(turn, viewer));
    let player = |p: Player| {
        let mut v = vec![0.0; HEAD_LEN];
        v[2 + p] = 1.0;
        v
    };
    assert_eq!(head(Turn::Player(3), Viewer::Spectator), player(3));
    let mut chance = vec![0.0; HEAD_LEN];
    chance[0] = 1.0;
    chance[2 + MAX_PLAYERS + 4] = 1.0;
    assert_eq!(head(Turn::Chance, Viewer::Player(4)), chance);
    assert_eq!(head(Turn::Over, Viewer::Spectator)[..2], [0.0, 1.0]);
}

#[test]
fn dice_cards_and_cube_have_fixed_lengths() {
    let dice = features(|f| f.dice(Some([6, 1])));
    assert_eq!(dice.len(), DICE_LEN);
    assert_eq!(
        (dice[5], dice[6], dice.iter().sum::<f32>()),
        (1.0, 1.0, 2.0)
    );
    assert_eq!(features(|f| f.dice(Some([0, 7]))), vec![0.0; DICE_LEN]);
    assert_eq!(features(|f| f.dice(None)), vec![0.0; DICE_LEN]);
    let cards = features(|f| f.cards([0, 51, 52, 51]));
    assert_eq!(cards.len(), CARD_SLOTS);
    assert_eq!(
        (cards[0], cards[51], cards.iter().sum::<f32>()),
        (1.0, 1.0, 2.0)
    );
    assert_eq!(features(|f| f.cube(Some(8))), vec![0.5]);
    assert_eq!(features(|f| f.cube(None)), features(|f| f.cube(Some(1))));
    assert_eq!(features(|f| f.one_hot(Some(3), 3)), vec![0.0; 3]);
}
