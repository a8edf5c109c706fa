//! The `net` agent: plays the roll's best play by cubeless equity (gammons
//! and backgammons count), evaluated by the game's network at 0-ply or
//! searched deeper (`ply=1`: the expectation over the opponent's 21 rolls
//! for the best few candidates by 0-ply, as GNU Backgammon filters moves).

use super::encode::NetVariant;
use super::eval::{Evaluator, equity};
use super::{NetFile, NetLoadError, load};
use crate::spec::NetConfig;
use crate::{ActionEstimate, Agent};
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::tables::{Phase, TablesAction, TablesState};
use spelbord_engine::{GameState, Player};
use std::any::{Any, TypeId};
use std::sync::Arc;

/// The network agent of one tables game.
pub struct NetAgent<V: NetVariant> {
    net: Arc<NetFile>,
    config: NetConfig,
    _variant: std::marker::PhantomData<V>,
}

impl<V: NetVariant> NetAgent<V> {
    /// The agent of `config` (the shipped network, or `config.file`'s).
    pub fn new(config: NetConfig) -> Result<Self, NetLoadError> {
        Ok(NetAgent {
            net: load::<V>(config.file.as_deref())?,
            config,
            _variant: std::marker::PhantomData,
        })
    }

    /// Each legal play of the roll with the mover's probabilities after it,
    /// best first.
    fn scored(&self, state: &TablesState<V>) -> Vec<(TablesAction, super::Probs)> {
        let Phase::Moving(dice) = state.phase() else {
            return Vec::new();
        };
        let mut ev = Evaluator::new(&self.net.net, *state.variant());
        let cands = ev.candidates(state.board(), dice);
        let zero = ev.after_0ply(&cands);
        let ranked = super::eval::rank(&zero);
        let mut out: Vec<(TablesAction, super::Probs)> = ranked
            .iter()
            .enumerate()
            .map(|(r, &i)| {
                let p = if self.config.plies > 0 && r < self.config.filter {
                    ev.after(&cands[i], self.config.plies, self.config.filter)
                } else {
                    zero[i]
                };
                (TablesAction::Play(cands[i].play), p)
            })
            .collect();
        // Deeper estimates first (they are the filter's survivors), then by equity.
        let deep = if self.config.plies > 0 {
            self.config.filter.min(out.len())
        } else {
            0
        };
        out[..deep].sort_by(|a, b| equity(&b.1).total_cmp(&equity(&a.1)));
        out
    }
}

impl<V: NetVariant> Agent<TablesState<V>> for NetAgent<V> {
    fn name(&self) -> String {
        format!("net:ply={}", self.config.plies)
    }

    fn choose(&mut self, state: &TablesState<V>) -> TablesAction {
        if let Some((a, _)) = self.scored(state).first() {
            return *a;
        }
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        // Outside a roll only cube actions remain; the cube wrapper decides
        // those, this is the cubeless default (roll, take).
        actions
            .iter()
            .copied()
            .find(|a| matches!(a, TablesAction::Roll | TablesAction::Take))
            .or(actions.first().copied())
            .unwrap_or(TablesAction::Roll)
    }

    fn estimate(&mut self, state: &TablesState<V>, player: Player) -> Option<f64> {
        let mut ev = Evaluator::new(&self.net.net, *state.variant());
        let side = state.mover();
        let p = match state.phase() {
            Phase::Over => return None,
            Phase::Moving(dice) => {
                let cands = ev.candidates(state.board(), dice);
                ev.best(&cands, 0, 1).1
            }
            _ => ev.before_roll(state.board(), 0, 1),
        };
        let w = f64::from(p[0]);
        Some(if player == side { w } else { 1.0 - w })
    }

    fn analyse(&mut self, state: &TablesState<V>) -> Vec<ActionEstimate<TablesAction>> {
        self.scored(state)
            .into_iter()
            .map(|(action, p)| ActionEstimate {
                action,
                score: f64::from(p[0]),
                margin: None,
                samples: 1,
            })
            .collect()
    }
}

/// The `net` agent for state type `S`, when `S` is a game with a network.
pub fn net_agent<S: GameState>(config: &NetConfig) -> Result<Box<dyn Agent<S>>, NetLoadError> {
    if TypeId::of::<S>() == TypeId::of::<TablesState<BackgammonRules>>() {
        let agent: Box<dyn Agent<TablesState<BackgammonRules>>> =
            Box::new(NetAgent::<BackgammonRules>::new(config.clone())?);
        let any: Box<dyn Any> = Box::new(agent);
        if let Ok(agent) = any.downcast::<Box<dyn Agent<S>>>() {
            return Ok(*agent);
        }
    }
    Err(NetLoadError::NoNet(std::any::type_name::<S>().into()))
}
