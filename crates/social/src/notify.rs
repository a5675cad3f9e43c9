//! Notifications: what an account is told in the header's bell — a
//! challenge received, a message received — kept in the store for
//! [`KEEP_MS`] (then pruned), marked seen when the account opens the
//! list, and pushed at once to every page the account holds open
//! ([`Bell`]: one broadcast per account on this node; in a cluster each
//! notification crosses the bus's `notify` topic to the node holding the
//! page).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::outbox::{Outbox, listen};
use plyyard_cluster::topics::NOTIFY;
use plyyard_store::{NotificationRow, Store, now_ms};
use plyyard_wire::error::ApiError;

/// How long a notification is kept: 30 days.
pub const KEEP_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// How many of an account's last notifications the list shows.
pub const LISTED: u32 = 50;
/// The characters of a message a notification quotes.
pub const QUOTE_CHARS: usize = 100;
/// Notifications kept for a slow page before the oldest are dropped.
const BACKLOG: usize = 64;

/// What happened, with what the bell shows of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A challenge was made to the account.
    Challenge {
        /// The challenge's id.
        challenge: String,
        /// Who made it (a username).
        from: String,
    },
    /// A private message reached the account.
    Msg {
        /// Who wrote it (a username).
        from: String,
        /// Its first [`QUOTE_CHARS`] characters.
        text: String,
    },
    /// A report the account made was handled by the moderators (written
    /// by the store as the reports are closed).
    Report {
        /// The reported player's name (`None`: the account is gone).
        about: Option<String>,
    },
    /// A tournament the account joined starts soon.
    TournamentSoon {
        /// The tournament's id.
        tournament: String,
        /// Its full name.
        name: String,
        /// A Swiss (else an Arena).
        swiss: bool,
        /// When it starts, Unix ms.
        starts_at: i64,
    },
    /// A round of a Swiss the account plays was paired.
    SwissRound {
        /// The Swiss's id.
        tournament: String,
        /// Its name.
        name: String,
        /// The round, from 1.
        round: u32,
        /// The opponent's name (`None`: a bye).
        opponent: Option<String>,
    },
    /// A player the account follows won a tournament.
    TournamentWin {
        /// The tournament's id.
        tournament: String,
        /// Its full name.
        name: String,
        /// A Swiss (else an Arena).
        swiss: bool,
        /// The winner's name.
        winner: String,
    },
    /// Rating points given back: an opponent was marked for engine use
    /// (written by the store with the mark, `plyyard_store::Refund`).
    Refund {
        /// The speed of the rating (`blitz` …).
        speed: String,
        /// Whole points given back.
        points: i64,
    },
}

impl Notice {
    /// Its kind as stored (`challenge`, `msg`, `tournament_soon`,
    /// `swiss_round`, `tournament_win`, `refund`, `report`).
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::Challenge { .. } => "challenge",
            Notice::Msg { .. } => "msg",
            Notice::TournamentSoon { .. } => "tournament_soon",
            Notice::SwissRound { .. } => "swiss_round",
            Notice::TournamentWin { .. } => "tournament_win",
            Notice::Refund { .. } => "refund",
            Notice::Report { .. } => "report",
        }
    }
}

/// A notification as an account sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Its id.
    pub id: String,
    /// What happened.
    #[serde(flatten)]
    pub notice: Notice,
    /// Whether the account has seen it.
    pub seen: bool,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

impl Note {
    fn from_row(row: &NotificationRow) -> Option<Note> {
        Some(Note {
            id: row.id.clone(),
            notice: serde_json::from_str(&row.content).ok()?,
            seen: row.seen,
            created_at: row.created_at,
        })
    }
}

/// What nodes tell one another on the `notify` topic.
#[derive(Debug, Serialize, Deserialize)]
struct Push {
    to: String,
    note: Note,
}

/// The open pages of every account on this node, by player id.
#[derive(Debug, Default)]
pub struct Bell {
    pages: Mutex<HashMap<String, broadcast::Sender<Arc<Note>>>>,
    out: Option<Outbox>,
}

