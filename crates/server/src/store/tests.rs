//! The store's tests, run on SQLite and, when `SPELBORD_TEST_PG` names a
//! PostgreSQL server (`postgres://…`), on a fresh database there too.

use super::*;
use std::sync::Arc;

pub(super) fn table(id: &str) -> StoredTable {
    StoredTable {
        id: id.into(),
        game: "tawla".into(),
        options: Options::default(),
        auto_forced: true,
        creator_hash: Some([7; 32]),
        version: 1,
        result: None,
        seats: vec![
            StoredSeat::new(0, SeatKind::Open),
            StoredSeat::new(1, SeatKind::Ai("random".into())),
        ],
        actions: vec![StoredAction {
            version: 1,
            seat: None,
            text: "3-1".into(),
            auto: true,
            think_ms: None,
            clock: None,
        }],
        created_at: 1,
        updated_at: 1,
        server_seed: Some([3; 32]),
        ending: None,
        inactivity: Inactivity {
            seconds: 60,
            then: Takeover::Ai,
        },
        listed: false,
        rematch_of: None,
        rated: false,
        clock: None,
    }
}

/// Seat 0's first move, the action after [`table`]'s first roll.
fn second_action() -> StoredAction {
    StoredAction {
        version: 2,
        seat: Some(0),
        text: "24/21 24/23".into(),
        auto: false,
        think_ms: None,
        clock: None,
    }
}

