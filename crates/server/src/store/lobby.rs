//! Storage of seeks, the quick-pairing queue and the lobby's players online,
//! shared by every node of a database (times in Unix milliseconds). An
//! accept is one conditional update of the seek's row (the row's lock in
//! PostgreSQL orders two nodes' accepts), so exactly `players - 1` accepts
//! win; a pairing round holds an advisory lock in PostgreSQL, so one node
//! pairs at a time.

use super::dialect::Dialect;
use super::{PgStore, SqliteStore, StoreError, StoreFuture};
use crate::token::TokenHash;
use sqlx::Row;

/// A seek as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSeek {
    /// Its id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// The seek as shown (JSON), without `accepted`.
    pub body: String,
    /// The table request (JSON), as `POST /api/tables` takes it.
    pub request: String,
    /// The owner's player hash.
    pub owner: TokenHash,
    /// Rated seeks: the rating pool.
    pub pool: Option<String>,
    /// Rated seeks: the lowest rating allowed to see and accept it.
    pub rating_min: Option<f64>,
    /// Rated seeks: the highest rating allowed.
    pub rating_max: Option<f64>,
    /// The players of the table.
    pub players: i64,
    /// The players who have accepted (the owner not counted).
    pub accepted: i64,
    /// `open` or `paired`.
    pub state: String,
    /// Once paired: the table.
    pub table_id: Option<String>,
    /// When it was posted.
    pub created_at: i64,
    /// When it is withdrawn at the latest.
    pub expires_at: i64,
}

/// A player of a seek: its owner or one who accepted it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekPlayer {
    /// The player hash (a guest's key's, or an account's).
    pub hash: TokenHash,
    /// Whether this is the seek's owner.
    pub owner: bool,
    /// The display name.
    pub name: Option<String>,
    /// The account's name (signed-in players).
    pub account: Option<String>,
    /// Once paired: the seat.
    pub seat: Option<i64>,
    /// Once paired: the seat's token.
    pub token: Option<String>,
}

/// What an accept did.
#[derive(Clone, Debug, PartialEq)]
pub enum Accepted {
    /// More accepts are needed: those so far, and the players of the table.
    Waiting(i64, i64),
    /// This accept filled the seek: every player, the owner first.
    Filled(Vec<SeekPlayer>),
}

/// One player queued for quick pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueEntry {
    /// The player hash.
    pub hash: TokenHash,
    /// The pairing pool's id.
    pub pool: String,
    /// The display name.
    pub name: Option<String>,
    /// The account's name; `None` for guests.
    pub account: Option<String>,
    /// Accounts: the rating in the pool's rating pool.
    pub rating: Option<f64>,
    /// Accounts: its deviation.
    pub deviation: Option<f64>,
    /// When the player queued.
    pub queued_at: i64,
}

/// Picks pairs among the queue (indices into it).
pub type PairPicker<'a> = &'a (dyn Fn(&[QueueEntry]) -> Vec<(usize, usize)> + Send + Sync);

