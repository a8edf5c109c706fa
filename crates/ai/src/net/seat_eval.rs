//! Evaluating states of any number of players with a seat network: the
//! afterstates of every legal action in one batch (0-ply), and the
//! expectation over the next chance outcome with the next player's best
//! reply (1-ply), for the candidates a 0-ply filter keeps.

use super::format::NetFile;
use super::mlp::Scratch;
use super::seats::{SeatNet, SeatValues};
use spelbord_engine::{Player, Turn};

/// A seat network with the buffers to evaluate it.
pub struct SeatEvaluator<'n> {
    net: &'n NetFile,
    scratch: Scratch,
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Positions evaluated by the network so far.
    pub evaluations: u64,
}

impl<'n> SeatEvaluator<'n> {
    /// An evaluator of `net`.
    pub fn new(net: &'n NetFile) -> Self {
        SeatEvaluator {
            net,
            scratch: Scratch::default(),
            xs: Vec::new(),
            ys: Vec::new(),
            evaluations: 0,
        }
    }

    /// Every player's values in each state: exact for a finished game, else
    /// the network's (all unfinished states in one batch).
    pub fn values<S: SeatNet>(&mut self, states: &[S]) -> Vec<SeatValues> {
        let inputs = self.net.net.inputs();
        let outputs = self.net.net.outputs();
        let open: Vec<&S> = states.iter().filter(|s| s.turn() != Turn::Over).collect();
        self.xs.clear();
        self.xs.resize(open.len() * inputs, 0.0);
        for (s, x) in open.iter().zip(self.xs.chunks_exact_mut(inputs)) {
            s.encode(s.viewer(), x);
        }
        self.ys.clear();
        self.ys.resize(open.len() * outputs, 0.0);
        self.net
            .net
            .forward_batch(&self.xs, &mut self.scratch, &mut self.ys);
        self.evaluations += open.len() as u64;
        let mut ys = self.ys.chunks_exact(outputs);
        states
            .iter()
            .map(|s| {
                if s.turn() == Turn::Over {
                    return SeatValues::of_finished(s);
                }
                let y = ys.next().unwrap_or(&[]);
                if y.len() < outputs {
                    return SeatValues::default();
                }
                SeatValues::from_outputs(
                    y,
                    self.net.outputs,
                    s.viewer(),
                    s.num_players(),
                    s.points_scale(),
                )
            })
            .collect()
    }

    /// The legal actions of the player to move in `state` and the state
    /// after each.
    pub fn afterstates<S: SeatNet>(state: &S) -> (Vec<S::Action>, Vec<S>) {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let after = actions
            .iter()
            .map(|&a| {
                let mut s = *state;
                s.apply(a);
                s
            })
            .collect();
        (actions, after)
    }

    /// The index of the best of `values` for `player` (the highest chance
    /// of winning, expected points breaking ties) and its values.
    pub fn best_for(values: &[SeatValues], player: Player) -> Option<(usize, SeatValues)> {
        let key = |v: &SeatValues| (v.win[player], v.points[player]);
        values
            .iter()
            .enumerate()
            .max_by(|a, b| {
                let (ka, kb) = (key(a.1), key(b.1));
                ka.0.total_cmp(&kb.0)
                    .then(ka.1.total_cmp(&kb.1))
                    // The first of equals wins.
                    .then(b.0.cmp(&a.0))
            })
            .map(|(i, v)| (i, *v))
    }

    /// The values of `state` searched `plies` deep: 0, the network at once;
    /// 1, at a chance node the expectation over its outcomes, each followed
    /// by the next player's best action at 0-ply.
    pub fn searched<S: SeatNet>(&mut self, state: &S, plies: u32) -> SeatValues {
        if plies == 0 || state.turn() != Turn::Chance {
            return self.values(std::slice::from_ref(state))[0];
        }
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        let mut sum = SeatValues::default();
        for &(a, p) in &outcomes {
            let mut s = *state;
            s.apply(a);
            let v = match s.turn() {
                Turn::Player(q) => {
                    let (_, after) = Self::afterstates(&s);
                    let vals = self.values(&after);
                    Self::best_for(&vals, q).map_or_else(|| self.values(&[s])[0], |b| b.1)
                }
                _ => self.values(&[s])[0],
            };
            sum.add_scaled(&v, p as f32);
        }
        sum
    }

    /// Each legal action of the player to move with his values after it,
    /// best first: all by 0-ply, the best `filter` of them then searched
    /// `plies` deep (and ranked first).
    pub fn ranked<S: SeatNet>(
        &mut self,
        state: &S,
        plies: u32,
        filter: usize,
    ) -> Vec<(S::Action, SeatValues)> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        let (actions, after) = Self::afterstates(state);
        let zero = self.values(&after);
        let mut order: Vec<usize> = (0..actions.len()).collect();
        let key = |v: &SeatValues| (v.win[me], v.points[me]);
        let by_value = |vals: &[SeatValues], a: &usize, b: &usize| {
            let (ka, kb) = (key(&vals[*a]), key(&vals[*b]));
            kb.0.total_cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
        };
        order.sort_by(|a, b| by_value(&zero, a, b));
        let mut vals = zero.clone();
        let deep = if plies > 0 {
            filter.max(1).min(order.len())
        } else {
            0
        };
        for &i in &order[..deep] {
            vals[i] = self.searched(&after[i], plies);
        }
        order[..deep].sort_by(|a, b| by_value(&vals, a, b));
        order.into_iter().map(|i| (actions[i], vals[i])).collect()
    }
}
