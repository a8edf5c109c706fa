//! Tests of `spelbord serve`: the real binary, real sockets on 127.0.0.1.

mod abuse;
mod accounts;
mod analysis;
mod claim;
mod clients;
mod clocks;
mod crash;
mod errors;
mod fairness;
mod faults;
mod games;
mod harness;
mod hidden;
mod life;
mod netns;
mod nodes;
mod openapi;
mod partitions;
mod protocol;
mod proxy;
mod ratings;
mod rematch;
mod routed;
mod seeks;
mod web;

/// A seed for the test's random choices: `SPELBORD_TEST_SEED` or a fresh
/// one, printed so that a failure can be replayed.
pub fn test_seed(name: &str) -> u64 {
    let seed = std::env::var("SPELBORD_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(rand::random);
    println!("{name}: SPELBORD_TEST_SEED={seed}");
    seed
}

/// Tests that load the machine (many clients, busy AI seats, several
/// nodes) hold this while they run, so that they never run beside each
/// other: on a 2-core machine one could starve another's viewers or its
/// measured replies. The others still run beside them.
pub async fn heavy() -> tokio::sync::MutexGuard<'static, ()> {
    static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    HEAVY.lock().await
}
