//! Server metrics in the Prometheus text format: live games, moves (total and
//! per second over the last minute), engine queue and sockets.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Instant;

/// Width of the window for `plyyard_moves_per_second`, in seconds.
const RATE_WINDOW_SECS: u64 = 60;

/// Counters and gauges shared by the whole server.
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    /// Game actors loaded in memory.
    pub games_live: AtomicI64,
    /// Websockets open.
    pub sockets_open: AtomicI64,
    /// The engine pool's queue and running searches.
    pub engine: std::sync::Arc<plyyard_engine_time::PoolGauges>,
    /// Engine searches refused since start because their client had as
    /// many waiting as it may (a live game asks again later).
    pub engine_refused: AtomicU64,
    /// Games created since start.
    pub games_created: AtomicU64,
    /// Games loaded from the database into an actor since start.
    pub games_loaded: AtomicU64,
    /// Commands this node sent on to the node owning their game.
    pub forwarded: AtomicU64,
    /// Commands other nodes sent to this one (it owns their games).
    pub served_forwarded: AtomicU64,
    /// Games this node loaded under a lease it took (in a cluster: games
    /// nobody ran, or whose owner stopped or died).
    pub leases_taken: AtomicU64,
    /// Stored reviews put into words since start (the others were read
    /// from the cache of rendered reviews).
    pub review_renders: AtomicU64,
    moves_total: AtomicU64,
    buckets: Mutex<[(u64, u64); RATE_WINDOW_SECS as usize]>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            started: Instant::now(),
            games_live: AtomicI64::new(0),
            sockets_open: AtomicI64::new(0),
            engine: std::sync::Arc::default(),
            engine_refused: AtomicU64::new(0),
            games_created: AtomicU64::new(0),
            games_loaded: AtomicU64::new(0),
            forwarded: AtomicU64::new(0),
            served_forwarded: AtomicU64::new(0),
            leases_taken: AtomicU64::new(0),
            review_renders: AtomicU64::new(0),
            moves_total: AtomicU64::new(0),
            buckets: Mutex::new([(u64::MAX, 0); RATE_WINDOW_SECS as usize]),
        }
    }
}

impl Metrics {
    /// Counts one committed move (by a player or by the computer).
    pub fn record_move(&self) {
        self.moves_total.fetch_add(1, Ordering::Relaxed);
        let sec = self.started.elapsed().as_secs();
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let slot = &mut b[(sec % RATE_WINDOW_SECS) as usize];
        if slot.0 != sec {
            *slot = (sec, 0);
        }
        slot.1 += 1;
    }

    /// Moves committed since start.
    pub fn moves_total(&self) -> u64 {
        self.moves_total.load(Ordering::Relaxed)
    }

    /// Mean moves per second over the last full window (or since start).
    pub fn moves_per_second(&self) -> f64 {
        let now = self.started.elapsed().as_secs();
        let b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let count: u64 = b
            .iter()
            .filter(|(sec, _)| *sec != u64::MAX && now.saturating_sub(*sec) < RATE_WINDOW_SECS)
            .map(|(_, n)| n)
            .sum();
        let span = (now + 1).min(RATE_WINDOW_SECS);
        count as f64 / span as f64
    }

    /// The Prometheus exposition text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut gauge = |name: &str, help: &str, kind: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name} {value}");
        };
        let load = |a: &AtomicI64| a.load(Ordering::Relaxed).to_string();
        gauge(
            "plyyard_games_live",
            "Game actors loaded in memory.",
            "gauge",
            load(&self.games_live),
        );
        gauge(
            "plyyard_games_created_total",
            "Games created since start.",
            "counter",
            self.games_created.load(Ordering::Relaxed).to_string(),
        );
        gauge(
            "plyyard_games_loaded_total",
            "Games loaded from the database since start.",
            "counter",
            self.games_loaded.load(Ordering::Relaxed).to_string(),
        );
        for (name, help, counter) in [
            (
                "plyyard_forwarded_total",
                "Commands sent on to the node owning their game.",
                &self.forwarded,
            ),
            (
                "plyyard_served_forwarded_total",
                "Commands other nodes sent to this one.",
                &self.served_forwarded,
            ),
            (
                "plyyard_leases_taken_total",
                "Games loaded under a lease this node took.",
                &self.leases_taken,
            ),
        ] {
            gauge(
                name,
                help,
                "counter",
                counter.load(Ordering::Relaxed).to_string(),
            );
        }
        gauge(
            "plyyard_review_renders_total",
            "Stored reviews rendered since start (not read from the cache).",
            "counter",
            self.review_renders.load(Ordering::Relaxed).to_string(),
        );
        gauge(
            "plyyard_moves_total",
            "Moves committed since start.",
            "counter",
            self.moves_total().to_string(),
        );
        gauge(
            "plyyard_moves_per_second",
            "Moves committed per second over the last minute.",
            "gauge",
            format!("{:.3}", self.moves_per_second()),
        );
        gauge(
            "plyyard_engine_queue",
            "Engine searches waiting for a worker.",
            "gauge",
            load(&self.engine.queue),
        );
        gauge(
            "plyyard_engine_running",
            "Engine searches running.",
            "gauge",
            load(&self.engine.running),
        );
        gauge(
            "plyyard_engine_refused_total",
            "Engine searches refused because their client had as many waiting as it may.",
            "counter",
            self.engine_refused.load(Ordering::Relaxed).to_string(),
        );
        gauge(
            "plyyard_sockets_open",
            "Websockets open.",
            "gauge",
            load(&self.sockets_open),
        );
        if let Some(rss) = resident_memory_bytes() {
            gauge(
                "process_resident_memory_bytes",
                "Resident memory of the server process, in bytes.",
                "gauge",
                rss.to_string(),
            );
        }
        gauge(
            "plyyard_uptime_seconds",
            "Seconds since the server started.",
            "gauge",
            self.started.elapsed().as_secs().to_string(),
        );
        out
    }
}

/// Resident set size of this process (Linux: `VmRSS` of `/proc/self/status`).
pub fn resident_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_lists_every_metric_with_values() {
        let m = Metrics::default();
        m.record_move();
        m.record_move();
        m.games_live.fetch_add(3, Ordering::Relaxed);
        let text = m.render();
        assert!(text.contains("plyyard_moves_total 2\n"), "{text}");
        assert!(text.contains("plyyard_games_live 3\n"), "{text}");
        assert!(
            text.contains("# TYPE plyyard_engine_queue gauge\n"),
            "{text}"
        );
        assert!(m.moves_per_second() > 0.0);
        if cfg!(target_os = "linux") {
            assert!(resident_memory_bytes().unwrap() > 1 << 20);
            assert!(text.contains("process_resident_memory_bytes "), "{text}");
        }
    }
}
