//! The Lichess-compatible API (`docs/api.md`): lichess's paths, field
//! names, units and errors, so that programs written for lichess (berserk,
//! lichess-bot, Board-API apps) work when pointed at a Ply Yard server.
//!
//! Requests authenticate with `Authorization: Bearer` ([`crate::bearer`];
//! each endpoint checks its scopes through [`caller::Caller`]) or, from
//! the web app, with the session cookie. Errors are `{"error":"…"}`
//! ([`error::LiError`]); bodies are JSON or forms ([`body`]).
//!
//! - [`tokens`]: personal access tokens and `POST /api/token/test`;
//! - [`oauth`]: the PKCE authorization code flow and `/api/token`;
//! - [`users`]: the account, users, online status, bot upgrade;
//! - [`challenges`]: challenges and their events; `ai`: a game against
//!   our computer (`/api/challenge/ai`);
//! - [`events`]: each account's event-stream feed;
//! - `seek`: the Board API's seek, our quick pairing's;
//! - [`game_json`]: a game as lichess writes it (statuses, speeds,
//!   players, `gameFull`/`gameState`, a game as one player sees it);
//! - [`game_stream`]: the Board/Bot game streams;
//! - [`perf`]: a player's statistics at one speed;
//! - [`tv`]: TV's channels and feeds;
//! - [`play`]: moves, abort, resign, draws, takebacks, claims;
//! - `chat`: game chat, posted and listed;
//! - [`games`]: the games being played, and exports (PGN and JSON);
//! - `teams`: clubs through lichess's team API;
//! - `puzzles`: the puzzle trainer through lichess's puzzle API;
//! - `tournaments`: Arena tournaments through lichess's Arena API.
//! - `tournament_feed`: the live feeds of tournament pages (websockets).
//! - `swiss`: Swiss tournaments through lichess's Swiss API, and TRF16.
//! - `relations`: follows and blocks (`/api/rel/…`).
//! - [`inbox`]: private messages (`/inbox/{username}`), mounted by
//!   [`crate::http`] beside the web app's `/inbox` pages.

mod ai;
pub mod body;
pub mod caller;
pub mod challenges;
mod chat;
pub mod error;
mod game_event;
pub mod game_json;
pub mod game_search;
pub mod game_stream;
mod games;
pub mod inbox;
mod oauth;
mod perf;
mod play;
mod puzzles;
mod relations;
mod seek;
mod stream;
pub mod swiss;
mod teams;
mod tokens;
mod tournament_feed;
mod tournaments;
mod tv;
mod users;

use axum::Router;
use axum::routing::{delete, get, post};

use crate::state::AppState;

pub use tokens::{Created, MAX_DESCRIPTION, MAX_TOKENS, check_description, issue_personal};

