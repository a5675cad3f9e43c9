//! Training of the [`crate::nnue`] network on positions from
//! [`crate::datagen`]: floating-point weights, Adam over mini-batches split
//! across threads, and quantisation into a [`Network`] at the end.
//!
//! The target of a position is the one [`crate::tune`] uses: the game
//! result blended with the logistic of the search score. The logistic's
//! scale `k` is fitted to the classical evaluation on the same data, so a
//! network centipawn means what a classical one does to the search's
//! margins. A network on [`Base::Classical`] is trained with the
//! classical score of each position added to its output, so it learns only
//! the difference.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::eval::Classical;
use crate::evaluator::Evaluator;
use crate::nnue::{self, BUCKETS, Base, INPUTS, Network, QA, QB};
use crate::rng::Rng;
use crate::tune::{fit_scale, sigmoid};

/// Training positions in compact form.
#[derive(Default)]
pub struct Dataset {
    /// White's view of every piece of every position, back to back.
    features: Vec<u16>,
    /// Where each position's features start (one more entry than positions).
    starts: Vec<u32>,
    /// Side to move is White.
    white: Vec<bool>,
    /// Each view's own king square in the view's orientation (White's,
    /// then Black's with the ranks flipped).
    kings: Vec<[u8; 2]>,
    bucket: Vec<u8>,
    result: Vec<f32>,
    /// Search score for White, in centipawns.
    score: Vec<f32>,
    /// The positions themselves, for the classical evaluation (a sample).
    sample: Vec<Chess>,
    /// What the network's output is added to.
    base: Base,
    /// With a base: its score for the side to move, in centipawns, of the
    /// position as it is and with its files mirrored.
    base_cp: Vec<[f32; 2]>,
}

/// Every this many positions one is kept for fitting `k`.
const SAMPLE_EVERY: usize = 16;

impl Dataset {
    /// An empty set for training a network on `base`.
    pub fn new(base: Base) -> Dataset {
        Dataset {
            base,
            ..Dataset::default()
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.white.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.white.is_empty()
    }

    /// Adds the `<FEN> | <result> | <score>` lines of `text`; returns the
    /// number of malformed lines skipped.
    pub fn add_lines(&mut self, text: &str) -> usize {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut bad = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let parsed = (|| {
                let mut fields = line.split('|');
                let pos: Chess = fields
                    .next()?
                    .trim()
                    .parse::<Fen>()
                    .ok()?
                    .into_position(CastlingMode::Standard)
                    .ok()?;
                let result: f32 = fields.next()?.trim().parse().ok()?;
                let score: f32 = fields.next()?.trim().parse().ok()?;
                if fields.next().is_some() || !(0.0..=1.0).contains(&result) {
                    return None;
                }
                Some((pos, result, score))
            })();
            let Some((pos, result, score)) = parsed else {
                bad += 1;
                continue;
            };
            let board = pos.board();
            for sq in board.occupied() {
                if let Some(pc) = board.piece_at(sq) {
                    self.features
                        .push(nnue::feature(Color::White, pc.color, pc.role, sq) as u16);
                }
            }
            self.starts.push(self.features.len() as u32);
            self.white.push(pos.turn() == Color::White);
            let king = |c: Color, flip: u8| board.king_of(c).map_or(0, |sq| sq as u8 ^ flip);
            self.kings
                .push([king(Color::White, 0), king(Color::Black, 56)]);
            self.bucket.push(nnue::bucket(board) as u8);
            self.result.push(result);
            self.score.push(score);
            if self.base != Base::Zero {
                let mut mirrored = board.clone();
                mirrored.flip_horizontal();
                self.base_cp.push([
                    self.base.score(board, pos.turn()) as f32,
                    self.base.score(&mirrored, pos.turn()) as f32,
                ]);
            }
            if self.len() % SAMPLE_EVERY == 1 {
                self.sample.push(pos);
            }
        }
        bad
    }

