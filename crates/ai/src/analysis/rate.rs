//! Rating one decision: the analyser's best action and its rating against
//! the rating of the action played.

use super::Unit;
use crate::spec::AgentSpec;
use crate::values::{search_actions, state_score};
use crate::{ActionEstimate, Agent, EquityKind, build};
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameState, Turn, Viewer};

/// Worlds dealt from the mover's observation to rate an action that the
/// analyser did not search (games with hidden information).
const WORLDS: usize = 32;

/// A decision as the analyser sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated<A> {
    /// The analyser's best action.
    pub best: A,
    /// Its rating; `None` where the analyser cannot compare the actions.
    pub best_rating: Option<f64>,
    /// The rating of the action played.
    pub played_rating: Option<f64>,
    /// The mover's chance to win (expected score 0..1) after the action
    /// played, by the analyser's estimate.
    pub played_chance: Option<f64>,
    /// The ratings' unit.
    pub unit: Unit,
}

fn unit_of<A>(e: &ActionEstimate<A>) -> Unit {
    match e.equity.map(|q| q.kind) {
        Some(EquityKind::Cubeless | EquityKind::Cubeful) => Unit::Equity,
        Some(EquityKind::MatchWinningChance) => Unit::MatchWinningChance,
        None => Unit::WinChance,
    }
}

fn value<A>(e: &ActionEstimate<A>) -> f64 {
    e.equity.map_or(e.score, |q| q.value)
}

/// Rates the decision of the player to move in `state`, who played
/// `played`, with the analyser `spec` seeded by `seed`. In games with
/// hidden information only the mover's observation is read.
pub fn rate_decision<G: Game>(
    state: &G::State,
    played: <G::State as GameState>::Action,
    spec: &AgentSpec,
    seed: u64,
) -> Rated<<G::State as GameState>::Action> {
    let mut agent = build::<G::State>(spec, G::HIDDEN_INFORMATION, seed);
    let estimates = agent.analyse(state);
    let Some(best) = estimates.first().copied() else {
        return Rated {
            best: played,
            best_rating: None,
            played_rating: None,
            played_chance: None,
            unit: Unit::WinChance,
        };
    };
    let unit = unit_of(&best);
    let is_cube = state.cube_action(played).is_some();
    if is_cube && estimates.len() < 2 {
        // The generic cube rule gives its choice, not a value per action.
        return Rated {
            best: best.action,
            best_rating: None,
            played_rating: None,
            played_chance: None,
            unit,
        };
    }
    let (played_rating, played_chance) =
        rate_action::<G>(agent.as_mut(), &estimates, state, played, spec, seed);
    let best_rating = if best.action == played {
        played_rating
    } else {
        value(&best)
    };
    Rated {
        best: best.action,
        best_rating: Some(best_rating),
        played_rating: Some(played_rating),
        played_chance: Some(played_chance),
        unit,
    }
}

/// One action's rating and the mover's chance to win after it: the
/// analyser's own rating, its search's estimate, or (an action it left
/// out) its estimate of the position after the action.
fn rate_action<G: Game>(
    agent: &mut dyn Agent<G::State>,
    estimates: &[ActionEstimate<<G::State as GameState>::Action>],
    state: &G::State,
    action: <G::State as GameState>::Action,
    spec: &AgentSpec,
    seed: u64,
) -> (f64, f64) {
    agent
        .rate(state, action)
        .or_else(|| estimates.iter().find(|e| e.action == action).copied())
        .map(|e| (value(&e), e.score.clamp(0.0, 1.0)))
        .unwrap_or_else(|| {
            let v = unsearched::<G>(state, action, spec, seed);
            (v, v.clamp(0.0, 1.0))
        })
}

/// One legal action of a position with its rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAction<A> {
    /// The action.
    pub action: A,
    /// Its rating; `None` where the analyser cannot compare the actions.
    pub rating: Option<f64>,
    /// The mover's chance to win (expected score 0..1) after it.
    pub chance: Option<f64>,
}

/// Rates every legal action of the player to move in `state` with the
/// analyser `spec` seeded by `seed`, best first, with the ratings' unit.
/// Empty when no player is to move.
pub fn rate_every_action<G: Game>(
    state: &G::State,
    spec: &AgentSpec,
    seed: u64,
) -> (Unit, Vec<RatedAction<<G::State as GameState>::Action>>) {
    let mut legal = Vec::new();
    if !matches!(state.turn(), Turn::Player(_)) {
        return (Unit::WinChance, Vec::new());
    }
    state.legal_actions(&mut legal);
    let mut agent = build::<G::State>(spec, G::HIDDEN_INFORMATION, seed);
    let estimates = agent.analyse(state);
    let unit = estimates.first().map_or(Unit::WinChance, unit_of);
    let cube = legal.iter().any(|&a| state.cube_action(a).is_some());
    let unrated = legal.len() < 2 || (cube && estimates.len() < 2);
    let mut rated: Vec<_> = legal
        .iter()
        .map(|&action| {
            if unrated {
                // A forced action, or the generic cube rule's choice without
                // a value per action: the analyser's choice first.
                let first = estimates.first().is_some_and(|e| e.action == action);
                let chance = first.then(|| estimates[0].score);
                return RatedAction {
                    action,
                    rating: None,
                    chance,
                };
            }
            let (rating, chance) =
                rate_action::<G>(agent.as_mut(), &estimates, state, action, spec, seed);
            RatedAction {
                action,
                rating: Some(rating),
                chance: Some(chance),
            }
        })
        .collect();
    if unrated {
        rated.sort_by_key(|r| r.chance.is_none());
    } else {
        rated.sort_by(|a, b| {
            b.rating
                .partial_cmp(&a.rating)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    (unit, rated)
}

/// The mover's value after an action the analyser's search left out: the
/// analyser's estimate of the position after it, or the game's evaluation;
/// with hidden information the evaluation's mean over worlds dealt from the
/// mover's observation.
fn unsearched<G: Game>(
    state: &G::State,
    action: <G::State as GameState>::Action,
    spec: &AgentSpec,
    seed: u64,
) -> f64 {
    let Turn::Player(me) = state.turn() else {
        return 0.5;
    };
    if G::HIDDEN_INFORMATION {
        let observation = state.observation(Viewer::Player(me));
        let mut rng = seeded(seed);
        let mut sum = 0.0;
        let mut n = 0;
        let mut legal = Vec::new();
        for _ in 0..WORLDS {
            let Some(mut world) = G::State::sample_from_observation(&observation, &mut rng) else {
                continue;
            };
            search_actions(&world, &mut legal);
            if !world.is_legal(action) {
                continue;
            }
            world.apply(action);
            sum += state_score(&world, me);
            n += 1;
        }
        return if n == 0 { 0.5 } else { sum / n as f64 };
    }
    let mut after = state.clone();
    after.apply(action);
    if after.turn() == Turn::Over {
        return state_score(&after, me);
    }
    build::<G::State>(spec, false, seed)
        .estimate(&after, me)
        .unwrap_or_else(|| state_score(&after, me))
}
