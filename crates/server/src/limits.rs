//! Limits on every input: sizes, lengths, request rates per client, and
//! counts of connections, watchers and open tables per client. A client is
//! an IPv4 address or an IPv6 network (`--ipv6-prefix`, a /64 by default),
//! found behind trusted proxies from their forwarded header (`network`).

mod forwarded;
mod network;
mod refusals;

pub use network::{Client, ClientKey, Clients, ForwardedHeader, parse_network};
pub use refusals::{RefusalLog, Summary};

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Size, rate and count limits of the server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest HTTP request body, in bytes.
    pub max_body: usize,
    /// Largest WebSocket message from a client, in bytes.
    pub max_ws_message: usize,
    /// Longest display name, in characters.
    pub max_name: usize,
    /// Longest action in notation, in characters.
    pub max_action: usize,
    /// Most options in a create request.
    pub max_options: usize,
    /// HTTP requests per second allowed from one client address (0: unlimited).
    pub rate: f64,
    /// Requests one address may make at once before the rate applies.
    pub burst: f64,
    /// Tables one address may create per second (0: unlimited).
    pub create_rate: f64,
    /// Tables one address may create at once before the rate applies.
    pub create_burst: f64,
    /// WebSocket messages (every frame kind) per second from one connection.
    pub ws_rate: f64,
    /// Unfinished tables one address may have created (0: unlimited).
    pub max_open_tables_per_address: usize,
    /// WebSocket viewers of one table.
    pub max_watchers_per_table: usize,
    /// WebSocket viewers from one address.
    pub max_watchers_per_address: usize,
    /// WebSocket viewers in all.
    pub max_watchers: usize,
    /// Open connections from one address.
    pub max_connections_per_address: usize,
    /// Open connections in all (set from the open-file limit at start).
    pub max_connections: usize,
    /// Time to send a request's headers, and the longest idle time between
    /// requests on a kept-alive connection.
    pub header_timeout: Duration,
    /// Time to send a request's body.
    pub body_timeout: Duration,
    /// How often the server pings a WebSocket viewer.
    pub ws_ping_interval: Duration,
    /// A viewer that sends nothing (not even a pong) for this long is closed.
    pub ws_dead_peer: Duration,
    /// How clients are told apart (IPv6 prefix, trusted proxies).
    pub clients: Clients,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 16 * 1024,
            max_ws_message: 4 * 1024,
            max_name: 40,
            max_action: 500,
            max_options: 32,
            rate: 20.0,
            burst: 40.0,
            create_rate: 0.2,
            create_burst: 10.0,
            ws_rate: 10.0,
            max_open_tables_per_address: 20,
            max_watchers_per_table: 64,
            max_watchers_per_address: 64,
            max_watchers: 20_000,
            max_connections_per_address: 256,
            max_connections: 1_000,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            ws_ping_interval: Duration::from_secs(20),
            ws_dead_peer: Duration::from_secs(60),
            clients: Clients::default(),
        }
    }
}

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Self {
        TokenBucket {
            rate,
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one; a rate of 0 means no limit.
    pub fn allow(&mut self) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Token buckets per client key (all connections of a client share one).
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<ClientKey, TokenBucket>>,
}

/// Clients tracked before idle ones are forgotten.
const MAX_TRACKED: usize = 4096;

impl RateLimiter {
    /// A limiter allowing `rate` requests a second per client.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the client of key `address` may make another request now.
    pub fn allow(&self, address: ClientKey) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        if buckets.len() >= MAX_TRACKED && !buckets.contains_key(&address) {
            // A bucket idle long enough to be full again is the same as none.
            let full = Duration::from_secs_f64(self.burst / self.rate);
            buckets.retain(|_, b| b.last.elapsed() < full);
        }
        buckets
            .entry(address)
            .or_insert_with(|| TokenBucket::new(self.rate, self.burst))
            .allow()
    }
}

/// Counts of things held per key (e.g. connections per client) with caps on
/// each key and on the total; a [`Held`] gives its place back when dropped.
#[derive(Debug)]
pub struct Counter<K: Eq + Hash + Clone> {
    per_key: usize,
    total: usize,
    counts: Mutex<(HashMap<K, usize>, usize)>,
}

/// One place in a [`Counter`], given back when dropped.
pub struct Held<K: Eq + Hash + Clone> {
    counter: Arc<Counter<K>>,
    /// `None` for a place counted only in the total.
    key: Option<K>,
}

