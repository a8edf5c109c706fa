//! Checks every game must pass, in the manner of OpenSpiel's random-game
//! test: play random games and verify the API's promises at every step.
//! Games call [`check_random_games`] from their tests.

use crate::DynGame;
use crate::dynamic::{DynGameOf, DynState};
use crate::game::{Game, GameState, Heuristic, Notation, Turn, Viewer};
use crate::options::Options;
use crate::record::Record;
use crate::resign::{Resign, Resignation};
use crate::rng::seeded;
use rand::Rng;
use serde_json::Value;

/// What the random games saw, for further checks by the caller.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Plies in all games (chance plies included).
    pub plies: u64,
    /// Sum of returns per player.
    pub total_returns: Vec<f64>,
}

/// Plays `games` random games of `G` with the given `key=value` options and
/// checks at every step: chance probabilities sum to 1 and sampling stays
/// among the outcomes; [`GameState::random_action`] picks the legal action
/// that indexing [`GameState::legal_actions`] with the same draw picks;
/// legal actions are distinct and round-trip through
/// notation and JSON; the same action applied through the object-safe layer
/// gives the same state; an illegal action, or JSON made by mangling a legal
/// one, is rejected and changes nothing (or is legal); the heuristic lies in
/// [-1, 1]; in a game with hidden information, a state sampled from a
/// player's observation gives that player the same observation; every game
/// ends within its [`GameState::max_game_length`]; returns are zero and there
/// is no outcome until the end; the outcome agrees with the returns and the
/// heuristic; the state reads back as an equal state from its position
/// notation and from its JSON (every fifth ply and at the end); the record
/// replays to the same final state. `each` is called
/// on every state.
pub fn check_random_games<G: Game>(
    options: &[&str],
    games: usize,
    seed: u64,
    mut each: impl FnMut(&G::State),
) -> Summary {
    let options = Options::parse(G::ID, G::option_specs(), options).expect("valid options");
    let game = G::from_options(&options).expect("game from options");
    let mut rng = seeded(seed);
    let mut summary = Summary::default();
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..games {
        let mut state = game.initial_state();
        let mut dynamic = DynGameOf::<G>::new()
            .new_state(&options)
            .expect("dyn state");
        let mut record = Record::new(G::ID, options.clone(), vec![]);
        let mut plies = 0u64;
        let max_plies = state.max_game_length();
        let mut earlier: Vec<<G::State as GameState>::Action> = Vec::with_capacity(64);
        loop {
            each(&state);
            let n = state.num_players();
            match state.turn() {
                Turn::Over => break,
                Turn::Player(p) => assert!(p < n, "player {p} out of range"),
                Turn::Chance => {}
            }
            assert!(
                state.returns().as_slice().iter().all(|&r| r == 0.0),
                "returns before the end"
            );
            assert!(state.outcome().is_none(), "an outcome before the end");
            for v in (0..n).map(Viewer::Player).chain([Viewer::Spectator]) {
                serde_json::to_value(state.observation(v)).expect("observation serializes");
            }
            for p in 0..n {
                let h = state.heuristic(p);
                assert!((-1.0..=1.0).contains(&h), "heuristic {h} for player {p}");
            }
            if plies.is_multiple_of(5) {
                check_round_trips::<G>(&state);
            }
            if G::HIDDEN_INFORMATION && plies.is_multiple_of(7) {
                check_sampled_observations(&state, &mut rng);
            }
            let action = if state.turn() == Turn::Chance {
                assert!(G::CHANCE, "a chance node in a game without chance");
                state.chance_outcomes(&mut outcomes);
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "chance probabilities sum to {total}"
                );
                let a = state.sample_chance(&mut rng);
                assert!(
                    outcomes.iter().any(|o| o.0 == a),
                    "sampled {a:?} is not an outcome"
                );
                a
            } else {
                state.legal_actions(&mut actions);
                assert!(!actions.is_empty(), "a player to move has an action");
                let mut sorted = actions.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), actions.len(), "legal actions are distinct");
                let step = actions.len().div_ceil(12);
                for &a in actions.iter().step_by(step) {
                    let text = state.format_action(a);
                    assert_eq!(
                        state.parse_action(&text).ok(),
                        Some(a),
                        "notation round trip of `{text}`"
                    );
                    let json = serde_json::to_value(a).expect("action serializes");
                    assert_eq!(
                        serde_json::from_value::<<G::State as GameState>::Action>(json).ok(),
                        Some(a)
                    );
                }
                // `random_action` draws what indexing the legal actions draws.
                let mut twin = rng.clone();
                let a = actions[rng.random_range(0..actions.len())];
                assert_eq!(
                    state.random_action(&mut twin, &mut Vec::new()),
                    a,
                    "random_action picks the legal action at the drawn index"
                );
                check_mangled_json(&*dynamic, &state, a, &mut rng);
                a
            };
            // An unreadable or illegal action changes nothing: text that is
            // no action, and well-formed actions legal earlier in the game
            // but not here, through both layers.
            let before = dynamic.state_json();
            assert!(dynamic.apply_text("no such action 999").is_err());
            for &old in earlier
                .iter()
                .rev()
                // A play's steps in another order are the legal play (JSON).
                .filter(|&&a| !state.is_legal(a) && !state.is_legal(state.canonical_action(a)))
                .take(3)
            {
                let mut copy = state.clone();
                assert!(copy.try_apply(old).is_err(), "illegal {old:?} accepted");
                assert_eq!(
                    serde_json::to_value(&copy).unwrap(),
                    serde_json::to_value(&state).unwrap(),
                    "a rejected action changed the state"
                );
                let json = serde_json::to_value(old).expect("action serializes");
                assert!(
                    dynamic.apply_json(&json).is_err(),
                    "illegal {old:?} accepted as JSON"
                );
            }
            assert_eq!(
                before,
                dynamic.state_json(),
                "a rejected action changed the state"
            );
            if earlier.len() == 64 {
                earlier.remove(0);
            }
            earlier.push(action);
            let text = state.format_action(action);
            dynamic
                .apply_text(&text)
                .unwrap_or_else(|e| panic!("dyn layer rejected `{text}`: {e}"));
            state.apply(action);
            record.actions.push(text);
            plies += 1;
            assert!(
                plies <= max_plies,
                "game did not end within {max_plies} plies"
            );
        }
        for p in 0..state.num_players() {
            let h = state.heuristic(p);
            assert!(
                (-1.0..=1.0).contains(&h),
                "final heuristic {h} for player {p}"
            );
        }
        let returns = state.returns();
        let r = returns.as_slice();
        if summary.total_returns.is_empty() {
            summary.total_returns = vec![0.0; r.len()];
        }
        for (t, v) in summary.total_returns.iter_mut().zip(r) {
            *t += v;
        }
        assert_eq!(dynamic.returns(), r, "dyn layer returns");
        check_outcome(&state);
        check_round_trips::<G>(&state);
        assert_eq!(dynamic.outcome(), state.outcome(), "dyn layer outcome");
        assert_eq!(
            serde_json::to_value(&state).unwrap(),
            dynamic.state_json(),
            "dyn layer state equals live state"
        );
        record.result = Some(r.to_vec());
        let replayed = record.replay().expect("record replays");
        assert_eq!(
            replayed.state_json(),
            dynamic.state_json(),
            "replay equals live state"
        );
        assert!(
            dynamic.apply_text(&record.actions[0]).is_err(),
            "no action after the end"
        );
        summary.games += 1;
        summary.plies += plies;
    }
    summary
}

