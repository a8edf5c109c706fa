//! The table's clocks: stamping planned events, starting and stopping the
//! running turn, fallen flags and the clocks as shown.

use super::{ClockStamp, Event, Table};
use crate::clock::Clock;
use crate::store::SeatKind;
use serde_json::Value;
use spelbord_engine::{DynState, Turn};

impl Table {
    /// The seat whose clock should run in `state`: a person to decide, once
    /// every seat is taken and the table has not ended. AI seats' clocks
    /// never run (see `docs/server.md`).
    fn clock_seat(&self, state: &dyn DynState) -> Option<usize> {
        if self.ending.is_some() || !self.is_full() {
            return None;
        }
        match state.turn() {
            Turn::Player(p) if self.seats.get(p)?.kind == SeatKind::Human => Some(p),
            _ => None,
        }
    }

    /// Stamps planned `events` with the clocks at `now` (milliseconds of
    /// [`mono_ms`](super::mono_ms)) and returns the clocks after them, to
    /// keep once they are stored. A person's action is charged to his
    /// running turn; the turn passes (with the increment) when another seat
    /// acts or is to decide; server-made actions (chance, forced,
    /// auto-roll, AI) cost nothing; a new game of a match adds the per-game
    /// reserve.
    pub fn stamp_clock(&self, events: &mut [Event], now: i64) -> Option<Clock> {
        let mut clock = self.clock.clone()?;
        let per_game = clock.control.per_game_s > 0;
        let mut mark = if per_game {
            match_mark(&*self.state)
        } else {
            None
        };
        for event in events.iter_mut() {
            let running = clock.running.map(|r| r.seat);
            if event.seat.is_some() && event.seat != running {
                clock.pass(now);
            }
            let think_ms = match (event.seat, event.auto) {
                (Some(seat), false) => clock.charge(seat, now).map(|t| t.max(0) as u64),
                _ => None,
            };
            if event.state.turn() == Turn::Over {
                clock.pass(now);
            } else if let Turn::Player(p) = event.state.turn()
                && clock.running.is_some_and(|r| r.seat != p)
            {
                clock.pass(now);
            }
            if per_game {
                let next = match_mark(&*event.state);
                if next != mark && event.state.turn() != Turn::Over {
                    clock.new_game();
                }
                mark = next;
            }
            event.clock = Some(ClockStamp {
                think_ms,
                left: clock.all_left(now),
                running: None,
                delay_left_ms: 0,
            });
        }
        if let Some(last) = events.last_mut() {
            if let Some(seat) = self.clock_seat(&*last.state) {
                clock.start(seat, now);
            }
            if let Some(stamp) = &mut last.clock {
                stamp.running = clock.running.map(|r| r.seat);
                stamp.delay_left_ms = clock.delay_left(now);
            }
        }
        Some(clock)
    }

    /// Starts the clock of the seat to decide if none runs (the game just
    /// started, or the table was loaded: the turn begins again at `now`,
    /// so time while no server held the table is not charged); stops it
    /// if nobody may decide (ended, an AI took the seat over).
    pub fn resume_clock(&mut self, now: i64) {
        let seat = self.clock_seat(&*self.state);
        let Some(clock) = &mut self.clock else {
            return;
        };
        match seat {
            Some(seat) => clock.start(seat, now),
            None => clock.stop(now),
        }
    }

    /// The seat whose flag has fallen at `now`, if any.
    pub fn flagged(&self, now: i64) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        self.clock.as_ref()?.flagged(now)
    }

    /// When the running seat's flag falls (milliseconds of
    /// [`mono_ms`](super::mono_ms)).
    pub fn clock_deadline(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.clock.as_ref()?.deadline()
    }

    /// The clocks now, as shown: every seat's time left (never below 0),
    /// the running seat and what is left of its delay.
    pub fn clock_now(&self, now: i64) -> Option<ClockStamp> {
        let clock = self.clock.as_ref()?;
        let running = (!self.is_over())
            .then(|| clock.running.map(|r| r.seat))
            .flatten();
        Some(ClockStamp {
            think_ms: None,
            left: clock.all_left(now).into_iter().map(|l| l.max(0)).collect(),
            running,
            delay_left_ms: if running.is_some() {
                clock.delay_left(now)
            } else {
                0
            },
        })
    }
}

/// What marks a new game of a match in a tables game's observation: the
/// score and the last finished game.
fn match_mark(state: &dyn DynState) -> Option<(Value, Value)> {
    let o = state.observation_json(spelbord_engine::Viewer::Spectator);
    let match_to = o.get("match_to").and_then(Value::as_u64).unwrap_or(0);
    (match_to > 0).then(|| {
        (
            o.get("score").cloned().unwrap_or(Value::Null),
            o.get("last_game").cloned().unwrap_or(Value::Null),
        )
    })
}
