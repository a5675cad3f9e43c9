//! Private messages between accounts: the rules of a message (plain text
//! of 1 to [`MAX_CHARS`] characters, line breaks allowed, nothing that
//! spoofs), who may write to whom (nobody to themselves, nobody to a
//! player who blocks them or whom they block, and a new account — younger
//! than [`NEW_ACCOUNT_MS`] — only to players it knows: who follow it, have
//! played it or wrote to it), and [`Inbox`], which keeps them in the
//! store and notifies the recipient.
//!
//! The daily cap is the caller's quota (the server's limiter, keyed by
//! account and address), awaited once the message passed every other
//! check, so that a refused message costs nothing.

use std::future::Future;

use crate::notify::{Notice, Notifications, quote};
use plyyard_store::{Account, MsgRow, RelationKind, Store, ThreadRow, now_ms};
use plyyard_wire::error::ApiError;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 8000;
/// How long an account counts as new: until then it writes only to
/// players who follow it or have played it.
pub const NEW_ACCOUNT_MS: i64 = 60 * 60 * 1000;
/// How many of a conversation's last messages are served.
pub const CONVO_MSGS: u32 = 100;
/// How many conversations an inbox lists.
pub const THREADS: u32 = 50;

/// The text of a message: line breaks made `\n`, trimmed, and checked.
///
/// # Errors
/// `bad_request` for an empty text, one over [`MAX_CHARS`] characters, or
/// one with control characters other than line breaks and tabs, or with
/// characters that spoof ([`crate::text::spoofing`]).
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request("a message needs some text"));
    }
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "a message has at most {MAX_CHARS} characters (this one has {chars})"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(ApiError::bad_request(
            "a message cannot hold control characters other than line breaks and tabs",
        ));
    }
    if let Some(why) = crate::text::spoofing(text) {
        return Err(ApiError::bad_request(format!("a message: {why}")));
    }
    Ok(text.to_owned())
}

/// Whether a sender whose account is `age_ms` old may write to a
/// recipient it `knows` (the recipient follows it, has played it or wrote
/// to it): a new account writes only to players it knows.
pub fn new_account_rule(age_ms: i64, knows: bool) -> bool {
    age_ms >= NEW_ACCOUNT_MS || knows
}

/// Why a player may not write to another now (the text and quota aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// To oneself.
    ToSelf,
    /// The recipient blocks the sender.
    Blocked,
    /// The sender blocks the recipient.
    Blocking,
    /// A new account, to a stranger ([`new_account_rule`]).
    NewAccount,
}

impl Refusal {
    /// Its code, for clients: `self`, `blocked`, `blocking`, `new_account`.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::ToSelf => "self",
            Refusal::Blocked => "blocked",
            Refusal::Blocking => "blocking",
            Refusal::NewAccount => "new_account",
        }
    }

    /// The error a message refused for this answers.
    pub fn error(self) -> ApiError {
        let e = match self {
            Refusal::ToSelf => ApiError::bad_request("You cannot send a message to yourself"),
            Refusal::Blocked => ApiError::forbidden("This player does not accept your messages"),
            Refusal::Blocking => {
                ApiError::forbidden("You block this player: unblock them to write to them")
            }
            Refusal::NewAccount => ApiError::forbidden(
                "In its first hour an account may only write to players who follow it, have played it or wrote to it",
            ),
        };
        e.with_reason(self.code())
    }
}

/// A conversation as its reader sees it.
#[derive(Debug, Clone)]
pub struct Convo {
    /// Its last messages, oldest first.
    pub msgs: Vec<MsgRow>,
    /// What the reader holds about the other player.
    pub out: Option<RelationKind>,
    /// What the other player holds about the reader.
    pub back: Option<RelationKind>,
    /// Why the reader may not write to the other player now, if so.
    pub refusal: Option<Refusal>,
}

/// Private messages over the store.
#[derive(Debug, Clone)]
pub struct Inbox {
    store: Store,
    notifications: Notifications,
}

impl Inbox {
    /// Messages kept in `store`; recipients told through `notifications`.
    pub fn new(store: Store, notifications: Notifications) -> Inbox {
        Inbox {
            store,
            notifications,
        }
    }

