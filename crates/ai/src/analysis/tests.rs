use super::*;
use crate::build;
use crate::spec::AgentSpec;
use spelbord_engine::backgammon::Backgammon;
use spelbord_engine::rng::seeded;
use spelbord_engine::stortok::Stortok;
use spelbord_engine::{Options, Viewer};

/// A game of `G` played at random from its start, at most `max` actions.
#[allow(clippy::type_complexity)]
fn random_game<G: Game>(seed: u64, max: usize) -> (G::State, Vec<<G::State as GameState>::Action>) {
    let game = G::from_options(&Options::defaults(G::option_specs())).expect("default options");
    let start = game.initial_state();
    let mut state = start.clone();
    let mut rng = seeded(seed);
    let mut actions = Vec::new();
    let mut scratch = Vec::new();
    while state.turn() != Turn::Over && actions.len() < max {
        let a = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            _ => state.random_action(&mut rng, &mut scratch),
        };
        state.apply(a);
        actions.push(a);
    }
    (start, actions)
}

fn cheap(level: &str) -> AnalysisConfig {
    AnalysisConfig {
        level: level.into(),
        ..AnalysisConfig::default()
    }
}

fn check_summary<G: Game>(level: &str, max: usize) -> Analysis {
    let (start, actions) = random_game::<G>(3, max);
    let a = analyse_game::<G>(start.clone(), &actions, &[], &cheap(level), &()).unwrap();
    assert_eq!(a.players.len(), start.num_players(), "{}", G::ID);
    assert!(!a.decisions.is_empty(), "{}", G::ID);
    for d in &a.decisions {
        assert!(d.choices > 1);
        if let Some(loss) = d.loss {
            assert!(loss >= 0.0, "{d:?}");
            assert_eq!(d.mark, mark(loss, d.unit));
        }
    }
    let rated: usize = a.players.iter().map(|p| p.moves + p.cube_decisions).sum();
    assert_eq!(
        rated,
        a.decisions.iter().filter(|d| d.loss.is_some()).count()
    );
    a
}

#[test]
fn every_game_is_analysed_with_a_summary_per_player() {
    use spelbord_engine::high_gammon::{HighGammon, TricTrac};
    use spelbord_engine::lager::Lager;
    use spelbord_engine::stumphog::Stumphog;
    use spelbord_engine::tawla::Tawla;
    let bg = check_summary::<Backgammon>("net", 400);
    assert_eq!(bg.unit, Unit::Equity);
    assert!(!bg.rolls.is_empty());
    let t = check_summary::<Tawla>("net", 400);
    assert!(t.players.iter().all(|p| p.luck.is_some()));
    check_summary::<HighGammon>("mcts:prior=on,cutoff=4,iters=60", 120);
    check_summary::<TricTrac>("mcts:prior=on,cutoff=4,iters=60", 120);
    check_summary::<Stumphog>("mcts:prior=on,cutoff=4,iters=60", 120);
    let l = check_summary::<Lager>("alphabeta:nodes=2000", 60);
    assert!(l.players.iter().all(|p| p.luck.is_none()));
    let s = check_summary::<Stortok>("ismcts:iters=60,cutoff=10", 40);
    // A card game has no rolls to be lucky in.
    assert!(s.rolls.is_empty() && s.players.iter().all(|p| p.luck.is_none()));
}

