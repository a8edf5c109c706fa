//! Cube decisions of the agents: never a double of a dead cube in a match.

use spelbord_ai::net::NetAgent;
use spelbord_ai::{AgentSpec, make_agent};
use spelbord_engine::backgammon::Backgammon;
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::tables::{Phase, TablesAction};
use spelbord_engine::{Game, GameState, Notation};

/// Match positions made with GNU Backgammon 1.07 (`new match N`, `set turn
/// 0`, `set board simple 0 3 3 3 3 3 0 0 0 0 0 0 0 0 0 0 0 0 -3 -3 -3 -3 -3
/// 0 0 0`, `set score A B`, `set cube value C`, `set cube owner 0`): the
/// player on roll leads the race by 30 pips and owns the cube, and his
/// score plus the cube reaches the match's length, so a win at the present
/// stake wins the match (match, his score, the other's, the cube).
const DEAD_CUBES: &[(&str, [u32; 4])] = &[
    ("3N0dAAB3dwcAAA:AQGgADAAAAAE", [5, 3, 0, 2]),
    ("3N0dAAB3dwcAAA:AwGgAAAAAAAE", [5, 0, 0, 8]),
    ("3N0dAAB3dwcAAA:AgHgAEAAEAAE", [7, 4, 2, 4]),
    ("3N0dAAB3dwcAAA:AgEgAVAAKAAE", [9, 5, 5, 4]),
    ("3N0dAAB3dwcAAA:AQFgABAAAAAE", [3, 1, 0, 2]),
    ("3N0dAAB3dwcAAA:AgGgACAAEAAE", [5, 2, 2, 4]),
    ("3N0dAAB3dwcAAA:AwHgAAAAGAAE", [7, 0, 3, 8]),
];

/// The same race in a money game, cube in the middle: worth a double.
const LIVE_CUBE: &str = "3N0dAAB3dwcAAA:MAEAAAAAAAAA";

fn state(id: &str) -> <Backgammon as Game>::State {
    let state: <Backgammon as Game>::State = id.parse().expect("a GNU Backgammon ID");
    assert_eq!(state.phase(), Phase::CubeDecision, "{id}");
    state
}

#[test]
fn no_level_doubles_a_dead_cube_in_a_match() {
    for level in [
        "ai:easy",
        "ai:medium",
        "ai:hard",
        "ai:expert",
        "net:cube=simple",
    ] {
        let mut agent = make_agent::<Backgammon>(level, 1).unwrap();
        for &(id, [to, mine, _, cube]) in DEAD_CUBES {
            let state = state(id);
            let view = state.observation(spelbord_engine::Viewer::Spectator);
            assert_eq!(
                (u32::from(view.match_to), view.cube),
                (to, cube),
                "{id}: the position read"
            );
            assert!(mine + cube >= to, "{id}: the cube is dead");
            assert_eq!(state.auto_roll(false), Some(TablesAction::Roll), "{id}");
            assert_eq!(agent.choose(&state), TablesAction::Roll, "{level} at {id}");
        }
    }
}

#[test]
fn the_same_lead_with_a_live_cube_is_doubled() {
    // The test above could fail: with the cube alive the network levels
    // double (GNU Backgammon 2-ply: "Double, pass"; the threshold rule of
    // `net:cube=simple` calls it too good, having no gammon chances).
    for level in ["ai:hard", "ai:expert"] {
        let mut agent = make_agent::<Backgammon>(level, 1).unwrap();
        assert_eq!(
            agent.choose(&state(LIVE_CUBE)),
            TablesAction::Double,
            "{level}"
        );
    }
}

/// Money positions before the roll, cube in the middle, with GNU Backgammon
/// 1.07's 2-ply verdict (`set matchid cAkAAAAAAAAA`, `set board ID`, `hint`)
/// where its margin is clear: whether to double, whether to take. (Two
/// long races where GNU Backgammon doubles and takes, or neither, are
/// misjudged by the network: measure/ai-cube.md.)
const VERDICTS: &[(&str, bool, bool, &str)] = &[
    // A race: no double by 0.167, take.
    (
        "7O5sAADs7mwAAA:cAkAAAAAAAAA",
        false,
        true,
        "no double, take",
    ),
    // A 15-checker race 30 pips ahead: pass by 0.959.
    ("7O5gAwDu7g4AAA:cAkAAAAAAAAA", true, false, "double, pass"),
];

