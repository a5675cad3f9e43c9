//! Rate limits keyed by address and account, and the log-in back-off
//! (see the [`super`] documentation, "Rate limits").

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::client_ip::ClientIp;
use crate::error::ApiError;

/// Checks between two purges of idle limiter state.
const PURGE_EVERY: u64 = 4096;

/// The logged-in account of a request, for rate limits: the identity
/// middleware puts one in the request's extensions when the request
/// carries a valid session (the account's player id).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccountKey(pub String);

/// Who a rate limit counts against: the client address, and the account
/// when logged in. A request is charged to both.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LimitKey {
    /// The client address.
    pub ip: ClientIp,
    /// The logged-in account, if any.
    pub account: Option<AccountKey>,
}

impl LimitKey {
    /// The key of a request from `ip`, logged in to `account` or not.
    pub fn new(ip: ClientIp, account: Option<&AccountKey>) -> LimitKey {
        LimitKey {
            ip,
            account: account.cloned(),
        }
    }
}

/// A handler's `LimitKey` argument: the [`ClientIp`] that [`guard`](super::guard) found
/// and the [`AccountKey`] of the session, if any.
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for LimitKey {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<LimitKey, ApiError> {
        let ip = parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .ok_or_else(|| ApiError::internal("a request without a client address"))?;
        Ok(LimitKey {
            ip,
            account: parts.extensions.get::<AccountKey>().cloned(),
        })
    }
}

/// One count of a limiter: an address or an account.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Subject {
    Ip(ClientIp),
    Account(AccountKey),
}

/// A refusal by a rate limit: how long to wait before trying again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// The wait in whole seconds, rounded up, at least 1 (the value of the
    /// `Retry-After` header).
    pub fn secs(self) -> u64 {
        let s = self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0);
        s.max(1)
    }
}

impl From<RetryAfter> for ApiError {
    fn from(r: RetryAfter) -> ApiError {
        ApiError::rate_limited(
            format!("too many requests; try again in {} s", r.secs()),
            r.secs(),
        )
    }
}

impl IntoResponse for RetryAfter {
    fn into_response(self) -> Response {
        ApiError::from(self).into_response()
    }
}

/// Rate-limit quotas (part of [`crate::Tuning`]). A quota of 0 turns that
/// limit off.
#[derive(Debug, Clone, PartialEq)]
pub struct Quotas {
    /// Games one client (address or account) may create per minute; also
    /// the burst.
    pub games_per_minute: u32,
    /// Engine replies (`/api/positions/reply`) one client (address or
    /// account) may ask for per minute; also the burst.
    pub replies_per_minute: u32,
    /// Accounts one address may sign up per hour; also the burst.
    pub signups_per_hour: u32,
    /// Log-in attempts one address may make per minute; also the burst.
    pub logins_per_minute: u32,
    /// Table look-ups by code that could reveal a private table (see
    /// [`Limits::check_table_lookup`]) one address, and one account, may
    /// make per minute; also the burst.
    pub table_lookups_per_minute: u32,
    /// Failed log-ins in a row to one username before back-off starts.
    pub login_free_failures: u32,
    /// The first back-off delay; each further failure doubles it.
    pub login_backoff_base: Duration,
    /// The longest back-off delay.
    pub login_backoff_max: Duration,
    /// Usernames whose failures are remembered at most (older entries are
    /// dropped first when full).
    pub login_tracked_max: usize,
    /// Tables one client may open or close per minute, counted against
    /// its address and its account alike; also the burst.
    pub tables_per_minute: u32,
    /// PGN imports one client may make per minute (address and account);
    /// also the burst.
    pub imports_per_minute: u32,
    /// Seeks (quick pairing) one client may start per minute (address and
    /// account); also the burst.
    pub seeks_per_minute: u32,
    /// Learn progress writes one client may make per minute (address and
    /// account); also the burst.
    pub progress_per_minute: u32,
    /// API credentials one client may obtain per minute (personal tokens
    /// created, OAuth approvals and code exchanges), address and account
    /// alike; also the burst.
    pub credentials_per_minute: u32,
    /// Challenges one account (and one address) may send per minute; also
    /// the burst.
    pub challenges_per_minute: u32,
    /// Chat lines one account (and one address) may say in any ten
    /// seconds, in every game and room together; also the burst.
    pub chat_lines_per_10s: u32,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            games_per_minute: 30,
            replies_per_minute: 30,
            signups_per_hour: 10,
            logins_per_minute: 20,
            table_lookups_per_minute: 30,
            login_free_failures: 5,
            login_backoff_base: Duration::from_secs(1),
            login_backoff_max: Duration::from_secs(15 * 60),
            login_tracked_max: 100_000,
            tables_per_minute: 20,
            imports_per_minute: 10,
            seeks_per_minute: 30,
            progress_per_minute: 60,
            credentials_per_minute: 10,
            challenges_per_minute: 20,
            chat_lines_per_10s: 10,
        }
    }
}

