use super::*;
use crate::conformance::check_random_games;
use crate::game::GameState;
use crate::rng::seeded;
use crate::stortok::Stortok;
use crate::tensor::observation_tensor;
use crate::tensor::tests::{Change, assert_each_change_shows, check_tensor_lengths, mid_game};

#[test]
fn every_observation_has_the_documented_length() {
    assert_eq!(STORTOK_TENSOR_LEN, 499);
    for (options, seed) in [
        (["players=2", "version=1858"], 1),
        (["players=3", "version=schenkmanis"], 2),
        (["players=5", "version=helmfrid"], 3),
    ] {
        let options = [options[0], options[1], "cap=300"];
        let n = check_tensor_lengths::<Stortok>(&options, 2, seed, STORTOK_TENSOR_LEN);
        assert!(n > 100);
    }
}

/// Every card slot of the card blocks (hand, table, discards, known per
/// player, the turned card) that holds `card`.
fn card_features(card: Card) -> impl Iterator<Item = usize> {
    let blocks = [0, 1, 2, 3, 4, 5, 6, 7].map(|b| HEAD_LEN + b * CARD_SLOTS);
    let turned = HEAD_LEN + 8 * CARD_SLOTS + MAX_PLAYERS;
    blocks
        .into_iter()
        .chain([turned])
        .map(move |b| b + card.index())
}

#[test]
fn no_tensor_shows_a_card_its_viewer_may_not_see() {
    let mut tensor = Vec::new();
    let mut checked = 0;
    check_random_games::<Stortok>(&["players=4", "cap=300"], 3, 5, |s| {
        let others = |p: Option<usize>| (0..4).filter(move |&q| Some(q) != p);
        for viewer in (0..4).map(Viewer::Player).chain([Viewer::Spectator]) {
            let seat = match viewer {
                Viewer::Player(p) => Some(p),
                Viewer::Spectator => None,
            };
            let unknown = others(seat).map(|q| s.hands[q] & !s.known[q]);
            let hidden = unknown.fold(s.stock, |all, cards| all | cards);
            observation_tensor(s, viewer, &mut tensor);
            for card in super::super::Cards(hidden) {
                for i in card_features(card) {
                    assert_eq!(tensor[i], 0.0, "{card} seen by {viewer:?} at {i}");
                }
                checked += 1;
            }
        }
    });
    assert!(checked > 1000);
}

#[test]
fn states_a_player_cannot_tell_apart_give_him_the_same_tensor() {
    let mut rng = seeded(8);
    let (mut mine, mut sampled) = (Vec::new(), Vec::new());
    let mut differ = 0;
    for seed in 0..6 {
        let state = mid_game::<Stortok>(&["players=3"], seed, |s| s.turn() != Turn::Over);
        for p in 0..3 {
            let viewer = Viewer::Player(p);
            observation_tensor(&state, viewer, &mut mine);
            for _ in 0..5 {
                let view = state.observation(viewer);
                let other = StortokState::sample_from_observation(&view, &mut rng)
                    .expect("a state from the observation");
                differ += usize::from(other.hands != state.hands);
                observation_tensor(&other, viewer, &mut sampled);
                assert_eq!(sampled, mine, "player {p} of {state:?} and {other:?}");
            }
        }
    }
    assert!(differ > 10, "the samples deal the hidden cards otherwise");
}

#[test]
fn the_turn_is_the_states() {
    check_random_games::<Stortok>(&["players=2", "cap=300"], 2, 6, |s| {
        for viewer in [Viewer::Player(1), Viewer::Spectator] {
            assert_eq!(observed_turn(&s.observation(viewer)), s.turn());
        }
    });
}

const CHANGES: &[Change<StortokObservation>] = &[
    ("turn (to_move)", |o| {
        o.to_move = (o.to_move + 1) % o.players
    }),
    ("hand", |o| {
        o.hand.as_mut().expect("a player's hand").pop();
    }),
    ("table", |o| o.table.push(Card::from_index(51))),
    ("discarded", |o| o.discarded.push(Card::from_index(0))),
    ("known", |o| o.known[2].push(Card::from_index(30))),
    ("hand_sizes", |o| o.hand_sizes[1] += 1),
    ("turned", |o| o.turned = Some(Card::from_index(13))),
    ("high_trump", |o| o.high_trump = Some(Suit::Hearts)),
    ("low_trump", |o| o.low_trump = Some(Suit::Hearts)),
    ("phase", |o| o.phase = Phase::Over),
    ("stock", |o| o.stock += 1),
    ("turned_in_stock", |o| {
        o.turned_in_stock = !o.turned_in_stock
    }),
];

#[test]
fn every_field_shows_in_the_tensor() {
    let state = mid_game::<Stortok>(&["players=3"], 9, |s| {
        let view = s.observation(Viewer::Player(0));
        view.phase == Phase::Play
            && view.hand.as_ref().is_some_and(|h| !h.is_empty())
            && view.turned != Some(Card::from_index(13))
            && ![view.high_trump, view.low_trump].contains(&Some(Suit::Hearts))
            && !view.table.contains(&Card::from_index(51))
            && !view.discarded.contains(&Card::from_index(0))
            && !view.known[2].contains(&Card::from_index(30))
    });
    let view = state.observation(Viewer::Player(0));
    assert_each_change_shows::<StortokState>(&view, CHANGES);
}
