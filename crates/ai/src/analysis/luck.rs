//! The luck of a roll: each player's value (chance to win) after the roll
//! less his value before it, the mean over every roll that could have come.
//! A position's value after a roll is that of the mover's best play of it:
//! where the analyser is a network searched n plies, each play searched
//! n - 1 plies (so the value before the roll is the analyser's n-ply value
//! of the position, the one it rated the move before with); otherwise one
//! ply of the game's evaluation.

use super::Roll;
use crate::spec::AgentSpec;
use crate::values::{Values, final_scores, search_actions, state_score, state_scores};
use crate::{Agent, build};
use spelbord_engine::{Game, GameState, MAX_PLAYERS, Turn};

/// Rates the roll `outcome` at the chance node `state`.
pub(super) fn roll<G: Game>(
    index: usize,
    state: &G::State,
    outcome: <G::State as GameState>::Action,
    spec: &AgentSpec,
) -> Roll {
    let mut net = match spec {
        AgentSpec::Net(c) => {
            // The plays of each roll as the analyser's search below its
            // root sees them: one ply less, over its inner filter.
            let one_less = AgentSpec::Net(crate::NetConfig {
                plies: c.plies.saturating_sub(1),
                filter: c.filter.min(crate::net::eval::INNER_FILTER),
                rollouts: 0,
                ..c.clone()
            });
            Some(build::<G::State>(&one_less, false, 0))
        }
        _ => None,
    };
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    let mut before = [0.0; MAX_PLAYERS];
    let mut after = [0.0; MAX_PLAYERS];
    let mut roller = None;
    for &(o, p) in &outcomes {
        let mut child = state.clone();
        child.apply(o);
        let v = value(&child, net.as_mut());
        for (b, x) in before.iter_mut().zip(v) {
            *b += p * x;
        }
        if o == outcome {
            after = v;
            if let Turn::Player(q) = child.turn() {
                roller = Some(q);
            }
        }
    }
    let n = state.num_players();
    let (b, a) = roller.map_or((0.5, 0.5), |q| (before[q], after[q]));
    Roll {
        index,
        roll: spelbord_engine::Notation::format_action(state, outcome),
        roller,
        before: b,
        after: a,
        luck: (0..n).map(|p| after[p] - before[p]).collect(),
        shared: false,
    }
}

/// Every player's value of a position just after a roll.
fn value<S: GameState + spelbord_engine::Heuristic>(
    state: &S,
    net: Option<&mut Box<dyn Agent<S>>>,
) -> Values {
    match state.turn() {
        Turn::Over => final_scores(state),
        Turn::Chance => state_scores(state),
        Turn::Player(me) => {
            if let Some(net) = net
                && state.num_players() == 2
                && let Some(w) = net.estimate(state, me)
            {
                let mut v = [0.0; MAX_PLAYERS];
                v[me] = w;
                v[1 - me] = 1.0 - w;
                return v;
            }
            let mut actions = Vec::new();
            search_actions(state, &mut actions);
            let mut best: Option<(f64, S)> = None;
            for a in actions {
                let mut next = state.clone();
                next.apply(a);
                let s = state_score(&next, me);
                if best.as_ref().is_none_or(|(b, _)| s > *b) {
                    best = Some((s, next));
                }
            }
            best.map_or_else(|| state_scores(state), |(_, next)| state_scores(&next))
        }
    }
}
