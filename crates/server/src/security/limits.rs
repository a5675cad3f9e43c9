//! Rate limits keyed by address and account, and the log-in back-off
//! (see the [`super`] documentation, "Rate limits"): counted in this
//! process's memory when the node runs alone, in Redis when it is one node
//! of a cluster (so the figures hold for the cluster as a whole), and in
//! memory again for any check Redis cannot answer.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use plyyard_cluster::limits::{Backoff, Gcra};
use plyyard_engine_time::fair::Requester;
use sha2::{Digest, Sha256};

use super::client_ip::ClientIp;
use crate::error::ApiError;

/// Checks between two purges of idle limiter state.
const PURGE_EVERY: u64 = 4096;
/// The longest a check waits for Redis before counting in memory.
const REDIS_TIMEOUT: Duration = Duration::from_millis(500);
/// After Redis failed a check, checks count in memory this long before
/// Redis is tried again (so an outage does not slow every request).
const REDIS_HOLD_OFF: Duration = Duration::from_secs(1);
/// At most one warning about Redis faults this often.
const WARN_EVERY: Duration = Duration::from_secs(10);

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

    fn subjects(&self) -> Vec<Subject> {
        let mut s = vec![Subject::Ip(self.ip.0)];
        s.extend(self.account.iter().map(|a| Subject::Account(a.0.clone())));
        s
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

/// One count of a limiter: an address, an account or an anonymous player.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Subject {
    Ip(IpAddr),
    Account(String),
    Player(String),
}

impl Subject {
    /// Its key in Redis for the limit `limit`: `rl:<limit>:<ip|acct|player>:<value>`.
    fn redis_key(&self, limit: &str) -> String {
        match self {
            Subject::Ip(ip) => format!("rl:{limit}:ip:{ip}"),
            Subject::Account(a) => format!("rl:{limit}:acct:{a}"),
            Subject::Player(p) => format!("rl:{limit}:player:{p}"),
        }
    }
}

impl From<&Requester> for Subject {
    fn from(r: &Requester) -> Subject {
        match r {
            Requester::Ip(ip) => Subject::Ip(*ip),
            Requester::Account(a) => Subject::Account(a.clone()),
            Requester::Player(p) => Subject::Player(p.clone()),
            Requester::Background => Subject::Player("(site)".to_owned()),
        }
    }
}

/// The subjects of a client: its address, and its account if any.
fn subjects_of(ip: ClientIp, account: Option<&AccountKey>) -> Vec<Subject> {
    LimitKey::new(ip, account).subjects()
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
    /// Usernames whose failures are remembered at most in memory (older
    /// entries are dropped first when full; in Redis each is kept
    /// [`Quotas::login_backoff_max`] after its last failure).
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
    /// Analysis-board searches one player may start per minute, counted
    /// against each of its keys ([`Requester::keys`]); also the burst.
    pub analyses_per_minute: u32,
    /// Clubs one account (and one address) may create per day; also the
    /// burst.
    pub clubs_per_day: u32,
    /// Club actions (joins, requests, quits, kicks, answers to requests,
    /// leader changes, chat lines) one account (and one address) may make
    /// per hour; also the burst.
    pub club_actions_per_hour: u32,
    /// Batches of puzzle solutions one account (and one address) may send
    /// per minute; also the burst.
    pub puzzle_solves_per_minute: u32,
    /// Reads of the public Lichess-API look-ups and exports (token tests,
    /// user statuses, online bots, game exports) one address (and one
    /// account) may make per minute; also the burst. A large token test
    /// counts once per hundred tokens.
    pub api_reads_per_minute: u32,
    /// Tournaments one account (and one address) may create per day; also
    /// the burst.
    pub tournaments_per_day: u32,
    /// Tournament joins and withdrawals one account (and one address) may
    /// make per hour; also the burst.
    pub tournament_joins_per_hour: u32,
    /// Private messages one account (and one address) may send per day;
    /// also the burst.
    pub msgs_per_day: u32,
    /// Follows, unfollows, blocks and unblocks one account (and one
    /// address) may make per hour; also the burst.
    pub relations_per_hour: u32,
    /// Reports of players one account (and one address) may send per
    /// hour; also the burst.
    pub reports_per_hour: u32,
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
            analyses_per_minute: 30,
            clubs_per_day: 5,
            club_actions_per_hour: 120,
            puzzle_solves_per_minute: 60,
            api_reads_per_minute: 120,
            tournaments_per_day: 12,
            tournament_joins_per_hour: 120,
            msgs_per_day: 200,
            relations_per_hour: 200,
            reports_per_hour: 10,
        }
    }
}