impl Bell {
    /// The bell of a node in a cluster, carried by `bus`.
    pub fn clustered(bus: &Arc<plyyard_cluster::Bus>) -> Arc<Bell> {
        let bell = Arc::new_cyclic(|me: &Weak<Bell>| {
            let lost = me.clone();
            let out = Outbox::start(bus, NOTIFY, move |payload| {
                if let Some(bell) = lost.upgrade() {
                    bell.heard(&payload);
                }
            });
            Bell {
                pages: Mutex::default(),
                out: Some(out),
            }
        });
        let me = Arc::downgrade(&bell);
        listen(bus, NOTIFY, move |payload| match me.upgrade() {
            Some(bell) => {
                bell.heard(&payload);
                true
            }
            None => false,
        });
        bell
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<Note>>>> {
        self.pages.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Listens for `player`'s notifications from now on (one page).
    pub fn subscribe(&self, player: &str) -> broadcast::Receiver<Arc<Note>> {
        let mut pages = self.lock();
        pages.retain(|_, tx| tx.receiver_count() > 0);
        pages
            .entry(player.to_owned())
            .or_insert_with(|| broadcast::Sender::new(BACKLOG))
            .subscribe()
    }

    /// Pushes `note` to `player`'s open pages (on any node of a cluster).
    pub fn ring(&self, player: &str, note: Note) {
        match &self.out {
            Some(out) => out.send(
                serde_json::to_vec(&Push {
                    to: player.to_owned(),
                    note,
                })
                .unwrap_or_default(),
            ),
            None => self.deliver(player, note),
        }
    }

    fn deliver(&self, player: &str, note: Note) {
        if let Some(tx) = self.lock().get(player) {
            let _ = tx.send(Arc::new(note));
        }
    }

    fn heard(&self, payload: &[u8]) {
        match serde_json::from_slice::<Push>(payload) {
            Ok(p) => self.deliver(&p.to, p.note),
            Err(e) => tracing::warn!("notify: an unreadable push was dropped: {e}"),
        }
    }
}

/// Notifications over the store and the bell.
#[derive(Debug, Clone)]
pub struct Notifications {
    store: Store,
    /// The open pages, to push to.
    pub bell: Arc<Bell>,
}

/// A new notification's id: 12 random letters and digits.
fn new_id() -> String {
    plyyard_store::replay::new_game_id() + &plyyard_store::replay::new_game_id()[..4]
}

impl Notifications {
    /// Notifications kept in `store`, pushed through `bell`.
    pub fn new(store: Store, bell: Arc<Bell>) -> Notifications {
        Notifications { store, bell }
    }

    /// Tells `player` of `notice`: stored, then pushed to its open pages.
    /// A failure is logged: a notification never fails what caused it.
    pub async fn notify(&self, player: &str, notice: Notice) {
        let note = Note {
            id: new_id(),
            notice,
            seen: false,
            created_at: now_ms(),
        };
        let row = NotificationRow {
            id: note.id.clone(),
            player_id: player.to_owned(),
            kind: note.notice.kind().to_owned(),
            content: serde_json::to_string(&note.notice).unwrap_or_default(),
            seen: false,
            created_at: note.created_at,
        };
        if let Err(e) = self.store.add_notification(&row).await {
            tracing::warn!("a notification was not stored: {e}");
            return;
        }
        self.bell.ring(player, note);
    }

    /// `player`'s last notifications, newest first, and how many it has
    /// not seen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn list(&self, player: &str) -> Result<(Vec<Note>, u64), ApiError> {
        let rows = self.store.notifications(player, LISTED).await?;
        let unseen = self.store.unseen_notifications(player).await?;
        Ok((rows.iter().filter_map(Note::from_row).collect(), unseen))
    }

    /// How many notifications `player` has not seen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn unseen(&self, player: &str) -> Result<u64, ApiError> {
        Ok(self.store.unseen_notifications(player).await?)
    }

    /// Marks all of `player`'s notifications seen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn see(&self, player: &str) -> Result<(), ApiError> {
        self.store.see_notifications(player).await?;
        Ok(())
    }

    /// Deletes the notifications older than [`KEEP_MS`]; how many.
    ///
    /// # Errors
    /// A database failure.
    pub async fn prune(&self) -> Result<u64, ApiError> {
        Ok(self.store.prune_notifications(now_ms() - KEEP_MS).await?)
    }
}

/// The first [`QUOTE_CHARS`] characters of a message, for its
/// notification.
pub fn quote(text: &str) -> String {
    let mut q: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        q.push('…');
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: &str) -> Note {
        Note {
            id: id.into(),
            notice: Notice::Msg {
                from: "Ann".into(),
                text: "hi".into(),
            },
            seen: false,
            created_at: 1,
        }
    }

    #[tokio::test]
    async fn a_ring_reaches_every_open_page_of_its_account_only() {
        let bell = Bell::default();
        bell.ring("p1", note("lost"));
        let mut one = bell.subscribe("p1");
        let mut two = bell.subscribe("p1");
        let mut other = bell.subscribe("p2");
        bell.ring("p1", note("a"));
        assert_eq!(one.recv().await.unwrap().id, "a");
        assert_eq!(two.recv().await.unwrap().id, "a");
        assert!(other.try_recv().is_err());
    }

    #[test]
    fn notices_are_written_as_the_pages_read_them() {
        let json = serde_json::to_value(note("n1")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": "n1", "kind": "msg", "from": "Ann", "text": "hi", "seen": false, "created_at": 1})
        );
        // What the store writes for a refund and a handled report reads back.
        for (content, kind) in [
            (r#"{"kind":"refund","speed":"blitz","points":20}"#, "refund"),
            (r#"{"kind":"report","about":"Rob"}"#, "report"),
            (r#"{"kind":"report","about":null}"#, "report"),
            (
                r#"{"kind":"tournament_soon","tournament":"t1","name":"Duel Arena","swiss":false,"starts_at":5}"#,
                "tournament_soon",
            ),
            (
                r#"{"kind":"swiss_round","tournament":"s1","name":"Club Swiss","round":2,"opponent":null}"#,
                "swiss_round",
            ),
            (
                r#"{"kind":"tournament_win","tournament":"t1","name":"Duel Arena","swiss":false,"winner":"Ann"}"#,
                "tournament_win",
            ),
        ] {
            let notice: Notice = serde_json::from_str(content).unwrap();
            assert_eq!(notice.kind(), kind);
        }
        assert_eq!(quote(&"é".repeat(101)).chars().count(), 101);
        assert_eq!(quote("short"), "short");
    }
}