#[test]
fn a_backgammon_blunder_is_marked_very_bad() {
    let game = Backgammon::from_options(&Options::defaults(Backgammon::option_specs())).unwrap();
    let mut state = game.initial_state();
    let mut rng = seeded(9);
    let start = state;
    let mut actions = Vec::new();
    // Play until a roll offers a real choice, then play its worst play.
    let spec = AgentSpec::parse("net").unwrap();
    loop {
        match state.turn() {
            Turn::Chance => {
                let a = state.sample_chance(&mut rng);
                state.apply(a);
                actions.push(a);
            }
            _ => {
                let mut agent = build::<<Backgammon as Game>::State>(&spec, false, 1);
                let estimates = agent.analyse(&state);
                let worst = estimates.last().unwrap();
                let best = estimates.first().unwrap();
                let gap = best.equity.unwrap().value - worst.equity.unwrap().value;
                if estimates.len() < 2 || gap < 0.3 {
                    state.apply(best.action);
                    actions.push(best.action);
                    continue;
                }
                actions.push(worst.action);
                break;
            }
        }
    }
    let a = analyse_game::<Backgammon>(start, &actions, &[], &cheap("net"), &()).unwrap();
    let last = a.decisions.last().unwrap();
    assert_eq!(last.index, actions.len() - 1);
    assert!(last.loss.unwrap() >= 0.3, "{last:?}");
    assert_eq!(last.mark, Some(Mark::VeryBad));
    assert!(a.players[last.player].very_bad >= 1);
    // The other decisions were the analyser's own choices: no loss.
    for d in &a.decisions[..a.decisions.len() - 1] {
        assert_eq!(d.loss, Some(0.0), "{d:?}");
    }
}

#[test]
fn the_luck_of_a_roll_averages_to_nothing_over_every_roll() {
    let (start, actions) = random_game::<Backgammon>(4, 30);
    let mut state = start;
    let spec = AgentSpec::parse("net").unwrap();
    let mut checked = 0;
    for &a in &actions {
        if state.turn() == Turn::Chance && checked < 3 {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            let mean: f64 = outcomes
                .iter()
                .map(|&(o, p)| {
                    let r = luck::roll::<Backgammon>(0, &state, o, &spec);
                    p * r.luck[r.roller.unwrap()]
                })
                .sum();
            // Each roll's luck is from its roller's side, and the roller
            // is the same for every roll after the first.
            if outcomes.len() == 21 {
                assert!(mean.abs() < 1e-9, "{mean}");
                checked += 1;
            }
        }
        state.apply(a);
    }
    assert!(checked > 0);
}

#[test]
fn the_analysis_does_not_depend_on_the_threads() {
    let (start, actions) = random_game::<spelbord_engine::stumphog::Stumphog>(5, 60);
    let config = |threads| AnalysisConfig {
        level: "mcts:prior=on,cutoff=4,iters=80".into(),
        threads,
        ..AnalysisConfig::default()
    };
    let one =
        analyse_game::<spelbord_engine::stumphog::Stumphog>(start, &actions, &[], &config(1), &())
            .unwrap();
    let two =
        analyse_game::<spelbord_engine::stumphog::Stumphog>(start, &actions, &[], &config(3), &())
            .unwrap();
    assert_eq!(one, two);
}

#[test]
fn stortok_decisions_are_judged_from_the_players_own_cards_only() {
    // Swapping the cards the mover cannot see changes nothing.
    let (start, actions) = random_game::<Stortok>(7, 200);
    let spec = AgentSpec::parse("ismcts:iters=200,cutoff=10").unwrap();
    let mut state = start;
    let mut rng = seeded(11);
    let mut compared = 0;
    let mut legal = Vec::new();
    for &a in &actions {
        if let Turn::Player(me) = state.turn() {
            state.legal_actions(&mut legal);
            let observation = state.observation(Viewer::Player(me));
            if legal.len() > 1 && compared < 5 {
                let other =
                    <Stortok as Game>::State::sample_from_observation(&observation, &mut rng)
                        .expect("a world from the observation");
                if other != state {
                    let here = rate_decision::<Stortok>(&state, a, &spec, 3);
                    let there = rate_decision::<Stortok>(&other, a, &spec, 3);
                    assert_eq!(here, there);
                    // Also for an action the search may not have tried.
                    let last = *legal.last().unwrap();
                    assert_eq!(
                        rate_decision::<Stortok>(&state, last, &spec, 3),
                        rate_decision::<Stortok>(&other, last, &spec, 3)
                    );
                    compared += 1;
                }
            }
        }
        state.apply(a);
    }
    assert!(compared > 0, "no decision with hidden cards to swap");
}

