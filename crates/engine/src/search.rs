//! The alpha-beta search: iterative deepening with aspiration windows,
//! principal variation search, quiescence, pruning and reductions, move
//! ordering heuristics, and the thread-local state one search thread owns.
//!
//! Positions are copied and made (`Chess::play_unchecked` on a clone); the
//! Zobrist key is updated incrementally alongside when shakmaty can.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, Move, MoveList, Position, Role, Square, attacks,
};

use crate::eval::pawn_attacks_bb;
use crate::evaluator::Evaluator;
use crate::nnue::Network;
use crate::see::{see_ge, value};
use crate::tt::{Bound, Table};

/// Deepest ply the search ever reaches.
pub const MAX_PLY: usize = 120;
/// Score of being checkmated now (negated: giving mate now).
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Larger than any score.
pub const INF: i32 = MATE + 1;

// Search tunables, all in one place.
const ASPIRATION_DELTA: i32 = 18;
const RFP_MAX_DEPTH: i32 = 8;
const RFP_MARGIN: i32 = 75;
const NMP_MIN_DEPTH: i32 = 3;
const FUTILITY_MAX_DEPTH: i32 = 8;
const FUTILITY_BASE: i32 = 90;
const FUTILITY_PER_DEPTH: i32 = 90;
const SEE_QUIET_MARGIN: i32 = 55;
const SEE_CAPTURE_MARGIN: i32 = 90;
const LMP_MAX_DEPTH: i32 = 8;
const SE_MIN_DEPTH: i32 = 7;
const SE_TT_DEPTH_SLACK: i32 = 3;
const SE_MARGIN_PER_DEPTH: i32 = 2;
const QS_DELTA: i32 = 200;
const HISTORY_MAX: i32 = 16384;
/// Quiet moves whose continuation history is below this, per ply of
/// remaining depth, are skipped near the leaves.
const CONT_PRUNE_PER_DEPTH: i32 = -3000;
const CONT_PRUNE_MAX_DEPTH: i32 = 3;
/// Combined history per ply of late-move reduction removed or added.
const LMR_HISTORY_DIVISOR: i32 = 12288;
/// Capture history is divided by this before joining the victim-first
/// capture order.
const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Ordering bonus of a quiet move that takes a piece out of attack by a
/// cheaper piece (and malus for one that moves into such an attack).
const ESCAPE_BONUS: i32 = 16384;
/// Order score of the counter move, the lowest of the special quiet moves:
/// at or above it a move is the table move, a good capture or a killer.
const COUNTER_ORDER: i32 = 398_000_000;
const TIME_CHECK_MASK: u64 = 1023;
/// Entries of the static-evaluation correction table, per side to move.
const CORRECTION_SIZE: usize = 16384;
/// Fixed-point units per centipawn in the correction table.
const CORRECTION_GRAIN: i32 = 256;
/// Largest correction applied, in centipawns (the quiescence search's
/// stand-pat does not use it: applied there, with 96 cp, it measured ±0).
const CORRECTION_MAX: i32 = 48;
/// Fraction of the soft budget after which no new iteration starts (the
/// next one would likely overrun it).
const SOFT_STOP: f64 = 0.8;

const NULL_MOVE: Move = Move::Put {
    role: Role::Pawn,
    to: Square::A1,
};

/// Compact 16-bit form of a move for the transposition table:
/// from | to << 6 | promotion << 12 (castling is king square to rook square).
pub fn encode_move(m: Move) -> u16 {
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => from as u16 | (to as u16) << 6 | (promotion.map_or(0, |r| r as u16)) << 12,
        Move::EnPassant { from, to } => from as u16 | (to as u16) << 6,
        Move::Castle { king, rook } => king as u16 | (rook as u16) << 6,
        Move::Put { .. } => 0,
    }
}

/// The moves of `searchmoves` that are legal in `root`; empty (every move
/// may be played) when `searchmoves` is empty or none of it is legal.
pub fn allowed_root_moves(root: &Chess, searchmoves: &[Move]) -> Vec<Move> {
    searchmoves
        .iter()
        .copied()
        .filter(|&m| root.is_legal(m))
        .collect()
}

/// Which helper thread's finished search to play instead of the main
/// thread's, given the main thread's best line and depth and each helper's
/// lines, depth and seldepth: the helper whose best line scores highest
/// among those that beat the main line at least as deep or prove a mate.
/// `None` keeps the main thread's choice.
pub fn pick_thread(main: (&Line, u32), helpers: &[(Vec<Line>, u32, u32)]) -> Option<usize> {
    let (mut best_score, mut best_depth) = (main.0.score, main.1);
    let mut pick = None;
    for (i, (lines, depth, _)) in helpers.iter().enumerate() {
        let Some(line) = lines.first() else {
            continue;
        };
        if line.score > best_score && (*depth >= best_depth || line.score >= MATE_BOUND) {
            (best_score, best_depth) = (line.score, *depth);
            pick = Some(i);
        }
    }
    pick
}