/// The routes, to be put under the identity middleware.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account", get(users::account))
        .route("/api/account/preferences", get(users::preferences))
        .route("/api/user/{username}", get(users::user))
        .route(
            "/api/user/{username}/rating-history",
            get(users::rating_history),
        )
        .route("/api/user/{username}/perf/{perf}", get(perf::perf))
        .route("/api/player/autocomplete", get(users::autocomplete))
        .route("/api/tv/channels", get(tv::channels))
        .route("/api/tv/games", get(tv::games))
        .route("/api/tv/feed", get(tv::feed_best))
        .route("/api/tv/{channel}/feed", get(tv::feed_of))
        .route("/api/users/status", get(users::status))
        .route("/api/bot/online", get(users::online_bots))
        .route("/api/bot/account/upgrade", post(users::upgrade))
        .route(
            "/api/account/tokens",
            get(tokens::list).post(tokens::create),
        )
        .route("/api/account/tokens/{id}", delete(tokens::revoke))
        .route("/api/token/test", post(tokens::test))
        .route("/api/token", post(oauth::exchange).delete(oauth::revoke))
        .route("/api/oauth/request", get(oauth::describe))
        .route("/api/oauth/approve", post(oauth::approve))
        .route("/api/stream/event", get(stream::events))
        .route("/api/board/seek", post(seek::board_seek))
        .route("/api/challenge", get(challenges::mine))
        .route("/api/challenge/ai", post(ai::challenge_ai))
        .route("/api/challenge/{username}", post(challenges::create))
        .route("/api/challenge/{id}/show", get(challenges::show))
        .route("/api/challenge/{id}/accept", post(challenges::accept))
        .route("/api/challenge/{id}/decline", post(challenges::decline))
        .route("/api/challenge/{id}/cancel", post(challenges::cancel))
        .route("/api/account/playing", get(games::playing))
        .route("/api/board/game/stream/{id}", get(game_stream::board))
        .route("/api/bot/game/stream/{id}", get(game_stream::bot))
        .route(
            "/api/board/game/{id}/move/{uci}",
            post(play::make_move::<false>),
        )
        .route(
            "/api/bot/game/{id}/move/{uci}",
            post(play::make_move::<true>),
        )
        .route("/api/board/game/{id}/abort", post(play::abort::<false>))
        .route("/api/bot/game/{id}/abort", post(play::abort::<true>))
        .route("/api/board/game/{id}/resign", post(play::resign::<false>))
        .route("/api/bot/game/{id}/resign", post(play::resign::<true>))
        .route(
            "/api/board/game/{id}/berserk",
            post(tournaments::berserk::<false>),
        )
        .route(
            "/api/bot/game/{id}/berserk",
            post(tournaments::berserk::<true>),
        )
        .route(
            "/api/board/game/{id}/draw/{answer}",
            post(play::draw::<false>),
        )
        .route("/api/bot/game/{id}/draw/{answer}", post(play::draw::<true>))
        .route(
            "/api/board/game/{id}/takeback/{answer}",
            post(play::takeback),
        )
        .route(
            "/api/board/game/{id}/claim-victory",
            post(play::claim_victory),
        )
        .route(
            "/api/board/game/{id}/claim-victory/",
            post(play::claim_victory),
        )
        .route(
            "/api/board/game/{id}/chat",
            get(chat::list::<false>).post(chat::post::<false>),
        )
        .route(
            "/api/bot/game/{id}/chat",
            get(chat::list::<true>).post(chat::post::<true>),
        )
        .route("/game/export/{id}", get(games::export))
        .route("/api/games/user/{username}", get(games::user_games))
        .route("/api/team", post(teams::create))
        .route("/api/team/all", get(teams::all))
        .route("/api/team/search", get(teams::search))
        .route("/api/team/of/{username}", get(teams::of_user))
        .route("/api/team/{id}", get(teams::show))
        .route("/api/team/{id}/users", get(teams::members))
        .route("/api/team/{id}/requests", get(teams::requests))
        .route(
            "/api/team/{id}/request/{user}/{answer}",
            post(teams::answer),
        )
        .route("/api/team/{id}/kick/{user}", post(teams::kick))
        .route(
            "/api/team/{id}/leaders/{user}/{change}",
            post(teams::leader),
        )
        .route("/api/team/{id}/edit", post(teams::edit))
        .route("/api/team/{id}/chat", get(teams::chat).post(teams::say))
        .route("/api/puzzle/daily", get(puzzles::daily))
        .route("/api/puzzle/next", get(puzzles::next))
        .route("/api/puzzle/activity", get(puzzles::activity))
        .route("/api/puzzle/dashboard/{days}", get(puzzles::dashboard))
        .route("/api/puzzle/replay/{days}/{theme}", get(puzzles::replay))
        .route("/api/storm", post(puzzles::storm_run))
        .route(
            "/api/storm/dashboard/{username}",
            get(puzzles::storm_dashboard),
        )
        .route(
            "/api/puzzle/batch/{angle}",
            get(puzzles::batch).post(puzzles::solve_batch),
        )
        .route("/api/puzzle/{id}", get(puzzles::show))
        .route("/api/team/{id}/arena", get(tournaments::team_arenas))
        .route(
            "/api/tournament",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournament/{id}", get(tournaments::show))
        .route(
            "/api/tournament/{id}/socket",
            get(tournament_feed::arena_socket),
        )
        .route("/api/tournament/{id}/join", post(tournaments::join))
        .route("/api/tournament/{id}/withdraw", post(tournaments::withdraw))
        .route(
            "/api/tournament/{id}/terminate",
            post(tournaments::terminate),
        )
        .route("/api/tournament/{id}/results", get(tournaments::results))
        .route("/api/tournament/{id}/games", get(tournaments::games))
        .route("/api/team/{id}/swiss", get(swiss::team_swiss))
        .route("/api/swiss/new/{team}", post(swiss::create))
        .route("/api/swiss/{id}", get(swiss::show))
        .route("/api/swiss/{id}/socket", get(tournament_feed::swiss_socket))
        .route(
            "/api/swiss/{id}/chat",
            get(tournaments::chat).post(tournaments::say),
        )
        .route("/api/swiss/{id}/edit", post(swiss::edit))
        .route("/api/swiss/{id}/join", post(swiss::join))
        .route("/api/swiss/{id}/withdraw", post(swiss::withdraw))
        .route("/api/swiss/{id}/terminate", post(swiss::terminate))
        .route(
            "/api/swiss/{id}/schedule-next-round",
            post(swiss::schedule_next_round),
        )
        .route("/api/swiss/{id}/results", get(swiss::results))
        .route("/api/swiss/{id}/rounds", get(swiss::rounds))
        .route("/api/swiss/{id}/games", get(swiss::games))
        .route(
            "/api/tournament/{id}/chat",
            get(tournaments::chat).post(tournaments::say),
        )
        .route("/api/tournament/of-game/{game}", get(tournaments::of_game))
        .route("/api/rel/follow/{username}", post(relations::follow))
        .route("/api/rel/unfollow/{username}", post(relations::unfollow))
        .route("/api/rel/block/{username}", post(relations::block))
        .route("/api/rel/unblock/{username}", post(relations::unblock))
        .route("/api/rel/following", get(relations::following))
        .route("/team/{id}/join", post(teams::join))
        .route("/team/{id}/quit", post(teams::quit))
        .layer(cors())
}

