use super::*;
use crate::conformance::check_random_games;
use crate::game::{GameState, Notation, Turn};
use crate::playout::Playout;
use crate::rng::seeded;
use crate::tables::{BAR, OFF, Phase, Play, ROLLS, Step, StepBoard, TablesAction};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn at_start(dice: [u8; 2]) -> BackgammonState {
    BackgammonState::with_position(
        BackgammonRules,
        TablesOptions::default(),
        BackgammonBoard::start(),
        0,
    )
    .with_dice(dice)
}

fn with_board(board: BackgammonBoard, dice: [u8; 2]) -> BackgammonState {
    BackgammonState::with_position(BackgammonRules, TablesOptions::default(), board, 0)
        .with_dice(dice)
}

fn plays(state: &BackgammonState) -> Vec<Play> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out.into_iter()
        .map(|a| match a {
            TablesAction::Play(p) => p,
            other => panic!("not a play: {other:?}"),
        })
        .collect()
}

fn texts(state: &BackgammonState) -> BTreeSet<String> {
    plays(state).into_iter().map(|p| p.to_string()).collect()
}

/// A board from (point, count) pairs in the mover's numbering; negative
/// counts are the opponent's.
fn board(points: &[(u8, i8)], bar: [u8; 2], off: [u8; 2]) -> BackgammonBoard {
    let mut pts = [0i8; 24];
    for &(p, c) in points {
        pts[p as usize - 1] = c;
    }
    BackgammonBoard::from_parts(pts, bar, off)
}

// ---------------------------------------------------------------------------
// An independent, naive reference generator for cross-checking PlayGen.

type Pos = ([i8; 24], [u8; 2], [u8; 2]);

fn pos_of(b: &BackgammonBoard) -> Pos {
    let mut pts = [0i8; 24];
    for (n, p) in pts.iter_mut().enumerate() {
        *p = b.at(n as u8 + 1);
    }
    (pts, [b.bar(0), b.bar(1)], [b.off(0), b.off(1)])
}

fn ref_moves(pos: &Pos, die: u8) -> Vec<Pos> {
    let (pts, bar, off) = *pos;
    let mut out = Vec::new();
    let land = |mut p: Pos, to: i32| -> Pos {
        let t = to as usize - 1;
        if p.0[t] == -1 {
            p.0[t] = 0;
            p.1[1] += 1;
        }
        p.0[t] += 1;
        p
    };
    if bar[0] > 0 {
        let to = 25 - die as i32;
        if pts[to as usize - 1] >= -1 {
            let mut p = *pos;
            p.1[0] -= 1;
            out.push(land(p, to));
        }
        return out;
    }
    let all_home = (7..=24).all(|n| pts[n - 1] <= 0);
    for from in 1..=24i32 {
        if pts[from as usize - 1] <= 0 {
            continue;
        }
        let to = from - die as i32;
        if to >= 1 {
            if pts[to as usize - 1] >= -1 {
                let mut p = *pos;
                p.0[from as usize - 1] -= 1;
                out.push(land(p, to));
            }
        } else if all_home {
            let higher = (from + 1..=6).any(|n| pts[n as usize - 1] > 0);
            if to == 0 || !higher {
                let mut p = *pos;
                p.0[from as usize - 1] -= 1;
                p.2[0] += 1;
                out.push(p);
            }
        }
    }
    let _ = off;
    out
}

fn ref_search(pos: &Pos, dice: &[u8], used: Vec<u8>, out: &mut Vec<(Vec<u8>, Pos)>) {
    if let Some((&die, rest)) = dice.split_first() {
        let next = ref_moves(pos, die);
        if !next.is_empty() {
            for p in next {
                let mut u = used.clone();
                u.push(die);
                ref_search(&p, rest, u, out);
            }
            return;
        }
    }
    out.push((used, *pos));
}

fn reference_positions(b: &BackgammonBoard, dice: [u8; 2]) -> BTreeSet<Pos> {
    let start = pos_of(b);
    let mut all = Vec::new();
    if dice[0] == dice[1] {
        ref_search(&start, &[dice[0]; 4], vec![], &mut all);
    } else {
        ref_search(&start, &dice, vec![], &mut all);
        ref_search(&start, &[dice[1], dice[0]], vec![], &mut all);
    }
    let most = all.iter().map(|(u, _)| u.len()).max().unwrap_or(0);
    all.retain(|(u, _)| u.len() == most);
    if most == 1 && dice[0] != dice[1] {
        let high = dice[0].max(dice[1]);
        if all.iter().any(|(u, _)| u[0] == high) {
            all.retain(|(u, _)| u[0] == high);
        }
    }
    all.into_iter().map(|(_, p)| p).collect()
}