/// A keyed GCRA limiter from `governor`, purged of idle keys now and then
/// so that its memory stays bounded by the keys active within one refill
/// period.
struct Keyed<K: Hash + Eq + Clone> {
    limiter: Option<DefaultKeyedRateLimiter<K>>,
    checks: AtomicU64,
}

impl<K: Hash + Eq + Clone> Keyed<K> {
    fn new(quota: Option<Quota>) -> Keyed<K> {
        Keyed {
            limiter: quota.map(RateLimiter::keyed),
            checks: AtomicU64::new(0),
        }
    }

    fn check(&self, key: &K) -> Result<(), RetryAfter> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % PURGE_EVERY == PURGE_EVERY - 1 {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter
            .check_key(key)
            .map_err(|not_until| RetryAfter(not_until.wait_time_from(limiter.clock().now())))
    }

    /// Counts one request of `key` against its address and its account:
    /// refused when either has used up its quota (the longer wait).
    fn check_both(&self, key: &LimitKey) -> Result<(), RetryAfter>
    where
        K: From<Subject>,
    {
        let by_ip = self.check(&K::from(Subject::Ip(key.ip)));
        let by_account = match &key.account {
            Some(a) => self.check(&K::from(Subject::Account(a.clone()))),
            None => Ok(()),
        };
        match (by_ip, by_account) {
            (Err(a), Err(b)) => Err(a.max(b)),
            (Err(e), _) | (_, Err(e)) => Err(e),
            _ => Ok(()),
        }
    }

    fn len(&self) -> usize {
        self.limiter.as_ref().map_or(0, |l| {
            l.retain_recent();
            l.len()
        })
    }
}

fn per(n: u32, period: Duration) -> Option<Quota> {
    let n = NonZeroU32::new(n)?;
    Quota::with_period(period / n.get()).map(|q| q.allow_burst(n))
}

/// Failed log-ins in a row to one username.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

/// Exponential back-off of failed log-ins, per username (case-insensitive,
/// stored as a hash so that long junk names cost no memory).
#[derive(Debug)]
struct LoginBackoff {
    free: u32,
    base: Duration,
    max: Duration,
    capacity: usize,
    /// Keys of the table: a hash with a per-process random key, so that
    /// nobody can pick names that collide with someone else's.
    keys: RandomState,
    entries: Mutex<HashMap<u64, Failures>>,
}

impl LoginBackoff {
    fn key(&self, username: &str) -> u64 {
        self.keys.hash_one(username.to_lowercase())
    }

    /// The delay imposed after `count` failures in a row.
    fn delay(&self, count: u32) -> Duration {
        if count < self.free {
            return Duration::ZERO;
        }
        let doublings = (count - self.free).min(31);
        self.base
            .checked_mul(1u32 << doublings)
            .unwrap_or(self.max)
            .min(self.max)
    }

