//! The seeks of a cluster, kept in Redis ([`RedisSeeks`]): every node adds,
//! removes and pairs seeks in one shared pool, and each pair is made once.
//!
//! The rules stay in Rust (the pure [`Pool`]); Redis holds the data and
//! makes each change atomic. A change is computed on a copy of the pool
//! read with its version (`seek:ver`), then applied by a script only if
//! the version is still the same, bumping it (compare and set; on a
//! conflict the change is computed again on a fresh copy). The script
//! also publishes the change's lobby messages on the `lobby` topic, so
//! lobby sockets hear of seeks in the order the pool changed.
//!
//! Keys: `seek:all` (a hash: id → the seek as JSON, with the node holding
//! its request), `seek:ver`, and `seek:here:<id>` while its seeker waits:
//! set by the seeker's node, renewed every few seconds while the request
//! is open, gone [`HERE_TTL`] after that node died. Reading the pool
//! drops (and takes off the lobby) the seeks whose seeker is no longer
//! there. Pairing claims both seekers at once ([`SeekStore::claim`]): only
//! when both still wait is the game made.

use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

use super::memory::SeekStore;
use crate::lobby::LobbyMsg;
use crate::pool::{Added, Pair, Pool, PoolKey, Seek, SeekId};
use crate::seek_json::SeekJson;
use plyyard_game::Variant;

/// A seeker's mark lasts this long unless its node renews it.
pub const HERE_TTL: Duration = Duration::from_secs(15);
/// How often a node renews its seekers' marks.
pub const RENEW_EVERY: Duration = Duration::from_secs(5);
/// Attempts at a change before giving up (each after a conflict).
const ATTEMPTS: u32 = 200;

/// Reads the pool: `{version, seeks}`, dropping (and taking off the
/// lobby) the seeks whose seeker is gone.
const SNAPSHOT: &str = r#"
local all = redis.call('HGETALL', 'seek:all')
local live, gone = {}, 0
for i = 1, #all, 2 do
  if redis.call('EXISTS', 'seek:here:' .. all[i]) == 1 then
    table.insert(live, all[i + 1])
  else
    redis.call('HDEL', 'seek:all', all[i])
    redis.call('PUBLISH', 'lobby', '{"t":"seek_remove","id":' .. all[i] .. '}')
    gone = gone + 1
  end
end
if gone > 0 then redis.call('INCR', 'seek:ver') end
return {tonumber(redis.call('GET', 'seek:ver') or '0'), live}
"#;

/// Applies a change if the pool is still at version `ARGV[1]`: `ARGV[2]`
/// ids to delete, then a count of (id, seek) pairs to set, then lobby
/// messages to publish. Answers 1 if applied.
const CHANGE: &str = r"
if tonumber(redis.call('GET', 'seek:ver') or '0') ~= tonumber(ARGV[1]) then return 0 end
local i = 2
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do redis.call('HDEL', 'seek:all', ARGV[i]); i = i + 1 end
local m = tonumber(ARGV[i]); i = i + 1
for _ = 1, m do redis.call('HSET', 'seek:all', ARGV[i], ARGV[i + 1]); i = i + 2 end
redis.call('INCR', 'seek:ver')
for j = i, #ARGV do redis.call('PUBLISH', 'lobby', ARGV[j]) end
return 1
";

/// Takes seek `ARGV[1]` out (its seeker left), publishing `ARGV[2]`;
/// answers the seek, or nil when it no longer waited.
const REMOVE: &str = r"
redis.call('DEL', 'seek:here:' .. ARGV[1])
local seek = redis.call('HGET', 'seek:all', ARGV[1])
if not seek then return false end
redis.call('HDEL', 'seek:all', ARGV[1])
redis.call('INCR', 'seek:ver')
redis.call('PUBLISH', 'lobby', ARGV[2])
return seek
";

/// Claims seekers `ARGV[1]` and `ARGV[2]`: `{a waits, b waits}`, their
/// marks taken only when both wait.
const CLAIM: &str = r"
local ka, kb = 'seek:here:' .. ARGV[1], 'seek:here:' .. ARGV[2]
local ea, eb = redis.call('EXISTS', ka), redis.call('EXISTS', kb)
if ea == 1 and eb == 1 then redis.call('DEL', ka, kb) end
return {ea, eb}
";

/// A seek as kept in Redis.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    id: u64,
    player: String,
    name: String,
    rating: i64,
    provisional: bool,
    variant: Variant,
    minutes: u32,
    increment: u32,
    rated: bool,
    since: i64,
    node: String,
    /// Written by nodes since issue 58; older nodes' seeks have none.
    #[serde(default)]
    address: String,
}

