//! What the registry keeps for a game whatever the load: a notice sent
//! while the game's mailbox is full (it was dropped, and the player was
//! shown away while there), and the client whose moves a computer game's
//! engine answers when the game is loaded again (it was forgotten, and two
//! accounts of one address held two engine workers); and a game against
//! the computer played on a clock.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use plyyard_engine::Level;
use plyyard_engine_time::fair::Requester;
use plyyard_engine_time::pool::EnginePool;
use plyyard_game::{RuleSet, Variant};
use plyyard_store::{PlayerId, Store};
use plyyard_wire::error::ErrorCode;
use plyyard_wire::protocol::{ClockRequest, ColorChoice, GameState, NewComputerGame};
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
    plyyard_store::testing::table_game(store, id, WHITE, BLACK, false).await;
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
                clock: None,
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

/// A legal move of the side to move in `g`, from the state's destinations.
fn any_move(g: &GameState) -> String {
    let (from, to) = g
        .dests
        .iter()
        .find_map(|(from, tos)| tos.first().map(|to| (from, to)))
        .expect("a legal move");
    format!("{from}{to}")
}

fn a_move(uci: String) -> Action {
    Action::Move {
        uci,
        draw_offer: false,
        blur: false,
        lag: Duration::ZERO,
        client: Vec::new(),
    }
}

/// The state of `id` once it reaches ply `ply` (the computer answered).
async fn at_ply(games: &Games, id: &str, player: &PlayerId, ply: u32) -> GameState {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let g = games.state(id, Some(player.clone())).await.unwrap();
        if g.ply == ply {
            return g;
        }
        assert!(Instant::now() < until, "the computer did not answer: {g:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Issue 56: the computer can be played with a clock. The clocks start
/// with the first two moves, the computer presses its own (its time is
/// stored with its moves), nobody is shown away or may claim against it,
/// undo keeps the first two plies, and what only two people do (draw
/// offers, takebacks) is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_on_a_clock_and_presses_it() {
    for (_dir, store) in plyyard_store::testing::stores().await {
        let games = Games::new(node(store.clone(), 1, 0.25));
        let player = PlayerId("clockplayer".into());
        let req = NewComputerGame {
            level: Level::Beginner,
            color: ColorChoice::White,
            variant: Variant::Standard,
            position: None,
            rules: RuleSet::PlyYard,
            fen: None,
            clock: Some(ClockRequest {
                minutes: 1.0,
                increment: 0,
            }),
        };
        let client = vec![Requester::Account(player.0.clone())];
        let g = games
            .create_computer_game(&player, client, req)
            .await
            .unwrap();
        let id = g.id.clone();
        let t = g.table.expect("a clock");
        assert_eq!(t.table, None);
        assert!(!t.rated);
        assert_eq!(t.speed, "bullet");
        assert_eq!((t.clock.initial_ms, t.clock.increment_ms), (60_000, 0));
        assert_eq!(t.clock.running, None, "the clocks wait for two moves");
        assert!(t.first_move_deadline_ms.is_some());

        let first = at_ply(&games, &id, &player, 0).await;
        games
            .act(&id, player.clone(), a_move(any_move(&first)))
            .await
            .unwrap();
        let second = at_ply(&games, &id, &player, 2).await;
        let t = second.table.clone().unwrap();
        assert_eq!(t.clock.running.as_deref(), Some("white"));
        assert!(!t.away.black, "the computer is never away");
        games
            .act(&id, player.clone(), a_move(any_move(&second)))
            .await
            .unwrap();
        let fourth = at_ply(&games, &id, &player, 4).await;
        let t = fourth.table.clone().unwrap();
        assert_eq!(t.clock.running.as_deref(), Some("white"));
        assert!(t.clock.black_ms < 60_000, "the computer's time ran: {t:?}");
        assert_eq!(t.away_claimable_by, None);
        let (row, moves) = store.load_game(&id).await.unwrap().unwrap();
        assert_eq!(row.clock.map(|c| c.pgn_tag()).as_deref(), Some("60+0"));
        let computer_left = moves[3].clock_ms.expect("the computer's time is stored");
        assert!((50_000..60_000).contains(&computer_left), "{computer_left}");

        games.act(&id, player.clone(), Action::Undo).await.unwrap();
        let back = games.state(&id, Some(player.clone())).await.unwrap();
        assert_eq!(back.ply, 2);
        assert_eq!(back.table.unwrap().clock.running.as_deref(), Some("white"));
        let kept = games.act(&id, player.clone(), Action::Undo).await;
        assert_eq!(kept.unwrap_err().code, ErrorCode::NothingToUndo);
        for refused in [Action::OfferDraw, Action::Takeback { yes: true }] {
            assert!(games.act(&id, player.clone(), refused).await.is_err());
        }

        games
            .act(&id, player.clone(), Action::Resign)
            .await
            .unwrap();
        let over = games.state(&id, Some(player.clone())).await.unwrap();
        assert_eq!(over.status, "ended");
        assert_eq!(over.table.unwrap().clock.running, None);
        let late = games.act(&id, player.clone(), Action::Rematch).await;
        assert!(late.is_err(), "no rematch against the computer");
    }
}