/// A keyed GCRA limiter from `governor`, purged of idle keys now and then
/// so that its memory stays bounded by the keys active within one refill
/// period.
struct Keyed {
    limiter: Option<DefaultKeyedRateLimiter<Subject>>,
    checks: AtomicU64,
}

impl Keyed {
    fn new(quota: Option<Gcra>) -> Keyed {
        let quota = quota.and_then(|g| {
            Quota::with_period(g.interval)
                .zip(std::num::NonZeroU32::new(g.burst))
                .map(|(q, burst)| q.allow_burst(burst))
        });
        Keyed {
            limiter: quota.map(RateLimiter::keyed),
            checks: AtomicU64::new(0),
        }
    }

    fn check(&self, key: &Subject) -> Result<(), RetryAfter> {
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

    /// Counts one request against each of `keys` (each charged when it
    /// alone allows it): refused when any has used up its quota (the
    /// longest wait).
    fn check_all(&self, keys: &[Subject]) -> Result<(), RetryAfter> {
        let mut refused: Option<RetryAfter> = None;
        for k in keys {
            if let Err(wait) = self.check(k) {
                refused = refused.max(Some(wait));
            }
        }
        refused.map_or(Ok(()), Err)
    }

    fn len(&self) -> usize {
        self.limiter.as_ref().map_or(0, |l| {
            l.retain_recent();
            l.len()
        })
    }
}

/// One keyed limit: its name in Redis keys, its quota (`None`: off) and
/// its counts in this process.
struct Limit {
    name: &'static str,
    quota: Option<Gcra>,
    local: Keyed,
}

impl Limit {
    fn new(name: &'static str, n: u32, period: Duration) -> Limit {
        let quota = Gcra::per(n, period);
        Limit {
            name,
            quota,
            local: Keyed::new(quota),
        }
    }
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

