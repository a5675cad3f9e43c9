//! Ending the open streams and sockets of an account when what opened
//! them no longer holds: a revoked token ends the streams opened with it;
//! a session logged out ends its sockets; a deleted or closed account ends
//! all of them, and a changed password all but those of the session that
//! changed it.
//!
//! Every open stream or socket of an account holds a [`Held`], made by
//! [`Revocation::hold`] with the account and the [`Credential`] that
//! opened it, and ends once [`Held::ended`] completes. In a cluster
//! ([`Revocation::clustered`]) an ending is published on the bus's `ends`
//! topic, and every node ends the holders it keeps; this node hears its own
//! notice back like the others (one it could not publish, Redis being
//! unreachable, is acted on here at once).

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::outbox::{Outbox, listen};
use plyyard_cluster::topics::ENDS;

/// What opened a stream or socket.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Credential {
    /// An API token, by its public id.
    Token(String),
    /// A session, by the hash of its id (what the database keeps).
    Session(String),
}

/// Why streams and sockets were ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Their token was revoked.
    Revoked,
    /// Their session logged out.
    LoggedOut,
    /// The account's password changed.
    PasswordChanged,
    /// The account was deleted by its owner.
    Deleted,
    /// The account was closed (by a moderator).
    Closed,
}

/// Which holders an ending reaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Target {
    /// Every holder of `account` but those opened with `keep`.
    Account {
        account: String,
        keep: Option<Credential>,
    },
    /// Every holder opened with `credential`.
    Credential { credential: Credential },
}

impl Target {
    fn reaches(&self, e: &Entry) -> bool {
        match self {
            Target::Account { account, keep } => {
                *account == e.account && keep.as_ref() != Some(&e.credential)
            }
            Target::Credential { credential } => *credential == e.credential,
        }
    }
}

/// What a node tells the others on the `ends` topic.
#[derive(Debug, Serialize, Deserialize)]
struct Notice {
    target: Target,
    reason: EndReason,
}

/// One holder, as this node keeps it.
#[derive(Debug)]
struct Entry {
    account: String,
    credential: Credential,
    end: watch::Sender<Option<EndReason>>,
}

/// The holders of this node, and the endings of every node.
#[derive(Debug, Default)]
pub struct Revocation {
    held: Mutex<HashMap<u64, Entry>>,
    next: AtomicU64,
    out: Option<Outbox>,
}

/// An open stream's or socket's place: [`Held::ended`] completes when it
/// must end. Clones share the place; it is given up when the last goes.
#[derive(Debug, Clone)]
pub struct Held {
    inner: Arc<Place>,
}

#[derive(Debug)]
struct Place {
    revocation: Weak<Revocation>,
    number: u64,
    ended: watch::Receiver<Option<EndReason>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Some(r) = self.revocation.upgrade() {
            r.lock().remove(&self.number);
        }
    }
}

impl Held {
    /// Why it was ended, if it was.
    pub fn reason(&self) -> Option<EndReason> {
        *self.inner.ended.borrow()
    }

    /// Completes with the reason once the stream or socket must end; the
    /// future keeps the place until it is dropped.
    pub fn ended(&self) -> impl Future<Output = EndReason> + Send + 'static {
        let held = self.clone();
        async move {
            let mut rx = held.inner.ended.clone();
            let reason = rx.wait_for(Option::is_some).await.map(|r| *r);
            match reason {
                Ok(reason) => reason.unwrap_or(EndReason::Revoked),
                // The place is kept while this future lives: never.
                Err(_) => std::future::pending().await,
            }
        }
    }
}