    /// Why `from` may not write to `to` now, if it may not (the text and
    /// quota aside).
    ///
    /// # Errors
    /// A database failure.
    pub async fn refusal(&self, from: &Account, to: &Account) -> Result<Option<Refusal>, ApiError> {
        if from.player_id == to.player_id {
            return Ok(Some(Refusal::ToSelf));
        }
        let back = self.store.relation(&to.player_id, &from.player_id).await?;
        if back == Some(RelationKind::Block) {
            return Ok(Some(Refusal::Blocked));
        }
        let out = self.store.relation(&from.player_id, &to.player_id).await?;
        if out == Some(RelationKind::Block) {
            return Ok(Some(Refusal::Blocking));
        }
        let age = now_ms() - from.created_at;
        if age < NEW_ACCOUNT_MS {
            let (me, them) = (&from.player_id, &to.player_id);
            let knows = back == Some(RelationKind::Follow)
                || self.store.have_played(me, them).await?
                || self.store.has_written(them, me).await?;
            if !new_account_rule(age, knows) {
                return Ok(Some(Refusal::NewAccount));
            }
        }
        Ok(None)
    }

    /// Sends `text` from `from` to `to`: checked, counted against the
    /// sender's `quota` (awaited once everything else passed), stored.
    /// Nothing is stored when anything is refused.
    ///
    /// # Errors
    /// `bad_request` for a bad text or oneself; `forbidden` when either
    /// blocks the other or a new account writes to a stranger;
    /// `rate_limited` over the quota; a database failure.
    pub async fn send(
        &self,
        from: &Account,
        to: &Account,
        text: &str,
        quota: impl Future<Output = Result<(), ApiError>>,
    ) -> Result<MsgRow, ApiError> {
        if from.player_id == to.player_id {
            return Err(Refusal::ToSelf.error());
        }
        let text = check_text(text)?;
        if let Some(r) = self.refusal(from, to).await? {
            return Err(r.error());
        }
        quota.await?;
        let msg = MsgRow {
            author: from.player_id.clone(),
            text,
            created_at: now_ms(),
        };
        self.store
            .add_msg(&from.player_id, &to.player_id, &msg)
            .await?;
        let notice = Notice::Msg {
            from: from.username.clone(),
            text: quote(&msg.text),
        };
        self.notifications.notify(&to.player_id, notice).await;
        Ok(msg)
    }

    /// `reader`'s conversation with `other` (marked read).
    ///
    /// # Errors
    /// A database failure.
    pub async fn convo(&self, reader: &Account, other: &Account) -> Result<Convo, ApiError> {
        let msgs = self
            .store
            .msgs_between(&reader.player_id, &other.player_id, CONVO_MSGS)
            .await?;
        self.store
            .read_thread(&reader.player_id, &other.player_id)
            .await?;
        Ok(Convo {
            msgs,
            out: self
                .store
                .relation(&reader.player_id, &other.player_id)
                .await?,
            back: self
                .store
                .relation(&other.player_id, &reader.player_id)
                .await?,
            refusal: self.refusal(reader, other).await?,
        })
    }

    /// `reader`'s conversations, the latest message first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn threads(&self, reader: &str) -> Result<Vec<ThreadRow>, ApiError> {
        Ok(self.store.msg_threads(reader, THREADS).await?)
    }

    /// How many of `reader`'s conversations have a message they have not
    /// read.
    ///
    /// # Errors
    /// A database failure.
    pub async fn unread(&self, reader: &str) -> Result<u64, ApiError> {
        Ok(self.store.unread_threads(reader).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_keep_their_lines_and_are_bounded() {
        assert_eq!(
            check_text("  hi\r\nthere\t<b>x</b> ").unwrap(),
            "hi\nthere\t<b>x</b>"
        );
        assert!(check_text(" \n ").is_err());
        assert!(check_text("a\u{7}b").is_err());
        assert!(check_text("a\u{0}b").is_err());
        assert!(check_text("gg\u{200B}").is_err());
        assert!(check_text(&"é".repeat(MAX_CHARS)).is_ok());
        let long = check_text(&"a".repeat(MAX_CHARS + 1)).unwrap_err();
        assert!(long.message.contains("8000"), "{}", long.message);
    }

    #[test]
    fn a_new_account_writes_only_to_players_it_knows() {
        assert!(new_account_rule(0, true));
        assert!(!new_account_rule(NEW_ACCOUNT_MS - 1, false));
        assert!(new_account_rule(NEW_ACCOUNT_MS, false));
        assert_eq!(Refusal::Blocked.error().reason, Some("blocked"));
    }
}
