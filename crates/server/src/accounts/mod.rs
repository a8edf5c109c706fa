//! Optional accounts: names, Argon2id passwords, sessions in a cookie, and
//! the limits on logins. Guests play without one, as before.

pub mod attempts;
pub mod names;
pub mod password;
pub mod session;

use crate::store::AccountStore;
use std::sync::Arc;

/// What the account routes share.
pub struct Accounts {
    /// Accounts and sessions.
    pub store: Arc<dyn AccountStore>,
    /// Password hashing.
    pub passwords: password::Passwords,
    /// Login and sign-up limits.
    pub attempts: attempts::Attempts,
    /// Whether the cookie is always `Secure` (the operator says HTTPS).
    pub secure_cookies: bool,
}

impl Accounts {
    /// Accounts in `store`, hashing two passwords at once at most.
    pub fn new(
        store: Arc<dyn AccountStore>,
        secure_cookies: bool,
    ) -> Result<Self, password::HashError> {
        Ok(Accounts {
            store,
            passwords: password::Passwords::new(2)?,
            attempts: attempts::Attempts::default(),
            secure_cookies,
        })
    }
}