/// Cross-origin calls, as lichess allows them: any origin may call the
/// Lichess-compatible API with a token (browser apps using PKCE), never
/// with the visitor's cookies: `Access-Control-Allow-Origin: *` forbids
/// credentialed requests, so a browser shows another site nothing that a
/// session could see, and the same-origin guard still refuses cookie
/// writes from other origins.
fn cors() -> tower_http::cors::CorsLayer {
    use axum::http::{Method, header};
    tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT])
        .max_age(std::time::Duration::from_secs(3600))
}

/// Creates a personal token for the live account `username`, for the
/// command line (`plyyard token create`): the database at `db`, opened and
/// migrated as the server does.
///
/// # Errors
/// A bad scope or description, an unknown user, or a database failure,
/// as a sentence.
pub fn create_token_offline(
    db: &str,
    username: &str,
    scopes: &str,
    description: &str,
) -> Result<Created, String> {
    let scopes = plyyard_wire::lichess::Scopes::parse(scopes).map_err(|e| e.to_string())?;
    if scopes.is_empty() {
        return Err("--scopes names at least one scope".to_owned());
    }
    let description = check_description(description).map_err(|e| e.message)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let store = plyyard_store::Store::open(db)
            .await
            .map_err(|e| e.to_string())?;
        let account = store
            .account_named(username)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no account named {username:?}"))?;
        issue_personal(&store, &account.player_id, &scopes, &description)
            .await
            .map_err(|e| e.message)
    })
}
