//! The `net` agent: plays the roll's best play by cubeless equity (gammons
//! and backgammons count), evaluated by the game's network at 0-ply or
//! searched deeper (`ply=1`: the expectation over the opponent's 21 rolls
//! for the best few candidates by 0-ply, at most `filter` within 0.16 of the
//! best, as GNU Backgammon filters moves).

use super::cube::{
    CubeEquities, CubeSituation, Holder, MatchScore, cube_equities, cube_equities_searched,
};
use super::encode::{Encoding, NetVariant};
use super::eval::{Candidate, Evaluator, equity};
use super::seat_agent::SeatNetAgent;
use super::seat_rollout::RolloutSettings;
use super::seats::SeatNet;
use super::{NetFile, NetLoadError, check, load};
use crate::met::Crawford;
use crate::spec::NetConfig;
use crate::{ActionEstimate, Agent, Equity, EquityKind, Outcomes};
use spelbord_engine::backgammon::BackgammonRules;
use spelbord_engine::high_gammon::HgState;
use spelbord_engine::rng::seeded;
use spelbord_engine::stumphog::StumphogState;
use spelbord_engine::tables::{Phase, StepBoard, TablesAction, TablesState};
use spelbord_engine::tawla::TawlaRules;
use spelbord_engine::{GameState, Player, Viewer};
use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex};

/// The seed of the rollouts' dice: every candidate of every call rolled
/// out with the same dice, so that a played move rated alone is compared
/// with the others on the same luck.
const ROLLOUT_SEED: u64 = 0x005e_ed0f_d1ce;

/// Rolls a cube decision searches ahead unless the spec says otherwise:
/// two (GNU Backgammon's 2-ply cube judge agreed with 2 rolls far better
/// than with 1 or 0; 3 gained little at 20 times the time).
const CUBE_DEPTH: u32 = 2;

/// How far from even the search's winning chance must be for a cube
/// decision to be rolled out (`cube_rollout=`): nearer, neither side doubles.
const CUBE_ROLLOUT_FROM: f32 = 0.05;

/// How much of the rollout's difference from the search a rolled-out cube
/// decision takes: half (GNU Backgammon's judgement of three sets of 60
/// games preferred half to all of it in every set: measure/ai-cube.md).
const CUBE_ROLLOUT_WEIGHT: f32 = 0.5;

/// The most rollout results an agent keeps.
const ROLLOUTS_KEPT: usize = 64;

/// The network agent of one tables game.
pub struct NetAgent<V: NetVariant> {
    net: Arc<NetFile>,
    encoding: Encoding<V::Board>,
    /// A second network averaged with the first (`with=`).
    second: Option<(Arc<NetFile>, Encoding<V::Board>)>,
    config: NetConfig,
    /// The rollouts' results by the board after the play (the same board
    /// rolls out the same: the dice depend on nothing else), so that the
    /// played move rated after the search is not rolled out again.
    rolled: Mutex<Vec<(V::Board, super::Probs)>>,
    _variant: std::marker::PhantomData<V>,
}

impl<V: NetVariant> NetAgent<V> {
    /// The agent of `config` (the shipped network, or `config.file`'s).
    pub fn new(config: NetConfig) -> Result<Self, NetLoadError> {
        let source = config.file.as_deref();
        let net = load::<V>(source)?;
        let encoding = check::<V>(&net, source.unwrap_or("the shipped network"))?;
        let second = match config.with.as_deref() {
            Some(file) => {
                let net = load::<V>(Some(file))?;
                let encoding = check::<V>(&net, file)?;
                Some((net, encoding))
            }
            None => None,
        };
        Ok(NetAgent {
            net,
            encoding,
            second,
            config,
            rolled: Mutex::new(Vec::new()),
            _variant: std::marker::PhantomData,
        })
    }

