//! Limits on every input: sizes, lengths, and per-connection request rates.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Size and rate limits of the server.
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
    /// HTTP requests per second allowed on one connection (0: unlimited).
    pub rate: f64,
    /// Requests one connection may make at once before the rate applies.
    pub burst: f64,
    /// WebSocket messages per second allowed from one client.
    pub ws_rate: f64,
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
            ws_rate: 10.0,
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

/// Token buckets per TCP connection (peer address and port).
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<SocketAddr, TokenBucket>>,
}

/// Connections tracked before idle ones are forgotten.
const MAX_TRACKED: usize = 4096;

impl RateLimiter {
    /// A limiter allowing `rate` requests a second per connection.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the connection from `peer` may make another request now.
    pub fn allow(&self, peer: SocketAddr) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        if buckets.len() >= MAX_TRACKED && !buckets.contains_key(&peer) {
            let idle = Duration::from_secs_f64(self.burst / self.rate);
            buckets.retain(|_, b| b.last.elapsed() < idle);
        }
        buckets
            .entry(peer)
            .or_insert_with(|| TokenBucket::new(self.rate, self.burst))
            .allow()
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
    fn connections_have_separate_buckets() {
        let limiter = RateLimiter::new(1.0, 2.0);
        let a: SocketAddr = "127.0.0.1:1000".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:1001".parse().unwrap();
        assert!(limiter.allow(a) && limiter.allow(a));
        assert!(!limiter.allow(a));
        assert!(limiter.allow(b));
    }
}