#[test]
fn cube_actions_on_reference_positions_agree_with_gnu_backgammon() {
    for level in ["ai:hard", "ai:expert"] {
        let mut agent = make_agent::<Backgammon>(level, 1).unwrap();
        for &(id, double, take, verdict) in VERDICTS {
            let before = state(id);
            let doubled = agent.choose(&before) == TablesAction::Double;
            let mut offered = before;
            offered.apply(TablesAction::Double);
            let taken = agent.choose(&offered) == TablesAction::Take;
            assert_eq!(
                (doubled, taken),
                (double, take),
                "{level} at {id}: {verdict}"
            );
        }
    }
}

/// Money positions from `ai:expert`'s games where it owned the cube at 2
/// and redoubled, and GNU Backgammon 1.07 2-ply (without the Jacoby rule)
/// says "too good to redouble, pass": the gammons are worth more than the
/// cash (its no-double equity 1.08 to 1.17 per cube).
const TOO_GOOD: &[&str] = &[
    "NvcCwEBvtwEIBA:AgEAAAAAAAAA",
    "zt0JACjYbRsEIA:UQkAAAAAAAAA",
    "794AAkC7vYGAAA:UQkAAAAAAAAA",
    "2+ZgAGBnbQ0AAw:UQkAAAAAAAAA",
    "Nm4zEEDbbAYYIA:UQkAAAAAAAAA",
];

#[test]
fn a_cube_too_good_to_redouble_is_kept() {
    // Before the live cube's line ran on past the cash point, both levels
    // redoubled each of these (measure/ai-cube.md).
    for level in ["ai:hard", "ai:expert"] {
        let mut agent = make_agent::<Backgammon>(level, 1).unwrap();
        for &id in TOO_GOOD {
            assert_eq!(
                agent.choose(&state(id)),
                TablesAction::Roll,
                "{level} at {id}"
            );
        }
    }
}

/// Two long races (money, cube in the middle) that the network misjudges
/// by 2 to 3 points of winning chance, with GNU Backgammon 1.07's 2-ply
/// verdict (measure/ai-cube.md): double, take by 0.120 (no double 0.812,
/// double/take 0.880); no double by 0.054, take (0.505 / 0.450).
const LONG_RACES: &[(&str, bool, bool)] = &[
    ("2M6NAwDYndsAAA:cAkAAAAAAAAA", true, true),
    ("2M7tAADYndsAAA:cAkAAAAAAAAA", false, true),
];

#[test]
fn the_expert_rolls_out_close_cube_decisions_and_judges_long_races_right() {
    // Without the rollouts (`ai:hard`'s cube, the search alone) the first
    // is a pass: the network gives the leader 0.80 where the rollout finds
    // 0.77 (and the agent takes half the difference).
    let mut expert = make_agent::<Backgammon>("ai:expert", 1).unwrap();
    let mut searched = make_agent::<Backgammon>("net:ply=2", 1).unwrap();
    for &(id, double, take) in LONG_RACES {
        let before = state(id);
        let mut offered = before;
        offered.apply(TablesAction::Double);
        let doubled = expert.choose(&before) == TablesAction::Double;
        let taken = expert.choose(&offered) == TablesAction::Take;
        assert_eq!((doubled, taken), (double, take), "{id}");
    }
    let mut offered = state(LONG_RACES[0].0);
    offered.apply(TablesAction::Double);
    assert_eq!(searched.choose(&offered), TablesAction::Drop);
}

#[test]
fn a_cube_decision_near_even_is_not_rolled_out() {
    // The opening position before a roll: nobody doubles there, so the
    // rollout is skipped and the values are the search's alone; in a long
    // race it is rolled out and the values move.
    let agent = |spec: &str| match AgentSpec::parse(spec).unwrap() {
        AgentSpec::Net(c) => NetAgent::<BackgammonRules>::new(c).unwrap(),
        _ => unreachable!("a net spec"),
    };
    let (rolled, searched) = (agent("net:cube_rollout=84"), agent("net"));
    let start = state("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    assert_eq!(rolled.cube_equities(&start), searched.cube_equities(&start));
    let race = state(LONG_RACES[0].0);
    let (a, b) = (
        rolled.cube_equities(&race).unwrap(),
        searched.cube_equities(&race).unwrap(),
    );
    assert!(b.win - a.win > 0.005, "{a:?} {b:?}");
}