    /// An evaluator of the agent's network.
    fn evaluator(&self, variant: V) -> Evaluator<'_, V> {
        let ev = Evaluator::new(&self.net.net, self.encoding, variant)
            .with_search(self.config.inner, self.config.window as f32 / 1000.0);
        match &self.second {
            Some((net, encoding)) => ev.with_second(&net.net, *encoding),
            None => ev,
        }
    }

    /// Each legal play of the roll with the mover's probabilities after it,
    /// best first.
    fn scored(&self, state: &TablesState<V>) -> Vec<(TablesAction, super::Probs)> {
        let Phase::Moving(dice) = state.phase() else {
            return Vec::new();
        };
        let mut ev = self.evaluator(*state.variant());
        let cands = ev.candidates(state.board(), dice);
        let zero = ev.after_0ply(&cands);
        let ranked = super::eval::rank(&zero);
        let deep = if self.config.plies > 0 {
            super::eval::filtered(
                &zero,
                &ranked,
                self.config.filter,
                self.config.window as f32 / 1000.0,
            )
            .len()
        } else {
            0
        };
        let mut out: Vec<(usize, super::Probs)> = ranked
            .iter()
            .enumerate()
            .map(|(r, &i)| {
                let p = if r < deep {
                    ev.after(&cands[i], self.config.plies, self.config.filter)
                } else {
                    zero[i]
                };
                (i, p)
            })
            .collect();
        // Deeper estimates first (they are the filter's survivors), then by equity.
        out[..deep].sort_by(|a, b| equity(&b.1).total_cmp(&equity(&a.1)));
        let width = self.rolled_out(out.len());
        if width > 0 {
            let starts: Vec<_> = out[..width].iter().map(|&(i, _)| cands[i]).collect();
            let means = self.rollout(&mut ev, &starts);
            for (o, p) in out.iter_mut().zip(means) {
                o.1 = p;
            }
            out[..width].sort_by(|a, b| equity(&b.1).total_cmp(&equity(&a.1)));
        }
        out.into_iter()
            .map(|(i, p)| (TablesAction::Play(cands[i].play), p))
            .collect()
    }

    /// How many of `count` candidates are rolled out (0: none).
    fn rolled_out(&self, count: usize) -> usize {
        if self.config.rollouts == 0 || count < 2 {
            return 0;
        }
        self.config.width.clamp(1, count)
    }

    /// The mover's mean probabilities after each of `starts` by the
    /// configured rollout; the same dice at every call.
    fn rollout(
        &self,
        ev: &mut Evaluator<'_, V>,
        starts: &[Candidate<V::Board>],
    ) -> Vec<super::Probs> {
        let mut rolled = self.rolled.lock().unwrap_or_else(|e| e.into_inner());
        let known = |rolled: &[(V::Board, super::Probs)], c: &Candidate<V::Board>| {
            rolled.iter().find(|(b, _)| *b == c.board).map(|r| r.1)
        };
        let missing: Vec<_> = starts
            .iter()
            .filter(|c| known(&rolled, c).is_none())
            .copied()
            .collect();
        let settings = RolloutSettings {
            trials: self.config.rollouts,
            turns: self.config.turns,
            width: self.config.width,
        };
        let means = super::rollout::mean_after(ev, &missing, settings, &mut seeded(ROLLOUT_SEED));
        let fresh: Vec<_> = missing.iter().map(|c| c.board).zip(means).collect();
        let out = starts
            .iter()
            .map(|c| {
                known(&fresh, c)
                    .or_else(|| known(&rolled, c))
                    .unwrap_or([0.5, 0.0, 0.0, 0.0, 0.0])
            })
            .collect();
        if rolled.len() + fresh.len() > ROLLOUTS_KEPT {
            rolled.clear();
        }
        rolled.extend(fresh);
        out
    }

    /// The cubeful values of the cube decision at `state` (the player on
    /// roll may double, or his opponent answers a double), searched
    /// two rolls ahead unless the spec says otherwise; `None`
    /// elsewhere.
    pub fn cube_equities(&self, state: &TablesState<V>) -> Option<CubeEquities> {
        if !matches!(state.phase(), Phase::CubeDecision | Phase::CubeResponse) {
            return None;
        }
        let view = state.observation(Viewer::Spectator);
        let roller = state.mover();
        let mut ev = self.evaluator(*state.variant());
        let depth = self.config.cube_depth.unwrap_or(CUBE_DEPTH);
        // The search's own probabilities where it searches (no second search
        // for the winning chance shown); else the agent's, `ply` deep.
        let mut tree = (depth > 0).then(|| ev.cube_tree(state.board(), depth));
        let mut probs = match &tree {
            Some(tree) => tree.mean(),
            None => ev.before_roll(state.board(), self.config.plies, self.config.filter),
        };
        // Where the decision is close, full rollouts correct the network's
        // probabilities (its gammons most): the search's leaves move by
        // half of what the rollout finds that the search missed.
        if self.config.cube_rollouts > 0 && (probs[0] - 0.5).abs() >= CUBE_ROLLOUT_FROM {
            let rng = &mut seeded(ROLLOUT_SEED);
            let rolled =
                super::rollout::mean_before(&mut ev, state.board(), self.config.cube_rollouts, rng);
            let delta: super::Probs =
                std::array::from_fn(|k| CUBE_ROLLOUT_WEIGHT * (rolled[k] - probs[k]));
            if let Some(tree) = &mut tree {
                tree.shift(delta);
            }
            probs = std::array::from_fn(|k| probs[k] + delta[k]);
        }
        let holder = match view.cube_owner {
            None => Holder::Centre,
            Some(p) if p == roller => Holder::Roller,
            Some(_) => Holder::Opponent,
        };
        let score = (view.match_to > 0).then(|| {
            let away = |p: usize| i32::from(view.match_to) - i32::from(view.score[p]);
            let (away, other_away) = (away(roller), away(1 - roller));
            let crawford = if view.crawford_game {
                Crawford::ThisGame
            } else if away == 1 || other_away == 1 {
                Crawford::After
            } else {
                Crawford::Before
            };
            MatchScore {
                away,
                other_away,
                crawford,
            }
        });
        let situation = CubeSituation {
            probs,
            cube: view.cube,
            holder,
            score,
        };
        Some(match &tree {
            Some(tree) => cube_equities_searched(&situation, tree),
            None => cube_equities(&situation),
        })
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
        let mut ev = self.evaluator(*state.variant());
        let side = state.mover();
        // Searched as deep as the agent plays (the filter's candidates).
        let (plies, filter) = (self.config.plies, self.config.filter);
        let p = match state.phase() {
            Phase::Over => return None,
            Phase::Moving(dice) => {
                let cands = ev.candidates(state.board(), dice);
                ev.best(&cands, plies, filter).1
            }
            _ => ev.before_roll(state.board(), plies, filter),
        };
        let w = f64::from(p[0]);
        Some(if player == side { w } else { 1.0 - w })
    }

    fn cube_choice(&mut self, state: &TablesState<V>) -> Option<TablesAction> {
        if !self.config.cubeful {
            return None;
        }
        let e = self.cube_equities(state)?;
        Some(match state.phase() {
            Phase::CubeDecision if e.should_double() => TablesAction::Double,
            Phase::CubeDecision => TablesAction::Roll,
            _ if e.should_take() => TablesAction::Take,
            _ => TablesAction::Drop,
        })
    }

    fn analyse(&mut self, state: &TablesState<V>) -> Vec<ActionEstimate<TablesAction>> {
        if self.config.cubeful
            && let Some(e) = self.cube_equities(state)
        {
            return cube_estimates(state, &e);
        }
        self.scored(state)
            .into_iter()
            .map(|(action, p)| play_estimate(action, p))
            .collect()
    }

    fn rate(
        &mut self,
        state: &TablesState<V>,
        action: TablesAction,
    ) -> Option<ActionEstimate<TablesAction>> {
        if let Some(e) = self.cube_equities(state) {
            return cube_estimates(state, &e)
                .into_iter()
                .find(|e| e.action == action);
        }
        let (Phase::Moving(_), TablesAction::Play(play)) = (state.phase(), action) else {
            return None;
        };
        let mut board = *state.board();
        for &step in play.steps() {
            board.apply_step(step);
        }
        let cand = Candidate {
            play,
            board,
            end: state.variant().game_end(&board),
        };
        let mut ev = self.evaluator(*state.variant());
        let p = if self.config.rollouts > 0 {
            self.rollout(&mut ev, &[cand])[0]
        } else {
            ev.after(&cand, self.config.plies, self.config.filter)
        };
        Some(play_estimate(action, p))
    }
}