impl From<&Seek> for Record {
    fn from(s: &Seek) -> Record {
        Record {
            id: s.id.0,
            player: s.player.clone(),
            name: s.name.clone(),
            rating: s.rating,
            provisional: s.provisional,
            variant: s.key.variant,
            minutes: s.key.minutes,
            increment: s.key.increment,
            rated: s.key.rated,
            since: s.since,
            node: s.node.clone(),
            address: s.address.clone(),
        }
    }
}

impl From<Record> for Seek {
    fn from(r: Record) -> Seek {
        Seek {
            id: SeekId(r.id),
            player: r.player,
            name: r.name,
            rating: r.rating,
            provisional: r.provisional,
            key: PoolKey {
                variant: r.variant,
                minutes: r.minutes,
                increment: r.increment,
                rated: r.rated,
            },
            since: r.since,
            node: r.node,
            address: r.address,
        }
    }
}

fn encode(seek: &Seek) -> String {
    serde_json::to_string(&Record::from(seek)).unwrap_or_default()
}

fn decode(text: &str) -> Option<Seek> {
    match serde_json::from_str::<Record>(text) {
        Ok(r) => Some(r.into()),
        Err(e) => {
            tracing::warn!("seeks: an unreadable seek in Redis was skipped: {e}");
            None
        }
    }
}

fn removed(seek: &Seek) -> String {
    LobbyMsg::SeekRemove { id: seek.id.0 }.to_text()
}

/// One change of the pool: what goes, what comes, what the lobby hears.
#[derive(Debug, Default)]
struct Change {
    delete: Vec<SeekId>,
    set: Vec<Seek>,
    lobby: Vec<String>,
}

/// The seeks of a cluster, in Redis.
#[derive(Clone)]
pub struct RedisSeeks {
    conn: ConnectionManager,
    node: String,
    snapshot: Arc<redis::Script>,
    change: Arc<redis::Script>,
    remove: Arc<redis::Script>,
    claim: Arc<redis::Script>,
}

impl std::fmt::Debug for RedisSeeks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSeeks")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl RedisSeeks {
    /// The pool shared through `bus`'s Redis.
    pub fn new(bus: &plyyard_cluster::Bus) -> RedisSeeks {
        RedisSeeks {
            conn: bus.conn(),
            node: bus.node().to_owned(),
            snapshot: Arc::new(redis::Script::new(SNAPSHOT)),
            change: Arc::new(redis::Script::new(CHANGE)),
            remove: Arc::new(redis::Script::new(REMOVE)),
            claim: Arc::new(redis::Script::new(CLAIM)),
        }
    }

    /// The pool's version and its waiting seeks.
    async fn read(&self) -> redis::RedisResult<(i64, Vec<Seek>)> {
        let mut conn = self.conn.clone();
        let (version, texts): (i64, Vec<String>) = self.snapshot.invoke_async(&mut conn).await?;
        Ok((version, texts.iter().filter_map(|t| decode(t)).collect()))
    }

    /// Applies `change` if the pool is still at `version`.
    async fn apply(&self, version: i64, change: &Change) -> redis::RedisResult<bool> {
        let mut call = self.change.prepare_invoke();
        call.arg(version).arg(change.delete.len());
        for id in &change.delete {
            call.arg(id.0);
        }
        call.arg(change.set.len());
        for seek in &change.set {
            call.arg(seek.id.0).arg(encode(seek));
        }
        for msg in &change.lobby {
            call.arg(msg);
        }
        let mut conn = self.conn.clone();
        let applied: i64 = call.invoke_async(&mut conn).await?;
        Ok(applied == 1)
    }

    /// Computes a change with `step` on copies of the pool and applies it,
    /// again on a conflict; `None` when Redis fails or the pool keeps
    /// changing.
    async fn change<T>(&self, mut step: impl FnMut(&mut Pool) -> (T, Change)) -> Option<T> {
        for attempt in 0..ATTEMPTS {
            let (version, seeks) = match self.read().await {
                Ok(read) => read,
                Err(e) => {
                    tracing::warn!("seeks: Redis cannot be read: {e}");
                    return None;
                }
            };
            let mut pool = Pool::from_waiting(seeks);
            let (out, change) = step(&mut pool);
            if change.delete.is_empty() && change.set.is_empty() {
                return Some(out);
            }
            match self.apply(version, &change).await {
                Ok(true) => return Some(out),
                Ok(false) => {
                    // Another node changed the pool first: wait a moment
                    // (more the more often it happened) and compute again.
                    let pause = rand::rng().random_range(0..=attempt.min(20));
                    tokio::time::sleep(Duration::from_millis(u64::from(pause))).await;
                }
                Err(e) => {
                    tracing::warn!("seeks: Redis refused a change: {e}");
                    return None;
                }
            }
        }
        tracing::error!("seeks: the pool kept changing; a change was given up");
        None
    }
}

impl SeekStore for RedisSeeks {
    fn new_id(&self) -> SeekId {
        // Random below 2^53 (exact in the lobby's JavaScript), never 0:
        // unique without asking Redis, even across its restarts.
        SeekId(rand::rng().random_range(1..(1u64 << 53)))
    }

