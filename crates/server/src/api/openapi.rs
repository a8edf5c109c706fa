//! The OpenAPI 3.1 description of the HTTP API, served at `/api/openapi.json`.

use axum::Json;
use serde_json::{Value, json};

pub(super) fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
    })
}

pub(super) fn ok(description: &str, schema: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{schema}") } } }
    })
}

pub(super) fn body(schema: &str) -> Value {
    json!({
        "required": true,
        "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{schema}") } } }
    })
}

pub(super) fn table_id() -> Value {
    json!({
        "name": "id", "in": "path", "required": true,
        "description": "The table's id: 24 hexadecimal digits, after the route of the node that made it and a hyphen if it has one (`n1-…`, `--route`).",
        "schema": { "type": "string", "pattern": crate::token::TABLE_ID_PATTERN }
    })
}

fn player_key() -> Value {
    json!({ "name": "X-Player-Key", "in": "header", "required": false,
        "description": "The secret key the player gave when creating or joining (16 to 128 characters); without it, the signed-in account (session cookie) is the player.",
        "schema": { "type": "string", "minLength": 16, "maxLength": 128 } })
}

fn paths() -> Value {
    json!({
        "/api/health": { "get": {
            "summary": "Whether this node can serve: its database takes writes and, with several nodes, notifications arrive",
            "operationId": "health",
            "responses": {
                "200": { "description": "Serving", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Health" } } } },
                "503": { "description": "Not serving: the database takes no writes, notifications are down, or the node is stopping", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Health" } } } }
            }
        }},
        "/api/games": { "get": {
            "summary": "The game catalogue with each game's options and the AI agents",
            "operationId": "listGames",
            "responses": { "200": { "description": "Every game", "content": { "application/json": { "schema": {
                "type": "object", "required": ["games"],
                "properties": { "games": { "type": "array", "items": { "$ref": "#/components/schemas/Game" } } }
            } } } } }
        }},
        "/api/games/{game}": { "get": {
            "summary": "One game, with its rules for players in Markdown",
            "operationId": "getGame",
            "parameters": [{ "name": "game", "in": "path", "required": true, "schema": { "type": "string" } }],
            "responses": { "200": ok("The game (with `rules`)", "Game"), "404": error_response("No such game (`not_found`)") }
        }},
        "/api/tables": { "post": {
            "summary": "Create a table",
            "description": "Creates a table with a fresh secret dice seed, whose SHA-256 is published as `dice.commitment`. The game (a deal, the opening roll) starts when every seat is taken; AI seats move as soon as it is their turn. Join the open seats with `/join`. Limited per client address: tables created per second and unfinished tables created.",
            "operationId": "createTable",
            "requestBody": body("CreateTable"),
            "responses": {
                "201": ok("The new table, as a spectator sees it, with `invites` for the open seats", "Table"),
                "400": error_response("`bad_json`, `bad_request` (seats, inactivity rule), `unknown_game`, `bad_option`, `bad_clock` (a `clock` out of bounds), or `not_rateable` (a rated table with an AI seat, or a game without a rating pool)"),
                "401": error_response("`rated_needs_account`: a rated table needs a signed-in creator"),
                "413": error_response("`too_large`"),
                "415": error_response("`unsupported_media_type`: the body is not sent as `application/json`"),
                "429": error_response("`rate_limited` or `too_many_tables`")
            }
        }, "get": {
            "summary": "Tables listed in the lobby",
            "description": "Unfinished tables whose creator listed them (`listed` when creating), the latest changed first, 20 a page, pages 0 to 49: with an open seat anyone may join (`list=open`), or with every seat taken, to watch (`list=live`).",
            "operationId": "listTables",
            "parameters": [
                { "name": "list", "in": "query", "required": true, "schema": { "type": "string", "enum": ["open", "live"] } },
                { "name": "page", "in": "query", "required": false, "schema": { "type": "integer", "minimum": 0, "maximum": 49, "default": 0 } }
            ],
            "responses": {
                "200": { "description": "A page of tables", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["tables", "page", "more"], "properties": {
                        "tables": { "type": "array", "items": { "$ref": "#/components/schemas/ListedTable" } },
                        "page": { "type": "integer" },
                        "more": { "type": "boolean", "description": "Whether the next page has tables." } }
                } } } },
                "400": error_response("`bad_request`: `list` is not `open` or `live`, or the page is past the last")
            }
        }},
        "/api/tables/{id}": { "get": {
            "summary": "Read a table as a seat (with its token) or as a spectator (without)",
            "operationId": "getTable",
            "parameters": [table_id()],
            "security": [{}, { "seatToken": [] }],
            "responses": {
                "200": ok("The table: the viewer's observation, the legal actions when it is the viewer's turn, and the version", "Table"),
                "401": error_response("A token was given but is not a seat token of this table (`unauthorized`)"),
                "404": error_response("No such table (`not_found`)")
            }
        }},
        "/api/tables/{id}/join": { "post": {
            "summary": "Take an open seat",
            "description": "Gives the seat (the first open one if `seat` is not given) to the caller and returns the seat's secret token: keep it. Only the token can act for the seat. With a `key`, sending the same join again returns the same seat and token (for an answer that was lost). The last seat taken starts the game.",
            "operationId": "joinTable",
            "parameters": [table_id()],
            "requestBody": body("Join"),
            "responses": {
                "200": ok("The seat, its token, and invite links for the seats still open", "Joined"),
                "400": error_response("`bad_json` or `bad_request` (no such seat, a bad name, key, seed or player key)"),
                "401": error_response("A `rematch_token` that is not a seat's token at the finished table (`unauthorized`), or `rated_needs_account`: a rated table's seats are for signed-in accounts"),
                "404": error_response("No such table"),
                "409": error_response("`seat_taken`, `game_over`, or `already_seated`: the account holds a seat of this rated table already"),
                "415": error_response("`unsupported_media_type`")
            }
        }},
        "/api/tables/{id}/actions": { "post": {
            "summary": "Play an action for the seat of the token",
            "description": "The action must be based on the table's current version. The server stores the action (and the chance and forced actions that follow it) before it answers or tells anyone; on any error nothing changes.",
            "operationId": "act",
            "parameters": [table_id()],
            "security": [{ "seatToken": [] }],
            "requestBody": body("Act"),
            "responses": {
                "200": ok("The new version, the actions applied (the player's, then chance and forced ones), and the seat's new view", "Acted"),
                "400": error_response("`bad_json` (malformed body) or `bad_action` (not an action of this game in notation or JSON)"),
                "401": error_response("No or an unknown seat token (`unauthorized`)"),
                "404": error_response("No such table"),
                "409": error_response("`stale_version` (with the current `version`), `not_your_turn` or `game_over`"),
                "413": error_response("`too_large`"),
                "415": error_response("`unsupported_media_type`"),
                "422": error_response("A well-formed action that is not legal now (`illegal_action`)"),
                "429": error_response("`rate_limited`"),
                "503": error_response("`unavailable`: shutting down or the database failed; nothing was changed")
            }
        }},
        "/api/tables/{id}/record": { "get": {
            "summary": "The game's record (every action with chance outcomes, seats, result)",
            "description": "For games with hidden information, only when the game is over; for the others at any time.",
            "operationId": "getRecord",
            "parameters": [table_id()],
            "responses": {
                "200": ok("The record in the engine's record format, with `finished`, `version`, `ending` and `dice` (the server seed once the table is over)", "Record"),
                "404": error_response("No such table"),
                "409": error_response("`not_finished` (hidden information)")
            }
        }},
        "/api/tables/{id}/ws": { "get": {
            "summary": "The table's WebSocket of versioned events (see docs/server.md)",
            "description": "Upgrade to a WebSocket, then send `{\"type\":\"hello\",\"token\":TOKEN|null,\"since\":VERSION|null}`. The server answers `welcome`, then the events after `since` or a full `sync`, then every new `event` (and `seats` when someone joins, `rematch`, and `{\"type\":\"ai_failed\",\"table\",\"version\",\"seat\"}` when an AI seat failed to move five times and stopped), each filtered for the viewer. On a table with a clock, `welcome`, `sync`, `seats` and `event` carry `clock` (see the Clock schema): the clocks as of that message.",
            "operationId": "tableEvents",
            "parameters": [table_id()],
            "responses": { "101": { "description": "Switching to the WebSocket protocol" }, "404": error_response("No such table"),
                "403": error_response("`forbidden`: the `Origin` is another site's (neither the request's `Host` nor a public origin of the server)"),
                "429": error_response("`rate_limited`: as many viewers from this client (address or IPv6 network) as allowed"),
                "503": error_response("`unavailable`: as many viewers of this table, or on the server, as allowed") }
        }},
        "/api/tables/{id}/resign": { "post": {
            "summary": "Resign: the token's seat gives up the game or the match",
            "description": "What a resignation pays is the game's rule: in Tawla and backgammon `single`, `gammon` or (backgammon) `backgammon` give the other that many times the cube and a match goes on; `match` (the default) gives up the whole match or game. In High-O Gammon and Tric-Trac the resigner leaves as a dropper does and the others play on; in Stortok the resigner is the stortok; in Stumphög and Läger the other wins. The resignation is an action of the record (`resign:<seat>:<kind>`); a table whose game it ends gets `ending.reason = resigned`.",
            "operationId": "resign",
            "parameters": [table_id()],
            "security": [{ "seatToken": [] }],
            "requestBody": body("Resign"),
            "responses": {
                "200": ok("The table as the seat sees it, with `ending`", "Table"),
                "401": error_response("No or an unknown seat token"),
                "404": error_response("No such table"),
                "409": error_response("`game_over`"),
                "415": error_response("`unsupported_media_type`")
            }
        }},
        "/api/tables/{id}/close": { "post": {
            "summary": "Close a table that has not started (every seat not yet taken), for the player who created it",
            "operationId": "closeTable",
            "parameters": [table_id(), player_key()],
            "requestBody": body("Empty"),
            "responses": {
                "200": ok("The table, with `ending`", "Table"),
                "400": error_response("No or a malformed key (`bad_request`)"),
                "403": error_response("`forbidden`: not the creator's key"),
                "404": error_response("No such table"),
                "409": error_response("`started` or `game_over`"),
                "415": error_response("`unsupported_media_type`")
            }
        }},
        "/api/tables/{id}/rematch": { "post": {
            "summary": "The rematch of a finished table, for the token's seat",
            "description": "The first player of the table who asks makes it: the same game, options and rules, the AI seats filled again, the people's seats open but kept for the players of this table (each joins its own seat number with `rematch_token`, its token here; no invite links). Asked again, by anyone of the table, it answers the same table. The table's WebSocket viewers (seats and spectators) get `{\"type\":\"rematch\",\"table\",\"rematch\",\"by\"}`, and the table's body says `rematch`. Its creator is the account of the session cookie, or else the body's `player` key.",
            "operationId": "rematch",
            "parameters": [table_id()],
            "security": [{ "seatToken": [] }],
            "requestBody": body("Rematch"),
            "responses": {
                "200": ok("The rematch made before", "RematchMade"),
                "201": ok("The rematch, made now", "RematchMade"),
                "400": error_response("`bad_json`, or `bad_request`: the table never started"),
                "401": error_response("No or an unknown seat token"),
                "404": error_response("No such table"),
                "409": error_response("`not_finished`"),
                "415": error_response("`unsupported_media_type`"),
                "429": error_response("`rate_limited` or `too_many_tables`")
            }
        }},
        "/api/tables/{id}/seat-link": { "get": {
            "summary": "A link that continues the token's seat on another device (the token in the link's fragment)",
            "operationId": "seatLink",
            "parameters": [table_id()],
            "security": [{ "seatToken": [] }],
            "responses": {
                "200": { "description": "The link", "content": { "application/json": { "schema": {
                    "type": "object", "required": ["seat", "url"],
                    "properties": { "seat": { "type": "integer" }, "url": { "type": "string", "example": "/t/0123456789abcdef01234567?seat=1#token=TOKEN" } }
                } } } },
                "401": error_response("No or an unknown seat token"),
                "404": error_response("No such table")
            }
        }},
        "/api/players/me/tables": { "get": {
            "summary": "A player's unfinished tables (where he sits or that he created)",
            "operationId": "playerTables",
            "parameters": [player_key()],
            "responses": {
                "200": { "description": "The tables", "content": { "application/json": { "schema": {
                    "type": "object", "properties": { "tables": { "type": "array", "items": { "$ref": "#/components/schemas/PlayerTable" } } }
                } } } },
                "400": error_response("No or a malformed key (`bad_request`)")
            }
        }}
    })
}

