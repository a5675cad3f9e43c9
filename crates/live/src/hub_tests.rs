//! What the registry keeps for a game whatever the load: a notice sent
//! while the game's mailbox is full (it was dropped, and the player was
//! shown away while there), and the client whose moves a computer game's
//! engine answers when the game is loaded again (it was forgotten, and two
//! accounts of one address held two engine workers).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use plyyard_engine::Level;
use plyyard_engine_time::fair::Requester;
use plyyard_engine_time::pool::EnginePool;
use plyyard_game::{Game, RuleSet, TimeControl, Variant};
use plyyard_store::replay::summary_of;
use plyyard_store::{GameKind, GameRow, PlayerId, Store, TableGame, now_ms};
use plyyard_wire::protocol::{ColorChoice, NewComputerGame};
use tokio::sync::oneshot;

use crate::ask::Ask;
use crate::cmd::{Cmd, MAILBOX};
use crate::hub::LiveDeps;
use crate::{Action, Games};

/// A node's live games over `store`, with an engine pool of `workers`
/// thinking `factor` times their level's time.
fn node(store: Store, workers: usize, factor: f64) -> Arc<LiveDeps> {
    let metrics = Arc::new(crate::metrics::Metrics::default());
    let engines = Arc::new(EnginePool::new(
        workers,
        16,
        factor,
        Arc::clone(&metrics.engine),
    ));
    Arc::new(LiveDeps::new(
        crate::registry(),
        store,
        engines,
        metrics,
        crate::LiveTuning::default(),
    ))
}

const WHITE: &str = "wwwwwwwwwwwwwwwwwwwwww";
const BLACK: &str = "bbbbbbbbbbbbbbbbbbbbbb";

/// Stores table game `id` between [`WHITE`] and [`BLACK`], unstarted.
async fn table_game(store: &Store, id: &str) {
    for p in [WHITE, BLACK] {
        store.touch_player(p, 1).await.unwrap();
    }
    let game = Game::new(RuleSet::Fide);
    let now = now_ms();
    let row = GameRow {
        id: id.into(),
        kind: GameKind::Table,
        white_player: Some(WHITE.into()),
        black_player: Some(BLACK.into()),
        level: None,
        rules: RuleSet::Fide,
        variant: Variant::Standard,
        position: None,
        initial_fen: game.fen(),
        summary: summary_of(&game, 0, now),
        created_at: now,
        table: Some(TableGame {
            code: "ABCDEF".into(),
            rated: false,
            control: TimeControl::table(3, 2).unwrap(),
        }),
    };
    store.insert_game(&row).await.unwrap();
}

/// Issue 58: "mailbox full: a notice was dropped". A player's socket
/// opening while the game's mailbox is full still counts: the player is
/// not shown away (nor claimable against) while there.
#[tokio::test]
async fn a_notice_to_a_full_mailbox_is_not_lost() {
    for (_dir, store) in plyyard_store::testing::stores().await {
        let deps = node(store.clone(), 1, 1.0);
        table_game(&store, "fullbox1").await;
        let games = Games::new(Arc::clone(&deps));
        let first = games.state("fullbox1", None).await.unwrap();
        assert!(first.table.unwrap().away.white);
        // The actor runs on this thread only when the test waits: until
        // then its mailbox fills up.
        let h = deps.hub.loaded("fullbox1").unwrap();
        for _ in 0..MAILBOX {
            let (reply, _) = oneshot::channel();
            let ask = Ask::State { viewer: None };
            h.tx.try_send(Cmd::Ask { ask, reply }).unwrap();
        }
        let (reply, _) = oneshot::channel();
        let full = h.tx.try_send(Cmd::Ask {
            ask: Ask::State { viewer: None },
            reply,
        });
        assert!(full.is_err(), "the mailbox is full");
        games.presence("fullbox1", PlayerId(WHITE.into()), true);
        let now = games.state("fullbox1", None).await.unwrap();
        let away = now.table.unwrap().away;
        assert!(!away.white, "White's socket counts: {away:?}");
        assert!(away.black);
    }
}

/// Issue 58: a computer game loaded again (after an idle unload or a
/// restart) and played through the Board API (moves that carry no client
/// keys) searches in its player's address's share: two accounts of one
/// address hold one engine worker between them, not two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloaded_computer_game_searches_in_its_address_share() {
    let ip: IpAddr = "192.0.2.7".parse().unwrap();
    for (_dir, store) in plyyard_store::testing::stores().await {
        let before = node(store.clone(), 2, 1.0);
        let mut games = Vec::new();
        for account in ["accountone", "accounttwo"] {
            let player = PlayerId(account.into());
            let client = vec![Requester::Ip(ip), Requester::Account(account.into())];
            let req = NewComputerGame {
                level: Level::Expert,
                color: ColorChoice::White,
                variant: Variant::Standard,
                position: None,
                rules: RuleSet::PlyYard,
                fen: None,
            };
            let g = crate::start::create_computer_game(&before, &player, client, req)
                .await
                .unwrap();
            games.push((g.id, player));
        }
        // A restart: another process's memory over the same database,
        // with two engine workers (one per client at most).
        let after = Games::new(node(store, 2, 4.0));
        for (id, player) in &games {
            let board_move = Action::Move {
                uci: "e2e4".into(),
                draw_offer: false,
                blur: false,
                lag: Duration::ZERO,
                client: Vec::new(),
            };
            after.act(id, player.clone(), board_move).await.unwrap();
        }
        let until = Instant::now() + Duration::from_secs(5);
        let (running, waiting) = loop {
            let (_, running, waiting) = after.deps().engines.load();
            if running + waiting == 2 || Instant::now() > until {
                break (running, waiting);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        assert_eq!(
            (running, waiting),
            (1, 1),
            "one address's two games share its one worker"
        );
        for (id, player) in &games {
            after.act(id, player.clone(), Action::Resign).await.unwrap();
        }
    }
}