/// Converts an internal score to a UCI-style score.
pub fn to_score(v: i32) -> crate::Score {
    if v >= MATE_BOUND {
        crate::Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        crate::Score::Mate(-(MATE + v) / 2)
    } else {
        crate::Score::Cp(v)
    }
}

/// Selection step of move ordering: brings the best-scored of
/// `moves[i..]` to index `i` (ties keep the earlier move).
#[inline]
fn pick_best(moves: &mut MoveList, scores: &mut [i32], i: usize) {
    let mut best = i;
    let mut top = scores[i];
    for (j, &s) in scores[..moves.len()].iter().enumerate().skip(i + 1) {
        if s > top {
            best = j;
            top = s;
        }
    }
    scores.swap(i, best);
    moves.swap(i, best);
}

fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// Zobrist key of a position, with en passant only when a capture is legal.
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    /// Transposition table.
    pub tt: &'a Table,
    /// Evaluation function.
    pub eval: &'a dyn Evaluator,
    /// Stop requested from outside (GUI `stop`, server cancel).
    pub stop: &'a AtomicBool,
    /// Set by the main thread when the search is over.
    pub abort: AtomicBool,
    /// Nodes of finished helper work, for reporting.
    pub helper_nodes: AtomicU64,
    /// When the search started.
    pub start: Instant,
}

/// Limits the main thread enforces.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop starting new iterations after this (scaled by stability).
    pub soft: Option<Duration>,
    /// Abort the search at once after this.
    pub hard: Option<Duration>,
    /// Abort after this many nodes.
    pub nodes: Option<u64>,
    /// Deepest iteration.
    pub depth: u32,
}

/// One line of a (multi-)PV search result.
#[derive(Debug, Clone)]
pub struct Line {
    /// Internal score.
    pub score: i32,
    /// Principal variation (first move is the root move).
    pub pv: Vec<Move>,
}

/// Progress report after each finished iteration line.
#[derive(Debug, Clone)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    /// Score from the side to move.
    pub score: crate::Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Time since the start.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy)]
struct Frame {
    eval: i32,
    /// (piece index, destination) of the move played from this ply.
    played: Option<(usize, usize)>,
    null: bool,
    /// Move left out of this node's search (singular extension test).
    excluded: u16,
}

/// What one search thread learns about move order (histories, counter
/// moves), kept from one search to the next until the game changes.
pub struct Heuristics {
    history: Box<[[[i32; 64]; 64]; 2]>,
    counter: Box<[[u16; 64]; 12]>,
    /// Continuation history: how good a quiet move (piece, destination)
    /// was after a given previous move (piece, destination), indexed by
    /// [`cont_index`]; used one, two and four plies back.
    cont: Box<[i16]>,
    /// Capture history by (piece, destination, captured role).
    capture_history: Box<[[[i16; 6]; 64]; 12]>,
    /// How far searches have found the static evaluation off, by side to
    /// move and pawn structure (in [`CORRECTION_GRAIN`] units).
    correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

impl Heuristics {
    /// Tables that know nothing yet.
    pub fn new() -> Heuristics {
        Heuristics {
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[0; 64]; 12]),
            cont: vec![0; CONT_SIZE].into_boxed_slice(),
            capture_history: Box::new([[[0; 6]; 64]; 12]),
            correction: vec![[0; CORRECTION_SIZE]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two tables"),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Heuristics::new();
    }
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics::new()
    }
}

/// One search thread.
pub struct Worker<'a> {
    shared: &'a Shared<'a>,
    main: bool,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Part of `nodes` a helper has already added to `Shared::helper_nodes`.
    published: u64,
    seldepth: usize,
    aborted: bool,
    can_abort: bool,
    budget: Budget,
    keys: Vec<u64>,
    h: &'a mut Heuristics,
    killers: [[u16; 2]; MAX_PLY + 2],
    stack: [Frame; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
    root_exclude: Vec<u16>,
    /// The only root moves to search (`searchmoves`); empty for all.
    root_only: Vec<u16>,
    root_depth: i32,
    /// The evaluation's network, when it is one.
    net: Option<&'a Network>,
    /// One network accumulator per ply, back to back (empty without one).
    acc: Vec<i16>,
}

/// History reward for the move that cut at `depth` (and penalty for the
/// moves tried before it).
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(1600)
}

/// Squares where each kind of our piece can be taken by a cheaper enemy
/// piece: a quiet move that takes a piece out of such an attack is tried
/// earlier, one that walks into one later.
struct Threats {
    /// Attacked by enemy pawns (threatens knights and bishops).
    by_pawn: Bitboard,
    /// ... or by enemy knights and bishops (threatens rooks).
    by_minor: Bitboard,
    /// ... or by enemy rooks (threatens queens).
    by_rook: Bitboard,
}