fn schemas() -> Value {
    let mut schemas = table_schemas();
    schemas["Health"] = health_schema();
    if let (Some(all), Value::Object(more)) = (schemas.as_object_mut(), rematch_schemas()) {
        all.extend(more);
    }
    if let (Some(all), Value::Object(more)) =
        (schemas.as_object_mut(), super::openapi_accounts::schemas())
    {
        all.extend(more);
    }
    schemas["Seat"]["properties"]["account"] = json!({ "type": "string",
        "description": "The account that took the seat (`deleted player` once deleted); absent for guests." });
    if let (Some(all), Value::Object(more)) =
        (schemas.as_object_mut(), super::openapi_ratings::schemas())
    {
        all.extend(more);
    }
    if let (Some(all), Value::Object(more)) =
        (schemas.as_object_mut(), super::openapi_lobby::schemas())
    {
        all.extend(more);
    }
    schemas["Seat"]["properties"]["rating"] = json!({ "$ref": "#/components/schemas/SeatRating" });
    schemas["Table"]["properties"]["rated"] = json!({ "type": "boolean",
        "description": "Whether the game is rated: every seat an account, rated in its pool when it ends." });
    for listed in ["ListedTable", "PlayerTable"] {
        schemas[listed]["properties"]["rated"] = json!({ "type": "boolean",
            "description": "Whether the game is rated (never a casual game)." });
    }
    schemas["CreateTable"]["properties"]["rated"] = json!({ "type": "boolean", "default": false,
        "description": "A rated table: needs a signed-in creator, every seat `open`, and a game with a rating pool (`GET /api/ratings`); only signed-in accounts may join it, each once." });
    schemas["Table"]["properties"]["rematch"] = json!({ "type": ["string", "null"],
        "description": "The rematch of this finished table, once asked for." });
    schemas["Table"]["properties"]["rematch_of"] = json!({ "type": ["string", "null"],
        "description": "The finished table this one is the rematch of: its open seats are kept for that table's players." });
    super::openapi_clocks::extend(&mut schemas);
    schemas["Join"]["properties"]["rematch_token"] = json!({ "type": "string",
        "description": "At a rematch: the player's seat token at the finished table (`rematch_of`), which keeps the same seat number here for him." });
    schemas
}