    /// The same back-off, counted in Redis.
    fn shared(&self) -> Backoff {
        Backoff {
            free: self.free,
            base: self.base,
            max: self.max,
        }
    }
}

/// The Redis key of the back-off of `username`: a hash of its lower case
/// that every node computes alike (a junk name costs no more than another).
fn backoff_key(username: &str) -> String {
    let digest = Sha256::digest(username.to_lowercase().as_bytes());
    format!("rl:login-backoff:user:{}", hex::encode(&digest[..16]))
}

/// The counts of a cluster, in Redis through the node's bus, and what
/// happens when Redis fails a check: that check, and the checks of the
/// next [`REDIS_HOLD_OFF`], count in this process's memory; a warning is
/// logged at most every [`WARN_EVERY`].
struct InRedis {
    bus: Arc<plyyard_cluster::Bus>,
    epoch: Instant,
    /// Checks count in memory until then (ms since `epoch`).
    hold_until: AtomicU64,
    /// When the last warning was logged (ms since `epoch`, plus one; 0:
    /// never).
    warned_at: AtomicU64,
    /// Checks counted in memory since that warning.
    fallbacks: AtomicU64,
}

impl InRedis {
    fn new(bus: Arc<plyyard_cluster::Bus>) -> InRedis {
        InRedis {
            bus,
            epoch: Instant::now(),
            hold_until: AtomicU64::new(0),
            warned_at: AtomicU64::new(0),
            fallbacks: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether to ask Redis now (not within the hold-off of a fault).
    fn available(&self) -> bool {
        let up = self.now_ms() >= self.hold_until.load(Ordering::Relaxed);
        if !up {
            self.fallbacks.fetch_add(1, Ordering::Relaxed);
        }
        up
    }

    /// The answer of `ask` (a script on Redis), or `None` when Redis failed
    /// it or took longer than [`REDIS_TIMEOUT`].
    async fn ask<T>(
        &self,
        ask: impl Future<Output = Result<T, plyyard_cluster::BusError>>,
    ) -> Option<T> {
        match tokio::time::timeout(REDIS_TIMEOUT, ask).await {
            Ok(Ok(answer)) => Some(answer),
            Ok(Err(e)) => {
                self.fault(&e.to_string());
                None
            }
            Err(_) => {
                self.fault("no answer in time");
                None
            }
        }
    }

    fn fault(&self, why: &str) {
        let now = self.now_ms();
        let hold = u64::try_from(REDIS_HOLD_OFF.as_millis()).unwrap_or(u64::MAX);
        self.hold_until
            .store(now.saturating_add(hold), Ordering::Relaxed);
        let fallbacks = self.fallbacks.fetch_add(1, Ordering::Relaxed) + 1;
        let last = self.warned_at.load(Ordering::Relaxed);
        let every = u64::try_from(WARN_EVERY.as_millis()).unwrap_or(u64::MAX);
        let due = last == 0 || now + 1 >= last.saturating_add(every);
        if due
            && self
                .warned_at
                .compare_exchange(last, now + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.fallbacks.fetch_sub(fallbacks, Ordering::Relaxed);
            tracing::warn!(
                error = why,
                fallbacks,
                "rate limits: Redis failed a check; counting in this node's memory meanwhile"
            );
        }
    }
}

/// Where the counts are kept.
enum Counter {
    /// In this process's memory: a node alone.
    Local,
    /// In Redis, shared by every node of the cluster (in memory for the
    /// checks Redis cannot answer).
    Redis(InRedis),
}

/// The server's rate limits, shared by all handlers (in
/// [`crate::Shared::limits`]).
///
/// Handlers call one `check_*` method before doing the work; an `Err` is
/// answered as is (`?` turns [`RetryAfter`] into a `429 rate_limited`
/// [`ApiError`] with `Retry-After`). A log-in counts as failed until it
/// reports success with [`Limits::login_succeeded`]. With a bus
/// ([`Limits::with_bus`]) the counts are in Redis, shared by the cluster,
/// with the same quotas: a client sees the same figures whichever node it
/// reaches.
pub struct Limits {
    counter: Counter,
    create_game: Limit,
    reply: Limit,
    signup: Limit,
    login: Limit,
    table_lookup: Limit,
    backoff: LoginBackoff,
    tables: Limit,
    imports: Limit,
    seeks: Limit,
    progress: Limit,
    credentials: Limit,
    challenges: Limit,
    chat: Limit,
    analyses: Limit,
    clubs: Limit,
    club_actions: Limit,
    puzzle_solves: Limit,
    api_reads: Limit,
    tournaments: Limit,
    tournament_joins: Limit,
    msgs: Limit,
    relations: Limit,
    reports: Limit,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("shared", &matches!(self.counter, Counter::Redis(_)))
            .finish_non_exhaustive()
    }
}

impl Limits {
    /// Limits with the given quotas, counted in this process.
    pub fn new(q: &Quotas) -> Limits {
        Limits::with_bus(q, None)
    }

