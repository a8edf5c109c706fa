//! Random games through the conformance check, and property tests.

use super::*;
use crate::conformance::check_random_games;
use crate::game::Turn;
use crate::playout::Playout;
use crate::record::Record;
use crate::rng::seeded;
use proptest::prelude::*;

/// STU-1 and STU-9 in every state: 70 stones, every board pile (Stumpen
/// too, once laid) keeps at least one.
fn invariants(s: &StumphogState) {
    assert_eq!(s.total_stones(), STONES);
    let b = s.board();
    assert!(b.rows.iter().flatten().all(|&c| c >= 1), "{b:?}");
    if s.phase() != Phase::Opening {
        assert!(b.stumpen >= 1, "{b:?}");
    }
}

#[test]
fn random_games_conform_default() {
    let summary = check_random_games::<Stumphog>(&[], 150, 1, 4100, invariants);
    assert_eq!(summary.games, 150);
}

#[test]
fn random_games_conform_short_options() {
    for (options, seed) in [
        (&["win=12"][..], 2),
        (&["turns=60"][..], 3),
        (&["win=25", "turns=400"][..], 4),
        (&["win=55", "turns=300"][..], 5),
    ] {
        let summary = check_random_games::<Stumphog>(options, 60, seed, 4100, invariants);
        assert_eq!(summary.games, 60);
    }
}

fn game(options: &[&str]) -> Stumphog {
    let options = crate::options::Options::parse(ID, Stumphog::option_specs(), options).unwrap();
    Stumphog::from_options(&options).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Conservation and the keep-one rule through whole random games, which
    /// always end (within the turn cap's plies).
    #[test]
    fn random_games_keep_70_stones_and_end(seed in any::<u64>(), win in 5u8..=55, cap in 1u32..=2000) {
        let g = game(&[&format!("win={win}"), &format!("turns={cap}")]);
        let mut s = g.initial_state();
        let mut rng = seeded(seed);
        let mut ok = true;
        let plies = Playout::default().run(&mut s, &mut rng, |st, _| {
            ok &= st.total_stones() == STONES
                && st.board().rows.iter().flatten().all(|&c| c >= 1)
                && (st.phase() == Phase::Opening || st.board().stumpen >= 1);
        });
        prop_assert!(ok);
        prop_assert_eq!(s.turn(), Turn::Over);
        prop_assert_eq!(s.total_stones(), STONES);
        prop_assert!(plies <= 1 + 2 * cap as u64);
        prop_assert!(s.turns() <= cap);
        let r = s.returns();
        prop_assert_eq!(r.get(0) + r.get(1), 0.0);
    }

    /// A record of every action in notation replays to the same state.
    #[test]
    fn records_replay(seed in any::<u64>()) {
        let g = game(&["turns=300"]);
        let mut s = g.initial_state();
        let mut record = Record::new(ID, crate::options::Options::parse(ID, Stumphog::option_specs(), &["turns=300"]).unwrap(), vec![]);
        let mut rng = seeded(seed);
        Playout::default().run(&mut s, &mut rng, |st, a| record.actions.push(st.format_action(a)));
        record.result = Some(s.returns().as_slice().to_vec());
        let json = record.to_json();
        let replayed = Record::from_json(&json).unwrap().replay().unwrap();
        prop_assert_eq!(replayed.state_json(), serde_json::to_value(s).unwrap());
    }
}

/// Every action that could be written for a player, legal or not.
fn conceivable() -> Vec<StumphogAction> {
    let mut out = vec![StumphogAction::Pass, StumphogAction::BatInFromOpponent];
    for stones in 0..=7 {
        for steps in 0..=7 {
            for row in [Row::Hitom, Row::Bortom] {
                for col in 0..=8 {
                    out.push(StumphogAction::Move {
                        stones,
                        steps,
                        row,
                        col,
                    });
                }
            }
        }
        out.push(StumphogAction::BatIn(stones));
    }
    out.extend((0..=13).map(StumphogAction::BatOut));
    out.push(StumphogAction::Roll([4, 2]));
    out.push(StumphogAction::Opening([4, 2]));
    out
}

#[test]
fn is_legal_agrees_with_the_generator() {
    // `is_legal` checks the generator's actions without building a list.
    let all = conceivable();
    let mut legal = Vec::new();
    let mut checked = 0;
    for seed in 0..12 {
        let mut s = game(&[]).initial_state();
        let mut rng = seeded(seed);
        Playout::default().run(&mut s, &mut rng, |st, _| {
            if !matches!(st.turn(), Turn::Player(_)) || st.turns() % 5 != 0 {
                return;
            }
            st.legal_actions(&mut legal);
            for &a in &all {
                assert_eq!(st.is_legal(a), legal.contains(&a), "{a:?} in {st:?}");
            }
            checked += 1;
        });
    }
    assert!(checked > 100);
}

#[test]
fn a_position_with_dice_off_the_die_is_brought_onto_it() {
    // Dice outside 1..=6 given to the analysis constructor become 1..=6.
    let s =
        StumphogState::with_position(Rules::default(), super::set_up_board(), 0, Some([200, 200]));
    assert_eq!(s.phase(), Phase::Acting([6, 6]));
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    assert!(out.contains(&StumphogAction::BatOut(12)));
    let s = StumphogState::with_position(Rules::default(), super::set_up_board(), 1, Some([0, 9]));
    assert_eq!(s.phase(), Phase::Acting([6, 1]));
}