/// The bodies of `POST /api/tables/{id}/resign` and `/rematch`.
fn rematch_schemas() -> Value {
    json!({
        "Resign": { "type": "object", "additionalProperties": false,
            "properties": { "kind": { "type": "string", "enum": ["single", "gammon", "backgammon", "match"], "default": "match",
                "description": "What the seat gives up (see the route)." } } },
        "Rematch": {
            "type": "object", "additionalProperties": false,
            "properties": { "player": { "type": "string", "minLength": 16, "maxLength": 128, "description": "The player's key: the rematch is his (to close) and in his list of tables." } }
        },
        "RematchMade": {
            "type": "object", "required": ["table", "rematch", "seat"], "additionalProperties": false,
            "properties": {
                "table": { "type": "string", "description": "The finished table." },
                "rematch": { "type": "string", "description": "The rematch's id: join it with `rematch_token`." },
                "seat": { "type": "integer", "description": "The seat kept for the player who asked." }
            }
        }
    })
}

/// What `GET /api/health` answers.
fn health_schema() -> Value {
    json!({
        "type": "object", "required": ["ok", "version", "live_tables", "database", "stopping"],
        "properties": {
            "ok": { "type": "boolean", "description": "Whether the node serves (the status is 200 exactly then)." },
            "version": { "type": "string" },
            "live_tables": { "type": "integer", "description": "Tables in this node's memory." },
            "database": { "type": "string", "enum": ["ok", "failing"], "description": "Whether the last write or probe (each second) committed." },
            "notifications": { "type": "string", "enum": ["ok", "down"], "description": "Several nodes only: whether table notifications arrive." },
            "forwarded": { "type": "integer", "description": "Several nodes only: requests this node forwarded to a table's owner node (a second hop) since it started." },
            "notices": { "type": "integer", "description": "Several nodes only: changes of tables this node holds in memory announced to it by the database since it started (its own writes included)." },
            "route": { "type": "string", "description": "The node's route (`--route`), if it has one." },
            "stopping": { "type": "boolean", "description": "Whether the node is shutting down." }
        }
    })
}

