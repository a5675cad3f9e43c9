//! The `bench` signature: a fixed-depth search over fixed positions on one
//! thread. The node count identifies the search's behaviour; nodes per
//! second measure speed.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::{Engine, Limits};

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 13;

/// Positions searched: openings, middlegames with tactics, endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 5 11",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 2 8",
    "6k1/5ppp/8/8/3P4/4K3/5PPP/8 w - - 0 1",
    "8/8/4k3/3r4/8/3K4/3R4/8 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
    "8/3k4/8/1p1p4/1P1P4/3K4/8/8 w - - 0 1",
];

/// Totals of a bench run.
#[derive(Debug, Clone, Copy)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1000 / self.time.as_millis().max(1)) as u64
    }

    /// The `Bench: <nodes> nodes <nps> nps` line.
    pub fn summary(&self) -> String {
        format!("Bench: {} nodes {} nps", self.nodes, self.nps())
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table,
/// reporting one line per position to `log`.
pub fn run(depth: u32, log: &mut dyn FnMut(&str)) -> BenchResult {
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let started = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("bench FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("bench FEN is legal");
        engine.clear();
        let r = engine.search_with_info(&pos, &[], &limits, &stop, &mut |_| {});
        let n = r.as_ref().map_or(0, |r| r.nodes);
        nodes += n;
        log(&format!("info string bench position {} nodes {n}", i + 1));
    }
    BenchResult {
        nodes,
        time: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let a = run(5, &mut |_| {});
        let b = run(5, &mut |_| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }
}
