//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system",
//! 2013): each finished game is one rating period, as lichess does. A game
//! of 3–5 players counts as a result between every two of its players by
//! their places (ahead 1, behind 0, tied ½), all applied in that one period
//! against the others' ratings from before the game, which is what the
//! algorithm defines for a player who met several opponents in one period.

use std::f64::consts::PI;

/// The factor between the Glicko scale and Glicko-2's internal scale.
const SCALE: f64 = 173.7178;

/// The system constant τ: how fast volatility may change (Glickman
/// suggests 0.3–1.2; lichess uses 0.75).
pub const TAU: f64 = 0.75;

/// Convergence tolerance of the volatility iteration (as in the paper).
const EPSILON: f64 = 0.000_001;

/// A new player's rating, deviation and volatility.
pub const NEW_PLAYER: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// The largest deviation (a new player's).
pub const MAX_DEVIATION: f64 = 350.0;

/// The smallest deviation kept (so that ratings keep moving).
pub const MIN_DEVIATION: f64 = 45.0;

/// The largest volatility kept.
pub const MAX_VOLATILITY: f64 = 0.1;

/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

/// One result of a rating period: the opponent's rating before the period
/// and the score against them (1 won, ½ tied, 0 lost).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The score: 1, ½ or 0.
    pub score: f64,
}

