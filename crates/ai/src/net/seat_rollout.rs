//! Truncated rollouts on a seat network (High-O Gammon, Tric-Trac,
//! Stumphög): the best few actions by 0-ply are each played on for a few
//! turns, every player choosing by the network at 0-ply, and the network
//! scores every seat where the trial stops. All candidates share the dice
//! of a trial (common random numbers, as GNU Backgammon's rollouts), and
//! the first roll of the trials is stratified over the roll's outcomes, so
//! that candidates are compared on the same luck.

use super::seat_eval::SeatEvaluator;
use super::seats::{SeatNet, SeatValues};
use rand::{Rng, RngCore};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{Player, Turn};

/// How many trials, how long, and how many candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutSettings {
    /// Trials per candidate.
    pub trials: u32,
    /// Player decisions a trial plays before the network scores it.
    pub turns: u32,
    /// Candidates (the best by 0-ply) rolled out.
    pub width: usize,
}

/// The chance outcome at cumulative probability `u` (0..1) of `outcomes`.
pub fn outcome_at<A: Copy>(outcomes: &[(A, f64)], u: f64) -> A {
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    let mut acc = 0.0;
    for &(a, p) in outcomes {
        acc += p / total;
        if u < acc {
            return a;
        }
    }
    outcomes[outcomes.len() - 1].0
}

/// Each of `trials` trials (at least one) as its first roll's cumulative
/// probability and the seed of its later dice: trial k's first roll is
/// drawn at (k + u) / trials of the roll's distribution (one u from `rng`),
/// so every outcome has its share of the trials.
pub fn trials(trials: u32, rng: &mut SeededRng) -> Vec<(f64, u64)> {
    let trials = trials.max(1);
    let shift: f64 = rng.random();
    (0..trials)
        .map(|k| ((f64::from(k) + shift) / f64::from(trials), rng.next_u64()))
        .collect()
}

/// A rollout searcher over one seat network.
pub struct SeatRollout<'n, S: SeatNet> {
    ev: SeatEvaluator<'n>,
    actions: Vec<S::Action>,
    after: Vec<S>,
    outcomes: Vec<(S::Action, f64)>,
}

