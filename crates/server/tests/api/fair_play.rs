//! Fair play with the review in the loop, on SQLite and PostgreSQL: two
//! accounts play rated blitz games through the Board API, one answering
//! every move with the engine at a steady pace, the other with random
//! moves at a human's uneven pace. The server reviews the rated games in
//! the background; the moderators' `fairPlay` flags the first account
//! and not the second.

use std::time::{Duration, Instant};

use crate::support::{Stream, account, grant, token};
use plyyard_game::shakmaty::uci::UciMove;
use plyyard_game::shakmaty::{Chess, Move, Position};
use plyyard_testkit::{Client, Method, TestDb, TestServer};
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// The review's budget per position (smaller than the site's default,
/// so that the test's reviews take seconds).
const REVIEW_NODES: u64 = 40_000;
/// The engine user's pace: every move takes this long.
const STEADY: Duration = Duration::from_millis(650);
/// The human's pace: one of these, in turn.
const HUMAN_MS: [u64; 10] = [700, 1500, 600, 2400, 900, 650, 1900, 1100, 3000, 800];
/// Judged games wanted of each player.
const GAMES: usize = 3;

async fn start(db: &TestDb) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.review_nodes = REVIEW_NODES;
    TestServer::start_with(db.url(), tuning).await
}

/// How a side picks its moves.
#[derive(Clone, Copy)]
enum Player {
    Engine,
    Human(u64),
}

/// The position after `moves` (UCI, space-separated) and the moves.
fn replay(moves: &str) -> (Chess, Vec<Move>) {
    let mut pos = Chess::default();
    let mut played = Vec::new();
    for uci in moves.split_ascii_whitespace() {
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        played.push(m);
    }
    (pos, played)
}

