//! Tables over real HTTP and websockets, with two players' and a
//! spectator's sockets, every test once on SQLite and once on PostgreSQL.

use std::time::Duration;

use crate::support::account as player;
use plyyard_testkit::{Client, Socket, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn start(db: &TestDb) -> TestServer {
    start_tuned(db, |_| {}).await
}

async fn start_tuned(db: &TestDb, adjust: impl FnOnce(&mut plyyard_server::Tuning)) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    adjust(&mut tuning);
    TestServer::start_with(db.url(), tuning).await
}

async fn open(c: &Client, body: Value) -> Value {
    let r = c.post_json("/api/tables", &body).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    r.json().unwrap()
}

fn casual() -> Value {
    json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true})
}

/// Two players at a new table; returns (white, black, game id).
async fn seated(srv: &TestServer, body: Value) -> (Client, Client, String) {
    let host = player(srv, &format!("host{}", rand_suffix())).await;
    let guest = player(srv, &format!("guest{}", rand_suffix())).await;
    let table = open(&host, body).await;
    let code = table["code"].as_str().unwrap();
    let r = guest
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let state = host.get_value(&format!("/api/games/{id}")).await;
    if state["you"] == "white" {
        (host, guest, id)
    } else {
        (guest, host, id)
    }
}

fn rand_suffix() -> String {
    format!("{:06}", rand::random::<u32>() % 1_000_000)
}

async fn ws(c: &Client, id: &str) -> Socket {
    let mut s = c.game_socket(id, None).await.unwrap();
    recv_until(&mut s, WAIT, |m| m["t"] == "full")
        .await
        .unwrap();
    s
}

/// Sends a command and returns its ack or error.
async fn ask(s: &mut Socket, id: u64, mut msg: Value) -> Value {
    msg["id"] = json!(id);
    send_json(s, &msg).await.unwrap();
    recv_until(s, WAIT, |m| m["id"] == id).await.unwrap()
}

async fn mv(s: &mut Socket, id: u64, uci: &str) -> Value {
    ask(s, id, json!({"t": "move", "uci": uci})).await
}

/// Waits for the event whose game state passes `pred`.
async fn until(s: &mut Socket, pred: impl Fn(&Value) -> bool) -> Value {
    recv_until(s, WAIT, |m| m["t"] == "event" && pred(&m["game"]))
        .await
        .unwrap()
}

fn ply(n: u64) -> impl Fn(&Value) -> bool {
    move |g| g["ply"] == n
}

fn ended(g: &Value) -> bool {
    g["status"] == "ended"
}

