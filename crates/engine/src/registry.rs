//! The catalogue of games, by id, for both API layers.

use crate::backgammon::Backgammon;
use crate::dynamic::{DynGame, DynGameOf};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::high_gammon::{HighGammon, TricTrac};
use crate::lager::Lager;
use crate::stortok::Stortok;
use crate::stumphog::Stumphog;
use crate::tawla::Tawla;

/// Runs generic code on a game chosen at run time (see [`visit_game`]).
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the game's type.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Calls `visitor.visit::<G>()` for the game with this id.
pub fn visit_game<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output> {
    match id {
        Tawla::ID => Ok(visitor.visit::<Tawla>()),
        Stumphog::ID => Ok(visitor.visit::<Stumphog>()),
        Stortok::ID => Ok(visitor.visit::<Stortok>()),
        Lager::ID => Ok(visitor.visit::<Lager>()),
        Backgammon::ID => Ok(visitor.visit::<Backgammon>()),
        HighGammon::ID => Ok(visitor.visit::<HighGammon>()),
        TricTrac::ID => Ok(visitor.visit::<TricTrac>()),
        _ => Err(Error::UnknownGame(id.into())),
    }
}

static TAWLA: DynGameOf<Tawla> = DynGameOf::new();
static STUMPHOG: DynGameOf<Stumphog> = DynGameOf::new();
static STORTOK: DynGameOf<Stortok> = DynGameOf::new();
static LAGER: DynGameOf<Lager> = DynGameOf::new();
static BACKGAMMON: DynGameOf<Backgammon> = DynGameOf::new();
static HIGH_GAMMON: DynGameOf<HighGammon> = DynGameOf::new();
static TRIC_TRAC: DynGameOf<TricTrac> = DynGameOf::new();

/// Every game, in catalogue order.
pub fn games() -> Vec<&'static dyn DynGame> {
    vec![
        &TAWLA,
        &BACKGAMMON,
        &HIGH_GAMMON,
        &TRIC_TRAC,
        &STUMPHOG,
        &STORTOK,
        &LAGER,
    ]
}

/// The game with this id.
pub fn find_game(id: &str) -> Result<&'static dyn DynGame> {
    games()
        .into_iter()
        .find(|g| g.id() == id)
        .ok_or_else(|| Error::UnknownGame(id.into()))
}
