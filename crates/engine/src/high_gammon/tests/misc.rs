//! Notation, the drawing, the JSON view and the heuristic.

use super::*;
use crate::game::{Heuristic, Turn, Viewer};
use crate::playout::Playout;
use crate::rng::seeded;
use rand::Rng;

#[test]
fn notation_forms_round_trip_and_errors() {
    let r = hg(2);
    let b = board(r, &[&[(0, 2), (3, 2)], &[(10, 9)]]);
    let s = HgState::with_position(r, b, 0, [2, 5]);
    // the same play in several spellings
    let canonical = s.parse_action("1/3 3/8").unwrap();
    assert!(s.is_legal(canonical));
    for text in ["1/3/8", "1/8", " 1/3, 3/8 ", "3/8 1/3"] {
        assert_eq!(s.parse_action(text).unwrap(), canonical, "{text}");
    }
    // a `*` where nothing is hit is refused, naming the play's notation
    let err = s.parse_action("1/3* 3/8").unwrap_err().to_string();
    assert!(err.contains("`1/3 3/8`"), "{err}");
    // dice are written smaller first; either order is read
    assert_eq!(s.parse_action("5-2").unwrap(), HgAction::Dice([2, 5]));
    assert_eq!(s.format_action(HgAction::Dice([2, 5])), "2-5");
    // the repeat count
    let d = HgState::with_position(r, b, 0, [2, 2]);
    assert!(d.is_legal(d.parse_action("1/3(2)").unwrap()));
    // malformed text is a typed error; an illegal play changes nothing
    assert!(s.parse_action("1/29").is_err());
    assert!(s.parse_action("1/").is_err());
    assert!(s.parse_action("open X5").is_err());
    let mut t = s;
    let bad = t.parse_action("1/4 4/9").unwrap();
    let err = t.try_apply(bad).unwrap_err().to_string();
    assert!(err.contains("smaller number"), "{err}");
    assert_eq!(t, s);
    // cube words
    assert_eq!(s.parse_action("take").unwrap(), HgAction::Take);
    // records written before the cube action had one name across games
    assert_eq!(s.parse_action("accept").unwrap(), HgAction::Take);
    assert_eq!(
        serde_json::from_str::<HgAction>("\"accept\"").unwrap(),
        HgAction::Take
    );
    assert_eq!(s.format_action(HgAction::Take), "take");
    assert_eq!(s.format_action(HgAction::Drop), "drop");
}

#[test]
fn render_shows_the_square_board_and_everything_a_player_needs() {
    let s = HgState::new(rules(4, false, Doubles::Reroll, Scoring::Cube));
    let text = super::super::render::plain(&s);
    for want in [
        "High-O Gammon — 4 players, doubles: reroll, scoring: cube",
        "28 rest",
        "7 rest",
        "B>",
        "[B]",
        "bar: B0 R0 Y0 G0",
        "off: B0 R0 Y0 G0",
        "cube: 1",
        "Blue   B  start  1  goal 18 19 20",
        "Green  G  start 22  goal 11 12 13",
        "opening roll",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    // a player sees his own side at the bottom: Yellow's start 15 then
    let yellow = s.render(Viewer::Player(2), false);
    let last_band = yellow.lines().rev().find(|l| l.contains("rest")).unwrap();
    assert!(last_band.contains("15"), "{yellow}");
    // colours only when asked
    assert!(!text.contains('\x1b'));
    assert!(s.render(Viewer::Spectator, true).contains('\x1b'));
    // Tric-Trac shows the waiting stones
    let t = super::super::render::plain(&HgState::new(tt(2)));
    assert!(t.contains("waiting: B9 Y9"), "{t}");
    // moving: the dice, smaller first
    let m = HgState::with_position(hg(2), Board::high_gammon(seats(2)), 0, [5, 2]);
    assert!(super::super::render::plain(&m).contains("Blue to play 2-5: the 2 first"));
}

#[test]
fn view_json_has_the_result_and_stakes() {
    let mut s = HgState::new(rules(3, false, Doubles::Reroll, Scoring::Cube));
    for a in ["open B5 R5 Y6", "choose Yellow", "double", "drop", "drop"] {
        let act = s.parse_action(a).unwrap();
        s.apply(act);
    }
    assert_eq!(s.turn(), Turn::Over);
    let json = serde_json::to_value(s.observation(Viewer::Spectator)).unwrap();
    assert_eq!(json["game"], "high-gammon");
    assert_eq!(json["cube"], 2);
    assert_eq!(json["players"][0]["dropped_at"], 2);
    assert_eq!(json["winner"], 2);
    assert_eq!(json["result"], serde_json::json!([-2.0, -2.0, 4.0]));
    assert!(super::super::render::plain(&s).contains("game over: Yellow wins, 4 points"));
}

#[test]
fn heuristic_prefers_the_leader() {
    let r = hg(2);
    let ahead = board(r, &[&[(18, 3)], &[(2, 9)]]);
    let s = HgState::with_position(r, ahead, 0, [1, 2]);
    assert!(s.heuristic(0) > 0.5, "{}", s.heuristic(0));
    assert!(s.heuristic(1) < -0.5);
}

/// A greedy player (best heuristic after its play) against random players.
fn greedy_wins(r: HgRules, games: usize, seed: u64) -> usize {
    let mut rng = seeded(seed);
    let mut wins = 0;
    let mut acts = Vec::new();
    for g in 0..games {
        let mut s = HgState::new(r);
        let greedy = g % r.players as usize;
        loop {
            match s.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply(a);
                }
                Turn::Player(p) => {
                    s.legal_actions(&mut acts);
                    let a = if p == greedy {
                        *acts
                            .iter()
                            .max_by(|&&a, &&b| {
                                let mut x = s;
                                x.apply(a);
                                let mut y = s;
                                y.apply(b);
                                x.heuristic(p).total_cmp(&y.heuristic(p))
                            })
                            .unwrap()
                    } else {
                        acts[rng.random_range(0..acts.len())]
                    };
                    s.apply(a);
                }
            }
        }
        wins += (s.winner() == Some(greedy)) as usize;
    }
    wins
}

