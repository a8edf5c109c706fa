//! Values per player on one scale, 0..1, shared by every agent: a final
//! outcome becomes each player's *score* (the share of the other players he
//! finished ahead of, ties counting half: 1 for a two-player win, 0.5 for a
//! draw, 0 for a loss), and a heuristic h in -1..1 becomes (1 + h) / 2.

use spelbord_engine::{CubeAction, GameState, Heuristic, MAX_PLAYERS, Outcome, Player, Turn};

/// One value per seat (only the first `num_players` are used).
pub type Values = [f64; MAX_PLAYERS];

/// Each player's score from a game's outcome: the share of the other
/// players he finished ahead of, ties counting half (a win that pays
/// nothing is still a win).
pub fn outcome_scores(outcome: &Outcome) -> Values {
    let mut out = [0.0; MAX_PLAYERS];
    for (p, v) in out.iter_mut().enumerate().take(outcome.num_players()) {
        *v = outcome.score(p);
    }
    out
}

/// Every player's final score of a finished game (all 0.5 if it has no outcome).
pub fn final_scores<S: GameState>(state: &S) -> Values {
    match state.outcome() {
        Some(outcome) => outcome_scores(&outcome),
        None => [0.5; MAX_PLAYERS],
    }
}

/// A heuristic value (-1..1) as a score (0..1).
#[inline]
pub fn heuristic_score(h: f64) -> f64 {
    ((1.0 + h) * 0.5).clamp(0.0, 1.0)
}

/// Every player's value of `state`: final scores when the game is over,
/// otherwise the game's heuristic as scores.
pub fn state_scores<S: GameState + Heuristic>(state: &S) -> Values {
    if state.turn() == Turn::Over {
        return final_scores(state);
    }
    let mut out = [0.0; MAX_PLAYERS];
    for (p, v) in out.iter_mut().enumerate().take(state.num_players()) {
        *v = heuristic_score(state.heuristic(p));
    }
    out
}

/// One player's value of `state` (see [`state_scores`]).
pub fn state_score<S: GameState + Heuristic>(state: &S, player: Player) -> f64 {
    if state.turn() == Turn::Over {
        return final_scores(state)[player];
    }
    heuristic_score(state.heuristic(player))
}

/// The probability of winning outright that a score stands for among `n`
/// players: the score itself for two, and `score^log2(n)` in general, which
/// is 1/n at the equal score of 0.5 and keeps 0 and 1.
pub fn win_probability(score: f64, n: usize) -> f64 {
    if n <= 2 {
        score
    } else {
        score.clamp(0.0, 1.0).powf((n as f64).log2())
    }
}

/// Whether this cube action is one a search plays by default (no double,
/// take): searches are cubeless, the cube is decided apart (see `cube`).
#[inline]
fn searched(kind: Option<CubeAction>) -> bool {
    !matches!(kind, Some(CubeAction::Double | CubeAction::Drop))
}

/// The actions a search considers: the legal actions without doubling and
/// dropping (searches are cubeless; cube decisions are made apart).
pub fn search_actions<S: GameState>(state: &S, out: &mut Vec<S::Action>) {
    state.legal_actions(out);
    if out.len() > 1 && out.iter().any(|&a| state.cube_action(a).is_some()) {
        out.retain(|&a| searched(state.cube_action(a)));
    }
}

/// Whether the legal actions are a cube decision (double or roll, take or drop).
pub fn is_cube_decision<S: GameState>(state: &S, actions: &[S::Action]) -> bool {
    actions.len() > 1 && actions.iter().all(|&a| state.cube_action(a).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::Ending;

    #[test]
    fn two_player_scores_are_win_draw_loss() {
        let r = outcome_scores(&Outcome::winner(2, 1, Ending::Single));
        assert_eq!(&r[..2], &[0.0, 1.0]);
        let r = outcome_scores(&Outcome::draw(2, Ending::TurnCap));
        assert_eq!(&r[..2], &[0.5, 0.5]);
    }

    #[test]
    fn a_win_that_pays_nothing_is_still_a_win() {
        // HG-15: a 0-point High-O Gammon win.
        let r = outcome_scores(&Outcome::ranking(&[1, 0], Ending::BorneOff));
        assert_eq!(&r[..2], &[0.0, 1.0]);
    }

    #[test]
    fn multi_player_scores_average_one_half() {
        // Stortok with three: one loser, two equal others.
        let r = outcome_scores(&Outcome::loser(3, 1, Ending::Stortok));
        assert_eq!(&r[..3], &[0.75, 0.0, 0.75]);
        let mean: f64 = r[..3].iter().sum::<f64>() / 3.0;
        assert!((mean - 0.5).abs() < 1e-12);
    }

    #[test]
    fn win_probability_of_an_equal_score_is_one_in_n() {
        for n in 2..=5 {
            assert!((win_probability(0.5, n) - 1.0 / n as f64).abs() < 1e-12);
            assert_eq!(win_probability(1.0, n), 1.0);
            assert_eq!(win_probability(0.0, n), 0.0);
        }
    }
}
