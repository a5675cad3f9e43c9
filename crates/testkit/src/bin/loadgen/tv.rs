//! `loadgen tv`: one casual 30+0 game played over the Board API while many
//! viewers hold TV's Classical feed (`GET /api/tv/classical/feed`); how
//! soon each move's `fen` line reaches the viewers.
//!
//! Setup (not measured): accounts `tvload0` (White) and `tvload1` are
//! signed up (or logged in to) with `board:play challenge:write` tokens;
//! White challenges Black, Black accepts; `--viewers` feeds are opened, and
//! each waits for the game to be `featured` (TV reads the games in progress
//! once a second). The server should hold no other classical game.
//!
//! Load: `--moves` random legal moves (a shakmaty position kept here), one
//! every `--gap-ms`, each side in turn.
//!
//! Measured: from just before a move's POST to the arrival of its `fen`
//! line (by its `lm`, in order) at each viewer.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plyyard_testkit::{Client, ClientError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use tokio::time::Instant;

use super::bots::Api;
use super::tables::raise_open_files;
use super::{Result, account_token, percentile, ready_all};

/// Feeds opened at once.
const OPEN_CONCURRENCY: usize = 32;
/// How long a viewer waits for the game to be featured, or for a line.
const WAIT: Duration = Duration::from_secs(30);

/// The options of `loadgen tv`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Feeds held.
    pub viewers: usize,
    /// Moves played.
    pub moves: usize,
    /// Pause between moves, ms.
    pub gap_ms: u64,
    /// Seed of the move choice.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Feeds held.
    pub viewers: usize,
    /// Moves played.
    pub moves: usize,
    /// Lines timed (moves × viewers, less any missed).
    pub lines: usize,
    /// Move POST → a viewer's `fen` line: p50, p90, p99, max, ms.
    pub line_ms: [f64; 4],
    /// Lines that never came, or came for another move.
    pub missing: usize,
}

/// Runs the load and prints the report.
///
/// # Errors
/// A setup step failed.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    raise_open_files(2 * o.viewers as u64 + 256)?;
    let client = Client::new(addr);
    let scopes = ["board:play", "challenge:write"];
    let white = account_token(&client, "tvload0", "loadgen tv", &scopes).await?;
    let black = account_token(&Client::new(addr), "tvload1", "loadgen tv", &scopes).await?;
    let api = Api {
        addr,
        http: reqwest::Client::new(),
    };
    let form = "rated=false&clock.limit=1800&clock.increment=0&color=white";
    let (status, made) = api
        .post(&white, "/api/challenge/tvload1", Some(form))
        .await?;
    let id = made["id"]
        .as_str()
        .filter(|_| status == 200)
        .ok_or_else(|| ClientError::Unexpected(format!("challenge: {status} {made}")))?
        .to_owned();
    let (status, _) = api
        .post(&black, &format!("/api/challenge/{id}/accept"), None)
        .await?;
    if status != 200 {
        return Err(ClientError::Unexpected(format!("accept: {status}")));
    }
    let times: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let feeds = {
        let (api, token, id) = (api.clone(), white.clone(), id.clone());
        ready_all(o.viewers, OPEN_CONCURRENCY, move |_| {
            let (api, token, id) = (api.clone(), token.clone(), id.clone());
            async move {
                let mut feed = api.stream_at(&token, "/api/tv/classical/feed").await?;
                loop {
                    let line = tokio::time::timeout(WAIT, feed.next())
                        .await
                        .map_err(|_| ClientError::Timeout)??
                        .ok_or_else(|| ClientError::Unexpected("the feed ended".into()))?;
                    if line["t"] == "featured" && line["d"]["id"] == id.as_str() {
                        return Ok(feed);
                    }
                }
            }
        })
        .await?
    };
    eprintln!("tv: {} viewers see game {id}", feeds.len());
    let mut readers = tokio::task::JoinSet::new();
    let expected: Arc<Mutex<Vec<String>>> = Arc::default();
    for mut feed in feeds {
        let (times, expected) = (Arc::clone(&times), Arc::clone(&expected));
        let moves = o.moves;
        readers.spawn(async move {
            let mut lat = Vec::with_capacity(moves);
            let mut seen = 0;
            while seen < moves {
                let Ok(Ok(Some(line))) = tokio::time::timeout(WAIT, feed.next()).await else {
                    break;
                };
                let at = Instant::now();
                if line["t"] != "fen" {
                    continue;
                }
                let want = expected.lock().expect("moves").get(seen).cloned();
                let sent = times.lock().expect("times").get(seen).copied();
                if let (Some(w), Some(t0)) = (want, sent)
                    && line["d"]["lm"] == w.as_str()
                {
                    lat.push(at.saturating_duration_since(t0).as_secs_f64() * 1000.0);
                }
                seen += 1;
            }
            lat
        });
    }
    play(&api, [&white, &black], &id, &o, &times, &expected).await?;
    let mut all = Vec::new();
    while let Some(done) = readers.join_next().await {
        all.extend(done.unwrap_or_default());
    }
    all.sort_by(f64::total_cmp);
    let played = expected.lock().expect("moves").len();
    let report = Report {
        viewers: o.viewers,
        moves: played,
        lines: all.len(),
        line_ms: [
            percentile(&all, 50.0),
            percentile(&all, 90.0),
            percentile(&all, 99.0),
            all.last().copied().unwrap_or(f64::NAN),
        ],
        missing: played * o.viewers - all.len(),
    };
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    let _ = api
        .post(&white, &format!("/api/board/game/{id}/resign"), None)
        .await;
    Ok(())
}

/// Plays the moves, noting each one and when its POST went.
async fn play(
    api: &Api,
    tokens: [&String; 2],
    id: &str,
    o: &Options,
    times: &Mutex<Vec<Instant>>,
    expected: &Mutex<Vec<String>>,
) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(o.seed);
    let mut pos = Chess::default();
    for k in 0..o.moves {
        tokio::time::sleep(Duration::from_millis(o.gap_ms)).await;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.random_range(0..legal.len())];
        let uci = UciMove::from_move(mv, CastlingMode::Standard).to_string();
        expected.lock().expect("moves").push(uci.clone());
        times.lock().expect("times").push(Instant::now());
        let path = format!("/api/board/game/{id}/move/{uci}");
        let (status, body) = api.post(tokens[k % 2], &path, None).await?;
        if status != 200 {
            return Err(ClientError::Unexpected(format!(
                "move {uci}: {status} {body}"
            )));
        }
        pos.play_unchecked(mv);
        if pos.is_game_over() {
            break;
        }
    }
    Ok(())
}
