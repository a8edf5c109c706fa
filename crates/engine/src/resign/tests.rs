//! Resignation in every game: what it pays, that it replays from a record,
//! that a refused one changes nothing.

use super::*;
use crate::DynGame;
use crate::backgammon::Backgammon;
use crate::conformance::check_resignations;
use crate::dynamic::{DynGameOf, DynState};
use crate::game::Turn;
use crate::high_gammon::{HighGammon, TricTrac};
use crate::lager::Lager;
use crate::outcome::Ending;
use crate::stortok::Stortok;
use crate::stumphog::Stumphog;
use crate::tawla::Tawla;

#[test]
fn a_resignation_reads_back_from_its_text() {
    for kind in Resignation::ALL {
        let r = Resign { seat: 3, kind };
        assert_eq!(Resign::parse(&r.text()).unwrap().unwrap(), r);
    }
    assert!(Resign::parse("24/18 13/11").is_none());
    for bad in ["resign:", "resign:x:single", "resign:1:all", "resign:1"] {
        assert!(Resign::parse(bad).unwrap().is_err(), "{bad}");
    }
}

#[test]
fn every_game_can_be_resigned_at_any_point_and_replays() {
    let mut taken = check_resignations::<Tawla>(&[], 6, 1);
    taken += check_resignations::<Tawla>(&["cube=on", "match=5"], 6, 2);
    taken += check_resignations::<Backgammon>(&["cube=on"], 6, 3);
    taken += check_resignations::<Backgammon>(&["cube=on", "match=3"], 6, 4);
    taken += check_resignations::<HighGammon>(&[], 4, 5);
    taken += check_resignations::<HighGammon>(&["scoring=cube", "players=3"], 4, 6);
    taken += check_resignations::<HighGammon>(&["scoring=traditional", "players=2"], 4, 7);
    taken += check_resignations::<TricTrac>(&["players=3"], 4, 8);
    taken += check_resignations::<Stumphog>(&[], 6, 9);
    taken += check_resignations::<Stortok>(&["players=4"], 6, 10);
    taken += check_resignations::<Lager>(&[], 6, 11);
    assert!(taken > 100, "{taken} resignations taken");
}

fn state(game: &dyn DynGame, options: &[&str]) -> Box<dyn DynState> {
    let pairs: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    let options = game.parse_options(&pairs).expect("options");
    game.new_state(&options).expect("state")
}

fn settle(state: &mut Box<dyn DynState>, rng: &mut crate::rng::SeededRng) {
    while state.turn() == Turn::Chance {
        let a = state.sample_chance(rng);
        state.apply_json(&a.json).expect("chance");
    }
}

#[test]
fn a_backgammon_resignation_pays_the_cube_times_single_gammon_or_backgammon() {
    let game = DynGameOf::<Backgammon>::new();
    let mut rng = crate::rng::seeded(1);
    for (kind, points) in [
        (Resignation::Single, 2.0),
        (Resignation::Gammon, 4.0),
        (Resignation::Backgammon, 6.0),
    ] {
        let mut s = state(&game, &["cube=on"]);
        settle(&mut s, &mut rng);
        let first = s.legal_actions()[0].json.clone();
        s.apply_json(&first).unwrap();
        // The player to move doubles and the other takes: the cube is at 2.
        let Turn::Player(doubler) = s.turn() else {
            panic!("a player")
        };
        s.apply_text("double").unwrap();
        s.apply_text("take").unwrap();
        let info = s.resign(1 - doubler, kind).unwrap();
        assert_eq!(info.text, format!("resign:{}:{}", 1 - doubler, kind.word()));
        assert_eq!(s.turn(), Turn::Over);
        assert_eq!(s.returns()[doubler], points);
        assert_eq!(s.outcome().unwrap().ending(), Ending::Resigned);
        assert!(s.resign(doubler, Resignation::Single).is_err(), "over");
    }
}

#[test]
fn tawla_offers_no_backgammon_and_a_refused_resignation_changes_nothing() {
    let game = DynGameOf::<Tawla>::new();
    let mut s = state(&game, &[]);
    let before = s.state_json();
    assert!(s.resign(0, Resignation::Backgammon).is_err());
    assert!(s.resign(2, Resignation::Single).is_err());
    assert_eq!(s.state_json(), before);
}

#[test]
fn a_resigned_game_of_a_match_gives_its_points_and_the_match_goes_on() {
    let game = DynGameOf::<Backgammon>::new();
    let mut s = state(&game, &["match=5", "cube=on"]);
    s.resign(1, Resignation::Gammon).unwrap();
    assert_ne!(s.turn(), Turn::Over, "the next game of the match");
    let view = s.observation_json(crate::game::Viewer::Spectator);
    assert_eq!(view["score"], serde_json::json!([2, 0]));
    assert_eq!(view["last_ending"], "resigned");
    // Giving up the match ends it: the other wins the match.
    s.resign(0, Resignation::Match).unwrap();
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.returns(), vec![-1.0, 1.0]);
    assert_eq!(s.outcome().unwrap().ending(), Ending::Match);
}

#[test]
fn a_high_gammon_resigner_leaves_and_the_last_one_left_wins() {
    let game = DynGameOf::<HighGammon>::new();
    let mut rng = crate::rng::seeded(2);
    let mut s = state(&game, &["players=3"]);
    settle(&mut s, &mut rng);
    s.resign(0, Resignation::Single).unwrap();
    assert_ne!(s.turn(), Turn::Over, "two players play on");
    assert!(s.resign(0, Resignation::Single).is_err(), "already out");
    settle(&mut s, &mut rng);
    s.resign(2, Resignation::Single).unwrap();
    assert_eq!(s.turn(), Turn::Over);
    let r = s.returns();
    // Points scoring: a resigner owes the most (8 per stone, 9 stones).
    assert_eq!(r, vec![-72.0, 144.0, -72.0]);
    assert_eq!(s.outcome().unwrap().ending(), Ending::Resigned);
}

#[test]
fn a_stortok_resigner_is_the_stortok() {
    let game = DynGameOf::<Stortok>::new();
    let mut s = state(&game, &["players=3"]);
    s.resign(1, Resignation::Match).unwrap();
    assert_eq!(s.returns(), vec![0.5, -1.0, 0.5]);
    assert_eq!(s.outcome().unwrap().ending(), Ending::Resigned);
}
