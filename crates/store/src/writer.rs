//! Group commit of game writes: every change of a game (a move, a take-back,
//! an ending) goes to one writer task, which commits the writes waiting at
//! that moment in one transaction — one disk flush for many games.
//!
//! A batch is written in a few statements for all its games (one update of
//! the summaries, one insert of the moves), since each statement is a round
//! trip to the database (on SQLite, to the connection's thread): per-write
//! statements made that writer the ceiling of a busy node. If any write is
//! refused (a version conflict, a duplicate ply), the batch is rolled back
//! and written again with each write inside its own savepoint, so that the
//! refused write alone is rolled back and reported to its caller while the
//! others commit. A caller hears back only after the batch's commit: an
//! acknowledged change is on disk.

use sqlx::{Acquire as _, AnyPool};
use tokio::sync::{mpsc, oneshot};

use plyyard_game::Reason;

use crate::backend::{Backend, begin_write};
use crate::error::StoreError;
use crate::rows::{GameSummary, MoveRow, version_to_db};

/// Writes waiting for the writer before callers wait.
const QUEUE: usize = 4096;
/// Writes committed in one transaction at most.
const BATCH: usize = 512;

/// What one write changes besides the game's summary.
#[derive(Debug)]
pub(super) enum Op {
    /// Append these moves.
    Append(Vec<MoveRow>),
    /// Delete the moves after this ply.
    Truncate(u32),
    /// Only the summary.
    Summary,
    /// Marks whether the move at `ply` carries a pending draw offer (an
    /// offer made after the move, or declined).
    DrawOffer {
        /// The ply of the move.
        ply: u32,
        /// Offered (`true`) or declined.
        offer: bool,
    },
}

/// One game's write.
#[derive(Debug)]
pub(super) struct Write {
    pub(super) game_id: String,
    pub(super) expected: u64,
    /// The fencing epoch the writer holds (`None`: a node running alone,
    /// which takes no leases).
    pub(super) epoch: Option<i64>,
    pub(super) summary: GameSummary,
    pub(super) op: Op,
    pub(super) done: oneshot::Sender<Result<(), StoreError>>,
}

/// The sending side of the writer task.
#[derive(Debug, Clone)]
pub(super) struct Writer {
    tx: mpsc::Sender<Write>,
}

impl Writer {
    /// Starts the writer task on `pool`.
    pub(super) fn start(pool: AnyPool, backend: Backend) -> Writer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, backend, rx));
        Writer { tx }
    }

    /// Commits `w` (with whatever else is waiting) and returns its result.
    pub(super) async fn write(
        &self,
        game_id: &str,
        expected: u64,
        epoch: Option<i64>,
        summary: &GameSummary,
        op: Op,
    ) -> Result<(), StoreError> {
        let (done, result) = oneshot::channel();
        let w = Write {
            game_id: game_id.to_owned(),
            expected,
            epoch,
            summary: summary.clone(),
            op,
            done,
        };
        self.tx.send(w).await.map_err(|_| closed())?;
        result.await.map_err(|_| closed())?
    }
}

fn closed() -> StoreError {
    StoreError::Db(sqlx::Error::PoolClosed)
}

async fn run(pool: AnyPool, backend: Backend, mut rx: mpsc::Receiver<Write>) {
    let mut batch = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        commit(&pool, backend, &mut batch).await;
    }
}

/// Commits the writes of `batch` in one transaction and answers each of
/// them. All together first, in a few statements for the whole batch
/// ([`together`]); if any write is refused there, nothing of the batch is
/// kept and it is committed again one write at a time ([`one_by_one`]),
/// so that the refused write alone fails.
async fn commit(pool: &AnyPool, backend: Backend, batch: &mut Vec<Write>) {
    let outcome = match together(pool, backend, batch).await {
        Ok(true) => Ok(batch.iter().map(|_| Ok(())).collect()),
        Ok(false) => one_by_one(pool, backend, batch).await,
        Err(e) => Err(e),
    };
    let mut results = match outcome {
        Ok(results) => results,
        Err(e) => {
            let failed = || {
                Err(StoreError::Db(sqlx::Error::Protocol(format!(
                    "the batch's transaction failed: {e}"
                ))))
            };
            batch.iter().map(|_| failed()).collect()
        }
    }
    .into_iter();
    for w in batch.drain(..) {
        let _ = w.done.send(results.next().unwrap_or_else(|| Err(closed())));
    }
}

