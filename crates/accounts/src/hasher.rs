//! Password hashing with Argon2id (OWASP parameters: 19 MiB, 2 passes, 1
//! lane) on a bounded set of blocking threads.
//!
//! A hash costs tens of milliseconds of CPU and 19 MiB of memory. At most
//! `workers` hashes run at once, and at most `queue` more wait; beyond that
//! a log-in is refused at once (`rate_limited`) rather than queued, so a
//! storm of log-ins can neither starve the engine and the game actors of
//! cores nor grow memory without bound.

use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::Rng;
use tokio::sync::Semaphore;

use plyyard_wire::error::ApiError;

/// Argon2id memory cost, KiB.
const MEMORY_KIB: u32 = 19 * 1024;
/// Argon2id passes.
const ITERATIONS: u32 = 2;
/// Argon2id lanes.
const LANES: u32 = 1;

/// The bounded hashing pool; cheap to share behind an `Arc`.
#[derive(Debug)]
pub struct Hasher {
    running: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    /// A hash of a random password, verified for unknown usernames so that
    /// a log-in takes as long whether or not the name exists; made on the
    /// pool the first time it is needed, not at start.
    decoy: Arc<OnceLock<String>>,
}

/// The hash of a random password.
fn random_hash() -> String {
    let password: [u8; 16] = rand::rng().random();
    hash_now(&hex::encode(password)).expect("hash a random password")
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, ITERATIONS, LANES, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

fn hash_now(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt_bytes: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt_bytes)?;
    Ok(argon2()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

fn verify_now(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

impl Hasher {
    /// A pool running `workers` hashes at once with `queue` more waiting.
    pub fn new(workers: usize, queue: usize) -> Hasher {
        Hasher {
            running: Arc::new(Semaphore::new(workers.max(1))),
            admitted: Arc::new(Semaphore::new(workers.max(1) + queue)),
            decoy: Arc::new(OnceLock::new()),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Ok(_admitted) = Arc::clone(&self.admitted).try_acquire_owned() else {
            return Err(ApiError::rate_limited(
                "too many log-ins at once; try again in a moment",
                1,
            ));
        };
        let _running = Arc::clone(&self.running)
            .acquire_owned()
            .await
            .map_err(ApiError::internal)?;
        tokio::task::spawn_blocking(job)
            .await
            .map_err(ApiError::internal)
    }

    /// The PHC string of `password` under a fresh salt.
    ///
    /// # Errors
    /// `rate_limited` when the pool is full; `internal` if hashing fails.
    pub async fn hash(&self, password: &str) -> Result<String, ApiError> {
        let password = password.to_owned();
        self.run(move || hash_now(&password))
            .await?
            .map_err(ApiError::internal)
    }

    /// Scores a new password of `username` (see
    /// [`crate::rules::score_password`]) and hashes it if it is strong
    /// enough, both on the pool.
    ///
    /// # Errors
    /// `weak_password`; `rate_limited` when the pool is full; `internal` if
    /// hashing fails.
    pub async fn hash_new(&self, password: &str, username: &str) -> Result<String, ApiError> {
        let (password, username) = (password.to_owned(), username.to_owned());
        self.run(move || {
            crate::rules::score_password(&password, &username)?;
            hash_now(&password).map_err(ApiError::internal)
        })
        .await?
    }

    /// Whether `password` matches the PHC string `phc`; with `None` (no
    /// such account) it spends the same time and answers `false`.
    ///
    /// # Errors
    /// `rate_limited` when the pool is full.
    pub async fn verify(&self, password: &str, phc: Option<&str>) -> Result<bool, ApiError> {
        let password = password.to_owned();
        let phc = phc.map(str::to_owned);
        let decoy = Arc::clone(&self.decoy);
        self.run(move || match phc {
            Some(phc) => verify_now(&password, &phc),
            None => {
                verify_now(&password, decoy.get_or_init(random_hash));
                false
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_use_argon2id_with_owasp_parameters() {
        let h = Hasher::new(1, 4);
        let phc = h.hash("Knight-f3 takes e5!").await.unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(h.verify("Knight-f3 takes e5!", Some(&phc)).await.unwrap());
        assert!(!h.verify("Knight-f3 takes e5", Some(&phc)).await.unwrap());
        assert!(!h.verify("anything", None).await.unwrap());
        assert!(!h.verify("x", Some("not a phc string")).await.unwrap());
        assert_ne!(phc, h.hash("Knight-f3 takes e5!").await.unwrap());
    }

    #[tokio::test]
    async fn a_full_pool_refuses_instead_of_queueing() {
        let h = Arc::new(Hasher::new(1, 1));
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let h = Arc::clone(&h);
                tokio::spawn(async move { h.hash("Knight-f3 takes e5!").await })
            })
            .collect();
        let mut refused = 0;
        for j in jobs {
            if let Err(e) = j.await.unwrap() {
                assert_eq!(e.code, plyyard_wire::error::ErrorCode::RateLimited);
                refused += 1;
            }
        }
        assert!(refused >= 1, "six hashes at once on a pool of 1 + 1");
    }
}
