//! Analysis of one position: every legal action of the player to move
//! rated by the analyser, best first, with its loss against the best and
//! the mark that loss earns.

use super::{
    AnalysisConfig, AnalysisError, Judge, Mark, Unit, analyser_spec, mark_with, thresholds_with,
};
use serde::Serialize;
use spelbord_engine::{Game, GameState, GameVisitor, Notation, Player, Turn, visit_game};

/// One legal action of the position with its rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionRating {
    /// The action, in the game's notation.
    pub action: String,
    /// Its rating; `None` where the analyser cannot compare the actions
    /// (a forced action, or a cube decision outside the networks' games).
    pub rating: Option<f64>,
    /// The mover's chance to win (expected score 0..1) after it.
    pub chance: Option<f64>,
    /// The best rating less this one.
    pub loss: Option<f64>,
    /// The mark the loss earns, had this action been played.
    pub mark: Option<Mark>,
}

/// A position's analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionAnalysis {
    /// The game's id.
    pub game: String,
    /// The analyser (an agent spec) and its budget.
    pub analyser: String,
    /// The judge in a player's words.
    pub judge: Judge,
    /// The position in the game's notation.
    pub position: String,
    /// The player to move.
    pub player: Player,
    /// Whether it is a doubling-cube decision.
    pub cube: bool,
    /// The ratings' unit.
    pub unit: Unit,
    /// Thresholds of the marks (doubtful, bad, very bad) in that unit.
    pub thresholds: [f64; 3],
    /// Every legal action, best first.
    pub actions: Vec<PositionRating>,
}

/// Rates every legal action of the player to move in `position`, written
/// in `game`'s position notation (in backgammon also GNU Backgammon's
/// `POSITIONID[:MATCHID]`).
pub fn analyse_position(
    game: &str,
    position: &str,
    config: &AnalysisConfig,
) -> Result<PositionAnalysis, AnalysisError> {
    visit_game(game, Visit { position, config })
        .map_err(|e| AnalysisError::Position(e.to_string()))?
}

struct Visit<'a> {
    position: &'a str,
    config: &'a AnalysisConfig,
}

impl GameVisitor for Visit<'_> {
    type Output = Result<PositionAnalysis, AnalysisError>;
    fn visit<G: Game>(self) -> Self::Output {
        let state: G::State = self
            .position
            .parse()
            .map_err(|e| AnalysisError::Position(format!("{e}")))?;
        analyse_state::<G>(&state, self.config)
    }
}

/// Rates every legal action of the player to move in `state`.
pub fn analyse_state<G: Game>(
    state: &G::State,
    config: &AnalysisConfig,
) -> Result<PositionAnalysis, AnalysisError> {
    let Turn::Player(player) = state.turn() else {
        return Err(AnalysisError::Position(match state.turn() {
            Turn::Over => "the game is over in this position: there is nothing to decide".into(),
            _ => "nobody is to move in this position: it waits for the dice or a deal \
                  (in backgammon, give the dice in the match ID)"
                .into(),
        }));
    };
    let (spec, analyser) = analyser_spec::<G>(config)?;
    let (unit, rated) = super::rate_every_action::<G>(state, &spec, config.seed);
    let best = rated.first().and_then(|r| r.rating);
    let t = thresholds_with(unit, super::moves_unit(&spec), config.thresholds);
    let cube = rated.iter().any(|r| state.cube_action(r.action).is_some());
    let actions = rated
        .into_iter()
        .map(|r| {
            let loss = best.zip(r.rating).map(|(b, x)| (b - x).max(0.0));
            PositionRating {
                action: state.format_action(r.action),
                rating: r.rating,
                chance: r.chance,
                loss,
                mark: loss.and_then(|l| mark_with(l, t)),
            }
        })
        .collect();
    Ok(PositionAnalysis {
        game: G::ID.into(),
        analyser,
        judge: Judge::of(&config.level),
        position: state.to_string(),
        player,
        cube,
        unit,
        thresholds: t,
        actions,
    })
}