#[test]
fn heuristic_greedy_beats_random() {
    // two players: clearly more than half; four players: clearly more than a quarter
    assert!(greedy_wins(hg(2), 40, 1) >= 28);
    assert!(greedy_wins(hg(4), 40, 2) >= 18);
    assert!(greedy_wins(tt(2), 30, 3) >= 20);
}

#[test]
fn random_playouts_end_within_the_maximum_length() {
    // A game that does not end fails here (the playout stops at the
    // maximum length with an error) instead of hanging the test.
    let mut rng = seeded(9);
    let mut p = Playout::default();
    for n in 2..=4u8 {
        for r in [hg(n), tt(n)] {
            let mut s = HgState::new(r);
            let plies = p.run(&mut s, &mut rng, |_, _| {});
            assert!(plies.is_ok(), "{r:?}: {plies:?}");
            assert_eq!(s.turn(), Turn::Over);
        }
    }
}

#[test]
fn events_tell_hits_drops_stakes_and_rerolls() {
    let mut s = HgState::new(rules(3, false, Doubles::Reroll, Scoring::Cube));
    s.apply(s.parse_action("open B5 R5 Y6").unwrap());
    let ev = s.events();
    assert!(ev[0].contains("stake doubles to 2"), "{ev:?}");
    assert!(ev[1].contains("Yellow rolled highest"), "{ev:?}");
    s.apply(s.parse_action("choose Yellow").unwrap());
    s.apply(HgAction::Double);
    s.apply(HgAction::Drop);
    assert!(
        s.events()[0].contains("Blue drops out, owing 2"),
        "{:?}",
        s.events()
    );
    s.apply(HgAction::Take);
    assert_eq!(
        s.events(),
        vec!["Red takes the double", "the stake is now 4"]
    );
    // a hit
    let r = hg(2);
    let b = board(r, &[&[(0, 1)], &[(16, 1), (10, 8)]]);
    let s = after(r, b, 0, [2, 5], "1/3* 3/8");
    assert_eq!(s.events(), vec!["Blue hits Yellow on 3"]);
    // a double under reroll
    let b = board(r, &[&[(0, 2)], &[(10, 9)]]);
    let s = after(r, b, 0, [2, 2], "1/3(2)");
    assert_eq!(s.events(), vec!["Blue rolled a double and rolls again"]);
}

/// Generating legal actions allocates nothing once the buffers are warm,
/// and the state is a small plain value.
#[test]
fn legal_actions_do_not_allocate_once_warm() {
    let mut rng = seeded(4);
    let mut actions = Vec::with_capacity(4096);
    let (mut measured, mut allocations) = (0, 0);
    for (g, r) in [
        hg(2),
        hg(4),
        tt(4),
        rules(3, false, Doubles::Underside, Scoring::Cube),
    ]
    .into_iter()
    .cycle()
    .take(24)
    .enumerate()
    {
        let mut s = HgState::new(r);
        while s.turn() != Turn::Over {
            let a = if s.turn() == Turn::Chance {
                s.sample_chance(&mut rng)
            } else {
                let info = allocation_counter::measure(|| s.legal_actions(&mut actions));
                if g >= 4 {
                    measured += 1;
                    allocations += info.count_total;
                }
                actions[rng.random_range(0..actions.len())]
            };
            s.apply(a);
        }
    }
    assert!(measured > 1000, "{measured}");
    // the counter does count here
    let probe = allocation_counter::measure(|| {
        std::hint::black_box(Vec::<u8>::with_capacity(8));
    });
    assert!(probe.count_total > 0);
    assert_eq!(allocations, 0, "allocations in {measured} calls");
    assert!(
        std::mem::size_of::<HgState>() <= 160,
        "{}",
        std::mem::size_of::<HgState>()
    );
}