    /// Limits with the given quotas, counted in Redis through `bus` when
    /// given one (a node of a cluster), else in this process.
    pub fn with_bus(q: &Quotas, bus: Option<Arc<plyyard_cluster::Bus>>) -> Limits {
        const MINUTE: Duration = Duration::from_secs(60);
        Limits {
            counter: bus.map_or(Counter::Local, |b| Counter::Redis(InRedis::new(b))),
            create_game: Limit::new("games", q.games_per_minute, MINUTE),
            reply: Limit::new("replies", q.replies_per_minute, MINUTE),
            signup: Limit::new("signups", q.signups_per_hour, Duration::from_secs(3600)),
            login: Limit::new("logins", q.logins_per_minute, MINUTE),
            tables: Limit::new("tables", q.tables_per_minute, MINUTE),
            imports: Limit::new("imports", q.imports_per_minute, MINUTE),
            seeks: Limit::new("seeks", q.seeks_per_minute, MINUTE),
            progress: Limit::new("progress", q.progress_per_minute, MINUTE),
            credentials: Limit::new("credentials", q.credentials_per_minute, MINUTE),
            challenges: Limit::new("challenges", q.challenges_per_minute, MINUTE),
            chat: Limit::new("chat", q.chat_lines_per_10s, Duration::from_secs(10)),
            table_lookup: Limit::new("table-lookups", q.table_lookups_per_minute, MINUTE),
            analyses: Limit::new("analyses", q.analyses_per_minute, MINUTE),
            clubs: Limit::new("clubs", q.clubs_per_day, Duration::from_secs(86_400)),
            puzzle_solves: Limit::new("puzzle-solves", q.puzzle_solves_per_minute, MINUTE),
            api_reads: Limit::new("api-reads", q.api_reads_per_minute, MINUTE),
            club_actions: Limit::new(
                "club-actions",
                q.club_actions_per_hour,
                Duration::from_secs(3600),
            ),
            tournaments: Limit::new(
                "tournaments",
                q.tournaments_per_day,
                Duration::from_secs(86_400),
            ),
            tournament_joins: Limit::new(
                "tournament-joins",
                q.tournament_joins_per_hour,
                Duration::from_secs(3600),
            ),
            msgs: Limit::new("msgs", q.msgs_per_day, Duration::from_secs(86_400)),
            relations: Limit::new("relations", q.relations_per_hour, Duration::from_secs(3600)),
            reports: Limit::new("reports", q.reports_per_hour, Duration::from_secs(3600)),
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

    /// Counts one request against each of `subjects` under `limit`: in
    /// Redis when the node has a bus and Redis answers, else in memory.
    async fn count(&self, limit: &Limit, subjects: &[Subject]) -> Result<(), RetryAfter> {
        let Some(quota) = limit.quota else {
            return Ok(());
        };
        if let Counter::Redis(shared) = &self.counter
            && shared.available()
        {
            let keys: Vec<String> = subjects.iter().map(|s| s.redis_key(limit.name)).collect();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let mut conn = shared.bus.conn();
            if let Some(wait) = shared.ask(quota.check(&mut conn, &keys)).await {
                return wait.map_or(Ok(()), |w| Err(RetryAfter(w)));
            }
        }
        limit.local.check_all(subjects)
    }

    /// Counts one game creation by `key`: against its address and its
    /// account.
    ///
    /// # Errors
    /// [`RetryAfter`] when the address or the account has used up its
    /// games per minute.
    pub async fn check_create_game(&self, key: &LimitKey) -> Result<(), RetryAfter> {
        self.count(&self.create_game, &key.subjects()).await
    }

    /// Counts one engine reply asked for by `key`: against its address and
    /// its account.
    ///
    /// # Errors
    /// [`RetryAfter`] when the address or the account has used up its
    /// replies per minute.
    pub async fn check_reply(&self, key: &LimitKey) -> Result<(), RetryAfter> {
        self.count(&self.reply, &key.subjects()).await
    }

    /// Counts one sign-up attempt from `ip`. Call it before hashing the
    /// password, for every attempt (valid or not).
    ///
    /// # Errors
    /// [`RetryAfter`] when `ip` has used up its sign-ups per hour.
    pub async fn check_signup(&self, ip: ClientIp) -> Result<(), RetryAfter> {
        self.count(&self.signup, &[Subject::Ip(ip.0)]).await
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
    pub async fn check_login(&self, ip: ClientIp, username: &str) -> Result<(), RetryAfter> {
        self.count(&self.login, &[Subject::Ip(ip.0)]).await?;
        if let Counter::Redis(shared) = &self.counter
            && shared.available()
        {
            let mut conn = shared.bus.conn();
            let key = backoff_key(username);
            let rule = self.backoff.shared();
            if let Some(wait) = shared.ask(rule.attempt(&mut conn, &key)).await {
                return wait.map_or(Ok(()), |w| Err(RetryAfter(w)));
            }
        }
        self.backoff.attempt(username, Instant::now())
    }

    /// Records a successful log-in to `username`: its back-off is reset
    /// (in Redis too, for a node of a cluster).
    pub async fn login_succeeded(&self, username: &str) {
        self.backoff.succeeded(username);
        if let Counter::Redis(shared) = &self.counter {
            let mut conn = shared.bus.conn();
            let key = backoff_key(username);
            let _ = shared.ask(Backoff::reset(&mut conn, &key)).await;
        }
    }

    /// Counts one table opened or closed by a client, against its address
    /// and its account alike (so that neither new accounts nor new
    /// addresses multiply the quota).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its tables per minute.
    pub async fn check_tables(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.tables, &subjects_of(ip, account)).await
    }

    /// Counts one seek started by a client (quick pairing), against its
    /// address and its account alike.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its seeks per minute.
    pub async fn check_seeks(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.seeks, &subjects_of(ip, account)).await
    }

    /// Counts one PGN import by a client (address and account).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its imports per minute.
    pub async fn check_import(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.imports, &subjects_of(ip, account)).await
    }