/// Why a [`Counter`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The key holds its most.
    Key,
    /// The total is reached.
    Total,
}

impl<K: Eq + Hash + Clone> Counter<K> {
    /// A counter allowing `per_key` per key and `total` in all (0: no cap).
    pub fn new(per_key: usize, total: usize) -> Arc<Self> {
        Arc::new(Counter {
            per_key,
            total,
            counts: Mutex::new((HashMap::new(), 0)),
        })
    }

    /// Takes a place for `key`, or says which cap is reached.
    pub fn take(self: &Arc<Self>, key: K) -> Result<Held<K>, Full> {
        let mut guard = self.counts.lock().map_err(|_| Full::Total)?;
        let (counts, total) = &mut *guard;
        if self.total > 0 && *total >= self.total {
            return Err(Full::Total);
        }
        let count = counts.entry(key.clone()).or_insert(0);
        if self.per_key > 0 && *count >= self.per_key {
            return Err(Full::Key);
        }
        *count += 1;
        *total += 1;
        Ok(Held {
            counter: self.clone(),
            key: Some(key),
        })
    }

    /// Takes a place counted only in the total (no key's cap applies).
    pub fn take_unkeyed(self: &Arc<Self>) -> Result<Held<K>, Full> {
        let mut guard = self.counts.lock().map_err(|_| Full::Total)?;
        let total = &mut guard.1;
        if self.total > 0 && *total >= self.total {
            return Err(Full::Total);
        }
        *total += 1;
        Ok(Held {
            counter: self.clone(),
            key: None,
        })
    }

    /// How many places are held in all.
    pub fn total(&self) -> usize {
        self.counts.lock().map(|c| c.1).unwrap_or(0)
    }
}

impl<K: Eq + Hash + Clone> Drop for Held<K> {
    fn drop(&mut self) {
        if let Ok(mut guard) = self.counter.counts.lock() {
            let (counts, total) = &mut *guard;
            *total = total.saturating_sub(1);
            let Some(key) = &self.key else {
                return;
            };
            if let Some(count) = counts.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    counts.remove(key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses() {
        let mut b = TokenBucket::new(1.0, 3.0);
        assert!(b.allow() && b.allow() && b.allow());
        assert!(!b.allow());
        assert!(TokenBucket::new(0.0, 0.0).allow());
    }

    #[test]
    fn addresses_have_separate_buckets() {
        let limiter = RateLimiter::new(1.0, 2.0);
        let a = ClientKey::of("127.0.0.1".parse().unwrap(), 64);
        let b = ClientKey::of("127.0.0.2".parse().unwrap(), 64);
        assert!(limiter.allow(a) && limiter.allow(a));
        assert!(!limiter.allow(a));
        assert!(limiter.allow(b));
    }

    #[test]
    fn addresses_of_one_ipv6_64_share_a_bucket() {
        let limiter = RateLimiter::new(1.0, 2.0);
        let key = |a: &str| Clients::default().key(a.parse().unwrap());
        assert!(limiter.allow(key("2001:db8::1")) && limiter.allow(key("2001:db8::2")));
        assert!(!limiter.allow(key("2001:db8::ffff")));
        assert!(limiter.allow(key("2001:db8:0:1::1")));
    }

    #[test]
    fn an_unkeyed_place_counts_only_in_the_total() {
        let counter = Counter::new(1, 3);
        let _a = counter.take("a").unwrap();
        let unkeyed: Vec<_> = (0..2).map(|_| counter.take_unkeyed().unwrap()).collect();
        assert_eq!(counter.take_unkeyed().err(), Some(Full::Total));
        drop(unkeyed);
        assert_eq!(counter.total(), 1);
        assert_eq!(counter.take("a").err(), Some(Full::Key));
    }

    #[test]
    fn a_counter_caps_each_key_and_the_total_and_gives_places_back() {
        let counter = Counter::new(2, 3);
        let a1 = counter.take("a").unwrap();
        let _a2 = counter.take("a").unwrap();
        assert_eq!(counter.take("a").err(), Some(Full::Key));
        let _b1 = counter.take("b").unwrap();
        assert_eq!(counter.take("c").err(), Some(Full::Total));
        drop(a1);
        assert_eq!(counter.total(), 2);
        assert!(counter.take("a").is_ok());
    }
}
