//! Tables in a group of nodes: which node owns a table, taking one over,
//! and keeping this node's copies of the others' tables up to date.

use super::{Announced, Hub, Notice, TableCell};
use crate::error::ApiError;
use crate::store::StoreError;
use crate::table::{Followed, Table};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::mpsc;

/// A table coming into this node's memory or leaving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// The table with this id came into memory.
    Came(String),
    /// It left.
    Left(String),
}

impl Hub {
    /// From now on tells the returned receiver of every table that comes
    /// into memory or leaves it (for the notification listener; one
    /// receiver, the first asked for).
    pub fn follow_held(&self) -> Option<mpsc::UnboundedReceiver<Held>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.held.set(sender).ok().map(|()| receiver)
    }

    /// Tells the notification listener, if there is one.
    pub(super) fn tell_held(&self, change: Held) {
        if let Some(sender) = self.held.get() {
            let _ = sender.send(change);
        }
    }

    /// The ids of the tables in memory.
    pub fn held_ids(&self) -> Vec<String> {
        self.tables
            .lock()
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether table `id` is in memory and owned by this node.
    pub fn owns_live(&self, id: &str) -> bool {
        self.tables
            .lock()
            .ok()
            .and_then(|t| t.get(id).map(|c| c.owned()))
            .unwrap_or(false)
    }

    /// Whether this node owns table `id` (asks the database in a group of nodes).
    pub(super) async fn owns_stored(&self, id: &str) -> Result<bool, StoreError> {
        match self.cluster() {
            Some(cluster) => cluster.owns(id).await,
            None => Ok(true),
        }
    }

    /// Makes this node's copy of a table it now owns in the database live:
    /// brought up to the stored table, its AI and inactivity rule running.
    pub async fn adopt(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        let found = self.tables.lock().expect("table map").get(id).cloned();
        let Some(cell) = found else {
            self.table(id).await?;
            return Ok(());
        };
        if cell.owned() {
            return Ok(());
        }
        {
            let mut t = cell.table.lock().await;
            if cell.owned() {
                return Ok(());
            }
            self.follow_store(&mut t, &cell).await?;
            cell.owned.store(true, Ordering::SeqCst);
        }
        self.continue_loaded(&cell).await;
        Ok(())
    }

    /// Passes a write's outcome on; a conflict in a group of nodes may mean
    /// that another node took the table over: then this copy stops acting.
    pub(super) async fn owner_checked(
        &self,
        cell: &TableCell,
        id: &str,
        outcome: Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        if let Err(StoreError::Conflict(_)) = &outcome
            && let Ok(false) = self.owns_stored(id).await
        {
            tracing::warn!(table = %id, "another node owns the table now");
            cell.owned.store(false, Ordering::SeqCst);
        }
        outcome
    }

    /// Brings a copy of a table up to the stored table and tells its viewers.
    async fn follow_store(&self, t: &mut Table, cell: &TableCell) -> Result<(), ApiError> {
        let gone = || ApiError::NotFound("the table is gone".into());
        let stored = self
            .store
            .load_table_after(&t.id, t.version)
            .await?
            .ok_or_else(gone)?;
        let followed = match t.follow(stored)? {
            Some(followed) => followed,
            None => {
                *t = Table::from_stored(self.store.load_table(&t.id).await?.ok_or_else(gone)?)?;
                Followed {
                    events: Vec::new(),
                    seats: true,
                    resync: true,
                }
            }
        };
        let moved = !followed.events.is_empty();
        for event in followed.events {
            let _ = cell.notices.send(Notice::Event(Arc::new(Announced::new(
                event,
                t.seats.len(),
            ))));
        }
        // The `seats` message carries the clocks as this copy runs them.
        if followed.seats || (t.clock.is_some() && moved) {
            let _ = cell.notices.send(Notice::Seats);
        }
        if followed.resync {
            let _ = cell.notices.send(Notice::Ended);
        }
        Ok(())
    }

    /// Brings this node's copy of table `id` (if it keeps one and does not
    /// own the table) up to the stored table, after another node changed it.
    pub async fn refresh_mirror(&self, id: &str) {
        let found = self.tables.lock().ok().and_then(|t| t.get(id).cloned());
        let Some(cell) = found else {
            return;
        };
        if cell.owned() {
            return;
        }
        let mut t = cell.table.lock().await;
        if cell.owned() {
            return;
        }
        if let Err(e) = self.follow_store(&mut t, &cell).await {
            tracing::warn!(table = %t.id, error = %e, "cannot follow a table of another node");
        }
    }

    /// Brings every copy of tables other nodes own up to date.
    pub async fn refresh_mirrors(&self) {
        for id in self.held_ids() {
            self.refresh_mirror(&id).await;
        }
    }

    /// Asks the database which of the tables this node thinks it owns it
    /// still owns (after its heartbeat lapsed); the others become copies.
    pub async fn recheck_ownership(&self) {
        let cells: Vec<Arc<TableCell>> = self
            .tables
            .lock()
            .map(|t| t.values().filter(|c| c.owned()).cloned().collect())
            .unwrap_or_default();
        for cell in cells {
            let id = cell.table.lock().await.id.clone();
            if let Ok(false) = self.owns_stored(&id).await {
                cell.owned.store(false, Ordering::SeqCst);
            }
        }
    }
}
