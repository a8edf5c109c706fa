//! A backgammon record read game by game, as the match file formats
//! (`.mat`, `.sgf`) write it: each game's score before it, its rolls, plays
//! and cube actions in order, and who won how much.

use anyhow::{Context, Result, bail};
use spelbord_engine::backgammon::Backgammon;
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::tables::{Phase, TablesAction};
use spelbord_engine::{DynState, GameState, Record, Resign, Viewer};

/// One decision of a game: a play with its roll, or a cube action.
pub struct Turn {
    /// The player who decided (for a take or a drop, the one doubled).
    pub side: usize,
    /// The roll played, higher die first (for a play).
    pub dice: [u8; 2],
    /// The action as the engine reads it.
    pub action: TablesAction,
    /// The action's text in the record.
    pub text: String,
    /// The cube's value before the action.
    pub cube: u32,
}

/// One game of the record.
pub struct GameTurns {
    /// The match score before the game.
    pub score: [u8; 2],
    /// Its plays and cube actions, in order (rolls are in their `dice`).
    pub turns: Vec<Turn>,
    /// Who won and how many points, once the game is over.
    pub won: Option<(usize, u32)>,
    /// Whether the game ended by a resignation.
    pub resigned: bool,
}

/// A whole backgammon record: its games and the match length (0: money).
pub struct BackgammonGames {
    /// The games in order.
    pub games: Vec<GameTurns>,
    /// The match length, 0 for money play.
    pub match_to: u8,
}

/// The backgammon state behind a game-generic one.
pub fn concrete(state: &dyn DynState) -> &<Backgammon as spelbord_engine::Game>::State {
    &state
        .as_any()
        .downcast_ref::<StateOf<Backgammon>>()
        .expect("a backgammon state")
        .0
}

/// Who won the game that just ended, and how many points.
pub fn last_won(after: &<Backgammon as spelbord_engine::Game>::State) -> Option<(usize, u32)> {
    let returns = after.returns();
    match after.observation(Viewer::Spectator).last_game {
        Some((Some(winner), points)) => Some((winner, u32::from(points))),
        _ => (0..2)
            .find(|&p| returns.get(p) > 0.0)
            .map(|p| (p, returns.get(p) as u32)),
    }
}

/// Reads `record`, a backgammon record, game by game; `format` names the
/// file format in the error for another game.
pub fn read(record: &Record, format: &str) -> Result<BackgammonGames> {
    if record.game != "backgammon" {
        bail!(
            "only backgammon records can be written as {format} (this is {})",
            record.game
        );
    }
    record.replay().context("the record does not replay")?;
    let mut state = record.start_state()?;
    let mut games: Vec<GameTurns> = Vec::new();
    let mut dice = [0u8; 2];
    for text in &record.actions {
        let before = *concrete(state.as_ref());
        let view = before.observation(Viewer::Spectator);
        if matches!(before.phase(), Phase::Opening) {
            games.push(GameTurns {
                score: view.score,
                turns: Vec::new(),
                won: None,
                resigned: false,
            });
        }
        let info = state.apply_recorded(text)?;
        let Some(current) = games.last_mut() else {
            bail!("the record does not start with an opening roll");
        };
        // A resignation is no turn: the game's result says it.
        if Resign::parse(text).is_some() {
            current.won = last_won(concrete(state.as_ref()));
            current.resigned = true;
            continue;
        }
        let action: TablesAction = serde_json::from_value(info.json)?;
        let side = before.mover();
        let turn = |side: usize| Turn {
            side,
            dice,
            action,
            text: info.text.clone(),
            cube: view.cube,
        };
        match action {
            TablesAction::Opening([a, b]) | TablesAction::Dice([a, b]) => {
                dice = [a.max(b), a.min(b)];
            }
            TablesAction::Play(_) | TablesAction::Double => current.turns.push(turn(side)),
            // The answer to a double is the other player's.
            TablesAction::Take | TablesAction::Drop => current.turns.push(turn(1 - side)),
            TablesAction::Roll => {}
        }
        let after = concrete(state.as_ref());
        if matches!(after.phase(), Phase::Opening | Phase::Over)
            && !matches!(action, TablesAction::Opening(_))
        {
            current.won = last_won(after);
        }
    }
    let match_to = concrete(state.as_ref())
        .observation(Viewer::Spectator)
        .match_to;
    Ok(BackgammonGames { games, match_to })
}
