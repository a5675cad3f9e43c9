//! Sitting down at tables: a host opens one (a fresh code, at most
//! [`MAX_OPEN`] open at once), a guest joins it (its game starts) or the
//! host closes it; public tables come and go in the lobby as they do. Who
//! may ask, and how often, is the caller's to check first.

use plyyard_store::{PlayerId, StoreError, TableRow, TableStatus, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode, echo};

use crate::Pairing;
use crate::listing::{self, LobbyJson};
use crate::lobby::LobbyMsg;
use crate::tables::{MAX_OPEN, NewTable, OPEN_FOR, TableJson, new_code, normalize_code};

/// How many codes opening a table draws before it gives up (a fresh code
/// is taken once in about 10^8 draws).
const CODE_TRIES: usize = 5;

fn no_table(code: &str) -> ApiError {
    ApiError::new(ErrorCode::NotFound, format!("no table {}", echo(code)))
}

/// Why a table cannot be joined, as it stands.
fn refused(t: &TableRow) -> ApiError {
    match t.status {
        TableStatus::Playing => ApiError::new(ErrorCode::TableTaken, "someone else sat down first"),
        _ => ApiError::new(ErrorCode::TableClosed, "this table is closed"),
    }
}

impl Pairing {
    /// The table of `code` as typed (spaces, dashes and case ignored).
    ///
    /// # Errors
    /// `not_found`; a database failure.
    pub async fn table(&self, code: &str) -> Result<TableRow, ApiError> {
        let code = normalize_code(code).ok_or_else(|| no_table(code))?;
        self.store
            .table(&code)
            .await?
            .ok_or_else(|| no_table(&code))
    }

    /// The table as clients see it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn table_json(&self, t: &TableRow) -> Result<TableJson, ApiError> {
        listing::table_json(&self.store, t).await
    }

    /// `host` opens a table as `req` asks; a public one shows in the lobby.
    ///
    /// # Errors
    /// `bad_request` for a time control not played here; `too_many_tables`
    /// with [`MAX_OPEN`] open already; a database failure.
    pub async fn open_table(&self, host: &str, req: &NewTable) -> Result<TableJson, ApiError> {
        let control = req.time_control()?;
        let now = now_ms();
        let expires_at = now + i64::try_from(OPEN_FOR.as_millis()).unwrap_or(i64::MAX);
        let mut row = TableRow {
            code: new_code(),
            host: host.to_owned(),
            guest: None,
            variant: req.variant,
            base_s: control.base_secs(),
            increment_s: control.increment_secs(),
            rules: req.rules,
            rated: req.rated,
            public: req.public,
            status: TableStatus::Open,
            game_id: None,
            created_at: now,
            expires_at,
        };
        for attempt in 0.. {
            match self.store.insert_table(&row, MAX_OPEN).await {
                Ok(true) => break,
                Ok(false) => {
                    return Err(ApiError::new(
                        ErrorCode::TooManyTables,
                        format!("at most {MAX_OPEN} open tables at once"),
                    ));
                }
                Err(StoreError::Taken(_)) if attempt < CODE_TRIES => row.code = new_code(),
                Err(e) => return Err(e.into()),
            }
        }
        let json = self.table_json(&row).await?;
        if row.public {
            self.lobby.publish(&LobbyMsg::Add {
                table: Box::new(json.clone()),
            });
        }
        Ok(json)
    }

    /// `guest` sits down at table `t`: its game starts, and the table
    /// leaves the lobby.
    ///
    /// # Errors
    /// `own_table`; `table_taken` or `table_closed` when it is no longer
    /// open (also when someone else sat down meanwhile); a database
    /// failure.
    pub async fn join_table(&self, t: &TableRow, guest: &PlayerId) -> Result<TableJson, ApiError> {
        if t.host == guest.0 {
            return Err(ApiError::new(ErrorCode::OwnTable, "this is your own table"));
        }
        if t.status != TableStatus::Open || t.expires_at <= now_ms() {
            return Err(refused(t));
        }
        if self.live.start_table_game(t, guest).await?.is_none() {
            let now = self.table(&t.code).await?;
            return Err(refused(&now));
        }
        self.lobby.publish(&LobbyMsg::Remove {
            code: t.code.clone(),
        });
        let t = self.table(&t.code).await?;
        self.table_json(&t).await
    }

    /// `host` closes their open table `t`.
    ///
    /// # Errors
    /// `forbidden` for someone else's table; `table_taken` when it is no
    /// longer open; a database failure.
    pub async fn close_table(&self, t: &TableRow, host: &str) -> Result<(), ApiError> {
        if t.host != host {
            return Err(ApiError::forbidden("only the host may close a table"));
        }
        if !self.store.close_table(&t.code).await? {
            return Err(ApiError::new(
                ErrorCode::TableTaken,
                "the table is no longer open",
            ));
        }
        self.lobby.publish(&LobbyMsg::Remove {
            code: t.code.clone(),
        });
        Ok(())
    }

    /// The lobby: the open public tables and the waiting seeks.
    ///
    /// # Errors
    /// A database failure.
    pub async fn lobby_json(&self) -> Result<LobbyJson, ApiError> {
        Ok(LobbyJson {
            tables: listing::open_tables(&self.store).await?,
            seeks: self.seeks.lobby_json().await,
        })
    }
}