/// Durable, shared storage of the lobby. Every method is atomic.
pub trait LobbyStore: Send + Sync + 'static {
    /// Stores a new seek with its owner.
    fn insert_seek<'a>(
        &'a self,
        seek: &'a StoredSeek,
        owner: &'a SeekPlayer,
    ) -> StoreFuture<'a, ()>;
    /// The open seeks not expired at `now`, the oldest first.
    fn open_seeks(&self, now: i64) -> StoreFuture<'_, Vec<StoredSeek>>;
    /// One seek, open or paired.
    fn seek<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredSeek>>;
    /// A player of a seek.
    fn seek_player<'a>(
        &'a self,
        id: &'a str,
        hash: &'a TokenHash,
    ) -> StoreFuture<'a, Option<SeekPlayer>>;
    /// Accepts an open seek for `player`; `None` if it is gone (taken,
    /// withdrawn, expired). A second accept of one player is a
    /// [`StoreError::Constraint`].
    fn accept<'a>(
        &'a self,
        id: &'a str,
        player: &'a SeekPlayer,
        now: i64,
    ) -> StoreFuture<'a, Option<Accepted>>;
    /// Records the table made of a filled seek and each player's seat and token.
    fn set_paired<'a>(
        &'a self,
        id: &'a str,
        table: &'a str,
        seats: &'a [(TokenHash, i64, String)],
    ) -> StoreFuture<'a, ()>;
    /// Deletes an open seek of `owner` (any seek if `None`); whether it was there.
    fn withdraw<'a>(&'a self, id: &'a str, owner: Option<&'a TokenHash>) -> StoreFuture<'a, bool>;
    /// Marks the owners of these seeks, and these queued players, as seen in the lobby.
    fn touch<'a>(
        &'a self,
        seeks: &'a [String],
        queued: &'a [TokenHash],
        now: i64,
    ) -> StoreFuture<'a, ()>;
    /// Withdraws the open seeks whose owner was last seen before `seen`
    /// or that expired at `now`, and forgets paired seeks expired and
    /// queued players last seen before `seen`: the withdrawn seeks' ids and games.
    fn sweep(&self, now: i64, seen: i64) -> StoreFuture<'_, Vec<(String, String)>>;
    /// Queues a player (again, for another pool, if queued already).
    fn queue_put<'a>(&'a self, entry: &'a QueueEntry, now: i64) -> StoreFuture<'a, ()>;
    /// Takes a player out of the queue; whether it was queued.
    fn queue_remove<'a>(&'a self, hash: &'a TokenHash) -> StoreFuture<'a, bool>;
    /// One pairing round, on one node at a time: reads the queue, picks
    /// pairs with `pick`, and takes them out of the queue. Returns the
    /// pairs (none if another node is pairing now).
    fn pair_round<'a>(
        &'a self,
        pick: PairPicker<'a>,
    ) -> StoreFuture<'a, Vec<(QueueEntry, QueueEntry)>>;
    /// Stores this node's lobby connections per game (JSON).
    fn online_put<'a>(&'a self, node: &'a str, counts: &'a str, now: i64) -> StoreFuture<'a, ()>;
    /// Every node's counts stored at or after `since`.
    fn online_all(&self, since: i64) -> StoreFuture<'_, Vec<String>>;
}

fn hash_of(bytes: Vec<u8>) -> Result<TokenHash, StoreError> {
    bytes
        .try_into()
        .map_err(|_| StoreError::Corrupt("a player hash is not 32 bytes".into()))
}

const SEEK_COLUMNS: &str = "id, game, body, request, owner_hash, pool, rating_min, rating_max, \
     players, accepted, state, table_id, created_at, expires_at";

const PLAYER_COLUMNS: &str = "player_hash, owner, name, account, seat, token";

const QUEUE_COLUMNS: &str = "player_hash, pool, name, account, rating, deviation, queued_at";

const INSERT_PLAYER: &str = "INSERT INTO seek_players \
     (seek_id, player_hash, owner, name, account, accepted_at) VALUES ($1, $2, $3, $4, $5, $6)";

/// The advisory lock of a pairing round in PostgreSQL.
const PAIRING_LOCK: i64 = 0x5370_656c_5061_6972;

