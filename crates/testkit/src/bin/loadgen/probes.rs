//! What `loadgen spread` reads around its window besides its own players:
//! the nodes' `/metrics`, the CPU time of processes and process trees
//! (`/proc`), Redis's `INFO` (over a bare connection, no client library)
//! and PostgreSQL's `pg_stat_database` and `pg_stat_wal`.
//!
//! Every probe answers `None` when its target is gone (a node killed in
//! the window), so that a report is made of what could be read.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use plyyard_testkit::Client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::tables::Cpu;

/// How long one probe may take.
const PROBE_WAIT: Duration = Duration::from_secs(5);

/// The unlabelled samples of a node's `/metrics` (Prometheus text).
pub async fn node_metrics(addr: SocketAddr) -> Option<HashMap<String, f64>> {
    let r = tokio::time::timeout(PROBE_WAIT, Client::new(addr).get("/metrics"))
        .await
        .ok()?
        .ok()?;
    (r.status == 200).then(|| parse_metrics(&r.text()))
}

/// `name value` lines of Prometheus text (labelled samples and comments
/// are skipped).
pub fn parse_metrics(text: &str) -> HashMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (name, value) = l.split_once(' ')?;
            if name.contains('{') {
                return None;
            }
            Some((name.to_owned(), value.trim().parse().ok()?))
        })
        .collect()
}

/// The fields of `/proc/PID/stat` after the command name (field 3 on).
fn stat_fields(pid: u32) -> Option<Vec<u64>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count from after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    // Field 3 is the state, a letter: kept as 0 so that indexes stay put.
    Some(
        rest.split(' ')
            .map(|f| f.trim().parse().unwrap_or(0))
            .collect(),
    )
}

fn ticks_per_s() -> f64 {
    // SAFETY: `sysconf` only reads a configuration value.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// The CPU time of process `pid` (fields 14 and 15 of its stat).
pub fn process_cpu(pid: u32) -> Option<Cpu> {
    let f = stat_fields(pid)?;
    let tick = ticks_per_s();
    Some(Cpu {
        user: *f.get(11)? as f64 / tick,
        system: *f.get(12)? as f64 / tick,
    })
}

/// The CPU time of process `pid`, of its children that it has waited for
/// (fields 16 and 17: PostgreSQL's backends that exited) and of its living
/// children: a whole PostgreSQL cluster from its postmaster's id.
pub fn tree_cpu(pid: u32) -> Option<Cpu> {
    let f = stat_fields(pid)?;
    let tick = ticks_per_s();
    let mut user = (*f.get(11)? + *f.get(13)?) as f64 / tick;
    let mut system = (*f.get(12)? + *f.get(14)?) as f64 / tick;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // Field 4 (the parent's id) is index 1 here.
        if let Some(cf) = stat_fields(child).filter(|cf| cf.get(1) == Some(&u64::from(pid))) {
            user += cf.get(11).copied().unwrap_or(0) as f64 / tick;
            system += cf.get(12).copied().unwrap_or(0) as f64 / tick;
        }
    }
    Some(Cpu { user, system })
}

/// The resident memory of process `pid`, MiB (`VmRSS`).
pub fn process_rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// Redis's `INFO all` as `field → value` (numbers only; the
/// `cmdstat_*` lines give their `calls`).
pub async fn redis_info(addr: SocketAddr) -> Option<HashMap<String, f64>> {
    let text = tokio::time::timeout(PROBE_WAIT, redis_info_text(addr))
        .await
        .ok()??;
    Some(parse_redis_info(&text))
}

async fn redis_info_text(addr: SocketAddr) -> Option<String> {
    let mut s = TcpStream::connect(addr).await.ok()?;
    s.write_all(b"INFO all\r\n").await.ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    // The answer is one bulk string: `$LEN\r\n` then LEN bytes and `\r\n`.
    loop {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(nl) = buf.iter().position(|&b| b == b'\n') else {
            continue;
        };
        let len: usize = std::str::from_utf8(buf.get(1..nl)?)
            .ok()?
            .trim()
            .parse()
            .ok()?;
        if buf.len() >= nl + 1 + len {
            return String::from_utf8(buf[nl + 1..nl + 1 + len].to_vec()).ok();
        }
    }
}

