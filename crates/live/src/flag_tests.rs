//! The flag falls on the server's own clock, with nobody sending anything,
//! and FIDE 6.9 decides the result: games stored a moment before a flag
//! fall are loaded and left alone.

use std::sync::Arc;
use std::time::Duration;

use plyyard_game::{Game, GameResult, Reason, RuleSet, TimeControl, Variant};

use crate::hub::LiveDeps;
use plyyard_store::replay::summary_of;
use plyyard_store::{GameKind, GameRow, GameStatus, MoveRow, Store, TableGame, now_ms};

/// Who plays Black in a flag test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opponent {
    /// A person, at a table.
    Person,
    /// The computer, with a clock.
    Computer,
}

/// On each backend, stores a table game from `fen` with two moves
/// played, the mover of the first one (White) having `white_ms` left,
/// waits for its end and returns its result and reason.
async fn flagged(fen: &str, moves: [&str; 2], white_ms: i64) -> Vec<(String, Option<String>)> {
    flagged_against(Opponent::Person, fen, moves, white_ms).await
}

async fn flagged_against(
    opponent: Opponent,
    fen: &str,
    moves: [&str; 2],
    white_ms: i64,
) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for (_dir, store) in plyyard_store::testing::stores().await {
        out.push(flagged_on(store, opponent, fen, moves, white_ms).await);
    }
    out
}

async fn flagged_on(
    store: Store,
    opponent: Opponent,
    fen: &str,
    moves: [&str; 2],
    white_ms: i64,
) -> (String, Option<String>) {
    let metrics = Arc::new(crate::metrics::Metrics::default());
    let engines = Arc::new(plyyard_engine_time::pool::EnginePool::new(
        1,
        16,
        1.0,
        Arc::clone(&metrics.engine),
    ));
    let shared = Arc::new(LiveDeps::new(
        crate::registry(),
        store,
        engines,
        metrics,
        crate::LiveTuning::default(),
    ));
    for p in ["wwwwwwwwwwwwwwwwwwwwww", "bbbbbbbbbbbbbbbbbbbbbb"] {
        shared.store.touch_player(p, 1).await.unwrap();
    }
    let mut game = Game::from_fen(fen, RuleSet::Fide).unwrap();
    let now = now_ms();
    let control = TimeControl::table(3, 2).unwrap();
    let mut row = GameRow {
        id: "flagtest".into(),
        kind: GameKind::Table,
        white_player: Some("wwwwwwwwwwwwwwwwwwwwww".into()),
        black_player: Some("bbbbbbbbbbbbbbbbbbbbbb".into()),
        level: None,
        rules: RuleSet::Fide,
        variant: Variant::Standard,
        position: None,
        initial_fen: fen.into(),
        summary: summary_of(&game, 0, now),
        created_at: now,
        table: Some(TableGame {
            code: "ABCDEF".into(),
            rated: false,
            control,
        }),
        clock: None,
    };
    if opponent == Opponent::Computer {
        row.kind = GameKind::Computer;
        row.black_player = None;
        row.level = Some(plyyard_engine::Level::Beginner);
        row.table = None;
        row.clock = Some(control);
    }
    shared.store.insert_game(&row).await.unwrap();
    for (i, (uci, left)) in moves.into_iter().zip([white_ms, 180_000]).enumerate() {
        let mv = game.parse_uci(uci).unwrap();
        game.play_with(mv, Some(left as u64), false).unwrap();
        let played = MoveRow {
            ply: i as u32 + 1,
            uci: uci.into(),
            san: game.history()[i].san.clone(),
            clock_ms: Some(left),
            draw_offer: false,
            blur: false,
        };
        let summary = summary_of(&game, i as u64 + 1, now);
        shared
            .store
            .append_moves("flagtest", i as u64, &[played], &summary)
            .await
            .unwrap();
    }
    // White's clock runs from the stored 40-odd ms the moment it loads.
    let sub = crate::Games::new(Arc::clone(&shared))
        .subscribe("flagtest", None)
        .await
        .unwrap();
    let mut events = sub.events;
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let e = events.recv().await.unwrap();
            if e.text.contains("\"status\":\"ended\"") {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the flag fell by itself");
    let (stored, _) = shared.store.load_game("flagtest").await.unwrap().unwrap();
    assert_eq!(stored.summary.status, GameStatus::Ended);
    (
        stored.summary.result.as_str().to_owned(),
        stored.summary.reason.map(|r| r.as_str().to_owned()),
    )
}

#[tokio::test]
async fn rook_flags_against_knight_and_loses() {
    // K+R flags against K+N: a mate by the knight side exists, so it wins.
    for (result, reason) in flagged("k6n/8/8/8/8/8/1R6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await {
        assert_eq!(result, GameResult::BlackWins.as_str());
        assert_eq!(reason.as_deref(), Some(Reason::Timeout.as_str()));
    }
}

#[tokio::test]
async fn queen_flags_against_knight_and_draws() {
    for (result, reason) in flagged("k6n/8/8/8/8/8/1Q6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await {
        assert_eq!(result, GameResult::Draw.as_str());
        assert_eq!(
            reason.as_deref(),
            Some(Reason::TimeoutVsInsufficientMaterial.as_str())
        );
    }
}

#[tokio::test]
async fn a_lone_king_never_wins_on_time() {
    for (result, reason) in flagged("k7/8/8/8/8/8/1Q6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await {
        assert_eq!(result, GameResult::Draw.as_str());
        assert_eq!(
            reason.as_deref(),
            Some(Reason::TimeoutVsInsufficientMaterial.as_str())
        );
    }
}

/// Against the computer with a clock, the player's flag falls on the
/// server's clock too, and FIDE 6.9 decides the same way.
#[tokio::test]
async fn a_player_flags_against_the_computer() {
    let won = flagged_against(
        Opponent::Computer,
        "k6n/8/8/8/8/8/1R6/7K w - - 0 1",
        ["h1g1", "a8a7"],
        40,
    )
    .await;
    for (result, reason) in won {
        assert_eq!(result, GameResult::BlackWins.as_str());
        assert_eq!(reason.as_deref(), Some(Reason::Timeout.as_str()));
    }
    let drawn = flagged_against(
        Opponent::Computer,
        "k7/8/8/8/8/8/1Q6/7K w - - 0 1",
        ["h1g1", "a8a7"],
        40,
    )
    .await;
    for (result, reason) in drawn {
        assert_eq!(result, GameResult::Draw.as_str());
        assert_eq!(
            reason.as_deref(),
            Some(Reason::TimeoutVsInsufficientMaterial.as_str())
        );
    }
}