fn table_schemas() -> Value {
    json!({
        "Error": {
            "type": "object", "required": ["error"],
            "properties": { "error": { "type": "object", "required": ["code", "message"], "properties": {
                "code": { "type": "string", "enum": ["bad_json", "bad_request", "unknown_game", "bad_option", "bad_action",
                    "unauthorized", "not_found", "stale_version", "not_your_turn", "game_over", "seat_taken",
                    "not_finished", "illegal_action", "too_large", "rate_limited", "unavailable", "internal",
                    "unsupported_media_type", "request_timeout", "forbidden", "started", "too_many_tables",
                    "hints_busy", "bad_login", "not_signed_in", "name_taken", "rated_needs_account",
                    "already_seated", "not_rateable", "seek_gone", "own_seek", "already_accepted",
                    "bad_clock"] },
                "message": { "type": "string", "description": "For people; never internal or database detail." },
                "version": { "type": "integer", "description": "With `stale_version`: the table's current version." }
            } } }
        },
        "OptionSpec": {
            "type": "object", "required": ["key", "default", "kind", "help"],
            "properties": {
                "key": { "type": "string" }, "default": { "type": "string" }, "help": { "type": "string" },
                "kind": { "type": "string", "enum": ["choice", "int"] },
                "values": { "type": "array", "items": { "type": "string" }, "description": "For `choice`." },
                "min": { "type": "integer", "description": "For `int`." }, "max": { "type": "integer", "description": "For `int`." }
            }
        },
        "Game": {
            "type": "object", "required": ["id", "name", "summary", "players", "hidden_information", "options", "agents"],
            "properties": {
                "id": { "type": "string" }, "name": { "type": "string" }, "summary": { "type": "string" },
                "players": { "type": "object", "properties": { "min": { "type": "integer" }, "max": { "type": "integer" } } },
                "hidden_information": { "type": "boolean" },
                "options": { "type": "array", "items": { "$ref": "#/components/schemas/OptionSpec" } },
                "agents": { "type": "array", "items": { "type": "string" }, "description": "The AI seats offered: `ai:easy`, `ai:medium`, `ai:hard`, `ai:expert`, `ai:random`." },
                "rules": { "type": "string", "description": "Markdown; only from /api/games/{game}." }
            }
        },
        "CreateTable": {
            "type": "object", "required": ["game"], "additionalProperties": false,
            "properties": {
                "game": { "type": "string", "example": "tawla" },
                "options": { "type": "object", "additionalProperties": { "type": ["string", "integer"] }, "description": "Option values; the rest take their defaults." },
                "seats": { "type": "array", "items": { "type": "string" }, "example": ["open", "ai:random"],
                    "description": "One per seat: `open` for a person, or an AI seat (`ai:easy`, `ai:medium`, `ai:hard`, `ai:expert`, `ai:random`). Default: all open." },
                "auto_forced": { "type": "boolean", "default": true, "description": "Whether the server plays an action by itself when it is the only legal one (forced moves, passes). AI seats always do. Never in games with hidden information (STO-5)." },
                "player": { "type": "string", "minLength": 16, "maxLength": 128, "description": "The creator's secret player key, to find the table again with /api/players/me/tables and to close it." },
                "inactivity": { "$ref": "#/components/schemas/Inactivity" },
                "listed": { "type": "boolean", "default": false, "description": "Show the table in the lobby's lists (`GET /api/tables`): anyone may then take an open seat, or watch." }
            }
        },
        "Inactivity": {
            "type": "object", "required": ["seconds", "then"], "additionalProperties": false,
            "description": "A seat to move that does nothing for `seconds` forfeits (`forfeit`) or is played on by `ai:medium` (`ai`); a table still waiting for players after `seconds` without a change is abandoned. Default: 86400 seconds, forfeit.",
            "properties": { "seconds": { "type": "integer", "minimum": 1, "maximum": 2592000 },
                "then": { "type": "string", "enum": ["forfeit", "ai"] } }
        },
        "Ending": {
            "type": ["object", "null"], "required": ["reason", "seat", "returns"],
            "description": "How the table ended before its game was played out (null otherwise).",
            "properties": { "reason": { "type": "string", "enum": ["resigned", "forfeit", "closed", "abandoned"] },
                "seat": { "type": ["integer", "null"] }, "returns": { "type": ["array", "null"], "items": { "type": "number" } } }
        },
        "Dice": {
            "type": ["object", "null"], "required": ["scheme", "table", "commitment", "server_seed", "seat_seeds"],
            "description": "The dice commitment (see docs/server.md); null in a game without chance (Läger) and for tables of older servers.",
            "properties": { "scheme": { "type": "string", "enum": ["spelbord-dice-v1"] }, "table": { "type": "string" },
                "commitment": { "type": "string", "description": "SHA-256 of the server seed, in hexadecimal." },
                "server_seed": { "type": ["string", "null"], "description": "The server seed in hexadecimal, once the table is over." },
                "seat_seeds": { "type": "array", "items": { "type": "string" } } }
        },
        "Empty": { "type": "object", "additionalProperties": false },
        "ChanceOutcomes": {
            "type": "array", "description": "At a chance action: every possible outcome with its probability, in the engine's order (for checking the dice).",
            "items": { "type": "object", "properties": { "text": { "type": "string" }, "p": { "type": "number" } } }
        },
        "Join": {
            "type": "object", "additionalProperties": false,
            "properties": {
                "seat": { "type": "integer", "minimum": 0, "description": "Default: the first open seat." },
                "name": { "type": "string", "maxLength": 40, "description": "No control, invisible or direction characters." },
                "player": { "type": "string", "minLength": 16, "maxLength": 128 },
                "key": { "type": "string", "minLength": 16, "maxLength": 128, "description": "Idempotency key: the same join sent again returns the same seat and token. Keep it secret: the token is derived from it." },
                "seed": { "type": "string", "pattern": "^[0-9A-Za-z_-]{1,64}$", "description": "The seat's own dice seed (public)." }
            }
        },
        "Joined": {
            "type": "object", "required": ["table", "seat", "token", "invites", "ws", "view"],
            "properties": {
                "table": { "type": "string" }, "seat": { "type": "integer" },
                "token": { "type": "string", "description": "The seat's secret token: send it as `Authorization: Bearer TOKEN`." },
                "invites": { "$ref": "#/components/schemas/Invites" },
                "ws": { "type": "string" }, "view": { "$ref": "#/components/schemas/Table" }
            }
        },
        "Invites": { "type": "array", "items": { "type": "object", "properties": {
            "seat": { "type": "integer" }, "url": { "type": "string", "example": "/t/0123456789abcdef01234567?seat=1" } } } },
        "Seat": {
            "type": "object", "required": ["seat", "kind"],
            "properties": { "seat": { "type": "integer" }, "kind": { "type": "string", "enum": ["open", "human", "ai"] },
                "name": { "type": ["string", "null"] }, "agent": { "type": "string" } }
        },
        "Turn": {
            "type": "object", "required": ["kind"],
            "properties": { "kind": { "type": "string", "enum": ["player", "chance", "over"] }, "seat": { "type": "integer" } }
        },
        "ActionInfo": {
            "type": "object", "properties": { "text": { "type": "string", "description": "The action in the game's notation." },
                "json": { "description": "The action as the game's JSON." } }
        },
        "GameEvent": {
            "type": "object",
            "properties": {
                "kind": { "type": "string" },
                "fields": { "type": "object" },
                "text": { "type": "string", "description": "In English." }
            }
        },
        "State": {
            "type": "object", "required": ["version", "turn", "observation", "text"],
            "properties": {
                "version": { "type": "integer", "description": "The number of actions so far." },
                "turn": { "$ref": "#/components/schemas/Turn" },
                "observation": { "description": "What the viewer may see, as the game's JSON observation." },
                "text": { "type": "string", "description": "The game's text drawing for the viewer." },
                "legal": { "type": "array", "items": { "$ref": "#/components/schemas/ActionInfo" }, "description": "Only when it is the viewer's turn." },
                "steps": { "type": "object", "description": "Tables games, with `legal`: the legal plays made step by step (`boards`, `moves` {at, from, to, die, next}, `ends` {at, action})." },
                "returns": { "type": "array", "items": { "type": "number" }, "description": "Only when the game is over." },
                "outcome": { "$ref": "#/components/schemas/Outcome", "description": "Only when the game is over." }
            }
        },
        "Outcome": {
            "type": ["object", "null"], "required": ["result", "places", "ending"],
            "description": "Who won (or the ranking, or a draw) and how; null before the end.",
            "properties": {
                "result": { "type": "string", "enum": ["win", "loss", "ranking", "draw"], "description": "win: one player first (even a win paying 0 points); loss: one player last, the others share first (the stortok); draw: everyone shares first." },
                "winner": { "type": ["integer", "null"], "description": "The seat alone in first place, if any." },
                "loser": { "type": ["integer", "null"], "description": "The seat alone in last place, if any." },
                "places": { "type": "array", "items": { "type": "integer" }, "description": "Each seat's place, 0 first; equal places are ties." },
                "ending": { "type": "string", "description": "How the game ended in its own terms, e.g. gammon, mother, dried_out, camp, stortok, borne_off." }
            }
        },
        "Table": {
            "type": "object",
            "required": ["id", "game", "options", "status", "seats", "invites", "viewer", "version", "state"],
            "properties": {
                "id": { "type": "string" }, "game": { "type": "string" },
                "options": { "type": "object", "additionalProperties": { "type": "string" } },
                "auto_forced": { "type": "boolean" }, "hidden_information": { "type": "boolean" },
                "status": { "type": "string", "enum": ["waiting", "playing", "finished"] },
                "seats": { "type": "array", "items": { "$ref": "#/components/schemas/Seat" } },
                "invites": { "$ref": "#/components/schemas/Invites" },
                "viewer": { "description": "`{\"seat\": N}` or `\"spectator\"`." },
                "version": { "type": "integer" }, "created_at": { "type": "integer" }, "updated_at": { "type": "integer" },
                "ws": { "type": "string" }, "state": { "$ref": "#/components/schemas/State" },
                "ending": { "$ref": "#/components/schemas/Ending" },
                "inactivity": { "$ref": "#/components/schemas/Inactivity" },
                "dice": { "$ref": "#/components/schemas/Dice" }
            }
        },
        "Act": {
            "type": "object", "required": ["version"], "additionalProperties": false,
            "description": "Exactly one of `action` and `json`.",
            "properties": {
                "version": { "type": "integer", "description": "The table version the action is based on." },
                "action": { "type": "string", "maxLength": 500, "description": "The action in the game's notation." },
                "json": { "description": "The action as the game's JSON (as in `legal[].json`)." }
            }
        },
        "AppliedAction": {
            "type": "object", "required": ["seat", "auto", "hidden", "version"],
            "properties": {
                "version": { "type": "integer" }, "seat": { "type": ["integer", "null"], "description": "null for chance." },
                "auto": { "type": "boolean" }, "hidden": { "type": "boolean", "description": "A chance action of a hidden-information game: no text." },
                "text": { "type": "string" }, "json": {},
                "boards": { "$ref": "#/components/schemas/PlayBoards" }
            }
        },
        "PlayBoards": {
            "type": "array", "items": { "type": "object" },
            "description": "A play of steps (the tables games): the positions it passed through as the engine drew them, in the observation's own form (Tawla and backgammon: its `board`, with `pips`), the position before it first, then the one after each step."
        },
        "Acted": {
            "type": "object", "required": ["version", "actions", "state"],
            "properties": {
                "version": { "type": "integer" },
                "actions": { "type": "array", "items": { "$ref": "#/components/schemas/AppliedAction" } },
                "state": { "$ref": "#/components/schemas/State" }
            }
        },
        "Record": {
            "type": "object", "required": ["format", "game", "actions"],
            "properties": {
                "format": { "type": "integer" }, "game": { "type": "string" },
                "options": { "type": "object" }, "players": { "type": "array", "items": { "type": "string" } },
                "actions": { "type": "array", "items": { "type": "string" } },
                "result": { "type": "array", "items": { "type": "number" } },
                "outcome": { "$ref": "#/components/schemas/Outcome" },
                "finished": { "type": "boolean" }, "version": { "type": "integer" },
                "ending": { "$ref": "#/components/schemas/Ending" },
                "dice": { "$ref": "#/components/schemas/Dice" }
            }
        },
        "PlayerTable": {
            "type": "object",
            "properties": {
                "id": { "type": "string" }, "game": { "type": "string" }, "status": { "type": "string" },
                "version": { "type": "integer" }, "seats": { "type": "array", "items": { "$ref": "#/components/schemas/Seat" } },
                "your_seats": { "type": "array", "items": { "type": "integer" } }, "your_turn": { "type": "boolean" },
                "created": { "type": "boolean" }, "updated_at": { "type": "integer" },
                "inactivity": { "$ref": "#/components/schemas/Inactivity" }
            }
        },
        "ListedTable": {
            "type": "object", "required": ["id", "game", "options", "status", "version", "seats", "updated_at", "inactivity"],
            "properties": {
                "id": { "type": "string" }, "game": { "type": "string" },
                "options": { "type": "object", "additionalProperties": { "type": "string" } },
                "status": { "type": "string" }, "version": { "type": "integer" },
                "seats": { "type": "array", "items": { "$ref": "#/components/schemas/Seat" } },
                "updated_at": { "type": "integer" },
                "inactivity": { "$ref": "#/components/schemas/Inactivity" }
            }
        }
    })
}