    fn features(&self, i: usize) -> &[u16] {
        &self.features[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The base's score of position `i` (files mirrored if `mirror`) in
    /// units of the network's output, for logistic scale `k`.
    #[inline]
    fn base_out(&self, i: usize, mirror: usize, k: f64) -> f32 {
        match self.base_cp.get(i) {
            Some(cp) => cp[usize::from(mirror != 0)] * (k / 400.0) as f32,
            None => 0.0,
        }
    }
}

/// The `k` that best fits the classical evaluation to the results of the
/// sampled positions.
pub fn fit_k(data: &Dataset) -> f64 {
    let eval = Classical::default();
    let pairs: Vec<(f64, f64)> = data
        .sample
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let e = f64::from(eval.evaluate(p));
            let white_e = if p.turn() == Color::White { e } else { -e };
            (white_e, f64::from(data.result[j * SAMPLE_EVERY]))
        })
        .collect();
    fit_scale(|k| {
        pairs
            .iter()
            .map(|&(e, r)| (r - sigmoid(k, e)).powi(2))
            .sum()
    })
}

/// Settings of a training run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Hidden units per view.
    pub hidden: usize,
    /// King buckets (one of [`nnue::KING_BUCKET_CHOICES`]).
    pub king_buckets: usize,
    /// Passes over the training data.
    pub epochs: u32,
    /// Adam step size at the start; divided by ten over the run.
    pub rate: f32,
    /// Positions per gradient step.
    pub batch: usize,
    /// Weight of the search score in the target (0 = result only).
    pub score_weight: f32,
    /// L2 decay of every weight per step, relative to the step size.
    pub decay: f32,
    /// Threads sharing each mini-batch.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffling.
    pub seed: u64,
    /// Also train on every position with its files mirrored.
    pub mirror: bool,
}

/// Why a network cannot be the starting point of a training run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitError {
    /// Its shape differs from the one the run asks for.
    Shape {
        /// Hidden units and king buckets of the network.
        network: (usize, usize),
        /// Hidden units and king buckets of the run.
        run: (usize, usize),
    },
    /// Its base differs from the one the data was read for.
    Base {
        /// The network's base.
        network: Base,
        /// The data's base.
        data: Base,
    },
}

impl std::fmt::Display for InitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InitError::Shape { network, run } => write!(
                f,
                "the starting network has {} hidden units and {} king buckets, the run asks for {} and {}",
                network.0, network.1, run.0, run.1
            ),
            InitError::Base { network, data } => write!(
                f,
                "the starting network is on the base {network:?}, the data was read for {data:?}"
            ),
        }
    }
}

impl std::error::Error for InitError {}

/// Floating-point weights, laid out as in [`Network`]. The output is in
/// units of `400 / k` centipawns, so its logistic (base 10) is the win
/// probability.
#[derive(Clone)]
struct Float {
    hidden: usize,
    king_buckets: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

impl Float {
    fn zeros(hidden: usize, king_buckets: usize) -> Float {
        Float {
            hidden,
            king_buckets,
            w1: vec![0.0; king_buckets * INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; BUCKETS * 2 * hidden],
            b2: vec![0.0; BUCKETS],
        }
    }

    /// Random weights; the output weights start at zero on a base, so the
    /// network starts as the base alone.
    fn random(hidden: usize, king_buckets: usize, base: Base, rng: &mut Rng) -> Float {
        let mut f = Float::zeros(hidden, king_buckets);
        let mut uniform = |scale: f64| ((rng.next_f64() * 2.0 - 1.0) * scale) as f32;
        let s1 = (1.0 / 32f64).sqrt();
        f.w1.iter_mut().for_each(|w| *w = uniform(s1));
        f.b1.iter_mut().for_each(|w| *w = 0.1 + uniform(0.05));
        let s2 = (1.0 / (2.0 * hidden as f64)).sqrt();
        let s2 = if base == Base::Zero { s2 } else { 0.0 };
        f.w2.iter_mut().for_each(|w| *w = uniform(s2));
        f
    }