fn engine_positions(b: &BackgammonBoard, dice: [u8; 2]) -> Vec<Pos> {
    plays(&with_board(*b, dice))
        .iter()
        .map(|play| {
            let mut after = *b;
            for &s in play.steps() {
                after.apply_step(s);
            }
            pos_of(&after)
        })
        .collect()
}

fn cross_check(b: &BackgammonBoard) {
    for (dice, _) in ROLLS {
        let engine = engine_positions(b, dice);
        let set: BTreeSet<Pos> = engine.iter().copied().collect();
        assert_eq!(
            set.len(),
            engine.len(),
            "duplicate plays for {dice:?} on {b:?}"
        );
        assert_eq!(
            set,
            reference_positions(b, dice),
            "plays of {dice:?} on {b:?}"
        );
    }
}

// ---------------------------------------------------------------------------

/// BG-1 / BG-6: the plays of every roll from the starting position agree
/// with the naive reference generator (their numbers are pinned in
/// `perft/backgammon.txt`). By hand:
/// - 2-1: a 2 from 24, 13, 8 or 6 with a 1 from 24, 8 or 6 (12), plus one
///   checker playing both (24/21, 13/10, 8/5, 6/3), less 8/6 6/5 = 8/5: 15;
/// - 5-2: a 5 from 13 or 8 with a 2 from 24, 13, 8 or 6 (8); the one
///   checker 13/6 is 13/8 8/6 again: 8.
#[test]
fn bg1_bg6_start_plays_agree_with_the_reference_generator() {
    assert_eq!(plays(&at_start([2, 1])).len(), 15);
    assert_eq!(plays(&at_start([5, 2])).len(), 8);
    cross_check(&BackgammonBoard::start());
}

#[test]
fn bg6_start_6_5_plays_by_hand() {
    let s = at_start([6, 5]);
    assert_eq!(plays(&s).len(), 7);
    for text in [
        "24/18 18/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/7 13/8",
        "13/7 8/3",
        "8/2 8/3",
        // the seventh is the one checker 13/2, however it is written
        "13/2",
        "13/7/2",
        "13/8/2",
        "13/7 7/2",
        "8/2 13/8",
    ] {
        assert!(s.is_legal(s.parse_action(text).unwrap()), "{text}");
    }
}

#[test]
fn bg6_plays_match_reference_on_random_positions() {
    let mut rng = seeded(11);
    let mut playout = Playout::default();
    for _ in 0..40 {
        let mut state = Backgammon {
            tables: TablesOptions::default(),
        }
        .initial_state();
        let mut boards = Vec::new();
        playout
            .run(&mut state, &mut rng, |s, _| {
                if let Phase::Moving(_) = s.phase() {
                    let mut b = *s.board();
                    boards.push(b);
                    b.flip();
                    boards.push(b);
                }
            })
            .expect("the game ends");
        for b in boards.iter().step_by(7) {
            cross_check(b);
        }
    }
}

#[test]
fn bg2_opening_dice_are_the_first_roll() {
    let mut s = Backgammon {
        tables: TablesOptions::default(),
    }
    .initial_state();
    assert_eq!(s.turn(), Turn::Chance);
    s.apply(TablesAction::Opening([3, 5]));
    // the second player rolled higher and now plays 5-3
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(s.phase(), Phase::Moving([5, 3]));
    let mut chance = Vec::new();
    s.chance_outcomes(&mut chance);
    assert!(chance.is_empty());
}

#[test]
fn bg3_doubles_play_four_times() {
    let s = at_start([5, 5]);
    assert!(plays(&s).iter().all(|p| p.len() == 4));
    // the famous 13/3(2): two checkers each take two fives, listed with
    // the checkers from the highest point first
    assert!(texts(&s).contains("13/8 13/8 8/3 8/3"), "{:?}", texts(&s));
    assert!(s.is_legal(s.parse_action("13/3(2)").unwrap()));
    assert!(s.is_legal(s.parse_action("13/8(2) 8/3(2)").unwrap()));
}

