//! Who is online: an account with an open event stream or game or lobby
//! socket. Each open connection holds a [`Here`]; the account is online
//! while it holds at least one.
//!
//! In a cluster ([`Presence::clustered`]) an account online on any node is
//! online everywhere. Each node counts its own connections and tells Redis
//! which accounts it holds: a hash `online:<id>` (node → until when, Unix
//! ms) per account, and the sorted set `online` (account → the latest of
//! those times) that is asked. A node renews its accounts every
//! [`RENEW_EVERY`] for [`ONLINE_TTL`], so a node that died stops counting
//! within 15 s; one whose last connection of an account closes takes its
//! entry out at once. Arrivals and departures go through one task, in
//! order. Without Redis (or when it cannot be reached) a node answers from
//! its own connections.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::mpsc;

/// How long a node's word that an account is online holds.
pub const ONLINE_TTL: Duration = Duration::from_secs(15);
/// How often a node renews its accounts' entries.
pub const RENEW_EVERY: Duration = Duration::from_secs(5);

/// Renews the entries of `ARGV[4..]` (accounts) for node `ARGV[1]` until
/// `ARGV[2]` (ms), each hash kept `ARGV[3]` ms; forgets expired accounts.
const RENEW: &str = r"
local node, untl, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
for i = 4, #ARGV do
  local k = 'online:' .. ARGV[i]
  redis.call('HSET', k, node, untl)
  redis.call('PEXPIRE', k, ttl)
  redis.call('ZADD', 'online', 'GT', untl, ARGV[i])
end
redis.call('ZREMRANGEBYSCORE', 'online', '-inf', '(' .. (untl - tonumber(ttl)))
return 1
";

/// Takes node `ARGV[1]`'s entry of account `ARGV[2]` out at `ARGV[3]` (ms):
/// the account stays online until the latest other live entry, if any.
const LEAVE: &str = r"
local k = 'online:' .. ARGV[2]
redis.call('HDEL', k, ARGV[1])
local now, best = tonumber(ARGV[3]), 0
for _, v in ipairs(redis.call('HVALS', k)) do
  local e = tonumber(v)
  if e > now and e > best then best = e end
end
if best == 0 then
  redis.call('DEL', k)
  redis.call('ZREM', 'online', ARGV[2])
else
  redis.call('ZADD', 'online', best, ARGV[2])
end
return 1
";

/// A change of this node's accounts, for the task that tells Redis.
#[derive(Debug)]
enum Change {
    Arrived(String),
    Left(String),
}

/// The cluster side of [`Presence`].
#[derive(Debug)]
struct Remote {
    conn: redis::aio::ConnectionManager,
    changes: mpsc::UnboundedSender<Change>,
}

/// Accounts online, by lichess id (lower-case name), with their count of
/// open connections on this node.
#[derive(Debug, Default)]
pub struct Presence {
    open: Mutex<HashMap<String, usize>>,
    shared: Option<Remote>,
}

/// One open connection of an account; dropping it closes it.
#[derive(Debug)]
pub struct Here {
    presence: Arc<Presence>,
    id: String,
}

impl Presence {
    /// The presence of a node in a cluster, shared through `bus`'s Redis.
    pub fn clustered(bus: &Arc<plyyard_cluster::Bus>) -> Arc<Presence> {
        let (tx, rx) = mpsc::unbounded_channel();
        let presence = Arc::new(Presence {
            open: Mutex::default(),
            shared: Some(Remote {
                conn: bus.conn(),
                changes: tx,
            }),
        });
        tokio::spawn(tell_redis(
            Arc::downgrade(&presence),
            bus.node().to_owned(),
            bus.conn(),
            bus.resubscribed(),
            rx,
        ));
        presence
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes one more open connection of `id` until the guard drops.
    pub fn here(self: &Arc<Presence>, id: &str) -> Here {
        let mut open = self.lock();
        let n = open.entry(id.to_owned()).or_insert(0);
        *n += 1;
        if *n == 1
            && let Some(s) = &self.shared
        {
            let _ = s.changes.send(Change::Arrived(id.to_owned()));
        }
        Here {
            presence: Arc::clone(self),
            id: id.to_owned(),
        }
    }

    /// Whether `id` has an open connection (on any node of a cluster).
    pub async fn is_online(&self, id: &str) -> bool {
        if self.lock().contains_key(id) {
            return true;
        }
        let Some(s) = &self.shared else {
            return false;
        };
        let mut conn = s.conn.clone();
        let score: redis::RedisResult<Option<f64>> = redis::cmd("ZSCORE")
            .arg(plyyard_cluster::topics::ONLINE)
            .arg(id)
            .query_async(&mut conn)
            .await;
        match score {
            Ok(until) => until.is_some_and(|u| u > now_f64()),
            Err(e) => {
                tracing::warn!("presence: Redis cannot be asked, answering for this node: {e}");
                false
            }
        }
    }

    /// The ids online now (on any node of a cluster), sorted.
    pub async fn online_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.lock().keys().cloned().collect();
        if let Some(s) = &self.shared {
            let mut conn = s.conn.clone();
            let shared: redis::RedisResult<Vec<String>> = redis::cmd("ZRANGEBYSCORE")
                .arg(plyyard_cluster::topics::ONLINE)
                .arg(format!("({}", plyyard_store::now_ms()))
                .arg("+inf")
                .query_async(&mut conn)
                .await;
            match shared {
                Ok(more) => ids.extend(more),
                Err(e) => tracing::warn!("presence: Redis cannot be asked: {e}"),
            }
        }
        ids.sort();
        ids.dedup();
        ids
    }
}

