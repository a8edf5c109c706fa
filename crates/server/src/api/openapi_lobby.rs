//! The seek, quick-pairing and lobby routes and schemas of the OpenAPI document.

use super::openapi::{body, error_response, ok};
use serde_json::{Value, json};

fn seek_id() -> Value {
    json!({ "name": "id", "in": "path", "required": true, "description": "The seek's id (24 hexadecimal digits).",
        "schema": { "type": "string", "pattern": "^[0-9a-f]{24}$" } })
}

fn player_key_query() -> Value {
    json!({ "name": "player_key", "in": "query", "required": false,
        "description": "A guest's secret player key (or the `X-Player-Key` header); a signed-in account needs none.",
        "schema": { "type": "string", "minLength": 16, "maxLength": 128 } })
}

/// The seek, pairing and lobby routes.
pub fn paths() -> Value {
    json!({
        "/api/seeks": {
            "post": {
                "summary": "Posts a seek: a table others accept with one click (withdrawn when its owner has had no lobby socket for 20 s, or after 30 minutes)",
                "operationId": "postSeek",
                "requestBody": body("PostSeek"),
                "responses": {
                    "201": ok("The seek", "SeekCreated"),
                    "400": error_response("`bad_json`, `bad_request`, `unknown_game`, `bad_option` or `not_rateable`"),
                    "401": error_response("`rated_needs_account`: a rated seek needs a signed-in account"),
                    "429": error_response("`rate_limited`, or `too_many_tables`: three open seeks already")
                }
            },
            "get": {
                "summary": "The open seeks the caller may see (rated seeks only to accounts rated in range), of the games asked for",
                "operationId": "listSeeks",
                "parameters": [{ "name": "game", "in": "query", "required": false, "description": "A game's id; repeat for several; none: every game.",
                    "schema": { "type": "string" } }, player_key_query()],
                "responses": { "200": ok("The seeks", "SeekList") }
            }
        },
        "/api/seeks/{id}": {
            "get": {
                "summary": "An open seek; for its players once it is paired, their table, seat and token",
                "operationId": "readSeek",
                "parameters": [seek_id(), player_key_query()],
                "responses": {
                    "200": ok("The seek, or the caller's seat at its table", "SeekRead"),
                    "404": error_response("`not_found`: no such seek, or not one the caller may see")
                }
            },
            "delete": {
                "summary": "The owner withdraws an open seek",
                "operationId": "withdrawSeek",
                "parameters": [seek_id(), player_key_query()],
                "responses": {
                    "204": { "description": "Withdrawn" },
                    "404": error_response("`not_found`: no open seek of the caller's"),
                    "409": error_response("`seek_gone`: it was taken or has expired")
                }
            }
        },
        "/api/seeks/{id}/accept": { "post": {
            "summary": "Accepts a seek: the accept that fills it makes the table and answers as a join; the other players get a `paired` lobby message",
            "operationId": "acceptSeek",
            "parameters": [seek_id()],
            "requestBody": body("AcceptSeek"),
            "responses": {
                "200": ok("The table is made: the seat and its token", "Joined"),
                "202": ok("Accepted; more players are needed (3 to 5 players)", "SeekWaiting"),
                "400": error_response("`bad_json` or `bad_request` (no player key)"),
                "401": error_response("`rated_needs_account`"),
                "404": error_response("`not_found`: no such seek, or one the caller may not see (out of its rating range)"),
                "409": error_response("`seek_gone`, `own_seek` or `already_accepted`"),
                "429": error_response("`too_many_tables` or `rate_limited`")
            }
        }},
        "/api/pairing": {
            "get": {
                "summary": "The quick-pairing pools",
                "operationId": "pairingPools",
                "responses": { "200": ok("The pools", "PairingPools") }
            },
            "post": {
                "summary": "Queues for a pool: accounts are paired rated with accounts of close rating, guests casual with guests; the table comes as a `paired` lobby message",
                "operationId": "queuePairing",
                "requestBody": body("QueuePairing"),
                "responses": {
                    "202": ok("Queued", "Queued"),
                    "400": error_response("`bad_json` or `bad_request` (no player key)"),
                    "404": error_response("`not_found`: no such pool")
                }
            },
            "delete": {
                "summary": "Leaves the queue (leaving the lobby for 20 s does too)",
                "operationId": "leavePairing",
                "parameters": [player_key_query()],
                "responses": { "204": { "description": "Not queued (any more)" },
                    "404": error_response("`not_found`: no player key or account") }
            }
        },
        "/api/lobby/ws": { "get": {
            "summary": "The lobby's WebSocket: a `snapshot`, then `seek_added`, `seek_removed`, `seek_updated`, `tables`, `online` and private `paired` messages (docs/lobby.md)",
            "operationId": "lobbySocket",
            "responses": {
                "101": { "description": "Switching to the WebSocket protocol" },
                "403": error_response("`forbidden`: an upgrade from another site's page"),
                "429": error_response("`rate_limited`: the address has as many sockets as allowed"),
                "503": error_response("`unavailable`: the server has as many sockets as allowed")
            }
        }}
    })
}