/// For every player: a state sampled from his observation gives him the
/// same observation.
fn check_sampled_observations<S: GameState, R: Rng>(state: &S, rng: &mut R) {
    for p in 0..state.num_players() {
        let view = state.observation(Viewer::Player(p));
        let sampled = S::sample_from_observation(&view, rng)
            .unwrap_or_else(|| panic!("no state sampled from player {p}'s observation"));
        assert_eq!(
            serde_json::to_value(sampled.observation(Viewer::Player(p))).unwrap(),
            serde_json::to_value(&view).unwrap(),
            "a state sampled from player {p}'s observation looks different to him"
        );
    }
}

/// Feeds JSON made by mangling the legal `action` to the object-safe layer:
/// it is rejected and changes nothing, or it reads as a legal action.
fn check_mangled_json<S: GameState, R: Rng>(
    dynamic: &dyn DynState,
    state: &S,
    action: S::Action,
    rng: &mut R,
) {
    let json = serde_json::to_value(action).expect("action serializes");
    let before = dynamic.state_json();
    for _ in 0..4 {
        let mangled = mangle(&json, rng);
        let mut copy = dynamic.clone_box();
        match copy.apply_json(&mangled) {
            Ok(_) => {
                let read: S::Action = serde_json::from_value(mangled.clone())
                    .unwrap_or_else(|e| panic!("accepted {mangled} but cannot read it: {e}"));
                assert!(state.is_legal(read), "accepted illegal {mangled}");
            }
            Err(_) => assert_eq!(
                copy.state_json(),
                before,
                "rejected {mangled} changed the state"
            ),
        }
    }
}

