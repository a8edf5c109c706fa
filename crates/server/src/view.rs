//! What each viewer is shown: tables, states and events as JSON, filtered
//! for the recipient. A seat sees its own observation; spectators the public
//! one; in games with hidden information nobody is told a chance action.

use crate::clock::{LOW_TIME_MS, TimeControl};
use crate::store::{SeatKind, StoredSeat};
use crate::table::{ClockStamp, Event, Table, mono_ms};
use serde::Serialize;
use serde_json::{Value, json};
use spelbord_engine::tables::StepsView;
use spelbord_engine::{ActionInfo, DynState, GameEvent, Turn, Viewer};

/// The viewer as JSON: `{"seat": 2}` or `"spectator"`.
pub fn viewer_json(viewer: Viewer) -> Value {
    match viewer {
        Viewer::Player(p) => json!({ "seat": p }),
        Viewer::Spectator => json!("spectator"),
    }
}

/// Whose turn as JSON: `{"kind": "player", "seat": 1}`, `{"kind": "chance"}`
/// or `{"kind": "over"}`.
pub fn turn_json(turn: Turn) -> Value {
    match turn {
        Turn::Player(p) => json!({ "kind": "player", "seat": p }),
        Turn::Chance => json!({ "kind": "chance" }),
        Turn::Over => json!({ "kind": "over" }),
    }
}

/// The seats as JSON (never their tokens).
pub fn seats_json(seats: &[StoredSeat]) -> Value {
    Value::Array(
        seats
            .iter()
            .map(|s| match &s.kind {
                SeatKind::Open => json!({ "seat": s.seat, "kind": "open" }),
                SeatKind::Human => match &s.account {
                    None => json!({
                        "seat": s.seat, "kind": "human", "name": s.name,
                        "auto_roll": s.auto_roll,
                    }),
                    Some(account) => json!({
                        "seat": s.seat, "kind": "human", "name": s.name, "account": account,
                        "auto_roll": s.auto_roll,
                    }),
                },
                SeatKind::Ai(agent) => json!({ "seat": s.seat, "kind": "ai", "agent": agent }),
            })
            .collect(),
    )
}

/// The clocks as JSON: the time control (seconds), every seat's
/// milliseconds left (`remaining_ms`, the running seat's as of this
/// message), the seat whose clock runs (`running`, null when none) and what
/// is left of its delay (`delay_left_ms`): a client counts the running
/// clock down from the message's arrival, after the delay left. `null`
/// for a table without a clock.
pub fn clock_json(control: Option<TimeControl>, stamp: Option<&ClockStamp>) -> Value {
    let (Some(control), Some(stamp)) = (control, stamp) else {
        return Value::Null;
    };
    json!({
        "initial_s": control.initial_s,
        "increment_s": control.increment_s,
        "delay_s": control.delay_s,
        "per_game_s": control.per_game_s,
        "remaining_ms": stamp.left.iter().map(|l| (*l).max(0)).collect::<Vec<_>>(),
        "running": stamp.running,
        "delay_left_ms": stamp.delay_left_ms,
        "low_ms": LOW_TIME_MS,
    })
}

/// The table's clocks now, as JSON (see [`clock_json`]).
pub fn table_clock_json(table: &Table) -> Value {
    clock_json(
        table.clock.as_ref().map(|c| c.control),
        table.clock_now(mono_ms()).as_ref(),
    )
}

/// `waiting` (an open seat), `playing` or `finished`.
pub fn status(table: &Table) -> &'static str {
    if table.is_over() {
        "finished"
    } else if table.seats.iter().any(|s| s.kind == SeatKind::Open) {
        "waiting"
    } else {
        "playing"
    }
}

/// The state at `version` as `viewer` may see it: the observation, a text
/// drawing, whose turn, the legal actions when it is the viewer's turn (with
/// the plays of steps made step by step, in the tables games), and the
/// returns and outcome once the game is over. Serialised as it is, without
/// first copying it into a JSON tree.
#[derive(Serialize)]
pub struct StateView {
    version: u64,
    turn: Value,
    observation: Value,
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Vec<ActionInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<StepsView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    returns: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Value>,
}

impl StateView {
    /// `state` at `version` as `viewer` may see it.
    pub fn new(state: &dyn DynState, version: u64, viewer: Viewer) -> Self {
        let turn = state.turn();
        let mut view = StateView {
            version,
            turn: turn_json(turn),
            observation: state.observation_json(viewer),
            text: state.render(viewer, false),
            legal: None,
            steps: None,
            returns: None,
            outcome: None,
        };
        if let (Turn::Player(p), Viewer::Player(v)) = (turn, viewer)
            && p == v
        {
            view.legal = Some(state.legal_actions());
            view.steps = state.play_steps();
        }
        if turn == Turn::Over {
            view.returns = Some(state.returns());
            view.outcome = Some(state.outcome_json());
        }
        view
    }
}