    /// Admits one attempt at `username` unless it is backing off, and
    /// counts it as failed at once: racing attempts see each other, so no
    /// more than the free ones are ever checked at the same time. A
    /// success resets the count ([`LoginBackoff::succeeded`]).
    fn attempt(&self, username: &str, now: Instant) -> Result<(), RetryAfter> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.capacity {
            self.purge(&mut entries, now);
        }
        let f = entries.entry(self.key(username)).or_insert(Failures {
            count: 0,
            last: now,
        });
        let until = f.last + self.delay(f.count);
        if f.count > 0 && until > now {
            return Err(RetryAfter(until - now));
        }
        f.count = f.count.saturating_add(1);
        f.last = now;
        Ok(())
    }

    fn succeeded(&self, username: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(&self.key(username));
    }

    /// Drops the entries whose back-off has run out and that are older
    /// than the longest delay; if still at capacity, the older half.
    fn purge(&self, entries: &mut HashMap<u64, Failures>, now: Instant) {
        entries.retain(|_, f| now.saturating_duration_since(f.last) < self.max);
        if entries.len() >= self.capacity {
            let mut ages: Vec<Instant> = entries.values().map(|f| f.last).collect();
            let mid = ages.len() / 2;
            let (_, cut, _) = ages.select_nth_unstable(mid);
            let cut = *cut;
            entries.retain(|_, f| f.last > cut);
        }
    }
}

/// The server's rate limits, shared by all handlers (in
/// [`crate::Shared::limits`]).
///
/// Handlers call one `check_*` method before doing the work; an `Err` is
/// answered as is (`?` turns [`RetryAfter`] into a `429 rate_limited`
/// [`ApiError`] with `Retry-After`). A log-in counts as failed until it
/// reports success with [`Limits::login_succeeded`].
pub struct Limits {
    create_game: Keyed<Subject>,
    reply: Keyed<Subject>,
    signup: Keyed<ClientIp>,
    login: Keyed<ClientIp>,
    table_lookup: Keyed<Subject>,
    backoff: LoginBackoff,
    tables: Keyed<Subject>,
    imports: Keyed<Subject>,
    seeks: Keyed<Subject>,
    progress: Keyed<Subject>,
    credentials: Keyed<Subject>,
    challenges: Keyed<Subject>,
    chat: Keyed<Subject>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits").finish_non_exhaustive()
    }
}

impl Limits {
    /// Limits with the given quotas.
    pub fn new(q: &Quotas) -> Limits {
        Limits {
            create_game: Keyed::new(per(q.games_per_minute, Duration::from_secs(60))),
            reply: Keyed::new(per(q.replies_per_minute, Duration::from_secs(60))),
            signup: Keyed::new(per(q.signups_per_hour, Duration::from_secs(3600))),
            login: Keyed::new(per(q.logins_per_minute, Duration::from_secs(60))),
            tables: Keyed::new(per(q.tables_per_minute, Duration::from_secs(60))),
            imports: Keyed::new(per(q.imports_per_minute, Duration::from_secs(60))),
            seeks: Keyed::new(per(q.seeks_per_minute, Duration::from_secs(60))),
            progress: Keyed::new(per(q.progress_per_minute, Duration::from_secs(60))),
            credentials: Keyed::new(per(q.credentials_per_minute, Duration::from_secs(60))),
            challenges: Keyed::new(per(q.challenges_per_minute, Duration::from_secs(60))),
            chat: Keyed::new(per(q.chat_lines_per_10s, Duration::from_secs(10))),
            table_lookup: Keyed::new(per(q.table_lookups_per_minute, Duration::from_secs(60))),
            backoff: LoginBackoff {
                free: q.login_free_failures,
                base: q.login_backoff_base,
                max: q.login_backoff_max,
                capacity: q.login_tracked_max.max(2),
                keys: RandomState::new(),
                entries: Mutex::new(HashMap::new()),
            },
        }
    }

    /// Counts one game creation by `key`: against its address and its
    /// account.
    ///
    /// # Errors
    /// [`RetryAfter`] when the address or the account has used up its
    /// games per minute.
    pub fn check_create_game(&self, key: &LimitKey) -> Result<(), RetryAfter> {
        self.create_game.check_both(key)
    }