impl Threats {
    fn of(pos: &Chess) -> Threats {
        let b = pos.board();
        let them = pos.them();
        let occupied = b.occupied();
        let by_pawn = pawn_attacks_bb(!pos.turn(), b.pawns() & them);
        let mut by_minor = by_pawn;
        for sq in b.knights() & them {
            by_minor |= attacks::knight_attacks(sq);
        }
        for sq in b.bishops() & them {
            by_minor |= attacks::bishop_attacks(sq, occupied);
        }
        let mut by_rook = by_minor;
        for sq in b.rooks() & them {
            by_rook |= attacks::rook_attacks(sq, occupied);
        }
        Threats {
            by_pawn,
            by_minor,
            by_rook,
        }
    }

    /// Ordering adjustment of a quiet move.
    #[inline]
    fn order_bonus(&self, m: Move) -> i32 {
        let zone = match m.role() {
            Role::Knight | Role::Bishop => self.by_pawn,
            Role::Rook => self.by_minor,
            Role::Queen => self.by_rook,
            Role::Pawn | Role::King => return 0,
        };
        let (Some(from), to) = (m.from(), m.to()) else {
            return 0;
        };
        ESCAPE_BONUS * (i32::from(zone.contains(from)) - i32::from(zone.contains(to)))
    }
}

/// Index into a continuation history table.
#[inline]
fn cont_index(prev: (usize, usize), piece: usize, to: usize) -> usize {
    ((prev.0 * 64 + prev.1) * 12 + piece) * 64 + to
}

/// Where quiet move `m` of side `turn` sits within a continuation-history
/// row ([`ContRows`]).
#[inline(always)]
fn cont_offset(turn: usize, m: Move) -> usize {
    cont_index((0, 0), piece_slot(turn, m.role()), from_to(m).1)
}

/// Plies back whose moves index the continuation history.
const CONT_PLIES: [usize; 3] = [1, 2, 4];

/// Where a node's continuation-history rows start in the table, one per
/// entry of [`CONT_PLIES`] (`None` where no move was played that far back).
/// They stay the same for the whole node, so they are looked up once.
type ContRows = [Option<usize>; 3];

const CONT_SIZE: usize = 12 * 64 * 12 * 64;

fn piece_index(color: Color, role: Role) -> usize {
    piece_slot(color as usize, role)
}

/// [`piece_index`] from a colour already converted to an index.
#[inline]
fn piece_slot(turn: usize, role: Role) -> usize {
    turn * 6 + role as usize - 1
}

/// A correction entry moved toward `diff` centipawns (clamped to
/// [`CORRECTION_MAX`]) by a search of `depth`: a running average whose
/// weight grows with depth.
#[inline]
fn correction_step(entry: i32, diff: i32, depth: i32) -> i32 {
    let weight = (depth + 1).min(16);
    let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
    entry + (target - entry) * weight / 256
}

/// Slot of the position's pawn structure in the correction table.
#[inline]
fn pawn_slot(pos: &Chess) -> usize {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    let mut z =
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z ^= z >> 31;
    z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (z >> 50) as usize % CORRECTION_SIZE
}

fn has_non_pawn(pos: &Chess) -> bool {
    let b = pos.board();
    (pos.us() & !b.pawns() & !b.kings()).any()
}

/// Whether playing the legal move `m` gives check, found from attacks
/// without making the move (castling and en passant are made).
fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = board.occupied().without(from).with(to);
    let direct = match promotion.unwrap_or(role) {
        Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
        Role::Knight => attacks::knight_attacks(to).contains(king),
        Role::Bishop => attacks::bishop_attacks(to, occupied).contains(king),
        Role::Rook => attacks::rook_attacks(to, occupied).contains(king),
        Role::Queen => attacks::queen_attacks(to, occupied).contains(king),
        Role::King => false,
    };
    if direct {
        return true;
    }
    if !attacks::queen_attacks(king, Bitboard::EMPTY).contains(from) {
        return false;
    }
    let ours = board.by_color(us).without(from);
    (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens() & ours).any()
        || (attacks::rook_attacks(king, occupied) & board.rooks_and_queens() & ours).any()
}

fn from_to(m: Move) -> (usize, usize) {
    match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
            (from as usize, to as usize)
        }
        Move::Castle { king, rook } => (king as usize, rook as usize),
        Move::Put { to, .. } => (to as usize, to as usize),
    }
}

