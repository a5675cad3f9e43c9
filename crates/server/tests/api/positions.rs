//! The positions API over real HTTP: `inspect` on fixed positions (mate,
//! stalemate, insufficient material, en passant, castling, promotions,
//! threats of mate and of material, refused FENs worded as `plyyard replay`
//! words them), `inspect` against the rules core's move list on hundreds of
//! positions from random games, and `reply` (the engine's answer to a
//! candidate move, its game-ending and illegal cases, its rate limit).

use plyyard_game::shakmaty::{CastlingMode, Chess, Move, Position};
use plyyard_game::{Game, RuleSet, notation};
use plyyard_server::Tuning;
use plyyard_server::security::Quotas;
use plyyard_testkit::{Backend, Client, TestServer, run_on};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

fn with_server(tuning: Tuning, test: impl AsyncFnOnce(&Client)) {
    run_on(Backend::Sqlite, async |db| {
        let s = TestServer::start_with(db.url(), tuning).await;
        test(&s.client()).await;
        s.stop().await;
    });
}

async fn inspect(c: &Client, fen: &str) -> Value {
    let r = c
        .post_json("/api/positions/inspect", &json!({ "fen": fen }))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{fen}: {}", r.text());
    r.json().unwrap()
}

async fn refused(c: &Client, fen: &str) -> String {
    let r = c
        .post_json("/api/positions/inspect", &json!({ "fen": fen }))
        .await
        .unwrap();
    assert_eq!(r.status, 422, "{fen}: {}", r.text());
    let v: Value = r.json().unwrap();
    assert_eq!(v["valid"], false);
    v["error"].as_str().unwrap().to_owned()
}