    /// Counts one engine reply asked for by `key`: against its address and
    /// its account.
    ///
    /// # Errors
    /// [`RetryAfter`] when the address or the account has used up its
    /// replies per minute.
    pub fn check_reply(&self, key: &LimitKey) -> Result<(), RetryAfter> {
        self.reply.check_both(key)
    }

    /// Counts one sign-up attempt from `ip`. Call it before hashing the
    /// password, for every attempt (valid or not).
    ///
    /// # Errors
    /// [`RetryAfter`] when `ip` has used up its sign-ups per hour.
    pub fn check_signup(&self, ip: ClientIp) -> Result<(), RetryAfter> {
        self.signup.check(&ip)
    }

    /// Whether a log-in attempt from `ip` to `username` may go ahead. Call
    /// it before looking up the account or hashing anything; it counts one
    /// attempt against `ip`, and one failure against `username` until
    /// [`Limits::login_succeeded`] says otherwise: after
    /// [`Quotas::login_free_failures`] failures in a row the next attempt
    /// must wait [`Quotas::login_backoff_base`], doubling with each further
    /// failure up to [`Quotas::login_backoff_max`] — whether or not the
    /// account exists, so the answer tells nothing about it. Attempts that
    /// race are counted as they come, so no more than the free ones are
    /// ever checked at once.
    ///
    /// # Errors
    /// [`RetryAfter`] when `ip` has used up its attempts per minute or
    /// `username` is in back-off (the wait left).
    pub fn check_login(&self, ip: ClientIp, username: &str) -> Result<(), RetryAfter> {
        self.login.check(&ip)?;
        self.backoff.attempt(username, Instant::now())
    }

    /// Records a successful log-in to `username`: its back-off is reset.
    pub fn login_succeeded(&self, username: &str) {
        self.backoff.succeeded(username);
    }

    /// Counts one table opened or closed by a client, against its address
    /// and its account alike (so that neither new accounts nor new
    /// addresses multiply the quota).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its tables per minute.
    pub fn check_tables(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.tables, ip, account)
    }

    /// Counts one seek started by a client (quick pairing), against its
    /// address and its account alike.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its seeks per minute.
    pub fn check_seeks(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.seeks, ip, account)
    }

    /// Counts one PGN import by a client (address and account).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its imports per minute.
    pub fn check_import(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.imports, ip, account)
    }

    /// Counts one Learn progress write by a client (address and account).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its writes per minute.
    pub fn check_progress(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.progress, ip, account)
    }

    /// Counts one API credential obtained by a client (a personal token
    /// created, an OAuth approval or code exchange), address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its credentials per minute.
    pub fn check_credentials(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.credentials, ip, account)
    }

    /// Counts one challenge sent by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its challenges per minute.
    pub fn check_challenges(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.challenges, ip, account)
    }

    /// Counts one chat line said by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its lines per ten seconds.
    pub fn check_chat(&self, ip: ClientIp, account: Option<&AccountKey>) -> Result<(), RetryAfter> {
        check_both(&self.chat, ip, account)
    }

    /// Counts one look-up of a table by its code that could reveal a
    /// private table (an unknown code, or a private table the requester
    /// does not sit at), against `ip` and, when logged in, `account` too:
    /// neither many addresses nor many accounts make guessing faster.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its look-ups per minute.
    pub fn check_table_lookup(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        check_both(&self.table_lookup, ip, account)
    }

    /// Keys currently held by the game-creation limiter (after dropping
    /// idle ones), for tests and metrics.
    pub fn tracked_creators(&self) -> usize {
        self.create_game.len()
    }
}