/// `field:value` lines of `INFO`; `cmdstat_X:calls=N,…` becomes
/// `cmdstat_X → N`.
pub fn parse_redis_info(text: &str) -> HashMap<String, f64> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.trim().split_once(':')?;
            let v = match v.strip_prefix("calls=") {
                Some(rest) => rest.split(',').next()?,
                None => v,
            };
            Some((k.to_owned(), v.parse().ok()?))
        })
        .collect()
}

/// PostgreSQL's counters for the run's database: commits, rollbacks, rows
/// written, WAL records and bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct PgCounters {
    pub commits: f64,
    pub rollbacks: f64,
    pub rows_written: f64,
    pub wal_records: f64,
    pub wal_bytes: f64,
}

impl std::ops::Sub for PgCounters {
    type Output = PgCounters;
    fn sub(self, o: PgCounters) -> PgCounters {
        PgCounters {
            commits: self.commits - o.commits,
            rollbacks: self.rollbacks - o.rollbacks,
            rows_written: self.rows_written - o.rows_written,
            wal_records: self.wal_records - o.wal_records,
            wal_bytes: self.wal_bytes - o.wal_bytes,
        }
    }
}

/// Reads [`PgCounters`] from the database at `url` (statistics are
/// flushed by the backends about once a second: read them a few seconds
/// after the load stops).
pub async fn pg_counters(url: &str) -> Option<PgCounters> {
    use sqlx::{Connection, Row};
    let mut conn = tokio::time::timeout(PROBE_WAIT, sqlx::PgConnection::connect(url))
        .await
        .ok()?
        .ok()?;
    let row = sqlx::query(
        "SELECT d.xact_commit::float8, d.xact_rollback::float8, \
         (d.tup_inserted + d.tup_updated + d.tup_deleted)::float8, \
         w.wal_records::float8, w.wal_bytes::float8 \
         FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()",
    )
    .fetch_one(&mut conn)
    .await
    .ok()?;
    let out = PgCounters {
        commits: row.try_get(0).ok()?,
        rollbacks: row.try_get(1).ok()?,
        rows_written: row.try_get(2).ok()?,
        wal_records: row.try_get(3).ok()?,
        wal_bytes: row.try_get(4).ok()?,
    };
    let _ = conn.close().await;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlabelled_metrics_are_read() {
        let m = parse_metrics(
            "# HELP x y\nplyyard_moves_total 12\nplyyard_t_ms{q=\"0.5\"} 3\nprocess_resident_memory_bytes 1.5e8\n",
        );
        assert_eq!(m.get("plyyard_moves_total"), Some(&12.0));
        assert_eq!(m.get("process_resident_memory_bytes"), Some(&1.5e8));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn redis_info_fields_and_command_calls_are_read() {
        let m = parse_redis_info(
            "# Stats\r\ntotal_commands_processed:42\r\nused_cpu_sys:1.25\r\nrole:master\r\n\
             cmdstat_publish:calls=40,usec=80,usec_per_call=2.00\r\n",
        );
        assert_eq!(m.get("total_commands_processed"), Some(&42.0));
        assert_eq!(m.get("used_cpu_sys"), Some(&1.25));
        assert_eq!(m.get("cmdstat_publish"), Some(&40.0));
        assert!(!m.contains_key("role"));
    }

    #[test]
    fn this_process_has_a_cpu_time_and_memory() {
        let me = std::process::id();
        assert!(process_cpu(me).is_some());
        assert!(tree_cpu(me).is_some());
        assert!(process_rss_mib(me).is_some_and(|m| m > 0.0));
        assert!(process_cpu(u32::MAX).is_none());
    }
}