    /// Counts one Learn progress write by a client (address and account).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its writes per minute.
    pub async fn check_progress(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.progress, &subjects_of(ip, account)).await
    }

    /// Counts one API credential obtained by a client (a personal token
    /// created, an OAuth approval or code exchange), address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its credentials per minute.
    pub async fn check_credentials(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.credentials, &subjects_of(ip, account))
            .await
    }

    /// Counts one challenge sent by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its challenges per minute.
    pub async fn check_challenges(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.challenges, &subjects_of(ip, account))
            .await
    }

    /// Counts one club created by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has created its clubs for the day.
    pub async fn check_clubs(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.clubs, &subjects_of(ip, account)).await
    }

    /// Counts one club action (join, request, quit, kick, answer, leader
    /// change, chat line) by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its actions for the hour.
    pub async fn check_club_actions(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.club_actions, &subjects_of(ip, account))
            .await
    }

    /// Counts one batch of puzzle solutions sent by a client, address and
    /// account (the anonymous player's address alone).
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its batches per minute.
    pub async fn check_puzzle_solves(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.puzzle_solves, &subjects_of(ip, account))
            .await
    }

    /// Counts `units` public API reads (look-ups, exports) by a client,
    /// address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its reads per minute.
    pub async fn check_api_reads(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
        units: u32,
    ) -> Result<(), RetryAfter> {
        let subjects = subjects_of(ip, account);
        for _ in 0..units.max(1) {
            self.count(&self.api_reads, &subjects).await?;
        }
        Ok(())
    }

    /// Counts one tournament created by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has created its tournaments for the day.
    pub async fn check_tournaments(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.tournaments, &subjects_of(ip, account))
            .await
    }

    /// Counts one tournament join or withdrawal by a client, address and
    /// account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its joins for the hour.
    pub async fn check_tournament_joins(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.tournament_joins, &subjects_of(ip, account))
            .await
    }

    /// Counts one private message sent by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its messages per day.
    pub async fn check_msgs(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.msgs, &subjects_of(ip, account)).await
    }

    /// Counts one follow, unfollow, block or unblock by a client, address
    /// and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its changes per hour.
    pub async fn check_relations(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.relations, &subjects_of(ip, account)).await
    }

    /// Counts one report of a player by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its reports for the hour.
    pub async fn check_reports(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.reports, &subjects_of(ip, account)).await
    }

    /// Counts one chat line said by a client, address and account.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its lines per ten seconds.
    pub async fn check_chat(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.chat, &subjects_of(ip, account)).await
    }

    /// Counts one look-up of a table by its code that could reveal a
    /// private table (an unknown code, or a private table the requester
    /// does not sit at), against `ip` and, when logged in, `account` too:
    /// neither many addresses nor many accounts make guessing faster.
    ///
    /// # Errors
    /// [`RetryAfter`] when either has used up its look-ups per minute.
    pub async fn check_table_lookup(
        &self,
        ip: ClientIp,
        account: Option<&AccountKey>,
    ) -> Result<(), RetryAfter> {
        self.count(&self.table_lookup, &subjects_of(ip, account))
            .await
    }

    /// Counts one analysis-board search started by a player, against each
    /// of its keys (`who`, as [`Requester::keys`]).
    ///
    /// # Errors
    /// [`RetryAfter`] when one of them has used up its searches per
    /// minute.
    pub async fn check_analysis(&self, who: &[Requester]) -> Result<(), RetryAfter> {
        let subjects: Vec<Subject> = who.iter().map(Subject::from).collect();
        self.count(&self.analyses, &subjects).await
    }

    /// Keys currently held in memory by the game-creation limiter (after
    /// dropping idle ones), for tests and metrics.
    pub fn tracked_creators(&self) -> usize {
        self.create_game.local.len()
    }
}