/// Counts one request against the client's address and its account.
fn check_both(
    keyed: &Keyed<Subject>,
    ip: ClientIp,
    account: Option<&AccountKey>,
) -> Result<(), RetryAfter> {
    keyed.check_both(&LimitKey::new(ip, account))
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use axum::http::header;

    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn retry_after_is_whole_seconds_at_least_one() {
        assert_eq!(RetryAfter(Duration::ZERO).secs(), 1);
        assert_eq!(RetryAfter(Duration::from_millis(10)).secs(), 1);
        assert_eq!(RetryAfter(Duration::from_millis(1001)).secs(), 2);
        assert_eq!(RetryAfter(Duration::from_secs(7)).secs(), 7);
        let resp = RetryAfter(Duration::from_millis(2500)).into_response();
        assert_eq!(resp.status(), axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(resp.headers()[header::RETRY_AFTER], "3");
    }

    fn ip_key(s: &str) -> ClientIp {
        ClientIp::of(ip(s))
    }

    #[test]
    fn creation_is_limited_per_key() {
        let limits = Limits::new(&Quotas {
            games_per_minute: 3,
            ..Quotas::default()
        });
        let a = LimitKey::new(ip_key("192.0.2.1"), None);
        let b = LimitKey::new(ip_key("192.0.2.2"), None);
        for _ in 0..3 {
            limits.check_create_game(&a).unwrap();
        }
        let wait = limits.check_create_game(&a).unwrap_err();
        assert!(
            wait.0 > Duration::ZERO && wait.0 <= Duration::from_secs(20),
            "{wait:?}"
        );
        limits.check_create_game(&b).unwrap();
        assert_eq!(limits.tracked_creators(), 2);
    }

    #[test]
    fn logged_in_clients_are_charged_to_both_address_and_account() {
        let limits = Limits::new(&Quotas {
            games_per_minute: 3,
            replies_per_minute: 3,
            ..Quotas::default()
        });
        let home = ip_key("192.0.2.1");
        let accounts: Vec<AccountKey> = (0..3).map(|n| AccountKey(format!("acct{n}"))).collect();
        // Three accounts on one address share the address's quota.
        for a in &accounts {
            limits
                .check_create_game(&LimitKey::new(home, Some(a)))
                .unwrap();
        }
        for a in &accounts {
            assert!(
                limits
                    .check_create_game(&LimitKey::new(home, Some(a)))
                    .is_err()
            );
        }
        assert!(
            limits
                .check_create_game(&LimitKey::new(home, None))
                .is_err()
        );
        // One account on many addresses shares the account's quota.
        let roamer = AccountKey("roamer".into());
        for n in 10..13 {
            limits
                .check_reply(&LimitKey::new(
                    ip_key(&format!("192.0.2.{n}")),
                    Some(&roamer),
                ))
                .unwrap();
        }
        assert!(
            limits
                .check_reply(&LimitKey::new(ip_key("192.0.2.20"), Some(&roamer)))
                .is_err()
        );
        limits
            .check_reply(&LimitKey::new(ip_key("192.0.2.20"), None))
            .unwrap();
    }

    #[test]
    fn creation_limits_can_be_off() {
        let a = LimitKey::new(ip_key("192.0.2.1"), None);

        let off = Limits::new(&Quotas {
            games_per_minute: 0,
            ..Quotas::default()
        });
        for _ in 0..1000 {
            off.check_create_game(&a).unwrap();
        }
    }

    #[test]
    fn signups_and_login_attempts_are_limited_per_address() {
        let limits = Limits::new(&Quotas {
            signups_per_hour: 2,
            logins_per_minute: 4,
            ..Quotas::default()
        });
        let a = ip_key("192.0.2.1");
        limits.check_signup(a).unwrap();
        limits.check_signup(a).unwrap();
        let wait = limits.check_signup(a).unwrap_err();
        assert!(wait.secs() > 60 && wait.secs() <= 1800, "{wait:?}");
        limits.check_signup(ip_key("192.0.2.2")).unwrap();
        for n in 0..4 {
            limits.check_login(a, &format!("user{n}")).unwrap();
        }
        assert!(limits.check_login(a, "user9").is_err());
        limits.check_login(ip_key("192.0.2.2"), "user9").unwrap();
    }

    #[test]
    fn table_lookups_are_limited_per_address_and_per_account() {
        let limits = Limits::new(&Quotas {
            table_lookups_per_minute: 3,
            ..Quotas::default()
        });
        let a = ip_key("192.0.2.1");
        let acct = AccountKey("p1".into());
        for _ in 0..3 {
            limits.check_table_lookup(a, None).unwrap();
        }
        let wait = limits.check_table_lookup(a, None).unwrap_err();
        assert!(wait.secs() >= 1 && wait.secs() <= 20, "{wait:?}");
        // The account's own quota, from other addresses.
        for n in 2..5 {
            limits
                .check_table_lookup(ip_key(&format!("192.0.2.{n}")), Some(&acct))
                .unwrap();
        }
        assert!(
            limits
                .check_table_lookup(ip_key("192.0.2.9"), Some(&acct))
                .is_err()
        );
    }

    #[test]
    fn failed_logins_back_off_exponentially_per_username() {
        let b = LoginBackoff {
            free: 5,
            base: Duration::from_secs(1),
            max: Duration::from_secs(900),
            capacity: 1000,
            keys: RandomState::new(),
            entries: Mutex::new(HashMap::new()),
        };
        assert_eq!(b.delay(4), Duration::ZERO);
        assert_eq!(b.delay(5), Duration::from_secs(1));
        assert_eq!(b.delay(6), Duration::from_secs(2));
        assert_eq!(b.delay(9), Duration::from_secs(16));
        assert_eq!(b.delay(15), Duration::from_secs(900));
        assert_eq!(b.delay(u32::MAX), Duration::from_secs(900));

        let t0 = Instant::now();
        for _ in 0..5 {
            assert!(b.attempt("Alice", t0).is_ok(), "five failures are free");
        }
        assert_eq!(
            b.attempt("alice", t0),
            Err(RetryAfter(Duration::from_secs(1)))
        );
        assert!(b.attempt("ALICE", t0 + Duration::from_secs(1)).is_ok());
        assert_eq!(
            b.attempt("alice", t0 + Duration::from_millis(1500)),
            Err(RetryAfter(Duration::from_millis(1500)))
        );
        assert!(b.attempt("bob", t0).is_ok(), "per username");
        b.succeeded("Alice");
        assert!(b.attempt("alice", t0 + Duration::from_millis(1500)).is_ok());
    }

    /// Twenty attempts at once at one name: only the free ones are let
    /// through to the password check (the probe found all 20 checked).
    #[test]
    fn racing_attempts_are_counted_as_they_come() {
        let limits = std::sync::Arc::new(Limits::new(&Quotas::default()));
        let admitted = std::thread::scope(|s| {
            let handles: Vec<_> = (0..20u8)
                .map(|i| {
                    let limits = std::sync::Arc::clone(&limits);
                    s.spawn(move || {
                        limits
                            .check_login(ip_key(&format!("192.0.2.{i}")), "dave")
                            .is_ok()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .filter(|&ok| ok)
                .count()
        });
        assert_eq!(admitted, Quotas::default().login_free_failures as usize);
    }

    #[test]
    fn the_failure_table_stays_bounded() {
        let b = LoginBackoff {
            free: 1,
            base: Duration::from_secs(1),
            max: Duration::from_secs(60),
            capacity: 100,
            keys: RandomState::new(),
            entries: Mutex::new(HashMap::new()),
        };
        let t0 = Instant::now();
        for n in 0..1000u64 {
            let _ = b.attempt(&format!("junk{n}"), t0 + Duration::from_millis(n));
            assert!(b.entries.lock().unwrap().len() <= 100);
        }
        // The newest are kept.
        assert!(
            b.attempt("junk999", t0 + Duration::from_millis(999))
                .is_err()
        );
        // Expired entries go first.
        let _ = b.attempt("late", t0 + Duration::from_secs(3600));
        assert!(b.entries.lock().unwrap().len() <= 100);
    }

    #[test]
    fn limits_through_the_public_api() {
        let limits = Limits::new(&Quotas::default());
        let a = ip_key("192.0.2.1");
        for _ in 0..5 {
            limits.check_login(a, "carol").unwrap();
        }
        let wait = limits.check_login(a, "Carol").unwrap_err();
        assert_eq!(wait.secs(), 1);
        limits.login_succeeded("carol");
        limits.check_login(a, "carol").unwrap();
    }
}
