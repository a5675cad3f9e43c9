//! What many modules of this binary need: accounts and tokens made
//! through the API, as a visitor would.

use serde_json::{Value, json};
use testkit::{Client, TestServer};

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
