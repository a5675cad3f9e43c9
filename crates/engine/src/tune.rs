//! Texel tuning: fit the evaluation weights so that a logistic function of
//! the static evaluation predicts game results of labelled positions (from
//! [`crate::datagen`]). Gradient descent with Adam over every weight.

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use crate::eval::{BlendInfo, SCALE_FULL, Trace, trace};
use crate::params::{MAX_PHASE, N_PARAMS, PST, Params, S};

/// One training position.
pub struct Sample {
    trace: Trace,
    info: BlendInfo,
    result: f64,
    /// Search score for White in centipawns, when the data has one.
    score: Option<f64>,
}

/// Reads `<FEN> | <result> [| <score>]` lines; bad lines are counted, not
/// fatal.
pub fn load(text: &str) -> (Vec<Sample>, usize) {
    let mut out = Vec::new();
    let mut bad = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split('|');
        let parsed = (|| {
            let fen = fields.next()?;
            let result: f64 = fields.next()?.trim().parse().ok()?;
            let score: Option<f64> = match fields.next() {
                Some(s) => Some(s.trim().parse().ok()?),
                None => None,
            };
            if fields.next().is_some() || !(0.0..=1.0).contains(&result) {
                return None;
            }
            let pos: Chess = fen
                .trim()
                .parse::<Fen>()
                .ok()?
                .into_position(CastlingMode::Standard)
                .ok()?;
            Some((pos, result, score))
        })();
        match parsed {
            Some((pos, result, score)) => {
                let (trace, info) = trace(pos.board());
                out.push(Sample {
                    trace,
                    info,
                    result,
                    score,
                });
            }
            None => bad += 1,
        }
    }
    (out, bad)
}

fn eval_of(w: &[[f64; 2]], s: &Sample) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.trace.terms {
        mg += w[i as usize][0] * f64::from(c);
        eg += w[i as usize][1] * f64::from(c);
    }
    let scale = if eg > 0.0 {
        s.info.scale_white
    } else {
        s.info.scale_black
    };
    let ph = f64::from(s.info.phase) / f64::from(MAX_PHASE);
    mg * ph + eg * f64::from(scale) / f64::from(SCALE_FULL) * (1.0 - ph)
}

/// Logistic on the centipawn scale: `1 / (1 + 10^(-k e / 400))`.
pub(crate) fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared prediction error of weights `w` with scaling constant `k`.
pub fn error(w: &[[f64; 2]], k: f64, data: &[Sample]) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(k, eval_of(w, s))).powi(2))
        .sum::<f64>()
        / data.len().max(1) as f64
}

fn to_float(p: &Params) -> Vec<[f64; 2]> {
    p.0.iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect()
}

/// The `k` that best fits the current weights.
pub fn best_k(w: &[[f64; 2]], data: &[Sample]) -> f64 {
    fit_scale(|k| error(w, k, data))
}