#[test]
fn bg4_hit_sends_blot_to_bar_and_band_blocks() {
    // mover on 13, opponent blot on 10 and band on 9
    let b = board(&[(13, 2), (10, -1), (9, -2), (20, -12)], [0, 0], [13, 0]);
    let s = with_board(b, [4, 3]);
    let ps = plays(&s);
    // 13/9 is closed; 13/10 hits
    assert!(ps.iter().all(|p| p.steps().iter().all(|st| st.to != 9)));
    let hit = ps
        .iter()
        .find(|p| p.steps().iter().any(|st| st.to == 10))
        .expect("a play hitting on 10");
    let mut after = b;
    for &st in hit.steps() {
        after.apply_step(st);
    }
    assert_eq!(after.bar(1), 1);
    assert!(after.at(10) >= 0);
    after.check();
}

#[test]
fn bg5_bar_enters_first() {
    // one on the bar; 22 (die 3) is closed, 20 (die 5) open
    let b = board(&[(22, -2), (13, 5), (6, 9), (1, -13)], [1, 0], [0, 0]);
    let ps = texts(&with_board(b, [5, 3]));
    // the 5 enters; the 3 is then played anywhere
    assert!(ps.iter().all(|p| p.starts_with("bar/20")), "{ps:?}");
    // with both entry points closed nothing moves at all
    let b2 = board(
        &[(22, -2), (20, -2), (13, 5), (6, 9), (1, -11)],
        [1, 0],
        [0, 0],
    );
    assert_eq!(
        texts(&with_board(b2, [5, 3])),
        BTreeSet::from(["pass".into()])
    );
}

#[test]
fn bg6_must_play_both_dice_when_possible() {
    // 6-1: the single checker on 8 can go 8/2 then nothing, or 8/7/1 using both.
    let b = board(&[(8, 1), (2, -2), (24, -13)], [0, 0], [14, 0]);
    let ps = texts(&with_board(b, [6, 1]));
    assert_eq!(ps, BTreeSet::from(["8/7 7/1".to_string()]));
}

#[test]
fn bg6_larger_die_when_only_one_can_be_played() {
    // 6-5 with one checker on 12: 12/6 (the 6) or 12/7 (the 5) could each be
    // played alone, but never both (the 1 point is closed), so the larger
    // die must be played.
    let b = board(&[(12, 1), (1, -2), (24, -13)], [0, 0], [14, 0]);
    let s = with_board(b, [6, 5]);
    assert_eq!(texts(&s), BTreeSet::from(["12/6".to_string()]));
    // with the 6 point closed too only the 5 is left, and it must be played
    let b2 = board(&[(12, 1), (6, -2), (1, -2), (24, -11)], [0, 0], [14, 0]);
    assert_eq!(
        texts(&with_board(b2, [6, 5])),
        BTreeSet::from(["12/7".to_string()])
    );
}

#[test]
fn bg7_bearing_off() {
    // all home: 6, 4, 4; roll 6-5: 6/off with the 6, then the 5 from the
    // highest point (4) bears off too
    let b = board(&[(6, 1), (4, 2), (24, -15)], [0, 0], [12, 0]);
    let ps = texts(&with_board(b, [6, 5]));
    assert!(ps.contains("6/off 4/off"), "{ps:?}");
    // 6/1 then 4/off? 1 is empty so 6/1 is possible with the 5 too
    assert!(
        ps.contains("6/1 4/off") || ps.contains("4/off 6/1"),
        "{ps:?}"
    );
    // not all home: no bearing off
    let b2 = board(&[(20, 1), (4, 2), (24, -15)], [0, 0], [12, 0]);
    let ps2 = texts(&with_board(b2, [6, 5]));
    assert!(ps2.iter().all(|p| !p.contains("4/off")), "{ps2:?}");
    // a lower die bears off only from its exact point
    let b3 = board(&[(6, 1), (2, 1), (24, -15)], [0, 0], [13, 0]);
    let ps3 = texts(&with_board(b3, [3, 2]));
    assert!(ps3.iter().all(|p| !p.contains("6/off")), "{ps3:?}");
    assert!(
        ps3.contains("6/3 2/off") || ps3.contains("2/off 6/3"),
        "{ps3:?}"
    );
}

fn finish(b: BackgammonBoard, dice: [u8; 2]) -> BackgammonState {
    let mut s = with_board(b, dice);
    let p = plays(&s)[0];
    s.apply(TablesAction::Play(p));
    s
}

