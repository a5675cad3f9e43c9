//! Follows and blocks through lichess's relations API: `POST
//! /api/rel/follow/{username}`, `/unfollow/`, `/block/` and `/unblock/`
//! (scope `follow:write`; answered `{"ok":true}`) and `GET
//! /api/rel/following` (scope `follow:read`: the accounts followed, the
//! latest first, as NDJSON users). The rules are
//! [`plyyard_social::relations`]'s; each change counts against the
//! caller's relations quota (account and address).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use plyyard_wire::lichess::{OK, Ok as OkJson, Scope};

use super::caller::Caller;
use super::error::LiResult;
use super::users::{named, user_json};
use crate::error::ApiError;
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_social::Social;
use plyyard_store::Store;

/// What a `POST /api/rel/{change}/{username}` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Follow,
    Unfollow,
    Block,
    Unblock,
}

/// The parts a change needs.
struct Ask {
    store: Store,
    social: Social,
    limits: Arc<Limits>,
    ip: ClientIp,
    caller: Caller,
    username: String,
}

async fn apply(ask: Ask, change: Change) -> LiResult<Json<OkJson>> {
    ask.caller.require(&[Scope::FollowWrite])?;
    let them = named(&ask.store, &ask.username).await?;
    let me = &ask.caller.account;
    if me.player_id != them.player_id {
        let key = AccountKey(me.player_id.clone());
        ask.limits
            .check_relations(ask.ip, Some(&key))
            .await
            .map_err(ApiError::from)?;
    }
    let rel = &ask.social.relations;
    match change {
        Change::Follow => rel.follow(me, &them).await?,
        Change::Unfollow => rel.unfollow(me, &them).await?,
        Change::Block => rel.block(me, &them).await?,
        Change::Unblock => rel.unblock(me, &them).await?,
    }
    Ok(Json(OK))
}

macro_rules! change_route {
    ($name:ident, $change:expr, $doc:literal) => {
        #[doc = $doc]
        pub(super) async fn $name(
            State(store): State<Store>,
            State(social): State<Social>,
            State(limits): State<Arc<Limits>>,
            Extension(ip): Extension<ClientIp>,
            caller: Caller,
            Path(username): Path<String>,
        ) -> LiResult<Json<OkJson>> {
            let ask = Ask {
                store,
                social,
                limits,
                ip,
                caller,
                username,
            };
            apply(ask, $change).await
        }
    };
}

change_route!(follow, Change::Follow, "`POST /api/rel/follow/{username}`.");
change_route!(
    unfollow,
    Change::Unfollow,
    "`POST /api/rel/unfollow/{username}`."
);
change_route!(block, Change::Block, "`POST /api/rel/block/{username}`.");
change_route!(
    unblock,
    Change::Unblock,
    "`POST /api/rel/unblock/{username}`."
);

/// `GET /api/rel/following`: the accounts the caller follows, the latest
/// followed first, one user per line.
pub(super) async fn following(
    State(store): State<Store>,
    State(social): State<Social>,
    caller: Caller,
) -> LiResult<Response> {
    caller.require(&[Scope::FollowRead])?;
    let mut lines = String::new();
    for a in social
        .relations
        .following(&caller.account.player_id)
        .await?
    {
        let user = user_json(&store, &social, &a).await?;
        lines.push_str(&serde_json::to_string(&user).unwrap_or_default());
        lines.push('\n');
    }
    Ok((
        [(axum::http::header::CONTENT_TYPE, super::game_stream::NDJSON)],
        lines,
    )
        .into_response())
}