/// A play with the mover's probabilities after it, as an estimate.
fn play_estimate(action: TablesAction, p: super::Probs) -> ActionEstimate<TablesAction> {
    ActionEstimate {
        action,
        score: f64::from(p[0]),
        margin: None,
        samples: 1,
        equity: Some(Equity {
            kind: EquityKind::Cubeless,
            value: f64::from(equity(&p)),
            outcomes: Some(Outcomes {
                win: f64::from(p[0]),
                win_gammon: f64::from(p[1]),
                win_backgammon: f64::from(p[2]),
                lose_gammon: f64::from(p[3]),
                lose_backgammon: f64::from(p[4]),
            }),
        }),
    }
}

/// The two actions of a cube decision with their cubeful values for the
/// player to move (the doubler, or the one answering), best first.
fn cube_estimates<V: NetVariant>(
    state: &TablesState<V>,
    e: &CubeEquities,
) -> Vec<ActionEstimate<TablesAction>> {
    let is_match = state.options().match_to > 0;
    let kind = if is_match {
        EquityKind::MatchWinningChance
    } else {
        EquityKind::Cubeful
    };
    // The answering player's value is the doubler's turned round.
    let theirs = |v: f64| if is_match { 1.0 - v } else { -v };
    let (mut out, win): (Vec<(TablesAction, f64)>, f64) = match state.phase() {
        Phase::CubeDecision => (
            vec![
                (TablesAction::Double, e.double_take.min(e.double_drop)),
                (TablesAction::Roll, e.no_double),
            ],
            e.win,
        ),
        _ => (
            vec![
                (TablesAction::Take, theirs(e.double_take)),
                (TablesAction::Drop, theirs(e.double_drop)),
            ],
            1.0 - e.win,
        ),
    };
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.into_iter()
        .map(|(action, value)| ActionEstimate {
            action,
            // The cubeless chance to win; the equity ranks the two.
            score: win,
            margin: None,
            samples: 1,
            equity: Some(Equity {
                kind,
                value,
                outcomes: None,
            }),
        })
        .collect()
}

