//! Group commit of game writes: every change of a game (a move, a take-back,
//! an ending) goes to one writer task, which commits the writes waiting at
//! that moment in one transaction — one disk flush for many games.
//!
//! Each write runs inside its own savepoint of the batch's transaction, so a
//! write that fails (a version conflict, a duplicate ply) is rolled back
//! alone and reported to its caller, while the others commit. A caller hears
//! back only after the batch's commit: an acknowledged change is on disk.

use sqlx::{Acquire as _, AnyPool};
use tokio::sync::{mpsc, oneshot};

use game::Reason;

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

/// Commits the writes of `batch` in one transaction, each in a savepoint,
/// and answers each of them.
async fn commit(pool: &AnyPool, backend: Backend, batch: &mut Vec<Write>) {
    let mut results = Vec::with_capacity(batch.len());
    let outcome = async {
        let mut tx = begin_write(pool, backend).await?;
        for w in batch.iter() {
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
        Ok::<(), sqlx::Error>(())
    }
    .await;
    for (i, w) in batch.drain(..).enumerate() {
        let r = match &outcome {
            Ok(()) => results
                .get_mut(i)
                .map_or_else(|| Err(closed()), |r| std::mem::replace(r, Ok(()))),
            Err(e) => Err(StoreError::Db(sqlx::Error::Protocol(format!(
                "the batch's transaction failed: {e}"
            )))),
        };
        let _ = w.done.send(r);
    }
}

async fn apply(tx: &mut sqlx::Transaction<'_, sqlx::Any>, w: &Write) -> Result<(), StoreError> {
    update_summary(tx, w).await?;
    match &w.op {
        Op::Append(moves) => {
            for m in moves {
                sqlx::query(
                    "INSERT INTO moves (game_id, ply, uci, san, clock_ms, draw_offer, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&w.game_id)
                .bind(i64::from(m.ply))
                .bind(&m.uci)
                .bind(&m.san)
                .bind(m.clock_ms)
                .bind(m.draw_offer)
                .bind(w.summary.updated_at)
                .execute(&mut **tx)
                .await?;
            }
        }
        Op::Truncate(keep) => {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
                .bind(&w.game_id)
                .bind(i64::from(*keep))
                .execute(&mut **tx)
                .await?;
        }
        Op::Summary => {}
    }
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
