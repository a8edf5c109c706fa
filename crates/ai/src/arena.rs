//! Matches between agents: seating that rotates so that every agent plays
//! every seat equally often, one game between seated agents, and the score.
//!
//! **Score.** In each game every agent seated is compared with every other
//! agent seated: the agent whose seats have the higher mean outcome score
//! (each seat's share of the other seats it finished ahead of, from the
//! game's [`Outcome`], so that a win paying 0 points is still a win) gets 1,
//! the other 0, equal means give both 0.5; an agent's score for the game is
//! the mean over the agents it met. With two agents in two seats this is
//! simply 1 for a win; in Stortok, 1 when the stortok (the one loser) sat
//! in the other agent's seat. With more seats than agents the mean places
//! rank the losers too: in High-O Gammon and Tric-Trac with three or four
//! players (the losers ranked by the points they pay, HG-16) a game whose
//! winner sits beside the agent's other seat in last place is a draw.
//! The comparison is antisymmetric, and the seating rotates every seat
//! through every agent, so agents of equal strength score 50% in
//! expectation, whatever the number of players.
//!
//! **Winner first** (HG-15, [`winner_first_scores`]): an agent's share of
//! the game is 1 when the sole winner sat in one of its seats, 0 when in
//! another agent's, and a draw (no sole winner) is shared equally among
//! the agents seated; the arena reports it for the games of
//! [`WINNER_FIRST_GAMES`].

use crate::Agent;
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameState, Notation, Outcome, Turn};
use std::time::Instant;

/// The agent (index) in each seat of game number `game`: seat s gets agent
/// (s + game) mod k, so over any k consecutive games each agent sits in
/// each seat once.
pub fn seating(game: u64, agents: usize, seats: usize) -> Vec<usize> {
    (0..seats)
        .map(|s| (s + (game % agents as u64) as usize) % agents)
        .collect()
}

/// How an arena seats its agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Round the table in turn (A B A B), every agent through every seat
    /// ([`seating`]); games scored by [`game_scores`].
    Rotate,
    /// The first of two agents alone at a table of the second, its seat
    /// moving through every seat ([`alone_seating`]); games scored by
    /// [`seat_mean_scores`].
    Alone,
}

impl Seating {
    /// Games in one rotation (they share their dice and deals).
    pub fn rotation(self, agents: usize, seats: usize) -> usize {
        match self {
            Seating::Rotate => agents,
            Seating::Alone => seats,
        }
    }

    /// The agent in each seat of game number `game`.
    pub fn seats(self, game: u64, agents: usize, seats: usize) -> Vec<usize> {
        match self {
            Seating::Rotate => seating(game, agents, seats),
            Seating::Alone => alone_seating(game, seats),
        }
    }

    /// Each agent's score in one game (`None`: not seated).
    pub fn scores(self, seat_scores: &[f64], seats: &[usize], agents: usize) -> Vec<Option<f64>> {
        match self {
            Seating::Rotate => game_scores(seat_scores, seats, agents),
            Seating::Alone => seat_mean_scores(seat_scores, seats, agents),
        }
    }
}

/// Agent 0 alone in seat `game mod seats`, agent 1 in every other seat: over
/// any `seats` consecutive games agent 0 sits in each seat once.
pub fn alone_seating(game: u64, seats: usize) -> Vec<usize> {
    let mine = (game % seats as u64) as usize;
    (0..seats).map(|s| usize::from(s != mine)).collect()
}

/// Each agent's mean outcome score over its seats (each seat's share of the
/// other seats it finished ahead of): agents of equal strength score 50% in
/// expectation whatever the seating, and one agent alone at a table of
/// another scores its own finishing place against them.
pub fn seat_mean_scores(seat_scores: &[f64], seats: &[usize], agents: usize) -> Vec<Option<f64>> {
    let mut sum = vec![0.0; agents];
    let mut count = vec![0usize; agents];
    for (s, &a) in seats.iter().enumerate() {
        sum[a] += seat_scores[s];
        count[a] += 1;
    }
    (0..agents)
        .map(|a| (count[a] > 0).then(|| sum[a] / count[a] as f64))
        .collect()
}

