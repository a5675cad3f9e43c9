//! What many modules of this binary need: accounts and tokens made
//! through the API, as a visitor would, staff roles given as the
//! operator's command line does, and JSON calls.

use plyyard_store::Store;
use plyyard_testkit::{Client, Method, TestDb, TestServer};
use serde_json::{Value, json};

/// `plyyard admin role`'s work: `name` gets `role` straight in the store.
pub async fn grant(db: &TestDb, name: &str, role: &str) {
    let store = Store::open(db.url()).await.unwrap();
    let a = store.account_named(name).await.unwrap().unwrap();
    store
        .set_staff_role(None, &a.player_id, Some(role), plyyard_store::now_ms())
        .await
        .unwrap();
    store.close().await;
}

/// `method path` with a JSON `body`: (status, JSON body or null).
pub async fn call(c: &Client, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string());
    let r = c.request(method, path, body.as_deref()).await.unwrap();
    (r.status, r.json::<Value>().unwrap_or(Value::Null))
}

/// The password of the accounts the tests sign up.
pub const PASSWORD: &str = "Knight-f3 takes e5!";

/// Signs `c` up as `name` (its cookies then keep it signed in).
pub async fn sign_up(c: &Client, name: &str) {
    let r = c
        .post_json(
            "/api/account/signup",
            &json!({"username": name, "password": PASSWORD}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "sign-up on {}: {}", c.addr(), r.text());
}

/// A new visitor of `srv` signed up as `name`.
pub async fn account(srv: &TestServer, name: &str) -> Client {
    let c = srv.client();
    sign_up(&c, name).await;
    c
}

/// A new API token of `c`'s account with `scopes`.
pub async fn token(c: &Client, scopes: &[&str]) -> String {
    let r = c
        .post_json(
            "/api/account/tokens",
            &json!({"description": "test program", "scopes": scopes}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    r.json::<Value>().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Opens a table of `body` as `host`; returns its code.
pub async fn open_table(host: &Client, body: &Value) -> String {
    let r = host.post_json("/api/tables", body).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    r.json::<Value>().unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Sits `guest` at table `code`; returns the game's id.
pub async fn join_table(guest: &Client, code: &str) -> String {
    let r = guest
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json::<Value>().unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// How long a stream's next line may take.
const STREAM_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// An NDJSON stream of the API (an account's events, a game's states)
/// read line by line.
pub struct Stream {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Stream {
    /// `path` streamed with `token` from `srv`.
    pub async fn open(srv: &TestServer, token: &str, path: &str) -> Stream {
        Stream::open_at(&srv.client(), token, path).await
    }

    /// `path` streamed with `token` from the server `c` points at.
    pub async fn open_at(c: &Client, token: &str, path: &str) -> Stream {
        let resp = reqwest::Client::new()
            .get(c.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        Stream::from_response(resp)
    }

    /// The stream of a response already received.
    pub fn from_response(resp: reqwest::Response) -> Stream {
        Stream {
            resp,
            buf: Vec::new(),
        }
    }

    /// The next line (`None` at the end of the stream); empty lines too.
    pub async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(line[..i].to_vec()).unwrap());
            }
            let chunk = tokio::time::timeout(STREAM_WAIT, self.resp.chunk())
                .await
                .expect("a line within the wait")
                .unwrap()?;
            self.buf.extend_from_slice(&chunk);
        }
    }

    /// The next non-empty line as JSON.
    pub async fn event(&mut self) -> Value {
        loop {
            let l = self.line().await.expect("the stream goes on");
            if !l.is_empty() {
                return serde_json::from_str(&l).unwrap();
            }
        }
    }
}
