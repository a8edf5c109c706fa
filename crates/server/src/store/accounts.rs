//! Storage of accounts and their sessions, shared by every node of a database.

use super::{StoreError, StoreFuture};
use crate::token::TokenHash;

/// One account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    /// A random id.
    pub id: String,
    /// The name as shown (NFKC).
    pub name: String,
    /// The name in NFKC and lower case (unique).
    pub name_key: String,
    /// The name's confusable skeleton in lower case (unique).
    pub skeleton: String,
    /// The password's Argon2id hash as a PHC string.
    pub password: String,
    /// A random hash that the account's seats and tables carry as their
    /// player hash (no key hashes to it).
    pub player_hash: TokenHash,
    /// When the account was made (Unix seconds).
    pub created_at: i64,
}

/// Durable storage of accounts and sessions. Every method is atomic.
pub trait AccountStore: Send + Sync + 'static {
    /// Stores a new account; [`StoreError::Constraint`] if its name key or
    /// skeleton is taken.
    fn create_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, ()>;

    /// The account with this name key, or else (if given) with this skeleton.
    fn find_account<'a>(
        &'a self,
        name_key: &'a str,
        skeleton: Option<&'a str>,
    ) -> StoreFuture<'a, Option<StoredAccount>>;

    /// Stores a session of `account_id` that ends at `expires_at` (Unix seconds).
    fn create_session<'a>(
        &'a self,
        token_hash: &'a TokenHash,
        account_id: &'a str,
        expires_at: i64,
    ) -> StoreFuture<'a, ()>;

    /// The account of an unexpired session.
    fn session_account<'a>(
        &'a self,
        token_hash: &'a TokenHash,
    ) -> StoreFuture<'a, Option<StoredAccount>>;

    /// Ends one session; the number ended (0 or 1).
    fn end_session<'a>(&'a self, token_hash: &'a TokenHash) -> StoreFuture<'a, u64>;

    /// Ends every session of the account but `keep`; the number ended.
    fn end_sessions<'a>(
        &'a self,
        account_id: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64>;

    /// Replaces the password hash and ends every other session than `keep`;
    /// the number of sessions ended.
    fn set_password<'a>(
        &'a self,
        account_id: &'a str,
        password: &'a str,
        keep: Option<&'a TokenHash>,
    ) -> StoreFuture<'a, u64>;

    /// Deletes the account and its sessions; its seats show
    /// [`super::DELETED_PLAYER`] and lose the account's player hash, and its
    /// tables their creator. Returns the ids of the tables changed.
    fn delete_account<'a>(&'a self, account: &'a StoredAccount) -> StoreFuture<'a, Vec<String>>;

    /// Makes the tables of a guest's player key (`guest`, its hash) the
    /// account's: their seats of that key take the account's name and player
    /// hash, and the tables it created the account's player hash. Returns
    /// the ids of the tables changed.
    fn claim_guest_tables<'a>(
        &'a self,
        account: &'a StoredAccount,
        guest: &'a TokenHash,
    ) -> StoreFuture<'a, Vec<String>>;
}

/// How long a session lasts (30 days).
pub const SESSION_SECONDS: i64 = 30 * 86_400;

/// A stored hash column as a [`TokenHash`].
pub(super) fn to_hash(bytes: Vec<u8>) -> Result<TokenHash, StoreError> {
    bytes
        .try_into()
        .map_err(|_| StoreError::Corrupt("a stored hash is not 32 bytes".into()))
}
