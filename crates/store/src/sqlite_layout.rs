//! SQLite only: the tables that are read by their primary key alone are
//! stored in its order (`WITHOUT ROWID`), so a row lives in one B-tree
//! instead of a table and a copy of its key. The migrations are written in
//! SQL both databases accept, and `WITHOUT ROWID` is SQLite's own, so each
//! such table is rebuilt once, right after the migrations, from its own
//! `CREATE TABLE` text: the migrations stay the one description of its
//! columns. Measured on the puzzle import (issue 55, `docs/benchmarks.md`).

use sqlx::{AnyPool, Executor as _, Row};

use crate::error::StoreError;

/// The tables stored in primary-key order on SQLite.
pub(crate) const CLUSTERED: &[&str] = &["puzzles", "puzzle_angles"];

/// Rebuilds each of [`CLUSTERED`] that is not stored in key order yet,
/// each in one transaction (SQLite's own procedure for changing a table:
/// foreign keys off on the connection meanwhile, checked before the
/// commit). Nothing changes for a table done already.
///
/// # Errors
/// A database failure; the table is then left as it was.
pub(crate) async fn cluster_tables(pool: &AnyPool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    for table in CLUSTERED {
        let Some(create) = clustered_create(&mut conn, table).await? else {
            continue;
        };
        conn.execute("PRAGMA foreign_keys = OFF").await?;
        let rebuilt = rebuild(&mut conn, table, &create).await;
        conn.execute("PRAGMA foreign_keys = ON").await?;
        rebuilt?;
        tracing::info!(table, "stored in primary-key order (WITHOUT ROWID)");
    }
    Ok(())
}

/// The temporary name of `table` while it is rebuilt.
fn temporary(table: &str) -> String {
    format!("{table}_clustered")
}

/// The `CREATE TABLE` of `table`'s rebuild, or `None` when it is stored
/// in key order already (or does not exist).
async fn clustered_create(
    conn: &mut sqlx::AnyConnection,
    table: &str,
) -> Result<Option<String>, StoreError> {
    let row = sqlx::query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1")
        .bind(table)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let sql: String = row.try_get(0)?;
    Ok(clustered_sql(table, &sql))
}

/// `sql`, the `CREATE TABLE` of `table`, made to create its rebuild in key
/// order; `None` when it is in key order already.
fn clustered_sql(table: &str, sql: &str) -> Option<String> {
    let sql = sql.trim_end();
    if sql.to_ascii_uppercase().ends_with("WITHOUT ROWID") {
        return None;
    }
    // A table renamed by a migration is written with its name quoted.
    let body = sql
        .strip_prefix(&format!("CREATE TABLE {table} "))
        .or_else(|| sql.strip_prefix(&format!("CREATE TABLE \"{table}\" ")))?;
    Some(format!(
        "CREATE TABLE {} {body} WITHOUT ROWID",
        temporary(table)
    ))
}