    async fn hold(&self, seek: &Seek) {
        let mut conn = self.conn.clone();
        let done: redis::RedisResult<()> = redis::cmd("SET")
            .arg(format!("seek:here:{}", seek.id.0))
            .arg(&self.node)
            .arg("PX")
            .arg(u64::try_from(HERE_TTL.as_millis()).unwrap_or(u64::MAX))
            .query_async(&mut conn)
            .await;
        if let Err(e) = done {
            tracing::warn!("seeks: a seeker was not noted: {e}");
        }
    }

    async fn keep(&self, ids: &[SeekId]) {
        if ids.is_empty() {
            return;
        }
        let ttl = u64::try_from(HERE_TTL.as_millis()).unwrap_or(u64::MAX);
        let mut pipe = redis::pipe();
        for id in ids {
            pipe.cmd("PEXPIRE")
                .arg(format!("seek:here:{}", id.0))
                .arg(ttl)
                .ignore();
        }
        let mut conn = self.conn.clone();
        if let Err(e) = pipe.query_async::<()>(&mut conn).await {
            tracing::warn!("seeks: this node's seekers were not renewed: {e}");
        }
    }

    async fn claim(&self, a: &Seek, b: &Seek) -> (bool, bool) {
        let mut conn = self.conn.clone();
        let claimed: redis::RedisResult<(i64, i64)> = self
            .claim
            .arg(a.id.0)
            .arg(b.id.0)
            .invoke_async(&mut conn)
            .await;
        match claimed {
            Ok((ea, eb)) => (ea == 1, eb == 1),
            Err(e) => {
                tracing::warn!("seeks: a pair could not be claimed: {e}");
                (false, false)
            }
        }
    }

    async fn add(&self, seek: Seek, now: i64) -> Added {
        let json = SeekJson::from(&seek);
        let added = self
            .change(|pool| {
                let added = pool.add(seek.clone(), now);
                let mut change = Change::default();
                if let Some(old) = &added.replaced {
                    change.delete.push(old.id);
                    change.lobby.push(removed(old));
                }
                match &added.paired {
                    Some(Pair(a, b)) => {
                        let partner = if a.id == seek.id { b } else { a };
                        change.delete.push(partner.id);
                        change.lobby.push(removed(partner));
                    }
                    None => {
                        change.set.push(seek.clone());
                        change.lobby.push(
                            LobbyMsg::SeekAdd {
                                seek: Box::new(json.clone()),
                            }
                            .to_text(),
                        );
                    }
                }
                (added, change)
            })
            .await;
        added.unwrap_or_default()
    }

    async fn remove(&self, id: SeekId) -> Option<Seek> {
        let mut conn = self.conn.clone();
        let msg = LobbyMsg::SeekRemove { id: id.0 }.to_text();
        let text: redis::RedisResult<Option<String>> =
            self.remove.arg(id.0).arg(msg).invoke_async(&mut conn).await;
        match text {
            Ok(text) => decode(&text?),
            Err(e) => {
                tracing::warn!("seeks: a seek could not be removed: {e}");
                None
            }
        }
    }

    async fn remove_player(&self, player: &str) -> Option<Seek> {
        let id = self
            .waiting()
            .await
            .into_iter()
            .find(|s| s.player == player)?
            .id;
        self.remove(id).await
    }

    async fn sweep(&self, now: i64) -> Vec<Pair> {
        self.change(|pool| {
            let pairs = pool.sweep(now);
            let mut change = Change::default();
            for Pair(a, b) in &pairs {
                change.delete.extend([a.id, b.id]);
                change.lobby.extend([removed(a), removed(b)]);
            }
            (pairs, change)
        })
        .await
        .unwrap_or_default()
    }

    async fn waiting(&self) -> Vec<Seek> {
        match self.read().await {
            Ok((_, seeks)) => Pool::from_waiting(seeks).waiting(),
            Err(e) => {
                tracing::warn!("seeks: Redis cannot be read: {e}");
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_remove_message_is_the_lobbys() {
        // SNAPSHOT writes this message itself.
        assert_eq!(
            LobbyMsg::SeekRemove { id: 42 }.to_text(),
            r#"{"t":"seek_remove","id":42}"#
        );
    }

    #[test]
    fn seeks_read_back_as_written() {
        let seek = Seek {
            id: SeekId(7),
            player: "p1".into(),
            name: "Ann".into(),
            rating: 1612,
            provisional: true,
            key: PoolKey {
                variant: Variant::Chess960,
                minutes: 5,
                increment: 3,
                rated: true,
            },
            since: 1_700_000_000_000,
            node: "a".into(),
            address: "192.0.2.7".into(),
        };
        assert_eq!(decode(&encode(&seek)), Some(seek));
        assert_eq!(decode("{}"), None);
    }
}
