//! Rate-limit counters kept in Redis, so that every node of a cluster
//! counts against the same figures: a generic cell rate algorithm
//! ([`Gcra`], the one `governor` runs in a node's memory) and an
//! exponential back-off of failures ([`Backoff`]). Each check is one Lua
//! script: one round trip, atomic, timed by Redis's own clock (`TIME`) so
//! that the nodes' clocks do not matter, and every key it writes expires
//! once it holds nothing more than a fresh key would, so Redis's memory
//! stays bounded by the keys active within one period.
//!
//! Times inside the scripts are whole microseconds since the epoch
//! (about 2^51 today: exact in Lua's doubles); they are written with
//! `%.0f`, since Lua's own number-to-string conversion keeps 14 digits
//! only.

use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;
use redis::aio::ConnectionManager;

use crate::bus::invoke_retrying;
use crate::error::BusError;

/// The GCRA over every key of `KEYS`, each counted on its own: a key is
/// charged one cell when it alone allows it; the answer is the longest
/// wait of a key that refused, in microseconds (0: every key allowed).
/// `ARGV[1]` is the emission interval T and `ARGV[2]` the tolerance tau
/// (T times the burst less one), both in microseconds.
const GCRA_LUA: &str = r"
local t = tonumber(ARGV[1])
local tau = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local wait = 0
for _, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key)) or now
  local earliest = tat - tau
  if now < earliest then
    wait = math.max(wait, earliest - now)
  else
    local nxt = math.max(tat, now) + t
    local ttl = math.ceil((nxt - now) / 1000)
    redis.call('SET', key, string.format('%.0f', nxt), 'PX', string.format('%.0f', ttl))
  end
end
return wait
";

/// One attempt under back-off at the key `KEYS[1]` (a hash of the
/// failures in a row `n` and the time of the last one `last`): refused
/// while the delay of `n` failures since `last` runs, in which case the
/// answer is the wait in microseconds; otherwise counted as one more
/// failure at once (0). `ARGV`: the free failures, the first delay and
/// the longest delay (microseconds, also the key's life).
const BACKOFF_LUA: &str = r"
local free = tonumber(ARGV[1])
local base = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local got = redis.call('HMGET', KEYS[1], 'n', 'last')
local n = tonumber(got[1]) or 0
local last = tonumber(got[2]) or now
if n >= free and n > 0 then
  local delay = math.min(base * 2 ^ math.min(n - free, 31), max)
  if last + delay > now then
    return last + delay - now
  end
end
redis.call('HSET', KEYS[1], 'n', n + 1, 'last', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(math.ceil(max / 1000), 1)))
return 0
";

static GCRA: LazyLock<Script> = LazyLock::new(|| Script::new(GCRA_LUA));
static BACKOFF: LazyLock<Script> = LazyLock::new(|| Script::new(BACKOFF_LUA));

/// A quota for the generic cell rate algorithm: one cell every
/// `interval`, at most `burst` at once (`governor`'s
/// `Quota::with_period(interval).allow_burst(burst)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gcra {
    /// The emission interval: one cell comes back after this long.
    pub interval: Duration,
    /// The cells that may be spent at once.
    pub burst: u32,
}

impl Gcra {
    /// `n` cells per `period`, all of them at once at most; `None` when
    /// `n` is 0 (no limit).
    pub fn per(n: u32, period: Duration) -> Option<Gcra> {
        (n > 0).then(|| Gcra {
            interval: period / n,
            burst: n,
        })
    }

    /// Counts one cell against each of `keys` in Redis (each charged when
    /// it alone allows it).
    ///
    /// # Returns
    /// `None` when every key allowed it, else the longest wait of a key
    /// that refused.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached or fails the
    /// script.
    pub async fn check(
        &self,
        conn: &mut ConnectionManager,
        keys: &[&str],
    ) -> Result<Option<Duration>, BusError> {
        let interval = micros(self.interval).max(1);
        let tau = interval * u64::from(self.burst.saturating_sub(1));
        let mut call = GCRA.prepare_invoke();
        for k in keys {
            call.key(*k);
        }
        call.arg(interval).arg(tau);
        let wait: u64 = invoke_retrying(&call, conn).await?;
        Ok((wait > 0).then(|| Duration::from_micros(wait)))
    }
}

/// Exponential back-off of failures in a row at one key: the first
/// `free` failures cost nothing, then each attempt waits `base`, doubling
/// with each further failure up to `max`; the count is forgotten `max`
/// after the last failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Failures in a row before back-off starts.
    pub free: u32,
    /// The first delay.
    pub base: Duration,
    /// The longest delay, and how long a count is kept.
    pub max: Duration,
}

impl Backoff {
    /// Admits one attempt at `key` unless it is backing off, and counts it
    /// as a failure at once (racing attempts see each other); a success
    /// clears it ([`Backoff::reset`]).
    ///
    /// # Returns
    /// `None` when admitted, else the wait left.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached or fails the
    /// script.
    pub async fn attempt(
        &self,
        conn: &mut ConnectionManager,
        key: &str,
    ) -> Result<Option<Duration>, BusError> {
        let mut call = BACKOFF.prepare_invoke();
        call.key(key)
            .arg(self.free)
            .arg(micros(self.base))
            .arg(micros(self.max));
        let wait: u64 = invoke_retrying(&call, conn).await?;
        Ok((wait > 0).then(|| Duration::from_micros(wait)))
    }