impl<'n, S: SeatNet> SeatRollout<'n, S> {
    /// A searcher that evaluates with `ev`.
    pub fn new(ev: SeatEvaluator<'n>) -> Self {
        SeatRollout {
            ev,
            actions: Vec::new(),
            after: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// Positions evaluated by the network so far.
    pub fn evaluations(&self) -> u64 {
        self.ev.evaluations
    }

    /// Each legal action of the player to move with his values after it,
    /// best first: the best `settings.width` by 0-ply rolled out (their
    /// mean values over the trials, ranked first), the others at 0-ply.
    /// The dice come from `rng`.
    pub fn ranked(
        &mut self,
        state: &S,
        settings: RolloutSettings,
        rng: &mut SeededRng,
    ) -> Vec<(S::Action, SeatValues)> {
        let Turn::Player(me) = state.turn() else {
            return Vec::new();
        };
        let mut zero = self.ev.ranked(state, 0, 1);
        let width = settings.width.max(1).min(zero.len());
        if width < 2 || settings.trials == 0 {
            return zero;
        }
        let starts: Vec<S> = zero[..width]
            .iter()
            .map(|&(a, _)| {
                let mut s = *state;
                s.apply(a);
                s
            })
            .collect();
        let means = self.mean_values(&starts, settings, rng);
        for (c, v) in zero.iter_mut().zip(means) {
            c.1 = v;
        }
        let key = |v: &SeatValues| (v.win[me], v.points[me]);
        zero[..width].sort_by(|a, b| {
            let (ka, kb) = (key(&a.1), key(&b.1));
            kb.0.total_cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
        });
        zero
    }

    /// The mean values of each of `starts` over `settings.trials` trials;
    /// trial k plays every start with the same dice.
    pub fn mean_values(
        &mut self,
        starts: &[S],
        settings: RolloutSettings,
        rng: &mut SeededRng,
    ) -> Vec<SeatValues> {
        let schedule = trials(settings.trials, rng);
        let mut sums = vec![SeatValues::default(); starts.len()];
        let weight = 1.0 / schedule.len() as f32;
        for &(first, seed) in &schedule {
            for (start, sum) in starts.iter().zip(sums.iter_mut()) {
                let v = self.trial(*start, &mut seeded(seed), first, settings.turns);
                sum.add_scaled(&v, weight);
            }
        }
        sums
    }

    /// One trial from `state`: the first chance outcome at cumulative
    /// probability `first`, later ones from `dice`, every decision the
    /// mover's best by 0-ply, for `turns` decisions; every player's values
    /// where it stops.
    fn trial(&mut self, mut state: S, dice: &mut SeededRng, first: f64, turns: u32) -> SeatValues {
        let mut first = Some(first);
        let mut decisions = 0;
        loop {
            match state.turn() {
                Turn::Over => return SeatValues::of_finished(&state),
                Turn::Chance => {
                    let a = match first.take() {
                        Some(u) => {
                            self.outcomes.clear();
                            state.chance_outcomes(&mut self.outcomes);
                            outcome_at(&self.outcomes, u)
                        }
                        None => state.sample_chance(dice),
                    };
                    state.apply(a);
                }
                Turn::Player(p) => {
                    if decisions >= turns {
                        break;
                    }
                    decisions += 1;
                    state = self.best_after(&state, p);
                }
            }
        }
        self.ev.values(std::slice::from_ref(&state))[0]
    }

    /// The state after the best action of `player` (to move) by 0-ply.
    fn best_after(&mut self, state: &S, player: Player) -> S {
        self.actions.clear();
        state.legal_actions(&mut self.actions);
        self.after.clear();
        self.after.extend(self.actions.iter().map(|&a| {
            let mut s = *state;
            s.apply(a);
            s
        }));
        if self.after.len() == 1 {
            return self.after[0];
        }
        let values = self.ev.values(&self.after);
        let best = SeatEvaluator::best_for(&values, player).map_or(0, |b| b.0);
        self.after[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::load_seat_net;
    use spelbord_engine::high_gammon::{HgAction, HgState, HighGammon};
    use spelbord_engine::{Game, GameState};

    fn start(players: usize) -> HgState {
        let options = spelbord_engine::Options::parse(
            HighGammon::ID,
            HighGammon::option_specs(),
            &[format!("players={players}")],
        )
        .unwrap();
        HighGammon::from_options(&options).unwrap().initial_state()
    }

    /// A position after the opening of a `players`-player game, with the
    /// first mover to play.
    fn midgame(players: usize, seed: u64) -> HgState {
        let mut s = start(players);
        let mut rng = seeded(seed);
        while !matches!(s.turn(), Turn::Player(_)) || matches!(legal(&s)[0], HgAction::Colour(_)) {
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng),
                _ => legal(&s)[0],
            };
            s.apply(a);
        }
        s
    }

    fn legal(s: &HgState) -> Vec<HgAction> {
        let mut v = Vec::new();
        s.legal_actions(&mut v);
        v
    }

    const SETTINGS: RolloutSettings = RolloutSettings {
        trials: 12,
        turns: 6,
        width: 4,
    };

    #[test]
    fn hg15_the_first_roll_is_spread_over_the_trials() {
        // 36 trials: every double once, every other roll twice.
        let s = {
            let mut s = midgame(3, 1);
            let a = legal(&s)[0];
            s.apply(a);
            s
        };
        let mut outcomes = Vec::new();
        s.chance_outcomes(&mut outcomes);
        assert_eq!(outcomes.len(), 21);
        for &(roll, p) in &outcomes {
            let hits = (0..36)
                .filter(|&k| outcome_at(&outcomes, (k as f64 + 0.5) / 36.0) == roll)
                .count();
            assert_eq!(hits as f64, (p * 36.0).round(), "{roll:?}");
        }
    }

    #[test]
    fn hg15_every_candidate_sees_the_same_dice() {
        // The same position twice is rolled out to the same values: the
        // trials share their dice between candidates.
        let net = load_seat_net::<HgState>("high-gammon", 3, None).unwrap();
        let mut r = SeatRollout::new(SeatEvaluator::new(&net));
        let s = midgame(3, 2);
        let a = legal(&s)[0];
        let mut after = s;
        after.apply(a);
        let means = r.mean_values(&[after, after], SETTINGS, &mut seeded(7));
        assert_eq!(means[0], means[1]);
        // and the trials differ among themselves (the dice are not fixed).
        let one = RolloutSettings {
            trials: 1,
            ..SETTINGS
        };
        let firsts: Vec<SeatValues> = (0..6)
            .map(|seed| r.mean_values(&[after], one, &mut seeded(seed))[0])
            .collect();
        assert!(firsts.iter().any(|v| *v != firsts[0]));
    }

    #[test]
    fn hg15_rollouts_are_deterministic_for_a_seed_and_rank_every_action() {
        let net = load_seat_net::<HgState>("high-gammon", 4, None).unwrap();
        let mut r = SeatRollout::new(SeatEvaluator::new(&net));
        let s = midgame(4, 3);
        let a = r.ranked(&s, SETTINGS, &mut seeded(11));
        let b = r.ranked(&s, SETTINGS, &mut seeded(11));
        assert_eq!(a, b);
        assert_eq!(a.len(), legal(&s).len());
        // The rolled-out candidates come first, best for the mover first.
        let Turn::Player(me) = s.turn() else {
            panic!("no mover")
        };
        let w = SETTINGS.width.min(a.len());
        assert!(a[..w].windows(2).all(|p| p[0].1.win[me] >= p[1].1.win[me]));
    }

    #[test]
    fn hg15_a_forced_move_is_not_rolled_out() {
        let net = load_seat_net::<HgState>("high-gammon", 2, None).unwrap();
        let mut rng = seeded(5);
        // Find a position with one legal action in games by 0-ply play.
        let mut s = start(2);
        let forced = loop {
            match s.turn() {
                Turn::Over => s = start(2),
                Turn::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply(a);
                }
                Turn::Player(_) if legal(&s).len() == 1 => break s,
                Turn::Player(_) => {
                    let mut ev = SeatEvaluator::new(&net);
                    let a = ev.ranked(&s, 0, 1)[0].0;
                    s.apply(a);
                }
            }
        };
        let mut r = SeatRollout::new(SeatEvaluator::new(&net));
        let ranked = r.ranked(&forced, SETTINGS, &mut rng);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].0, legal(&forced)[0]);
        assert_eq!(r.evaluations(), 1, "only the 0-ply evaluation");
    }
}