/// The epoch bound for a write that names none (a node running alone): no
/// real epoch is negative.
const UNFENCED: i64 = -1;

/// Summaries updated by one statement of [`together`] at most: 9 values
/// each, within the 999 values a statement of older SQLite builds may bind.
const UPDATES_PER_STATEMENT: usize = 64;
/// Moves inserted by one statement of [`together`] at most (8 values each,
/// within the same 999).
const MOVES_PER_STATEMENT: usize = 124;

/// Statements of at most this many rows are kept prepared; longer ones
/// vary with the load and would only churn the statement cache.
const PREPARED_ROWS: usize = 8;

/// Commits every write of `batch` in one transaction of a few statements:
/// one `UPDATE … FROM (VALUES …)` of the summaries that checks every
/// expected version at once, one multi-row insert of the moves, a delete
/// per take-back. `Ok(false)` (rolled back, nothing written) if a write
/// would be refused: a version that does not match, a game twice in the
/// batch, a move the table refuses. `Err` only if the commit itself
/// failed.
async fn together(pool: &AnyPool, backend: Backend, batch: &[Write]) -> Result<bool, sqlx::Error> {
    let mut tx = match begin_write(pool, backend).await {
        Ok(tx) => tx,
        Err(_) => return Ok(false),
    };
    match write_all(&mut tx, batch).await {
        Ok(true) => {}
        Ok(false) | Err(_) => {
            let _ = tx.rollback().await;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// The statements of [`together`]; `Ok(false)` if a summary's version
/// did not match.
async fn write_all(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    batch: &[Write],
) -> Result<bool, sqlx::Error> {
    for chunk in batch.chunks(UPDATES_PER_STATEMENT) {
        let sql = update_sql(chunk.len());
        let mut q = sqlx::query(&sql).persistent(chunk.len() <= PREPARED_ROWS);
        for w in chunk {
            let s = &w.summary;
            q = q
                .bind(s.status.as_str())
                .bind(s.result.as_str())
                .bind(s.reason.map(Reason::as_str))
                .bind(i64::from(s.plies))
                .bind(version_to_db(s.version))
                .bind(s.updated_at)
                .bind(w.game_id.as_str())
                .bind(version_to_db(w.expected))
                .bind(w.epoch.unwrap_or(UNFENCED));
        }
        if q.execute(&mut **tx).await?.rows_affected() != chunk.len() as u64 {
            return Ok(false);
        }
    }
    let moves: Vec<(&Write, &MoveRow)> = batch
        .iter()
        .flat_map(|w| match &w.op {
            Op::Append(moves) => moves.iter().map(|m| (w, m)).collect(),
            _ => Vec::new(),
        })
        .collect();
    for chunk in moves.chunks(MOVES_PER_STATEMENT) {
        let sql = insert_sql(chunk.len());
        let mut q = sqlx::query(&sql).persistent(chunk.len() <= PREPARED_ROWS);
        for (w, m) in chunk {
            q = q
                .bind(w.game_id.as_str())
                .bind(i64::from(m.ply))
                .bind(m.uci.as_str())
                .bind(m.san.as_str())
                .bind(m.clock_ms)
                .bind(m.draw_offer)
                .bind(m.blur)
                .bind(w.summary.updated_at);
        }
        q.execute(&mut **tx).await?;
    }
    for w in batch {
        match w.op {
            Op::Truncate(keep) => truncate(tx, &w.game_id, keep).await?,
            Op::DrawOffer { ply, offer } => {
                if !mark_draw_offer(tx, &w.game_id, ply, offer).await? {
                    return Ok(false);
                }
            }
            Op::Append(_) | Op::Summary => {}
        }
    }
    Ok(true)
}

/// `$first, $first+1, …` for `n` values, in parentheses.
fn placeholders(sql: &mut String, first: usize, n: usize) {
    sql.push('(');
    for i in 0..n {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push('$');
        sql.push_str(&(first + i).to_string());
    }
    sql.push(')');
}

/// The update of `n` summaries, each row `(status, result, reason, plies,
/// version, updated_at, id, expected version, epoch)`, the epoch checked
/// unless it is [`UNFENCED`]; the columns of a `VALUES` list are
/// `column1`, `column2`, … on both databases.
fn update_sql(n: usize) -> String {
    let mut sql = String::from(
        "UPDATE games SET status = v.column1, result = v.column2, reason = v.column3, \
         plies = v.column4, version = v.column5, updated_at = v.column6 FROM (VALUES ",
    );
    for i in 0..n {
        if i > 0 {
            sql.push_str(", ");
        }
        placeholders(&mut sql, 9 * i + 1, 9);
    }
    sql.push_str(
        ") AS v WHERE games.id = v.column7 AND games.version = v.column8 \
         AND (v.column9 < 0 OR games.owner_epoch = v.column9)",
    );
    sql
}

/// The insert of `n` moves.
fn insert_sql(n: usize) -> String {
    let mut sql = String::from(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, draw_offer, blur, created_at) \
         VALUES ",
    );
    for i in 0..n {
        if i > 0 {
            sql.push_str(", ");
        }
        placeholders(&mut sql, 8 * i + 1, 8);
    }
    sql
}

/// Commits the writes of `batch` in one transaction, each in a savepoint:
/// a write that fails is rolled back alone. The result of each write, or
/// the transaction's failure.
async fn one_by_one(
    pool: &AnyPool,
    backend: Backend,
    batch: &[Write],
) -> Result<Vec<Result<(), StoreError>>, sqlx::Error> {
    let mut results = Vec::with_capacity(batch.len());
    let mut tx = begin_write(pool, backend).await?;
    for w in batch {
        let mut sp = tx.begin().await?;
        let r = apply(&mut sp, w).await;
        if r.is_ok() {
            sp.commit().await?;
        } else {
            sp.rollback().await?;
        }
        results.push(r);
    }
    tx.commit().await?;
    Ok(results)
}

async fn apply(tx: &mut sqlx::Transaction<'_, sqlx::Any>, w: &Write) -> Result<(), StoreError> {
    update_summary(tx, w).await?;
    match &w.op {
        Op::Append(moves) => {
            for m in moves {
                sqlx::query(
                    "INSERT INTO moves (game_id, ply, uci, san, clock_ms, draw_offer, blur, \
                     created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&w.game_id)
                .bind(i64::from(m.ply))
                .bind(&m.uci)
                .bind(&m.san)
                .bind(m.clock_ms)
                .bind(m.draw_offer)
                .bind(m.blur)
                .bind(w.summary.updated_at)
                .execute(&mut **tx)
                .await?;
            }
        }
        Op::Truncate(keep) => truncate(tx, &w.game_id, *keep).await?,
        Op::DrawOffer { ply, offer } => {
            if !mark_draw_offer(tx, &w.game_id, *ply, *offer).await? {
                // No such move: the game is not what the writer expected.
                return Err(StoreError::Conflict {
                    game: w.game_id.clone(),
                    expected: w.expected,
                });
            }
        }
        Op::Summary => {}
    }
    Ok(())
}

/// Sets the draw-offer mark of the move at `ply` of `game_id`; `false` if
/// there is no such move.
async fn mark_draw_offer(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: &str,
    ply: u32,
    offer: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE moves SET draw_offer = $1 WHERE game_id = $2 AND ply = $3")
        .bind(offer)
        .bind(game_id)
        .bind(i64::from(ply))
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes the moves of `game_id` after ply `keep`.
async fn truncate(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: &str,
    keep: u32,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
        .bind(game_id)
        .bind(i64::from(keep))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn update_summary(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    w: &Write,
) -> Result<(), StoreError> {
    let s = &w.summary;
    let fenced = if w.epoch.is_some() {
        " AND owner_epoch = $9"
    } else {
        ""
    };
    let sql = format!(
        "UPDATE games SET status = $1, result = $2, reason = $3, plies = $4, version = $5, \
         updated_at = $6 WHERE id = $7 AND version = $8{fenced}"
    );
    let mut query = sqlx::query(&sql)
        .bind(s.status.as_str())
        .bind(s.result.as_str())
        .bind(s.reason.map(Reason::as_str))
        .bind(i64::from(s.plies))
        .bind(version_to_db(s.version))
        .bind(s.updated_at)
        .bind(&w.game_id)
        .bind(version_to_db(w.expected));
    if let Some(epoch) = w.epoch {
        query = query.bind(epoch);
    }
    let done = query.execute(&mut **tx).await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict {
            game: w.game_id.clone(),
            expected: w.expected,
        });
    }
    Ok(())
}
