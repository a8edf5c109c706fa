//! The generic game API for Läger.

use super::state::End;
use super::state::{LagerAction, LagerState};
use super::view::LagerView;
use crate::error::{Error, Result};
use crate::game::{GameState, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};

impl GameState for LagerState {
    type Action = LagerAction;
    type Observation = LagerView;

    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Player(self.side as usize)
        }
    }

    #[inline]
    fn legal_actions(&self, out: &mut Vec<LagerAction>) {
        self.generate(out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(LagerAction, f64)>) {
        out.clear();
    }

    #[inline]
    fn apply(&mut self, action: LagerAction) {
        self.play(action);
    }

    fn returns(&self) -> Returns {
        match self.end().and_then(|e| e.winner()) {
            Some(w) => Returns::two_player(w, 1.0),
            None => Returns::zeros(2),
        }
    }

    fn max_game_length(&self) -> u64 {
        // LAG-11: drawn after `max_plies` plies; Läger has no chance.
        self.config.max_plies as u64
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(match self.end()? {
            End::Camp { winner } => Outcome::winner(2, winner, Ending::Camp),
            End::NoAction { winner } => Outcome::winner(2, winner, Ending::NoMove),
            End::Repetition => Outcome::draw(2, Ending::Repetition),
            End::PlyCap => Outcome::draw(2, Ending::TurnCap),
            End::Resigned { winner } => Outcome::winner(2, winner, Ending::Resigned),
        })
    }

    fn resign(&mut self, player: Player, kind: Resignation) -> Result<()> {
        // The game, the whole of it: Läger has no match and no gammons.
        match kind {
            _ if self.is_over() => Err(Error::GameOver),
            Resignation::Single | Resignation::Match if player < 2 => {
                self.end = End::Resigned { winner: 1 - player }.code();
                Ok(())
            }
            _ => Err(not_offered(kind, "Läger is resigned as a whole game")),
        }
    }

    fn observation(&self, _viewer: Viewer) -> LagerView {
        LagerView::of(self)
    }

    fn is_legal(&self, action: LagerAction) -> bool {
        self.illegal_reason(action).is_none()
    }

    fn position_hash(&self) -> Option<u64> {
        Some(self.zobrist())
    }
}

impl serde::Serialize for LagerState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::position::WithPosition {
            view: LagerView::of(self),
            position: self.to_string(),
        }
        .serialize(s)
    }
}