/// Implements [`LobbyStore`] for `$store`.
macro_rules! lobby_store {
    ($store:ty) => {
        type Db = <$store as Dialect>::Db;
        type DbRow = <Db as sqlx::Database>::Row;

        /// Adds a player (owner or acceptor) to a seek.
        async fn insert_player(
            tx: &mut sqlx::Transaction<'_, Db>,
            id: &str,
            player: &SeekPlayer,
            now: i64,
        ) -> Result<(), StoreError> {
            sqlx::query(INSERT_PLAYER)
                .bind(id)
                .bind(player.hash.to_vec())
                .bind(i64::from(player.owner))
                .bind(&player.name)
                .bind(&player.account)
                .bind(now)
                .execute(&mut **tx)
                .await?;
            Ok(())
        }

        fn seek_of(row: &DbRow) -> Result<StoredSeek, StoreError> {
            Ok(StoredSeek {
                id: row.try_get("id")?,
                game: row.try_get("game")?,
                body: row.try_get("body")?,
                request: row.try_get("request")?,
                owner: hash_of(row.try_get("owner_hash")?)?,
                pool: row.try_get("pool")?,
                rating_min: row.try_get("rating_min")?,
                rating_max: row.try_get("rating_max")?,
                players: row.try_get("players")?,
                accepted: row.try_get("accepted")?,
                state: row.try_get("state")?,
                table_id: row.try_get("table_id")?,
                created_at: row.try_get("created_at")?,
                expires_at: row.try_get("expires_at")?,
            })
        }

        fn player_of(row: &DbRow) -> Result<SeekPlayer, StoreError> {
            Ok(SeekPlayer {
                hash: hash_of(row.try_get("player_hash")?)?,
                owner: row.try_get::<i64, _>("owner")? != 0,
                name: row.try_get("name")?,
                account: row.try_get("account")?,
                seat: row.try_get("seat")?,
                token: row.try_get("token")?,
            })
        }

        fn entry_of(row: &DbRow) -> Result<QueueEntry, StoreError> {
            Ok(QueueEntry {
                hash: hash_of(row.try_get("player_hash")?)?,
                pool: row.try_get("pool")?,
                name: row.try_get("name")?,
                account: row.try_get("account")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
                queued_at: row.try_get("queued_at")?,
            })
        }

        impl LobbyStore for $store {
            fn insert_seek<'a>(
                &'a self,
                seek: &'a StoredSeek,
                owner: &'a SeekPlayer,
            ) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "INSERT INTO seeks ({SEEK_COLUMNS}, owner_seen_at) VALUES \
                         ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $13)"
                    )))
                    .bind(&seek.id)
                    .bind(&seek.game)
                    .bind(&seek.body)
                    .bind(&seek.request)
                    .bind(seek.owner.to_vec())
                    .bind(&seek.pool)
                    .bind(seek.rating_min)
                    .bind(seek.rating_max)
                    .bind(seek.players)
                    .bind(seek.accepted)
                    .bind(&seek.state)
                    .bind(&seek.table_id)
                    .bind(seek.created_at)
                    .bind(seek.expires_at)
                    .execute(&mut *tx)
                    .await?;
                    insert_player(&mut tx, &seek.id, owner, seek.created_at).await?;
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn open_seeks(&self, now: i64) -> StoreFuture<'_, Vec<StoredSeek>> {
                Box::pin(async move {
                    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT {SEEK_COLUMNS} FROM seeks WHERE state = 'open' AND expires_at > $1 \
                         ORDER BY created_at, id"
                    )))
                    .bind(now)
                    .fetch_all(self.reader())
                    .await?;
                    rows.iter().map(seek_of).collect()
                })
            }

            fn seek<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredSeek>> {
                Box::pin(async move {
                    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1"
                    )))
                    .bind(id)
                    .fetch_optional(self.reader())
                    .await?;
                    row.as_ref().map(seek_of).transpose()
                })
            }

            fn seek_player<'a>(
                &'a self,
                id: &'a str,
                hash: &'a TokenHash,
            ) -> StoreFuture<'a, Option<SeekPlayer>> {
                Box::pin(async move {
                    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT {PLAYER_COLUMNS} FROM seek_players \
                         WHERE seek_id = $1 AND player_hash = $2"
                    )))
                    .bind(id)
                    .bind(hash.to_vec())
                    .fetch_optional(self.reader())
                    .await?;
                    row.as_ref().map(player_of).transpose()
                })
            }

            fn accept<'a>(
                &'a self,
                id: &'a str,
                player: &'a SeekPlayer,
                now: i64,
            ) -> StoreFuture<'a, Option<Accepted>> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let counted = sqlx::query(
                        "UPDATE seeks SET accepted = accepted + 1 WHERE id = $1 \
                         AND state = 'open' AND expires_at > $2 AND accepted < players - 1 \
                         RETURNING accepted, players",
                    )
                    .bind(id)
                    .bind(now)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let Some(counted) = counted else {
                        return Ok(None);
                    };
                    let (accepted, players): (i64, i64) =
                        (counted.try_get("accepted")?, counted.try_get("players")?);
                    insert_player(&mut tx, id, player, now).await?;
                    if accepted < players - 1 {
                        tx.commit().await?;
                        return Ok(Some(Accepted::Waiting(accepted, players)));
                    }
                    sqlx::query("UPDATE seeks SET state = 'paired' WHERE id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT {PLAYER_COLUMNS} FROM seek_players WHERE seek_id = $1 \
                         ORDER BY owner DESC, accepted_at, player_hash"
                    )))
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?;
                    let players = rows.iter().map(player_of).collect::<Result<Vec<_>, _>>()?;
                    tx.commit().await?;
                    Ok(Some(Accepted::Filled(players)))
                })
            }

            fn set_paired<'a>(
                &'a self,
                id: &'a str,
                table: &'a str,
                seats: &'a [(TokenHash, i64, String)],
            ) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    sqlx::query("UPDATE seeks SET table_id = $2 WHERE id = $1")
                        .bind(id)
                        .bind(table)
                        .execute(&mut *tx)
                        .await?;
                    for (hash, seat, token) in seats {
                        sqlx::query(
                            "UPDATE seek_players SET seat = $3, token = $4 \
                             WHERE seek_id = $1 AND player_hash = $2",
                        )
                        .bind(id)
                        .bind(hash.to_vec())
                        .bind(seat)
                        .bind(token)
                        .execute(&mut *tx)
                        .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn withdraw<'a>(
                &'a self,
                id: &'a str,
                owner: Option<&'a TokenHash>,
            ) -> StoreFuture<'a, bool> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let deleted = sqlx::query(
                        "DELETE FROM seeks WHERE id = $1 AND state = 'open' \
                         AND ($2 IS NULL OR owner_hash = $2)",
                    )
                    .bind(id)
                    .bind(owner.map(|o| o.to_vec()))
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query("DELETE FROM seek_players WHERE seek_id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    let gone = deleted.rows_affected() == 1;
                    if gone {
                        tx.commit().await?;
                    }
                    Ok(gone)
                })
            }

            fn touch<'a>(
                &'a self,
                seeks: &'a [String],
                queued: &'a [TokenHash],
                now: i64,
            ) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    if seeks.is_empty() && queued.is_empty() {
                        return Ok(());
                    }
                    let mut tx = self.writer().begin().await?;
                    for id in seeks {
                        sqlx::query("UPDATE seeks SET owner_seen_at = $2 WHERE id = $1")
                            .bind(id)
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                    }
                    for hash in queued {
                        sqlx::query("UPDATE pairing_queue SET seen_at = $2 WHERE player_hash = $1")
                            .bind(hash.to_vec())
                            .bind(now)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                })
            }

            fn sweep(&self, now: i64, seen: i64) -> StoreFuture<'_, Vec<(String, String)>> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let rows = sqlx::query(
                        "DELETE FROM seeks WHERE (state = 'open' AND owner_seen_at < $1) \
                         OR expires_at <= $2 RETURNING id, game, state",
                    )
                    .bind(seen)
                    .bind(now)
                    .fetch_all(&mut *tx)
                    .await?;
                    let mut withdrawn = Vec::new();
                    for row in &rows {
                        let id: String = row.try_get("id")?;
                        sqlx::query("DELETE FROM seek_players WHERE seek_id = $1")
                            .bind(&id)
                            .execute(&mut *tx)
                            .await?;
                        if row.try_get::<String, _>("state")? == "open" {
                            withdrawn.push((id, row.try_get("game")?));
                        }
                    }
                    sqlx::query("DELETE FROM pairing_queue WHERE seen_at < $1")
                        .bind(seen)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(withdrawn)
                })
            }

            fn queue_put<'a>(&'a self, entry: &'a QueueEntry, now: i64) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "INSERT INTO pairing_queue ({QUEUE_COLUMNS}, seen_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                         ON CONFLICT (player_hash) DO UPDATE SET pool = $2, name = $3, \
                         account = $4, rating = $5, deviation = $6, queued_at = $7, \
                         seen_at = $8"
                    )))
                    .bind(entry.hash.to_vec())
                    .bind(&entry.pool)
                    .bind(&entry.name)
                    .bind(&entry.account)
                    .bind(entry.rating)
                    .bind(entry.deviation)
                    .bind(entry.queued_at)
                    .bind(now)
                    .execute(self.writer())
                    .await?;
                    Ok(())
                })
            }

            fn queue_remove<'a>(&'a self, hash: &'a TokenHash) -> StoreFuture<'a, bool> {
                Box::pin(async move {
                    let done = sqlx::query("DELETE FROM pairing_queue WHERE player_hash = $1")
                        .bind(hash.to_vec())
                        .execute(self.writer())
                        .await?;
                    Ok(done.rows_affected() > 0)
                })
            }

            fn pair_round<'a>(
                &'a self,
                pick: PairPicker<'a>,
            ) -> StoreFuture<'a, Vec<(QueueEntry, QueueEntry)>> {
                Box::pin(async move {
                    let mut tx = self.writer().begin().await?;
                    let locked: bool = sqlx::query_scalar(<$store as Dialect>::TRY_LOCK)
                        .bind(PAIRING_LOCK)
                        .fetch_one(&mut *tx)
                        .await?;
                    if !locked {
                        return Ok(Vec::new());
                    }
                    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT {QUEUE_COLUMNS} FROM pairing_queue ORDER BY queued_at, player_hash"
                    )))
                    .fetch_all(&mut *tx)
                    .await?;
                    let queue = rows.iter().map(entry_of).collect::<Result<Vec<_>, _>>()?;
                    let mut pairs = Vec::new();
                    for (a, b) in pick(&queue) {
                        let (Some(a), Some(b)) = (queue.get(a), queue.get(b)) else {
                            continue;
                        };
                        for hash in [&a.hash, &b.hash] {
                            sqlx::query("DELETE FROM pairing_queue WHERE player_hash = $1")
                                .bind(hash.to_vec())
                                .execute(&mut *tx)
                                .await?;
                        }
                        pairs.push((a.clone(), b.clone()));
                    }
                    tx.commit().await?;
                    Ok(pairs)
                })
            }

            fn online_put<'a>(
                &'a self,
                node: &'a str,
                counts: &'a str,
                now: i64,
            ) -> StoreFuture<'a, ()> {
                Box::pin(async move {
                    sqlx::query(
                        "INSERT INTO lobby_online (node, counts, at) VALUES ($1, $2, $3) \
                         ON CONFLICT (node) DO UPDATE SET counts = $2, at = $3",
                    )
                    .bind(node)
                    .bind(counts)
                    .bind(now)
                    .execute(self.writer())
                    .await?;
                    Ok(())
                })
            }

            fn online_all(&self, since: i64) -> StoreFuture<'_, Vec<String>> {
                Box::pin(async move {
                    let rows = sqlx::query("SELECT counts FROM lobby_online WHERE at >= $1")
                        .bind(since)
                        .fetch_all(self.reader())
                        .await?;
                    rows.iter()
                        .map(|r| r.try_get("counts").map_err(StoreError::from))
                        .collect()
                })
            }
        }
    };
}

mod sqlite {
    use super::*;
    lobby_store!(SqliteStore);
}

mod postgres {
    use super::*;
    lobby_store!(PgStore);
}
