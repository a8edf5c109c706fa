//! The `net` agent of the games with seat networks (High-O Gammon,
//! Tric-Trac, Stumphög): takes the action whose afterstate gives it the best
//! chance of winning, by the network at once (0-ply), with the
//! expectation over the next roll for the best few (`ply=1`), or by
//! truncated rollouts of the best few (`rollout=N`).

use super::seat_eval::SeatEvaluator;
use super::seat_rollout::{RolloutSettings, SeatRollout};
use super::seats::SeatNet;
use super::{NetFile, load_seat_net};
use crate::spec::NetConfig;
use crate::{ActionEstimate, Agent};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{Player, Turn};
use std::sync::Arc;

/// The network agent of a game with seat networks; the network (one per
/// game and number of players) is loaded at the first state it sees.
pub struct SeatNetAgent<S: SeatNet> {
    config: NetConfig,
    net: Option<Arc<NetFile>>,
    rng: SeededRng,
    _state: std::marker::PhantomData<S>,
}

impl<S: SeatNet> SeatNetAgent<S> {
    /// The agent of `config` (the shipped networks, or `config.file`'s);
    /// `seed` seeds the dice of its rollouts.
    pub fn new(config: NetConfig, seed: u64) -> Self {
        SeatNetAgent {
            config,
            net: None,
            rng: seeded(seed),
            _state: std::marker::PhantomData,
        }
    }

    /// The network for `state`'s game and players.
    fn net(&mut self, state: &S) -> Option<Arc<NetFile>> {
        if self.net.is_none() {
            self.net = load_seat_net::<S>(
                state.net_game(),
                state.num_players(),
                self.config.file.as_deref(),
            )
            .ok();
        }
        self.net.clone()
    }

    /// Each legal action with the mover's chance of winning after it, best
    /// first.
    fn scored(&mut self, state: &S) -> Vec<(S::Action, f64, f64)> {
        let (Some(net), Turn::Player(me)) = (self.net(state), state.turn()) else {
            return Vec::new();
        };
        let ev = SeatEvaluator::new(&net);
        let ranked = if self.config.rollouts > 0 {
            let settings = RolloutSettings {
                trials: self.config.rollouts,
                turns: self.config.turns,
                width: self.config.width,
            };
            SeatRollout::new(ev).ranked(state, settings, &mut self.rng)
        } else {
            let mut ev = ev;
            ev.ranked(state, self.config.plies, self.config.filter)
        };
        ranked
            .into_iter()
            .map(|(a, v)| (a, f64::from(v.win[me]), f64::from(v.points[me])))
            .collect()
    }
}

impl<S: SeatNet> Agent<S> for SeatNetAgent<S> {
    fn name(&self) -> String {
        let c = &self.config;
        if c.rollouts > 0 {
            format!(
                "net:rollout={},turns={},width={}",
                c.rollouts, c.turns, c.width
            )
        } else {
            format!("net:ply={}", c.plies.min(1))
        }
    }

    fn choose(&mut self, state: &S) -> S::Action {
        if let Some(&(a, _, _)) = self.scored(state).first() {
            return a;
        }
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        actions[0]
    }

    fn estimate(&mut self, state: &S, player: Player) -> Option<f64> {
        let net = self.net(state)?;
        let mut ev = SeatEvaluator::new(&net);
        let win = f64::from(ev.values(std::slice::from_ref(state))[0].win[player]);
        Some(score_of_win(win, state.num_players()))
    }

    fn analyse(&mut self, state: &S) -> Vec<ActionEstimate<S::Action>> {
        self.scored(state)
            .into_iter()
            .map(|(action, win, _)| ActionEstimate {
                action,
                score: score_of_win(win, state.num_players()),
                margin: None,
                samples: 1,
                equity: None,
            })
            .collect()
    }
}

/// The outcome score (0..1) that stands for a chance of winning `win` among
/// `n` players: agents' scores turn into win probabilities as
/// score^log2(n) (see `values::win_probability`).
fn score_of_win(win: f64, n: usize) -> f64 {
    let n = n.max(2) as f64;
    win.clamp(0.0, 1.0).powf(1.0 / n.log2())
}
