//! The account routes and schemas of the OpenAPI document.

use super::openapi::{body, error_response, ok};
use serde_json::{Value, json};

fn cookie_set(description: &str, schema: &str) -> Value {
    let mut answer = ok(description, schema);
    answer["headers"] = json!({ "Set-Cookie": { "schema": { "type": "string" },
        "description": "`spelbord_session=…; Path=/; HttpOnly; SameSite=Lax; Max-Age=…` (and `Secure` over HTTPS)" } });
    answer
}

fn cookie() -> Value {
    json!({ "name": "spelbord_session", "in": "cookie", "required": false,
        "description": "The session cookie set at sign-up and log-in.", "schema": { "type": "string" } })
}

const NOT_JSON: &str =
    "`unsupported_media_type`: the body is not declared as JSON (forms and plain text are refused)";

/// The account routes.
pub fn paths() -> Value {
    json!({
        "/api/accounts": { "post": {
            "summary": "Signs up: a new account and a session cookie",
            "operationId": "signUp",
            "requestBody": body("Credentials"),
            "responses": {
                "201": cookie_set("The account; the session cookie is set", "AccountAnswer"),
                "400": error_response("`bad_json`, or `bad_request`: the name (3 to 20 characters, letters, digits, `_`, `-`, `.`), the password (8 to 128 characters) or the `player` key (16 to 128 characters) is refused"),
                "409": error_response("`name_taken`: the name, the same ignoring case and NFKC, or one with confusable characters, is taken"),
                "415": error_response(NOT_JSON),
                "429": error_response("`rate_limited`: too many sign-ups or requests from this address")
            }
        }},
        "/api/session": {
            "post": {
                "summary": "Logs in: a session cookie",
                "operationId": "logIn",
                "requestBody": body("Credentials"),
                "responses": {
                    "200": cookie_set("The account; the session cookie is set", "AccountAnswer"),
                    "400": error_response("`bad_json`, or `bad_request`: a `player` key that is not 16 to 128 characters"),
                    "401": error_response("`bad_login`: an unknown name or a wrong password (the same answer)"),
                    "415": error_response(NOT_JSON),
                    "429": error_response("`rate_limited`: too many failed logins for this name or from this address")
                }
            },
            "get": {
                "summary": "Who is signed in",
                "operationId": "session",
                "parameters": [cookie()],
                "responses": { "200": ok("The account of the session cookie, or null", "Session") }
            },
            "delete": {
                "summary": "Logs out: ends this session (body `{}`)",
                "operationId": "logOut",
                "parameters": [cookie()],
                "requestBody": body("Empty"),
                "responses": {
                    "200": cookie_set("The session ended (0 if there was none); the cookie is removed", "SessionsEnded"),
                    "400": error_response("`bad_json`"),
                    "415": error_response(NOT_JSON)
                }
            }
        },
        "/api/session/logout-everywhere": { "post": {
            "summary": "Ends every session of the signed-in account (body `{}`)",
            "operationId": "logOutEverywhere",
            "parameters": [cookie()],
            "requestBody": body("Empty"),
            "responses": {
                "200": cookie_set("The sessions ended; the cookie is removed", "SessionsEnded"),
                "400": error_response("`bad_json`"),
                "401": error_response("`not_signed_in`"),
                "415": error_response(NOT_JSON)
            }
        }},
        "/api/account/password": { "post": {
            "summary": "Changes the password; every other session of the account ends",
            "operationId": "changePassword",
            "parameters": [cookie()],
            "requestBody": body("NewPassword"),
            "responses": {
                "200": ok("The other sessions ended", "SessionsEnded"),
                "400": error_response("`bad_json`, or `bad_request`: the new password is refused"),
                "401": error_response("`not_signed_in`, or `bad_login`: the old password is wrong"),
                "415": error_response(NOT_JSON),
                "429": error_response("`rate_limited`: too many wrong passwords")
            }
        }},
        "/api/account": { "delete": {
            "summary": "Deletes the signed-in account: its sessions, password hash and profile go; its seats show \"deleted player\"",
            "operationId": "deleteAccount",
            "parameters": [cookie()],
            "requestBody": body("Password"),
            "responses": {
                "200": cookie_set("Deleted; the cookie is removed", "Deleted"),
                "400": error_response("`bad_json`"),
                "401": error_response("`not_signed_in`, or `bad_login`: the password is wrong"),
                "415": error_response(NOT_JSON),
                "429": error_response("`rate_limited`: too many wrong passwords")
            }
        }}
    })
}

/// The account schemas.
pub fn schemas() -> Value {
    json!({
        "Account": {
            "type": "object", "required": ["name", "created_at"], "additionalProperties": false,
            "properties": { "name": { "type": "string" },
                "created_at": { "type": "integer", "description": "Unix seconds." } }
        },
        "AccountAnswer": {
            "type": "object", "required": ["account", "claimed"], "additionalProperties": false,
            "properties": { "account": { "$ref": "#/components/schemas/Account" },
                "claimed": { "type": "integer", "description": "The guest tables of the body's `player` key made the account's (0 without one)." } }
        },
        "Session": {
            "type": "object", "required": ["account"], "additionalProperties": false,
            "properties": { "account": { "type": ["object", "null"], "required": ["name", "created_at"],
                "properties": { "name": { "type": "string" }, "created_at": { "type": "integer" } } } }
        },
        "Credentials": {
            "type": "object", "required": ["name", "password"], "additionalProperties": false,
            "properties": { "name": { "type": "string" }, "password": { "type": "string" },
                "player": { "type": "string", "minLength": 16, "maxLength": 128,
                    "description": "A guest's player key: every table where a seat has it, and every table it created, becomes the account's." } }
        },
        "NewPassword": {
            "type": "object", "required": ["old", "new"], "additionalProperties": false,
            "properties": { "old": { "type": "string" }, "new": { "type": "string" } }
        },
        "Password": {
            "type": "object", "required": ["password"], "additionalProperties": false,
            "properties": { "password": { "type": "string" } }
        },
        "Empty": { "type": "object", "additionalProperties": false, "properties": {} },
        "SessionsEnded": {
            "type": "object", "required": ["sessions_ended"], "additionalProperties": false,
            "properties": { "sessions_ended": { "type": "integer" } }
        },
        "Deleted": {
            "type": "object", "required": ["deleted"], "additionalProperties": false,
            "properties": { "deleted": { "type": "boolean" } }
        }
    })
}
