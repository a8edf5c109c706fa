//! The observation tensor of Stortok ([`STORTOK_TENSOR_LEN`] floats), after
//! the common head ([`crate::tensor::HEAD_LEN`]); card sets are 52 slots
//! ([`crate::tensor::CARD_SLOTS`]), room for five players:
//! - 52: the viewer's hand (none for a spectator); 52: the table; 52: the
//!   cards set aside;
//! - 5 × 52: per player, the cards everyone knows he holds;
//! - 5: cards in each hand `/ 13`;
//! - 52: the turned card;
//! - 4: the high trump one-hot (clubs, diamonds, hearts, spades); 4: the low;
//! - 4: the phase one-hot (deal, draw, play, over);
//! - 1: face-down cards in the stock `/ 52`; 1: whether the turned card
//!   still lies under the stock.
//!
//! Everything comes from the viewer's [`StortokObservation`], which holds no
//! other hand and not the stock: so does the tensor.

use super::cards::{Card, Suit};
use super::{Phase, StortokObservation, StortokState};
use crate::game::{MAX_PLAYERS, Turn, Viewer};
use crate::tensor::{CARD_SLOTS, Features, HEAD_LEN, ObservationTensor};

/// The length of every Stortok observation tensor.
pub const STORTOK_TENSOR_LEN: usize =
    HEAD_LEN + (4 + MAX_PLAYERS) * CARD_SLOTS + MAX_PLAYERS + 4 + 4 + 4 + 2;

/// Cards in a hand, as a feature.
const HAND: f64 = 13.0;
/// Cards in the stock, as a feature.
const STOCK: f64 = 52.0;

impl ObservationTensor for StortokState {
    fn observation_tensor_len(&self) -> usize {
        STORTOK_TENSOR_LEN
    }

    fn encode_observation(obs: &StortokObservation, viewer: Viewer, f: &mut Features) {
        f.turn_and_viewer(observed_turn(obs), viewer);
        f.cards(slots(obs.hand.iter().flatten()));
        f.cards(slots(&obs.table));
        f.cards(slots(&obs.discarded));
        for p in 0..MAX_PLAYERS {
            f.cards(slots(obs.known.get(p).into_iter().flatten()));
        }
        for p in 0..MAX_PLAYERS {
            f.scaled(obs.hand_sizes.get(p).copied().unwrap_or(0), HAND);
        }
        f.cards(slots(&obs.turned));
        f.one_hot(obs.high_trump.map(Suit::index), 4);
        f.one_hot(obs.low_trump.map(Suit::index), 4);
        let phase = match obs.phase {
            Phase::Deal => 0,
            Phase::Draw => 1,
            Phase::Play => 2,
            Phase::Over => 3,
        };
        f.one_hot(Some(phase), 4);
        f.scaled(obs.stock, STOCK);
        f.flag(obs.turned_in_stock);
    }
}

/// Whose turn it is, as the observation shows it: chance deals and draws,
/// the player to move plays (as [`crate::GameState::turn`] says).
fn observed_turn(obs: &StortokObservation) -> Turn {
    match obs.phase {
        Phase::Deal | Phase::Draw => Turn::Chance,
        Phase::Play => Turn::Player(usize::from(obs.to_move)),
        Phase::Over => Turn::Over,
    }
}

/// The card slots of some cards.
fn slots<'a>(cards: impl IntoIterator<Item = &'a Card>) -> impl Iterator<Item = usize> {
    cards.into_iter().map(|c| c.index())
}

#[cfg(test)]
mod tests;