/// The routes the browser client uses besides the table API: the replay of
/// a game and the AI's hints.
fn with_client_paths(mut paths: Value) -> Value {
    paths["/api/tables/{id}/replay"] = replay_path();
    paths["/api/tables/{id}/hints"] = hints_path();
    paths["/api/hints"] = position_hints_path();
    paths["/api/tables/{id}/analysis"] = analysis_path();
    paths
}

/// The schema of a game's analysis (`spelbord_ai::analysis::Analysis`, see docs/ai.md).
fn analysis_schema() -> Value {
    let number = json!({ "type": "number" });
    let maybe = json!({ "type": ["number", "null"] });
    let int = json!({ "type": "integer" });
    let unit =
        json!({ "type": "string", "enum": ["equity", "match_winning_chance", "win_chance"] });
    json!({
        "type": "object",
        "description": "Every decision rated by the analyser, the luck of every roll, and per player the error rates, marks and a luck-adjusted result (docs/ai.md, Game analysis).",
        "required": ["game", "analyser", "judge", "unit", "thresholds", "cube", "decisions", "rolls", "players"],
        "properties": {
            "game": { "type": "string" },
            "analyser": { "type": "string", "description": "The judge as an agent spec (for reproducing it; `judge` says it in words)." },
            "judge": { "type": "string", "enum": ["deep", "quick", "custom"], "description": "Who judged, in a player's words: the computer, deep (the default, deeper than every level) or quick." },
            "cube": { "type": "boolean", "description": "Whether the game had cube decisions." },
            "unit": unit,
            "thresholds": { "type": "array", "items": number, "description": "The losses from which a decision is doubtful, bad and very bad, in `unit`." },
            "decisions": { "type": "array", "items": { "type": "object", "properties": {
                "index": { "type": "integer", "description": "The action's place in the record: the position before it is the replay's step `index`." },
                "player": int, "cube": { "type": "boolean" }, "choices": int,
                "played": { "type": "string" }, "best": { "type": "string" },
                "played_rating": maybe, "best_rating": maybe, "unit": unit, "loss": maybe,
                "mark": { "type": ["string", "null"], "enum": ["doubtful", "bad", "very_bad"] },
                "chance": { "type": ["number", "null"], "description": "The mover's chance to win (0..1) after the action played." }
            } } },
            "rolls": { "type": "array", "items": { "type": "object", "properties": {
                "index": int, "roll": { "type": "string" }, "roller": { "type": ["integer", "null"] },
                "before": number, "after": number, "luck": { "type": "array", "items": number },
                "shared": { "type": "boolean", "description": "Every player rolled (the opening roll): `luck` is each player's." }
            } } },
            "players": { "type": "array", "items": { "type": "object", "properties": {
                "player": int, "name": { "type": "string" },
                "colour": { "type": ["string", "null"], "description": "The seat's colour where the game gives one (High-O Gammon, Tric-Trac)." },
                "moves": int, "move_loss": number,
                "move_error_rate": number, "cube_decisions": int, "cube_loss": number,
                "cube_error_rate": number, "doubtful": int, "bad": int, "very_bad": int,
                "luck": maybe, "score": maybe, "points": maybe,
                "luck_adjusted_score": { "type": ["number", "null"], "description": "The score less the luck, within 0..1." }
            } } }
        }
    })
}