/// The `net` agent for state type `S`, when `S` is a game with a network;
/// `seed` seeds the seat games' rollouts.
pub fn net_agent<S: GameState>(
    config: &NetConfig,
    seed: u64,
) -> Result<Box<dyn Agent<S>>, NetLoadError> {
    if TypeId::of::<S>() == TypeId::of::<TablesState<BackgammonRules>>() {
        return boxed::<S, BackgammonRules>(config);
    }
    if TypeId::of::<S>() == TypeId::of::<TablesState<TawlaRules>>() {
        return boxed::<S, TawlaRules>(config);
    }
    if TypeId::of::<S>() == TypeId::of::<HgState>() {
        return boxed_seats::<S, HgState>(config, seed);
    }
    if TypeId::of::<S>() == TypeId::of::<StumphogState>() {
        return boxed_seats::<S, StumphogState>(config, seed);
    }
    Err(NetLoadError::NoNet(std::any::type_name::<S>().into()))
}

/// The seat-network agent of state `T` as an agent of `S` (which is `T`).
fn boxed_seats<S: GameState, T: SeatNet>(
    config: &NetConfig,
    seed: u64,
) -> Result<Box<dyn Agent<S>>, NetLoadError> {
    let agent: Box<dyn Agent<T>> = Box::new(SeatNetAgent::<T>::new(config.clone(), seed));
    let any: Box<dyn Any> = Box::new(agent);
    any.downcast::<Box<dyn Agent<S>>>()
        .map(|agent| *agent)
        .map_err(|_| NetLoadError::NoNet(std::any::type_name::<S>().into()))
}

/// The `net` agent of variant `V` as an agent of `S` (which is `V`'s state).
fn boxed<S: GameState, V: NetVariant>(
    config: &NetConfig,
) -> Result<Box<dyn Agent<S>>, NetLoadError> {
    let agent: Box<dyn Agent<TablesState<V>>> = Box::new(NetAgent::<V>::new(config.clone())?);
    let any: Box<dyn Any> = Box::new(agent);
    any.downcast::<Box<dyn Agent<S>>>()
        .map(|agent| *agent)
        .map_err(|_| NetLoadError::NoNet(std::any::type_name::<S>().into()))
}
