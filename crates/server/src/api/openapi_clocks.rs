//! The OpenAPI description of clocks (time controls) and the auto-roll
//! setting: the schemas, the fields they add to tables, seats and records,
//! and `POST /api/tables/{id}/settings`.

use super::openapi::{body, error_response, ok};
use serde_json::{Value, json};

/// The settings route.
pub(super) fn paths() -> Value {
    json!({
        "/api/tables/{id}/settings": { "post": {
            "summary": "Change the token's seat's settings (auto-roll)",
            "description": "`auto_roll`: when the server rolls for the seat at a cube decision instead of asking \"double or roll?\": `ask` (never), `useless` (when doubling cannot gain: a dead cube in a match; the default) or `always`. A cube decision the new setting skips is rolled at once. A roll the server makes is `auto` and costs no clock time. The seat's viewers get a `seats` message.",
            "operationId": "tableSettings",
            "parameters": [super::openapi::table_id()],
            "security": [{ "seatToken": [] }],
            "requestBody": body("Settings"),
            "responses": {
                "200": ok("The table as the seat sees it", "Table"),
                "400": error_response("`bad_json`: not `ask`, `useless` or `always`"),
                "401": error_response("No or an unknown seat token"),
                "404": error_response("No such table"),
                "415": error_response("`unsupported_media_type`")
            }
        }}
    })
}

/// Adds the clock and auto-roll schemas and fields to `schemas`.
pub(super) fn extend(schemas: &mut Value) {
    schemas["TimeControl"] = json!({
        "type": "object", "required": ["initial_s"], "additionalProperties": false,
        "description": "A table's clock: every seat starts with `initial_s`; the first `delay_s` of each turn are free (simple delay); `increment_s` is added after each turn (Fischer); in a match `per_game_s` is added to every seat at each new game. A turn is a seat's whole decision; chance and actions the server plays (forced, auto-roll) cost nothing; AI seats' clocks do not run. A seat whose time runs out loses as if it resigned (`ending.reason = \"time\"`).",
        "properties": {
            "initial_s": { "type": "integer", "minimum": 1, "maximum": 86400 },
            "increment_s": { "type": "integer", "minimum": 0, "maximum": 600, "default": 0 },
            "delay_s": { "type": "integer", "minimum": 0, "maximum": 600, "default": 0 },
            "per_game_s": { "type": "integer", "minimum": 0, "maximum": 3600, "default": 0 }
        }
    });
    schemas["Clock"] = json!({
        "type": ["object", "null"],
        "required": ["initial_s", "increment_s", "delay_s", "per_game_s", "remaining_ms", "running", "delay_left_ms", "low_ms"],
        "description": "The clocks now (null: no clock). Count the running seat's clock down from when the message arrived, after `delay_left_ms`.",
        "properties": {
            "initial_s": { "type": "integer" }, "increment_s": { "type": "integer" },
            "delay_s": { "type": "integer" }, "per_game_s": { "type": "integer" },
            "remaining_ms": { "type": "array", "items": { "type": "integer" }, "description": "Each seat's milliseconds left (the running seat's as of this answer)." },
            "running": { "type": ["integer", "null"], "description": "The seat whose clock runs." },
            "delay_left_ms": { "type": "integer", "description": "What is left of the running turn's delay." },
            "low_ms": { "type": "integer", "description": "Below this, clients warn of low time." }
        }
    });
    schemas["Settings"] = json!({
        "type": "object", "required": ["auto_roll"], "additionalProperties": false,
        "properties": { "auto_roll": { "$ref": "#/components/schemas/AutoRoll" } }
    });
    schemas["AutoRoll"] = json!({ "type": "string", "enum": ["ask", "useless", "always"],
        "description": "When the server rolls for the seat at a cube decision: never (`ask`), at a dead cube (`useless`, the default), or always." });
    schemas["CreateTable"]["properties"]["clock"] =
        json!({ "$ref": "#/components/schemas/TimeControl" });
    schemas["Join"]["properties"]["auto_roll"] = json!({ "$ref": "#/components/schemas/AutoRoll" });
    schemas["Seat"]["properties"]["auto_roll"] = json!({ "$ref": "#/components/schemas/AutoRoll" });
    schemas["Table"]["properties"]["clock"] = json!({ "$ref": "#/components/schemas/Clock" });
    for listed in ["ListedTable", "PlayerTable"] {
        schemas[listed]["properties"]["clock"] = json!({ "$ref": "#/components/schemas/TimeControl",
            "description": "The time control, on a table with a clock." });
    }
    schemas["AppliedAction"]["properties"]["think_ms"] = json!({ "type": ["integer", "null"],
        "description": "On a table with a clock: the milliseconds the seat's turn had taken at this action (null for actions the server played)." });
    schemas["Record"]["properties"]["clock"] =
        json!({ "$ref": "#/components/schemas/TimeControl" });
    schemas["Record"]["properties"]["times"] = json!({ "type": "array",
        "description": "On a table with a clock, per action: `think_ms` (null when the server played it) and `left_ms`, every seat's milliseconds left after it.",
        "items": { "type": "object", "properties": {
            "version": { "type": "integer" }, "think_ms": { "type": ["integer", "null"] },
            "left_ms": { "type": ["array", "null"], "items": { "type": "integer" } } } } });
    schemas["Ending"]["properties"]["reason"]["enum"] =
        json!(["resigned", "forfeit", "closed", "abandoned", "time"]);
}
