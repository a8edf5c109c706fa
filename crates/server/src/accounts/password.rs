//! Passwords hashed with Argon2id (m = 19 MiB, t = 2, p = 1, OWASP's
//! guidance), on blocking threads, a few at a time.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The fewest and most characters of a password.
pub const PASSWORD_CHARS: (usize, usize) = (8, 128);

/// Memory in KiB, passes and lanes of the hash.
pub const ARGON2_PARAMS: (u32, u32, u32) = (19 * 1024, 2, 1);

/// Why hashing failed.
#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

/// Hashes and checks passwords, at most `permits` at once (each takes
/// 19 MiB and a core for some tens of milliseconds).
pub struct Passwords {
    permits: Arc<Semaphore>,
    /// The hash checked when a name is unknown, so that the answer takes as long.
    dummy: String,
}

fn argon2() -> Result<Argon2<'static>, HashError> {
    let (m, t, p) = ARGON2_PARAMS;
    let params = Params::new(m, t, p, None).map_err(|e| HashError(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_now(password: &str) -> Result<String, HashError> {
    argon2()?
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| HashError(e.to_string()))
}

impl Passwords {
    /// Hashing `permits` passwords at once at most.
    pub fn new(permits: usize) -> Result<Self, HashError> {
        let dummy = hash_now(&crate::token::new_token())?;
        Ok(Passwords {
            permits: Arc::new(Semaphore::new(permits.max(1))),
            dummy,
        })
    }

    /// The PHC string of `password`'s hash with a new random salt.
    pub async fn hash(&self, password: &str) -> Result<String, HashError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| HashError(e.to_string()))?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || hash_now(&password))
            .await
            .map_err(|e| HashError(e.to_string()))?
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name),
    /// checks a dummy hash and says no, taking as long.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, HashError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|e| HashError(e.to_string()))?;
        let known = hash.is_some();
        let hash = hash.unwrap_or(&self.dummy).to_string();
        let password = password.to_string();
        let matched = tokio::task::spawn_blocking(move || {
            argon2().map(|a| {
                a.verify_password(password.as_bytes(), hash.as_str())
                    .is_ok()
            })
        })
        .await
        .map_err(|e| HashError(e.to_string()))??;
        Ok(known && matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_owasp_parameters_and_verify() {
        let passwords = Passwords::new(1).unwrap();
        let hash = passwords.hash("correct horse").await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct horse"));
        assert!(
            passwords
                .verify("correct horse", Some(&hash))
                .await
                .unwrap()
        );
        assert!(!passwords.verify("wrong horse", Some(&hash)).await.unwrap());
        assert!(!passwords.verify("correct horse", None).await.unwrap());
        assert_ne!(
            hash,
            passwords.hash("correct horse").await.unwrap(),
            "salted"
        );
    }
}
