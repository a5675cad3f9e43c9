//! The site's settings over HTTP (`docs/moderation.md`): `GET /api/site`
//! for everyone (name, contact, who may sign up); for admins, `GET` and
//! `POST /api/mod/site` (the settings and the latest invitations) and
//! `POST /api/mod/invites` (a new invitation code); and the sign-up's
//! check of the mode (`invite_needed`). The settings' rules are
//! `plyyard_moderation::SiteSettings`'s; the rows are the store's.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::ApiError;
use crate::identity::Session;
use plyyard_live::rfc3339;
use plyyard_moderation::{INVITE_LEN, Signups, SiteSettings};
use plyyard_store::{Account, Store, now_ms};

/// Invitations listed to admins.
const INVITES_LISTED: u32 = 50;

/// The routes, to be put under the identity middleware.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/site", get(public))
        .route("/api/mod/site", get(admin_view).post(change))
        .route("/api/mod/invites", post(invite))
}

/// The site's settings as stored (defaults for what was never set).
pub(crate) async fn settings(store: &Store) -> Result<SiteSettings, ApiError> {
    let pairs = store.site_settings().await?;
    Ok(SiteSettings::from_pairs(
        pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    ))
}

/// Whether a sign-up may go ahead: the invitation code it must use (with
/// sign-ups by invitation), or none.
///
/// # Errors
/// 403 `signups_closed` while sign-ups are closed; 403 `invite_needed`
/// without a code while they are by invitation.
pub(crate) async fn invite_needed<'a>(
    store: &Store,
    code: Option<&'a str>,
) -> Result<Option<&'a str>, ApiError> {
    match settings(store).await?.signups {
        Signups::Open => Ok(None),
        Signups::Closed => {
            Err(ApiError::forbidden("sign-ups are closed on this site")
                .with_reason("signups_closed"))
        }
        Signups::Invite => match code.map(str::trim).filter(|c| !c.is_empty()) {
            Some(c) if c.len() <= 64 => Ok(Some(c)),
            Some(_) => Err(uninvited()),
            None => Err(ApiError::forbidden(
                "sign-ups are by invitation: an invitation code is needed",
            )
            .with_reason("invite_needed")),
        },
    }
}

/// The refusal of an unknown or used invitation code.
pub(crate) fn uninvited() -> ApiError {
    ApiError::forbidden("the invitation code is unknown or was used").with_reason("invite_refused")
}

/// `GET /api/site`.
async fn public(State(store): State<Store>) -> Result<Json<SiteSettings>, ApiError> {
    Ok(Json(settings(&store).await?))
}

/// The logged-in admin of a request.
async fn admin(store: &Store, session: Option<&Session>) -> Result<Account, ApiError> {
    let Some(s) = session else {
        return Err(ApiError::forbidden("admins only: log in first"));
    };
    match store.staff_role(&s.account.player_id).await?.as_deref() {
        Some("admin") => Ok(s.account.clone()),
        _ => Err(ApiError::forbidden("admins only")),
    }
}

#[derive(Serialize)]
struct InviteJson {
    code: String,
    by: Option<String>,
    at: String,
    used_by: Option<String>,
}

#[derive(Serialize)]
struct AdminJson {
    settings: SiteSettings,
    invites: Vec<InviteJson>,
}

async fn admin_json(store: &Store) -> Result<AdminJson, ApiError> {
    let invites = store
        .invites(INVITES_LISTED)
        .await?
        .into_iter()
        .map(|i| InviteJson {
            code: i.code,
            by: i.created_by,
            at: rfc3339(i.created_at),
            used_by: i.used_by,
        })
        .collect();
    Ok(AdminJson {
        settings: settings(store).await?,
        invites,
    })
}

/// `GET /api/mod/site`: the settings and the latest invitations.
async fn admin_view(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<AdminJson>, ApiError> {
    admin(&store, session.as_ref()).await?;
    Ok(Json(admin_json(&store).await?))
}

/// The body of `POST /api/mod/site`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsBody {
    name: String,
    #[serde(default)]
    contact: String,
    signups: String,
}

/// `POST /api/mod/site` `{"name", "contact", "signups"}`: all three at
/// once, logged.
async fn change(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    body: JsonBody,
) -> Result<Json<AdminJson>, ApiError> {
    let me = admin(&store, session.as_ref()).await?;
    let b: SettingsBody = json_body(body, "settings")?;
    let refused = |r: plyyard_moderation::Refusal| ApiError::bad_request(r.to_string());
    let signups = Signups::parse(&b.signups).map_err(refused)?;
    let s = SiteSettings::checked(&b.name, &b.contact, signups).map_err(refused)?;
    let details = format!("name {:?}, sign-ups {}", s.name, s.signups.as_str());
    store
        .set_site_settings(Some(&me.player_id), &s.pairs(), &details, now_ms())
        .await?;
    tracing::info!(by = %me.username, "site settings changed: {details}");
    Ok(Json(admin_json(&store).await?))
}

/// `POST /api/mod/invites`: a new invitation code.
async fn invite(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let me = admin(&store, session.as_ref()).await?;
    let code: String = rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(INVITE_LEN)
        .map(char::from)
        .collect();
    store
        .create_invite(Some(&me.player_id), &code, now_ms())
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "code": code, "path": format!("/signup?invite={code}") })),
    ))
}