/// `/api/tables/{id}/analysis`.
fn analysis_path() -> Value {
    let answer = |description: &str| {
        json!({ "description": description, "content": { "application/json": { "schema": {
        "type": "object", "required": ["status"],
        "properties": {
            "status": { "type": "string", "enum": ["none", "queued", "running", "failed", "done"] },
            "version": { "type": "integer", "description": "The table's version analysed (with `done`)." },
            "analysis": analysis_schema()
        }
    } } } })
    };
    json!({
        "post": {
            "summary": "Ask for the computer's analysis of a finished game",
            "description": "Queues the game on the server's analysis pool (a few workers off the request path, a bounded queue); asking again answers where it stands. Poll the GET until `status` is `done`.",
            "operationId": "requestAnalysis",
            "parameters": [table_id()],
            "requestBody": { "required": true, "content": { "application/json": { "schema": {
                "type": "object",
                "properties": { "thresholds": { "type": "array", "items": { "type": "number" }, "minItems": 3, "maxItems": 3,
                    "description": "The losses from which a move is doubtful, bad and very bad (default GNU Backgammon 1.07's: 0.03, 0.06, 0.12)." } }
            } } } },
            "responses": {
                "200": answer("Analysed already: `done` with the analysis"),
                "202": answer("`queued` or `running`"),
                "400": error_response("`bad_request`: `thresholds` are not three positive, rising numbers"),
                "404": error_response("No such table"),
                "409": error_response("`not_finished`: the game is not over"),
                "415": error_response("`unsupported_media_type`"),
                "429": error_response("`analysis_busy`: the queue is full, or `rate_limited`")
            }
        },
        "get": {
            "summary": "Where the analysis of a game stands, and the analysis once done",
            "description": "`none` (never asked for here), `queued`, `running`, `failed` (ask again) or `done` with `version` and `analysis`. Analyses are stored with the table.",
            "operationId": "getAnalysis",
            "parameters": [table_id(), {
                "name": "thresholds", "in": "query", "required": false,
                "schema": { "type": "string", "example": "0.03,0.06,0.12" },
                "description": "Mark the moves with these losses for doubtful, bad and very bad instead of GNU Backgammon 1.07's."
            }],
            "responses": {
                "200": answer("Its status"),
                "400": error_response("`bad_request`: `thresholds` are not three positive, rising numbers"),
                "404": error_response("No such table")
            }
        }
    })
}