#[test]
fn a_record_is_analysed_and_a_bad_analyser_is_a_typed_error() {
    let (start, actions) = random_game::<spelbord_engine::tawla::Tawla>(2, 40);
    let options = Options::defaults(spelbord_engine::tawla::Tawla::option_specs());
    let mut record = Record::new("tawla", options, vec!["ann".into(), "bo".into()]);
    let mut state = start;
    for &a in &actions {
        record.actions.push(state.format_action(a));
        state.apply(a);
    }
    let a = analyse_record(&record, &cheap("hard"), &()).unwrap();
    assert_eq!(a.players[0].name, "ann");
    assert_eq!(a.analyser, "net:ply=2,filter=3");
    assert_eq!(a.judge, Judge::Quick);
    assert!(matches!(
        analyse_record(&record, &cheap("nonsense:x=1"), &()),
        Err(AnalysisError::Analyser(_))
    ));
    record.actions.push("nonsense".into());
    assert!(matches!(
        analyse_record(&record, &cheap("hard"), &()),
        Err(AnalysisError::Record(_))
    ));
}

/// Positions and their IDs printed by GNU Backgammon 1.07 (`gnubg -t`, see
/// each test); its own verdicts are in the comments.
mod gnubg_positions {
    use super::*;

    /// `set seed 5`, `new game` (GNU Backgammon played 24/23 13/11 with its
    /// opening 2-1), `set dice 3 1`, `show board`, `hint`: 8/5 6/5 best,
    /// by 0.219 before 24/23 13/10.
    const PLAY_31: &str = "4HPkASjgc/ABMA:cIkFAAAAAAAA";

    #[test]
    fn every_play_of_a_position_is_rated_best_first() {
        let a = analyse_position("backgammon", PLAY_31, &cheap("expert")).unwrap();
        let state: <Backgammon as Game>::State = PLAY_31.parse().unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        assert_eq!(a.actions.len(), legal.len());
        assert!(!a.cube && a.unit == Unit::Equity && a.player == state.mover() as usize);
        assert_eq!(a.actions[0].action, "8/5 6/5");
        assert_eq!(a.actions[0].loss, Some(0.0));
        for w in a.actions.windows(2) {
            assert!(w[0].rating >= w[1].rating, "{w:?}");
        }
        for r in &a.actions {
            let loss = r.loss.unwrap();
            assert_eq!(r.mark, mark(loss, Unit::Equity), "{r:?}");
            assert!((0.0..=1.0).contains(&r.chance.unwrap()), "{r:?}");
        }
        // As GNU Backgammon finds, every other play loses a lot.
        assert!(a.actions[1].loss.unwrap() >= 0.08, "{:?}", a.actions[1]);
    }

    #[test]
    fn cube_decisions_are_rated_in_money_and_match_play() {
        // `new game`, `set board simple 0 3 3 3 3 3 0 0 0 0 0 0 0 0 0 0 0 0
        // 0 -3 -3 -3 -3 -3 0 0`, `set turn root`, `show board`, `hint`: a
        // race 87% to win: "Double, pass"; after `new match 5` the same
        // board has the match ID cAmgAAAAAAAE and the same verdict.
        for (id, unit) in [
            ("7u4OAAB3dwcAAA:cAkAAAAAAAAA", Unit::Equity),
            ("7u4OAAB3dwcAAA:cAmgAAAAAAAE", Unit::MatchWinningChance),
        ] {
            let a = analyse_position("backgammon", id, &cheap("expert")).unwrap();
            assert!(a.cube, "{id}");
            assert_eq!(a.unit, unit, "{id}");
            assert_eq!(a.actions.len(), 2, "{id}");
            assert_eq!(a.actions[0].action, "double", "{id}: {a:?}");
        }
        // The position before 3-1 above, root to roll: "No double".
        let a = analyse_position(
            "backgammon",
            "4HPkASjgc/ABMA:cAkAAAAAAAAA",
            &cheap("expert"),
        )
        .unwrap();
        assert!(a.cube);
        assert_ne!(a.actions[0].action, "double", "{a:?}");
    }

