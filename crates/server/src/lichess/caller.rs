//! Who calls a Lichess-API endpoint: an account by its token (with the
//! token's scopes) or by its session cookie (the web app, which may do
//! anything its account may), the scope checks every endpoint makes, and
//! which of the Board and Bot APIs the account may play through.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use plyyard_wire::lichess::Scope;

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

/// The two ways to play through the API: the Board API (people, with
/// `board:play`) and the Bot API (bot accounts, with `bot:play`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `/api/board/…`.
    Board,
    /// `/api/bot/…`.
    Bot,
}

impl Caller {
    /// Passes when the caller may play through `api`: the scope, then the
    /// kind of account (bots play through the Bot API only, people through
    /// the Board API only).
    ///
    /// # Errors
    /// 403 `Missing scope: …`; 400 for the wrong kind of account.
    pub fn require_api(&self, api: Api) -> Result<(), LiError> {
        match api {
            Api::Board => {
                self.require(&[Scope::BoardPlay])?;
                if self.account.bot {
                    return Err(LiError::bad_request(
                        "This endpoint cannot be used with a Bot account: use the Bot API (/api/bot/…)",
                    ));
                }
            }
            Api::Bot => {
                self.require(&[Scope::BotPlay])?;
                if !self.account.bot {
                    return Err(LiError::bad_request(
                        "This endpoint can only be used with a Bot account: upgrade it with POST /api/bot/account/upgrade",
                    ));
                }
            }
        }
        Ok(())
    }

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

/// The account behind a request when there is one (a token or a session),
/// for the endpoints anyone may call that say more to a member.
#[derive(Debug, Clone)]
pub struct MaybeCaller(pub Option<Caller>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeCaller {
    type Rejection = LiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeCaller, LiError> {
        Ok(MaybeCaller(
            Caller::from_request_parts(parts, state).await.ok(),
        ))
    }
}

/// Who reads a public endpoint, for its limit: the address and, when the
/// request is logged in (a token or a session), the account.
#[derive(Debug, Clone)]
pub struct Reader {
    /// The client's address.
    pub ip: crate::security::ClientIp,
    /// The account, if any.
    pub account: Option<crate::security::AccountKey>,
}

impl Reader {
    /// Counts `units` reads against the reader's address and account.
    ///
    /// # Errors
    /// 429 with `Retry-After` when either has used up its reads.
    pub async fn count(&self, limits: &crate::security::Limits, units: u32) -> Result<(), LiError> {
        limits
            .check_api_reads(self.ip, self.account.as_ref(), units)
            .await
            .map_err(|r| LiError::from(crate::error::ApiError::from(r)))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Reader {
    type Rejection = LiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Reader, LiError> {
        let ip = parts
            .extensions
            .get::<crate::security::ClientIp>()
            .copied()
            .unwrap_or(crate::security::ClientIp(std::net::IpAddr::from([
                0, 0, 0, 0,
            ])));
        Ok(Reader {
            ip,
            account: parts
                .extensions
                .get::<crate::security::AccountKey>()
                .cloned(),
        })
    }
}
