//! Private messages through lichess's inbox: `POST /inbox/{username}`
//! (form or JSON field `text`; scope `msg:write`, or the session from the
//! web app) and, with `Accept: application/json`, `GET /inbox` (the
//! account and its conversations) and `GET /inbox/{username}` (the same
//! and the conversation), in lila's shapes: `me`, `contacts` (`user`,
//! `lastMsg` with `text`, `user`, `date`, `read`), `convo` (`user`,
//! `msgs` with `text`, `user`, `date`, `relations` with `in`/`out`,
//! `postable`). We add `convo.refusal`, why `postable` is false, for the
//! web app. The rules are [`plyyard_social::inbox`]'s.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use plyyard_wire::lichess::{OK, Ok as OkJson, Scope};
use serde::{Deserialize, Serialize};

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::users::named;
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp};
use plyyard_social::Social;
use plyyard_social::inbox::Convo;
use plyyard_store::{Account, MsgRow, RelationKind, Store, ThreadRow};

/// The largest body of `POST /inbox/{username}`: a message of
/// [`plyyard_social::inbox::MAX_CHARS`] characters of up to four bytes,
/// each byte percent-encoded in a form, and room for the field's name.
pub const MAX_BODY_BYTES: usize = plyyard_social::inbox::MAX_CHARS * 4 * 3 + 1024;

/// The body of a message.
#[derive(Debug, Deserialize)]
struct MsgBody {
    text: Option<String>,
}

/// `POST /inbox/{username}`: sends a message.
pub async fn post(
    State(state): State<crate::AppState>,
    axum::Extension(ip): axum::Extension<ClientIp>,
    caller: Caller,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<OkJson>> {
    caller.require(&[Scope::MsgWrite])?;
    let b: MsgBody = decode(&headers, body, "message")?;
    let text = b
        .text
        .ok_or_else(|| LiError::bad_request("a message needs some text"))?;
    let to = named(&state.store, &username).await?;
    let key = AccountKey(caller.account.player_id.clone());
    let quota = async {
        state
            .limits
            .check_msgs(ip, Some(&key))
            .await
            .map_err(crate::error::ApiError::from)
    };
    state
        .social
        .inbox
        .send(&caller.account, &to, &text, quota)
        .await?;
    Ok(Json(OK))
}

/// An account as lila's inbox shows it.
#[derive(Debug, Serialize)]
struct ContactJson {
    name: String,
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
    online: bool,
}

/// The account reading.
#[derive(Debug, Serialize)]
struct MeJson {
    name: String,
    id: String,
    bot: bool,
}

#[derive(Debug, Serialize)]
struct MsgJson {
    text: String,
    user: String,
    date: i64,
}

#[derive(Debug, Serialize)]
struct LastMsgJson {
    text: String,
    user: String,
    date: i64,
    read: bool,
}

#[derive(Debug, Serialize)]
struct ThreadJson {
    user: ContactJson,
    #[serde(rename = "lastMsg")]
    last_msg: LastMsgJson,
}

/// Lila's relations: `true` follow, `false` block, absent when none.
#[derive(Debug, Serialize)]
struct RelationsJson {
    #[serde(rename = "in", skip_serializing_if = "Option::is_none")]
    back: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<bool>,
}

#[derive(Debug, Serialize)]
struct ConvoJson {
    user: ContactJson,
    msgs: Vec<MsgJson>,
    relations: RelationsJson,
    postable: bool,
    /// Why `postable` is false: `blocked` (they block the reader),
    /// `blocking` (the reader blocks them) or `new_account`.
    #[serde(skip_serializing_if = "Option::is_none")]
    refusal: Option<&'static str>,
}

/// `GET /inbox` and `GET /inbox/{username}` as JSON.
#[derive(Debug, Serialize)]
pub struct InboxJson {
    me: MeJson,
    contacts: Vec<ThreadJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    convo: Option<ConvoJson>,
}

fn lichess_id(name: &str) -> String {
    name.to_lowercase()
}

async fn contact(social: &Social, a: &Account) -> ContactJson {
    let id = lichess_id(&a.username);
    ContactJson {
        online: social.presence.is_online(&id).await,
        id,
        name: a.username.clone(),
        title: super::users::title(a),
    }
}

async fn thread_json(social: &Social, me: &Account, t: ThreadRow) -> Option<ThreadJson> {
    let name = t.other_name?;
    let id = lichess_id(&name);
    let author = if t.last.author == me.player_id {
        lichess_id(&me.username)
    } else {
        id.clone()
    };
    Some(ThreadJson {
        user: ContactJson {
            online: social.presence.is_online(&id).await,
            id,
            name,
            title: None,
        },
        last_msg: LastMsgJson {
            text: t.last.text,
            user: author,
            date: t.last.created_at,
            read: t.read,
        },
    })
}

fn relation_json(r: Option<RelationKind>) -> Option<bool> {
    r.map(|k| k == RelationKind::Follow)
}

fn msg_json(me: &Account, other: &Account, m: MsgRow) -> MsgJson {
    let user = if m.author == me.player_id { me } else { other };
    MsgJson {
        text: m.text,
        user: lichess_id(&user.username),
        date: m.created_at,
    }
}

async fn inbox_json(
    social: &Social,
    me: &Account,
    with: Option<(&Account, Convo)>,
) -> LiResult<InboxJson> {
    let mut contacts = Vec::new();
    for t in social.inbox.threads(&me.player_id).await? {
        contacts.extend(thread_json(social, me, t).await);
    }
    let convo = match with {
        Some((other, c)) => Some(ConvoJson {
            user: contact(social, other).await,
            msgs: c.msgs.into_iter().map(|m| msg_json(me, other, m)).collect(),
            relations: RelationsJson {
                back: relation_json(c.back),
                out: relation_json(c.out),
            },
            postable: c.refusal.is_none(),
            refusal: c.refusal.map(plyyard_social::inbox::Refusal::code),
        }),
        None => None,
    };
    Ok(InboxJson {
        me: MeJson {
            name: me.username.clone(),
            id: lichess_id(&me.username),
            bot: me.bot,
        },
        contacts,
        convo,
    })
}

/// `GET /inbox` as JSON: the account and its conversations.
pub async fn home(social: &Social, caller: &Caller) -> LiResult<InboxJson> {
    caller.require(&[Scope::MsgWrite])?;
    inbox_json(social, &caller.account, None).await
}

/// `GET /inbox/{username}` as JSON: the same and the conversation with
/// `username` (marked read).
pub async fn convo(
    store: &Store,
    social: &Social,
    caller: &Caller,
    username: &str,
) -> LiResult<InboxJson> {
    caller.require(&[Scope::MsgWrite])?;
    let other = named(store, username).await?;
    if other.player_id == caller.account.player_id {
        return Err(LiError::bad_request(
            "You cannot send a message to yourself",
        ));
    }
    let c = social.inbox.convo(&caller.account, &other).await?;
    inbox_json(social, &caller.account, Some((&other, c))).await
}
