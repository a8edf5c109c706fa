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
    let summary = check_random_games::<Stumphog>(&[], 150, 1, invariants);
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
        let summary = check_random_games::<Stumphog>(options, 60, seed, invariants);
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
        }).expect("the game ends");
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
        Playout::default().run(&mut s, &mut rng, |st, a| record.actions.push(st.format_action(a))).expect("the game ends");
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

/// Whether `action` is legal, straight from STU-8..STU-15 without the
/// generator. `None` where the rules leave a choice to the seed's reading
/// (STU-12: passing instead of batting in the opponent's stones).
fn legal_by_the_rules(s: &StumphogState, action: StumphogAction) -> Option<bool> {
    let Phase::Acting([x, y]) = s.phase() else {
        return Some(false);
    };
    let (p, b) = (s.mover(), s.board());
    let q = 1 - p;
    // STU-8: one die the stones, the other the steps.
    let dice = |m: u8, n: u8| (m, n) == (x, y) || (m, n) == (y, x);
    let own_kind = |a: StumphogAction| match a {
        StumphogAction::Move {
            stones,
            steps,
            row,
            col,
        } => {
            (1..=7).contains(&col)
                && dice(stones, steps)
                // STU-9: the pile keeps one stone
                && b.pile(p, row, col) > stones
                // STU-10: out of Hemma (columns 5..7) by one step only
                && (col < 5 || steps == 1)
        }
        // STU-12: a six bats in the other die's number, while there are stones
        StumphogAction::BatIn(n) => dice(6, n) && b.hog[p] + b.ute[q] + b.hog[q] > 0,
        // STU-12, STU-15: from the opponent, unless that is the same as from
        // an empty own Hög
        StumphogAction::BatInFromOpponent => {
            (x, y) == (6, 6) && b.hog[p] > 0 && b.ute[q] + b.hog[q] > 0
        }
        // STU-14: doubles bat out the sum, Stumpen keeping one
        StumphogAction::BatOut(n) => x == y && n == x + y && b.stumpen - 1 + b.hog[p] > 0,
        _ => false,
    };
    match action {
        StumphogAction::Pass => {
            // STU-15: pass only without another action
            let others: Vec<StumphogAction> =
                conceivable().into_iter().filter(|&a| own_kind(a)).collect();
            match others[..] {
                [] => Some(true),
                [StumphogAction::BatInFromOpponent] => None,
                _ => Some(false),
            }
        }
        a => Some(own_kind(a)),
    }
}

#[test]
fn the_generator_and_is_legal_agree_with_the_rules() {
    // Every conceivable action in states of random games: listed by the
    // generator, and accepted by `is_legal`, exactly when the rules allow it.
    let all = conceivable();
    let mut legal = Vec::new();
    let mut checked = 0;
    for seed in 0..12 {
        let mut s = game(&[]).initial_state();
        let mut rng = seeded(seed);
        Playout::default()
            .run(&mut s, &mut rng, |st, _| {
                if !matches!(st.turn(), Turn::Player(_)) || st.turns() % 5 != 0 {
                    return;
                }
                st.legal_actions(&mut legal);
                for &a in &all {
                    let Some(want) = legal_by_the_rules(st, a) else {
                        continue;
                    };
                    assert_eq!(legal.contains(&a), want, "listed {a:?} in {st:?}");
                    assert_eq!(st.is_legal(a), want, "is_legal {a:?} in {st:?}");
                }
                checked += 1;
            })
            .expect("the game ends");
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