/// The engine's move after `moves` (UCI, space-separated), in UCI.
fn engine_move(moves: &str) -> String {
    let (_, played) = replay(moves);
    let mut engine = plyyard_engine::Engine::new(16);
    let limits = plyyard_engine::Limits {
        nodes: Some(REVIEW_NODES),
        ..plyyard_engine::Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let best = engine
        .search_with_info(&Chess::default(), &played, &limits, &stop, &mut |_| {})
        .unwrap()
        .best_move;
    uci(best)
}

/// A random legal move after `moves`, in UCI.
fn random_move(moves: &str, rng: &mut rand::rngs::StdRng) -> String {
    let (pos, _) = replay(moves);
    let legal = pos.legal_moves();
    uci(legal[rng.random_range(0..legal.len())])
}

fn uci(m: Move) -> String {
    m.to_uci(plyyard_game::shakmaty::CastlingMode::Standard)
        .to_string()
}

/// Plays `me`'s side of game `id` to its end over the Board API.
async fn play_side(srv: &TestServer, tok: &str, id: &str, white: bool, me: Player) {
    let c = srv.client();
    let mut stream = Stream::open(srv, tok, &format!("/api/board/game/stream/{id}")).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(match me {
        Player::Engine => 1,
        Player::Human(seed) => seed,
    });
    let mut turn = 0usize;
    loop {
        let ev = stream.event().await;
        let state = match ev["type"].as_str() {
            Some("gameFull") => ev["state"].clone(),
            Some("gameState") => ev,
            _ => continue,
        };
        if state["status"] != "started" {
            return;
        }
        let moves = state["moves"].as_str().unwrap_or("").to_owned();
        let plies = moves.split_ascii_whitespace().count();
        if (plies % 2 == 0) != white {
            continue;
        }
        let began = Instant::now();
        let chosen = match me {
            Player::Engine => tokio::task::spawn_blocking(move || engine_move(&moves))
                .await
                .unwrap(),
            Player::Human(_) => random_move(&moves, &mut rng),
        };
        let pace = match me {
            Player::Engine => STEADY,
            Player::Human(_) => Duration::from_millis(HUMAN_MS[turn % HUMAN_MS.len()]),
        };
        turn += 1;
        tokio::time::sleep(pace.saturating_sub(began.elapsed())).await;
        let r = c
            .with_token(
                tok,
                Method::POST,
                &format!("/api/board/game/{id}/move/{chosen}"),
                None,
            )
            .await
            .unwrap();
        // The game may have ended meanwhile (the stream says so next).
        assert!(r.status == 200 || r.status == 400, "{}", r.text());
    }
}

/// A rated 3+0 game of `engine` (White when `engine_white`) against
/// `human`, played to its end; its id.
async fn rated_game(
    srv: &TestServer,
    engine: &str,
    human: &str,
    human_name: &str,
    seed: u64,
) -> String {
    let c = srv.client();
    let r = c
        .with_token(
            engine,
            Method::POST,
            &format!("/api/challenge/{human_name}"),
            Some((
                "application/x-www-form-urlencoded",
                "rated=true&clock.limit=180&clock.increment=0&color=white",
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = c
        .with_token(
            human,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    tokio::join!(
        play_side(srv, engine, &id, true, Player::Engine),
        play_side(srv, human, &id, false, Player::Human(seed)),
    );
    id
}

/// `name`'s `fairPlay`, as a moderator reads it.
async fn fair_play(mo: &Client, name: &str) -> Value {
    let r = mo
        .request(Method::GET, &format!("/api/mod/user/{name}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json::<Value>().unwrap()["fairPlay"].clone()
}

async fn an_engine_at_a_steady_pace_is_flagged_and_a_weak_human_is_not(db: TestDb) {
    let srv = start(&db).await;
    let mo = account(&srv, "Mona").await;
    grant(&db, "Mona", "moderator").await;
    let deep = token(
        &account(&srv, "Deep").await,
        &["board:play", "challenge:write"],
    )
    .await;
    let weak = token(
        &account(&srv, "Weak").await,
        &["board:play", "challenge:write"],
    )
    .await;

    // Games too short to judge (a quick mate) are played again.
    let mut judged = 0;
    let mut seed = 7;
    while judged < GAMES {
        assert!(seed < 7 + 2 * GAMES as u64, "too many short games");
        let wanted = GAMES - judged;
        let games = (0..wanted as u64).map(|i| rated_game(&srv, &deep, &weak, "Weak", seed + i));
        let ids = futures_util::future::join_all(games).await;
        seed += wanted as u64;
        for id in &ids {
            let g = srv.client().get_value(&format!("/api/games/{id}")).await;
            assert_eq!(g["status"], "ended", "{g}");
            if g["ply"].as_u64().unwrap_or(0) >= 20 {
                judged += 1;
            }
        }
    }

    // The reviews run in the background; wait for every verdict.
    let deadline = Instant::now() + Duration::from_secs(120);
    let (deep_fp, weak_fp) = loop {
        let (d, w) = (fair_play(&mo, "Deep").await, fair_play(&mo, "Weak").await);
        let done = |v: &Value| v["assessed"].as_u64().unwrap_or(0) >= GAMES as u64;
        if done(&d) && done(&w) {
            break (d, w);
        }
        assert!(Instant::now() < deadline, "verdicts missing: {d} {w}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert_eq!(deep_fp["flagged"], true, "{deep_fp}");
    assert!(deep_fp["cheating"].as_u64().unwrap() >= 2, "{deep_fp}");
    let game = deep_fp["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["verdict"] == "cheating")
        .unwrap();
    let signals = game["signals"].as_array().unwrap();
    assert!(
        signals.contains(&"lowLoss".into()) && signals.contains(&"flatTimes".into()),
        "{game}"
    );
    assert_eq!(weak_fp["flagged"], false, "{weak_fp}");
    assert_eq!(weak_fp["cheating"], 0, "{weak_fp}");
    assert!(
        weak_fp["games"].as_array().unwrap().iter().all(|g| {
            let s = g["signals"].as_array().unwrap();
            !s.contains(&"lowLoss".into()) && !s.contains(&"flatTimes".into())
        }),
        "{weak_fp}"
    );
    // Shown, never acted on: the account is not marked.
    let r = mo
        .request(Method::GET, "/api/mod/user/Deep", None)
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().unwrap()["marks"], serde_json::json!([]));
}

plyyard_testkit::both_backends!(an_engine_at_a_steady_pace_is_flagged_and_a_weak_human_is_not);
