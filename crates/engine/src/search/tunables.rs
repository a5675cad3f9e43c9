//! The search's tunables, all in one place: pruning and reduction margins,
//! history limits, move-order scores, the correction table's size and
//! scale, and how often the clock is read.

pub(super) const ASPIRATION_DELTA: i32 = 18;
pub(super) const RFP_MAX_DEPTH: i32 = 8;
pub(super) const RFP_MARGIN: i32 = 75;
/// From this depth on, reverse futility first checks that the opponent
/// has no mate in one (a test too costly for the shallowest nodes).
pub(super) const RFP_THREAT_MIN_DEPTH: i32 = 3;
pub(super) const NMP_MIN_DEPTH: i32 = 3;
pub(super) const FUTILITY_MAX_DEPTH: i32 = 8;
pub(super) const FUTILITY_BASE: i32 = 90;
pub(super) const FUTILITY_PER_DEPTH: i32 = 90;
pub(super) const SEE_QUIET_MARGIN: i32 = 55;
pub(super) const SEE_CAPTURE_MARGIN: i32 = 90;
/// Material a check may lose by exchange per ply of remaining depth (not
/// of reduced depth) and still be searched.
pub(super) const SEE_CHECK_MARGIN: i32 = 200;
pub(super) const LMP_MAX_DEPTH: i32 = 8;
pub(super) const SE_MIN_DEPTH: i32 = 7;
pub(super) const SE_TT_DEPTH_SLACK: i32 = 3;
pub(super) const SE_MARGIN_PER_DEPTH: i32 = 2;
pub(super) const QS_DELTA: i32 = 200;
pub(super) const HISTORY_MAX: i32 = 16384;
/// Quiet moves whose continuation history is below this, per ply of
/// remaining depth, are skipped near the leaves.
pub(super) const CONT_PRUNE_PER_DEPTH: i32 = -3000;
pub(super) const CONT_PRUNE_MAX_DEPTH: i32 = 3;
/// Combined history per ply of late-move reduction removed or added.
pub(super) const LMR_HISTORY_DIVISOR: i32 = 12288;
/// Capture history is divided by this before joining the victim-first
/// capture order.
pub(super) const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Ordering bonus of a quiet move that takes a piece out of attack by a
/// cheaper piece (and malus for one that moves into such an attack).
pub(super) const ESCAPE_BONUS: i32 = 16384;
/// Order score of the counter move, the lowest of the special quiet moves:
/// at or above it a move is the table move, a good capture or a killer.
pub(super) const COUNTER_ORDER: i32 = 398_000_000;
pub(super) const TIME_CHECK_MASK: u64 = 1023;
/// Entries of the static-evaluation correction table, per side to move.
pub(super) const CORRECTION_SIZE: usize = 16384;
/// Fixed-point units per centipawn in the correction table.
pub(super) const CORRECTION_GRAIN: i32 = 256;
/// Largest correction applied, in centipawns (the quiescence search's
/// stand-pat does not use it: applied there, with 96 cp, it measured ±0).
pub(super) const CORRECTION_MAX: i32 = 48;
/// Fraction of the soft budget after which no new iteration starts (the
/// next one would likely overrun it).
pub(super) const SOFT_STOP: f64 = 0.8;
