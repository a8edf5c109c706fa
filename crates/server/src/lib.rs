#![forbid(unsafe_code)]
//! The spelbord play server: tables for every game over HTTP and WebSocket,
//! stored in SQLite (or PostgreSQL, for several nodes), with AI seats and
//! dice anyone can verify.
//!
//! Start it with `spelbord serve` (or the `spelbord-server` binary). The API
//! is described at `/api/openapi.json` and in `docs/server.md`.

pub mod accounts;
pub mod analysis;
pub mod api;
pub mod clock;
pub mod cluster;
pub mod dice;
pub mod error;
pub mod health;
pub mod hub;
pub mod limits;
pub mod listen;
pub mod lobby;
pub mod origin;
pub mod pairing;
pub mod pools;
pub mod rated;
pub mod rating;
pub mod serve;
pub mod store;
pub mod table;
pub mod thinking;
pub mod token;
pub mod view;
pub mod web;

pub use serve::{LogFormat, ServeArgs, run, serve};