impl Drop for Here {
    fn drop(&mut self) {
        let mut open = self.presence.lock();
        if let Some(n) = open.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.id);
                if let Some(s) = &self.presence.shared {
                    let _ = s.changes.send(Change::Left(self.id.clone()));
                }
            }
        }
    }
}

fn now_f64() -> f64 {
    // Milliseconds since 1970 fit an f64 exactly.
    plyyard_store::now_ms() as f64
}

/// Tells Redis of this node's arrivals and departures in order, renews
/// its accounts every [`RENEW_EVERY`] and at once after Redis came back;
/// ends with the presence.
async fn tell_redis(
    presence: Weak<Presence>,
    node: String,
    mut conn: redis::aio::ConnectionManager,
    mut resubscribed: tokio::sync::watch::Receiver<u64>,
    mut changes: mpsc::UnboundedReceiver<Change>,
) {
    let renew = redis::Script::new(RENEW);
    let leave = redis::Script::new(LEAVE);
    let mut every = tokio::time::interval(RENEW_EVERY);
    loop {
        let ids = tokio::select! {
            change = changes.recv() => match change {
                None => return,
                Some(Change::Arrived(id)) => vec![id],
                Some(Change::Left(id)) => {
                    let done: redis::RedisResult<i64> = leave
                        .arg(&node)
                        .arg(&id)
                        .arg(plyyard_store::now_ms())
                        .invoke_async(&mut conn)
                        .await;
                    if let Err(e) = done {
                        tracing::warn!("presence: a departure was not recorded: {e}");
                    }
                    continue;
                }
            },
            _ = every.tick() => match presence.upgrade() {
                Some(p) => p.lock().keys().cloned().collect(),
                None => return,
            },
            changed = resubscribed.changed() => {
                if changed.is_err() {
                    return;
                }
                match presence.upgrade() {
                    Some(p) => p.lock().keys().cloned().collect(),
                    None => return,
                }
            }
        };
        renew_ids(&renew, &mut conn, &node, &ids).await;
    }
}

async fn renew_ids(
    script: &redis::Script,
    conn: &mut redis::aio::ConnectionManager,
    node: &str,
    ids: &[String],
) {
    let ttl = i64::try_from(ONLINE_TTL.as_millis()).unwrap_or(i64::MAX);
    for chunk in ids.chunks(500).chain(ids.is_empty().then_some(&[][..])) {
        let mut call = script.prepare_invoke();
        call.arg(node).arg(plyyard_store::now_ms() + ttl).arg(ttl);
        for id in chunk {
            call.arg(id);
        }
        let done: redis::RedisResult<i64> = call.invoke_async(conn).await;
        if let Err(e) = done {
            tracing::warn!("presence: cannot renew this node's accounts: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_account_is_online_while_a_connection_is_open() {
        let p = Arc::new(Presence::default());
        assert!(!p.is_online("alice").await);
        let a = p.here("alice");
        let b = p.here("alice");
        let _c = p.here("bob");
        assert_eq!(p.online_ids().await, ["alice", "bob"]);
        drop(a);
        assert!(p.is_online("alice").await);
        drop(b);
        assert!(!p.is_online("alice").await);
        assert!(p.is_online("bob").await);
    }
}