/// A random change to one part of a JSON value: a number out of range, a
/// wrong type, a renamed, missing or extra field, a longer or shorter list.
fn mangle<R: Rng>(value: &Value, rng: &mut R) -> Value {
    const NUMBERS: [i64; 8] = [-1, 0, 7, 25, 255, 256, 65536, i64::MAX];
    let pick = rng.random_range(0..10);
    match value {
        Value::Array(items) if !items.is_empty() && pick < 6 => {
            let mut items = items.clone();
            let i = rng.random_range(0..items.len());
            match pick {
                0 => drop(items.remove(i)),
                1 => items.push(items[i].clone()),
                _ => items[i] = mangle(&items[i], rng),
            }
            Value::Array(items)
        }
        Value::Object(fields) if !fields.is_empty() && pick < 6 => {
            let mut fields = fields.clone();
            let key = fields
                .keys()
                .nth(rng.random_range(0..fields.len()))
                .cloned();
            let key = key.expect("a field");
            match pick {
                0 => drop(fields.remove(&key)),
                1 => {
                    let v = fields.remove(&key).expect("the field");
                    fields.insert(format!("{key}x"), v);
                }
                _ => {
                    let v = mangle(&fields[&key], rng);
                    fields.insert(key, v);
                }
            }
            Value::Object(fields)
        }
        Value::String(text) if pick < 4 => Value::String(format!("{text}x")),
        _ => match pick % 5 {
            0 => Value::Null,
            1 => Value::from("x"),
            2 => Value::Array(vec![value.clone()]),
            3 => Value::from(0.5),
            _ => Value::from(NUMBERS[rng.random_range(0..NUMBERS.len())]),
        },
    }
}

/// Applies actions written in notation to a fresh state of `G`; panics with
/// the failing action. For tests that set up positions by playing.
pub fn play_out<G: Game>(options: &[&str], actions: &[&str]) -> Box<dyn DynState> {
    let options = Options::parse(G::ID, G::option_specs(), options).expect("valid options");
    let mut state = DynGameOf::<G>::new().new_state(&options).expect("state");
    for a in actions {
        state.apply_text(a).unwrap_or_else(|e| panic!("`{a}`: {e}"));
    }
    state
}

/// Checks a finished game's outcome: one place per player, never ranking a
/// player with a lower return ahead of one with a higher, and the heuristic
/// equal to the outcome's value (0 on a draw).
pub fn check_outcome<S: GameState + Heuristic>(state: &S) {
    let outcome = state.outcome().expect("a finished game has an outcome");
    let returns = state.returns();
    let r = returns.as_slice();
    let places = outcome.places();
    assert_eq!(places.len(), state.num_players(), "one place per player");
    for p in 0..r.len() {
        for q in 0..r.len() {
            if r[p] > r[q] {
                assert!(
                    places[p] < places[q],
                    "returns {r:?} disagree with places {places:?}"
                );
            }
        }
        assert_eq!(
            state.heuristic(p),
            outcome.value(p),
            "terminal heuristic of player {p}"
        );
    }
}

