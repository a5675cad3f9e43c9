//! The site's settings over HTTP, on SQLite and PostgreSQL: read by
//! anyone, changed by admins only (403 for players and moderators, 400 for
//! bad settings with nothing changed); sign-ups open, closed, or by
//! invitation (a code used once, in the sign-up's transaction: a refused
//! sign-up neither takes the name nor uses the code); every change logged.

use crate::support::{PASSWORD, account, call, grant};
use plyyard_testkit::{Method, TestDb, TestServer};
use serde_json::{Value, json};

async fn start(db: &TestDb) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.quotas.signups_per_hour = 100;
    TestServer::start_with(db.url(), tuning).await
}

/// A new visitor signing up as `name` (with `invite`): status and body.
async fn sign_up(srv: &TestServer, name: &str, invite: Option<&str>) -> (u16, Value) {
    let mut body = json!({"username": name, "password": PASSWORD});
    if let Some(code) = invite {
        body["invite"] = json!(code);
    }
    call(
        &srv.client(),
        Method::POST,
        "/api/account/signup",
        Some(body),
    )
    .await
}

async fn settings_are_read_by_all_and_changed_by_admins(db: TestDb) {
    let srv = start(&db).await;
    let (status, site) = call(&srv.client(), Method::GET, "/api/site", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        site,
        json!({"name": "Ply Yard", "contact": "", "signups": "open"})
    );

    let ada = account(&srv, "Ada").await;
    let mo = account(&srv, "Moe").await;
    let eve = account(&srv, "Eve").await;
    grant(&db, "Ada", "admin").await;
    grant(&db, "Moe", "moderator").await;
    let wanted = json!({"name": "Chess Club", "contact": "board@example.org", "signups": "closed"});
    for (who, c) in [
        ("anonymous", &srv.client()),
        ("a player", &eve),
        ("a moderator", &mo),
    ] {
        let (status, _) = call(c, Method::POST, "/api/mod/site", Some(wanted.clone())).await;
        assert_eq!(status, 403, "{who}");
        let (status, _) = call(c, Method::GET, "/api/mod/site", None).await;
        assert_eq!(status, 403, "{who}");
        let (status, _) = call(c, Method::POST, "/api/mod/invites", None).await;
        assert_eq!(status, 403, "{who}");
    }
    for bad in [
        json!({"name": " ", "signups": "open"}),
        json!({"name": "x".repeat(41), "signups": "open"}),
        json!({"name": "Club", "contact": "c".repeat(201), "signups": "open"}),
        json!({"name": "Two\nlines", "signups": "open"}),
        json!({"name": "Club", "signups": "sometimes"}),
        json!({"name": "Club"}),
        json!({"name": "Club", "signups": "open", "theme": "dark"}),
    ] {
        let (status, body) = call(&ada, Method::POST, "/api/mod/site", Some(bad.clone())).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (_, site) = call(&srv.client(), Method::GET, "/api/site", None).await;
    assert_eq!(site["name"], "Ply Yard", "nothing changed");

    let (status, body) = call(&ada, Method::POST, "/api/mod/site", Some(wanted.clone())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["settings"], wanted);
    let (_, site) = call(&srv.client(), Method::GET, "/api/site", None).await;
    assert_eq!(site, wanted);
    let (status, body) = sign_up(&srv, "Late", None).await;
    assert_eq!(
        (status, body["error"]["reason"].clone()),
        (403, json!("signups_closed")),
        "{body}"
    );
    let (_, log) = call(&mo, Method::GET, "/api/mod/log", None).await;
    assert!(log.to_string().contains("settings"), "{log}");
    srv.stop().await;
}

async fn sign_ups_by_invitation_use_each_code_once(db: TestDb) {
    let srv = start(&db).await;
    let ada = account(&srv, "Ada").await;
    grant(&db, "Ada", "admin").await;
    let invite_only = json!({"name": "Ply Yard", "signups": "invite"});
    let (status, _) = call(&ada, Method::POST, "/api/mod/site", Some(invite_only)).await;
    assert_eq!(status, 200);

    let (status, body) = sign_up(&srv, "Newcomer", None).await;
    assert_eq!(
        (status, body["error"]["reason"].clone()),
        (403, json!("invite_needed")),
        "{body}"
    );
    let (status, body) = sign_up(&srv, "Newcomer", Some("NOSUCHCODE")).await;
    assert_eq!(
        (status, body["error"]["reason"].clone()),
        (403, json!("invite_refused")),
        "{body}"
    );
    let (status, body) = sign_up(&srv, "Newcomer", Some(&"x".repeat(500))).await;
    assert_eq!(status, 403, "{body}");

    let (status, made) = call(&ada, Method::POST, "/api/mod/invites", None).await;
    assert_eq!(status, 201, "{made}");
    let code = made["code"].as_str().unwrap().to_owned();
    assert_eq!(made["path"], format!("/signup?invite={code}"));
    // The refused sign-ups took neither the name nor the code.
    let (status, body) = sign_up(&srv, "Newcomer", Some(&code)).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = sign_up(&srv, "Second", Some(&code)).await;
    assert_eq!(
        (status, body["error"]["reason"].clone()),
        (403, json!("invite_refused")),
        "{body}"
    );
    // Nor did that one take its name.
    let (_, admin) = call(&ada, Method::GET, "/api/mod/site", None).await;
    let invites = admin["invites"].as_array().unwrap();
    assert_eq!(invites.len(), 1, "{admin}");
    assert_eq!(invites[0]["used_by"], "Newcomer");
    assert_eq!(invites[0]["by"], "Ada");

    // Open again: anyone signs up, and a code is not needed (nor used).
    let open = json!({"name": "Ply Yard", "signups": "open"});
    assert_eq!(
        call(&ada, Method::POST, "/api/mod/site", Some(open))
            .await
            .0,
        200
    );
    let (status, body) = sign_up(&srv, "Second", None).await;
    assert_eq!(status, 201, "{body}");
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    settings_are_read_by_all_and_changed_by_admins,
    sign_ups_by_invitation_use_each_code_once,
);
