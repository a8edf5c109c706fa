//! Refusals logged sparingly: a client's first refusal is logged in full,
//! the ones after it are counted, and one line per client key and interval
//! says how many there were. The map of clients is bounded.

use super::network::ClientKey;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Clients whose refusals are counted one by one; refusals of more are
/// counted together.
const MAX_CLIENTS: usize = 4096;

/// The counts of refusals per client key in the current interval.
#[derive(Debug)]
pub struct RefusalLog {
    interval: Duration,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    /// Per client key: when its interval began and the refusals not logged.
    by_key: HashMap<ClientKey, (Instant, u64)>,
    /// Refusals not logged of clients beyond [`MAX_CLIENTS`], and since when.
    others: (Option<Instant>, u64),
}

/// Refusals not logged one by one: `count` from `from` (all clients beyond
/// the map when `None`) in the last `seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The client key, or `None` for the clients not tracked one by one.
    pub from: Option<ClientKey>,
    /// The refusals counted.
    pub count: u64,
    /// The seconds they were counted over.
    pub seconds: u64,
}

impl RefusalLog {
    /// A log of at most one summary per client key and `interval`.
    pub fn new(interval: Duration) -> Self {
        RefusalLog {
            interval,
            counts: Mutex::new(Counts::default()),
        }
    }

    /// Notes a refusal of `key`'s client; true when it is to be logged in
    /// full (the client's first in its interval), false when only counted.
    pub fn note(&self, key: ClientKey) -> bool {
        let now = Instant::now();
        let (log, summaries) = self.note_at(key, now);
        log_summaries(&summaries);
        log
    }

    /// Logs the counts of every interval that is over (the server calls it
    /// every second), and forgets clients quiet for a whole interval.
    pub fn flush(&self) {
        log_summaries(&self.flush_at(Instant::now()));
    }

    /// [`RefusalLog::note`] at `now`; also the summaries it made room with.
    fn note_at(&self, key: ClientKey, now: Instant) -> (bool, Vec<Summary>) {
        let Ok(mut counts) = self.counts.lock() else {
            return (false, Vec::new());
        };
        let mut summaries = Vec::new();
        if let Some((since, count)) = counts.by_key.get_mut(&key) {
            if now.duration_since(*since) < self.interval {
                *count += 1;
                return (false, summaries);
            }
            if *count > 0 {
                summaries.push(Summary {
                    from: Some(key),
                    count: *count,
                    seconds: now.duration_since(*since).as_secs(),
                });
            }
            *since = now;
            *count = 0;
            return (true, summaries);
        }
        if counts.by_key.len() >= MAX_CLIENTS {
            summaries = self.expire(&mut counts, now);
        }
        if counts.by_key.len() >= MAX_CLIENTS {
            let (since, count) = &mut counts.others;
            since.get_or_insert(now);
            *count += 1;
            return (false, summaries);
        }
        counts.by_key.insert(key, (now, 0));
        (true, summaries)
    }

    /// [`RefusalLog::flush`] at `now`: the summaries to log.
    fn flush_at(&self, now: Instant) -> Vec<Summary> {
        let Ok(mut counts) = self.counts.lock() else {
            return Vec::new();
        };
        let mut summaries = self.expire(&mut counts, now);
        if let (Some(since), count) = counts.others
            && now.duration_since(since) >= self.interval
        {
            summaries.push(Summary {
                from: None,
                count,
                seconds: now.duration_since(since).as_secs(),
            });
            counts.others = (None, 0);
        }
        summaries
    }

    /// Ends the intervals that are over: their summaries, and quiet keys
    /// forgotten.
    fn expire(&self, counts: &mut Counts, now: Instant) -> Vec<Summary> {
        let mut summaries = Vec::new();
        counts.by_key.retain(|key, (since, count)| {
            let elapsed = now.duration_since(*since);
            if elapsed < self.interval {
                return true;
            }
            if *count == 0 {
                return false;
            }
            summaries.push(Summary {
                from: Some(*key),
                count: *count,
                seconds: elapsed.as_secs(),
            });
            // A new interval: its refusals are counted, not logged.
            *since = now;
            *count = 0;
            true
        });
        summaries
    }
}

fn log_summaries(summaries: &[Summary]) {
    for s in summaries {
        match s.from {
            Some(key) => tracing::info!(
                client = %key,
                refused = s.count,
                "{} more requests refused from {key} in the last {} s",
                s.count,
                s.seconds
            ),
            None => tracing::info!(
                refused = s.count,
                "{} requests refused from clients not tracked one by one in the last {} s",
                s.count,
                s.seconds
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn key(text: &str) -> ClientKey {
        ClientKey::of(text.parse::<IpAddr>().unwrap(), 64)
    }

    #[test]
    fn a_flood_is_one_full_line_then_one_summary_per_interval() {
        let log = RefusalLog::new(Duration::from_secs(10));
        let start = Instant::now();
        let a = key("2001:db8::1");
        assert!(log.note_at(a, start).0);
        // The same /64 is the same client.
        for i in 1..=6394u64 {
            let at = start + Duration::from_micros(i * 400);
            assert!(!log.note_at(key(&format!("2001:db8::{i:x}")), at).0);
        }
        assert_eq!(log.flush_at(start + Duration::from_secs(5)), vec![]);
        let later = start + Duration::from_secs(10);
        assert_eq!(
            log.flush_at(later),
            vec![Summary {
                from: Some(a),
                count: 6394,
                seconds: 10
            }]
        );
        // Counted in the new interval, summarised at its end.
        assert!(!log.note_at(a, later + Duration::from_secs(1)).0);
        let end = later + Duration::from_secs(10);
        assert_eq!(log.flush_at(end)[0].count, 1);
        // A quiet interval forgets the client: its next refusal is logged.
        assert_eq!(log.flush_at(end + Duration::from_secs(10)), vec![]);
        assert!(log.note_at(a, end + Duration::from_secs(11)).0);
    }

    #[test]
    fn clients_are_counted_apart() {
        let log = RefusalLog::new(Duration::from_secs(10));
        let now = Instant::now();
        assert!(log.note_at(key("192.0.2.1"), now).0);
        assert!(log.note_at(key("192.0.2.2"), now).0);
        assert!(!log.note_at(key("192.0.2.1"), now).0);
    }

    #[test]
    fn the_map_of_clients_is_bounded() {
        let log = RefusalLog::new(Duration::from_secs(10));
        let now = Instant::now();
        for i in 0..MAX_CLIENTS as u32 {
            assert!(
                log.note_at(ClientKey::of(IpAddr::from(i.to_be_bytes()), 64), now)
                    .0
            );
        }
        let extra = key("2001:db8::1");
        assert!(!log.note_at(extra, now).0);
        assert!(!log.note_at(extra, now).0);
        assert_eq!(log.counts.lock().unwrap().by_key.len(), MAX_CLIENTS);
        // One line for them per interval, not one per flush.
        assert_eq!(log.flush_at(now + Duration::from_secs(1)), vec![]);
        let summaries = log.flush_at(now + Duration::from_secs(10));
        assert_eq!(summaries.last().map(|s| (s.from, s.count)), Some((None, 2)));
        // The quiet clients are forgotten and a new one gets a place.
        assert!(log.note_at(extra, now + Duration::from_secs(11)).0);
    }
}