/// The schema of a list of hints.
fn hint_list() -> Value {
    json!({ "type": "array", "items": {
        "type": "object",
        "properties": {
            "text": { "type": "string" }, "json": {},
            "estimate": { "type": "number" }, "confidence": { "type": "number" },
            "margin": { "type": ["number", "null"] }, "samples": { "type": "integer" },
            "equity": hint_equity()
        }
    } })
}

/// `GET /api/hints`.
fn position_hints_path() -> Value {
    json!({ "get": {
        "summary": "The AI's best moves in a position given as text",
        "description": "No table or token needed. The position is in the game's position notation (docs/engine.md), in backgammon also GNU Backgammon's `POSITIONID:MATCHID` (the dice or a cube decision in the match ID; a position ID alone is a cubeless money position before the roll, with nothing to decide). URL-encode it (`+` and `/` occur in IDs). The hints are as those of `/api/tables/{id}/hints`, from the same bounded searches.",
        "operationId": "getPositionHints",
        "parameters": [
            { "name": "game", "in": "query", "required": false,
              "description": "The game's id (default `backgammon`).", "schema": { "type": "string" } },
            { "name": "position", "in": "query", "required": true,
              "description": "The position, at most 400 characters.", "schema": { "type": "string", "maxLength": 400 } }
        ],
        "responses": {
            "200": { "description": "The hints", "content": { "application/json": { "schema": {
                "type": "object", "required": ["game", "position", "player", "hints"],
                "properties": {
                    "game": { "type": "string" },
                    "position": { "type": "string", "description": "The position in the game's own notation." },
                    "player": { "type": "integer", "description": "The player to move." },
                    "hints": hint_list()
                }
            } } } },
            "400": error_response("`unknown_game`, or `bad_request`: the position cannot be read, or nobody is to move in it"),
            "429": error_response("`hints_busy`: this address has 4 hint requests waiting or running already, or this one waited 30 s for the AI workers (shared fairly across addresses); or `rate_limited`")
        }
    }})
}