impl Rating {
    /// Whether the rating is still provisional (shown with `?`).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after one period with `outcomes` (Glickman's steps 2–8),
    /// without the deviation and volatility bounds of [`Rating::after`].
    pub fn glicko2(&self, outcomes: &[Outcome], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if outcomes.is_empty() {
            // Step 6 alone: the deviation grows.
            return Rating {
                deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
                ..*self
            };
        }
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for o in outcomes {
            let mu_j = (o.opponent.rating - 1500.0) / SCALE;
            let g = g(o.opponent.deviation / SCALE);
            let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
            inverse_v += g * g * e * (1.0 - e);
            sum += g * (o.score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let sigma = new_volatility(phi, sigma, v, delta, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: SCALE * mu + 1500.0,
            deviation: SCALE * phi,
            volatility: sigma,
        }
    }

    /// The rating after one period with `outcomes`, with τ = [`TAU`] and the
    /// deviation and volatility kept within their bounds.
    pub fn after(&self, outcomes: &[Outcome]) -> Rating {
        let next = self.glicko2(outcomes, TAU);
        Rating {
            rating: next.rating,
            deviation: next.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: next.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// Glicko-2's g(φ): how much an opponent's uncertainty damps a result.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// Step 5: the new volatility, by the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// The scores between every two players of one game from their places
/// (0 first; equal places tie): `scores[i][j]` is i's score against j.
pub fn pairwise_scores(places: &[usize]) -> Vec<Vec<Option<f64>>> {
    places
        .iter()
        .enumerate()
        .map(|(i, &pi)| {
            places
                .iter()
                .enumerate()
                .map(|(j, &pj)| {
                    (i != j).then(|| match pi.cmp(&pj) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    })
                })
                .collect()
        })
        .collect()
}

/// Every player's rating after one game of 2–5 players that finished in
/// `places` (0 first; ties share a place), each against all the others'
/// ratings from before the game, in one period.
pub fn after_game(before: &[Rating], places: &[usize]) -> Vec<Rating> {
    let scores = pairwise_scores(places);
    before
        .iter()
        .enumerate()
        .map(|(i, rating)| {
            let outcomes: Vec<Outcome> = scores[i]
                .iter()
                .enumerate()
                .filter_map(|(j, s)| {
                    s.map(|score| Outcome {
                        opponent: before[j],
                        score,
                    })
                })
                .collect();
            rating.after(&outcomes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // "Example of the Glicko-2 system", section 3: τ = 0.5.
        let player = rating(1500.0, 200.0);
        let outcomes = [
            Outcome {
                opponent: rating(1400.0, 30.0),
                score: 1.0,
            },
            Outcome {
                opponent: rating(1550.0, 100.0),
                score: 0.0,
            },
            Outcome {
                opponent: rating(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let next = player.glicko2(&outcomes, 0.5);
        assert!((next.rating - 1464.06).abs() < 0.01, "{next:?}");
        assert!((next.deviation - 151.52).abs() < 0.01, "{next:?}");
        assert!((next.volatility - 0.05999).abs() < 0.00001, "{next:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = rating(1600.0, 100.0);
        let next = player.glicko2(&[], 0.5);
        assert_eq!(next.rating, 1600.0);
        let expected = ((100.0f64 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((next.deviation - expected).abs() < 1e-9);
    }

    #[test]
    fn places_give_pairwise_scores() {
        let scores = pairwise_scores(&[1, 0, 1]);
        assert_eq!(scores[0], vec![None, Some(0.0), Some(0.5)]);
        assert_eq!(scores[1], vec![Some(1.0), None, Some(1.0)]);
        assert_eq!(scores[2], vec![Some(0.5), Some(0.0), None]);
    }

    /// A three-player game against a second, independent computation: the
    /// formulas of the paper written out step by step for one player
    /// (with the volatility found by bisection instead of the Illinois
    /// algorithm).
    #[test]
    fn a_three_player_game_matches_an_independent_computation() {
        let before = [
            rating(1500.0, 200.0),
            rating(1650.0, 80.0),
            rating(1400.0, 300.0),
        ];
        // Second place, first place, third place.
        let after = after_game(&before, &[1, 0, 2]);
        let expected = independent(before[0], &[(before[1], 0.0), (before[2], 1.0)]);
        assert!(
            (after[0].rating - expected.rating).abs() < 1e-6,
            "{after:?} {expected:?}"
        );
        assert!((after[0].deviation - expected.deviation).abs() < 1e-6);
        // The winner gains, the last loses, ratings stay ordered by result.
        assert!(after[1].rating > before[1].rating);
        assert!(after[2].rating < before[2].rating);
        assert!(
            after
                .iter()
                .all(|r| r.deviation < 350.0 && r.deviation >= MIN_DEVIATION)
        );
    }

    /// The paper's steps for one player, by bisection for the volatility.
    fn independent(player: Rating, games: &[(Rating, f64)]) -> Rating {
        let mu = (player.rating - 1500.0) / 173.7178;
        let phi = player.deviation / 173.7178;
        let gs: Vec<(f64, f64, f64)> = games
            .iter()
            .map(|(o, s)| {
                let phi_j = o.deviation / 173.7178;
                let g = 1.0 / (1.0 + 3.0 * phi_j.powi(2) / PI.powi(2)).sqrt();
                let e = 1.0 / (1.0 + (-g * (mu - (o.rating - 1500.0) / 173.7178)).exp());
                (g, e, *s)
            })
            .collect();
        let v = 1.0
            / gs.iter()
                .map(|(g, e, _)| g * g * e * (1.0 - e))
                .sum::<f64>();
        let delta = v * gs.iter().map(|(g, e, s)| g * (s - e)).sum::<f64>();
        let a = player.volatility.powi(2).ln();
        let f = |x: f64| {
            x.exp() * (delta.powi(2) - phi.powi(2) - v - x.exp())
                / (2.0 * (phi.powi(2) + v + x.exp()).powi(2))
                - (x - a) / TAU.powi(2)
        };
        // f falls from positive to negative around its root.
        let (mut lo, mut hi) = (a - 20.0, a + 20.0);
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let sigma = (lo / 2.0).exp();
        let phi_star = (phi.powi(2) + sigma.powi(2)).sqrt();
        let phi_new = 1.0 / (1.0 / phi_star.powi(2) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new.powi(2) * gs.iter().map(|(g, e, s)| g * (s - e)).sum::<f64>();
        Rating {
            rating: 173.7178 * mu_new + 1500.0,
            deviation: (173.7178 * phi_new).clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: sigma.min(MAX_VOLATILITY),
        }
    }
}