impl Revocation {
    /// The endings of a node in a cluster, carried by `bus`.
    pub fn clustered(bus: &Arc<plyyard_cluster::Bus>) -> Arc<Revocation> {
        let revocation = Arc::new_cyclic(|me: &Weak<Revocation>| {
            let lost = me.clone();
            let out = Outbox::start(bus, ENDS, move |payload| {
                if let Some(r) = lost.upgrade() {
                    r.heard(&payload);
                }
            });
            Revocation {
                out: Some(out),
                ..Revocation::default()
            }
        });
        let me = Arc::downgrade(&revocation);
        listen(bus, ENDS, move |payload| match me.upgrade() {
            Some(r) => {
                r.heard(&payload);
                true
            }
            None => false,
        });
        revocation
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<u64, Entry>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a stream or socket of `account` (player id) opened with
    /// `credential`, until the [`Held`] and its clones drop.
    pub fn hold(self: &Arc<Revocation>, account: &str, credential: Credential) -> Held {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let (end, ended) = watch::channel(None);
        self.lock().insert(
            number,
            Entry {
                account: account.to_owned(),
                credential,
                end,
            },
        );
        Held {
            inner: Arc::new(Place {
                revocation: Arc::downgrade(self),
                number,
                ended,
            }),
        }
    }

    /// How many streams and sockets this node holds open.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether this node holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ends every stream and socket of `account` (player id), on every
    /// node: the account was deleted or closed, or its password changed.
    pub fn end_account_streams(&self, account: &str, reason: EndReason) {
        self.end(
            Target::Account {
                account: account.to_owned(),
                keep: None,
            },
            reason,
        );
    }

    /// Ends every stream and socket of `account` but those opened with
    /// `keep` (the session that changed the password), on every node.
    pub fn end_other_streams(&self, account: &str, keep: Credential, reason: EndReason) {
        self.end(
            Target::Account {
                account: account.to_owned(),
                keep: Some(keep),
            },
            reason,
        );
    }

    /// Ends the streams opened with token `token_id`, on every node.
    pub fn end_token_streams(&self, token_id: &str) {
        self.end_credential(Credential::Token(token_id.to_owned()), EndReason::Revoked);
    }

    /// Ends the streams and sockets opened with `credential`, on every
    /// node.
    pub fn end_credential(&self, credential: Credential, reason: EndReason) {
        self.end(Target::Credential { credential }, reason);
    }

    fn end(&self, target: Target, reason: EndReason) {
        let notice = Notice { target, reason };
        match &self.out {
            Some(out) => out.send(serde_json::to_vec(&notice).unwrap_or_default()),
            None => self.apply(&notice),
        }
    }

    /// Acts on a notice heard on the bus (this node's own included).
    fn heard(&self, payload: &[u8]) {
        match serde_json::from_slice::<Notice>(payload) {
            Ok(notice) => self.apply(&notice),
            Err(e) => tracing::warn!("ends: an unreadable notice was dropped: {e}"),
        }
    }

    fn apply(&self, notice: &Notice) {
        let mut ended = 0;
        for e in self.lock().values() {
            if notice.target.reaches(e) {
                e.end.send_replace(Some(notice.reason));
                ended += 1;
            }
        }
        if ended > 0 {
            tracing::info!(ended, reason = ?notice.reason, "streams and sockets ended");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    async fn ends(h: &Held) -> Option<EndReason> {
        tokio::time::timeout(Duration::from_millis(200), h.ended())
            .await
            .ok()
    }

    #[tokio::test]
    async fn a_revoked_token_ends_only_its_streams() {
        let r = Arc::new(Revocation::default());
        let by_token = r.hold("p1", Credential::Token("t1".into()));
        let other_token = r.hold("p1", Credential::Token("t2".into()));
        let by_session = r.hold("p1", Credential::Session("s1".into()));
        r.end_token_streams("t1");
        assert_eq!(ends(&by_token).await, Some(EndReason::Revoked));
        assert_eq!(by_token.reason(), Some(EndReason::Revoked));
        assert_eq!(ends(&other_token).await, None);
        assert_eq!(ends(&by_session).await, None);
    }

    #[tokio::test]
    async fn an_account_ends_everywhere_but_the_session_kept() {
        let r = Arc::new(Revocation::default());
        let kept = r.hold("p1", Credential::Session("s1".into()));
        let other = r.hold("p1", Credential::Session("s2".into()));
        let token = r.hold("p1", Credential::Token("t1".into()));
        let someone_else = r.hold("p2", Credential::Session("s3".into()));
        r.end_other_streams(
            "p1",
            Credential::Session("s1".into()),
            EndReason::PasswordChanged,
        );
        assert_eq!(ends(&kept).await, None);
        assert_eq!(ends(&other).await, Some(EndReason::PasswordChanged));
        assert_eq!(ends(&token).await, Some(EndReason::PasswordChanged));
        r.end_account_streams("p1", EndReason::Deleted);
        assert_eq!(ends(&kept).await, Some(EndReason::Deleted));
        assert_eq!(ends(&someone_else).await, None);
    }

    #[tokio::test]
    async fn a_place_is_given_up_with_its_last_clone() {
        let r = Arc::new(Revocation::default());
        let h = r.hold("p1", Credential::Token("t1".into()));
        let waiting = h.ended();
        let copy = h.clone();
        drop(h);
        assert_eq!(r.len(), 1);
        drop(copy);
        assert_eq!(r.len(), 1, "the future keeps it");
        drop(waiting);
        assert!(r.is_empty());
    }

    #[tokio::test]
    async fn an_ending_on_one_node_ends_the_holders_of_another() {
        let Some(redis) = plyyard_cluster::testing::TestRedis::start() else {
            return;
        };
        let a = plyyard_cluster::Bus::connect(&redis.url(), "a")
            .await
            .unwrap();
        let b = plyyard_cluster::Bus::connect(&redis.url(), "b")
            .await
            .unwrap();
        let on_a = Revocation::clustered(&a);
        let on_b = Revocation::clustered(&b);
        let here = on_a.hold("p1", Credential::Token("t1".into()));
        let there = on_b.hold("p1", Credential::Token("t1".into()));
        let other = on_b.hold("p1", Credential::Token("t2".into()));
        // Both nodes listen before the notice goes out.
        tokio::time::sleep(Duration::from_millis(200)).await;
        on_a.end_token_streams("t1");
        let wait = Duration::from_secs(1);
        assert_eq!(
            tokio::time::timeout(wait, there.ended()).await,
            Ok(EndReason::Revoked)
        );
        assert_eq!(
            tokio::time::timeout(wait, here.ended()).await,
            Ok(EndReason::Revoked)
        );
        assert_eq!(ends(&other).await, None);
        on_a.end_account_streams("p1", EndReason::Deleted);
        assert_eq!(
            tokio::time::timeout(wait, other.ended()).await,
            Ok(EndReason::Deleted)
        );
    }

    #[test]
    fn notices_cross_the_bus_as_written() {
        let n = Notice {
            target: Target::Account {
                account: "p1".into(),
                keep: Some(Credential::Session("s".into())),
            },
            reason: EndReason::PasswordChanged,
        };
        let text = serde_json::to_string(&n).unwrap();
        assert_eq!(
            text,
            r#"{"target":{"t":"account","account":"p1","keep":{"kind":"session","id":"s"}},"reason":"password_changed"}"#
        );
        let back: Notice = serde_json::from_str(&text).unwrap();
        assert_eq!(back.target, n.target);
    }
}