async fn tables_open_join_and_checkmate(db: TestDb) {
    let srv = start(&db).await;
    let anon = srv.client();
    assert_eq!(
        anon.post_json("/api/tables", &casual())
            .await
            .unwrap()
            .status,
        401
    );
    let host = player(&srv, "hostess").await;
    for bad in [
        json!({"minutes": 0.25, "increment": 3}),
        json!({"minutes": 181, "increment": 3}),
        json!({"minutes": 5, "increment": 181}),
    ] {
        assert_eq!(
            host.post_json("/api/tables", &bad).await.unwrap().status,
            400,
            "{bad}"
        );
    }
    let table = open(&host, casual()).await;
    let code = table["code"].as_str().unwrap().to_owned();
    assert_eq!(table["status"], "open");
    assert_eq!(table["host"]["name"], "hostess");
    assert_eq!(table["speed"], "blitz");
    let lobby = anon.get_value("/api/lobby").await;
    assert_eq!(lobby["tables"][0]["code"], code.as_str());
    let r = host
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(
        (
            r.status,
            r.json::<Value>().unwrap()["error"]["code"].clone()
        ),
        (409, json!("own_table"))
    );

    let guest = player(&srv, "guesto").await;
    let r = guest
        .post_empty(&format!("/api/tables/{}/join", code.to_lowercase()))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let joined: Value = r.json().unwrap();
    assert_eq!(joined["status"], "playing");
    let id = joined["game_id"].as_str().unwrap().to_owned();
    assert!(
        anon.get_value("/api/lobby").await["tables"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let late = player(&srv, "latecomer").await;
    let r = late
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().unwrap()["error"]["code"], "table_taken");

    let state = host.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(state["kind"], "table");
    assert_eq!(state["table"], code.as_str());
    assert_eq!(state["clock"]["white_ms"], 300_000);
    assert_eq!(state["clock"]["running"], Value::Null);
    let (white, black) = if state["you"] == "white" {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let (mut w, mut b) = (ws(white, &id).await, ws(black, &id).await);
    let mut watcher = ws(&anon, &id).await;
    let mut intruder = ws(&late, &id).await;

    assert_eq!(mv(&mut w, 1, "f2f3").await["t"], "ack");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    let seen = until(&mut watcher, ply(2)).await;
    assert_eq!(seen["game"]["clock"]["running"], "white", "{seen}");
    assert_eq!(seen["game"]["you"], Value::Null);
    let refused = mv(&mut intruder, 1, "g2g4").await;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    assert_eq!(mv(&mut w, 2, "g2g4").await["t"], "ack");
    assert_eq!(mv(&mut b, 2, "d8h4").await["t"], "ack");
    let end = until(&mut watcher, ended).await;
    assert_eq!(end["game"]["result"], "0-1");
    assert_eq!(end["game"]["reason"], "checkmate");
    assert_eq!(end["game"]["clock"]["running"], Value::Null);
    let pgn = anon
        .get(&format!("/api/games/{id}/pgn"))
        .await
        .unwrap()
        .text();
    for part in [
        "[WhiteElo \"1500\"]",
        "[TimeControl \"300+3\"]",
        "[%clk 0:05:00]",
        "2. g4",
        "Qh4#",
        "0-1",
    ] {
        assert!(pgn.contains(part), "{part}: {pgn}");
    }
    // Clocks in whole seconds (`h:mm:ss`), as lichess writes them, though
    // the server keeps milliseconds.
    let clocks: Vec<&str> = pgn
        .split("[%clk ")
        .skip(1)
        .map(|rest| rest.split(']').next().unwrap_or(""))
        .collect();
    assert_eq!(clocks.len(), 4, "{pgn}");
    for c in clocks {
        let parts: Vec<&str> = c.split(':').collect();
        assert!(
            parts.len() == 3 && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())),
            "{c}: {pgn}"
        );
    }
    srv.stop().await;
}

async fn draw_offers_go_with_moves(db: TestDb) {
    let srv = start(&db).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    // An offer declined by playing on.
    assert_eq!(
        ask(
            &mut w,
            1,
            json!({"t": "move", "uci": "e2e4", "draw_offer": true})
        )
        .await["t"],
        "ack"
    );
    let offered = until(&mut b, ply(1)).await;
    assert_eq!(offered["game"]["draw_offer"], "white");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    let declined = until(&mut w, ply(2)).await;
    assert_eq!(declined["game"]["draw_offer"], Value::Null);
    let r = ask(&mut w, 2, json!({"t": "accept_draw"})).await;
    assert_eq!(r["code"], "no_draw_offer", "{r}");
    // An offer accepted.
    assert_eq!(
        ask(
            &mut w,
            3,
            json!({"t": "move", "uci": "g1f3", "draw_offer": true})
        )
        .await["t"],
        "ack"
    );
    let r = ask(&mut w, 4, json!({"t": "accept_draw"})).await;
    assert_eq!(
        r["code"], "not_your_turn",
        "one does not accept one's own offer: {r}"
    );
    assert_eq!(
        ask(&mut b, 2, json!({"t": "accept_draw"})).await["t"],
        "ack"
    );
    let state = white.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(
        (state["result"].clone(), state["reason"].clone()),
        (json!("1/2-1/2"), json!("agreement"))
    );
    srv.stop().await;
}