/// Plays `games` random games of `G` and checks every state's two round
/// trips: through its position notation (the text reads back as an equal
/// state and is written again the same) and through JSON (the state's JSON
/// reads back as an equal state).
pub fn check_position_round_trips<G: Game>(options: &[&str], games: usize, seed: u64) -> u64 {
    let mut positions = 0;
    check_random_games::<G>(options, games, seed, |state| {
        check_round_trips::<G>(state);
        positions += 1;
    });
    positions
}

/// A state reads back as an equal state from its position text (which is
/// written again the same) and from its JSON.
fn check_round_trips<G: Game>(state: &G::State) {
    let text = state.to_string();
    let read: G::State = text
        .parse()
        .unwrap_or_else(|e| panic!("position `{text}` does not read back: {e}"));
    assert_eq!(
        &read, state,
        "position `{text}` reads back as another state"
    );
    assert_eq!(read.to_string(), text, "position `{text}` written again");
    let json = serde_json::to_value(state).expect("state serializes");
    let back: G::State = serde_json::from_value(json.clone())
        .unwrap_or_else(|e| panic!("state JSON {json} does not read back: {e}"));
    assert_eq!(
        &back, state,
        "state JSON {json} reads back as another state"
    );
}

/// Plays `games` random games of `G`, each stopped at a random ply, where
/// every seat tries every [`Resignation`] on a copy: one the game refuses
/// changes nothing; one it takes gives a state that reads back from its
/// position and JSON, that a record ending in the `resign:` entry replays
/// to, with zero-sum returns and an outcome once over (a match may go on);
/// the copy is then played out at random to its end.
pub fn check_resignations<G: Game>(options: &[&str], games: usize, seed: u64) -> usize {
    let options = Options::parse(G::ID, G::option_specs(), options).expect("valid options");
    let game = G::from_options(&options).expect("game from options");
    let dyn_game = DynGameOf::<G>::new();
    let mut rng = seeded(seed);
    let mut taken = 0;
    for _ in 0..games {
        let mut state = game.initial_state();
        let mut record = Vec::new();
        for _ in 0..rng.random_range(0..80) {
            if state.turn() == Turn::Over {
                break;
            }
            let action = random_step(&state, &mut rng);
            record.push(state.format_action(action));
            state.apply(action);
        }
        if state.turn() == Turn::Over {
            continue;
        }
        for seat in 0..state.num_players() + 1 {
            for kind in Resignation::ALL {
                let mut copy = state.clone();
                if copy.resign(seat, kind).is_err() {
                    assert!(copy == state, "a refused resignation changed the state");
                    continue;
                }
                taken += 1;
                check_round_trips::<G>(&copy);
                let mut replay = dyn_game.new_state(&options).expect("dyn state");
                for text in &record {
                    replay.apply_recorded(text).expect("the record replays");
                }
                let entry = Resign { seat, kind }.text();
                replay
                    .apply_recorded(&entry)
                    .expect("the resignation replays");
                assert_eq!(
                    replay.state_json(),
                    serde_json::to_value(&copy).expect("state serializes"),
                    "`{entry}` replays to another state"
                );
                let max = copy.max_game_length();
                for _ in 0..max {
                    if copy.turn() == Turn::Over {
                        break;
                    }
                    let action = random_step(&copy, &mut rng);
                    copy.apply(action);
                }
                assert_eq!(copy.turn(), Turn::Over, "the game ends after `{entry}`");
                let total: f64 = copy.returns().as_slice().iter().sum();
                assert!(total.abs() < 1e-9, "returns sum to {total} after `{entry}`");
                check_outcome(&copy);
            }
        }
    }
    taken
}

/// A random chance outcome or legal action of `state`.
fn random_step<S: GameState>(state: &S, rng: &mut crate::rng::SeededRng) -> S::Action {
    if state.turn() == Turn::Chance {
        state.sample_chance(rng)
    } else {
        state.random_action(rng, &mut Vec::new())
    }
}
