//! Clubs through lichess's team API (`docs/api.md`): lichess's paths,
//! shapes and scopes over [`plyyard_clubs::Clubs`], plus our own
//! `POST /api/team` (lichess has no API to create a team), leader changes,
//! edits and the members' chat.
//!
//! Reads are public, as lichess's are (a logged-in caller also learns
//! whether they joined or asked to); changes need `team:write` (joining,
//! quitting, chat, creating) or `team:lead` (everything a leader does),
//! and count against the club limits of the caller's address and account.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, extract::FromRef};
use plyyard_wire::lichess::{OK, Scope};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::body::decode;
use super::caller::{Caller, MaybeCaller};
use super::error::{LiError, LiResult};
use super::game_stream::NDJSON;
use super::users::named;
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp, Limits};
use crate::state::AppState;
use plyyard_clubs::{ClubError, ClubPage, ClubView, Clubs, Joined, PAGE_SIZE};
use plyyard_store::{ClubMember, ClubRow, Store, now_ms};

/// Members one `GET /api/team/{id}/users` streams at most (lichess's
/// bound).
pub const MAX_MEMBERS: u32 = 5_000;
/// Clubs one `GET /api/team/of/{username}` lists at most.
const MAX_CLUBS_OF: u32 = 100;
/// Requests one `GET /api/team/{id}/requests` lists at most.
const MAX_REQUESTS: u32 = 500;
/// Pages a list goes to at most (lichess's paginators stop too).
const MAX_PAGE: u64 = 1_000;

/// What the club handlers use of the state.
#[derive(Clone)]
pub(super) struct ClubDoors {
    clubs: Clubs,
    store: Store,
    limits: std::sync::Arc<Limits>,
}

impl FromRef<AppState> for ClubDoors {
    fn from_ref(state: &AppState) -> ClubDoors {
        ClubDoors {
            clubs: state.clubs.clone(),
            store: state.store.clone(),
            limits: std::sync::Arc::clone(&state.limits),
        }
    }
}

impl From<ClubError> for LiError {
    fn from(e: ClubError) -> LiError {
        let status = match &e {
            ClubError::NotFound => return LiError::not_found("No such team"),
            ClubError::NotLeader | ClubError::MessageNeeded => StatusCode::FORBIDDEN,
            ClubError::NoRequest(_) => StatusCode::NOT_FOUND,
            ClubError::Store(_) => return LiError::from(crate::error::ApiError::internal(e)),
            _ => StatusCode::BAD_REQUEST,
        };
        LiError::new(status, e.to_string())
    }
}

/// A user as lichess shows one in a team (`LightUser`).
#[derive(Debug, Serialize)]
pub(super) struct LightUser {
    id: String,
    name: String,
}

impl From<&ClubMember> for LightUser {
    fn from(m: &ClubMember) -> LightUser {
        LightUser {
            id: m.username.to_lowercase(),
            name: m.username.clone(),
        }
    }
}

/// A team as lichess shows one (`Team`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TeamJson {
    id: String,
    name: String,
    description: String,
    open: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    leader: Option<LightUser>,
    leaders: Vec<LightUser>,
    nb_members: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    joined: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    requested: Option<bool>,
}

fn team_json(club: &ClubRow, leaders: &[ClubMember]) -> TeamJson {
    TeamJson {
        id: club.id.clone(),
        name: club.name.clone(),
        description: club.description.clone(),
        open: club.open,
        leader: leaders.first().map(LightUser::from),
        leaders: leaders.iter().map(LightUser::from).collect(),
        nb_members: club.nb_members,
        joined: None,
        requested: None,
    }
}

fn view_json(v: &ClubView, viewer: bool) -> TeamJson {
    let mut json = team_json(&v.club, &v.leaders);
    if viewer {
        json.joined = Some(v.joined);
        json.requested = Some(v.requested);
    }
    json
}

