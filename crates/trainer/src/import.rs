//! Importing lichess's puzzle CSV: every row checked by the rules core
//! (`plyyard_puzzle::Reader`), good rows stored in batches (idempotent:
//! ids already stored are skipped), bad rows counted and reported.

use std::io::Read;

use plyyard_puzzle::{Puzzle, Reader, RowError};
use plyyard_store::{NewPuzzle, PuzzleRow, Store, StoreError};

/// Rows stored per transaction.
pub const BATCH: usize = 2_000;
/// The deviation and volatility of a puzzle without its own volatility.
const PUZZLE_VOLATILITY: f64 = 0.09;

/// What an import did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Data rows read.
    pub rows: u64,
    /// Puzzles newly stored.
    pub imported: u64,
    /// Good rows whose puzzle was stored already.
    pub already: u64,
    /// Rows refused (reported to the caller one by one).
    pub refused: u64,
}

/// The store's row of a validated puzzle, from `source`.
pub fn new_puzzle(p: &Puzzle, source: &str) -> NewPuzzle {
    let mut moves = p.opponent_move.clone();
    for m in &p.solution {
        moves.push(' ');
        moves.push_str(m);
    }
    let themes: Vec<&str> = p.themes.iter().map(|t| t.key()).collect();
    let mut angles = vec!["mix".to_owned()];
    angles.extend(themes.iter().map(|t| (*t).to_owned()));
    angles.extend(p.opening_tags.iter().cloned());
    NewPuzzle {
        row: PuzzleRow {
            id: p.id.clone(),
            fen: p.fen.clone(),
            moves,
            initial_ply: i64::from(p.initial_ply),
            rating: f64::from(p.rating),
            deviation: f64::from(p.rating_deviation),
            volatility: PUZZLE_VOLATILITY,
            popularity: i64::from(p.popularity),
            plays: i64::from(p.plays),
            themes: themes.join(" "),
            game_url: p.game_url.clone(),
            opening_tags: p.opening_tags.join(" "),
            source: source.to_owned(),
        },
        angles,
    }
}

/// Imports the CSV `source` into `store`; `refused` hears of each bad row.
///
/// # Errors
/// A header without lichess's columns, or a store failure (the batches
/// stored before it stay: running the import again completes it).
pub async fn import<R: Read>(
    store: &Store,
    source: R,
    mut refused: impl FnMut(&RowError),
) -> Result<ImportReport, ImportFailure> {
    let reader = Reader::new(source).map_err(|e| ImportFailure::Header(e.to_string()))?;
    let mut report = ImportReport::default();
    let mut batch = Vec::with_capacity(BATCH);
    for row in reader {
        report.rows += 1;
        match row {
            Ok(p) => {
                let origin = if plyyard_puzzle::puzzle::is_own_id(&p.id) {
                    "plyyard"
                } else {
                    "lichess"
                };
                batch.push(new_puzzle(&p, origin));
            }
            Err(e) => {
                report.refused += 1;
                refused(&e);
            }
        }
        if batch.len() == BATCH {
            flush(store, &mut batch, &mut report).await?;
        }
    }
    flush(store, &mut batch, &mut report).await?;
    Ok(report)
}

async fn flush(
    store: &Store,
    batch: &mut Vec<NewPuzzle>,
    report: &mut ImportReport,
) -> Result<(), ImportFailure> {
    if batch.is_empty() {
        return Ok(());
    }
    let added = store.insert_puzzles(batch).await?;
    report.imported += added;
    report.already += batch.len() as u64 - added;
    batch.clear();
    Ok(())
}

/// Why an import stopped.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The file is not lichess's puzzle CSV.
    #[error("not a lichess puzzle CSV: {0}")]
    Header(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}
