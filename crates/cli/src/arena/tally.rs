//! The arena's games summed up: each agent's scores, returns and draws per
//! rotation, thinking times, and each seat's scores; and the report made
//! of them.

use super::{ArenaArgs, ArenaReport, EloReport, Seated};
use spelbord_ai::arena::{
    GameResult, Seating, WINNER_FIRST_GAMES, elo, summarize, winner_first_scores,
};
use spelbord_engine::{Ending, Game, Options};
use std::collections::BTreeMap;
use std::time::Instant;

/// What the report tells of the arena besides the tally.
pub(super) struct Table {
    pub(super) options: Options,
    /// The agents' names, made unique.
    pub(super) names: Vec<String>,
    pub(super) games: u64,
    pub(super) seats: usize,
    /// When the games began.
    pub(super) start: Instant,
}

/// The arena's games summed up per agent (index into the agents) and per
/// seat.
pub(super) struct Tally {
    /// Each agent's mean score per rotation.
    scores: Vec<Vec<f64>>,
    /// Each agent's mean return per rotation.
    rotation_returns: Vec<Vec<f64>>,
    /// Each agent's mean winner-first score per rotation.
    rotation_firsts: Vec<Vec<f64>>,
    /// Each agent's thinking time, decisions and longest decision.
    seconds: Vec<f64>,
    decisions: Vec<u64>,
    longest: Vec<f64>,
    /// Each agent's sum of returns and games.
    returns: Vec<(f64, u64)>,
    /// Each agent's drawn and scored games.
    drawn: Vec<(u64, u64)>,
    /// Each seat's scores, game by game.
    by_seat: Vec<Vec<f64>>,
    plies: u64,
    /// Games that reached the turn cap.
    capped: u64,
    /// The rotation under way: each agent's sum and count of scores,
    /// returns and winner-first scores.
    block: Vec<(f64, usize)>,
    return_block: Vec<(f64, usize)>,
    first_block: Vec<(f64, usize)>,
}

impl Tally {
    /// Sums up `results` (in game order) of `k` agents at `seats` seats.
    /// The games of a rotation share their dice (and deals): each agent's
    /// mean over the rotation is one independent observation, and the
    /// shared luck largely cancels within it (as in duplicate bridge).
    pub(super) fn of(
        results: &[Seated],
        mode: Seating,
        k: usize,
        seats: usize,
        rotation: u64,
    ) -> Self {
        let mut t = Tally {
            scores: vec![Vec::new(); k],
            rotation_returns: vec![Vec::new(); k],
            rotation_firsts: vec![Vec::new(); k],
            seconds: vec![0.0; k],
            decisions: vec![0u64; k],
            longest: vec![0f64; k],
            returns: vec![(0.0, 0u64); k],
            drawn: vec![(0u64, 0u64); k],
            by_seat: vec![Vec::with_capacity(results.len()); seats],
            plies: 0,
            capped: 0,
            block: vec![(0.0, 0usize); k],
            return_block: vec![(0.0, 0usize); k],
            first_block: vec![(0.0, 0usize); k],
        };
        for (i, (seated, r)) in results.iter().enumerate() {
            t.add_scores(mode, seated, r, k);
            if ((i + 1) as u64).is_multiple_of(rotation) {
                t.close_rotation();
            }
            t.add_game(seated, r);
        }
        t
    }

    /// Adds one game's scores and returns to the rotation under way.
    fn add_scores(&mut self, mode: Seating, seated: &[usize], r: &GameResult, k: usize) {
        for (a, s) in winner_first_scores(r.outcome.as_ref(), seated, k)
            .into_iter()
            .enumerate()
        {
            if let Some(s) = s {
                self.first_block[a].0 += s;
                self.first_block[a].1 += 1;
            }
        }
        for (a, s) in mode
            .scores(&r.seat_scores(), seated, k)
            .into_iter()
            .enumerate()
        {
            if let Some(s) = s {
                self.block[a].0 += s;
                self.block[a].1 += 1;
                self.drawn[a].0 += u64::from(s == 0.5);
                self.drawn[a].1 += 1;
            }
        }
        for (s, &a) in seated.iter().enumerate() {
            self.return_block[a].0 += r.returns[s];
            self.return_block[a].1 += 1;
        }
    }

