//! Truncated rollouts of the two-player tables games (backgammon, Tawla):
//! each candidate play is played on for a few turns, both sides choosing by
//! the network at 0-ply, and the network (or the exact bear-off database)
//! scores the position where the trial stops. All candidates share the
//! dice of a trial (common random numbers, as GNU Backgammon's rollouts),
//! and the trials' first roll is stratified over the 21 rolls.

use super::encode::NetVariant;
use super::eval::{Candidate, Evaluator, Probs, bear_off_exact, ended, flip};
use super::seat_rollout::{RolloutSettings, outcome_at, trials};
use rand::Rng;
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::tables::{Play, ROLLS};

/// The mover's mean probabilities after each of `cands` over
/// `settings.trials` trials of `settings.turns` plays each; trial k plays
/// every candidate with the same dice, drawn from `rng`.
pub fn mean_after<V: NetVariant>(
    ev: &mut Evaluator<'_, V>,
    cands: &[Candidate<V::Board>],
    settings: RolloutSettings,
    rng: &mut SeededRng,
) -> Vec<Probs> {
    let schedule = trials(settings.trials, rng);
    let weight = 1.0 / schedule.len() as f32;
    let mut sums = vec![[0.0f32; 5]; cands.len()];
    for &(first, seed) in &schedule {
        for (cand, sum) in cands.iter().zip(sums.iter_mut()) {
            let p = trial(ev, cand, &mut seeded(seed), first, settings.turns);
            for (s, v) in sum.iter_mut().zip(p) {
                *s += v * weight;
            }
        }
    }
    sums
}

/// The probabilities of the side on roll on `board` by `trials` trials
/// played to the end of the game (see [`mean_after`]).
pub fn mean_before<V: NetVariant>(
    ev: &mut Evaluator<'_, V>,
    board: &V::Board,
    trials: u32,
    rng: &mut SeededRng,
) -> Probs {
    // The opponent's frame after an empty play: the side on roll moves next.
    let mut before = *board;
    V::flip(&mut before);
    let cand = Candidate {
        play: Play::EMPTY,
        board: before,
        end: None,
    };
    let settings = RolloutSettings {
        trials,
        turns: u32::MAX,
        width: 1,
    };
    flip(mean_after(ev, &[cand], settings, rng)[0])
}

/// One trial after `cand`: the opponent's first roll at cumulative
/// probability `first`, later rolls from `dice`, each side playing its best
/// play by 0-ply for `turns` plays; the mover's probabilities where it
/// stops, less the luck of every roll on the way (variance reduction, as
/// GNU Backgammon's rollouts: a roll's luck is the value of the best play
/// of the roll that came less the mean of that value over the 21 rolls,
/// so the estimate keeps its mean and loses most of the dice's noise).
fn trial<V: NetVariant>(
    ev: &mut Evaluator<'_, V>,
    cand: &Candidate<V::Board>,
    dice: &mut SeededRng,
    first: f64,
    turns: u32,
) -> Probs {
    if let Some(end) = cand.end {
        return ended(end);
    }
    let mut board = cand.board;
    V::flip(&mut board);
    // Whether the side on roll on `board` is the candidate's mover.
    let mut mover_on_roll = false;
    let mut first = Some(first);
    let mut luck = [0.0f32; 5];
    let in_mover_frame = |p: Probs, mover: bool| if mover { p } else { flip(p) };
    let result = 'trial: {
        for _ in 0..turns {
            if let Some(exact) = bear_off_exact::<V>(&board) {
                break 'trial in_mover_frame(exact, mover_on_roll);
            }
            let roll = match first.take() {
                Some(u) => outcome_at(&ROLLS, u),
                None => [dice.random_range(1..=6), dice.random_range(1..=6)],
            };
            let (chosen, value, mean) = best_of_every_roll(ev, &board, roll);
            let (value, mean) = (
                in_mover_frame(value, mover_on_roll),
                in_mover_frame(mean, mover_on_roll),
            );
            for (l, (v, m)) in luck.iter_mut().zip(value.iter().zip(mean)) {
                *l += v - m;
            }
            if let Some(end) = chosen.end {
                break 'trial in_mover_frame(ended(end), mover_on_roll);
            }
            board = chosen.board;
            V::flip(&mut board);
            mover_on_roll = !mover_on_roll;
        }
        in_mover_frame(ev.before_roll(&board, 0, 1), mover_on_roll)
    };
    let mut out = result;
    for (o, l) in out.iter_mut().zip(luck) {
        *o -= l;
    }
    out
}