    /// Forgets the failures at `key`.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached.
    pub async fn reset(conn: &mut ConnectionManager, key: &str) -> Result<(), BusError> {
        let _: i64 = redis::cmd("DEL").arg(key).query_async(conn).await?;
        Ok(())
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TestRedis;

    async fn conn(redis: &TestRedis) -> ConnectionManager {
        let client = redis::Client::open(redis.url()).unwrap();
        client.get_connection_manager().await.unwrap()
    }

    async fn ttl_ms(conn: &mut ConnectionManager, key: &str) -> i64 {
        redis::cmd("PTTL").arg(key).query_async(conn).await.unwrap()
    }

    #[tokio::test]
    async fn the_first_checks_after_a_redis_restart_reach_the_new_redis() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let port = redis.port();
        let mut c = conn(&redis).await;
        let q = Gcra::per(1, Duration::from_secs(60)).unwrap();
        let b = Backoff {
            free: 0,
            base: Duration::from_secs(1),
            max: Duration::from_secs(60),
        };
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        // Redis restarts empty: the connection the manager holds is dead,
        // yet the next check and attempt are counted there, not refused.
        drop(redis);
        let _again = TestRedis::on(port).expect("redis-server starts again");
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        assert!(q.check(&mut c, &["k"]).await.unwrap().is_some());
        drop(_again);
        let _third = TestRedis::on(port).expect("redis-server starts again");
        assert_eq!(b.attempt(&mut c, "f").await.unwrap(), None);
        assert!(b.attempt(&mut c, "f").await.unwrap().is_some());
    }

    #[tokio::test]
    async fn a_burst_then_one_cell_per_interval() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let q = Gcra::per(3, Duration::from_secs(60)).unwrap();
        for _ in 0..3 {
            assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        }
        let wait = q.check(&mut c, &["k"]).await.unwrap().unwrap();
        // governor's figure: one interval (20 s) from the burst's start.
        assert!(
            wait <= Duration::from_secs(20) && wait > Duration::from_millis(19_500),
            "{wait:?}"
        );
        // The key lives until it is as good as fresh: three intervals.
        let ttl = ttl_ms(&mut c, "k").await;
        assert!((59_000..=60_000).contains(&ttl), "{ttl}");
        // Other keys have their own cells.
        assert_eq!(q.check(&mut c, &["other"]).await.unwrap(), None);
    }

    #[tokio::test]
    async fn cells_come_back_one_per_interval() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let q = Gcra::per(2, Duration::from_millis(400)).unwrap();
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        let wait = q.check(&mut c, &["k"]).await.unwrap().unwrap();
        assert!(wait <= Duration::from_millis(200), "{wait:?}");
        tokio::time::sleep(wait + Duration::from_millis(5)).await;
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        assert!(q.check(&mut c, &["k"]).await.unwrap().is_some());
        tokio::time::sleep(Duration::from_millis(450)).await;
        // A full refill gives the whole burst back, and the key is gone.
        assert_eq!(ttl_ms(&mut c, "k").await, -2);
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
        assert_eq!(q.check(&mut c, &["k"]).await.unwrap(), None);
    }

    #[tokio::test]
    async fn several_keys_are_each_charged_and_the_longest_wait_wins() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let q = Gcra::per(2, Duration::from_secs(60)).unwrap();
        assert_eq!(q.check(&mut c, &["ip", "acct"]).await.unwrap(), None);
        assert_eq!(q.check(&mut c, &["ip"]).await.unwrap(), None);
        // The address is used up, the account still has a cell: the
        // account is charged, the answer is the address's wait.
        let wait = q.check(&mut c, &["ip", "acct"]).await.unwrap().unwrap();
        assert!(wait > Duration::from_secs(29), "{wait:?}");
        assert!(q.check(&mut c, &["acct"]).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn failures_back_off_exponentially_and_a_reset_clears_them() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let b = Backoff {
            free: 2,
            base: Duration::from_millis(100),
            max: Duration::from_millis(250),
        };
        assert_eq!(b.attempt(&mut c, "u").await.unwrap(), None);
        assert_eq!(b.attempt(&mut c, "u").await.unwrap(), None);
        let wait = b.attempt(&mut c, "u").await.unwrap().unwrap();
        assert!(
            wait <= Duration::from_millis(100) && wait > Duration::from_millis(80),
            "{wait:?}"
        );
        tokio::time::sleep(wait).await;
        assert_eq!(b.attempt(&mut c, "u").await.unwrap(), None);
        // Three failures: 200 ms.
        let wait = b.attempt(&mut c, "u").await.unwrap().unwrap();
        assert!(wait > Duration::from_millis(180), "{wait:?}");
        tokio::time::sleep(wait).await;
        assert_eq!(b.attempt(&mut c, "u").await.unwrap(), None);
        // Four failures: capped at 250 ms, the key's life.
        let wait = b.attempt(&mut c, "u").await.unwrap().unwrap();
        assert!(wait > Duration::from_millis(230), "{wait:?}");
        let ttl = ttl_ms(&mut c, "u").await;
        assert!((200..=250).contains(&ttl), "{ttl}");
        Backoff::reset(&mut c, "u").await.unwrap();
        assert_eq!(b.attempt(&mut c, "u").await.unwrap(), None);
        assert_eq!(b.attempt(&mut c, "other").await.unwrap(), None);
    }
}