#[test]
fn bg8_single_gammon_backgammon() {
    let single = finish(board(&[(1, 1), (20, -14)], [0, 0], [14, 1]), [2, 1]);
    assert_eq!(single.turn(), Turn::Over);
    assert_eq!(single.returns().as_slice(), &[1.0, -1.0]);
    let gammon = finish(board(&[(1, 1), (20, -15)], [0, 0], [14, 0]), [2, 1]);
    assert_eq!(gammon.returns().as_slice(), &[2.0, -2.0]);
    let backgammon = finish(
        board(&[(1, 1), (3, -1), (20, -14)], [0, 0], [14, 0]),
        [2, 1],
    );
    assert_eq!(backgammon.returns().as_slice(), &[3.0, -3.0]);
    let from_bar = finish(board(&[(1, 1), (20, -14)], [0, 1], [14, 0]), [2, 1]);
    assert_eq!(from_bar.returns().as_slice(), &[3.0, -3.0]);
}

#[test]
fn bg9_cube_take_drop_and_ownership() {
    let opts = TablesOptions {
        cube: true,
        match_to: 0,
    };
    let mut s = BackgammonState::new(BackgammonRules, opts);
    s.apply(TablesAction::Opening([6, 1]));
    // the first play comes straight from the opening dice: no cube yet
    assert_eq!(s.phase(), Phase::Moving([6, 1]));
    let p = plays(&s)[0];
    s.apply(TablesAction::Play(p));
    assert_eq!(s.phase(), Phase::CubeDecision);
    assert_eq!(s.turn(), Turn::Player(1));
    s.apply(TablesAction::Double);
    assert_eq!(s.turn(), Turn::Player(0));
    s.apply(TablesAction::Take);
    assert_eq!(s.cube_value(), 2);
    assert_eq!(
        s.observation(crate::game::Viewer::Spectator).cube_owner,
        Some(0)
    );
    // player 1 rolls; on player 0's next turn he (the owner) may redouble
    s.apply(TablesAction::Dice([3, 1]));
    let p = plays(&s)[0];
    s.apply(TablesAction::Play(p));
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(s.phase(), Phase::CubeDecision);
    s.apply(TablesAction::Double);
    s.apply(TablesAction::Drop);
    assert_eq!(s.turn(), Turn::Over);
    // dropped at the stake before the redouble: 2
    assert_eq!(s.returns().as_slice(), &[2.0, -2.0]);
}

#[test]
fn bg10_match_starts_each_game_with_an_opening_roll() {
    let s = check_random_games::<Backgammon>(&["match=3", "cube=on"], 20, 5, |s| {
        if let Some(last) = s.last_game() {
            let _ = last;
        }
    });
    assert_eq!(s.games, 20);
    // replay a short match by hand: a drop ends game 1 and game 2 opens
    let opts = TablesOptions {
        cube: true,
        match_to: 3,
    };
    let mut st = BackgammonState::new(BackgammonRules, opts);
    st.apply(TablesAction::Opening([2, 1]));
    let p = plays(&st)[0];
    st.apply(TablesAction::Play(p));
    st.apply(TablesAction::Double);
    st.apply(TablesAction::Drop);
    assert_eq!(st.score(), [0, 1]);
    assert_eq!(st.phase(), Phase::Opening);
}

#[test]
fn random_games_conform() {
    let s = check_random_games::<Backgammon>(&[], 150, 3, |s| {
        s.board().check();
    });
    assert_eq!(s.games, 150);
    // zero sum
    assert!((s.total_returns[0] + s.total_returns[1]).abs() < 1e-9);
    check_random_games::<Backgammon>(&["cube=on"], 100, 4, |s| s.board().check());
}

#[test]
fn notation_forms() {
    let s = at_start([6, 5]);
    for text in ["24/13", "24/18/13", "24/18 18/13", "18/13 24/18"] {
        let a = s.parse_action(text).unwrap();
        assert!(s.is_legal(a), "{text}");
        assert_eq!(s.format_action(a), "24/18 18/13");
    }
    let bad = s.parse_action("24/18 24/19").unwrap();
    assert!(!s.is_legal(bad));
    let _ = (BAR, OFF);
}