async fn rebuild(
    conn: &mut sqlx::AnyConnection,
    table: &'static str,
    create: &str,
) -> Result<(), StoreError> {
    let tmp = temporary(table);
    let indexes: Vec<String> = sqlx::query(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = $1 AND sql IS NOT NULL",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| r.try_get(0))
    .collect::<Result<_, _>>()?;
    let mut tx = sqlx::Acquire::begin(&mut *conn).await?;
    tx.execute(create).await?;
    tx.execute(format!("INSERT INTO {tmp} SELECT * FROM {table}").as_str())
        .await?;
    tx.execute(format!("DROP TABLE {table}").as_str()).await?;
    tx.execute(format!("ALTER TABLE {tmp} RENAME TO {table}").as_str())
        .await?;
    for index in &indexes {
        tx.execute(index.as_str()).await?;
    }
    let broken = sqlx::query("PRAGMA foreign_key_check")
        .fetch_all(&mut *tx)
        .await?;
    if !broken.is_empty() {
        return Err(StoreError::Corrupt {
            table,
            detail: format!(
                "{} rows lost their foreign key in the rebuild of {table}",
                broken.len()
            ),
        });
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_create_table_is_made_into_its_rebuild_in_key_order_once() {
        let sql =
            "CREATE TABLE puzzle_angles (\n    angle TEXT NOT NULL,\n    PRIMARY KEY (angle)\n)";
        assert_eq!(
            clustered_sql("puzzle_angles", sql).as_deref(),
            Some(
                "CREATE TABLE puzzle_angles_clustered (\n    angle TEXT NOT NULL,\n    PRIMARY KEY (angle)\n) WITHOUT ROWID"
            )
        );
        let done = "CREATE TABLE \"puzzle_angles\" (angle TEXT PRIMARY KEY) WITHOUT ROWID";
        assert_eq!(clustered_sql("puzzle_angles", done), None);
        // Another table's text is never taken for this one's.
        assert_eq!(clustered_sql("puzzles", sql), None);
        // A table renamed by a migration has its name quoted.
        let renamed = "CREATE TABLE \"puzzle_angles\" (angle TEXT PRIMARY KEY)";
        assert_eq!(
            clustered_sql("puzzle_angles", renamed).as_deref(),
            Some("CREATE TABLE puzzle_angles_clustered (angle TEXT PRIMARY KEY) WITHOUT ROWID")
        );
    }

    #[tokio::test]
    async fn tables_made_by_older_code_are_rebuilt_with_their_rows_indexes_and_keys() {
        sqlx::any::install_default_drivers();
        let pool = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        for sql in [
            "PRAGMA foreign_keys = ON",
            "CREATE TABLE puzzles (id TEXT PRIMARY KEY, fen TEXT NOT NULL)",
            "CREATE TABLE puzzle_angles (angle TEXT NOT NULL, rating BIGINT NOT NULL, \
             puzzle_id TEXT NOT NULL REFERENCES puzzles (id), PRIMARY KEY (angle, rating, puzzle_id))",
            "CREATE INDEX angles_by_puzzle ON puzzle_angles (puzzle_id)",
            "CREATE TABLE rounds (puzzle_id TEXT NOT NULL REFERENCES puzzles (id))",
            "INSERT INTO puzzles VALUES ('a', 'x'), ('b', 'y')",
            "INSERT INTO puzzle_angles VALUES ('mix', 1500, 'a'), ('fork', 1500, 'a'), ('mix', 900, 'b')",
            "INSERT INTO rounds VALUES ('a')",
        ] {
            pool.execute(sql).await.unwrap();
        }
        cluster_tables(&pool).await.unwrap();
        cluster_tables(&pool).await.unwrap();
        let one = |sql: &'static str| {
            let pool = pool.clone();
            async move { sqlx::query(sql).fetch_one(&pool).await.unwrap() }
        };
        for table in CLUSTERED {
            let sql: String = sqlx::query("SELECT sql FROM sqlite_master WHERE name = $1")
                .bind(table)
                .fetch_one(&pool)
                .await
                .unwrap()
                .try_get(0)
                .unwrap();
            // SQLite writes the new name quoted.
            assert!(
                sql.starts_with(&format!("CREATE TABLE \"{table}\" ")),
                "{sql}"
            );
            assert!(sql.ends_with("WITHOUT ROWID"), "{sql}");
        }
        let rows: i64 = one("SELECT COUNT(*) FROM puzzle_angles")
            .await
            .try_get(0)
            .unwrap();
        assert_eq!(rows, 3);
        let fen: String = one("SELECT fen FROM puzzles WHERE id = 'b'")
            .await
            .try_get(0)
            .unwrap();
        assert_eq!(fen, "y");
        let index: i64 = one("SELECT COUNT(*) FROM sqlite_master WHERE name = 'angles_by_puzzle'")
            .await
            .try_get(0)
            .unwrap();
        assert_eq!(index, 1, "the table's index is made again");
        // The other tables' keys still point at the rebuilt table.
        assert!(
            pool.execute("INSERT INTO rounds VALUES ('zzz')")
                .await
                .is_err()
        );
        pool.execute("INSERT INTO rounds VALUES ('b')")
            .await
            .unwrap();
    }
}
