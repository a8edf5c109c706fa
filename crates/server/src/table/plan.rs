//! Planning actions: a player's action and the chance and forced actions
//! after it, not yet stored or applied.

use super::{ActionInput, Event, Table};
use crate::dice;
use crate::error::ApiError;
use crate::store::{AutoRoll, SeatKind};
use spelbord_engine::{DynState, Turn};
use std::sync::Arc;

impl Table {
    /// Plans `input` by `seat` and the chance and forced actions after it,
    /// without changing the table. The caller has checked the turn.
    pub fn plan(
        &mut self,
        seat: usize,
        input: &ActionInput,
        auto: bool,
    ) -> Result<Vec<Event>, ApiError> {
        let mut state = self.state.clone_box();
        let info = match input {
            ActionInput::Text(text) => state.apply_text(text),
            ActionInput::Json(json) => state.apply_json(json),
            ActionInput::Resign(kind) => state.resign(seat, *kind),
        }
        .map_err(ApiError::from_action_error)?;
        let mut events = vec![Event::new(
            self.version + 1,
            Some(seat),
            info,
            auto,
            Arc::clone(&self.state),
            Arc::from(state.clone_box()),
        )];
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plans the chance and forced actions due now, if every seat is taken
    /// and the table has not ended.
    pub fn plan_pending(&mut self) -> Result<Vec<Event>, ApiError> {
        let mut events = Vec::new();
        if !self.is_full() || self.ending.is_some() {
            return Ok(events);
        }
        let state = self.state.clone_box();
        self.advance(state, &mut events)?;
        Ok(events)
    }

    /// Plays chance (from the dice seeds, see [`crate::dice`]) and forced
    /// single actions after `events`, until a real decision or the end.
    fn advance(
        &mut self,
        mut state: Box<dyn DynState>,
        events: &mut Vec<Event>,
    ) -> Result<(), ApiError> {
        // A game that outlasts its maximum length is a bug: stop there.
        for _ in 0..state.max_game_length() {
            let (seat, text) = match state.turn() {
                Turn::Over => return Ok(()),
                Turn::Chance => {
                    let version = self.version + events.len() as u64 + 1;
                    let chosen = match &self.server_seed {
                        Some(seed) => dice::chance_action(
                            &*state,
                            seed,
                            &self.id,
                            version,
                            &self.seat_seeds(),
                        )
                        .ok_or_else(|| {
                            ApiError::Internal("a chance node without outcomes".into())
                        })?,
                        None => state.sample_chance(&mut self.rng),
                    };
                    (None, chosen.text)
                }
                Turn::Player(_) if self.game.hidden_information() => {
                    // STO-5: whether a player could have chosen otherwise is
                    // hidden too, so nothing forced is played by itself (an
                    // AI seat chooses its only action as it chooses any).
                    return Ok(());
                }
                Turn::Player(p)
                    if self.seats[p].kind == SeatKind::Human
                        && self.seats[p].auto_roll != AutoRoll::Ask
                        && let Some(roll) =
                            state.auto_roll_action(self.seats[p].auto_roll == AutoRoll::Always) =>
                {
                    // The seat's auto-roll setting: the server rolls for it
                    // (no clock runs on a decision the server makes).
                    (Some(p), roll.text)
                }
                Turn::Player(p) => {
                    let forced_for_seat =
                        self.auto_forced || matches!(self.seats[p].kind, SeatKind::Ai(_));
                    if !forced_for_seat {
                        return Ok(());
                    }
                    let mut legal = state.legal_actions();
                    if legal.len() != 1 {
                        return Ok(());
                    }
                    (Some(p), legal.remove(0).text)
                }
            };
            let info = state.apply_text(&text).map_err(|e| {
                ApiError::Internal(format!("the engine refused its own action `{text}`: {e}"))
            })?;
            let before = events
                .last()
                .map_or_else(|| Arc::clone(&self.state), |e| Arc::clone(&e.state));
            events.push(Event::new(
                self.version + events.len() as u64 + 1,
                seat,
                info,
                true,
                before,
                Arc::from(state.clone_box()),
            ));
        }
        Err(ApiError::Internal(
            "too many chance and forced actions in a row".into(),
        ))
    }
}
