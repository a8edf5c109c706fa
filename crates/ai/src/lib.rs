#![forbid(unsafe_code)]
//! Game-playing agents for spelbord, generic over the engine API.