/// Each agent's score in one game from each seat's outcome score (see the
/// module text); `None` for an agent not seated or alone at the table.
pub fn game_scores(seat_scores: &[f64], seats: &[usize], agents: usize) -> Vec<Option<f64>> {
    let mean = seat_mean_scores(seat_scores, seats, agents);
    (0..agents)
        .map(|a| {
            let mine = mean[a]?;
            let others: Vec<f64> = (0..agents)
                .filter(|&b| b != a)
                .filter_map(|b| mean[b])
                .map(|theirs| {
                    if (mine - theirs).abs() < 1e-9 {
                        0.5
                    } else if mine > theirs {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect();
            (!others.is_empty()).then(|| others.iter().sum::<f64>() / others.len() as f64)
        })
        .collect()
}

/// The games whose arena reports the winner-first share (HG-15): the winner
/// is named first, whatever the losers pay.
pub const WINNER_FIRST_GAMES: &[&str] = &["high-gammon", "tric-trac"];

/// Each agent's winner-first share of one game (see the module text) from
/// its outcome; `None` for an agent not seated.
pub fn winner_first_scores(
    outcome: Option<&Outcome>,
    seats: &[usize],
    agents: usize,
) -> Vec<Option<f64>> {
    let seated = |a: usize| seats.contains(&a);
    let present = (0..agents).filter(|&a| seated(a)).count().max(1);
    let winner = outcome.and_then(Outcome::sole_winner);
    (0..agents)
        .map(|a| {
            seated(a).then(|| match winner {
                Some(w) => f64::from(u8::from(seats[w] == a)),
                None => 1.0 / present as f64,
            })
        })
        .collect()
}

/// A mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The mean of `values` and its 95% confidence interval (normal
/// approximation with the sample standard deviation).
pub fn summarize(values: &[f64]) -> Summary {
    let n = values.len();
    if n == 0 {
        return Summary {
            n,
            mean: f64::NAN,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let half = 1.96 * (var / n as f64).sqrt();
    Summary {
        n,
        mean,
        low: mean - half,
        high: mean + half,
    }
}

/// The Elo difference that an expected score stands for (clamped so that
/// 0% and 100% give ±800).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(0.01, 0.99);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// What happened in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Returns per seat.
    pub returns: Vec<f64>,
    /// Who won and how (`None` only if the game never ended).
    pub outcome: Option<Outcome>,
    /// Player decisions made per seat.
    pub decisions: Vec<u64>,
    /// Seconds spent choosing per seat (CPU time of the thread).
    pub seconds: Vec<f64>,
    /// The longest single decision per seat, in seconds.
    pub longest: Vec<f64>,
    /// All actions, chance included.
    pub plies: u64,
    /// Every action in the game's notation (for the game's record).
    pub actions: Vec<String>,
}

impl GameResult {
    /// Each seat's outcome score: the share of the other seats it finished
    /// ahead of, ties counting half (0.5 each if the game has no outcome).
    pub fn seat_scores(&self) -> Vec<f64> {
        let n = self.returns.len();
        match &self.outcome {
            Some(o) => (0..n).map(|s| o.score(s)).collect(),
            None => vec![0.5; n],
        }
    }
}

/// Plays one game of `game` with `agents[s]` in seat s, the dice from
/// `seed`. Every agent is told of every action (perfect-information agents
/// may keep their trees); thinking time is measured as CPU time.
pub fn play_game<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G::State>>],
    seed: u64,
) -> GameResult {
    let mut state = game.initial_state();
    let seats = state.num_players();
    let mut rng = seeded(seed);
    let mut decisions = vec![0u64; seats];
    let mut seconds = vec![0f64; seats];
    let mut longest = vec![0f64; seats];
    let mut plies = 0u64;
    let mut actions = Vec::new();
    let hidden = G::HIDDEN_INFORMATION;
    loop {
        let action = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(p) => {
                let start = cpu_time::ThreadTime::try_now().ok();
                let wall = Instant::now();
                let a = agents[p].choose(&state);
                let took = match start {
                    Some(t) => t.elapsed().as_secs_f64(),
                    None => wall.elapsed().as_secs_f64(),
                };
                seconds[p] += took;
                longest[p] = longest[p].max(took);
                decisions[p] += 1;
                a
            }
        };
        if !hidden {
            for agent in agents.iter_mut() {
                agent.inform(&state, action);
            }
        }
        actions.push(state.format_action(action));
        state.apply(action);
        plies += 1;
    }
    GameResult {
        actions,
        returns: state.returns().as_slice().to_vec(),
        outcome: state.outcome(),
        decisions,
        seconds,
        longest,
        plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::Ending;

    #[test]
    fn seating_rotates_every_agent_through_every_seat() {
        for agents in 2..=3 {
            for seats in 2..=5 {
                let mut count = vec![vec![0; seats]; agents];
                for g in 0..agents as u64 {
                    for (s, a) in seating(g, agents, seats).into_iter().enumerate() {
                        count[a][s] += 1;
                    }
                }
                assert!(count.iter().flatten().all(|&c| c == 1), "{agents} {seats}");
            }
        }
    }

    fn scores(o: Outcome) -> Vec<f64> {
        (0..o.num_players()).map(|s| o.score(s)).collect()
    }

    #[test]
    fn two_agent_scores_follow_the_sides_net_result() {
        // Stortok, three seats A B A: the stortok in B's seat.
        let s = game_scores(
            &scores(Outcome::loser(3, 1, Ending::Stortok)),
            &[0, 1, 0],
            2,
        );
        assert_eq!(s, vec![Some(1.0), Some(0.0)]);
        // One of A's seats lost.
        let s = game_scores(
            &scores(Outcome::loser(3, 0, Ending::Stortok)),
            &[0, 1, 0],
            2,
        );
        assert_eq!(s, vec![Some(0.0), Some(1.0)]);
        // Four-player High-O Gammon A B A B: A's seat 2 won, seat 0 paid least.
        let hg = Outcome::ranking(&[1, 2, 0, 2], Ending::BorneOff);
        let s = game_scores(&scores(hg), &[0, 1, 0, 1], 2);
        assert_eq!(s, vec![Some(1.0), Some(0.0)]);
        // HG-15: a two-player High-O Gammon win that pays 0 points.
        let s = game_scores(&scores(Outcome::winner(2, 1, Ending::BorneOff)), &[0, 1], 2);
        assert_eq!(s, vec![Some(0.0), Some(1.0)]);
        // A draw.
        let s = game_scores(&scores(Outcome::draw(2, Ending::TurnCap)), &[1, 0], 2);
        assert_eq!(s, vec![Some(0.5), Some(0.5)]);
    }

    #[test]
    fn hg15_winner_first_counts_only_the_winner() {
        // Four-player High-O Gammon A B A B: A's seat 0 won, A's seat 2 paid
        // most (last). Mean places tie, the winner is A's.
        let hg = Outcome::ranking(&[0, 1, 3, 2], Ending::BorneOff);
        let seats = [0, 1, 0, 1];
        assert_eq!(
            game_scores(&scores(hg), &seats, 2),
            vec![Some(0.5), Some(0.5)]
        );
        assert_eq!(
            winner_first_scores(Some(&hg), &seats, 2),
            vec![Some(1.0), Some(0.0)]
        );
        // Three seats B A B: the winner in B's seat.
        let hg3 = Outcome::ranking(&[0, 2, 1], Ending::BorneOff);
        assert_eq!(
            winner_first_scores(Some(&hg3), &[1, 0, 1], 2),
            vec![Some(0.0), Some(1.0)]
        );
        // No sole winner, or no outcome: shared by the agents seated.
        let draw = Outcome::draw(3, Ending::TurnCap);
        assert_eq!(
            winner_first_scores(Some(&draw), &[0, 1, 0], 3),
            vec![Some(0.5), Some(0.5), None]
        );
        assert_eq!(
            winner_first_scores(None, &[0, 1], 2),
            vec![Some(0.5), Some(0.5)]
        );
    }

    #[test]
    fn three_agents_scores_average_one_half() {
        let stortok = scores(Outcome::loser(3, 0, Ending::Stortok));
        let s = game_scores(&stortok, &[0, 1, 2], 3);
        assert_eq!(s, vec![Some(0.0), Some(0.75), Some(0.75)]);
        let s = game_scores(&scores(Outcome::winner(2, 0, Ending::Single)), &[2, 0], 3);
        assert_eq!(s, vec![Some(0.0), None, Some(1.0)]);
    }

    #[test]
    fn alone_seating_moves_the_first_agent_through_every_seat() {
        for seats in 2..=5 {
            let mut alone = vec![0; seats];
            for g in 0..seats as u64 {
                let seated = Seating::Alone.seats(g, 2, seats);
                assert_eq!(seated.iter().filter(|&&a| a == 0).count(), 1);
                alone[seated.iter().position(|&a| a == 0).unwrap()] += 1;
            }
            assert!(alone.iter().all(|&c| c == 1), "{seats}");
            assert_eq!(Seating::Alone.rotation(2, seats), seats);
        }
        // With two players both seatings are the same.
        for g in 0..4 {
            assert_eq!(Seating::Alone.seats(g, 2, 2), seating(g, 2, 2));
        }
    }

    #[test]
    fn sto16_alone_scores_are_the_finishing_places() {
        // Four-player Stortok, A alone in seat 1: A the stortok scores 0,
        // the three others 2/3 each; A not the stortok scores 2/3, the
        // others' seats 4/9 on average (equal play averages one half).
        let seats = alone_seating(1, 4);
        assert_eq!(seats, [1, 0, 1, 1]);
        let lost = scores(Outcome::loser(4, 1, Ending::Stortok));
        let got = Seating::Alone.scores(&lost, &seats, 2);
        assert_eq!(got[0], Some(0.0));
        assert!((got[1].unwrap() - 2.0 / 3.0).abs() < 1e-12);
        let won = scores(Outcome::loser(4, 3, Ending::Stortok));
        let got = seat_mean_scores(&won, &seats, 2);
        assert!((got[0].unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert!((got[1].unwrap() - 4.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn summary_and_elo() {
        let s = summarize(&[1.0, 0.0, 1.0, 1.0]);
        assert!((s.mean - 0.75).abs() < 1e-12);
        assert!(s.low < 0.75 && s.high > 0.75);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!(elo(0.25) < 0.0);
    }
}