/// The best play by 0-ply of `roll` on `board` (an unplayable roll has
/// the empty play), the mover's probabilities after it, and the mean of
/// those probabilities over the 21 rolls (the mover's one-ply value).
fn best_of_every_roll<V: NetVariant>(
    ev: &mut Evaluator<'_, V>,
    board: &V::Board,
    roll: [u8; 2],
) -> (Candidate<V::Board>, Probs, Probs) {
    let sorted = |r: [u8; 2]| [r[0].min(r[1]), r[0].max(r[1])];
    let mut mean = [0.0f32; 5];
    let mut came = None;
    for &(r, p) in ROLLS.iter() {
        let plays = ev.candidates(board, r);
        let (best, value) = ev.best(&plays, 0, 1);
        for (m, v) in mean.iter_mut().zip(value) {
            *m += p as f32 * v;
        }
        if sorted(r) == sorted(roll) {
            came = Some((plays[best], value));
        }
    }
    let (chosen, value) = came.unwrap_or_else(|| {
        let plays = ev.candidates(board, roll);
        let (best, value) = ev.best(&plays, 0, 1);
        (plays[best], value)
    });
    (chosen, value, mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::eval::{equity, rank};
    use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules};

    const SETTINGS: RolloutSettings = RolloutSettings {
        trials: 36,
        turns: 6,
        width: 3,
    };

    fn with_evaluator<T>(f: impl FnOnce(&mut Evaluator<'_, BackgammonRules>) -> T) -> T {
        let net = crate::net::load::<BackgammonRules>(None).unwrap();
        let encoding = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        f(&mut Evaluator::new(&net.net, encoding, BackgammonRules))
    }

    /// The plays of 3-1 from the start, best by 0-ply first.
    fn opening(ev: &mut Evaluator<'_, BackgammonRules>) -> Vec<Candidate<BackgammonBoard>> {
        let cands = ev.candidates(&BackgammonBoard::start(), [3, 1]);
        let zero = ev.after_0ply(&cands);
        rank(&zero).into_iter().map(|i| cands[i]).collect()
    }

    #[test]
    fn every_candidate_sees_the_same_dice_and_a_seed_repeats() {
        with_evaluator(|ev| {
            let c = opening(ev)[0];
            let means = mean_after(ev, &[c, c], SETTINGS, &mut seeded(3));
            assert_eq!(means[0], means[1]);
            assert_eq!(mean_after(ev, &[c], SETTINGS, &mut seeded(3))[0], means[0]);
            // Other dice give another mean: the trials are not fixed.
            assert_ne!(mean_after(ev, &[c], SETTINGS, &mut seeded(4))[0], means[0]);
        });
    }

    #[test]
    fn a_rollout_ranks_the_opening_point_play_first() {
        // 3-1 makes the 5 point (8/5 6/5): every judge's best opening play.
        with_evaluator(|ev| {
            let cands = opening(ev);
            let means = mean_after(ev, &cands[..4], SETTINGS, &mut seeded(1));
            let best = rank(&means)[0];
            let after = cands[best].board;
            assert_eq!((after.at(5), after.at(8), after.at(6)), (2, 2, 4));
            assert!(means.iter().all(|p| equity(p).abs() < 1.0), "{means:?}");
        });
    }

    #[test]
    fn with_one_turn_every_trial_is_the_one_ply_value() {
        // The luck of the opponent's roll is taken out, so one trial of
        // one turn already gives the mean over his 21 rolls.
        with_evaluator(|ev| {
            let cands = opening(ev);
            let one = RolloutSettings {
                trials: 1,
                turns: 1,
                width: 1,
            };
            for c in &cands[..3] {
                let rolled = mean_after(ev, &[*c], one, &mut seeded(2))[0];
                let searched = ev.after(c, 1, 1);
                for (r, s) in rolled.iter().zip(searched) {
                    assert!((r - s).abs() < 1e-5, "{rolled:?} {searched:?}");
                }
            }
        });
    }

    #[test]
    fn a_trial_in_the_bear_off_database_is_its_exact_value() {
        // Both sides bearing off within the two-sided database: the
        // rollout stops at once with the database's exact value.
        with_evaluator(|ev| {
            let mut pts = [0i8; 24];
            pts[0] = 2;
            pts[3] = 1;
            pts[22] = -2;
            pts[20] = -1;
            let board = BackgammonBoard::from_parts(pts, [0, 0], [12, 12]);
            let cands = ev.candidates(&board, [2, 1]);
            let zero = ev.after_0ply(&cands);
            let means = mean_after(ev, &cands, SETTINGS, &mut seeded(9));
            for (m, z) in means.iter().zip(&zero) {
                assert!((m[0] - z[0]).abs() < 1e-6, "{m:?} {z:?}");
            }
            assert_eq!(ev.evaluations, 0);
        });
    }

    #[test]
    fn the_agent_rates_a_rolled_out_play_as_its_search_did() {
        // `rollout=` on backgammon: the two best by the search are rolled
        // out and ranked by it; rating one of them alone (as the review
        // rates the move played) gives the same value, and a play outside
        // them is rolled out too.
        use spelbord_engine::backgammon::Backgammon;
        use spelbord_engine::tables::TablesState;
        use spelbord_engine::{Game, GameState, Options, Turn};
        let spec = "net:ply=1,rollout=18,turns=3,width=2";
        let mut agent = crate::make_agent::<Backgammon>(spec, 1).unwrap();
        let game =
            Backgammon::from_options(&Options::defaults(Backgammon::option_specs())).unwrap();
        let mut state: TablesState<BackgammonRules> = game.initial_state();
        let mut rng = seeded(8);
        while !matches!(state.turn(), Turn::Player(_)) {
            let a = state.sample_chance(&mut rng);
            state.apply(a);
        }
        let estimates = agent.analyse(&state);
        assert!(estimates.len() > 3, "{}", estimates.len());
        let equity = |e: &crate::ActionEstimate<_>| e.equity.unwrap().value;
        assert!(equity(&estimates[0]) >= equity(&estimates[1]));
        for e in &estimates[..2] {
            let again = agent.rate(&state, e.action).unwrap();
            assert_eq!(equity(&again), equity(e));
        }
        let last = estimates[estimates.len() - 1];
        let rolled = agent.rate(&state, last.action).unwrap();
        assert_ne!(
            equity(&rolled),
            equity(&last),
            "rolled out, not the 0-ply value"
        );
    }
}