async fn a_move_made_after_the_tab_lost_focus_is_marked(db: TestDb) {
    let srv = start(&db).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    until(&mut b, ply(1)).await;
    let blurred = json!({"t": "move", "uci": "e7e5", "blur": true});
    assert_eq!(ask(&mut b, 1, blurred).await["t"], "ack");
    until(&mut w, ply(2)).await;
    let store = plyyard_store::Store::open(db.url()).await.unwrap();
    let (_, moves) = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(
        moves.iter().map(|m| m.blur).collect::<Vec<_>>(),
        [false, true]
    );
    store.close().await;
    srv.stop().await;
}

async fn a_draw_offer_declined_in_words_is_gone_for_good(db: TestDb) {
    let srv = start(&db).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    let r = ask(&mut b, 1, json!({"t": "decline_draw"})).await;
    assert_eq!(r["code"], "no_draw_offer", "nothing to decline: {r}");
    let offer = json!({"t": "move", "uci": "e2e4", "draw_offer": true});
    assert_eq!(ask(&mut w, 1, offer).await["t"], "ack");
    assert_eq!(until(&mut b, ply(1)).await["game"]["draw_offer"], "white");
    let r = ask(&mut w, 2, json!({"t": "decline_draw"})).await;
    assert_eq!(r["code"], "no_draw_offer", "one's own offer stands: {r}");
    assert_eq!(
        ask(&mut b, 2, json!({"t": "decline_draw"})).await["t"],
        "ack"
    );
    // Gone at once for both, in an event of its own.
    for s in [&mut w, &mut b] {
        let e = recv_until(s, WAIT, |m| m["t"] == "event" && m["kind"] == "draw")
            .await
            .unwrap();
        assert_eq!(e["game"]["draw_offer"], Value::Null, "{e}");
        assert_eq!(e["game"]["ply"], 1, "{e}");
    }
    let r = ask(&mut b, 3, json!({"t": "accept_draw"})).await;
    assert_eq!(r["code"], "no_draw_offer", "{r}");
    srv.stop().await;
    // Written: the game loaded again has no offer.
    let again = start(&db).await;
    let state = again.client().get_value(&format!("/api/games/{id}")).await;
    assert_eq!(state["ply"], 1, "{state}");
    assert_eq!(state["table"]["draw_offer"], Value::Null, "{state}");
    assert_eq!(state["status"], "ongoing", "{state}");
    again.stop().await;
}

async fn threefold_ends_by_itself_or_is_claimed(db: TestDb) {
    let srv = start(&db).await;
    let shuffle = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    for rules in ["plyyard", "fide"] {
        let mut body = casual();
        body["rules"] = json!(rules);
        let (white, black, id) = seated(&srv, body).await;
        let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
        for (i, m) in shuffle.iter().enumerate() {
            let s = if i % 2 == 0 { &mut w } else { &mut b };
            assert_eq!(mv(s, i as u64 + 1, m).await["t"], "ack", "{rules} {m}");
        }
        let state = white.get_value(&format!("/api/games/{id}")).await;
        if rules == "plyyard" {
            assert_eq!(state["reason"], "threefold_repetition", "{state}");
        } else {
            assert_eq!(state["status"], "ongoing");
            assert_eq!(state["claimable"], json!(["threefold_repetition"]));
            let r = ask(
                &mut w,
                20,
                json!({"t": "claim", "reason": "threefold_repetition"}),
            )
            .await;
            assert_eq!(r["t"], "ack", "{r}");
            let state = white.get_value(&format!("/api/games/{id}")).await;
            assert_eq!(
                (state["result"].clone(), state["reason"].clone()),
                (json!("1/2-1/2"), json!("threefold_repetition"))
            );
        }
    }
    srv.stop().await;
}

