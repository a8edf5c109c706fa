//! Doubling-cube decisions from an agent's own estimates. Searches are
//! cubeless; at a cube decision the agent estimates its score in the
//! position after rolling (or after taking), turns it into a win
//! probability p among the n players still seated, and applies the money
//! game's theory:
//!
//! - its normalized cubeless equity is e = (n·p − 1) / (n − 1) (2p − 1 for
//!   two players);
//! - it doubles when e is at least [`DOUBLE_FROM`] (p ≥ 0.68 for two
//!   players, leaving room for the value of owning the cube) and below
//!   [`TOO_GOOD`] (p ≥ 0.9: play on for a gammon instead of cashing);
//! - it takes when p is at least [`TAKE_FROM`] / n (0.24 for two players:
//!   a taker who loses pays twice the old stake, a dropper pays it once, so
//!   taking is right from p = 1/(2n), a little lower with the cube in hand).
//!
//! In match play the same thresholds are used (no match-equity table).
//! Agents with cubeful estimates of their own (the network agents) decide
//! through [`Agent::cube_choice`] instead. No agent doubles a dead cube
//! (the engine's [`Notation::auto_roll`]: winning at the present stake
//! already wins the match).

use crate::values::{is_cube_decision, win_probability};
use crate::{ActionEstimate, Agent};
use spelbord_engine::{CubeAction, GameState, Heuristic, Notation, Player, Turn};

/// Normalized equity from which to double.
pub const DOUBLE_FROM: f64 = 0.36;
/// Normalized equity from which a position is too good to double.
pub const TOO_GOOD: f64 = 0.8;
/// Take when the win probability is at least this divided by the players.
pub const TAKE_FROM: f64 = 0.48;

/// What a cube decision chose and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeChoice<A> {
    /// The action chosen.
    pub action: A,
    /// The win probability it was based on.
    pub win_probability: f64,
}

/// Decides a cube decision (roll or double; take or drop) with the score
/// estimates of `estimate(state, player)`. `None` if `state` is not at a
/// cube decision.
pub fn decide<S: GameState + Heuristic>(
    state: &S,
    mut estimate: impl FnMut(&S, Player) -> f64,
) -> Option<CubeChoice<S::Action>> {
    let Turn::Player(me) = state.turn() else {
        return None;
    };
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    if !is_cube_decision(state, &actions) {
        return None;
    }
    let find = |kind: CubeAction| {
        actions
            .iter()
            .copied()
            .find(|&a| state.cube_action(a) == Some(kind))
    };
    let n = state.num_players().max(2) as f64;
    if let (Some(roll), Some(double)) = (find(CubeAction::NoDouble), find(CubeAction::Double)) {
        let mut after = state.clone();
        after.apply(roll);
        let p = win_probability(estimate(&after, me), n as usize);
        let e = (n * p - 1.0) / (n - 1.0);
        let action = if (DOUBLE_FROM..TOO_GOOD).contains(&e) {
            double
        } else {
            roll
        };
        return Some(CubeChoice {
            action,
            win_probability: p,
        });
    }
    if let (Some(take), Some(drop)) = (find(CubeAction::Take), find(CubeAction::Drop)) {
        let mut after = state.clone();
        after.apply(take);
        let p = win_probability(estimate(&after, me), n as usize);
        let action = if p >= TAKE_FROM / n { take } else { drop };
        return Some(CubeChoice {
            action,
            win_probability: p,
        });
    }
    None
}

/// An agent that makes cube decisions from its inner agent's estimates
/// (the heuristic when the inner agent has none) and leaves every other
/// decision to it.
pub struct CubeAware<S: GameState> {
    inner: Box<dyn Agent<S>>,
}

impl<S: GameState + Heuristic + Notation> CubeAware<S> {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn Agent<S>>) -> Self {
        CubeAware { inner }
    }
}

impl<S: GameState + Heuristic + Notation> Agent<S> for CubeAware<S> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, state: &S) -> S::Action {
        // A dead cube: doubling cannot gain, only hand the opponent the cube.
        if let Some(roll) = state.auto_roll(false) {
            return roll;
        }
        if let Some(action) = self.inner.cube_choice(state) {
            return action;
        }
        let inner = &mut self.inner;
        match decide(state, |s, p| {
            inner
                .estimate(s, p)
                .unwrap_or_else(|| crate::values::state_score(s, p))
        }) {
            Some(choice) => choice.action,
            None => self.inner.choose(state),
        }
    }

    fn inform(&mut self, state: &S, action: S::Action) {
        self.inner.inform(state, action);
    }

    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        self.inner.estimate(state, player)
    }

    fn cube_choice(&mut self, state: &S) -> Option<S::Action> {
        self.inner.cube_choice(state)
    }

    fn rate(&mut self, state: &S, action: S::Action) -> Option<ActionEstimate<S::Action>> {
        self.inner.rate(state, action)
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        if self.inner.cube_choice(state).is_some() {
            return self.inner.analyse(state);
        }
        let inner = &mut self.inner;
        let mut probability = None;
        let choice = decide(state, |s, p| {
            let v = inner
                .estimate(s, p)
                .unwrap_or_else(|| crate::values::state_score(s, p));
            probability = Some(v);
            v
        });
        match (choice, probability) {
            (Some(c), Some(score)) => {
                // The chosen cube action, with the estimate it rests on.
                vec![ActionEstimate {
                    action: c.action,
                    score,
                    margin: None,
                    samples: 1,
                    equity: None,
                }]
            }
            _ => self.inner.analyse(state),
        }
    }
}