/// A page of teams as lichess's paginators show it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Paginator {
    current_page: u64,
    max_per_page: u32,
    current_page_results: Vec<TeamJson>,
    nb_results: u64,
    previous_page: Option<u64>,
    next_page: Option<u64>,
    nb_pages: u64,
}

fn paginator(p: &ClubPage) -> Paginator {
    let nb_pages = p.total.div_ceil(u64::from(PAGE_SIZE)).max(1);
    Paginator {
        current_page: p.page,
        max_per_page: PAGE_SIZE,
        current_page_results: p.clubs.iter().map(|(c, l)| team_json(c, l)).collect(),
        nb_results: p.total,
        previous_page: (p.page > 1).then(|| p.page - 1),
        next_page: (p.page < nb_pages).then(|| p.page + 1),
        nb_pages,
    }
}

fn key(caller: &Caller) -> AccountKey {
    AccountKey(caller.account.player_id.clone())
}

/// Counts one club action of `caller` from `ip`.
async fn count_action(d: &ClubDoors, ip: ClientIp, caller: &Caller) -> LiResult<()> {
    d.limits
        .check_club_actions(ip, Some(&key(caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))
}

/// The body of `POST /api/team`.
#[derive(Debug, Deserialize)]
pub(super) struct NewTeam {
    name: Option<String>,
    description: Option<String>,
    open: Option<bool>,
}

/// `POST /api/team` (ours): creates a club led by the caller; 201 and the
/// team.
pub(super) async fn create(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Response> {
    caller.require(&[Scope::TeamWrite, Scope::TeamLead])?;
    let form: NewTeam = decode(&headers, body, "team")?;
    let name = form
        .name
        .ok_or_else(|| LiError::bad_request("a team needs a name"))?;
    // A refused name or description does not use up a creation.
    plyyard_clubs::rules::check_name(&name)?;
    plyyard_clubs::rules::check_description(form.description.as_deref().unwrap_or(""))?;
    d.limits
        .check_clubs(ip, Some(&key(&caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    let club = d
        .clubs
        .create(
            &caller.account.player_id,
            &name,
            form.description.as_deref().unwrap_or(""),
            form.open.unwrap_or(true),
            now_ms(),
        )
        .await?;
    let view = d
        .clubs
        .view(&club.id, Some(&caller.account.player_id))
        .await?;
    Ok((StatusCode::CREATED, Json(view_json(&view, true))).into_response())
}

/// `GET /api/team/{id}`: one team.
pub(super) async fn show(
    State(d): State<ClubDoors>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<String>,
) -> LiResult<Json<TeamJson>> {
    let viewer = caller.as_ref().map(|c| c.account.player_id.as_str());
    let view = d.clubs.view(&id, viewer).await?;
    Ok(Json(view_json(&view, viewer.is_some())))
}

/// The query of `GET /api/team/{id}/users`.
#[derive(Debug, Deserialize)]
pub(super) struct MembersQuery {
    max: Option<u32>,
}

/// `GET /api/team/{id}/users`: the members, the latest to join first, as
/// NDJSON (`joinedTeamAt`, `id`, `name`), at most [`MAX_MEMBERS`].
pub(super) async fn members(
    State(d): State<ClubDoors>,
    Path(id): Path<String>,
    Query(q): Query<MembersQuery>,
) -> LiResult<Response> {
    let limit = q.max.unwrap_or(MAX_MEMBERS).clamp(1, MAX_MEMBERS);
    let members = d.clubs.members(&id, limit).await?;
    let mut body = String::new();
    for m in &members {
        let line = serde_json::json!({
            "joinedTeamAt": m.joined_at,
            "id": m.username.to_lowercase(),
            "name": m.username,
        });
        body.push_str(&line.to_string());
        body.push('\n');
    }
    let mut resp = body.into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

/// `GET /api/team/of/{username}`: the teams a user is a member of.
pub(super) async fn of_user(
    State(d): State<ClubDoors>,
    Path(name): Path<String>,
) -> LiResult<Json<Vec<TeamJson>>> {
    let account = named(&d.store, &name).await?;
    let clubs = d.clubs.of_player(&account.player_id, MAX_CLUBS_OF).await?;
    Ok(Json(clubs.iter().map(|(c, l)| team_json(c, l)).collect()))
}

/// The query of the team lists.
#[derive(Debug, Deserialize)]
pub(super) struct ListQuery {
    text: Option<String>,
    page: Option<String>,
}

fn page_of(q: &ListQuery) -> LiResult<u64> {
    match q.page.as_deref() {
        None | Some("") => Ok(1),
        Some(p) => p
            .parse::<u64>()
            .ok()
            .filter(|p| (1..=MAX_PAGE).contains(p))
            .ok_or_else(|| LiError::bad_request(format!("page is a number from 1 to {MAX_PAGE}"))),
    }
}

/// `GET /api/team/all`: every team, the largest first.
pub(super) async fn all(
    State(d): State<ClubDoors>,
    Query(q): Query<ListQuery>,
) -> LiResult<Json<Paginator>> {
    let page = d.clubs.page(None, page_of(&q)?).await?;
    Ok(Json(paginator(&page)))
}

/// `GET /api/team/search?text=`: the teams whose name holds `text`.
pub(super) async fn search(
    State(d): State<ClubDoors>,
    Query(q): Query<ListQuery>,
) -> LiResult<Json<Paginator>> {
    let text: String = q.text.as_deref().unwrap_or("").chars().take(100).collect();
    let page = d.clubs.page(Some(&text), page_of(&q)?).await?;
    Ok(Json(paginator(&page)))
}

/// The body of a join: the message a closed team's leaders read.
#[derive(Debug, Deserialize)]
pub(super) struct JoinForm {
    message: Option<String>,
}

/// `POST /team/{id}/join`: joins an open team, or asks to join a closed
/// one (a message is needed: 403 without).
pub(super) async fn join(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamWrite])?;
    let form: JoinForm = decode(&headers, body, "join request")?;
    d.clubs.club(&id).await?;
    count_action(&d, ip, &caller).await?;
    let joined = d
        .clubs
        .join(
            &id,
            &caller.account.player_id,
            form.message.as_deref(),
            now_ms(),
        )
        .await?;
    let mut ok = serde_json::to_value(OK).unwrap_or_default();
    ok["joined"] = Value::Bool(joined == Joined::Member);
    Ok(Json(ok))
}

/// `POST /team/{id}/quit`: leaves a team.
pub(super) async fn quit(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamWrite])?;
    d.clubs.club(&id).await?;
    count_action(&d, ip, &caller).await?;
    d.clubs
        .quit(&id, &caller.account.player_id, &caller.account.username)
        .await?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// The query of `GET /api/team/{id}/requests`.
#[derive(Debug, Deserialize)]
pub(super) struct RequestsQuery {
    declined: Option<String>,
}

/// A boolean query value as clients write it (`true`, `True`, `1` …).
fn flag(value: Option<&str>, name: &str) -> LiResult<bool> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(_) => Err(LiError::bad_request(format!("{name} is true or false"))),
    }
}

/// `GET /api/team/{id}/requests`: the pending (or declined) requests, for
/// a leader.
pub(super) async fn requests(
    State(d): State<ClubDoors>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<RequestsQuery>,
) -> LiResult<Json<Vec<Value>>> {
    caller.require(&[Scope::TeamRead, Scope::TeamLead])?;
    let rows = d
        .clubs
        .requests(
            &id,
            &caller.account.player_id,
            flag(q.declined.as_deref(), "declined")?,
            MAX_REQUESTS,
        )
        .await?;
    Ok(Json(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "request": {
                        "date": r.created_at,
                        "message": r.message,
                        "teamId": r.club_id,
                        "userId": r.username.to_lowercase(),
                    },
                    "user": { "id": r.username.to_lowercase(), "username": r.username },
                })
            })
            .collect(),
    ))
}

