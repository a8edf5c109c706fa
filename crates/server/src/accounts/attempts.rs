//! Login attempts per name and per address, and sign-ups per address, in
//! fixed windows (kept in this node's memory).

use crate::limits::ClientKey;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins allowed per name in a window.
pub const PER_NAME: u32 = 10;
/// Failed logins allowed per address in a window.
pub const PER_ADDRESS: u32 = 30;
/// Sign-ups allowed per address in a window.
pub const SIGN_UPS_PER_ADDRESS: u32 = 20;
/// The window.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Counts per key in fixed windows.
struct Windows<K> {
    counts: Mutex<HashMap<K, (Instant, u32)>>,
    limit: u32,
}

impl<K: Hash + Eq + Clone> Windows<K> {
    fn new(limit: u32) -> Self {
        Windows {
            counts: Mutex::new(HashMap::new()),
            limit,
        }
    }

    /// Whether `key` is under its limit.
    fn allows(&self, key: &K, now: Instant) -> bool {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts
            .get(key)
            .is_none_or(|(start, n)| now.duration_since(*start) >= WINDOW || *n < self.limit)
    }

    fn add(&self, key: &K, now: Instant, delta: i32) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() > 100_000 {
            counts.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = counts.entry(key.clone()).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add_signed(delta);
    }
}

/// The login and sign-up limits.
pub struct Attempts {
    names: Windows<String>,
    addresses: Windows<ClientKey>,
    sign_ups: Windows<ClientKey>,
}

impl Default for Attempts {
    fn default() -> Self {
        Attempts {
            names: Windows::new(PER_NAME),
            addresses: Windows::new(PER_ADDRESS),
            sign_ups: Windows::new(SIGN_UPS_PER_ADDRESS),
        }
    }
}

impl Attempts {
    /// Starts a login attempt for the name key from the client, counted as
    /// failed until [`Attempts::succeeded`]; `false` when either is over its limit.
    pub fn begin(&self, name_key: &str, client: ClientKey) -> bool {
        let now = Instant::now();
        let key = name_key.to_string();
        if !self.names.allows(&key, now) || !self.addresses.allows(&client, now) {
            return false;
        }
        self.names.add(&key, now, 1);
        self.addresses.add(&client, now, 1);
        true
    }

    /// The attempt begun for the name key and client succeeded: not counted.
    pub fn succeeded(&self, name_key: &str, client: ClientKey) {
        let now = Instant::now();
        self.names.add(&name_key.to_string(), now, -1);
        self.addresses.add(&client, now, -1);
    }

    /// Counts a sign-up from the client; `false` when over the limit.
    pub fn sign_up(&self, client: ClientKey) -> bool {
        let now = Instant::now();
        if !self.sign_ups.allows(&client, now) {
            return false;
        }
        self.sign_ups.add(&client, now, 1);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_per_name_are_limited_and_successes_not_counted() {
        let attempts = Attempts::default();
        let a = ClientKey::of("192.0.2.1".parse().unwrap(), 64);
        let b = ClientKey::of("192.0.2.2".parse().unwrap(), 64);
        for _ in 0..20 {
            assert!(attempts.begin("bob", a));
            attempts.succeeded("bob", a);
        }
        for _ in 0..PER_NAME {
            assert!(attempts.begin("alice", a));
        }
        assert!(!attempts.begin("alice", a));
        assert!(!attempts.begin("alice", b), "per name, from any address");
        assert!(attempts.begin("bob", b));
    }

    #[test]
    fn failures_per_address_are_limited() {
        let attempts = Attempts::default();
        let a = ClientKey::of("192.0.2.1".parse().unwrap(), 64);
        for i in 0..PER_ADDRESS {
            assert!(attempts.begin(&format!("name{i}"), a));
        }
        assert!(!attempts.begin("another", a));
    }
}