/// [`StateView`] as a JSON value.
pub fn state_json(state: &dyn DynState, version: u64, viewer: Viewer) -> Value {
    serde_json::to_value(StateView::new(state, version, viewer)).unwrap_or(Value::Null)
}

/// The action of an event as `hidden`-aware JSON: chance actions of games
/// with hidden information (a dealt or drawn card) are never shown. A play
/// of steps (the tables games) comes with `boards`, the positions it passed
/// through as the engine drew them, the one before it first.
pub fn action_json(event: &Event, hidden_information: bool) -> Value {
    if event.seat.is_none() && hidden_information {
        return json!({ "seat": null, "auto": true, "hidden": true });
    }
    let mut action = json!({
        "seat": event.seat,
        "auto": event.auto,
        "hidden": false,
        "text": event.action.text,
        "json": event.action.json,
        "think_ms": event.clock.as_ref().and_then(|c| c.think_ms),
    });
    if let Some(boards) = event.boards() {
        action["boards"] = Value::from(boards);
    }
    action
}

/// An `event` message as sent.
#[derive(Serialize)]
struct EventMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    table: &'a str,
    version: u64,
    action: Value,
    events: &'a [GameEvent],
    #[serde(skip_serializing_if = "Value::is_null")]
    clock: Value,
    state: StateView,
}

impl<'a> EventMessage<'a> {
    fn new(
        table_id: &'a str,
        event: &'a Event,
        viewer: Viewer,
        hidden: bool,
        control: Option<TimeControl>,
    ) -> Self {
        EventMessage {
            kind: "event",
            table: table_id,
            version: event.version,
            action: action_json(event, hidden),
            events: if event.seat.is_none() && hidden {
                &[]
            } else {
                &event.events
            },
            clock: clock_json(control, event.clock.as_ref()),
            state: StateView::new(&*event.state, event.version, viewer),
        }
    }
}

/// An `event` message for `viewer` (with the clocks the event left, on a
/// table with time control `control`).
pub fn event_message(
    table_id: &str,
    event: &Event,
    viewer: Viewer,
    hidden: bool,
    control: Option<TimeControl>,
) -> Value {
    serde_json::to_value(EventMessage::new(table_id, event, viewer, hidden, control))
        .unwrap_or(Value::Null)
}

/// An `event` message for `viewer`, as the text sent.
pub fn event_text(
    table_id: &str,
    event: &Event,
    viewer: Viewer,
    hidden: bool,
    control: Option<TimeControl>,
) -> String {
    serde_json::to_string(&EventMessage::new(table_id, event, viewer, hidden, control))
        .unwrap_or_default()
}

/// A `sync` message: the whole table as `viewer` sees it now.
pub fn sync_message(table: &Table, viewer: Viewer) -> Value {
    json!({
        "type": "sync",
        "table": table.id,
        "version": table.version,
        "status": status(table),
        "seats": seats_json(&table.seats),
        "ending": table.ending,
        "dice": table.dice_proof(),
        "rematch": table.rematch,
        "rematch_of": table.rematch_of,
        "clock": table_clock_json(table),
        "state": state_json(&*table.state, table.version, viewer),
    })
}

/// A `seats` message, sent when someone joins.
pub fn seats_message(table: &Table) -> Value {
    json!({
        "type": "seats",
        "table": table.id,
        "version": table.version,
        "status": status(table),
        "seats": seats_json(&table.seats),
        "clock": table_clock_json(table),
    })
}

/// Links to join each open seat (relative to the server); none at a
/// rematch, whose open seats are kept for the last game's players.
pub fn invites_json(table: &Table) -> Value {
    Value::Array(
        table
            .seats
            .iter()
            .filter(|s| s.kind == SeatKind::Open && table.rematch_of.is_none())
            .map(|s| json!({ "seat": s.seat, "url": format!("/t/{}?seat={}", table.id, s.seat) }))
            .collect(),
    )
}

/// The table as `viewer` sees it (the body of `GET /api/tables/{id}`).
pub fn table_json(table: &Table, viewer: Viewer) -> Value {
    json!({
        "id": table.id,
        "game": table.game.id(),
        "options": table.options,
        "auto_forced": table.auto_forced,
        "hidden_information": table.game.hidden_information(),
        "status": status(table),
        "seats": seats_json(&table.seats),
        "invites": invites_json(table),
        "viewer": viewer_json(viewer),
        "version": table.version,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "ws": format!("/api/tables/{}/ws", table.id),
        "ending": table.ending,
        "inactivity": table.inactivity,
        "dice": table.dice_proof(),
        "rematch": table.rematch,
        "rematch_of": table.rematch_of,
        "rated": table.rated,
        "clock": table_clock_json(table),
        "state": state_json(&*table.state, table.version, viewer),
    })
}
