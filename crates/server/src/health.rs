//! Whether this node can serve: its database takes writes now, and (with
//! several nodes on PostgreSQL) its notification connection is up. Real
//! writes report their outcome as they happen; a probe write each second
//! keeps the answer fresh while nothing else is written. `GET /api/health`
//! answers from here, so a load balancer can take a node that cannot store
//! anything out of rotation.

use crate::store::Store;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the database is probed.
pub const PROBE_INTERVAL: Duration = Duration::from_secs(1);

/// How long a probe may take before it counts as failed.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The last write's outcome: when, and the error if it failed.
#[derive(Debug)]
struct LastWrite {
    at: Instant,
    error: Option<String>,
}

/// The node's health, shared by the hub, the probe and `/api/health`.
#[derive(Debug)]
pub struct Health {
    last_write: Mutex<LastWrite>,
    /// `None` on one node; with several, whether notifications are received.
    notifications: Mutex<Option<bool>>,
    probing: AtomicBool,
}

/// What `/api/health` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Whether the node can serve (database writable, notifications up).
    pub ok: bool,
    /// Why the database is not writable, if it is not.
    pub database_error: Option<String>,
    /// Whether notifications from other nodes are received (`None`: one node).
    pub notifications: Option<bool>,
}

impl Default for Health {
    fn default() -> Self {
        Health {
            last_write: Mutex::new(LastWrite {
                at: Instant::now(),
                error: None,
            }),
            notifications: Mutex::new(None),
            probing: AtomicBool::new(false),
        }
    }
}

impl Health {
    /// A write (or probe) committed.
    pub fn write_succeeded(&self) {
        self.record(None);
    }

    /// A write (or probe) failed in the database (not a conflict).
    pub fn write_failed(&self, error: &str) {
        self.record(Some(error.to_string()));
    }

    fn record(&self, error: Option<String>) {
        if let Ok(mut last) = self.last_write.lock() {
            if error.is_some() && last.error.is_none() {
                tracing::error!(error = error.as_deref(), "the database takes no writes");
            } else if error.is_none() && last.error.is_some() {
                tracing::warn!("the database takes writes again");
            }
            *last = LastWrite {
                at: Instant::now(),
                error,
            };
        }
    }

    /// Sets whether the notification connection (several nodes) is up.
    pub fn set_notifications(&self, up: bool) {
        if let Ok(mut n) = self.notifications.lock() {
            if *n == Some(true) && !up {
                tracing::warn!("the notification connection is down");
            }
            *n = Some(up);
        }
    }

    /// Whether no write was recorded for a probe interval (a probe is due).
    fn probe_due(&self) -> bool {
        self.last_write
            .lock()
            .map(|l| l.at.elapsed() >= PROBE_INTERVAL || l.error.is_some())
            .unwrap_or(true)
    }

    /// The node's health now.
    pub fn report(&self) -> Report {
        let database_error = self
            .last_write
            .lock()
            .map(|l| l.error.clone())
            .unwrap_or_else(|_| Some("health state lost".into()));
        let notifications = self.notifications.lock().ok().and_then(|n| *n);
        Report {
            ok: database_error.is_none() && notifications != Some(false),
            database_error,
            notifications,
        }
    }

    /// Probes `store` with a small committed write when no other write
    /// reported within the probe interval, and records the outcome.
    pub async fn probe(&self, store: &dyn Store) {
        if !self.probe_due() || self.probing.swap(true, Ordering::SeqCst) {
            return;
        }
        match tokio::time::timeout(PROBE_TIMEOUT, store.probe()).await {
            Ok(Ok(())) => self.write_succeeded(),
            Ok(Err(e)) => self.write_failed(&e.to_string()),
            Err(_) => self.write_failed(&format!(
                "a probe write took longer than {} s",
                PROBE_TIMEOUT.as_secs()
            )),
        }
        self.probing.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_makes_the_node_unhealthy_until_a_write_commits() {
        let health = Health::default();
        assert!(health.report().ok);
        health.write_failed("database or disk is full");
        let report = health.report();
        assert!(!report.ok);
        assert_eq!(
            report.database_error.as_deref(),
            Some("database or disk is full")
        );
        assert!(health.probe_due(), "a failed store is probed at once");
        health.write_succeeded();
        assert!(health.report().ok);
    }

    #[test]
    fn lost_notifications_make_a_node_of_several_unhealthy() {
        let health = Health::default();
        assert_eq!(health.report().notifications, None);
        health.set_notifications(true);
        assert!(health.report().ok);
        health.set_notifications(false);
        assert!(!health.report().ok);
        health.set_notifications(true);
        assert!(health.report().ok);
    }
}
