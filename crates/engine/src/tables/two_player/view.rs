//! What players see of a two-player tables state, and its JSON form.

use super::{AbsBoard, Phase, TablesState, TablesVariant};
use crate::game::{GameState, Player, Turn};
use crate::outcome::Ending;
use serde::Serialize;

/// Everything about a two-player tables state, in absolute terms (both
/// players see all of it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablesView {
    /// The game's id.
    pub game: &'static str,
    /// Whose turn: a player, chance, or over.
    pub turn: Turn,
    /// The phase and, when moving, the dice.
    #[serde(flatten)]
    pub phase: Phase,
    /// When moving, the dice to play, one per step (a double's four times).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice_to_play: Option<Vec<u8>>,
    /// The board; index i is the first player's point i+1.
    pub board: AbsBoard,
    /// The cube's value.
    pub cube: u32,
    /// The cube's owner, or none while it is in the middle.
    pub cube_owner: Option<Player>,
    /// Whether the cube is in play.
    pub cube_enabled: bool,
    /// Points to win the match (0: single game).
    pub match_to: u8,
    /// Match score.
    pub score: [u8; 2],
    /// Whether this is the Crawford game.
    pub crawford_game: bool,
    /// Last finished game's winner (none: draw) and points.
    pub last_game: Option<(Option<Player>, u8)>,
    /// How the last finished game ended (gammon, the mother pinned, ...).
    pub last_ending: Option<Ending>,
}

impl TablesView {
    pub(super) fn of<V: TablesVariant>(s: &TablesState<V>) -> Self {
        TablesView {
            game: V::ID,
            turn: s.turn(),
            phase: s.phase,
            dice_to_play: match s.phase {
                Phase::Moving(dice) => {
                    Some(TablesState::<V>::dice_list(dice, &mut [0; 4]).to_vec())
                }
                _ => None,
            },
            board: s.absolute(),
            cube: s.cube_value(),
            cube_owner: (s.cube_owner < 2).then_some(s.cube_owner as Player),
            cube_enabled: s.options.cube,
            match_to: s.options.match_to,
            score: s.score,
            crawford_game: s.crawford == 1,
            last_game: s.last_game(),
            last_ending: s.last_ending(),
        }
    }
}

impl<V: TablesVariant> Serialize for TablesState<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::position::WithPosition {
            view: TablesView::of(self),
            position: self.to_string(),
        }
        .serialize(s)
    }
}