async fn abort_leave_and_the_first_move_deadline(db: TestDb) {
    let srv = start_tuned(&db, |t| t.first_move_timeout = Duration::from_millis(400)).await;
    // Nobody moves: the server aborts the game by itself.
    let (white, _black, id) = seated(&srv, casual()).await;
    let mut w = ws(&white, &id).await;
    let aborted = recv_until(&mut w, WAIT, |m| {
        m["t"] == "event" && m["game"]["status"] == "ended"
    })
    .await
    .unwrap();
    assert_eq!(
        (
            aborted["game"]["result"].clone(),
            aborted["game"]["reason"].clone()
        ),
        (json!("*"), json!("aborted"))
    );

    // Abort by hand before both moved; too late after.
    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    assert_eq!(ask(&mut b, 1, json!({"t": "abort"})).await["t"], "ack");
    assert_eq!(
        white.get_value(&format!("/api/games/{id}")).await["reason"],
        "aborted"
    );

    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    assert_eq!(
        ask(&mut w, 2, json!({"t": "abort"})).await["code"],
        "cannot_abort"
    );
    // Leaving the table resigns.
    assert_eq!(ask(&mut b, 2, json!({"t": "resign"})).await["t"], "ack");
    let state = white.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(
        (state["result"].clone(), state["reason"].clone()),
        (json!("1-0"), json!("resignation"))
    );
    // Each player's list names the other player as the opponent.
    for (me, other) in [(&white, &black), (&black, &white)] {
        let name = other.get_value("/api/account").await["username"].clone();
        let mine = me.get_value("/api/my-games").await;
        let game = mine
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .unwrap()
            .clone();
        assert_eq!(
            game["opponent"],
            json!({"kind": "user", "name": name, "level": null})
        );
    }
    srv.stop().await;
}

async fn an_away_player_can_come_back_or_be_claimed_against(db: TestDb) {
    let srv = start_tuned(&db, |t| t.away_claim_after = Duration::from_millis(400)).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let mut w = ws(&white, &id).await;
    let mut b = ws(&black, &id).await;
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    // Black's connection drops, and comes back: the game goes on.
    drop(b);
    recv_until(&mut w, WAIT, |m| {
        m["t"] == "event" && m["game"]["away"]["black"] == true
    })
    .await
    .unwrap();
    let b = ws(&black, &id).await;
    recv_until(&mut w, WAIT, |m| {
        m["t"] == "event" && m["game"]["away"]["black"] == false
    })
    .await
    .unwrap();
    assert_eq!(mv(&mut w, 2, "g1f3").await["t"], "ack");
    assert_eq!(
        ask(&mut w, 3, json!({"t": "claim_away", "outcome": "win"})).await["code"],
        "not_away"
    );
    // Away for good: White may claim once the wait is over.
    drop(b);
    let claimable = recv_until(&mut w, WAIT, |m| {
        m["t"] == "event" && m["game"]["away_claimable_by"] == "white"
    })
    .await
    .unwrap();
    assert_eq!(claimable["game"]["away_claimable_by"], "white");
    assert_eq!(
        ask(&mut w, 4, json!({"t": "claim_away", "outcome": "win"})).await["t"],
        "ack"
    );
    let state = white.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(
        (state["result"].clone(), state["reason"].clone()),
        (json!("1-0"), json!("abandonment"))
    );
    srv.stop().await;
}

