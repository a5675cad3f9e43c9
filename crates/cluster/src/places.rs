//! Places counted across the nodes of a cluster under a lease (an
//! account's open game streams): [`Places::take`] admits one more holder
//! of a key while fewer than a limit hold it, each holder renews its place
//! ([`Places::renew`]) and gives it up when it ends ([`Places::release`]).
//! A node that dies stops renewing, and its places expire within
//! [`Places::ttl`]: they do not hold the key's count forever.
//!
//! Each key is a sorted set in Redis (holder → until when, in Redis's own
//! milliseconds, so that the nodes' clocks do not matter), expiring as a
//! whole once no holder renews it.

use std::sync::LazyLock;
use std::time::Duration;

use redis::Script;
use redis::aio::ConnectionManager;

use crate::bus::invoke_retrying;
use crate::error::BusError;

/// Admits holder `ARGV[1]` at key `KEYS[1]` while fewer than `ARGV[2]`
/// unexpired holders hold it, for `ARGV[3]` ms; 1 when admitted (or
/// already holding), 0 when full.
const TAKE_LUA: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1])
   and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
";

/// Renews, for `ARGV[1]` ms, the holder `ARGV[i + 1]` at key `KEYS[i]`
/// for each `i`: a holder that renews is alive, so its place is written
/// again even if it was lost (Redis restarted empty); answers how many.
const RENEW_LUA: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[1])
local renewed = 0
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', key, ttl)
  renewed = renewed + 1
end
return renewed
";

static TAKE: LazyLock<Script> = LazyLock::new(|| Script::new(TAKE_LUA));
static RENEW: LazyLock<Script> = LazyLock::new(|| Script::new(RENEW_LUA));

/// Keys renewed per round trip at most.
const RENEW_BATCH: usize = 256;

/// Places at keys, at most `max` per key, each held for `ttl` unless
/// renewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Places {
    /// Holders per key at most.
    pub max: u32,
    /// How long a place holds without being renewed.
    pub ttl: Duration,
}

impl Places {
    /// Takes a place at `key` for `holder` (unique to the holder: the node
    /// and a number); whether it was admitted.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached or fails the
    /// script.
    pub async fn take(
        &self,
        conn: &mut ConnectionManager,
        key: &str,
        holder: &str,
    ) -> Result<bool, BusError> {
        let mut call = TAKE.prepare_invoke();
        call.key(key).arg(holder).arg(self.max).arg(self.ttl_ms());
        let admitted: i64 = invoke_retrying(&call, conn).await?;
        Ok(admitted == 1)
    }

    /// Renews every `(key, holder)` place of `held` for another
    /// [`Places::ttl`] (writing again a place Redis lost); answers how
    /// many.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached or fails the
    /// script.
    pub async fn renew(
        &self,
        conn: &mut ConnectionManager,
        held: &[(String, String)],
    ) -> Result<usize, BusError> {
        let mut renewed = 0;
        for batch in held.chunks(RENEW_BATCH) {
            let mut call = RENEW.prepare_invoke();
            call.arg(self.ttl_ms());
            for (key, holder) in batch {
                call.key(key).arg(holder);
            }
            let n: usize = invoke_retrying(&call, conn).await?;
            renewed += n;
        }
        Ok(renewed)
    }

    /// Gives up `holder`'s place at `key`.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached.
    pub async fn release(
        conn: &mut ConnectionManager,
        key: &str,
        holder: &str,
    ) -> Result<(), BusError> {
        let _: i64 = redis::cmd("ZREM")
            .arg(key)
            .arg(holder)
            .query_async(conn)
            .await?;
        Ok(())
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis())
            .unwrap_or(u64::MAX)
            .max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TestRedis;

    async fn conn(redis: &TestRedis) -> ConnectionManager {
        let client = redis::Client::open(redis.url()).unwrap();
        client.get_connection_manager().await.unwrap()
    }

    #[tokio::test]
    async fn at_most_max_holders_per_key_and_a_release_frees_one() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let p = Places {
            max: 2,
            ttl: Duration::from_secs(30),
        };
        assert!(p.take(&mut c, "k", "a:1").await.unwrap());
        assert!(p.take(&mut c, "k", "b:1").await.unwrap());
        assert!(!p.take(&mut c, "k", "a:2").await.unwrap());
        // A holder asking again keeps its place; other keys are apart.
        assert!(p.take(&mut c, "k", "b:1").await.unwrap());
        assert!(p.take(&mut c, "other", "a:2").await.unwrap());
        Places::release(&mut c, "k", "a:1").await.unwrap();
        assert!(p.take(&mut c, "k", "a:2").await.unwrap());
    }

    #[tokio::test]
    async fn places_not_renewed_expire_and_renewed_ones_hold() {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        let mut c = conn(&redis).await;
        let p = Places {
            max: 2,
            ttl: Duration::from_millis(400),
        };
        assert!(p.take(&mut c, "k", "live:1").await.unwrap());
        // The holder of a node that died: never renewed.
        assert!(p.take(&mut c, "k", "dead:1").await.unwrap());
        assert!(!p.take(&mut c, "k", "live:2").await.unwrap());
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let held = [("k".to_owned(), "live:1".to_owned())];
            assert_eq!(p.renew(&mut c, &held).await.unwrap(), 1);
        }
        // The dead node's place is gone, the renewed one holds.
        assert!(p.take(&mut c, "k", "live:2").await.unwrap());
        assert!(!p.take(&mut c, "k", "live:3").await.unwrap());
    }
}