    /// Ends a rotation: each agent's means over it become one observation.
    fn close_rotation(&mut self) {
        let blocks = [
            (&mut self.first_block, &mut self.rotation_firsts),
            (&mut self.return_block, &mut self.rotation_returns),
            (&mut self.block, &mut self.scores),
        ];
        for (block, means) in blocks {
            for (a, b) in block.iter_mut().enumerate() {
                if b.1 > 0 {
                    means[a].push(b.0 / b.1 as f64);
                }
                *b = (0.0, 0);
            }
        }
    }

    /// Adds one game's times, returns, plies and seat scores.
    fn add_game(&mut self, seated: &[usize], r: &GameResult) {
        for (s, &a) in seated.iter().enumerate() {
            self.seconds[a] += r.seconds[s];
            self.decisions[a] += r.decisions[s];
            self.longest[a] = self.longest[a].max(r.longest[s]);
            self.returns[a].0 += r.returns[s];
            self.returns[a].1 += 1;
        }
        self.plies += r.plies;
        self.capped += u64::from(r.outcome.is_some_and(|o| o.ending() == Ending::TurnCap));
        for (v, &score) in self.by_seat.iter_mut().zip(&r.seat_scores()) {
            v.push(score);
        }
    }

    /// The report of the arena `args` ran, its games summed up here.
    pub(super) fn report<G: Game>(&self, args: &ArenaArgs, table: Table) -> ArenaReport {
        let Table {
            options,
            names,
            games,
            seats,
            start,
        } = table;
        let k = names.len();
        let seat_summaries: Vec<_> = self.by_seat.iter().map(|v| summarize(v)).collect();
        let summaries: Vec<_> = self.scores.iter().map(|s| summarize(s)).collect();
        let by_agent = |f: &dyn Fn(usize) -> f64| -> BTreeMap<String, f64> {
            (0..k).map(|a| (names[a].clone(), f(a))).collect()
        };
        let first_summaries: Vec<_> = self.rotation_firsts.iter().map(|s| summarize(s)).collect();
        let winner_first = WINNER_FIRST_GAMES.contains(&G::ID);
        let elo = (k == 2).then(|| EloReport {
            difference: elo(summaries[0].mean),
            ci95: [elo(summaries[0].low), elo(summaries[0].high)],
        });
        let (seconds, decisions, longest) = (&self.seconds, &self.decisions, &self.longest);
        let (returns, drawn) = (&self.returns, &self.drawn);
        ArenaReport {
            game: G::ID.into(),
            options,
            agents: names.clone(),
            games,
            seed: args.seed,
            seats,
            seating: args.seating,
            score: by_agent(&|a| summaries[a].mean),
            ci95: (0..k)
                .map(|a| (names[a].clone(), [summaries[a].low, summaries[a].high]))
                .collect(),
            ms_per_move: by_agent(&|a| 1000.0 * seconds[a] / decisions[a].max(1) as f64),
            max_ms_per_move: by_agent(&|a| 1000.0 * longest[a]),
            mean_return: by_agent(&|a| returns[a].0 / returns[a].1.max(1) as f64),
            return_ci95: (0..k)
                .map(|a| {
                    let s = summarize(&self.rotation_returns[a]);
                    (names[a].clone(), [s.low, s.high])
                })
                .collect(),
            draws: by_agent(&|a| drawn[a].0 as f64 / drawn[a].1.max(1) as f64),
            winner_first: winner_first.then(|| by_agent(&|a| first_summaries[a].mean)),
            winner_first_ci95: winner_first.then(|| {
                (0..k)
                    .map(|a| {
                        let s = first_summaries[a];
                        (names[a].clone(), [s.low, s.high])
                    })
                    .collect()
            }),
            elo,
            seat_score: seat_summaries.iter().map(|s| s.mean).collect(),
            seat_ci95: seat_summaries.iter().map(|s| [s.low, s.high]).collect(),
            capped: self.capped as f64 / games as f64,
            plies_mean: self.plies as f64 / games as f64,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}
