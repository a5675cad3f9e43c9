//! `GET /api/user/{username}/perf/{perf}`: a player's statistics at one
//! speed in lichess's `PerfStat` shape (the figures are
//! `plyyard_rating::perf_stat`'s; this module only writes them).

use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Value, json};

use super::error::{LiError, LiResult};
use super::users::{named, perf_name, user_id};
use plyyard_game::Speed;
use plyyard_live::rfc3339;
use plyyard_rating::perf_stat::{self, Notable, PerfStat, RatingAt, Run, Streak};
use plyyard_rating::{DEFAULT, display};
use plyyard_store::{GameFilter, Store, now_ms};

/// Games over which `progress` measures the rating's change (lichess's 12).
const PROGRESS_GAMES: usize = 12;

/// The handler.
pub(super) async fn perf(
    State(store): State<Store>,
    State(limits): State<std::sync::Arc<crate::security::Limits>>,
    reader: super::caller::Reader,
    Path((name, perf)): Path<(String, String)>,
) -> LiResult<Json<Value>> {
    reader.count(&limits, 1).await?;
    let speed: Speed = Speed::ALL
        .into_iter()
        .find(|s| s.as_str() == perf)
        .ok_or_else(|| {
            LiError::not_found("No such perf here: bullet, blitz, rapid or classical")
        })?;
    let account = named(&store, &name).await?;
    let games = store.perf_games(&account.player_id, speed).await?;
    let stat = perf_stat::compute(&games);
    let rating = store.rating(&account.player_id, speed).await?;
    let shown = rating.json(now_ms());
    let percentile = store.percentile(speed, rating.glicko.rating).await?;
    let all = GameFilter {
        perfs: vec![speed.as_str()],
        ended_only: true,
        played_here: true,
        ..GameFilter::default()
    };
    let all = store.count_games(&account.player_id, &all).await?;
    let progress = games.last().map_or(0, |last| {
        let start = games
            .len()
            .checked_sub(PROGRESS_GAMES + 1)
            .map_or(DEFAULT.rating, |i| games[i].rating_after);
        display(last.rating_after) - display(start)
    });
    Ok(Json(json!({
        "user": { "name": account.username },
        "perf": {
            "glicko": {
                "rating": rating.glicko.rating,
                "deviation": rating.glicko.deviation,
                "provisional": shown.provisional,
            },
            "nb": shown.games,
            "progress": progress,
        },
        "rank": Value::Null,
        "percentile": percentile,
        "stat": stat_json(speed, &stat, all, &user_id(&account)),
    })))
}

/// `stat`: the figures as lichess writes them.
fn stat_json(speed: Speed, s: &PerfStat, all: u64, id: &str) -> Value {
    let mut stat = json!({
        "id": format!("{id}/{}", speed.as_str()),
        "perfType": { "key": speed.as_str(), "name": perf_name(speed.as_str()) },
        "bestWins": { "results": s.best_wins.iter().map(notable).collect::<Vec<_>>() },
        "worstLosses": { "results": s.worst_losses.iter().map(notable).collect::<Vec<_>>() },
        "count": {
            "all": all.max(u64::from(s.games)),
            "rated": s.games,
            "win": s.wins,
            "loss": s.losses,
            "draw": s.draws,
            "tour": s.tournament,
            "berserk": s.berserk,
            "opAvg": (s.opponent_average * 100.0).round() / 100.0,
            "seconds": s.seconds,
            "disconnects": 0,
        },
        "resultStreak": { "win": streak(&s.win_streak), "loss": streak(&s.loss_streak) },
        "playStreak": { "nb": streak(&s.play_streak), "time": streak(&s.time_streak) },
    });
    if let Some(h) = &s.highest {
        stat["highest"] = rating_at(h);
    }
    if let Some(l) = &s.lowest {
        stat["lowest"] = rating_at(l);
    }
    if let Some(at) = s.last_game {
        stat["playStreak"]["lastDate"] = json!(rfc3339(at));
    }
    stat
}

fn rating_at(r: &RatingAt) -> Value {
    json!({ "int": r.rating, "at": rfc3339(r.at), "gameId": r.game })
}

fn notable(n: &Notable) -> Value {
    let (id, name) = &n.opponent;
    json!({
        "opRating": n.opponent_rating,
        "opId": {
            "id": name.as_deref().map_or_else(|| id.clone(), str::to_lowercase),
            "name": name.as_deref().unwrap_or("?"),
        },
        "at": rfc3339(n.at),
        "gameId": n.game,
    })
}

fn streak(s: &Streak) -> Value {
    json!({ "cur": run(&s.current), "max": run(&s.max) })
}

fn run(r: &Run) -> Value {
    let mut v = json!({ "v": r.value });
    if let (Some((from_at, from)), Some((to_at, to))) = (&r.from, &r.to) {
        v["from"] = json!({ "at": rfc3339(*from_at), "gameId": from });
        v["to"] = json!({ "at": rfc3339(*to_at), "gameId": to });
    }
    v
}