/// `GET /api/tables/{id}/replay`.
fn replay_path() -> Value {
    let mut path = replay_answer();
    path["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["steps"]
        ["items"]["properties"]["json"] =
        json!({ "description": "The action as the game's JSON (absent at the start)." });
    path
}

/// `GET /api/tables/{id}/replay`, but for each step's `json`.
fn replay_answer() -> Value {
    json!({ "get": {
        "summary": "Every position of the game with the action that led to it (the browser's replay view)",
        "description": "Steps from the start (version 0) to now, each with the action, its events and the state as `seat` (or a spectator) sees it. For games with hidden information, only when the game is over.",
        "operationId": "getReplay",
        "parameters": [table_id(), {
            "name": "seat", "in": "query", "required": false,
            "description": "Whose view to show (default: a spectator's).",
            "schema": { "type": "integer", "minimum": 0 }
        }],
        "responses": {
            "200": { "description": "The steps", "content": { "application/json": { "schema": {
                "type": "object", "required": ["game", "steps"],
                "properties": {
                    "table": { "type": "string" }, "game": { "type": "string" },
                    "options": { "type": "object" }, "players": { "type": "array", "items": { "type": "string" } },
                    "seats": { "type": "array", "items": { "type": "object" } },
                    "result": { "type": ["array", "null"], "items": { "type": "number" } },
                    "finished": { "type": "boolean" },
                    "outcome": { "$ref": "#/components/schemas/Outcome" },
                    "dice": { "$ref": "#/components/schemas/Dice" },
                    "ending": { "$ref": "#/components/schemas/Ending" },
                    "steps": { "type": "array", "items": {
                        "type": "object",
                        "properties": {
                            "version": { "type": "integer" }, "seat": { "type": ["integer", "null"] },
                            "auto": { "type": "boolean" }, "text": { "type": ["string", "null"] },
                            "events": { "type": "array", "items": { "$ref": "#/components/schemas/GameEvent" } },
                            "boards": { "$ref": "#/components/schemas/PlayBoards" },
                            "state": { "$ref": "#/components/schemas/State" },
                            "chance": { "$ref": "#/components/schemas/ChanceOutcomes" }
                        }
                    } }
                }
            } } } },
            "400": error_response("No such seat"),
            "404": error_response("No such table"),
            "409": error_response("`not_finished` (hidden information)")
        }
    }})
}

/// `GET /api/tables/{id}/hints`.
fn hints_path() -> Value {
    json!({ "get": {
        "summary": "The AI's best moves for the caller's seat, with their chances",
        "description": "Needs the seat's token, and the seat must be to move. Up to five actions, best first, each with `estimate` (the mover's estimated chance to win after it, 0..1), `confidence` (0..1), `margin`, `samples` and `equity` (backgammon: the value in points with the chances of each result). The search takes under a second; one runs at a time per table, and a few at a time on the server.",
        "operationId": "getHints",
        "security": [{ "seatToken": [] }],
        "parameters": [table_id()],
        "responses": {
            "200": { "description": "The hints", "content": { "application/json": { "schema": {
                "type": "object", "required": ["version", "hints"],
                "properties": {
                    "version": { "type": "integer" },
                    "hints": hint_list()
                }
            } } } },
            "401": error_response("No valid seat token"),
            "404": error_response("No such table"),
            "409": error_response("`not_your_turn` or `game_over`"),
            "429": error_response("`hints_busy`: a hint for this table is being computed, this address has 4 hint requests waiting or running already, or this one waited 30 s for the AI workers (shared fairly across addresses)")
        }
    }})
}

/// The OpenAPI document.
pub fn openapi() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "spelbord play server",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Tables for every spelbord game over HTTP and WebSocket. The WebSocket protocol (events, reconnecting) is described in docs/server.md."
        },
        "paths": with_wrong_host(with_client_paths(with_accounts(paths()))),
        "components": {
            "schemas": schemas(),
            "securitySchemes": { "seatToken": { "type": "http", "scheme": "bearer",
                "description": "The secret seat token returned by /join." } }
        }
    })
}

/// Adds `421 wrong_host` to every operation but the health check: with
/// public origins set (`--public-origin`), a request naming another `Host`
/// is refused.
fn with_wrong_host(mut paths: Value) -> Value {
    let Some(paths_map) = paths.as_object_mut() else {
        return paths;
    };
    for (path, item) in paths_map.iter_mut() {
        if path == "/api/health" {
            continue;
        }
        for operation in item
            .as_object_mut()
            .into_iter()
            .flat_map(|i| i.values_mut())
        {
            if let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            {
                responses.insert(
                    "421".into(),
                    error_response(
                        "`wrong_host`: the `Host` is not one of the server's public origins",
                    ),
                );
            }
        }
    }
    paths
}

/// Adds the account routes.
fn with_accounts(mut paths: Value) -> Value {
    for more in [
        super::openapi_accounts::paths(),
        super::openapi_ratings::paths(),
        super::openapi_lobby::paths(),
        super::openapi_clocks::paths(),
    ] {
        if let (Some(all), Value::Object(more)) = (paths.as_object_mut(), more) {
            all.extend(more);
        }
    }
    paths
}

/// `GET /api/openapi.json`.
pub async fn document() -> Json<Value> {
    Json(openapi())
}

/// The schema of a hint's equity (backgammon's network analyser).
fn hint_equity() -> Value {
    json!({
                                "type": ["object", "null"],
                                "description": "Where the analyser is a network (backgammon): `kind` is `cubeless` (a play: expected points, gammons and backgammons counted), `cubeful` (a cube action in a money game: points per cube value) or `match_winning_chance` (a cube action in a match, 0..1); `outcomes` gives the mover's chances after a play.",
                                "required": ["kind", "value", "outcomes"],
                                "properties": {
                                    "kind": { "type": "string", "enum": ["cubeless", "cubeful", "match_winning_chance"] },
                                    "value": { "type": "number" },
                                    "outcomes": {
                                        "type": ["object", "null"],
                                        "required": ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"],
                                        "properties": {
                                            "win": { "type": "number" }, "win_gammon": { "type": "number" },
                                            "win_backgammon": { "type": "number" }, "lose_gammon": { "type": "number" },
                                            "lose_backgammon": { "type": "number" }
                                        }
                                    }
                                }
    })
}