fn list(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// The threats of an inspection as (UCI, kind, gain).
fn threats(v: &Value) -> Vec<(&str, &str, u64)> {
    v["threats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["uci"].as_str().unwrap(),
                t["kind"].as_str().unwrap(),
                t["gain"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn inspect_reports_status_turn_checks_captures_and_threats() {
    with_server(plyyard_testkit::tuning(0.05), async |c| {
        let v = inspect(
            c,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .await;
        for (key, want) in [
            ("valid", json!(true)),
            ("status", json!("ongoing")),
            ("turn", json!("white")),
            ("checks", json!([])),
            ("captures", json!([])),
            ("threats", json!([])),
        ] {
            assert_eq!(v[key], want, "{key}");
        }

        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let v = inspect(c, mate).await;
        assert_eq!(v["status"], "checkmate");
        assert_eq!(v["checks"], json!([]));
        assert_eq!(v["threats"], json!([]), "no threats while in check");

        let v = inspect(c, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").await;
        assert_eq!(
            (&v["status"], &v["turn"]),
            (&json!("stalemate"), &json!("black"))
        );
        let mates = v["threats"].as_array().unwrap();
        assert!(mates.iter().all(|t| t["kind"] == "mate" && t["gain"] == 0));
        let ucis: Vec<&str> = mates.iter().map(|t| t["uci"].as_str().unwrap()).collect();
        assert!(
            ucis.contains(&"f7g7") && !ucis.contains(&"f7g8"),
            "{ucis:?}"
        );
        assert!(ucis.is_sorted());

        let v = inspect(c, "8/8/4k3/8/8/3BK3/8/8 w - - 0 1").await;
        assert_eq!(v["status"], "insufficient_material");

        let v = inspect(c, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").await;
        assert_eq!(list(&v["captures"]), ["e5d6"]);

        let v = inspect(c, "5k2/8/8/8/8/8/8/4K2R w K - 0 1").await;
        assert_eq!(list(&v["checks"]), ["e1g1", "h1f1", "h1h8"]);

        let v = inspect(c, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").await;
        assert_eq!(list(&v["captures"]), ["a7b8b", "a7b8n", "a7b8q", "a7b8r"]);
        assert_eq!(list(&v["checks"]), ["a7b8q", "a7b8r"]);

        // 3.Qh5: White threatens Qxf7#, and Bxf7+ wins a pawn.
        let v = inspect(
            c,
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
        )
        .await;
        assert_eq!(
            threats(&v),
            [("c4f7", "material", 100), ("h5f7", "mate", 0)]
        );

        // The knight on c3 hangs to the bishop; with a pawn on b2 it does not.
        let v = inspect(c, "4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 1").await;
        assert_eq!(threats(&v), [("b4c3", "material", 300)]);
        let v = inspect(c, "4k3/8/8/8/1b6/2N5/1P6/4K3 w - - 0 1").await;
        assert_eq!(v["threats"], json!([]));
    });
}

#[test]
fn inspect_refuses_bad_fens_as_plyyard_replay_does() {
    with_server(plyyard_testkit::tuning(0.05), async |c| {
        for fen in [
            "not a fen",
            "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KQkqK - 0 1",
        ] {
            let want = Game::from_fen(fen, RuleSet::default())
                .unwrap_err()
                .to_string();
            assert_eq!(refused(c, fen).await, want);
        }
        let error = refused(c, "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1").await;
        assert!(
            error.contains("the side not to move is in check"),
            "{error}"
        );
        let long = format!("{} w - - 0 1{}", "4k3/8/8/8/8/8/8/4K3", " ".repeat(200));
        assert!(refused(c, &long).await.contains("at most"));
        let r = c
            .post("/api/positions/inspect", r#"{"pgn":"1. e4"}"#)
            .await
            .unwrap();
        assert_eq!(r.status, 400, "{}", r.text());
    });
}

/// The legal moves of `pos` that satisfy `keep`, as sorted UCI.
fn expected(pos: &Chess, keep: impl Fn(Move) -> bool) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| keep(m))
        .map(|m| notation::uci(m, CastlingMode::Standard))
        .collect();
    v.sort();
    v
}

#[test]
fn inspect_never_disagrees_with_the_rules_core() {
    with_server(plyyard_testkit::tuning(0.05), async |c| {
        let mut rng = StdRng::seed_from_u64(38);
        let mut seen = 0;
        while seen < 400 {
            let mut pos = Chess::default();
            for _ in 0..rng.random_range(1..160) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let fen = plyyard_game::shakmaty::fen::Fen::from_position(
                &pos,
                plyyard_game::shakmaty::EnPassantMode::Legal,
            )
            .to_string();
            let v = inspect(c, &fen).await;
            seen += 1;
            let gives_check = |m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                after.is_check()
            };
            assert_eq!(list(&v["checks"]), expected(&pos, gives_check), "{fen}");
            assert_eq!(
                list(&v["captures"]),
                expected(&pos, Move::is_capture),
                "{fen}"
            );
            let status = if pos.is_checkmate() {
                "checkmate"
            } else if pos.is_stalemate() {
                "stalemate"
            } else if pos.is_insufficient_material() {
                "insufficient_material"
            } else {
                "ongoing"
            };
            assert_eq!(v["status"], status, "{fen}");
            let moves: Vec<&str> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["uci"].as_str().unwrap())
                .collect();
            assert_eq!(moves, expected(&pos, |_| true), "{fen}");
            let flipped = pos.clone().swap_turn().ok();
            for t in v["threats"].as_array().unwrap() {
                let flipped = flipped.as_ref().expect("threats only when not in check");
                let uci: plyyard_game::shakmaty::uci::UciMove =
                    t["uci"].as_str().unwrap().parse().unwrap();
                let m = uci
                    .to_move(flipped)
                    .expect("a threat is legal for the opponent");
                let mut after = flipped.clone();
                after.play_unchecked(m);
                match t["kind"].as_str().unwrap() {
                    "mate" => assert!(after.is_checkmate(), "{fen}: {t}"),
                    _ => assert!(
                        m.is_capture() && t["gain"].as_u64().unwrap() > 0,
                        "{fen}: {t}"
                    ),
                }
            }
        }
    });
}

async fn reply(c: &Client, fen: &str, uci: &str) -> (u16, Value) {
    let r = c
        .post_json("/api/positions/reply", &json!({ "fen": fen, "uci": uci }))
        .await
        .unwrap();
    (r.status, r.json().unwrap())
}

#[test]
fn reply_answers_a_candidate_with_the_engines_best_move() {
    with_server(plyyard_testkit::tuning(0.25), async |c| {
        // Qxd5?? hangs the queen: Black takes it back.
        let (status, v) = reply(c, "3qk3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5").await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["uci"], "d8d5");
        assert_eq!(v["san"], "Qxd5");
        assert_eq!(v["line"][0], "Qxd5");
        let cp = v["score"]["cp"].as_i64();
        let mate = v["score"]["mate"].as_i64();
        assert!(
            cp.is_some_and(|cp| cp > 500) || mate.is_some_and(|n| n > 0),
            "{v}"
        );

        let fools = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        let (status, v) = reply(c, fools, "d8h4").await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v, json!({"uci": null, "status": "checkmate"}));

        let (status, v) = reply(c, fools, "d8d4").await;
        assert_eq!(status, 422, "{v}");
        assert_eq!(v["error"]["code"], "illegal_move");
        let (status, v) = reply(c, "not a fen", "e2e4").await;
        assert_eq!(status, 400, "{v}");
    });
}

#[test]
fn replies_are_limited_per_client() {
    let tuning = Tuning {
        quotas: Quotas {
            replies_per_minute: 2,
            ..Quotas::default()
        },
        ..plyyard_testkit::tuning(0.05)
    };
    with_server(tuning, async |c| {
        let fools = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        for _ in 0..2 {
            assert_eq!(reply(c, fools, "d8h4").await.0, 200);
        }
        let (status, v) = reply(c, fools, "d8h4").await;
        assert_eq!(status, 429, "{v}");
        assert_eq!(v["error"]["code"], "rate_limited");
        // Inspecting is not engine work and stays free.
        inspect(c, fools).await;
    });
}
