//! The rating routes and schemas of the OpenAPI document.

use super::openapi::{error_response, ok};
use serde_json::{Value, json};

/// The rating routes (and the profile, which shows ratings).
pub fn paths() -> Value {
    json!({
        "/api/players/{name}": { "get": {
            "summary": "A player's public profile: ratings, rating history, latest games, tables in play",
            "operationId": "player",
            "parameters": [{ "name": "name", "in": "path", "required": true,
                "description": "The account name (case and NFKC variants find it).", "schema": { "type": "string" } }],
            "responses": {
                "200": ok("The profile", "Profile"),
                "404": error_response("`not_found`")
            }
        }},
        "/api/ratings": { "get": {
            "summary": "The rating pools: one rating per pool (a game with the options that change what a win means)",
            "operationId": "ratingPools",
            "responses": { "200": { "description": "The pools", "content": { "application/json": { "schema": {
                "type": "array", "items": { "$ref": "#/components/schemas/RatingPool" } } } } } }
        }},
        "/api/ratings/{pool}": { "get": {
            "summary": "A pool's leaderboard: the best 100 established accounts active in 90 days, and up to 100 provisional ones",
            "operationId": "leaderboard",
            "parameters": [{ "name": "pool", "in": "path", "required": true, "schema": { "type": "string" } }],
            "responses": {
                "200": ok("The leaderboard", "Leaderboard"),
                "404": error_response("`not_found`: no such pool")
            }
        }}
    })
}

fn leader(ranked: bool) -> Value {
    let mut required = vec!["name", "rating", "deviation", "games", "last_played"];
    let mut properties = json!({ "name": { "type": "string" }, "rating": { "type": "number" },
        "deviation": { "type": "number" }, "games": { "type": "integer" },
        "last_played": { "type": "integer", "description": "Unix seconds." } });
    if ranked {
        required.push("rank");
        properties["rank"] = json!({ "type": "integer", "minimum": 1 });
    }
    json!({ "type": "object", "required": required, "additionalProperties": false, "properties": properties })
}

/// The rating schemas.
pub fn schemas() -> Value {
    json!({
        "SeatRating": {
            "type": "object", "required": ["rating", "deviation", "provisional"], "additionalProperties": false,
            "description": "The seat's account's rating in the table's pool (rated tables, where the account has one).",
            "properties": { "rating": { "type": "number" }, "deviation": { "type": "number" },
                "provisional": { "type": "boolean", "description": "The deviation is above 110." } }
        },
        "RatingPool": {
            "type": "object", "required": ["pool", "game", "description", "players"], "additionalProperties": false,
            "properties": { "pool": { "type": "string", "example": "high-gammon-3-points" }, "game": { "type": "string" },
                "description": { "type": "string" }, "players": { "type": "integer" } }
        },
        "Leaderboard": {
            "type": "object", "required": ["pool", "players", "provisional"], "additionalProperties": false,
            "properties": { "pool": { "type": "string" },
                "players": { "type": "array", "items": leader(true), "description": "Deviation 110 or less, by rating." },
                "provisional": { "type": "array", "items": leader(false), "description": "Deviation above 110, by rating." } }
        },
        "Profile": {
            "type": "object", "required": ["name", "created_at", "ratings", "history", "games", "playing"],
            "additionalProperties": false,
            "properties": {
                "name": { "type": "string" },
                "created_at": { "type": "integer", "description": "Unix seconds." },
                "ratings": { "type": "object", "description": "Per pool.", "additionalProperties": {
                    "type": "object", "required": ["rating", "deviation", "volatility", "games", "provisional"],
                    "additionalProperties": false,
                    "properties": { "rating": { "type": "number" }, "deviation": { "type": "number" },
                        "volatility": { "type": "number" }, "games": { "type": "integer" }, "provisional": { "type": "boolean" } } } },
                "history": { "type": "object", "description": "Per pool, oldest first: the rating after each rated game.",
                    "additionalProperties": { "type": "array", "items": {
                        "type": "object", "required": ["at", "rating", "deviation", "table"], "additionalProperties": false,
                        "properties": { "at": { "type": "integer" }, "rating": { "type": "number" },
                            "deviation": { "type": "number" }, "table": { "type": "string" } } } } },
                "games": { "type": "array", "description": "The latest 50 finished games (rated or not), the latest first.",
                    "items": { "type": "object", "additionalProperties": false,
                        "required": ["table", "game", "pool", "finished_at", "seat", "opponents", "place", "players", "rating_change"],
                        "properties": { "table": { "type": "string" }, "game": { "type": "string" },
                            "pool": { "type": ["string", "null"], "description": "The pool of a rated game; null if unrated." },
                            "finished_at": { "type": "integer" }, "seat": { "type": "integer" },
                            "opponents": { "type": "array", "items": { "type": "string" } },
                            "place": { "type": ["integer", "null"], "minimum": 1, "description": "1 first; equal returns share a place." },
                            "players": { "type": "integer" },
                            "rating_change": { "type": ["number", "null"], "description": "Null if unrated (or not rated yet)." } } } },
                "playing": { "type": "array", "items": { "type": "object", "required": ["table", "game"],
                    "additionalProperties": false,
                    "properties": { "table": { "type": "string" }, "game": { "type": "string" } } } }
            }
        }
    })
}