/// The probe that found a runaway: both players close their sockets one
/// after the other. Nobody can claim (the claimant must be there), nothing
/// is written while the clock runs, and the one who comes back may claim
/// at once.
async fn an_abandoned_game_writes_nothing_while_both_are_away(db: TestDb) {
    let srv = start_tuned(&db, |t| t.away_claim_after = Duration::from_millis(300)).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let mut w = ws(&white, &id).await;
    let mut b = ws(&black, &id).await;
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    let mut spectator = ws(&srv.client(), &id).await;
    drop(w);
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(b);
    // White's claim against Black never opens: White is gone too.
    let both_away = recv_until(&mut spectator, WAIT, |m| {
        m["t"] == "event"
            && m["game"]["away"]["white"] == true
            && m["game"]["away"]["black"] == true
    })
    .await
    .unwrap();
    let v = both_away["v"].as_u64().unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let state = srv.client().get_value(&format!("/api/games/{id}")).await;
    assert_eq!(state["v"].as_u64(), Some(v), "versions written meanwhile");
    assert_eq!(state["away_claimable_by"], Value::Null, "{state}");
    assert_eq!(state["status"], "ongoing");
    // Black comes back: its claim is open at once, in the presence event.
    let _b = ws(&black, &id).await;
    let back = recv_until(&mut spectator, WAIT, |m| m["t"] == "event")
        .await
        .unwrap();
    assert_eq!(back["v"].as_u64(), Some(v + 1));
    assert_eq!(back["game"]["away_claimable_by"], "black", "{back}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let state = srv.client().get_value(&format!("/api/games/{id}")).await;
    assert_eq!(
        state["v"].as_u64(),
        Some(v + 1),
        "versions written meanwhile"
    );
    srv.stop().await;
}

/// Opening and closing tables is limited per client (its address and its
/// account alike: a second account on the same address shares the quota),
/// and 40 racing opens by one player leave exactly three open tables.
async fn opening_tables_is_limited_and_the_cap_holds_under_races(db: TestDb) {
    let srv = start_tuned(&db, |t| t.quotas.tables_per_minute = 1_000).await;
    let host = player(&srv, "racer").await;
    let opens: Vec<_> = (0..40)
        .map(|_| {
            let c = host.clone();
            tokio::spawn(async move { c.post_json("/api/tables", &casual()).await.unwrap() })
        })
        .collect();
    let mut created = 0;
    for o in opens {
        let r = o.await.unwrap();
        match r.status {
            201 => created += 1,
            _ => assert_eq!(
                r.json::<Value>().unwrap()["error"]["code"],
                "too_many_tables"
            ),
        }
    }
    assert_eq!(created, 3);
    srv.stop().await;

    let srv = start_tuned(&db, |t| t.quotas.tables_per_minute = 5).await;
    let host = player(&srv, "flipper").await;
    for _ in 0..3 {
        let code = open(&host, casual()).await["code"]
            .as_str()
            .unwrap()
            .to_owned();
        let r = host
            .post_empty(&format!("/api/tables/{code}/cancel"))
            .await
            .unwrap();
        if r.status == 429 {
            break;
        }
        assert_eq!(r.status, 204, "{}", r.text());
    }
    let r = host.post_json("/api/tables", &casual()).await.unwrap();
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    let second = player(&srv, "flipper2").await;
    let r = second.post_json("/api/tables", &casual()).await.unwrap();
    assert_eq!(r.status, 429, "the address's quota is shared: {}", r.text());
    srv.stop().await;
}

/// The lobby socket takes frames of at most 4 KiB, as the game socket
/// does (it buffered up to 16 MiB).
async fn the_lobby_socket_refuses_big_frames(db: TestDb) {
    use futures_util::{SinkExt as _, StreamExt as _};
    let srv = start(&db).await;
    let mut lobby = srv.client().socket("/api/lobby/socket").await.unwrap();
    recv_until(&mut lobby, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    let big = "x".repeat(64 * 1024);
    let _ = lobby
        .send(tokio_tungstenite::tungstenite::Message::text(big))
        .await;
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match lobby.next().await {
                None | Some(Err(_)) => break None,
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(frame))) => {
                    break frame.map(|f| u16::from(f.code));
                }
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .expect("the socket closes");
    assert!(matches!(closed, None | Some(1009)), "{closed:?}");
    srv.stop().await;
}

async fn rematches_swap_colours_and_rated_games_move_ratings(db: TestDb) {
    let srv = start(&db).await;
    let mut body = casual();
    body["rated"] = json!(true);
    let (white, black, id) = seated(&srv, body).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    assert_eq!(mv(&mut w, 1, "e2e4").await["t"], "ack");
    assert_eq!(mv(&mut b, 1, "e7e5").await["t"], "ack");
    assert_eq!(ask(&mut b, 2, json!({"t": "resign"})).await["t"], "ack");
    let end = until(&mut w, ended).await;
    let changes = &end["game"]["rating_changes"];
    assert!(
        changes["white"].as_i64().unwrap() > 0 && changes["black"].as_i64().unwrap() < 0,
        "{end}"
    );
    let name = end["game"]["white"]["name"].as_str().unwrap().to_owned();
    let profile = srv.client().get_value(&format!("/api/users/{name}")).await;
    assert!(
        profile["ratings"]["blitz"]["rating"].as_i64().unwrap() > 1500,
        "{profile}"
    );
    // The lobby shows each host's rating at its table's speed, from the
    // same store as the profile: the new blitz rating, and the start at rapid.
    let blitz = open(&white, casual()).await;
    let mut body = casual();
    body["minutes"] = json!(15);
    body["increment"] = json!(10);
    let rapid = open(&white, body).await;
    let stranger = player(&srv, &format!("host{}", rand_suffix())).await;
    let theirs = open(&stranger, casual()).await;
    let lobby = srv.client().get_value("/api/lobby").await;
    let host_of = |code: &Value| {
        lobby["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["code"] == *code)
            .map(|t| t["host"].clone())
            .unwrap_or_else(|| panic!("{code} not in {lobby}"))
    };
    let host = host_of(&blitz["code"]);
    assert_eq!(host["name"], name.as_str());
    assert_eq!(
        host["rating"], profile["ratings"]["blitz"]["rating"],
        "{lobby}"
    );
    assert_eq!(host["provisional"], true);
    let host = host_of(&rapid["code"]);
    assert_eq!(
        (host["name"].clone(), host["rating"].clone()),
        (json!(name), json!(1500))
    );
    assert_eq!(host_of(&theirs["code"])["rating"], 1500);
    assert_ne!(host_of(&theirs["code"])["name"], name.as_str());

    assert_eq!(ask(&mut w, 2, json!({"t": "rematch"})).await["t"], "ack");
    until(&mut b, |g| g["rematch"]["offered_by"] == "white").await;
    assert_eq!(ask(&mut b, 3, json!({"t": "rematch"})).await["t"], "ack");
    let agreed = until(&mut w, |g| g["rematch"]["next_game"].is_string()).await;
    let next = agreed["game"]["rematch"]["next_game"]
        .as_str()
        .unwrap()
        .to_owned();
    let again = black.get_value(&format!("/api/games/{next}")).await;
    assert_eq!(again["you"], "white", "colours swap");
    assert_eq!(again["status"], "ongoing");
    srv.stop().await;
}

async fn a_player_has_at_most_three_open_tables_and_can_close_them(db: TestDb) {
    let srv = start(&db).await;
    let host = player(&srv, "busyhost").await;
    let mut codes = Vec::new();
    for _ in 0..3 {
        codes.push(
            open(&host, casual()).await["code"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let r = host.post_json("/api/tables", &casual()).await.unwrap();
    assert_eq!(
        r.json::<Value>().unwrap()["error"]["code"],
        "too_many_tables"
    );
    let other = player(&srv, "otherone").await;
    let r = other
        .post_empty(&format!("/api/tables/{}/cancel", codes[0]))
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    let r = host
        .post_empty(&format!("/api/tables/{}/cancel", codes[0]))
        .await
        .unwrap();
    assert_eq!(r.status, 204);
    assert_eq!(
        host.get_value(&format!("/api/tables/{}", codes[0])).await["status"],
        "closed"
    );
    let r = other
        .post_empty(&format!("/api/tables/{}/join", codes[0]))
        .await
        .unwrap();
    assert_eq!(
        (
            r.status,
            r.json::<Value>().unwrap()["error"]["code"].clone()
        ),
        (410, json!("table_closed"))
    );
    open(&host, casual()).await;
    assert_eq!(
        srv.client().get("/api/tables/NOPE00").await.unwrap().status,
        404
    );
    srv.stop().await;
}

async fn the_lobby_socket_follows_tables_opening_and_filling(db: TestDb) {
    let srv = start(&db).await;
    let host = player(&srv, "lobbyhost").await;
    let guest = player(&srv, "lobbyguest").await;
    let watcher = srv.client();
    let mut lobby = watcher.socket("/api/lobby/socket").await.unwrap();
    let first = recv_until(&mut lobby, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    assert_eq!(first["tables"], json!([]));
    let mut private = casual();
    private["public"] = json!(false);
    open(&host, private).await;
    let table = open(&host, casual()).await;
    let code = table["code"].as_str().unwrap();
    let added = recv_until(&mut lobby, WAIT, |m| m["t"] == "add")
        .await
        .unwrap();
    assert_eq!(
        added["table"]["code"], code,
        "only the public table: {added}"
    );
    let r = guest
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.status, 200);
    let removed = recv_until(&mut lobby, WAIT, |m| m["t"] == "remove")
        .await
        .unwrap();
    assert_eq!(removed["code"], code);
    srv.stop().await;
}

/// A table game gets the same review as a computer game: the move that
/// allowed the mate is a blunder, for either player and a spectator alike.
async fn a_finished_table_game_is_reviewed(db: TestDb) {
    let srv = start(&db).await;
    let (white, black, id) = seated(&srv, casual()).await;
    let (mut w, mut b) = (ws(&white, &id).await, ws(&black, &id).await);
    for (n, (wm, bm)) in [("f2f3", "e7e5"), ("g2g4", "d8h4")].into_iter().enumerate() {
        assert_eq!(mv(&mut w, n as u64 + 1, wm).await["t"], "ack");
        assert_eq!(mv(&mut b, n as u64 + 1, bm).await["t"], "ack");
    }
    until(&mut w, ended).await;
    let path = format!("/api/games/{id}/review");
    let r = white.post(&path, "").await.unwrap();
    assert!(matches!(r.status, 200 | 202), "{}", r.text());
    let deadline = std::time::Instant::now() + WAIT;
    let done = loop {
        let v = black.get_value(&path).await;
        if v["status"] == "done" {
            break v;
        }
        assert!(std::time::Instant::now() < deadline, "review not done: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let g4 = &done["review"]["moves"][2];
    assert_eq!(
        (&g4["san"], &g4["label"]),
        (&json!("g4"), &json!("blunder")),
        "{g4}"
    );
    let spectator = srv.client().get_value(&path).await;
    assert_eq!(
        spectator["review"], done["review"],
        "stored once, the same for all"
    );
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    a_finished_table_game_is_reviewed,
    the_lobby_socket_follows_tables_opening_and_filling,
    tables_open_join_and_checkmate,
    draw_offers_go_with_moves,
    a_move_made_after_the_tab_lost_focus_is_marked,
    a_draw_offer_declined_in_words_is_gone_for_good,
    threefold_ends_by_itself_or_is_claimed,
    abort_leave_and_the_first_move_deadline,
    an_away_player_can_come_back_or_be_claimed_against,
    an_abandoned_game_writes_nothing_while_both_are_away,
    opening_tables_is_limited_and_the_cap_holds_under_races,
    the_lobby_socket_refuses_big_frames,
    rematches_swap_colours_and_rated_games_move_ratings,
    a_player_has_at_most_three_open_tables_and_can_close_them,
);