    #[test]
    fn a_position_without_a_decision_or_unreadable_is_a_typed_error() {
        for bad in [
            "4HPkASjgc/ABMA", // no match ID: before the roll, cubeless
            "4HPkASjgc/ABM!:cIkFAAAAAAAA",
            "not a position",
        ] {
            assert!(
                matches!(
                    analyse_position("backgammon", bad, &cheap("expert")),
                    Err(AnalysisError::Position(_))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            analyse_position("chess", PLAY_31, &cheap("expert")),
            Err(AnalysisError::Position(_))
        ));
    }
}

/// A Tawla game that `ai:hard` won by the mother (TAW-11) against
/// `ai:medium` (`spelbord arena tawla --agents ai:hard,ai:medium --games
/// 40 --seed 5 --record DIR`, game 3): the luck summed roll by roll came to
/// more than the result could make up for (a luck-adjusted 1.143).
const TAWLA_MOTHER: &str = include_str!("testdata/tawla-mother.json");

#[test]
fn a_tawla_game_won_by_the_mother_keeps_the_luck_adjusted_results_within_the_results() {
    let record = Record::from_json(TAWLA_MOTHER).unwrap();
    assert!(TAWLA_MOTHER.contains(r#""ending": "mother""#));
    for level in ["net", "net:ply=1"] {
        let a = analyse_record(&record, &cheap(level), &()).unwrap();
        for p in &a.players {
            let adjusted = p.luck_adjusted_score.unwrap();
            assert!((0.0..=1.0).contains(&adjusted), "{level}: {p:?}");
        }
    }
}

#[test]
fn the_best_move_is_never_rated_below_the_one_played() {
    // Only the first candidate by 0-ply is searched a ply: the second,
    // played every time, is rated a ply deep too and is sometimes better.
    let spec = AgentSpec::parse("net").unwrap();
    let game = Backgammon::from_options(&Options::defaults(Backgammon::option_specs())).unwrap();
    let start = game.initial_state();
    let mut state = start;
    let mut rng = seeded(21);
    let mut actions = Vec::new();
    while state.turn() != Turn::Over && actions.len() < 120 {
        let a = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            _ => {
                let e = build::<<Backgammon as Game>::State>(&spec, false, 1).analyse(&state);
                e.get(1).unwrap_or(&e[0]).action
            }
        };
        state.apply(a);
        actions.push(a);
    }
    let config = cheap("net:ply=1,filter=1");
    let a = analyse_game::<Backgammon>(start, &actions, &[], &config, &()).unwrap();
    let mut played_best = 0;
    for d in &a.decisions {
        assert!(d.best_rating >= d.played_rating, "{d:?}");
        played_best += usize::from(d.best == d.played);
    }
    assert!(played_best > 0, "the second candidate was never the best");
}

#[test]
fn the_luck_is_measured_with_the_judges_evaluation() {
    // The value before a roll is the judge's value of the position, the
    // one it rated the move before with: two plies, not the bare network.
    let (start, actions) = random_game::<Backgammon>(6, 12);
    let judge = AgentSpec::parse("net:ply=2").unwrap();
    let mut state = start;
    let mut checked = 0;
    let mut decided = false;
    for &a in &actions {
        decided |= matches!(state.turn(), Turn::Player(_));
        // After the opening roll, which decides who moves first.
        if state.turn() == Turn::Chance && decided && checked < 2 {
            let r = luck::roll::<Backgammon>(0, &state, a, &judge);
            if let Some(q) = r.roller {
                let mut net = build::<<Backgammon as Game>::State>(&judge, false, 0);
                let value = net.estimate(&state, q).unwrap();
                assert!((r.before - value).abs() < 1e-4, "{} {value}", r.before);
                checked += 1;
            }
        }
        state.apply(a);
    }
    assert!(checked > 0);
}

#[test]
fn the_marks_take_gnubgs_thresholds_or_the_users() {
    // GNU Backgammon 1.07, `show analysis`: -0.030 doubtful, -0.060 bad,
    // -0.120 very bad.
    assert_eq!(thresholds(Unit::Equity), [0.03, 0.06, 0.12]);
    assert_eq!(mark(0.05, Unit::Equity), Some(Mark::Doubtful));
    assert_eq!(mark(0.13, Unit::Equity), Some(Mark::VeryBad));
    let (start, actions) = random_game::<Backgammon>(8, 200);
    let default = analyse_game::<Backgammon>(start, &actions, &[], &cheap("net"), &()).unwrap();
    let strict = AnalysisConfig {
        thresholds: Some([0.001, 0.002, 0.004]),
        ..cheap("net")
    };
    let a = analyse_game::<Backgammon>(start, &actions, &[], &strict, &()).unwrap();
    assert_eq!(a.thresholds, [0.001, 0.002, 0.004]);
    let marks = |a: &Analysis| a.decisions.iter().filter(|d| d.mark.is_some()).count();
    assert!(
        marks(&a) > marks(&default),
        "{} {}",
        marks(&a),
        marks(&default)
    );
    // Marking again gives what analysing with the thresholds gives.
    let mut again = default.clone();
    again.remark([0.001, 0.002, 0.004]);
    assert_eq!(again, a);
    assert!(!valid_thresholds([0.06, 0.03, 0.12]) && !valid_thresholds([0.0, 0.1, 0.2]));
}

#[test]
fn the_judge_is_never_a_level_and_is_said_in_words() {
    use crate::levels::level_agent;
    use crate::spec::Level;
    for game in [
        "backgammon",
        "tawla",
        "high-gammon",
        "stumphog",
        "lager",
        "stortok",
    ] {
        for level in ["expert", "hard"] {
            let judge = analyser(game, level);
            for l in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
                for players in 2..=4 {
                    assert_ne!(judge, level_agent(game, players, None, l), "{game} {level}");
                }
            }
        }
    }
    assert_eq!(analyser("tawla", "expert"), "net:ply=2");
    assert_eq!(Judge::of("expert").words(), "the computer, deep");
    assert_eq!(Judge::of("mcts:iters=9"), Judge::Custom);
}

#[test]
fn high_gammons_opening_roll_is_everyones_and_the_seats_have_colours() {
    use spelbord_engine::high_gammon::HighGammon;
    let (start, actions) = random_game::<HighGammon>(4, 40);
    let a = analyse_game::<HighGammon>(
        start,
        &actions,
        &[],
        &cheap("mcts:prior=on,cutoff=4,iters=30"),
        &(),
    )
    .unwrap();
    let first_decision = a.decisions[0].index;
    assert!(a.rolls[0].shared, "{:?}", a.rolls[0]);
    for r in &a.rolls {
        assert_eq!(r.shared, r.index < first_decision, "{r:?}");
    }
    assert!(!a.cube);
    assert!(
        a.players.iter().all(|p| p.colour.is_some()),
        "{:?}",
        a.players
    );
}

#[test]
fn an_analysis_stored_before_the_judge_was_named_is_marked_again() {
    let (start, actions) = random_game::<Backgammon>(8, 60);
    let a = analyse_game::<Backgammon>(start, &actions, &[], &cheap("net"), &()).unwrap();
    let mut json = serde_json::to_value(&a).unwrap();
    for key in ["judge", "cube"] {
        json.as_object_mut().unwrap().remove(key);
    }
    let mut old: Analysis = serde_json::from_value(json).unwrap();
    assert_eq!(old.judge, Judge::Custom);
    old.remark([0.001, 0.002, 0.004]);
    assert_eq!(old.thresholds, [0.001, 0.002, 0.004]);
}