#[test]
fn bg4_hits_are_marked_and_a_typed_star_is_respected() {
    // BG-4: the opponent's blot on 18; 6-5 from 24 can go by 18 (hitting)
    // or by 19.
    let b = board(
        &[
            (24, 2),
            (13, 5),
            (8, 3),
            (6, 5),
            (18, -1),
            (12, -5),
            (1, -9),
        ],
        [0, 0],
        [0, 0],
    );
    let s = with_board(b, [6, 5]);
    let listed: BTreeSet<String> = plays(&s)
        .into_iter()
        .map(|p| s.format_action(TablesAction::Play(p)))
        .collect();
    assert!(listed.contains("24/18* 18/13"), "{listed:?}");
    assert!(listed.contains("24/19 19/13"), "{listed:?}");
    assert!(listed.contains("24/18* 13/8"), "{listed:?}");
    // Written with the star the hit is played; the same steps without it
    // are refused with the notation that is right.
    let hit = s.parse_action("24/18* 18/13").unwrap();
    assert!(s.is_legal(hit));
    assert_eq!(s.parse_action("24/18*/13").unwrap(), hit);
    assert_eq!(s.parse_action("18/13 24/18*").unwrap(), hit);
    let e = s.parse_action("24/18 18/13").unwrap_err().to_string();
    assert!(e.contains("`24/18* 18/13`"), "{e}");
    // A star where nothing is hit is refused too.
    assert!(s.parse_action("24/19* 19/13").is_err());
    assert!(s.parse_action("13/8* 13/7").is_err());
    // The merged 24/13 may hit on 18 or not: ambiguous, both routes named.
    match s.parse_action("24/13") {
        Err(crate::error::Error::AmbiguousPlay { text, plays }) => {
            assert_eq!(text, "24/13");
            assert_eq!(plays.len(), 2, "{plays:?}");
            assert!(plays.contains(&"24/18* 18/13".to_string()), "{plays:?}");
            assert!(plays.contains(&"24/19 19/13".to_string()), "{plays:?}");
        }
        other => panic!("24/13 must be ambiguous: {other:?}"),
    }
    // The merged move stays fine where its routes hit alike.
    let quiet = at_start([6, 5]);
    assert!(quiet.is_legal(quiet.parse_action("24/13").unwrap()));
}

#[test]
fn bg4_a_json_play_is_accepted_in_any_step_order() {
    use crate::dynamic::{DynState, StateOf};
    let s = at_start([6, 5]);
    let play = Play::from_steps(&[
        Step {
            from: 18,
            to: 13,
            die: 5,
        },
        Step {
            from: 24,
            to: 18,
            die: 6,
        },
    ]);
    let mut dynamic = StateOf::<Backgammon>(s);
    let json = serde_json::to_value(TablesAction::Play(play)).unwrap();
    let info = dynamic
        .apply_json(&json)
        .expect("the steps in another order");
    assert_eq!(info.text, "24/18 18/13");
    // Steps no legal play has are still refused, and change nothing.
    let mut dynamic = StateOf::<Backgammon>(s);
    let wrong = Play::from_steps(&[Step {
        from: 24,
        to: 18,
        die: 6,
    }]);
    let json = serde_json::to_value(TablesAction::Play(wrong)).unwrap();
    assert!(dynamic.apply_json(&json).is_err());
    assert_eq!(dynamic.0, s);
}

#[test]
fn render_shows_board_and_turn() {
    let s = at_start([6, 5]);
    let text = s.render(crate::game::Viewer::Player(0), false);
    assert!(text.contains("backgammon"));
    assert!(text.contains("to play 6-5"));
    assert!(text.contains("X5"));
}

