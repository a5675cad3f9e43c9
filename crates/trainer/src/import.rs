//! Importing lichess's puzzle CSV: every row checked by the rules core
//! (`plyyard_puzzle::Reader`), good rows stored in batches (idempotent:
//! ids already stored are skipped), bad rows counted and reported.
//!
//! Reading and checking run on a thread of their own while the previous
//! batch is being stored, so that the rules core and the database work at
//! the same time (two cores); at most [`AHEAD`] checked batches wait. On
//! PostgreSQL two batches are stored at once, each in a transaction of
//! its own (`Store::bulk_writers`): the server works on both cores.

use std::io::Read;

use plyyard_puzzle::{Puzzle, Reader, RowError};
use plyyard_store::{Backend, NewPuzzle, PuzzleRow, Store, StoreError};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

/// Rows stored per transaction on PostgreSQL.
pub const BATCH: usize = 4_000;
/// Rows stored per transaction on SQLite: each commit writes every page
/// it changed to the WAL and back, and the angle index's entries land all
/// over it, so larger transactions share more of those pages.
pub const SQLITE_BATCH: usize = 32_000;
/// Checked batches waiting for the store at most.
const AHEAD: usize = 2;
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

/// Rows checked by the reading thread: the good ones as the store's rows,
/// the bad ones with their reasons.
#[derive(Debug, Default)]
struct Checked {
    rows: u64,
    good: Vec<NewPuzzle>,
    bad: Vec<RowError>,
}

/// Imports the CSV `source` into `store`; `refused` hears of each bad row.
///
/// # Errors
/// A header without lichess's columns, or a store failure (the batches
/// stored before it stay: running the import again completes it).
pub async fn import<R: Read + Send + 'static>(
    store: &Store,
    source: R,
    mut refused: impl FnMut(&RowError),
) -> Result<ImportReport, ImportFailure> {
    let reader = Reader::new(source).map_err(|e| ImportFailure::Header(e.to_string()))?;
    let (tx, mut rx) = mpsc::channel(AHEAD);
    let batch = match store.backend() {
        Backend::Sqlite => SQLITE_BATCH,
        Backend::Postgres => BATCH,
    };
    let checker = tokio::task::spawn_blocking(move || check_all(reader, batch, &tx));
    let mut report = ImportReport::default();
    let mut writing: JoinSet<(Result<u64, StoreError>, u64)> = JoinSet::new();
    let mut open = true;
    while open || !writing.is_empty() {
        if open && writing.len() < store.bulk_writers() {
            let Some(checked) = rx.recv().await else {
                open = false;
                continue;
            };
            report.rows += checked.rows;
            for e in &checked.bad {
                report.refused += 1;
                refused(e);
            }
            if !checked.good.is_empty() {
                let store = store.clone();
                writing.spawn(async move {
                    let added = store.insert_puzzles(&checked.good).await;
                    (added, checked.good.len() as u64)
                });
            }
            continue;
        }
        if let Some(done) = writing.join_next().await {
            let (added, good) = done.map_err(|e| ImportFailure::Writer(e.to_string()))?;
            let added = added?;
            report.imported += added;
            report.already += good - added;
        }
    }
    checker
        .await
        .map_err(|e| ImportFailure::Reader(e.to_string()))?;
    Ok(report)
}

/// Reads and checks every row, sending a batch each `batch` good rows
/// (and the last one); stops early when the importer has stopped.
fn check_all<R: Read>(reader: Reader<R>, batch: usize, tx: &mpsc::Sender<Checked>) {
    let mut checked = Checked::default();
    for row in reader {
        checked.rows += 1;
        match row {
            Ok(p) => {
                let origin = if plyyard_puzzle::puzzle::is_own_id(&p.id) {
                    "plyyard"
                } else {
                    "lichess"
                };
                checked.good.push(new_puzzle(&p, origin));
            }
            Err(e) => checked.bad.push(e),
        }
        if (checked.good.len() == batch || checked.bad.len() == batch)
            && tx.blocking_send(std::mem::take(&mut checked)).is_err()
        {
            return;
        }
    }
    let _ = tx.blocking_send(checked);
}

/// Why an import stopped.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The file is not lichess's puzzle CSV.
    #[error("not a lichess puzzle CSV: {0}")]
    Header(String),
    /// The reading thread failed.
    #[error("reading the CSV failed: {0}")]
    Reader(String),
    /// A task storing a batch failed.
    #[error("storing a batch failed: {0}")]
    Writer(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}
