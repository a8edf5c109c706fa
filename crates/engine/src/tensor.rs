//! Observation tensors: a fixed-length vector of floats per game and
//! options, for learning agents (the Python bindings' `observation_tensor`).
//!
//! A game encodes its own typed observation ([`GameState::observation`]),
//! so a tensor is a function of what the viewer sees and nothing else
//! ([`observation_tensor`] is the only way to make one from a state): it
//! never holds what that viewer may not see. Seats are absolute; every
//! tensor starts with the same 12 features, whose turn it is and who looks
//! ([`Features::turn_and_viewer`]). Each game's layout is in its module's
//! `tensor.rs`.

use crate::game::{GameState, MAX_PLAYERS, Turn, Viewer};

/// Features at the start of every tensor: chance, over, the player to move
/// and the viewer (one-hot among [`MAX_PLAYERS`] seats each).
pub const HEAD_LEN: usize = 2 + 2 * MAX_PLAYERS;

/// Card slots of a card set: 13 ranks (2 to ace) in each of 4 suits
/// (clubs, diamonds, hearts, spades), slot `13 * suit + rank - 2`.
pub const CARD_SLOTS: usize = 52;

/// Features of two dice, one-hot each ([`Features::dice`]).
pub const DICE_LEN: usize = 2 * 6;

/// A game state whose observations encode as fixed-length tensors.
pub trait ObservationTensor: GameState {
    /// The length of every tensor of this state's game and options.
    fn observation_tensor_len(&self) -> usize;

    /// Appends the tensor of `observation`, as `viewer` sees it, to `out`.
    fn encode_observation(observation: &Self::Observation, viewer: Viewer, out: &mut Features);
}

/// Writes `viewer`'s observation tensor of `state` into `out` (cleared
/// first): the encoding of `state.observation(viewer)`, nothing else.
pub fn observation_tensor<S: ObservationTensor>(state: &S, viewer: Viewer, out: &mut Vec<f32>) {
    out.clear();
    S::encode_observation(&state.observation(viewer), viewer, &mut Features(out));
}

/// Appends features to a tensor.
pub struct Features<'a>(&'a mut Vec<f32>);

impl Features<'_> {
    /// A number as it is.
    pub fn num(&mut self, value: f64) {
        self.0.push(value as f32);
    }

    /// A number divided by `scale` (its usual maximum).
    pub fn scaled(&mut self, value: impl Into<f64>, scale: f64) {
        self.num(value.into() / scale);
    }

    /// 1 when `on`, else 0.
    pub fn flag(&mut self, on: bool) {
        self.0.push(if on { 1.0 } else { 0.0 });
    }

    /// One-hot of `index` among `n` (all zeros when `None` or out of range).
    pub fn one_hot(&mut self, index: Option<usize>, n: usize) {
        for i in 0..n {
            self.flag(index == Some(i));
        }
    }

    /// Whose turn it is (chance, over, or a player one-hot) and the viewer
    /// (a player one-hot; zeros for a spectator): [`HEAD_LEN`] features.
    pub fn turn_and_viewer(&mut self, turn: Turn, viewer: Viewer) {
        self.flag(turn == Turn::Chance);
        self.flag(turn == Turn::Over);
        self.one_hot(
            match turn {
                Turn::Player(p) => Some(p),
                _ => None,
            },
            MAX_PLAYERS,
        );
        self.one_hot(
            match viewer {
                Viewer::Player(p) => Some(p),
                Viewer::Spectator => None,
            },
            MAX_PLAYERS,
        );
    }

    /// Two dice, each one-hot among 1 to 6 (zeros when there are none):
    /// [`DICE_LEN`] features.
    pub fn dice(&mut self, dice: Option<[u8; 2]>) {
        for i in 0..2 {
            let die = dice.map(|d| d[i]).filter(|d| (1..=6).contains(d));
            self.one_hot(die.map(|d| d as usize - 1), 6);
        }
    }

    /// A doubling cube's value as log2 / 6 (0 without a cube).
    pub fn cube(&mut self, value: Option<u32>) {
        self.num(f64::from(value.unwrap_or(1).max(1)).log2() / 6.0);
    }

    /// A set of cards by slot (see [`CARD_SLOTS`]; slots out of range are
    /// left out): [`CARD_SLOTS`] features.
    pub fn cards(&mut self, slots: impl IntoIterator<Item = usize>) {
        let start = self.0.len();
        self.0.resize(start + CARD_SLOTS, 0.0);
        for slot in slots.into_iter().filter(|&s| s < CARD_SLOTS) {
            self.0[start + slot] = 1.0;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