#[cfg(test)]
mod tests {
    use axum::http::header;
    use plyyard_cluster::testing::TestRedis;

    use super::*;

    fn ip_key(s: &str) -> ClientIp {
        ClientIp::of(s.parse().unwrap())
    }

    /// The two kinds of limits of one test: in memory, and in Redis (when
    /// a `redis-server` can run here) as two nodes of one cluster would
    /// hold them.
    async fn both(q: &Quotas) -> (Vec<(&'static str, Limits)>, Option<TestRedis>) {
        let mut all = vec![("memory", Limits::new(q))];
        let redis = TestRedis::start();
        if let Some(r) = &redis {
            let bus = plyyard_cluster::Bus::connect(&r.url(), "t").await.unwrap();
            all.push(("redis", Limits::with_bus(q, Some(bus))));
        }
        (all, redis)
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

    #[tokio::test]
    async fn creation_is_limited_per_key() {
        let q = Quotas {
            games_per_minute: 3,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (kind, limits) in &all {
            let a = LimitKey::new(ip_key("192.0.2.1"), None);
            let b = LimitKey::new(ip_key("192.0.2.2"), None);
            for _ in 0..3 {
                limits.check_create_game(&a).await.unwrap();
            }
            let wait = limits.check_create_game(&a).await.unwrap_err();
            // One interval of the quota: 60 s / 3.
            assert!(
                wait.0 > Duration::from_millis(19_500) && wait.0 <= Duration::from_secs(20),
                "{kind}: {wait:?}"
            );
            assert_eq!(wait.secs(), 20, "{kind}");
            limits.check_create_game(&b).await.unwrap();
        }
        assert_eq!(all[0].1.tracked_creators(), 2);
    }

    #[tokio::test]
    async fn tournaments_are_limited_per_address_and_per_account() {
        let q = Quotas {
            tournaments_per_day: 2,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (kind, limits) in &all {
            let home = ip_key("192.0.2.1");
            let ann = AccountKey("ann".into());
            let bob = AccountKey("bob".into());
            limits.check_tournaments(home, Some(&ann)).await.unwrap();
            limits.check_tournaments(home, Some(&bob)).await.unwrap();
            // The address's two are made, whoever asks next from it.
            let third = limits.check_tournaments(home, Some(&bob)).await;
            assert!(third.is_err(), "{kind}: a third from one address");
            // Ann elsewhere: her own second passes, a third does not.
            let away = ip_key("192.0.2.9");
            limits.check_tournaments(away, Some(&ann)).await.unwrap();
            let more = limits
                .check_tournaments(ip_key("192.0.2.10"), Some(&ann))
                .await;
            assert!(more.is_err(), "{kind}: a third by one account");
        }
    }

    #[tokio::test]
    async fn logged_in_clients_are_charged_to_both_address_and_account() {
        let q = Quotas {
            games_per_minute: 3,
            replies_per_minute: 3,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (kind, limits) in &all {
            let home = ip_key("192.0.2.1");
            let accounts: Vec<AccountKey> =
                (0..3).map(|n| AccountKey(format!("acct{n}"))).collect();
            // Three accounts on one address share the address's quota.
            for a in &accounts {
                let key = LimitKey::new(home, Some(a));
                limits.check_create_game(&key).await.unwrap();
            }
            for a in &accounts {
                let key = LimitKey::new(home, Some(a));
                assert!(limits.check_create_game(&key).await.is_err(), "{kind}");
            }
            let anonymous = LimitKey::new(home, None);
            assert!(
                limits.check_create_game(&anonymous).await.is_err(),
                "{kind}"
            );
            // One account on many addresses shares the account's quota.
            let roamer = AccountKey("roamer".into());
            for n in 10..13 {
                let key = LimitKey::new(ip_key(&format!("192.0.2.{n}")), Some(&roamer));
                limits.check_reply(&key).await.unwrap();
            }
            let elsewhere = ip_key("192.0.2.20");
            let key = LimitKey::new(elsewhere, Some(&roamer));
            assert!(limits.check_reply(&key).await.is_err(), "{kind}");
            limits
                .check_reply(&LimitKey::new(elsewhere, None))
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn creation_limits_can_be_off() {
        let q = Quotas {
            games_per_minute: 0,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (_, off) in &all {
            let a = LimitKey::new(ip_key("192.0.2.1"), None);
            for _ in 0..1000 {
                off.check_create_game(&a).await.unwrap();
            }
        }
    }

    #[tokio::test]
    async fn signups_and_login_attempts_are_limited_per_address() {
        let q = Quotas {
            signups_per_hour: 2,
            logins_per_minute: 4,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (kind, limits) in &all {
            let a = ip_key("192.0.2.1");
            limits.check_signup(a).await.unwrap();
            limits.check_signup(a).await.unwrap();
            let wait = limits.check_signup(a).await.unwrap_err();
            // One interval: an hour / 2.
            assert_eq!(wait.secs(), 1800, "{kind}: {wait:?}");
            limits.check_signup(ip_key("192.0.2.2")).await.unwrap();
            for n in 0..4 {
                limits.check_login(a, &format!("user{n}")).await.unwrap();
            }
            let wait = limits.check_login(a, "user9").await.unwrap_err();
            assert_eq!(wait.secs(), 15, "{kind}: {wait:?}");
            limits
                .check_login(ip_key("192.0.2.2"), "user9")
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn table_lookups_are_limited_per_address_and_per_account() {
        let q = Quotas {
            table_lookups_per_minute: 3,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        for (kind, limits) in &all {
            let a = ip_key("192.0.2.1");
            let acct = AccountKey("p1".into());
            for _ in 0..3 {
                limits.check_table_lookup(a, None).await.unwrap();
            }
            let wait = limits.check_table_lookup(a, None).await.unwrap_err();
            assert_eq!(wait.secs(), 20, "{kind}: {wait:?}");
            // The account's own quota, from other addresses.
            for n in 2..5 {
                let from = ip_key(&format!("192.0.2.{n}"));
                limits.check_table_lookup(from, Some(&acct)).await.unwrap();
            }
            let from = ip_key("192.0.2.9");
            assert!(
                limits.check_table_lookup(from, Some(&acct)).await.is_err(),
                "{kind}"
            );
        }
    }

    /// A quota of 2 per second: the burst, then one cell back every half
    /// second, alike in memory and in Redis.
    #[tokio::test]
    async fn cells_come_back_alike_in_memory_and_in_redis() {
        let q = Quotas {
            chat_lines_per_10s: 20,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        let a = ip_key("192.0.2.1");
        for (kind, limits) in &all {
            for _ in 0..20 {
                limits.check_chat(a, None).await.unwrap();
            }
            let wait = limits.check_chat(a, None).await.unwrap_err();
            assert!(wait.0 <= Duration::from_millis(500), "{kind}: {wait:?}");
            tokio::time::sleep(wait.0 + Duration::from_millis(5)).await;
            limits.check_chat(a, None).await.unwrap();
            let wait = limits.check_chat(a, None).await.unwrap_err();
            assert!(
                wait.0 > Duration::from_millis(400) && wait.0 <= Duration::from_millis(500),
                "{kind}: {wait:?}"
            );
        }
    }

    #[tokio::test]
    async fn analyses_count_against_each_key_of_the_player() {
        let q = Quotas {
            analyses_per_minute: 2,
            ..Quotas::default()
        };
        let (all, _redis) = both(&q).await;
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for (kind, limits) in &all {
            let p1 = Requester::keys(None, "p1", ip, true);
            let p2 = Requester::keys(None, "p2", ip, true);
            limits.check_analysis(&p1).await.unwrap();
            limits.check_analysis(&p2).await.unwrap();
            // The address is used up by the two players (p1 is charged
            // all the same, as every key with room is).
            assert!(limits.check_analysis(&p1).await.is_err(), "{kind}");
            // Without the address (load tests), the player alone counts.
            let alone = Requester::keys(None, "p2", ip, false);
            limits.check_analysis(&alone).await.unwrap();
            assert!(limits.check_analysis(&alone).await.is_err(), "{kind}");
        }
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
    /// through to the password check (the probe found all 20 checked), in
    /// memory and in Redis.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn racing_attempts_are_counted_as_they_come() {
        let (all, _redis) = both(&Quotas::default()).await;
        for (kind, limits) in all {
            let limits = Arc::new(limits);
            let tasks: Vec<_> = (0..20u8)
                .map(|i| {
                    let limits = Arc::clone(&limits);
                    tokio::spawn(async move {
                        let from = ip_key(&format!("192.0.2.{i}"));
                        limits.check_login(from, "dave").await.is_ok()
                    })
                })
                .collect();
            let mut admitted = 0;
            for t in tasks {
                admitted += usize::from(t.await.unwrap());
            }
            assert_eq!(
                admitted,
                Quotas::default().login_free_failures as usize,
                "{kind}"
            );
        }
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

    #[tokio::test]
    async fn limits_through_the_public_api() {
        let (all, _redis) = both(&Quotas::default()).await;
        for (kind, limits) in &all {
            let a = ip_key("192.0.2.1");
            for _ in 0..5 {
                limits.check_login(a, "carol").await.unwrap();
            }
            let wait = limits.check_login(a, "Carol").await.unwrap_err();
            assert_eq!(wait.secs(), 1, "{kind}");
            limits.login_succeeded("carol").await;
            limits.check_login(a, "carol").await.unwrap();
        }
    }

    /// The keys in Redis: namespaced by limit and kind, and expiring.
    #[tokio::test]
    async fn redis_keys_are_namespaced_and_expire() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let bus = plyyard_cluster::Bus::connect(&redis.url(), "t")
            .await
            .unwrap();
        let limits = Limits::with_bus(&Quotas::default(), Some(Arc::clone(&bus)));
        let a = ip_key("2001:db8:1:2::7");
        limits.check_signup(a).await.unwrap();
        limits
            .check_tables(a, Some(&AccountKey("acc1".into())))
            .await
            .unwrap();
        limits.check_login(a, "Eve").await.unwrap();
        let mut conn = bus.conn();
        let mut keys: Vec<String> = redis::cmd("KEYS")
            .arg("rl:*")
            .query_async(&mut conn)
            .await
            .unwrap();
        keys.sort();
        let user = backoff_key("eve");
        assert_eq!(
            keys,
            [
                user.as_str(),
                "rl:logins:ip:2001:db8:1:2::",
                "rl:signups:ip:2001:db8:1:2::",
                "rl:tables:acct:acc1",
                "rl:tables:ip:2001:db8:1:2::",
            ]
        );
        for k in &keys {
            let ttl: i64 = redis::cmd("PTTL")
                .arg(k)
                .query_async(&mut conn)
                .await
                .unwrap();
            assert!(ttl > 0 && ttl <= 15 * 60 * 1000, "{k}: {ttl}");
        }
        assert_eq!(backoff_key("EVE"), user);
    }

    /// With Redis gone, checks count in memory: the node's own quota
    /// holds, neither every request refused nor every one let through.
    #[tokio::test]
    async fn without_redis_the_checks_count_in_memory() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let bus = plyyard_cluster::Bus::connect(&redis.url(), "t")
            .await
            .unwrap();
        let q = Quotas {
            signups_per_hour: 3,
            ..Quotas::default()
        };
        let limits = Limits::with_bus(&q, Some(bus));
        let a = ip_key("192.0.2.1");
        limits.check_signup(a).await.unwrap();
        drop(redis);
        let started = Instant::now();
        for _ in 0..3 {
            limits.check_signup(a).await.unwrap();
        }
        let wait = limits.check_signup(a).await.unwrap_err();
        assert_eq!(wait.secs(), 1200);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        limits.check_login(a, "frank").await.unwrap();
        limits.login_succeeded("frank").await;
    }
}
