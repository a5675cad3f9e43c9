//! Who calls a Lichess-API endpoint: an account by its token (with the
//! token's scopes) or by its session cookie (the web app, which may do
//! anything its account may), and the scope checks every endpoint makes.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use wire::lichess::Scope;

use super::error::LiError;
use crate::bearer::TokenAuth;
use crate::identity::Session;
use plyyard_store::Account;

/// The account behind a Lichess-API request.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The account.
    pub account: Account,
    /// The token, when the request came with one (`None`: a session).
    pub token: Option<TokenAuth>,
}

impl Caller {
    /// Passes when the request may use any of `scopes`: a session always
    /// may; a token must carry one of them.
    ///
    /// # Errors
    /// 403 `Missing scope: …`.
    pub fn require(&self, scopes: &[Scope]) -> Result<(), LiError> {
        match &self.token {
            Some(t) if !t.scopes.any_of(scopes) => {
                let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
                Err(LiError::missing_scope(&names.join(" or ")))
            }
            _ => Ok(()),
        }
    }

    /// The account's lichess-style id: its name in lower case.
    pub fn id(&self) -> String {
        self.account.username.to_lowercase()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = LiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Caller, LiError> {
        if let Some(token) = parts.extensions.get::<TokenAuth>() {
            return Ok(Caller {
                account: token.account.clone(),
                token: Some(token.clone()),
            });
        }
        match parts.extensions.get::<Option<Session>>() {
            Some(Some(s)) => Ok(Caller {
                account: s.account.clone(),
                token: None,
            }),
            _ => Err(LiError::unauthorized()),
        }
    }
}
