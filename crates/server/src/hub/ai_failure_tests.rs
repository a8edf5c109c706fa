//! An AI move that cannot be stored is tried [`AI_ATTEMPTS`] times, then
//! the AI stops and the table's viewers are told.

use super::*;
use crate::store::{
    Ending, SqliteStore, StoreFuture, StoredAction, StoredAnalysis, StoredSeat, StoredTable,
};
use std::sync::atomic::AtomicU32;

/// A SQLite store whose appends of actions fail while `failing` is set.
struct Failing {
    inner: SqliteStore,
    failing: AtomicBool,
    /// Whether the health probe fails too (the database is gone).
    probe_fails: AtomicBool,
    appends: AtomicU32,
}

impl Store for Failing {
    fn create_table<'a>(&'a self, table: &'a StoredTable) -> StoreFuture<'a, ()> {
        self.inner.create_table(table)
    }
    fn append_actions<'a>(
        &'a self,
        table_id: &'a str,
        base_version: u64,
        actions: &'a [StoredAction],
        result: Option<&'a [f64]>,
    ) -> StoreFuture<'a, ()> {
        self.appends.fetch_add(1, Ordering::SeqCst);
        if self.failing.load(Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::Database("disk full".into())) });
        }
        self.inner
            .append_actions(table_id, base_version, actions, result)
    }
    fn claim_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        self.inner.claim_seat(table_id, seat)
    }
    fn unfinished_tables(&self, since: i64) -> StoreFuture<'_, Vec<StoredTable>> {
        self.inner.unfinished_tables(since)
    }
    fn end_table<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        ending: &'a Ending,
    ) -> StoreFuture<'a, ()> {
        self.inner.end_table(table_id, version, ending)
    }
    fn save_analysis<'a>(
        &'a self,
        table_id: &'a str,
        version: u64,
        analysis: &'a str,
    ) -> StoreFuture<'a, ()> {
        self.inner.save_analysis(table_id, version, analysis)
    }
    fn load_analysis<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredAnalysis>> {
        self.inner.load_analysis(table_id)
    }
    fn replace_seat<'a>(&'a self, table_id: &'a str, seat: &'a StoredSeat) -> StoreFuture<'a, ()> {
        self.inner.replace_seat(table_id, seat)
    }
    fn load_table<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<StoredTable>> {
        self.inner.load_table(table_id)
    }
    fn player_tables<'a>(&'a self, player: &'a TokenHash) -> StoreFuture<'a, Vec<String>> {
        self.inner.player_tables(player)
    }
    fn listed_tables(&self, live: bool, page: u32, size: u32) -> StoreFuture<'_, Vec<String>> {
        self.inner.listed_tables(live, page, size)
    }
    fn find_rematch<'a>(&'a self, table_id: &'a str) -> StoreFuture<'a, Option<String>> {
        self.inner.find_rematch(table_id)
    }
    fn probe(&self) -> StoreFuture<'_, ()> {
        if self.probe_fails.load(Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::Database("gone".into())) });
        }
        self.inner.probe()
    }
    fn close(&self) -> StoreFuture<'_, ()> {
        self.inner.close()
    }
}

/// A store in a new folder whose appends fail, a hub over it with the
/// health probe running every 50 ms, and a Läger table of two AI seats.
async fn failing_table(
    probe_fails: bool,
) -> (std::path::PathBuf, Arc<Failing>, Arc<Hub>, Arc<TableCell>) {
    let dir = std::env::temp_dir().join(format!(
        "spelbord-ai-failure-{}-{}",
        std::process::id(),
        crate::token::new_token()
    ));
    std::fs::create_dir_all(&dir).expect("a folder");
    let store = Arc::new(Failing {
        inner: SqliteStore::open(&dir.join("test.db"))
            .await
            .expect("a store"),
        failing: AtomicBool::new(true),
        probe_fails: AtomicBool::new(probe_fails),
        appends: AtomicU32::new(0),
    });
    let hub = Hub::new(store.clone(), Workers::new(2));
    {
        let (hub, store) = (hub.clone(), store.clone());
        tokio::spawn(async move {
            while !hub.stopping() {
                hub.health().probe(&*store).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
    }
    let game = spelbord_engine::find_game("lager").expect("lager");
    let new = NewTable {
        game,
        options: game.parse_options(&[]).expect("options"),
        seats: vec![Some("random".into()), Some("random".into())],
        auto_forced: true,
        creator: None,
        inactivity: Inactivity::default(),
        listed: false,
        rematch_of: None,
        rated: false,
        clock: None,
        client: "10.0.0.1".parse().expect("an address"),
    };
    let cell = hub.create(new).await.expect("created");
    (dir, store, hub, cell)
}

/// The probe finds the database writable each time (as a probe write on a
/// nearly full disk may), so each failed move counts as an attempt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_move_that_cannot_be_stored_stops_after_its_attempts_and_is_announced() {
    let (dir, store, hub, cell) = failing_table(false).await;
    let mut notices = cell.notices.subscribe();
    let created = cell.table.lock().await.version;
    let failed = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            match cell.table.lock().await.ai_failed {
                Some(seat) => return seat,
                None => match notices.try_recv() {
                    Ok(Notice::AiFailed(seat)) => return seat,
                    _ => tokio::time::sleep(Duration::from_millis(5)).await,
                },
            }
        }
    })
    .await
    .expect("the AI gave up within 60 s");
    let t = cell.table.lock().await;
    assert_eq!(t.ai_failed, Some(failed));
    assert!(!t.ai_busy, "no AI task runs on");
    assert_eq!(t.version, created, "nothing was applied");
    drop(t);
    // No retries for ever: the appends stop at the attempts allowed.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(store.appends.load(Ordering::SeqCst), AI_ATTEMPTS);
    // The store works again: the AI stays stopped until the table is loaded
    // again (here by a new hub, as after a restart), which starts it.
    store.failing.store(false, Ordering::SeqCst);
    let id = cell.table.lock().await.id.clone();
    let again = Hub::new(store.clone(), Workers::new(2));
    let reloaded = again.table(&id).await.expect("reloaded");
    let deadline = Instant::now() + Duration::from_secs(60);
    while reloaded.table.lock().await.version == created {
        assert!(Instant::now() < deadline, "the AI did not start again");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(reloaded.table.lock().await.ai_failed, None);
    again.begin_shutdown();
    hub.begin_shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

/// While the database is gone (the probe fails too), an AI move is not
/// tried again and counts no attempt; it is made once the database is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_move_waits_for_a_lost_database_and_is_made_when_it_is_back() {
    let (dir, store, hub, cell) = failing_table(true).await;
    let created = cell.table.lock().await.version;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        cell.table.lock().await.ai_failed,
        None,
        "the AI did not give up"
    );
    assert_eq!(
        store.appends.load(Ordering::SeqCst),
        1,
        "no write was tried while the database was gone"
    );
    store.failing.store(false, Ordering::SeqCst);
    store.probe_fails.store(false, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(30);
    while cell.table.lock().await.version == created {
        assert!(
            Instant::now() < deadline,
            "the AI moved once the database was back"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    hub.begin_shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}