    /// The weights of a quantised network, with its output rescaled to
    /// units of `400 / k` centipawns.
    fn from_network(net: &Network, k: f64) -> Float {
        let out = net.scale as f64 * k / 400.0;
        let (qa, qb) = (f64::from(QA), f64::from(QB));
        Float {
            hidden: net.hidden(),
            king_buckets: net.king_buckets(),
            w1: net.w1.iter().map(|&w| (f64::from(w) / qa) as f32).collect(),
            b1: net.b1.iter().map(|&w| (f64::from(w) / qa) as f32).collect(),
            w2: net
                .w2
                .iter()
                .map(|&w| (f64::from(w) / qb * out) as f32)
                .collect(),
            b2: net
                .b2
                .iter()
                .map(|&w| (f64::from(w) / (qa * qb) * out) as f32)
                .collect(),
        }
    }

    fn slices_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    /// Adds `other`'s weights to these.
    fn add_assign(&mut self, other: &Float) {
        for (a, b) in self.slices_mut().into_iter().zip(other.slices()) {
            add(a, b);
        }
    }

    fn slices(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    /// First input row of White's and of Black's view of position `i`
    /// (files mirrored if `mirror`): where their kings' buckets start.
    #[inline]
    fn row_offsets(&self, data: &Dataset, i: usize, mirror: usize) -> [usize; 2] {
        data.kings[i].map(|k| nnue::king_bucket(self.king_buckets, k as usize ^ mirror) * INPUTS)
    }

    /// Forward pass of position `i`, its files mirrored if `mirror`: fills
    /// both views' hidden sums (White's view first) and returns the output,
    /// the base included.
    fn forward(
        &self,
        data: &Dataset,
        i: usize,
        mirror: usize,
        k: f64,
        h: &mut [Vec<f32>; 2],
    ) -> f32 {
        let n = self.hidden;
        for v in h.iter_mut() {
            v.copy_from_slice(&self.b1);
        }
        let [rw, rb] = self.row_offsets(data, i, mirror);
        for &f in data.features(i) {
            let fw = f as usize ^ mirror;
            add(&mut h[0], &self.w1[(rw + fw) * n..][..n]);
            add(&mut h[1], &self.w1[(rb + nnue::flip(fw)) * n..][..n]);
        }
        let (us, them) = if data.white[i] { (0, 1) } else { (1, 0) };
        let out_w = &self.w2[data.bucket[i] as usize * 2 * n..][..2 * n];
        let mut out = self.b2[data.bucket[i] as usize] + data.base_out(i, mirror, k);
        for (side, view) in [us, them].into_iter().enumerate() {
            for (&x, &w) in h[view].iter().zip(&out_w[side * n..(side + 1) * n]) {
                let c = x.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }
}

#[inline]
fn add(acc: &mut [f32], row: &[f32]) {
    acc.iter_mut().zip(row).for_each(|(a, &w)| *a += w);
}

/// The target of position `i` for the side to move.
fn target(data: &Dataset, i: usize, k: f64, score_weight: f32) -> f32 {
    let t = (1.0 - score_weight) * data.result[i]
        + score_weight * sigmoid(k, f64::from(data.score[i])) as f32;
    if data.white[i] { t } else { 1.0 - t }
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-x))
}

/// Flag in a training index: use the position with its files mirrored
/// (a to h), which leaves its evaluation unchanged but for castling rights,
/// which the network does not see.
const MIRRORED: u32 = 1 << 31;

/// A training index: the position and the input mask that mirrors it.
#[inline]
fn decode(code: u32) -> (usize, usize) {
    (
        (code & !MIRRORED) as usize,
        if code & MIRRORED != 0 { 7 } else { 0 },
    )
}

/// Adds the gradient of the squared error over `idx` (see [`decode`]) to
/// `g`; returns the summed error.
fn accumulate(net: &Float, data: &Dataset, idx: &[u32], k: f64, sw: f32, g: &mut Float) -> f64 {
    let n = net.hidden;
    let mut h = [vec![0.0f32; n], vec![0.0f32; n]];
    let mut d = [vec![0.0f32; n], vec![0.0f32; n]];
    let mut total = 0.0f64;
    for &code in idx {
        let (i, mirror) = decode(code);
        let out = net.forward(data, i, mirror, k, &mut h);
        let p = logistic(out);
        let t = target(data, i, k, sw);
        total += f64::from((p - t) * (p - t));
        let grad_out = 2.0 * (p - t) * p * (1.0 - p) * std::f32::consts::LN_10;
        let b = data.bucket[i] as usize;
        let (us, them) = if data.white[i] { (0, 1) } else { (1, 0) };
        g.b2[b] += grad_out;
        for (side, view) in [us, them].into_iter().enumerate() {
            let base = b * 2 * n + side * n;
            for j in 0..n {
                let x = h[view][j];
                let c = x.clamp(0.0, 1.0);
                g.w2[base + j] += grad_out * c * c;
                d[view][j] = if x > 0.0 && x < 1.0 {
                    grad_out * net.w2[base + j] * 2.0 * x
                } else {
                    0.0
                };
            }
        }
        add(&mut g.b1, &d[0]);
        add(&mut g.b1, &d[1]);
        let [rw, rb] = net.row_offsets(data, i, mirror);
        for &f in data.features(i) {
            let fw = f as usize ^ mirror;
            let fb = nnue::flip(fw);
            add(&mut g.w1[(rw + fw) * n..][..n], &d[0]);
            add(&mut g.w1[(rb + fb) * n..][..n], &d[1]);
        }
    }
    total
}

/// Mean squared error of `net` on `data`.
fn loss(net: &Float, data: &Dataset, k: f64, sw: f32, threads: usize) -> f64 {
    let idx: Vec<u32> = (0..data.len() as u32).collect();
    let chunk = idx.len().div_ceil(threads.max(1)).max(1);
    let sum: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = idx
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut h = [vec![0.0f32; net.hidden], vec![0.0f32; net.hidden]];
                    part.iter()
                        .map(|&i| {
                            let i = i as usize;
                            let p = logistic(net.forward(data, i, 0, k, &mut h));
                            let t = target(data, i, k, sw);
                            f64::from((p - t) * (p - t))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    sum / data.len().max(1) as f64
}

/// Mean squared error of the classical evaluation on `data`'s sampled
/// positions, with the same targets: the bar a network has to clear.
pub fn classical_loss(data: &Dataset, k: f64, score_weight: f32) -> f64 {
    let eval = Classical::default();
    let total: f64 = data
        .sample
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let i = j * SAMPLE_EVERY;
            let prob = sigmoid(k, f64::from(eval.evaluate(p)));
            let t = f64::from(target(data, i, k, score_weight));
            (prob - t).powi(2)
        })
        .sum();
    total / data.sample.len().max(1) as f64
}

/// Trains a network on `train`, on the base its data was read for,
/// reporting the error on `valid` after each epoch, and returns the
/// quantised network of the epoch with the lowest validation error.
///
/// # Panics
///
/// Panics if `train` and `valid` were read for different bases.
pub fn train(
    cfg: &Config,
    train: &Dataset,
    valid: &Dataset,
    k: f64,
    log: &mut dyn FnMut(&str),
) -> Network {
    let mut rng = Rng::new(cfg.seed);
    let net = Float::random(cfg.hidden, cfg.king_buckets, train.base, &mut rng);
    run(cfg, net, None, rng, train, valid, k, log)
}

/// [`train`] starting from the weights of `start` instead of random ones
/// (fine-tuning on new data); its validation error before the first step
/// is reported as epoch 0 and is the one to beat.
///
/// # Errors
///
/// Fails if `start`'s hidden size or king buckets differ from `cfg`'s, or
/// its base from the data's.
///
/// # Panics
///
/// Panics if `train` and `valid` were read for different bases.
pub fn fine_tune(
    cfg: &Config,
    start: &Network,
    train: &Dataset,
    valid: &Dataset,
    k: f64,
    log: &mut dyn FnMut(&str),
) -> Result<Network, InitError> {
    let (network, run_shape) = (
        (start.hidden(), start.king_buckets()),
        (cfg.hidden, cfg.king_buckets),
    );
    if network != run_shape {
        return Err(InitError::Shape {
            network,
            run: run_shape,
        });
    }
    if start.base() != train.base {
        return Err(InitError::Base {
            network: start.base(),
            data: train.base,
        });
    }
    let net = Float::from_network(start, k);
    let before = loss(&net, valid, k, cfg.score_weight, cfg.threads.max(1));
    log(&format!("epoch 0 valid {before:.6}"));
    Ok(run(
        cfg,
        net,
        Some(before),
        Rng::new(cfg.seed),
        train,
        valid,
        k,
        log,
    ))
}

/// The training loop of [`train`] and [`fine_tune`] from the weights `net`,
/// whose validation error is `before` when it is worth keeping as it is.
#[allow(clippy::too_many_arguments)]
fn run(
    cfg: &Config,
    mut net: Float,
    before: Option<f64>,
    mut rng: Rng,
    train: &Dataset,
    valid: &Dataset,
    k: f64,
    log: &mut dyn FnMut(&str),
) -> Network {
    assert_eq!(train.base, valid.base, "data read for two bases");
    let mut m = Float::zeros(cfg.hidden, cfg.king_buckets);
    let mut v = Float::zeros(cfg.hidden, cfg.king_buckets);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    if cfg.mirror {
        order.extend((0..train.len() as u32).map(|i| i | MIRRORED));
    }
    let threads = cfg.threads.max(1);
    let steps_per_epoch = order.len().div_ceil(cfg.batch.max(1)).max(1);
    let total_steps = steps_per_epoch * cfg.epochs as usize;
    let mut step = 0usize;
    let mut best = (before.unwrap_or(f64::INFINITY), net.clone(), 0);
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut train_err = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            let chunk = batch.len().div_ceil(threads).max(1);
            let net_ref = &net;
            let grads: Vec<(Float, f64)> = std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .map(|part| {
                        s.spawn(move || {
                            let mut g = Float::zeros(cfg.hidden, cfg.king_buckets);
                            let e = accumulate(net_ref, train, part, k, cfg.score_weight, &mut g);
                            (g, e)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("training thread"))
                    .collect()
            });
            let mut grads = grads.into_iter();
            let (mut g, mut e) = grads.next().expect("one part at least");
            for (other, oe) in grads {
                g.add_assign(&other);
                e += oe;
            }
            train_err += e;
            step += 1;
            let progress = step as f32 / total_steps as f32;
            let rate = cfg.rate * 0.1f32.powf(progress);
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
            for (((w, gr), mm), vv) in net
                .slices_mut()
                .into_iter()
                .zip(g.slices_mut())
                .zip(m.slices_mut())
                .zip(v.slices_mut())
            {
                for j in 0..w.len() {
                    let gj = gr[j] * scale;
                    mm[j] = b1 * mm[j] + (1.0 - b1) * gj;
                    vv[j] = b2 * vv[j] + (1.0 - b2) * gj * gj;
                    w[j] -= rate * ((mm[j] / c1) / ((vv[j] / c2).sqrt() + eps) + cfg.decay * w[j]);
                }
            }
            clip(&mut net);
        }
        let valid_err = loss(&net, valid, k, cfg.score_weight, threads);
        log(&format!(
            "epoch {epoch} train {:.6} valid {valid_err:.6}",
            train_err / order.len().max(1) as f64
        ));
        if valid_err < best.0 {
            best = (valid_err, net.clone(), epoch);
        }
    }
    log(&format!("best valid {:.6} at epoch {}", best.0, best.2));
    quantise(&best.1, k).with_base(train.base)
}

/// Largest hidden weight (and bias) magnitude: [`nnue::MAX_W1`] once
/// quantised.
const W1_CLIP: f32 = (nnue::MAX_W1 as f32 - 0.5) / QA as f32;
/// Largest output weight magnitude: [`nnue::MAX_W2`] once quantised.
const W2_CLIP: f32 = (nnue::MAX_W2 as f32 - 0.5) / QB as f32;

fn clip(net: &mut Float) {
    for w in net.w1.iter_mut().chain(net.b1.iter_mut()) {
        *w = w.clamp(-W1_CLIP, W1_CLIP);
    }
    for w in net.w2.iter_mut() {
        *w = w.clamp(-W2_CLIP, W2_CLIP);
    }
}

/// Rounds the floating-point weights into a [`Network`] whose output is in
/// centipawns.
///
/// The output layer is rounded as finely as [`nnue::MAX_W2`] allows: its
/// weights are scaled up to fill that range and the network's centipawns
/// per output unit scaled down to match (the float output is `400 / k`
/// centipawns a unit either way). Trained output weights are small, so
/// at the plain `1 / QB` step most of them would be a few steps wide.
fn quantise(net: &Float, k: f64) -> Network {
    let q = |w: f32, s: f64| (f64::from(w) * s).round() as i16;
    let largest = net.w2.iter().fold(0f64, |m, &w| m.max(f64::from(w.abs())));
    // Infinite for an all-zero layer; below 1 for weights read back at
    // another k, which then need a coarser step than `1 / QB`.
    let room = (f64::from(nnue::MAX_W2) - 0.5) / (largest * f64::from(QB));
    let cp_per_unit = 400.0 / k;
    // A whole number of centipawns per quantised unit, no finer than the
    // room allows: then `gain` below never pushes a weight out of range.
    let scale = (cp_per_unit / room).ceil().max(1.0);
    let gain = cp_per_unit / scale;
    let (qa, qb) = (f64::from(QA), f64::from(QB));
    Network::new(
        net.hidden,
        scale as i32,
        net.king_buckets,
        net.w1.iter().map(|&w| q(w, qa)).collect(),
        net.b1.iter().map(|&w| q(w, qa)).collect(),
        net.w2.iter().map(|&w| q(w, qb * gain)).collect(),
        net.b2
            .iter()
            .map(|&w| (f64::from(w) * qa * qb * gain).round() as i32)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = "\
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1.0 | 900
3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.0 | -900
4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1 | 0.5 | 0
4k3/8/8/8/8/8/8/R3K3 b - - 0 1 | 1.0 | 500
r3k3/8/8/8/8/8/8/4K3 b - - 0 1 | 0.0 | -500
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1.0
not a position | 1.0 | 0
";

    #[test]
    fn loads_lines_and_skips_bad_ones() {
        let mut data = Dataset::default();
        assert_eq!(data.add_lines(LINES), 2);
        assert_eq!(data.len(), 5);
        assert_eq!(data.features(0).len(), 3);
        assert_eq!(data.features(2).len(), 10);
        assert!(!data.white[3]);
        // Targets are for the side to move.
        assert_eq!(target(&data, 3, 1.0, 0.0), 0.0);
        assert_eq!(target(&data, 0, 1.0, 0.0), 1.0);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        for base in [Base::Zero, Base::Classical] {
            for kb in nnue::KING_BUCKET_CHOICES {
                gradient_check(base, kb);
            }
        }
    }

    fn gradient_check(base: Base, kb: usize) {
        let mut data = Dataset::new(base);
        data.add_lines(LINES);
        let mut rng = Rng::new(5);
        let net = Float::random(6, kb, Base::Zero, &mut rng);
        let n = data.len() as u32;
        let idx: Vec<u32> = (0..n).chain((0..n).map(|i| i | MIRRORED)).collect();
        let mut g = Float::zeros(6, kb);
        accumulate(&net, &data, &idx, 1.0, 0.5, &mut g);
        let err = |n: &Float| {
            let mut unused = Float::zeros(6, kb);
            accumulate(n, &data, &idx, 1.0, 0.5, &mut unused)
        };
        // White's king on e1 and Black's queen on d8, as White sees them
        // with White's king on e1 (all the test positions have it there).
        let row = |role, sq| {
            nnue::king_bucket(kb, shakmaty::Square::E1 as usize) * INPUTS
                + nnue::feature(Color::White, Color::White, role, sq)
        };
        let king = row(shakmaty::Role::King, shakmaty::Square::E1);
        let queen = row(shakmaty::Role::Queen, shakmaty::Square::D1);
        for (which, j) in [
            (0usize, king * 6 + 2),
            (0, queen * 6 + 4),
            (1, 3),
            (2, 7),
            (2, 2 * 12 + 1),
            (3, 0),
            (3, 2),
        ] {
            let eps = 1e-2f32;
            let mut plus = net.clone();
            let mut minus = net.clone();
            plus.slices_mut()[which][j] += eps;
            minus.slices_mut()[which][j] -= eps;
            let numeric = (err(&plus) - err(&minus)) / (2.0 * f64::from(eps));
            let analytic = f64::from(g.slices_mut()[which][j]);
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * numeric.abs(),
                "{base:?} {kb} king buckets, param {which}/{j}: numeric {numeric}, \
                 analytic {analytic}"
            );
        }
    }

    /// Many passes over the few test lines, small batches.
    fn small_config() -> Config {
        Config {
            hidden: 8,
            king_buckets: 1,
            epochs: 300,
            rate: 0.01,
            batch: 5,
            score_weight: 0.5,
            decay: 0.0,
            threads: 2,
            seed: 1,
            mirror: true,
        }
    }

    #[test]
    fn training_fits_consistent_data_and_quantises_faithfully() {
        for kb in nnue::KING_BUCKET_CHOICES {
            training_check(Config {
                king_buckets: kb,
                ..small_config()
            });
        }
    }

    fn training_check(cfg: Config) {
        let mut data = Dataset::default();
        data.add_lines(LINES);
        let start = Float::random(8, cfg.king_buckets, Base::Zero, &mut Rng::new(cfg.seed));
        let before = loss(&start, &data, 1.0, 0.5, 1);
        let net = train(&cfg, &data, &data, 1.0, &mut |_| {});
        // The queen side must come out well ahead, for either side to move.
        let score = |fen: &str| {
            let p: Chess = fen
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            net.evaluate(&p)
        };
        assert!(score("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 200);
        assert!(score("3qk3/8/8/8/8/8/8/4K3 w - - 0 1") < -200);
        assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&net));
        assert_eq!(net.king_buckets(), cfg.king_buckets);
        assert!(
            before > 0.05,
            "the untrained network already fits: {before}"
        );
    }

    #[test]
    fn a_network_on_the_classical_base_starts_from_it_and_improves_on_it() {
        let mut data = Dataset::new(Base::Classical);
        data.add_lines(LINES);
        let k = 1.0;
        // Before training the network adds nothing: its error is the
        // classical evaluation's, position by position.
        let start = Float::random(8, 1, Base::Classical, &mut Rng::new(1));
        let positions: Vec<Chess> = LINES
            .lines()
            .take(data.len())
            .map(|l| {
                let fen = l.split('|').next().expect("a field");
                fen.trim()
                    .parse::<Fen>()
                    .expect("fen")
                    .into_position(CastlingMode::Standard)
                    .expect("legal")
            })
            .collect();
        let classical: f64 = positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let prob = sigmoid(k, f64::from(Classical::default().evaluate(p)));
                (prob - f64::from(target(&data, i, k, 0.5))).powi(2)
            })
            .sum::<f64>()
            / data.len() as f64;
        let before = loss(&start, &data, k, 0.5, 1);
        assert!((before - classical).abs() < 1e-6, "{before} vs {classical}");
        let cfg = small_config();
        let mut last = String::new();
        let net = train(&cfg, &data, &data, k, &mut |l| last = l.to_string());
        assert_eq!(net.base(), Base::Classical);
        let best: f64 = last
            .split_whitespace()
            .nth(2)
            .and_then(|v| v.parse().ok())
            .expect("best valid line");
        assert!(best < before * 0.9, "{best} not below {before}");
        assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&net));
    }

    /// The positions of [`LINES`] and a network trained on them for
    /// `epochs` with the small configuration.
    fn trained(epochs: u32) -> (Dataset, Network) {
        let mut data = Dataset::default();
        data.add_lines(LINES);
        let cfg = Config {
            epochs,
            ..small_config()
        };
        let net = train(&cfg, &data, &data, 1.0, &mut |_| {});
        (data, net)
    }

    #[test]
    fn a_network_read_back_into_floats_quantises_to_the_same_scores() {
        let (data, net) = trained(20);
        // At the k the network was quantised with, and at another (the
        // output is rescaled), the scores hold.
        for k in [1.0, 1.25] {
            let again = quantise(&Float::from_network(&net, k), k);
            same_scores(&data, &net, &again);
        }
    }

    #[test]
    fn output_weights_are_rounded_at_the_finest_step_that_fits() {
        let (_, net) = trained(20);
        let largest = net.w2.iter().map(|w| w.abs()).max().expect("weights");
        // Either the largest weight nearly fills the range, or the output
        // is already at one centipawn a unit.
        assert!(
            largest > nnue::MAX_W2 / 2 || net.scale == 1,
            "largest output weight {largest}, {} cp a unit",
            net.scale
        );
        assert!(largest <= nnue::MAX_W2);
    }

    fn same_scores(data: &Dataset, net: &Network, again: &Network) {
        for line in LINES.lines().take(data.len()) {
            let p: Chess = line
                .split('|')
                .next()
                .expect("a field")
                .trim()
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let (a, b) = (net.evaluate(&p), again.evaluate(&p));
            assert!((a - b).abs() <= 2 + a.abs() / 50, "{a} vs {b}");
        }
    }

    #[test]
    fn fine_tuning_starts_from_the_network_and_improves_on_it() {
        let (data, start) = trained(3);
        let mut lines = Vec::new();
        let tuned = fine_tune(&small_config(), &start, &data, &data, 1.0, &mut |l| {
            lines.push(l.to_string())
        })
        .expect("same shape and base");
        let value = |l: &str, at: usize| -> f64 {
            l.split_whitespace()
                .nth(at)
                .and_then(|v| v.parse().ok())
                .expect("a number")
        };
        let before = value(&lines[0], 3);
        assert!(lines[0].starts_with("epoch 0 valid"), "{}", lines[0]);
        let exact = loss(&Float::from_network(&start, 1.0), &data, 1.0, 0.5, 1);
        assert!((before - exact).abs() < 1e-6, "{before} vs {exact}");
        let best = value(lines.last().expect("a best line"), 2);
        assert!(best < before * 0.9, "{best} not below {before}");
        assert_ne!(tuned, start);
    }

    #[test]
    fn fine_tuning_refuses_another_shape_or_base() {
        let (data, start) = trained(1);
        let cfg = Config {
            epochs: 1,
            ..small_config()
        };
        let wider = Config { hidden: 16, ..cfg };
        assert_eq!(
            fine_tune(&wider, &start, &data, &data, 1.0, &mut |_| {}),
            Err(InitError::Shape {
                network: (8, 1),
                run: (16, 1)
            })
        );
        let mut classical = Dataset::new(Base::Classical);
        classical.add_lines(LINES);
        assert_eq!(
            fine_tune(&cfg, &start, &classical, &classical, 1.0, &mut |_| {}),
            Err(InitError::Base {
                network: Base::Zero,
                data: Base::Classical
            })
        );
    }
}