/// A database for one test: a SQLite file, or a fresh PostgreSQL database.
pub(super) enum TestDb {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl TestDb {
    /// A new SQLite file.
    fn sqlite(name: &str) -> TestDb {
        let dir = std::env::temp_dir().join(format!(
            "spelbord-store-{name}-{}-{}",
            std::process::id(),
            crate::token::new_token()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TestDb::Sqlite(dir.join("test.db"))
    }

    /// A new SQLite file and, with `SPELBORD_TEST_PG`, a new PostgreSQL
    /// database (without it, the PostgreSQL part says it is skipped).
    pub(super) async fn all(name: &str) -> Vec<TestDb> {
        let mut dbs = vec![TestDb::sqlite(name)];
        let pg = test_database().await.expect("a PostgreSQL test database");
        dbs.extend(pg.map(TestDb::Postgres));
        dbs
    }

    async fn open(&self) -> Arc<dyn Store> {
        match self {
            TestDb::Sqlite(path) => Arc::new(SqliteStore::open(path).await.unwrap()),
            TestDb::Postgres(url) => Arc::new(PgStore::open(url).await.unwrap()),
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Sqlite(path) = self {
            let _ = std::fs::remove_dir_all(path.parent().unwrap());
        }
    }
}

#[tokio::test]
async fn tables_round_trip_and_versions_are_checked() {
    for db in TestDb::all("round-trip").await {
        round_trip(&db).await;
    }
}

async fn round_trip(db: &TestDb) {
    let store = db.open().await;
    let t = table("aaaaaaaaaaaaaaaaaaaaaaaa");
    store.create_table(&t).await.unwrap();
    assert_eq!(store.load_table(&t.id).await.unwrap().unwrap(), t);
    let more = [second_action()];
    store.append_actions(&t.id, 1, &more, None).await.unwrap();
    // A stale base version changes nothing.
    let stale = store.append_actions(&t.id, 1, &more, None).await;
    assert!(matches!(stale, Err(StoreError::Conflict(_))));
    let loaded = store.load_table(&t.id).await.unwrap().unwrap();
    assert_eq!(loaded.version, 2);
    assert_eq!(loaded.actions.len(), 2);
    assert_eq!(store.unfinished_tables(0).await.unwrap().len(), 1);
    assert_eq!(
        store.player_tables(&[7; 32]).await.unwrap(),
        vec![t.id.clone()]
    );
    let seat = StoredSeat {
        seat: 0,
        kind: SeatKind::Human,
        name: Some("Ada".into()),
        token_hash: Some([1; 32]),
        player_hash: Some([2; 32]),
        joined_at: Some(5),
        seed: Some("abc".into()),
        join_key_hash: Some([4; 32]),
        account: Some("alice".into()),
        auto_roll: Default::default(),
    };
    store.claim_seat(&t.id, &seat).await.unwrap();
    assert!(matches!(
        store.claim_seat(&t.id, &seat).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.player_tables(&[2; 32]).await.unwrap(),
        vec![t.id.clone()]
    );
    let finish = [StoredAction {
        version: 3,
        seat: Some(1),
        text: "x".into(),
        auto: true,
        think_ms: None,
        clock: None,
    }];
    store
        .append_actions(&t.id, 2, &finish, Some(&[1.0, -1.0]))
        .await
        .unwrap();
    assert!(store.unfinished_tables(0).await.unwrap().is_empty());
    // Ending a table early and replacing a seat.
    let other = table("cccccccccccccccccccccccc");
    store.create_table(&other).await.unwrap();
    assert_eq!(store.unfinished_tables(2).await.unwrap().len(), 0);
    assert_eq!(store.unfinished_tables(1).await.unwrap().len(), 1);
    let mut ai = StoredSeat::new(0, SeatKind::Ai("ai:medium".into()));
    ai.seed = Some("kept".into());
    store.replace_seat(&other.id, &ai).await.unwrap();
    let ending = Ending {
        reason: EndReason::Forfeit,
        seat: Some(1),
        returns: Some(vec![1.0, -1.0]),
    };
    assert!(matches!(
        store.end_table(&other.id, 7, &ending).await,
        Err(StoreError::Conflict(_))
    ));
    store.end_table(&other.id, 1, &ending).await.unwrap();
    let ended = store.load_table(&other.id).await.unwrap().unwrap();
    assert_eq!(ended.ending, Some(ending.clone()));
    assert_eq!(ended.seats[0], ai);
    assert!(store.unfinished_tables(0).await.unwrap().is_empty());
    assert!(matches!(
        store.end_table(&other.id, 1, &ending).await,
        Err(StoreError::Conflict(_))
    ));
    let done = store.load_table(&t.id).await.unwrap().unwrap();
    assert_eq!(done.result, Some(vec![1.0, -1.0]));
    assert_eq!(done.seats[0], seat);
    store.close().await.unwrap();
    // Reopening runs no migration twice and keeps the data.
    let again = db.open().await;
    assert!(again.load_table(&t.id).await.unwrap().is_some());
    assert!(
        again
            .load_table("bbbbbbbbbbbbbbbbbbbbbbbb")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn an_analysis_is_stored_with_its_table_and_replaced() {
    for db in TestDb::all("analysis").await {
        let store = db.open().await;
        let t = table("cccccccccccccccccccccccc");
        store.create_table(&t).await.unwrap();
        assert_eq!(store.load_analysis(&t.id).await.unwrap(), None);
        store
            .save_analysis(&t.id, 1, r#"{"decisions":[]}"#)
            .await
            .unwrap();
        store
            .save_analysis(&t.id, 1, r#"{"decisions":[1]}"#)
            .await
            .unwrap();
        let stored = store.load_analysis(&t.id).await.unwrap().unwrap();
        assert_eq!(
            stored,
            StoredAnalysis {
                version: 1,
                analysis: r#"{"decisions":[1]}"#.into()
            }
        );
        // Only a stored table has an analysis.
        assert!(
            store
                .save_analysis("dddddddddddddddddddddddd", 1, "{}")
                .await
                .is_err()
        );
        store.close().await.unwrap();
        // It survives the store's closing.
        let again = db.open().await;
        assert_eq!(again.load_analysis(&t.id).await.unwrap(), Some(stored));
        again.close().await.unwrap();
    }
}

#[tokio::test]
async fn listed_tables_are_found_by_open_seat_or_all_taken_latest_first_and_paged() {
    for db in TestDb::all("listed").await {
        let store = db.open().await;
        let listed = |id: &str, updated_at: i64, open: bool| {
            let mut t = table(id);
            t.listed = true;
            t.updated_at = updated_at;
            if !open {
                t.seats[0] = StoredSeat::new(0, SeatKind::Ai("random".into()));
            }
            t
        };
        let open_old = listed("listedopen00000000000001", 10, true);
        let open_new = listed("listedopen00000000000002", 20, true);
        let live = listed("listedlive00000000000001", 15, false);
        let mut finished = listed("listeddone00000000000001", 30, true);
        finished.result = Some(vec![1.0, -1.0]);
        let unlisted = table("unlisted0000000000000001");
        for t in [&open_old, &open_new, &live, &finished, &unlisted] {
            store.create_table(t).await.unwrap();
        }
        assert_eq!(
            store.listed_tables(false, 0, 10).await.unwrap(),
            vec![open_new.id.clone(), open_old.id.clone()],
            "open seats, latest first; not the unlisted or finished tables"
        );
        assert_eq!(
            store.listed_tables(true, 0, 10).await.unwrap(),
            vec![live.id.clone()]
        );
        assert_eq!(
            store.listed_tables(false, 1, 1).await.unwrap(),
            vec![open_old.id.clone()]
        );
        assert!(store.listed_tables(false, 2, 1).await.unwrap().is_empty());
        store.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_table_has_at_most_one_rematch_and_a_rematch_is_not_an_open_table() {
    for db in TestDb::all("rematch").await {
        let store = db.open().await;
        let mut old = table("rematchold00000000000001");
        old.result = Some(vec![1.0, -1.0]);
        store.create_table(&old).await.unwrap();
        assert_eq!(store.find_rematch(&old.id).await.unwrap(), None);
        let mut first = table("rematchnew00000000000001");
        first.rematch_of = Some(old.id.clone());
        first.listed = true;
        store.create_table(&first).await.unwrap();
        let mut second = table("rematchnew00000000000002");
        second.rematch_of = Some(old.id.clone());
        assert!(
            store.create_table(&second).await.is_err(),
            "a second rematch of one table is refused"
        );
        assert!(store.load_table(&second.id).await.unwrap().is_none());
        assert_eq!(
            store.find_rematch(&old.id).await.unwrap(),
            Some(first.id.clone())
        );
        assert_eq!(store.load_table(&first.id).await.unwrap().unwrap(), first);
        assert!(
            store.listed_tables(false, 0, 10).await.unwrap().is_empty(),
            "its open seats are kept for the last game's players"
        );
        store.close().await.unwrap();
    }
}

#[tokio::test]
async fn concurrent_appends_commit_together_and_fail_alone() {
    for db in TestDb::all("group-commit").await {
        concurrent_appends(db.open().await).await;
    }
}

async fn concurrent_appends(store: Arc<dyn Store>) {
    let ids: Vec<String> = (0..20).map(|i| format!("{i:0>24}")).collect();
    for id in &ids {
        store.create_table(&table(id)).await.unwrap();
    }
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let store = store.clone();
        let id = id.clone();
        // Every fifth append is stale and must fail without harming the others.
        let base = if i % 5 == 0 { 0 } else { 1 };
        tasks.push(tokio::spawn(async move {
            let action = StoredAction {
                version: base + 1,
                seat: Some(0),
                text: format!("move {i}"),
                auto: false,
                think_ms: None,
                clock: None,
            };
            store.append_actions(&id, base, &[action], None).await
        }));
    }
    for (i, task) in tasks.into_iter().enumerate() {
        let outcome = task.await.unwrap();
        let loaded = store.load_table(&ids[i]).await.unwrap().unwrap();
        if i % 5 == 0 {
            assert!(matches!(outcome, Err(StoreError::Conflict(_))));
            assert_eq!(loaded.version, 1);
            assert_eq!(loaded.actions.len(), 1);
        } else {
            outcome.unwrap();
            assert_eq!(loaded.version, 2);
            assert_eq!(loaded.actions[1].text, format!("move {i}"));
        }
    }
}

#[tokio::test]
async fn concurrent_creations_joins_and_ends_share_commits_and_fail_alone() {
    for db in TestDb::all("mixed-writes").await {
        mixed_writes(db.open().await).await;
    }
}

async fn mixed_writes(store: Arc<dyn Store>) {
    let ids: Vec<String> = (0..30).map(|i| format!("{:0>24}", i + 100)).collect();
    // The tables are created concurrently, each then joined, and every
    // third one also ended at a wrong version (refused alone).
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let store = store.clone();
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            store.create_table(&table(&id)).await?;
            let mut seat = StoredSeat::new(0, SeatKind::Human);
            seat.name = Some(format!("p{i}"));
            store.claim_seat(&id, &seat).await?;
            let ending = Ending {
                reason: EndReason::Closed,
                seat: None,
                returns: None,
            };
            let version = if i % 3 == 0 { 9 } else { 1 };
            store.end_table(&id, version, &ending).await
        }));
    }
    for (i, task) in tasks.into_iter().enumerate() {
        let outcome = task.await.unwrap();
        let loaded = store.load_table(&ids[i]).await.unwrap().unwrap();
        assert_eq!(
            loaded.seats[0].name.as_deref(),
            Some(format!("p{i}").as_str())
        );
        if i % 3 == 0 {
            assert!(matches!(outcome, Err(StoreError::Conflict(_))));
            assert_eq!(loaded.ending, None);
        } else {
            outcome.unwrap();
            assert_eq!(loaded.ending.map(|e| e.reason), Some(EndReason::Closed));
        }
    }
    // A second creation with a taken id fails without harming the table.
    assert!(store.create_table(&table(&ids[1])).await.is_err());
    assert_eq!(
        store
            .load_table(&ids[1])
            .await
            .unwrap()
            .unwrap()
            .actions
            .len(),
        1
    );
}

#[tokio::test]
async fn a_second_store_on_one_sqlite_file_is_refused_until_the_first_closes() {
    let db = TestDb::sqlite("lock");
    let TestDb::Sqlite(path) = &db else {
        unreachable!("a SQLite test database");
    };
    let first = SqliteStore::open(path).await.unwrap();
    let second = SqliteStore::open(path).await;
    match second {
        Err(StoreError::Database(m)) => assert!(m.contains("another server"), "{m}"),
        other => panic!("a second store opened: {:?}", other.map(|_| ())),
    }
    first.close().await.unwrap();
    SqliteStore::open(path).await.unwrap();
}

#[tokio::test]
async fn a_postgres_node_writes_only_the_tables_it_owns() {
    let Some(url) = test_database().await.expect("a PostgreSQL test database") else {
        return;
    };
    let owner = PgStore::open(&url).await.unwrap();
    let other = PgStore::open(&url).await.unwrap();
    let t = table("dddddddddddddddddddddddd");
    owner.create_table(&t).await.unwrap();
    let next = [second_action()];
    let ending = Ending {
        reason: EndReason::Closed,
        seat: None,
        returns: None,
    };
    let seat = StoredSeat::new(0, SeatKind::Human);
    assert!(matches!(
        other.append_actions(&t.id, 1, &next, None).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        other.claim_seat(&t.id, &seat).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        other.end_table(&t.id, 1, &ending).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(other.load_table(&t.id).await.unwrap().unwrap(), t);
    owner.append_actions(&t.id, 1, &next, None).await.unwrap();
    assert_eq!(other.load_table(&t.id).await.unwrap().unwrap().version, 2);
}

#[tokio::test]
async fn a_postgres_write_not_done_within_the_lease_is_given_up_and_not_stored() {
    let Some(url) = test_database().await.expect("a PostgreSQL test database") else {
        return;
    };
    let lease = std::time::Duration::from_millis(500);
    let node = PgStore::open_leased(&url, Some(lease)).await.unwrap();
    let t = table("eeeeeeeeeeeeeeeeeeeeeeee");
    node.create_table(&t).await.unwrap();
    // PostgreSQL ends the node's sessions left idle in a transaction after the lease.
    let timeout: String = sqlx::query_scalar("SHOW idle_in_transaction_session_timeout")
        .fetch_one(node.pool())
        .await
        .unwrap();
    assert_eq!(timeout, "500ms");
    // Another session holds the table's row (as a cut-off node's
    // transaction would): the node's write waits for it, past the lease.
    let blocker = sqlx::PgPool::connect(&url).await.unwrap();
    let mut held = blocker.begin().await.unwrap();
    sqlx::query("SELECT 1 FROM game_tables WHERE id = $1 FOR UPDATE")
        .bind(&t.id)
        .execute(&mut *held)
        .await
        .unwrap();
    let next = [second_action()];
    let write = node.append_actions(&t.id, 1, &next, None);
    let written = tokio::time::timeout(10 * lease, write)
        .await
        .expect("the write was not given up");
    assert!(
        matches!(&written, Err(StoreError::Database(m)) if m.contains("lease")),
        "{written:?}"
    );
    held.commit().await.unwrap();
    // Given up means never stored, even once the row is free.
    tokio::time::sleep(lease).await;
    assert_eq!(node.load_table(&t.id).await.unwrap().unwrap().version, 1);
}