/// `POST /api/team/{id}/request/{userId}/accept|decline`.
pub(super) async fn answer(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path((id, user, answer)): Path<(String, String, String)>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamLead])?;
    let accept = match answer.as_str() {
        "accept" => true,
        "decline" => false,
        _ => {
            return Err(LiError::not_found(
                "Answer a request with accept or decline",
            ));
        }
    };
    let target = named(&d.store, &user).await?;
    count_action(&d, ip, &caller).await?;
    d.clubs
        .answer_request(
            &id,
            &caller.account.player_id,
            &target.player_id,
            &target.username,
            accept,
            now_ms(),
        )
        .await?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// `POST /api/team/{id}/kick/{userId}`.
pub(super) async fn kick(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path((id, user)): Path<(String, String)>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamLead])?;
    let target = named(&d.store, &user).await?;
    count_action(&d, ip, &caller).await?;
    d.clubs
        .kick(
            &id,
            &caller.account.player_id,
            &target.player_id,
            &target.username,
        )
        .await?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// `POST /api/team/{id}/leaders/{userId}/add|remove` (ours): makes a
/// member a leader, or takes the lead away (also one's own, while another
/// leads).
pub(super) async fn leader(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path((id, user, change)): Path<(String, String, String)>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamLead])?;
    let lead = match change.as_str() {
        "add" => true,
        "remove" => false,
        _ => return Err(LiError::not_found("Change a leader with add or remove")),
    };
    let target = named(&d.store, &user).await?;
    count_action(&d, ip, &caller).await?;
    d.clubs
        .set_leader(
            &id,
            &caller.account.player_id,
            &target.player_id,
            &target.username,
            lead,
        )
        .await?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// The body of `POST /api/team/{id}/edit`.