#[test]
fn heuristic_prefers_the_race_leader() {
    let ahead = with_board(board(&[(1, 15), (13, -15)], [0, 0], [0, 0]), [2, 1]);
    use crate::game::Heuristic;
    assert!(ahead.heuristic(0) > 0.5);
    assert!(ahead.heuristic(1) < -0.5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Checkers are conserved for both colours, games end, and the record
    /// replays to the same state.
    #[test]
    fn prop_checkers_conserved_and_games_end(seed in any::<u64>(), cube in any::<bool>()) {
        let opts = if cube { vec!["cube=on"] } else { vec![] };
        let s = check_random_games::<Backgammon>(&opts, 2, seed, |s| s.board().check());
        prop_assert_eq!(s.games, 2);
    }
}

/// Generating legal plays allocates nothing once the buffers are warm.
#[test]
fn legal_plays_do_not_allocate_once_warm() {
    let game = Backgammon {
        tables: TablesOptions::default(),
    };
    let mut rng = seeded(8);
    let mut actions = Vec::with_capacity(4096);
    let (mut measured, mut allocations) = (0, 0);
    for g in 0..30 {
        let mut s = game.initial_state();
        while s.turn() != Turn::Over {
            let a = if s.turn() == Turn::Chance {
                s.sample_chance(&mut rng)
            } else {
                let info = allocation_counter::measure(|| s.legal_actions(&mut actions));
                if g > 0 {
                    measured += 1;
                    allocations += info.count_total;
                }
                actions[rand::Rng::random_range(&mut rng, 0..actions.len())]
            };
            s.apply(a);
        }
    }
    assert!(measured > 1000);
    // the counter does count here
    let probe = allocation_counter::measure(|| {
        std::hint::black_box(Vec::<u8>::with_capacity(8));
    });
    assert!(probe.count_total > 0);
    assert_eq!(allocations, 0, "allocations in {measured} calls");
    assert!(std::mem::size_of::<BackgammonState>() <= 64);
}

#[test]
fn position_text_of_the_start() {
    let s = at_start([6, 5]);
    let text = s.to_string();
    assert_eq!(
        text,
        "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 0 6-5"
    );
    assert_eq!(text.parse::<BackgammonState>().unwrap(), s);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    /// Positions of random games (cube and match play included) read back
    /// from their text and their JSON as equal states.
    #[test]
    fn positions_round_trip_through_text_and_json(seed in any::<u64>(), cube in any::<bool>()) {
        let options: &[&str] = if cube { &["cube=on", "match=5"] } else { &[] };
        crate::conformance::check_position_round_trips::<Backgammon>(options, 1, seed);
    }
}

/// The start position at a cube decision of player 0 with `fields` added.
fn cube_decision(fields: &str) -> BackgammonState {
    format!("-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 0 cube_decision {fields}")
        .parse()
        .expect("a position")
}

#[test]
fn auto_roll_rolls_at_a_dead_cube_only_unless_always() {
    // 5-point match, 3-3, cube 2 owned by player 0: winning this game at
    // the present stake wins the match, so doubling cannot gain: roll.
    let dead = cube_decision("stake=2 owner=0 score=3,3 crawford=after cube=on match=5");
    assert_eq!(dead.auto_roll(false), Some(TablesAction::Roll));
    assert_eq!(dead.auto_roll(true), Some(TablesAction::Roll));
    // Player 0 needs 4 of 5 with the cube at 1: the cube is alive: ask.
    let alive = cube_decision("score=1,0 cube=on match=5");
    assert_eq!(alive.auto_roll(false), None);
    assert_eq!(alive.auto_roll(true), Some(TablesAction::Roll));
    // Money play: never dead.
    let money = cube_decision("stake=4 owner=0 cube=on");
    assert_eq!(money.auto_roll(false), None);
    // Exactly the points needed is dead too: 4 + 1 = 5.
    let needs_one = cube_decision("score=4,0 crawford=after cube=on match=5");
    assert_eq!(needs_one.auto_roll(false), Some(TablesAction::Roll));
    // Through the dynamic layer.
    let dynamic: Box<dyn crate::DynState> = Box::new(crate::dynamic::StateOf::<Backgammon>(dead));
    assert_eq!(
        dynamic.auto_roll_action(false).map(|a| a.text),
        Some("roll".into())
    );
}

#[test]
fn no_cube_decision_to_auto_roll_in_the_crawford_game_or_without_the_cube() {
    // The Crawford game: the engine goes straight to the roll.
    let opts = TablesOptions {
        cube: true,
        match_to: 3,
    };
    let mut st = BackgammonState::new(BackgammonRules, opts);
    st.apply(TablesAction::Opening([2, 1]));
    let p = plays(&st)[0];
    st.apply(TablesAction::Play(p));
    st.apply(TablesAction::Double);
    st.apply(TablesAction::Drop);
    st.apply(TablesAction::Opening([2, 1]));
    let p = plays(&st)[0];
    st.apply(TablesAction::Play(p));
    st.apply(TablesAction::Double);
    st.apply(TablesAction::Drop);
    assert_eq!(st.score(), [0, 2]);
    st.apply(TablesAction::Opening([2, 1]));
    let p = plays(&st)[0];
    st.apply(TablesAction::Play(p));
    assert!(st.observation(crate::game::Viewer::Spectator).crawford_game);
    assert_eq!(st.phase(), Phase::Rolling);
    assert_eq!(st.auto_roll(true), None);
    // Without the cube there is no decision either.
    let mut plain = at_start([6, 5]);
    let p = plays(&plain)[0];
    plain.apply(TablesAction::Play(p));
    assert_eq!(plain.phase(), Phase::Rolling);
    assert_eq!(plain.auto_roll(true), None);
}