/// The seek, pairing and lobby schemas.
pub fn schemas() -> Value {
    let clock = json!({ "type": ["object", "null"], "description": "The table's time control, as `POST /api/tables` takes it." });
    json!({
        "PostSeek": {
            "type": "object", "required": ["game"],
            "description": "What `POST /api/tables` takes (`game`, `options`, `clock`, `rated`, `auto_forced`, `inactivity`; not `seats`, `listed`, `player`), and the seek's own fields.",
            "properties": {
                "game": { "type": "string" }, "options": { "type": "object" }, "clock": clock,
                "rated": { "type": "boolean", "default": false }, "auto_forced": { "type": "boolean" },
                "inactivity": { "$ref": "#/components/schemas/Inactivity" },
                "players": { "type": "integer", "description": "The number of players (the game's `players` option)." },
                "rating_range": { "type": ["object", "null"], "additionalProperties": false,
                    "properties": { "min": { "type": ["number", "null"] }, "max": { "type": ["number", "null"] } },
                    "description": "Rated seeks: only accounts rated in this range in the seek's pool see and accept it." },
                "seat": { "type": ["integer", "null"], "description": "The owner's preferred seat." },
                "name": { "type": "string" },
                "player_key": { "type": "string", "minLength": 16, "maxLength": 128, "description": "A guest's secret key (accounts: the session cookie)." }
            }
        },
        "Seek": {
            "type": "object", "additionalProperties": false,
            "required": ["id", "game", "options", "clock", "rated", "rating_range", "seat", "players", "owner", "accepted", "created_at"],
            "properties": {
                "id": { "type": "string" }, "game": { "type": "string" }, "options": { "type": "object" },
                "clock": clock, "rated": { "type": "boolean" },
                "rating_range": { "type": ["object", "null"], "properties": { "min": { "type": ["number", "null"] }, "max": { "type": ["number", "null"] } } },
                "seat": { "type": ["integer", "null"] }, "players": { "type": "integer" },
                "owner": { "type": "object", "required": ["name", "rating"], "additionalProperties": false,
                    "properties": { "name": { "type": ["string", "null"] }, "rating": { "type": ["number", "null"], "description": "Rated seeks: the owner's rating in the pool." } } },
                "accepted": { "type": "integer", "description": "Players who have accepted so far (the owner not counted)." },
                "created_at": { "type": "integer", "description": "Unix seconds." }
            }
        },
        "SeekCreated": { "type": "object", "required": ["seek"], "additionalProperties": false,
            "properties": { "seek": { "$ref": "#/components/schemas/Seek" } } },
        "SeekList": { "type": "object", "required": ["seeks"], "additionalProperties": false,
            "properties": { "seeks": { "type": "array", "items": { "$ref": "#/components/schemas/Seek" } } } },
        "SeekRead": { "type": "object", "additionalProperties": false,
            "properties": { "seek": { "$ref": "#/components/schemas/Seek" },
                "paired": { "type": "object", "required": ["table", "seat", "token"], "additionalProperties": false,
                    "properties": { "table": { "type": "string" }, "seat": { "type": "integer" }, "token": { "type": "string" } } } } },
        "SeekWaiting": { "type": "object", "required": ["waiting", "needed"], "additionalProperties": false,
            "properties": { "waiting": { "type": "integer", "description": "Players who have accepted." },
                "needed": { "type": "integer", "description": "The players of the table (the owner included)." } } },
        "AcceptSeek": { "type": "object", "additionalProperties": false,
            "properties": { "name": { "type": "string" }, "player_key": { "type": "string", "minLength": 16, "maxLength": 128 } } },
        "PairingPools": { "type": "object", "required": ["pools"], "additionalProperties": false,
            "properties": { "pools": { "type": "array", "items": { "type": "object", "additionalProperties": false,
                "required": ["id", "game", "options", "clock", "label"],
                "properties": { "id": { "type": "string", "example": "tawla-1-fast" }, "game": { "type": "string" },
                    "options": { "type": "object" }, "clock": clock, "label": { "type": "string" } } } } } },
        "QueuePairing": { "type": "object", "required": ["pool"], "additionalProperties": false,
            "properties": { "pool": { "type": "string" }, "name": { "type": "string" },
                "player_key": { "type": "string", "minLength": 16, "maxLength": 128 } } },
        "Queued": { "type": "object", "required": ["queued"], "additionalProperties": false,
            "properties": { "queued": { "type": "string" } } }
    })
}