impl<'a> Worker<'a> {
    /// A thread that learns into `h`, over the game's key history
    /// (`keys` ends with the root position's key).
    pub fn new(
        shared: &'a Shared<'a>,
        h: &'a mut Heuristics,
        main: bool,
        keys: Vec<u64>,
        budget: Budget,
    ) -> Worker<'a> {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        let net = shared.eval.network();
        Worker {
            shared,
            main,
            nodes: 0,
            published: 0,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            budget,
            keys,
            h,
            killers: [[0; 2]; MAX_PLY + 2],
            stack: [Frame {
                eval: 0,
                played: None,
                null: false,
                excluded: 0,
            }; MAX_PLY + 2],
            pv: Box::new([[NULL_MOVE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr,
            root_exclude: Vec::new(),
            root_only: Vec::new(),
            root_depth: 0,
            net,
            acc: net.map_or_else(Vec::new, |n| vec![0; (MAX_PLY + 2) * n.acc_len()]),
        }
    }

    /// Limits the root to [`allowed_root_moves`] of `root` and `moves`.
    pub fn restrict_root(&mut self, root: &Chess, moves: &[Move]) {
        self.root_only = allowed_root_moves(root, moves)
            .into_iter()
            .map(encode_move)
            .collect();
    }

    /// Whether `searchmoves` lets the root move with this code be searched.
    #[inline]
    fn root_allows(&self, code: u16) -> bool {
        self.root_only.is_empty() || self.root_only.contains(&code)
    }

    /// Whether a root move with this code is left out of the search.
    #[inline]
    fn root_skips(&self, code: u16) -> bool {
        self.root_exclude.contains(&code) || !self.root_allows(code)
    }

    fn elapsed(&self) -> Duration {
        self.shared.start.elapsed()
    }

    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        if self.main {
            if let Some(n) = self.budget.nodes
                && self.nodes >= n
            {
                self.aborted = true;
                return true;
            }
            if self.nodes & TIME_CHECK_MASK == 0 {
                if self.shared.stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                } else if let Some(h) = self.budget.hard
                    && self.elapsed() >= h
                {
                    self.aborted = true;
                }
            }
        } else if self.nodes & 255 == 0 {
            self.publish_nodes();
            if self.shared.abort.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Adds a helper's nodes since the last call to the shared count, so
    /// that the main thread's `info nodes` covers every thread.
    pub fn publish_nodes(&mut self) {
        self.shared
            .helper_nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Iterative deepening over `root`; returns the lines of the deepest
    /// finished iteration (best first), its depth and seldepth.
    pub fn iterate(
        &mut self,
        root: &Chess,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Info)>,
        helper_offset: u32,
    ) -> (Vec<Line>, u32, u32) {
        if let Some(net) = self.net {
            net.refresh(root.board(), &mut self.acc[..net.acc_len()]);
        }
        let mut legal = root.legal_moves();
        legal.retain(|m| self.root_allows(encode_move(*m)));
        let multipv = multipv.clamp(1, legal.len().max(1));
        let root_key = *self.keys.last().expect("root key");
        let mut done: Vec<Line> = Vec::new();
        let mut done_depth = 0;
        let mut done_sel = 0;
        let mut last_best: Option<Move> = None;
        let mut stable = 0u32;
        let max_depth = self.budget.depth.clamp(1, MAX_PLY as u32 - 4);
        let mut depth = 1 + helper_offset;
        while depth <= max_depth {
            self.root_depth = depth as i32;
            let mut lines: Vec<Line> = Vec::new();
            self.root_exclude.clear();
            for pv_idx in 0..multipv {
                let prev = done.get(pv_idx).map(|l| l.score);
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) = match prev {
                    Some(s) if depth >= 4 && s.abs() < MATE_BOUND => (s - delta, s + delta),
                    _ => (-INF, INF),
                };
                self.seldepth = 0;
                let score = loop {
                    let s = self.negamax(root, root_key, depth as i32, 0, alpha, beta, false);
                    if self.aborted {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta {
                        beta = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta += delta / 2 + 5;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                if self.aborted {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                if pv.is_empty() {
                    break;
                }
                self.root_exclude.push(encode_move(pv[0]));
                lines.push(Line { score, pv });
                self.can_abort = true;
            }
            if self.aborted || lines.len() < multipv {
                // Keep the finished iteration, but take a new best first
                // line if it was fully resolved in this iteration.
                if let Some(first) = lines.first()
                    && !done.is_empty()
                {
                    done[0] = first.clone();
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            done = lines;
            done_depth = depth;
            done_sel = self.seldepth as u32;
            self.can_abort = true;
            if let Some(report) = report.as_deref_mut() {
                for (i, l) in done.iter().enumerate() {
                    report(&Info {
                        depth,
                        seldepth: done_sel,
                        multipv: i + 1,
                        score: to_score(l.score),
                        nodes: self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed),
                        time: self.elapsed(),
                        hashfull: self.shared.tt.hashfull(),
                        pv: l.pv.clone(),
                    });
                }
            }
            let best = done[0].pv[0];
            if last_best == Some(best) {
                stable += 1;
            } else {
                stable = 0;
            }
            last_best = Some(best);
            if self.main {
                if let Some(soft) = self.budget.soft {
                    let factor = match stable {
                        0 => 1.4,
                        1 => 1.1,
                        2 | 3 => 0.9,
                        _ => 0.7,
                    };
                    if self.elapsed().as_secs_f64() >= soft.as_secs_f64() * factor * SOFT_STOP {
                        break;
                    }
                }
                if done[0].score.abs() >= MATE_BOUND
                    && depth as i32 > (MATE - done[0].score.abs()) * 2 + 4
                {
                    // A proven mate: deeper iterations only shorten nothing.
                    if self.budget.soft.is_some() {
                        break;
                    }
                }
            }
            depth += 1;
        }
        if done.is_empty()
            && let Some(&m) = legal.first()
        {
            done.push(Line {
                score: 0,
                pv: vec![m],
            });
        }
        (done, done_depth, done_sel)
    }

    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = (halfmoves as usize).min(n - 1);
        let mut i = 4;
        while i <= limit {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn score_moves(
        &self,
        pos: &Chess,
        moves: &MoveList,
        scores: &mut [i32; 256],
        tt_move: u16,
        ply: usize,
    ) {
        let turn = pos.turn() as usize;
        let counter = if ply > 0 {
            self.stack[ply - 1]
                .played
                .map_or(0, |(p, to)| self.h.counter[p][to])
        } else {
            0
        };
        let killers = self.killers[ply];
        let threats = Threats::of(pos);
        let rows = self.cont_rows(ply);
        for (i, &m) in moves.iter().enumerate() {
            let code = encode_move(m);
            scores[i] = if code == tt_move {
                1_000_000_000
            } else if m.is_capture() || m.promotion() == Some(Role::Queen) {
                let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
                let mvv = victim * 16 - value(m.role()) / 16
                    + self.capture_score(turn, m) / CAPTURE_HISTORY_DIVISOR;
                if see_ge(pos, m, 0) {
                    500_000_000 + mvv
                } else {
                    -500_000_000 + mvv
                }
            } else if m.is_promotion() {
                -600_000_000
            } else if code == killers[0] {
                400_000_000
            } else if code == killers[1] {
                399_000_000
            } else if code == counter {
                COUNTER_ORDER
            } else {
                let (f, t) = from_to(m);
                self.h.history[turn][f][t]
                    + self.cont_history(&rows, m, turn)
                    + threats.order_bonus(m)
            };
        }
    }

    /// Capture history of a move (zero for a non-capture).
    #[inline]
    fn capture_score(&self, turn: usize, m: Move) -> i32 {
        match m.capture() {
            Some(victim) => {
                let (_, t) = from_to(m);
                i32::from(
                    self.h.capture_history[piece_slot(turn, m.role())][t][victim as usize - 1],
                )
            }
            None => 0,
        }
    }

    /// Moves the capture history of `m` toward `bonus`'s sign.
    fn update_capture_history(&mut self, turn: usize, m: Move, bonus: i32) {
        if let Some(victim) = m.capture() {
            let (_, t) = from_to(m);
            let c = &mut self.h.capture_history[piece_slot(turn, m.role())][t][victim as usize - 1];
            let v = i32::from(*c);
            *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
        }
    }

    /// Continuation history of a quiet move in a node with `rows`.
    #[inline(always)]
    fn cont_history(&self, rows: &ContRows, m: Move, turn: usize) -> i32 {
        let offset = cont_offset(turn, m);
        let at = |row: Option<usize>| row.map_or(0, |r| i32::from(self.h.cont[r + offset]));
        at(rows[0]) + at(rows[1]) + at(rows[2])
    }

    /// The continuation-history rows of the node at `ply`.
    #[inline]
    fn cont_rows(&self, ply: usize) -> ContRows {
        CONT_PLIES.map(|back| {
            if ply >= back {
                self.stack[ply - back]
                    .played
                    .map(|prev| cont_index(prev, 0, 0))
            } else {
                None
            }
        })
    }

    fn update_quiet_stats(
        &mut self,
        pos: &Chess,
        best: Move,
        quiets: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let turn = pos.turn() as usize;
        let bonus = history_bonus(depth);
        let code = encode_move(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if ply > 0
            && let Some((p, to)) = self.stack[ply - 1].played
        {
            self.h.counter[p][to] = code;
        }
        self.update_history(turn, best, bonus, ply);
        for &q in quiets {
            self.update_history(turn, q, -bonus, ply);
        }
    }

    /// Moves the history entries of one quiet move toward `bonus`'s sign,
    /// saturating at [`HISTORY_MAX`].
    fn update_history(&mut self, turn: usize, m: Move, bonus: i32, ply: usize) {
        let (f, t) = from_to(m);
        let h = &mut self.h.history[turn][f][t];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        let offset = cont_offset(turn, m);
        for row in self.cont_rows(ply).into_iter().flatten() {
            let c = &mut self.h.cont[row + offset];
            let v = i32::from(*c);
            *c = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
        }
    }

    /// Plays `m`, returning the child and its key; the key is known before
    /// the move is made, so the table slot is already being fetched.
    /// With a network, the child's accumulator (at `ply + 1`) is made too.
    #[inline]
    fn make(&mut self, pos: &Chess, key: u64, m: Move, ply: usize) -> (Chess, u64) {
        let quick = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
        if let Some(k) = quick {
            self.shared.tt.prefetch(k.0);
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        let ckey = quick.map_or_else(|| key_of(&child), |k| k.0);
        if let Some(net) = self.net {
            let len = net.acc_len();
            let (lo, hi) = self.acc.split_at_mut((ply + 1) * len);
            net.update(pos.board(), child.board(), &lo[ply * len..], &mut hi[..len]);
        }
        (child, ckey)
    }

    /// Static evaluation of `pos`, the position at `ply`.
    #[inline]
    fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        match self.net {
            Some(net) => {
                let len = net.acc_len();
                net.output(&self.acc[ply * len..][..len], pos.board(), pos.turn())
            }
            None => self.shared.eval.evaluate(pos),
        }
    }

    /// The null move keeps the board, so its accumulator is the parent's.
    #[inline]
    fn copy_acc(&mut self, ply: usize) {
        if let Some(net) = self.net {
            let len = net.acc_len();
            self.acc
                .copy_within(ply * len..(ply + 1) * len, (ply + 1) * len);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_abort() {
            return 0;
        }
        let in_check = pos.is_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, key, ply, alpha, beta);
        }
        depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if self.is_repetition(pos.halfmoves()) {
                return 0;
            }
            if pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty()) {
                return 0;
            }
            if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.evaluate(pos, ply);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.stack[ply].excluded;
        let entry = self.shared.tt.probe(key);
        let mut tt_move = entry.map_or(0, |e| e.mv);
        if root && self.root_skips(tt_move) {
            tt_move = 0;
        }
        if let Some(e) = entry
            && !pv_node
            && excluded == 0
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        let raw_eval = match entry {
            _ if in_check => -INF,
            Some(e) => e.eval,
            None => self.evaluate(pos, ply),
        };
        let pawns = pawn_slot(pos);
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected(pos.turn(), pawns, raw_eval)
        };
        let eval = match entry {
            _ if in_check => -INF,
            Some(e)
                if e.score.abs() < MATE_BOUND
                    && (e.bound == Bound::Exact
                        || (e.bound == Bound::Lower && e.score > static_eval)
                        || (e.bound == Bound::Upper && e.score < static_eval)) =>
            {
                e.score
            }
            _ => static_eval,
        };
        self.stack[ply].eval = eval;
        self.stack[ply].null = false;
        self.stack[ply].played = None;
        let improving = !in_check
            && (ply < 2 || self.stack[ply - 2].eval == -INF || eval > self.stack[ply - 2].eval);
        self.killers[ply + 1] = [0, 0];

        if !pv_node && !in_check && !root && excluded == 0 {
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && !self.stack[ply - 1].null
                && has_non_pawn(pos)
                && let Ok(null) = pos.clone().swap_turn()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let nkey = key_of(&null);
                self.copy_acc(ply);
                self.stack[ply].null = true;
                self.keys.push(nkey);
                let s = -self.negamax(&null, nkey, depth - r, ply + 1, -beta, -beta + 1, !cut_node);
                self.keys.pop();
                self.stack[ply].null = false;
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        if depth >= 4 && tt_move == 0 && (pv_node || cut_node) {
            depth -= 1;
        }

        // Singular extension: when the table's move is much better than
        // every alternative searched shallower, it is searched one ply
        // deeper; when even the alternatives beat beta, cut at once.
        let mut singular = false;
        if let Some(e) = entry
            && !root
            && excluded == 0
            && depth >= SE_MIN_DEPTH
            && tt_move != 0
            && e.depth >= depth - SE_TT_DEPTH_SLACK
            && e.bound != Bound::Upper
            && e.score.abs() < MATE_BOUND
            && (ply as i32) < 2 * self.root_depth
        {
            let tt_score = score_from_tt(e.score, ply);
            let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth;
            self.stack[ply].excluded = tt_move;
            let s = self.negamax(pos, key, (depth - 1) / 2, ply, s_beta - 1, s_beta, cut_node);
            self.stack[ply].excluded = 0;
            if self.aborted {
                return 0;
            }
            if s < s_beta {
                singular = true;
            } else if s_beta >= beta {
                return s_beta;
            }
            self.stack[ply].eval = eval;
            self.stack[ply].null = false;
            self.stack[ply].played = None;
            self.killers[ply + 1] = [0, 0];
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = [0i32; 256];
        self.score_moves(pos, &moves, &mut scores, tt_move, ply);

        let turn = pos.turn();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut searched = 0usize;
        let mut quiets: [Move; 64] = [NULL_MOVE; 64];
        let mut n_quiets = 0;
        let mut captures: [Move; 32] = [NULL_MOVE; 32];
        let mut n_captures = 0;
        let mut skip_quiets = false;
        let rows = self.cont_rows(ply);
        let lmp_limit = (3 + depth * depth) / (2 - i32::from(improving));

        for i in 0..moves.len() {
            // Once late quiet moves are skipped, the rest is only scanned
            // for checks and bad captures: their order no longer pays for
            // the selection.
            if !skip_quiets {
                pick_best(&mut moves, &mut scores, i);
            }
            let m = moves[i];
            let order = scores[i];
            let code = encode_move(m);
            if (root && self.root_skips(code)) || (excluded != 0 && code == excluded) {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            let gives_check = gives_check(pos, m);
            if quiet && skip_quiets && !gives_check {
                continue;
            }
            let (f, t) = from_to(m);
            let (hist, cont) = if quiet {
                (
                    self.h.history[turn as usize][f][t],
                    self.cont_history(&rows, m, turn as usize),
                )
            } else {
                (0, 0)
            };
            let mut reduction = 0;
            if depth >= 3 && searched > usize::from(pv_node) {
                reduction = self.lmr[(depth as usize).min(63)][searched.min(63)];
            }
            if !root && best > -MATE_BOUND {
                if quiet {
                    if !pv_node
                        && !in_check
                        && !gives_check
                        && depth <= LMP_MAX_DEPTH
                        && searched as i32 >= lmp_limit
                    {
                        skip_quiets = true;
                        continue;
                    }
                    let lmr_depth = (depth - 1 - reduction).max(0);
                    if lmr_depth <= CONT_PRUNE_MAX_DEPTH && cont < CONT_PRUNE_PER_DEPTH * depth {
                        continue;
                    }
                    if !in_check
                        && !gives_check
                        && lmr_depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= FUTILITY_MAX_DEPTH
                        && !see_ge(pos, m, -SEE_QUIET_MARGIN * lmr_depth)
                    {
                        continue;
                    }
                } else if depth <= FUTILITY_MAX_DEPTH
                    && order < 0
                    && !see_ge(pos, m, -SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }

            let (child, ckey) = self.make(pos, key, m, ply);
            // Checks are extended unless they lose material: a check that
            // hangs the checking piece rarely leads anywhere.
            let extension = i32::from(
                ((gives_check && (order >= COUNTER_ORDER || see_ge(pos, m, 0)))
                    || (singular && code == tt_move))
                    && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + extension;
            self.stack[ply].played = Some((piece_index(turn, m.role()), t));
            self.keys.push(ckey);

            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, ckey, new_depth, ply + 1, -beta, -alpha, false);
            } else {
                let mut r = 0;
                if reduction > 0 && (quiet || order < 0) {
                    r = reduction;
                    r -= i32::from(pv_node) + i32::from(root);
                    r += i32::from(!improving);
                    r += i32::from(cut_node);
                    r -= i32::from(order >= COUNTER_ORDER);
                    r -= i32::from(gives_check);
                    r -= (hist + cont) / LMR_HISTORY_DIVISOR;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(
                    &child,
                    ckey,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        ckey,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        !cut_node,
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(&child, ckey, new_depth, ply + 1, -beta, -alpha, false);
                }
            }
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node || root {
                        self.pv[ply][ply] = m;
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        for k in ply + 1..child_len {
                            self.pv[ply][k] = self.pv[ply + 1][k];
                        }
                        self.pv_len[ply] = child_len;
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(pos, m, &quiets[..n_quiets], depth, ply);
                        }
                        let bonus = history_bonus(depth);
                        self.update_capture_history(turn as usize, m, bonus);
                        for &c in &captures[..n_captures] {
                            self.update_capture_history(turn as usize, c, -bonus);
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if m.is_capture() && n_captures < captures.len() {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        if searched == 0 {
            // Only reachable when every move is excluded: at the root, or
            // in a singular test of the only legal move.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded == 0 && (!root || (self.root_exclude.is_empty() && self.root_only.is_empty())) {
            self.shared.tt.store(
                key,
                best_move.map_or(0, encode_move),
                score_to_tt(best, ply),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
        }
        let quiet_best = best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion());
        if !in_check
            && excluded == 0
            && quiet_best
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.update_correction(pos.turn(), pawns, best - raw_eval, depth);
        }
        best
    }

    /// The static evaluation `raw` adjusted by what searches learnt about
    /// the pawn structure in slot `pawns` ([`pawn_slot`]).
    #[inline]
    fn corrected(&self, turn: Color, pawns: usize, raw: i32) -> i32 {
        let c = self.h.correction[turn as usize][pawns] / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of the pawn structure in slot `pawns` toward
    /// `diff` (search result minus raw static evaluation), more for deeper
    /// searches.
    fn update_correction(&mut self, turn: Color, pawns: usize, diff: i32, depth: i32) {
        let slot = &mut self.h.correction[turn as usize][pawns];
        *slot = correction_step(*slot, diff, depth);
    }

    fn qsearch(&mut self, pos: &Chess, key: u64, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        let in_check = pos.is_check();
        let mut best;
        let stand;
        if in_check {
            best = -INF;
            stand = -INF;
        } else {
            stand = match entry {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !in_check {
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        }
        let mut scores = [0i32; 256];
        for (i, &m) in moves.iter().enumerate() {
            let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
            scores[i] = victim * 16 - value(m.role()) / 16;
        }
        let mut best_move = 0u16;
        let original_alpha = alpha;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut scores, i);
            let m = moves[i];
            if !in_check {
                let gain =
                    m.capture().map_or(0, value) + m.promotion().map_or(0, |p| value(p) - 100);
                if stand + gain + QS_DELTA <= alpha && !m.is_promotion() {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let (child, ckey) = self.make(pos, key, m, ply);
            let s = -self.qsearch(&child, ckey, ply + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = encode_move(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF {
            // In check with every evasion pruned cannot happen (evasions are
            // never pruned), so this is only reached without legal moves.
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            if in_check { 0 } else { stand },
            0,
            bound,
        );
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Classical;
    use crate::tests::pos;
    use shakmaty::uci::UciMove;

    #[test]
    fn helpers_win_with_a_better_score_as_deep_or_a_mate() {
        let line = |score| Line {
            score,
            pv: vec![NULL_MOVE],
        };
        let main = line(50);
        let h = |score, depth| (vec![line(score)], depth, depth + 4);
        assert_eq!(pick_thread((&main, 10), &[]), None);
        assert_eq!(pick_thread((&main, 10), &[h(40, 12), h(60, 9)]), None);
        assert_eq!(pick_thread((&main, 10), &[h(60, 10), h(80, 11)]), Some(1));
        assert_eq!(pick_thread((&main, 10), &[h(80, 11), h(60, 12)]), Some(0));
        assert_eq!(
            pick_thread((&main, 10), &[h(MATE - 3, 4), h(90, 12)]),
            Some(0)
        );
        assert_eq!(pick_thread((&line(MATE - 3), 9), &[h(MATE - 5, 20)]), None);
        assert_eq!(pick_thread((&main, 10), &[(Vec::new(), 0, 0)]), None);
    }

    #[test]
    fn pawn_slot_depends_on_the_pawns_only() {
        let a = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = pos("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2 3");
        let c = pos("rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
        assert_eq!(pawn_slot(&a), pawn_slot(&b));
        assert_ne!(pawn_slot(&a), pawn_slot(&c));
    }

    #[test]
    fn correction_converges_to_the_clamped_difference() {
        let mut entry = 0;
        for _ in 0..400 {
            entry = correction_step(entry, 30, 10);
        }
        assert!((entry / CORRECTION_GRAIN - 30).abs() <= 1, "{entry}");
        for _ in 0..400 {
            entry = correction_step(entry, -5000, 20);
            assert!(entry >= -CORRECTION_MAX * CORRECTION_GRAIN);
        }
        assert!(entry / CORRECTION_GRAIN <= -CORRECTION_MAX + 1, "{entry}");
        assert!(correction_step(0, 40, 1).abs() < correction_step(0, 40, 12).abs());
    }

    #[test]
    fn repetition_is_seen_through_the_game_history() {
        let tt = Table::new(1);
        let eval = Classical::default();
        let stop = AtomicBool::new(false);
        let shared = Shared {
            tt: &tt,
            eval: &eval,
            stop: &stop,
            abort: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            start: Instant::now(),
        };
        let mut pos = Chess::default();
        let mut keys = vec![key_of(&pos)];
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = m
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(mv);
            keys.push(key_of(&pos));
        }
        let budget = Budget {
            soft: None,
            hard: None,
            nodes: None,
            depth: 1,
        };
        let mut h = Heuristics::new();
        let w = Worker::new(&shared, &mut h, true, keys.clone(), budget);
        assert!(w.is_repetition(pos.halfmoves()));
        drop(w);
        let w = Worker::new(&shared, &mut h, true, keys[..4].to_vec(), budget);
        assert!(!w.is_repetition(3));
    }

    #[test]
    fn escaping_a_cheaper_attacker_is_ordered_first() {
        // The knight on e4 and a bishop landing on c4 are hit by the d5 pawn;
        // the rook on a3 is hit by the knight on b5.
        let p = pos("4k3/8/8/1n1p4/4N3/R7/8/4KB2 w - - 0 1");
        let threats = Threats::of(&p);
        let bonus = |uci: &str| {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&p)
                .expect("legal");
            threats.order_bonus(m)
        };
        assert_eq!(bonus("e4c3"), ESCAPE_BONUS);
        assert_eq!(bonus("f1c4"), -ESCAPE_BONUS);
        assert_eq!(bonus("f1d3"), 0);
        assert_eq!(bonus("a3h3"), ESCAPE_BONUS);
        assert_eq!(bonus("e1d2"), 0);
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let mut checked = 0;
        crate::tests::random_walk(200, 120, 7, |pos| {
            for &m in &pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(pos, m), child.is_check(), "{m} in {pos:?}");
                checked += usize::from(child.is_check());
            }
        });
        assert!(checked > 1000, "only {checked} checking moves seen");
    }

    #[test]
    fn move_codes_are_unique() {
        let pos: Chess = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        let codes: std::collections::HashSet<u16> =
            pos.legal_moves().iter().map(|m| encode_move(*m)).collect();
        assert_eq!(codes.len(), pos.legal_moves().len());
    }

    #[test]
    fn mate_scores_convert() {
        assert_eq!(to_score(MATE - 1), crate::Score::Mate(1));
        assert_eq!(to_score(MATE - 3), crate::Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), crate::Score::Mate(-1));
        assert_eq!(to_score(35), crate::Score::Cp(35));
    }
}
