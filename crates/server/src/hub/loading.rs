//! Tables in memory: loading them from the store, moving a loaded table
//! on, and forgetting idle ones.

use super::ownership::Held;
use super::{Hub, TableCell};
use crate::error::ApiError;
use crate::store::StoreError;
use crate::table::{Table, mono_ms, now};
use crate::thinking::Owner;
use crate::token::is_table_id;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::Duration;

impl Hub {
    /// Reloads the unfinished tables changed within `recent` by replaying
    /// their records, and restarts AI seats that are to move; older ones are
    /// loaded when first asked for. Returns how many were loaded.
    pub async fn reload(self: &Arc<Self>, recent: Duration) -> Result<usize, StoreError> {
        if self.cluster().is_some() {
            // Nodes take over the tables of dead nodes as they go (see `cluster`).
            return Ok(0);
        }
        let since = now() - recent.as_secs() as i64;
        let stored = self.store.unfinished_tables(since).await?;
        let count = stored.len();
        for s in stored {
            let id = s.id.clone();
            let table = Table::from_stored(s)?;
            let owner = Owner::Table(Arc::from(id.as_str()));
            let cell = self.insert(id, TableCell::new(table, true, owner));
            self.continue_loaded(&cell).await;
        }
        Ok(count)
    }

    /// Moves a table just loaded on: pending chance and forced actions (a
    /// table stored by an older server), its inactivity rule, its AI seats.
    pub(super) async fn continue_loaded(self: &Arc<Self>, cell: &Arc<TableCell>) {
        if !cell.owned() {
            return;
        }
        let mut t = cell.table.lock().await;
        // The running turn begins again now: time while no node held the
        // table is not charged.
        t.resume_clock(mono_ms());
        cell.set_deadline(&t);
        if let Err(e) = self.advance_stored(&mut t, cell).await {
            tracing::error!(table = %t.id, error = %e, "cannot continue a loaded table");
        }
        self.apply_inactivity(&mut t, cell).await;
        self.maybe_start_ai(&mut t, cell);
    }

    /// Puts a table into memory unless it is there; the one in memory.
    pub(super) fn insert(&self, id: String, cell: Arc<TableCell>) -> Arc<TableCell> {
        let mut tables = self.tables.lock().expect("table map");
        match tables.entry(id) {
            Entry::Occupied(held) => held.get().clone(),
            Entry::Vacant(new) => {
                // Told under the map's lock, so that the listener hears of
                // a table's coming and going in that order.
                self.tell_held(Held::Came(new.key().clone()));
                new.insert(cell).clone()
            }
        }
    }

    /// The live table with this id, loading it from the store if needed.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<TableCell>, ApiError> {
        let not_found = || ApiError::NotFound(format!("no table `{id}`"));
        if !is_table_id(id) {
            return Err(not_found());
        }
        let found = self.tables.lock().expect("table map").get(id).cloned();
        if let Some(cell) = found {
            cell.touch();
            return Ok(cell);
        }
        let owned = self.owns_stored(id).await?;
        let stored = self.store.load_table(id).await?.ok_or_else(not_found)?;
        let mut table = Table::from_stored(stored)?;
        if table.is_over() {
            table.rematch = self.store.find_rematch(id).await?;
        }
        // The creator's address is not stored: the table is an owner of its own.
        let owner = Owner::Table(Arc::from(id));
        let cell = self.insert(id.to_string(), TableCell::new(table, owned, owner));
        self.continue_loaded(&cell).await;
        Ok(cell)
    }

    /// Forgets tables nobody has looked at or watched for `idle`, with no AI
    /// thinking (they stay in the store and are loaded again on demand).
    pub async fn evict_idle(&self, idle: Duration) {
        let cells: Vec<(String, Arc<TableCell>)> = self
            .tables
            .lock()
            .expect("table map")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, cell) in cells {
            let old = cell
                .last_used
                .lock()
                .map(|t| t.elapsed() > idle)
                .unwrap_or(false);
            let quiet = match cell.table.try_lock() {
                Ok(t) => !t.ai_busy,
                Err(_) => false,
            };
            if old && quiet && cell.notices.receiver_count() == 0 {
                let mut tables = self.tables.lock().expect("table map");
                if tables.remove(&id).is_some() {
                    self.tell_held(Held::Left(id));
                }
            }
        }
    }
}
