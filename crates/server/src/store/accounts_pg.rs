//! [`AccountStore`] in PostgreSQL: accounts and sessions shared by every
//! node; the tables a deleted account changes are notified to the nodes.

use super::accounts::{AccountStore, StoredAccount, to_hash};
use super::postgres::notify;
use super::sqlite::now;
use super::{DELETED_PLAYER, PgStore, StoreError, StoreFuture};
use crate::token::TokenHash;
use sqlx::Row;
use sqlx::postgres::PgRow;

fn account_from_row(row: &PgRow) -> Result<StoredAccount, StoreError> {
    Ok(StoredAccount {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        name_key: row.try_get("name_key")?,
        skeleton: row.try_get("skeleton")?,
        password: row.try_get("password")?,
        player_hash: to_hash(row.try_get("player_hash")?)?,
        created_at: row.try_get("created_at")?,
    })
}

const ACCOUNT_COLUMNS: &str =
    "accounts.id, name, name_key, skeleton, password, player_hash, accounts.created_at";

impl AccountStore for PgStore {
    fn create_account<'a>(&'a self, a: &'a StoredAccount) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO accounts (id, name, name_key, skeleton, password, player_hash, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&a.id)
            .bind(&a.name)
            .bind(&a.name_key)
            .bind(&a.skeleton)
            .bind(&a.password)
            .bind(a.player_hash.to_vec())
            .bind(a.created_at)
            .execute(self.pool())
            .await?;
            Ok(())
        })
    }

    fn find_account<'a>(
        &'a self,
        name_key: &'a str,
        skeleton: Option<&'a str>,
    ) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1 OR skeleton = $2 \
                 ORDER BY name_key = $1 DESC LIMIT 1"
            );
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(name_key)
                .bind(skeleton)
                .fetch_optional(self.pool())
                .await?;
            row.as_ref().map(account_from_row).transpose()
        })
    }

    fn create_session<'a>(
        &'a self,
        token_hash: &'a TokenHash,
        account_id: &'a str,
        expires_at: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool().begin().await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND expires_at <= $2")
                .bind(account_id)
                .bind(now())
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(token_hash.to_vec())
            .bind(account_id)
            .bind(now())
            .bind(expires_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn session_account<'a>(
        &'a self,
        token_hash: &'a TokenHash,
    ) -> StoreFuture<'a, Option<StoredAccount>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions JOIN accounts ON accounts.id = \
                 sessions.account_id WHERE token_hash = $1 AND expires_at > $2"
            );
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(token_hash.to_vec())
                .bind(now())
                .fetch_optional(self.pool())
                .await?;
            row.as_ref().map(account_from_row).transpose()
        })
    }

    fn end_session<'a>(&'a self, token_hash: &'a TokenHash) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash.to_vec())
                .execute(self.pool())
                .await?;
            Ok(done.rows_affected())
        })
    }

    fn end_sessions<'a>(
        &'a self,
        account_id: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let done = sqlx::query(
                "DELETE FROM sessions WHERE account_id = $1 AND token_hash IS DISTINCT FROM $2",
            )
            .bind(account_id)
            .bind(keep.map(|h| h.to_vec()))
            .execute(self.pool())
            .await?;
            Ok(done.rows_affected())
        })
    }

    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let mut tx = self.pool().begin().await?;
            sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
                .bind(password)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            let done = sqlx::query(
                "DELETE FROM sessions WHERE account_id = $1 AND token_hash IS DISTINCT FROM $2",
            )
            .bind(account_id)
            .bind(keep.map(|h| h.to_vec()))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done.rows_affected())
        })
    }

    fn delete_account<'a>(&'a self, a: &'a StoredAccount) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let hash = a.player_hash.to_vec();
            let mut tx = self.pool().begin().await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(&a.id)
                .execute(&mut *tx)
                .await?;
            // Its ratings and their history go with it.
            for sql in [
                "DELETE FROM ratings WHERE account_id = $1",
                "DELETE FROM rating_history WHERE account_id = $1",
            ] {
                sqlx::query(sql).bind(&a.id).execute(&mut *tx).await?;
            }
            sqlx::query("DELETE FROM accounts WHERE id = $1")
                .bind(&a.id)
                .execute(&mut *tx)
                .await?;
            let mut tables: Vec<String> = sqlx::query_scalar(
                "UPDATE seats SET account = $1, name = $1, player_hash = NULL \
                 WHERE player_hash = $2 RETURNING table_id",
            )
            .bind(DELETED_PLAYER)
            .bind(&hash)
            .fetch_all(&mut *tx)
            .await?;
            let created: Vec<String> = sqlx::query_scalar(
                "UPDATE game_tables SET creator_hash = NULL WHERE creator_hash = $1 RETURNING id",
            )
            .bind(&hash)
            .fetch_all(&mut *tx)
            .await?;
            tables.extend(created);
            tables.sort();
            tables.dedup();
            for table in &tables {
                notify(&mut tx, table).await?;
            }
            tx.commit().await?;
            Ok(tables)
        })
    }

    fn claim_guest_tables<'a>(
        &'a self,
        a: &'a StoredAccount,
        guest: &'a TokenHash,
    ) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let mut tx = self.pool().begin().await?;
            let mut tables: Vec<String> = sqlx::query_scalar(
                "UPDATE seats SET account = $1, name = $1, player_hash = $2 \
                 WHERE player_hash = $3 RETURNING table_id",
            )
            .bind(&a.name)
            .bind(a.player_hash.to_vec())
            .bind(guest.to_vec())
            .fetch_all(&mut *tx)
            .await?;
            let created: Vec<String> = sqlx::query_scalar(
                "UPDATE game_tables SET creator_hash = $1 WHERE creator_hash = $2 RETURNING id",
            )
            .bind(a.player_hash.to_vec())
            .bind(guest.to_vec())
            .fetch_all(&mut *tx)
            .await?;
            tables.extend(created);
            tables.sort();
            tables.dedup();
            for table in &tables {
                notify(&mut tx, table).await?;
            }
            tx.commit().await?;
            Ok(tables)
        })
    }
}