#[derive(Debug, Deserialize)]
pub(super) struct EditForm {
    description: Option<String>,
    open: Option<bool>,
}

/// `POST /api/team/{id}/edit` (ours): a leader changes the description
/// and whether the club is open; what is not sent stays.
pub(super) async fn edit(
    State(d): State<ClubDoors>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<TeamJson>> {
    caller.require(&[Scope::TeamLead])?;
    let form: EditForm = decode(&headers, body, "team")?;
    let club = d.clubs.club(&id).await?;
    let description = form.description.unwrap_or(club.description);
    let open = form.open.unwrap_or(club.open);
    d.clubs
        .edit(&id, &caller.account.player_id, &description, open)
        .await?;
    let view = d.clubs.view(&id, Some(&caller.account.player_id)).await?;
    Ok(Json(view_json(&view, true)))
}

/// `GET /api/team/{id}/chat` (ours): the members' chat, oldest first.
pub(super) async fn chat(
    State(d): State<ClubDoors>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Vec<Value>>> {
    caller.require(&[Scope::TeamRead, Scope::TeamWrite])?;
    let lines = d
        .clubs
        .chat(&id, &caller.account.player_id, &caller.account.username)
        .await?;
    Ok(Json(
        lines
            .iter()
            .map(
                |l| serde_json::json!({ "user": l.author_name, "text": l.text, "t": l.created_at }),
            )
            .collect(),
    ))
}

/// The body of `POST /api/team/{id}/chat`.
#[derive(Debug, Deserialize)]
pub(super) struct SayForm {
    text: Option<String>,
}

/// `POST /api/team/{id}/chat` (ours): a member says a line.
pub(super) async fn say(
    State(d): State<ClubDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TeamWrite])?;
    let form: SayForm = decode(&headers, body, "chat line")?;
    d.clubs.club(&id).await?;
    count_action(&d, ip, &caller).await?;
    let line = d
        .clubs
        .say(
            &id,
            &caller.account.player_id,
            &caller.account.username,
            form.text.as_deref().unwrap_or(""),
            now_ms(),
        )
        .await?;
    Ok(Json(
        serde_json::json!({ "user": line.author_name, "text": line.text, "t": line.created_at }),
    ))
}