/// The `k` in 0.1..3 that minimises `err` (golden-section search; `err`
/// is taken to have one minimum there).
pub(crate) fn fit_scale(err: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Tunes from `start`, logging progress; returns the weights with the
/// lowest error on a held-out tenth of the data (early stopping). `lambda`
/// pulls every weight toward its starting value (L2), which keeps rarely
/// seen features from drifting on noise; `lambda_pst` applies to the
/// piece-square tables, which have the most, and sparsest, weights.
///
/// The target of a position is its game result, blended with the logistic
/// of its search score by `score_weight` (0 = result only) when the data
/// has scores: results carry what the evaluation misses, scores are far
/// less noisy.
pub fn tune(
    start: &Params,
    all: &[Sample],
    epochs: u32,
    rate: f64,
    (lambda, lambda_pst): (f64, f64),
    score_weight: f64,
    log: &mut dyn FnMut(&str),
) -> Params {
    let w0 = to_float(start);
    let mut w = w0.clone();
    let k = best_k(&w, all);
    let target = |s: &Sample| match s.score {
        Some(cp) => (1.0 - score_weight) * s.result + score_weight * sigmoid(k, cp),
        None => s.result,
    };
    let held: Vec<(&Sample, f64)> = all
        .iter()
        .skip(9)
        .step_by(10)
        .map(|s| (s, target(s)))
        .collect();
    let data: Vec<(&Sample, f64)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 10 != 9)
        .map(|(_, s)| (s, target(s)))
        .collect();
    let err = |w: &[[f64; 2]], set: &[(&Sample, f64)]| -> f64 {
        set.iter()
            .map(|(s, t)| (t - sigmoid(k, eval_of(w, s))).powi(2))
            .sum::<f64>()
            / set.len().max(1) as f64
    };
    let mut best_w = w.clone();
    let mut best_held = err(&w, &held);
    log(&format!(
        "k = {k:.4}, initial error {:.6} (held-out {best_held:.6})",
        err(&w, &data)
    ));
    let mut m = vec![[0.0f64; 2]; N_PARAMS];
    let mut v = vec![[0.0f64; 2]; N_PARAMS];
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; N_PARAMS];
        for &(s, t) in &data {
            let e = eval_of(&w, s);
            let p = sigmoid(k, e);
            // d/de of (t - p)^2 = -2 (t - p) p (1 - p) k ln10 / 400
            let g = -2.0 * (t - p) * p * (1.0 - p) * k * ln10 / 400.0;
            let ph = f64::from(s.info.phase) / f64::from(MAX_PHASE);
            let eg_raw: f64 = s
                .trace
                .terms
                .iter()
                .map(|&(i, c)| w[i as usize][1] * f64::from(c))
                .sum();
            let scale = if eg_raw > 0.0 {
                s.info.scale_white
            } else {
                s.info.scale_black
            };
            let egf = f64::from(scale) / f64::from(SCALE_FULL) * (1.0 - ph);
            for &(i, c) in &s.trace.terms {
                grad[i as usize][0] += g * f64::from(c) * ph;
                grad[i as usize][1] += g * f64::from(c) * egf;
            }
        }
        let n = data.len().max(1) as f64;
        for i in 0..N_PARAMS {
            for j in 0..2 {
                let l = if (PST..PST + 6 * 64).contains(&i) {
                    lambda_pst
                } else {
                    lambda
                };
                let gr = grad[i][j] / n + 2.0 * l * (w[i][j] - w0[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * gr;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * gr * gr;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 10 == 0 || epoch == epochs {
            let h = err(&w, &held);
            if h < best_held {
                best_held = h;
                best_w = w.clone();
            }
            log(&format!(
                "epoch {epoch} error {:.6} held-out {h:.6}",
                err(&w, &data)
            ));
        }
    }
    log(&format!("best held-out error {best_held:.6}"));
    let mut out = start.clone();
    for (i, x) in best_w.iter().enumerate() {
        // The king's material weight is meaningless (always one each).
        out.0[i] = S(x[0].round() as i32, x[1].round() as i32);
    }
    out.0[crate::params::MATERIAL + 5] = S(0, 0);
    out.0[crate::params::TEMPO] = start.0[crate::params::TEMPO];
    out
}

/// Rust source of a weight table, for `crates/engine/src/tuned.rs`.
pub fn to_rust(p: &Params) -> String {
    let mut s = String::from(
        "//! Evaluation weights fitted by `plyyard tune` (Texel method) on\n//! self-play positions from `plyyard datagen`. Generated file.\n\nuse crate::params::{N_PARAMS, S};\n\n/// Tuned weights, in the layout of [`crate::params`].\npub const WEIGHTS: [S; N_PARAMS] = [\n",
    );
    for x in p.0.iter() {
        let _ = writeln!(s, "    S({}, {}),", x.0, x.1);
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_reduces_error_on_consistent_data() {
        // Extra material for the winner in every position: tuning must not
        // make the fit worse.
        let text = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1.0\n\
                    3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.0\n\
                    4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1 | 0.5\n\
                    4k3/8/8/8/8/8/8/R3K3 b - - 0 1 | 1.0\n\
                    r3k3/8/8/8/8/8/8/4K3 b - - 0 1 | 0.0\n\
                    not a position | 1.0\n";
        let (data, bad) = load(text);
        assert_eq!((data.len(), bad), (5, 1));
        let start = Params(crate::tuned::WEIGHTS);
        let w0 = to_float(&start);
        let k = best_k(&w0, &data);
        let before = error(&w0, k, &data);
        let tuned = tune(&start, &data, 20, 1.0, (0.0, 0.0), 0.0, &mut |_| {});
        let after = error(&to_float(&tuned), k, &data);
        assert!(after <= before + 1e-9, "{after} > {before}");
        assert!(to_rust(&tuned).contains("pub const WEIGHTS"));
    }

    #[test]
    fn tuned_table_text_round_trips() {
        let p = Params::initial();
        assert_eq!(Params::from_rust(&to_rust(&p)), Ok(p));
    }
}
