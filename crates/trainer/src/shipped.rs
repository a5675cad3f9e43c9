//! Ply Yard's own puzzles, shipped inside the binary: `data/puzzles.csv.gz`
//! (lichess's CSV columns, gzip, sorted by id), made by `plyyard puzzles
//! generate` and `plyyard puzzles pack`, loaded into the store once.

use std::io::Read;

use plyyard_store::Store;

use crate::ImportReport;
use crate::import::{self, ImportFailure};

/// The shipped file, gzip-compressed CSV.
pub const FILE: &[u8] = include_bytes!("../../../data/puzzles.csv.gz");

/// The shipped CSV, decompressed.
///
/// # Errors
/// The file is not gzip (a broken build).
pub fn csv() -> std::io::Result<String> {
    gunzip(FILE)
}

fn gunzip(gz: &[u8]) -> std::io::Result<String> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz).read_to_string(&mut text)?;
    Ok(text)
}

/// Loads the shipped puzzles into `store` unless there are none or they
/// are there already (the file's last id, the highest, is stored): then
/// `None`. Importing again is harmless too, as stored ids are skipped.
///
/// # Errors
/// A broken file or a store failure.
pub async fn load(store: &Store) -> Result<Option<ImportReport>, ImportFailure> {
    load_file(store, FILE).await
}

/// [`load`] for the gzip CSV `gz`.
///
/// # Errors
/// Not gzip, not lichess's columns, or a store failure.
pub async fn load_file(store: &Store, gz: &[u8]) -> Result<Option<ImportReport>, ImportFailure> {
    let text = gunzip(gz).map_err(|e| ImportFailure::Header(e.to_string()))?;
    let last = text
        .lines()
        .last()
        .and_then(|l| l.split(',').next())
        .unwrap_or_default();
    // No rows (`last` is the header's first column), or already stored.
    if last == "PuzzleId" || last.is_empty() || store.puzzle(last).await?.is_some() {
        return Ok(None);
    }
    let report = import::import(store, std::io::Cursor::new(text), |_| {}).await?;
    Ok(Some(report))
}
