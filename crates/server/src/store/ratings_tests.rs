//! The ratings store's tests: a finished rated table is rated once, however
//! often and however concurrently it is tried (SQLite, and PostgreSQL with
//! `SPELBORD_TEST_PG`).

use super::tests::{TestDb, table};
use super::*;
use crate::rating::{NEW_PLAYER, after_game};
use std::sync::Arc;

fn account(name: &str, hash: u8) -> StoredAccount {
    StoredAccount {
        id: format!("id-{name}"),
        name: name.into(),
        name_key: name.into(),
        skeleton: name.into(),
        password: "x".into(),
        player_hash: [hash; 32],
        created_at: 1,
    }
}

async fn stores(db: &TestDb) -> (Arc<dyn Store>, Arc<dyn AccountStore>, Arc<dyn RatingStore>) {
    match db {
        TestDb::Sqlite(path) => {
            let s = SqliteStore::open(path).await.unwrap();
            (Arc::new(s.clone()), Arc::new(s.clone()), Arc::new(s))
        }
        TestDb::Postgres(url) => {
            let s = PgStore::open(url).await.unwrap();
            (Arc::new(s.clone()), Arc::new(s.clone()), Arc::new(s))
        }
    }
}

fn game(id: &str, places: [usize; 2]) -> RatedGame {
    RatedGame {
        table_id: id.into(),
        pool: "tawla".into(),
        at: crate::store::unix_now(),
        seats: vec![
            RatedSeat {
                player: Some([1; 32]),
                place: places[0],
            },
            RatedSeat {
                player: Some([2; 32]),
                place: places[1],
            },
        ],
    }
}

#[tokio::test]
async fn a_table_is_rated_exactly_once() {
    for db in TestDb::all("rated-once").await {
        let (store, accounts, ratings) = stores(&db).await;
        accounts.create_account(&account("ann", 1)).await.unwrap();
        accounts.create_account(&account("bo", 2)).await.unwrap();
        let mut t = table("rrrrrrrrrrrrrrrrrrrrrrrr");
        t.rated = true;
        store.create_table(&t).await.unwrap();
        store
            .end_table(
                &t.id,
                t.version,
                &Ending {
                    reason: EndReason::Resigned,
                    seat: Some(1),
                    returns: Some(vec![1.0, -1.0]),
                },
            )
            .await
            .unwrap();
        assert_eq!(
            ratings.unrated_tables(0, 10).await.unwrap(),
            vec![t.id.clone()]
        );
        assert!(ratings.rate_game(&game(&t.id, [0, 1])).await.unwrap());
        assert!(!ratings.rate_game(&game(&t.id, [0, 1])).await.unwrap());
        assert!(ratings.unrated_tables(0, 10).await.unwrap().is_empty());
        // Two tries at once (two nodes): one rates.
        let second = game("ssssssssssssssssssssssss", [1, 0]);
        let (a, b) = tokio::join!(ratings.rate_game(&second), ratings.rate_game(&second));
        assert_eq!(u8::from(a.unwrap()) + u8::from(b.unwrap()), 1);
        let first = after_game(&[NEW_PLAYER, NEW_PLAYER], &[0, 1]);
        let then = after_game(&first, &[1, 0]);
        let ann = ratings.ratings_of("id-ann").await.unwrap();
        assert_eq!(ann.len(), 1);
        assert_eq!(ann[0].games, 2);
        assert!((ann[0].rating.rating - then[0].rating).abs() < 1e-9);
        let history = ratings.history_of("id-bo", 10).await.unwrap();
        assert_eq!(history.len(), 2);
        let of_first = history.iter().find(|h| h.table_id == t.id).unwrap();
        assert!((of_first.change - (first[1].rating - 1500.0)).abs() < 1e-9);
        let board = ratings.leaderboard("tawla", 0, true, 10).await.unwrap();
        assert_eq!(board.len(), 2);
        // A deleted account's ratings go with it.
        accounts.delete_account(&account("bo", 2)).await.unwrap();
        assert!(ratings.ratings_of("id-bo").await.unwrap().is_empty());
        assert!(ratings.history_of("id-bo", 10).await.unwrap().is_empty());
    }
}
