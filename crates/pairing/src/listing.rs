//! The JSON of stored tables as clients see them: each with its host's
//! name and rating, and the lobby's list of open public tables.

use serde::Serialize;

use crate::tables::{HostJson, TableJson};
use plyyard_store::{SeatInfo, Store, TableRow, now_ms};
use plyyard_wire::error::ApiError;

/// Tables listed in the lobby.
const LOBBY_SIZE: u32 = 100;

/// The JSON of a stored table, with its host's name and rating.
///
/// # Errors
/// A database failure.
pub async fn table_json(store: &Store, t: &TableRow) -> Result<TableJson, ApiError> {
    let mut one = tables_json(store, std::slice::from_ref(t)).await?;
    Ok(one.remove(0))
}

/// [`table_json`] of several tables, their hosts' names and ratings read
/// in one query each.
async fn tables_json(store: &Store, tables: &[TableRow]) -> Result<Vec<TableJson>, ApiError> {
    let mut hosts: Vec<&str> = tables.iter().map(|t| t.host.as_str()).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let names = store.seat_infos(&hosts).await?;
    let ratings = store.ratings_of(&hosts).await?;
    let now = now_ms();
    tables
        .iter()
        .map(|t| {
            let name = match names.get(&t.host) {
                Some(SeatInfo::User(n)) => n.clone(),
                _ => String::from("?"),
            };
            let speed = plyyard_game::TimeControl::from_secs(t.base_s, t.increment_s)
                .map_err(|e| ApiError::internal(format!("table {}: {e}", t.code)))?
                .speed();
            let r = ratings
                .get(&(t.host.clone(), speed))
                .copied()
                .unwrap_or_default();
            let host = HostJson {
                name,
                rating: plyyard_rating::display(r.at(now).rating),
                provisional: r.provisional(),
            };
            Ok(TableJson::new(t, host))
        })
        .collect()
}

/// The lobby's JSON (`GET /api/lobby`).
#[derive(Serialize)]
pub struct LobbyJson {
    /// The open public tables, newest first.
    pub tables: Vec<TableJson>,
    /// The waiting seeks (quick pairing), oldest first.
    pub seeks: Vec<crate::seek_json::SeekJson>,
}

/// The lobby's list: the open public tables, newest first.
///
/// # Errors
/// A database failure.
pub async fn open_tables(store: &Store) -> Result<Vec<TableJson>, ApiError> {
    let tables = store.lobby(now_ms(), LOBBY_SIZE).await?;
    tables_json(store, &tables).await
}
