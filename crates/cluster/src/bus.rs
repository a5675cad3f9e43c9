//! The bus ([`Bus`]): publishing and commands on one self-healing
//! connection, and one subscriber connection shared by every topic.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink};
use tokio::sync::{broadcast, mpsc, watch};

use crate::error::BusError;

/// Messages kept per topic for a slow local listener.
const TOPIC_BACKLOG: usize = 8192;
/// How long connecting and each command may take.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The wait between two attempts to reconnect the subscriber.
const RECONNECT_PAUSE: Duration = Duration::from_millis(250);

/// The pause before a command is sent again on a new connection.
const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// Every node listens on the topic of this prefix and its id.
pub const NODE_TOPIC_PREFIX: &str = "node:";

/// A node's connection to the bus.
pub struct Bus {
    node: String,
    conn: ConnectionManager,
    topics: Mutex<HashMap<String, broadcast::Sender<Bytes>>>,
    /// Topics to subscribe to, for the subscriber task.
    new_topics: mpsc::UnboundedSender<String>,
    resubscribed: watch::Sender<u64>,
    up: AtomicBool,
}

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl Bus {
    /// Connects node `node` to the Redis server at `url` (`redis://HOST:PORT/DB`),
    /// checks that it answers, and starts listening.
    ///
    /// # Errors
    /// [`BusError::BadUrl`] for a URL that cannot be used, [`BusError::Redis`]
    /// when the server cannot be reached within 2 s.
    pub async fn connect(url: &str, node: &str) -> Result<Arc<Bus>, BusError> {
        let client = redis::Client::open(url).map_err(|e| BusError::BadUrl {
            url: redacted(url),
            reason: e.to_string(),
        })?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let mut conn = tokio::time::timeout(
            TIMEOUT * 2,
            client.get_connection_manager_with_config(config),
        )
        .await
        .map_err(|_| timed_out(url))??;
        let _: String = redis::cmd("PING").query_async(&mut conn).await?;
        let pubsub = tokio::time::timeout(TIMEOUT, client.get_async_pubsub())
            .await
            .map_err(|_| timed_out(url))??;
        let (new_topics, topics_rx) = mpsc::unbounded_channel();
        let bus = Arc::new(Bus {
            node: node.to_owned(),
            conn,
            topics: Mutex::default(),
            new_topics,
            resubscribed: watch::Sender::new(0),
            up: AtomicBool::new(true),
        });
        tokio::spawn(listen(Arc::downgrade(&bus), client, pubsub, topics_rx));
        Ok(bus)
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// A connection for commands (it reconnects on its own; clones share it).
    pub fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }

    /// Whether the subscriber connection is up now.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    /// Publishes `payload` on `topic`; answers how many subscribers (nodes)
    /// received it.
    ///
    /// # Errors
    /// [`BusError::Redis`] when Redis cannot be reached.
    pub async fn publish(&self, topic: &str, payload: &[u8]) -> Result<usize, BusError> {
        let mut conn = self.conn.clone();
        let mut cmd = redis::cmd("PUBLISH");
        cmd.arg(topic).arg(payload);
        match cmd.query_async(&mut conn).await {
            Ok(n) => Ok(n),
            // The first command on a connection Redis dropped (it
            // restarted) fails and makes the manager reconnect: one more
            // try goes out on the new connection.
            Err(e) if dropped(&e) => {
                tokio::time::sleep(RETRY_PAUSE).await;
                Ok(cmd.query_async(&mut conn).await?)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Every message published on `topic` from now on (the node subscribes
    /// to it on first use, and stays subscribed).
    pub fn subscribe(&self, topic: &str) -> broadcast::Receiver<Bytes> {
        let mut topics = self.lock();
        if let Some(tx) = topics.get(topic) {
            return tx.subscribe();
        }
        let (tx, rx) = broadcast::channel(TOPIC_BACKLOG);
        topics.insert(topic.to_owned(), tx);
        let _ = self.new_topics.send(topic.to_owned());
        rx
    }

    /// Bumped each time the subscriber connection came back after a loss
    /// and every topic was subscribed again: whatever was published
    /// meanwhile is lost, and listeners catch up from the database.
    pub fn resubscribed(&self) -> watch::Receiver<u64> {
        self.resubscribed.subscribe()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, broadcast::Sender<Bytes>>> {
        self.topics.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn deliver(&self, topic: &str, payload: Bytes) {
        if let Some(tx) = self.lock().get(topic) {
            let _ = tx.send(payload);
        }
    }

    fn topic_names(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }
}

fn timed_out(url: &str) -> BusError {
    BusError::Redis(redis::RedisError::from((
        redis::ErrorKind::Io,
        "connecting timed out",
        redacted(url),
    )))
}

/// `url` without its user and password (`redis://***@host:port/db`), for
/// errors and logs.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    match authority.rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => url.to_owned(),
    }
}

/// The subscriber task: delivers each message to its topic's listeners,
/// subscribes to new topics, and reconnects (subscribing to every topic
/// again) when the connection is lost. It ends with the bus.
async fn listen(
    bus: std::sync::Weak<Bus>,
    client: redis::Client,
    first: redis::aio::PubSub,
    mut topics_rx: mpsc::UnboundedReceiver<String>,
) {
    let mut pubsub = Some(first);
    let mut round = 0u64;
    loop {
        let Some(this) = bus.upgrade() else { return };
        let (mut sink, mut stream) = match pubsub.take() {
            Some(p) => p.split(),
            None => match reconnect(&client).await {
                Some(p) => p.split(),
                None => {
                    drop(this);
                    tokio::time::sleep(RECONNECT_PAUSE).await;
                    continue;
                }
            },
        };
        if subscribe_all(&mut sink, &this.topic_names()).await.is_err() {
            this.up.store(false, Ordering::Relaxed);
            continue;
        }
        this.up.store(true, Ordering::Relaxed);
        if round > 0 {
            tracing::info!(node = %this.node, "bus: subscribed again after a loss");
            this.resubscribed.send_modify(|n| *n += 1);
        }
        round += 1;
        drop(this);
        loop {
            tokio::select! {
                msg = stream.next() => {
                    let Some(msg) = msg else { break };
                    let Some(this) = bus.upgrade() else { return };
                    let payload = Bytes::copy_from_slice(msg.get_payload_bytes());
                    this.deliver(msg.get_channel_name(), payload);
                }
                topic = topics_rx.recv() => {
                    let Some(topic) = topic else { return };
                    if sink.subscribe(&topic).await.is_err() {
                        break;
                    }
                }
            }
        }
        if let Some(this) = bus.upgrade() {
            this.up.store(false, Ordering::Relaxed);
            tracing::warn!(node = %this.node, "bus: the subscriber connection was lost; reconnecting");
        }
    }
}

async fn reconnect(client: &redis::Client) -> Option<redis::aio::PubSub> {
    match tokio::time::timeout(TIMEOUT, client.get_async_pubsub()).await {
        Ok(Ok(p)) => Some(p),
        _ => None,
    }
}

async fn subscribe_all(sink: &mut PubSubSink, topics: &[String]) -> redis::RedisResult<()> {
    if topics.is_empty() {
        return Ok(());
    }
    sink.subscribe(topics).await
}

/// Whether `e` is the failure of a connection Redis dropped (it restarted):
/// the manager reconnects, and one more try goes out on the new connection.
pub(crate) fn dropped(e: &redis::RedisError) -> bool {
    e.is_connection_dropped() || e.is_io_error()
}

/// Runs `script` on `conn`, once more after [`RETRY_PAUSE`] if the first
/// try met a connection Redis dropped.
pub(crate) async fn invoke_retrying<T: redis::FromRedisValue>(
    script: &redis::ScriptInvocation<'_>,
    conn: &mut ConnectionManager,
) -> Result<T, redis::RedisError> {
    match script.invoke_async(conn).await {
        Err(e) if dropped(&e) => {
            tokio::time::sleep(RETRY_PAUSE).await;
            script.invoke_async(conn).await
        }
        done => done,
    }
}
