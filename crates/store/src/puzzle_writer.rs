//! Group commit of the puzzle trainer's writes on SQLite: serving puzzles
//! (the served marks and the walk's cursor) and recording rounds go to one
//! writer task, which applies the writes waiting at that moment in one
//! transaction — one disk flush for many solvers.
//!
//! Why: SQLite has a single writer. Solvers writing each in their own
//! transaction queue for its lock in SQLite's busy handler, which sleeps
//! 1, 2, 5, 10… ms between tries, and each commit flushes the disk alone;
//! under 200 solvers that made the trainer's p99 twice its target.
//! PostgreSQL writes concurrently and takes no part in this.
//!
//! Each write runs inside its own savepoint, in arrival order, so a write
//! sees the ones before it (two rounds of one player rate one after the
//! other) and a write that fails is rolled back alone and reported to its
//! caller while the others commit. A caller hears back only after the
//! batch's commit: an acknowledged write is on disk.

use sqlx::{Acquire as _, AnyPool};
use tokio::sync::{mpsc, oneshot};

use crate::backend::{Backend, begin_write};
use crate::error::StoreError;
use crate::puzzle_writes::{PuzzleWrite, Written};

/// Writes waiting for the writer before callers wait.
const QUEUE: usize = 4096;
/// Writes committed in one transaction at most.
const BATCH: usize = 256;

struct Job {
    write: PuzzleWrite,
    done: oneshot::Sender<Result<Written, StoreError>>,
}

/// The sending side of the writer task.
#[derive(Debug, Clone)]
pub(crate) struct PuzzleWriter {
    tx: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

impl PuzzleWriter {
    /// Starts the writer task on `pool`.
    pub(crate) fn start(pool: AnyPool, backend: Backend) -> PuzzleWriter {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, backend, rx));
        PuzzleWriter { tx }
    }

    /// Commits `write` (with whatever else is waiting) and returns what it
    /// did.
    pub(crate) async fn write(&self, write: PuzzleWrite) -> Result<Written, StoreError> {
        let (done, result) = oneshot::channel();
        self.tx
            .send(Job { write, done })
            .await
            .map_err(|_| closed())?;
        result.await.map_err(|_| closed())?
    }
}

fn closed() -> StoreError {
    StoreError::Db(sqlx::Error::PoolClosed)
}

async fn run(pool: AnyPool, backend: Backend, mut rx: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        commit(&pool, backend, &mut batch).await;
    }
}

/// Applies the writes of `batch` in one transaction, each in its own
/// savepoint, and answers each caller once the transaction is committed
/// (or with the failure of the whole, when it is not).
async fn commit(pool: &AnyPool, backend: Backend, batch: &mut Vec<Job>) {
    let failed = |e: &sqlx::Error| {
        Err(StoreError::Db(sqlx::Error::Protocol(format!(
            "the batch's transaction failed: {e}"
        ))))
    };
    let mut tx = match begin_write(pool, backend).await {
        Ok(tx) => tx,
        Err(e) => {
            for job in batch.drain(..) {
                let _ = job.done.send(failed(&e));
            }
            return;
        }
    };
    let mut answers = Vec::with_capacity(batch.len());
    for job in batch.drain(..) {
        let result = match tx.begin().await {
            Ok(mut savepoint) => match job.write.apply(&mut savepoint).await {
                Ok(written) => savepoint
                    .commit()
                    .await
                    .map(|()| written)
                    .map_err(StoreError::from),
                Err(e) => {
                    let _ = savepoint.rollback().await;
                    Err(e)
                }
            },
            Err(e) => Err(StoreError::from(e)),
        };
        answers.push((job.done, result));
    }
    match tx.commit().await {
        Ok(()) => {
            for (done, result) in answers {
                let _ = done.send(result);
            }
        }
        Err(e) => {
            for (done, _) in answers {
                let _ = done.send(failed(&e));
            }
        }
    }
}
