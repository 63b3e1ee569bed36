//! `fivefold-tools train`: fits the network of [`crate::nn`] to `datagen` positions.
//!
//! A plain Rust trainer (no framework): the forward pass in floating point, the backward
//! pass written out by hand, Adam. The network is the engine's own (the same rows,
//! pooling and head, [`crate::nn::net::Head::forward`]); the engine's table is the
//! trainer's rounded to 1/[`QA`].
//!
//! **Targets.** Value: the game's result for the side to move (win, draw or loss) mixed
//! with the search's score (`σ(score / 200)` as win or loss, 200 being the evaluation's
//! units per logit; a proven score is a certain win or loss), `--result-weight` of the
//! first; the result alone for a record without a score (`import`'s, flag `NO_SCORE`),
//! the score alone for a position off the game's path (`datagen --side-positions`, flag
//! `OFF_PATH`), which has no result.
//! Policy: the move the search chose. The loss is the value's cross-entropy plus
//! `--policy-weight` times the policy's.
//!
//! **Symmetry.** The network is the same on all eight images of a position (mirror
//! images of a line share a row and the four directions share the table), so there is
//! nothing to gain from augmenting the data with them.
//!
//! **Reproducible.** The batch order comes from `--seed`; the gradient of a batch is
//! summed in a fixed number of shards in a fixed order, so `--threads` changes the speed,
//! never the result. The loss and accuracy on held-out positions are reported after each
//! epoch: those of the `--held-out` files, or else one game in twenty of the `--data`
//! files, chosen by a hash of the file's name and the game's number (so a file's games
//! stay on their side of the split whatever other files are listed, and a network can be
//! compared with the one before it on the games neither trained on).
//!
//! **One-ply pick.** Beside the losses, the held-out report gives how often the value
//! alone would play the record's move: of up to [`PICK_POSITIONS`] held-out positions
//! (evenly spaced; those where either side can make five, or whose move was a forced
//! block or a threat-solver win, left out), how often the legal move in the stones'
//! bounding box widened by two after which the value rates the position worst for the
//! opponent is the record's move; the classical evaluation's pick is printed beside it.
//! A search compares the positions after a node's moves, not games' outcomes, so a value
//! can predict results better and still rank those positions worse (network.md).

use crate::cli::args;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rng::{Rng, SplitMix64};
use crate::core::rules;
use crate::core::types::{cell, Color, Pos, Rule, Score, CELLS};
use crate::nn::features::{square_rows, ROWS, ROWS_PER_SQUARE};
use crate::nn::net::{
    mix_parts, sets_for, wdl, Head, Net, Set, DIM, HID, MIX_LEN, POOL_DIV, QA, TABLE_LIMIT,
};
use crate::nn::Evaluator;
use crate::tools::data::{self, GameResult, Header, Record};
use anyhow::{bail, ensure, Context, Result};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Shards a batch's gradient is summed in (fixed, so the thread count cannot change the
/// sums' order).
const SHARDS: usize = 4;
/// One game in this many is held out for validation.
const HOLD_OUT: u64 = 20;
/// Held-out positions the one-ply pick is measured on, at most (see the module text).
pub const PICK_POSITIONS: usize = 2000;

#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Reads datagen files (all of one rule; any board sizes), trains, and writes the network
file the engine loads (format: crate::nn::net, docs/network.md). Progress goes to stderr.
The same files, options and --seed give the same network with any --threads.

Example:
  fivefold-tools train --data a.data --data b.data --out freestyle.fnet --epochs 8")]
pub struct Options {
    /// A datagen file (repeat for more)
    #[arg(long = "data", value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Start from this network instead of random weights
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Let --init be a network of another rule: its weight sets are taken as they are,
    /// or a one-set network's set for each of renju's two (black's and white's)
    #[arg(long, requires = "init")]
    pub cross_rule: bool,
    /// Passes over the training positions
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = |s: &str| args::number_in(s, 0usize, 1000))]
    pub epochs: usize,
    /// Positions per step
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = |s: &str| args::number_in(s, 1usize, 1_000_000))]
    pub batch: usize,
    /// Adam's learning rate (decays linearly to a tenth of it by the end)
    #[arg(long, value_name = "X", default_value_t = 0.002, value_parser = args::positive)]
    pub lr: f64,
    /// Weight of the game's result in the value target (the rest is the search's score)
    #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = unit)]
    pub result_weight: f64,
    /// Weight of the policy's loss against the value's
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = unit_or_more)]
    pub policy_weight: f64,
    /// Validate on this file's positions, never trained on (repeat for more); without it,
    /// one game in twenty of the --data files is held out
    #[arg(long = "held-out", value_name = "FILE")]
    pub held_out: Vec<PathBuf>,
    /// Use at most this many positions (the first ones read)
    #[arg(long, value_name = "N")]
    pub max_positions: Option<usize>,
    /// Seed of the initial weights and the batch order
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = args::count)]
    pub seed: u64,
    /// Worker threads [default: the number of cores]
    #[arg(long, value_name = "N", value_parser = args::threads)]
    pub threads: Option<usize>,
    /// Give the policy a mix step (each square's vector mixed with its neighbours' before
    /// its policy logit; docs/network.md); from an --init network without one, the step
    /// starts as the identity. A network that has one keeps it without this option
    #[arg(long)]
    pub policy_mix: bool,
}

fn unit(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

fn unit_or_more(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 to 100")),
    }
}

/// The trainer's weights: the table in floating point, row after row, and the head.
#[derive(Clone, Debug)]
pub struct FloatSet {
    pub table: Vec<f32>,
    pub head: Head,
    /// The policy mix ([`MIX_LEN`] numbers, [`Set::mix`]), or empty for none.
    pub mix: Vec<f32>,
}

/// The policy mix at the identity: the centre's weight 1, the rest 0.
fn identity_mix() -> Vec<f32> {
    let mut m = vec![0.0; MIX_LEN];
    m[..DIM].fill(1.0);
    m
}

impl FloatSet {
    /// Zeros, with a policy mix or without.
    fn zeros(mixed: bool) -> FloatSet {
        FloatSet {
            table: vec![0.0; ROWS * DIM],
            head: Head::zeros(),
            mix: vec![0.0; if mixed { MIX_LEN } else { 0 }],
        }
    }

    /// Zeros of the same shape as `self`.
    fn zeros_like(&self) -> FloatSet {
        FloatSet::zeros(!self.mix.is_empty())
    }

    /// Random weights (a policy mix, where asked for, at the identity).
    fn random(rng: &mut impl Rng, mixed: bool) -> FloatSet {
        let mut u =
            |lo: f32, hi: f32| lo + (hi - lo) * (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        let mut s = FloatSet::zeros(mixed);
        // Rows a little positive on average, so a square's sum of five starts inside
        // the clip's open range where gradients flow.
        for w in s.table.iter_mut() {
            *w = u(-0.03, 0.07);
        }
        let h = &mut s.head;
        for w in h.w1.iter_mut() {
            *w = u(-0.35, 0.35);
        }
        for w in h.w2.iter_mut() {
            *w = u(-0.05, 0.05);
        }
        for w in h.wp.iter_mut() {
            *w = u(-0.3, 0.3);
        }
        // The classical evaluation at full weight: training starts from it.
        h.cw[0] = 1.0;
        if mixed {
            s.mix = identity_mix();
        }
        s
    }

    fn from_set(set: &Set) -> FloatSet {
        FloatSet {
            table: set
                .table
                .iter()
                .flat_map(|r| r.iter().map(|&v| v as f32 / QA as f32))
                .collect(),
            head: set.head.clone(),
            mix: set.mix.clone(),
        }
    }

    fn to_set(&self) -> Set {
        Set {
            table: self
                .table
                .chunks(DIM)
                .map(|r| {
                    let mut row = [0i16; DIM];
                    for (q, &w) in row.iter_mut().zip(r) {
                        *q = (w * QA as f32)
                            .round()
                            .clamp(i16::MIN as f32, i16::MAX as f32)
                            as i16;
                    }
                    row
                })
                .collect(),
            head: self.head.clone(),
            mix: self.mix.clone(),
        }
    }

    fn params_mut(&mut self) -> Vec<&mut Vec<f32>> {
        let mut v = vec![&mut self.table];
        v.extend(self.head.parts_mut());
        v.push(&mut self.mix);
        v
    }

    fn params(&self) -> Vec<&Vec<f32>> {
        let mut v = vec![&self.table];
        v.extend(self.head.parts());
        v.push(&self.mix);
        v
    }

    fn clear(&mut self) {
        for p in self.params_mut() {
            p.fill(0.0);
        }
    }

    fn add(&mut self, other: &FloatSet) {
        for (a, b) in self.params_mut().into_iter().zip(other.params()) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// One position ready for the network: the rows of its empty squares.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Weight set: the side to move's colour index (only renju has two sets).
    view: Color,
    rows: Vec<[u32; ROWS_PER_SQUARE]>,
    /// For a network with a policy mix, per entry of `rows`, the entries of its empty
    /// neighbours: four orthogonal, then four diagonal (`u32::MAX` where the neighbour is
    /// occupied or off the board); else empty.
    nb: Vec<[u32; 8]>,
    /// Index into `rows` of the chosen move.
    best: usize,
    /// Win, draw, loss target.
    target: [f32; 3],
    /// The game's result for the side to move: 1, 0, -1.
    result: i8,
    /// The head's classical input ([`crate::nn::net::classical_input`]).
    classical: f32,
}

/// The value target of a record (see the module text).
fn value_target(r: &Record, result_weight: f32) -> [f32; 3] {
    // An imported record has no score: the result is the whole target; an off-path
    // one has no result: the score is.
    let result_weight = if r.flags & data::flags::NO_SCORE != 0 {
        1.0
    } else if r.flags & data::flags::OFF_PATH != 0 {
        0.0
    } else {
        result_weight
    };
    let result = match r.result {
        GameResult::Win => [1.0, 0.0, 0.0],
        GameResult::Draw => [0.0, 1.0, 0.0],
        GameResult::Loss => [0.0, 0.0, 1.0],
    };
    let score = match data::score_mate_plies(r.score) {
        Some(n) if n > 0 => [1.0, 0.0, 0.0],
        Some(_) => [0.0, 0.0, 1.0],
        None => {
            let p = crate::core::scale::expected_f32(r.score as f32);
            [p, 0.0, 1.0 - p]
        }
    };
    [0, 1, 2].map(|k| result_weight * result[k] + (1.0 - result_weight) * score[k])
}

/// Builds the position of a record and lists its empty squares' rows, and with `mixed`
/// their neighbours.
pub fn prepare(h: &Header, r: &Record, result_weight: f32, mixed: bool) -> Result<Prepared> {
    let b = r.to_board(h)?;
    let view = r.side_to_move;
    let best_pos = r.best_pos(h);
    let mut rows = Vec::with_capacity(h.squares());
    let mut best = usize::MAX;
    for p in b.squares() {
        if !b.is_empty(p) {
            continue;
        }
        if p == best_pos {
            best = rows.len();
        }
        rows.push(square_rows(&b, p, view).map(|r| r as u32));
    }
    ensure!(
        best != usize::MAX,
        "the best move of a record is not an empty square"
    );
    let mut nb = Vec::new();
    if mixed {
        let mut at = vec![u32::MAX; CELLS];
        for (k, p) in b.squares().filter(|&p| b.is_empty(p)).enumerate() {
            at[p.idx()] = k as u32;
        }
        // One step each way along the first two directions (the orthogonal neighbours),
        // then along the last two (the diagonal ones), as nn::eval's ORTH and DIAG.
        let steps = [0, 1, 2, 3].map(|d| [(d, 1), (d, -1)]).concat();
        for p in b.squares().filter(|&p| b.is_empty(p)) {
            nb.push(std::array::from_fn(|j| {
                let (d, k) = steps[j];
                let q = p.step(d, k);
                if b.cell(q) == cell::WALL {
                    u32::MAX
                } else {
                    at[q.idx()]
                }
            }));
        }
    }
    Ok(Prepared {
        view,
        rows,
        nb,
        best,
        target: value_target(r, result_weight),
        result: r.result.to_i8(),
        classical: crate::nn::net::classical_input(&b),
    })
}

/// Losses and counts of a pass.
#[derive(Default, Clone, Copy, Debug)]
pub struct Tally {
    pub positions: usize,
    pub value_loss: f64,
    pub policy_loss: f64,
    /// Positions whose chosen move had the highest policy logit.
    pub policy_top1: usize,
    /// Positions of won or lost games, and those where the value favoured the winner.
    pub decided: usize,
    pub value_right: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.value_loss += o.value_loss;
        self.policy_loss += o.policy_loss;
        self.policy_top1 += o.policy_top1;
        self.decided += o.decided;
        self.value_right += o.value_right;
    }
    fn line(&self) -> String {
        let n = self.positions.max(1) as f64;
        format!(
            "value {:.4} (winner favoured {:.1}%), policy {:.4}, top-1 {:.1}%",
            self.value_loss / n,
            100.0 * self.value_right as f64 / self.decided.max(1) as f64,
            self.policy_loss / n,
            100.0 * self.policy_top1 as f64 / n
        )
    }
}

/// The forward pass of one position: what the backward pass needs.
pub struct Forward {
    /// Per empty square, the sum of its rows before the clip.
    pub f: Vec<[f32; DIM]>,
    /// With a policy mix, per empty square: its clipped vector, its orthogonal and its
    /// diagonal neighbours' clipped vectors summed, and its mixed vector before the clip;
    /// else empty.
    pub v: Vec<[f32; DIM]>,
    pub orth: Vec<[f32; DIM]>,
    pub diag: Vec<[f32; DIM]>,
    pub t: Vec<[f32; DIM]>,
    pub pool: [f32; DIM],
    pub out: crate::nn::net::HeadOut,
    /// Win, draw, loss probabilities.
    pub q: [f32; 3],
    /// Per empty square, its policy logit.
    pub logits: Vec<f32>,
}

impl Forward {
    /// The vector square `k`'s policy logit reads: its clipped vector, or with a policy
    /// mix its clipped mixed vector.
    fn policy_vector(&self, k: usize) -> [f32; DIM] {
        let src = if self.t.is_empty() {
            &self.f[k]
        } else {
            &self.t[k]
        };
        src.map(|x| x.clamp(0.0, 1.0))
    }
}

/// The network on one position, in floating point.
pub fn forward(w: &FloatSet, s: &Prepared) -> Forward {
    let n = s.rows.len();
    let mut f = vec![[0f32; DIM]; n];
    let mut pool = [0f32; DIM];
    for (fk, rows) in f.iter_mut().zip(&s.rows) {
        for &r in rows {
            let row = &w.table[r as usize * DIM..(r as usize + 1) * DIM];
            for (a, &x) in fk.iter_mut().zip(row) {
                *a += x;
            }
        }
        for (p, &x) in pool.iter_mut().zip(fk.iter()) {
            *p += x.clamp(0.0, 1.0);
        }
    }
    for p in pool.iter_mut() {
        *p /= POOL_DIV;
    }
    let (mut v, mut orth, mut diag, mut t) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    if !w.mix.is_empty() {
        let [c, a, b, e] = mix_parts(&w.mix);
        v = f.iter().map(|fk| fk.map(|x| x.clamp(0.0, 1.0))).collect();
        orth = vec![[0f32; DIM]; n];
        diag = vec![[0f32; DIM]; n];
        t = vec![[0f32; DIM]; n];
        for k in 0..n {
            for (j, &q) in s.nb[k].iter().enumerate() {
                if q == u32::MAX {
                    continue;
                }
                let acc = if j < 4 { &mut orth[k] } else { &mut diag[k] };
                for (o, &x) in acc.iter_mut().zip(&v[q as usize]) {
                    *o += x;
                }
            }
            for i in 0..DIM {
                t[k][i] = c[i] * v[k][i] + a[i] * orth[k][i] + b[i] * diag[k][i] + e[i];
            }
        }
    }
    let out = w.head.forward(&pool, s.classical);
    let q = wdl(&out.logits);
    let mut fw = Forward {
        f,
        v,
        orth,
        diag,
        t,
        pool,
        out,
        q,
        logits: Vec::new(),
    };
    fw.logits = (0..n)
        .map(|k| {
            fw.policy_vector(k)
                .iter()
                .zip(&fw.out.g)
                .map(|(&x, &g)| x * g)
                .sum()
        })
        .collect();
    fw
}

/// The forward pass of one position and, when `grad` is given, the backward pass added
/// into it, scaled by `scale`. Returns the tally of this one position.
#[allow(clippy::needless_range_loop)] // matrix indices: `k * HID + j` and the like
fn forward_backward(
    w: &FloatSet,
    s: &Prepared,
    policy_weight: f32,
    grad: Option<(&mut FloatSet, f32)>,
) -> Tally {
    let fw = forward(w, s);
    let (f, pool, out, q, logits) = (&fw.f, fw.pool, &fw.out, fw.q, &fw.logits);
    let value_loss: f32 = -(0..3)
        .map(|k| s.target[k] * q[k].max(1e-12).ln())
        .sum::<f32>();
    let m = logits.iter().cloned().fold(f32::MIN, f32::max);
    let top1 = logits[s.best] >= m;
    let z: f32 = logits.iter().map(|&l| (l - m).exp()).sum();
    let policy_loss = -(logits[s.best] - m - z.ln());
    let tally = Tally {
        positions: 1,
        value_loss: value_loss as f64,
        policy_loss: policy_loss as f64,
        policy_top1: top1 as usize,
        decided: (s.result != 0) as usize,
        value_right: (s.result as f32 * (q[0] - q[2]) > 0.0) as usize,
    };
    let Some((g, scale)) = grad else {
        return tally;
    };
    let head = &w.head;
    let gh = &mut g.head;
    // Value head.
    let d_out: [f32; 3] = [0, 1, 2].map(|k| (q[k] - s.target[k]) * scale);
    gh.cw[0] += (d_out[0] - d_out[2]) * s.classical;
    let mut dh = [0f32; HID];
    for k in 0..3 {
        gh.b2[k] += d_out[k];
        for j in 0..HID {
            gh.w2[k * HID + j] += d_out[k] * out.h[j];
            dh[j] += head.w2[k * HID + j] * d_out[k];
        }
    }
    // Policy: d logit_k = (softmax_k - [k = best]) * weight.
    let pw = policy_weight * scale;
    let dl: Vec<f32> = logits
        .iter()
        .enumerate()
        .map(|(k, &l)| ((l - m).exp() / z - (k == s.best) as u8 as f32) * pw)
        .collect();
    let mut dg = [0f32; DIM];
    for (k, &d) in dl.iter().enumerate() {
        for (a, &x) in dg.iter_mut().zip(fw.policy_vector(k).iter()) {
            *a += d * x;
        }
    }
    for i in 0..DIM {
        gh.bp[i] += dg[i];
        for j in 0..HID {
            gh.wp[i * HID + j] += dg[i] * out.h[j];
            dh[j] += head.wp[i * HID + j] * dg[i];
        }
    }
    // Hidden layer.
    let mut dpool = [0f32; DIM];
    for j in 0..HID {
        if out.z1[j] <= 0.0 {
            continue;
        }
        let dz = dh[j];
        gh.b1[j] += dz;
        for i in 0..DIM {
            gh.w1[j * DIM + i] += dz * pool[i];
            dpool[i] += head.w1[j * DIM + i] * dz;
        }
    }
    // Squares: each square's clipped vector feeds the pool, and its own policy logit
    // (without a policy mix) or its own and its neighbours' mixed vectors (with one).
    let dpool_sq = dpool.map(|d| d / POOL_DIV);
    let n = f.len();
    let mut df = vec![[0f32; DIM]; n];
    if fw.t.is_empty() {
        for k in 0..n {
            for i in 0..DIM {
                if f[k][i] > 0.0 && f[k][i] < 1.0 {
                    df[k][i] = dpool_sq[i] + dl[k] * out.g[i];
                }
            }
        }
    } else {
        // The gradient at each mixed vector before its clip.
        let mut dt = vec![[0f32; DIM]; n];
        for k in 0..n {
            for i in 0..DIM {
                if fw.t[k][i] > 0.0 && fw.t[k][i] < 1.0 {
                    dt[k][i] = dl[k] * out.g[i];
                }
            }
        }
        let [c, a, b, _] = mix_parts(&w.mix);
        let (gc, rest) = g.mix.split_at_mut(DIM);
        let (ga, rest) = rest.split_at_mut(DIM);
        let (gb, ge) = rest.split_at_mut(DIM);
        for k in 0..n {
            for i in 0..DIM {
                let d = dt[k][i];
                gc[i] += d * fw.v[k][i];
                ga[i] += d * fw.orth[k][i];
                gb[i] += d * fw.diag[k][i];
                ge[i] += d;
            }
            // Square k's clipped vector reaches its own mixed vector and its
            // neighbours' (the neighbour relation is symmetric).
            let mut dv = [0f32; DIM];
            for i in 0..DIM {
                dv[i] = dpool_sq[i] + c[i] * dt[k][i];
            }
            for (j, &q) in s.nb[k].iter().enumerate() {
                if q == u32::MAX {
                    continue;
                }
                let wgt = if j < 4 { a } else { b };
                for i in 0..DIM {
                    dv[i] += wgt[i] * dt[q as usize][i];
                }
            }
            for i in 0..DIM {
                if f[k][i] > 0.0 && f[k][i] < 1.0 {
                    df[k][i] = dv[i];
                }
            }
        }
    }
    for (dfk, rows) in df.iter().zip(&s.rows) {
        if dfk.iter().all(|&x| x == 0.0) {
            continue;
        }
        for &r in rows {
            let row = &mut g.table[r as usize * DIM..(r as usize + 1) * DIM];
            for (a, &x) in row.iter_mut().zip(dfk) {
                *a += x;
            }
        }
    }
    tally
}

/// Adam's moments for one weight set.
struct Adam {
    m: FloatSet,
    v: FloatSet,
}

impl Adam {
    fn new(like: &FloatSet) -> Adam {
        Adam {
            m: like.zeros_like(),
            v: like.zeros_like(),
        }
    }

    fn step(&mut self, w: &mut FloatSet, g: &FloatSet, lr: f32, t: i32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        let ws = w.params_mut();
        let ms = self.m.params_mut();
        let vs = self.v.params_mut();
        for (((wp, gp), mp), vp) in ws.into_iter().zip(g.params()).zip(ms).zip(vs) {
            for (((x, &d), m), v) in wp
                .iter_mut()
                .zip(gp.iter())
                .zip(mp.iter_mut())
                .zip(vp.iter_mut())
            {
                *m = b1 * *m + (1.0 - b1) * d;
                *v = b2 * *v + (1.0 - b2) * d * d;
                *x -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
        }
        for x in w.table.iter_mut() {
            *x = x.clamp(-TABLE_LIMIT, TABLE_LIMIT);
        }
    }
}

/// FNV-1a of `bytes`: a file name's part in the held-out split.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The positions of the files, split into training and held-out ones.
struct Dataset {
    rule: Rule,
    train: Vec<(usize, Record)>,
    held_out: Vec<(usize, Record)>,
    headers: Vec<Header>,
}

fn load(opts: &Options) -> Result<Dataset> {
    let mut rule = None;
    let mut headers = Vec::new();
    let mut train = Vec::new();
    let mut held_out = Vec::new();
    let limit = opts.max_positions.unwrap_or(usize::MAX);
    let files = opts.data.iter().map(|p| (p, false));
    let files = files.chain(opts.held_out.iter().map(|p| (p, true)));
    for (fi, (path, validation)) in files.enumerate() {
        let (h, records) = data::read_file(path)?;
        match rule {
            None => rule = Some(h.rule),
            Some(r) if r != h.rule => bail!(
                "{} holds {} positions, the files before it {}: one rule per network",
                path.display(),
                h.rule.name(),
                r.name()
            ),
            _ => {}
        }
        headers.push(h);
        let name = path.file_name().map_or(0, |n| fnv1a(n.as_encoded_bytes()));
        for r in records {
            if validation {
                held_out.push((fi, r));
                continue;
            }
            if train.len() + held_out.len() >= limit {
                break;
            }
            let mut mix = SplitMix64::new(name ^ r.game as u64);
            if opts.held_out.is_empty() && mix.next_u64().is_multiple_of(HOLD_OUT) {
                held_out.push((fi, r));
            } else {
                train.push((fi, r));
            }
        }
    }
    let rule = rule.context("no data files")?;
    ensure!(
        sets_for(rule).is_some(),
        "the network has no form for {} (the classical evaluation plays it)",
        rule.name()
    );
    ensure!(!train.is_empty(), "no training positions in the files");
    Ok(Dataset {
        rule,
        train,
        held_out,
        headers,
    })
}

/// Runs one batch (or a held-out pass when `grads` is `None`) over `items` on `threads`.
fn run_batch(
    sets: &[FloatSet],
    ds: &Dataset,
    items: &[(usize, Record)],
    opts: &Options,
    threads: usize,
    grads: Option<&mut Vec<Vec<FloatSet>>>,
) -> Result<Tally> {
    let rw = opts.result_weight as f32;
    let pw = opts.policy_weight as f32;
    let scale = 1.0 / items.len().max(1) as f32;
    let shard_len = items.len().div_ceil(SHARDS).max(1);
    let shards: Vec<&[(usize, Record)]> = items.chunks(shard_len).collect();
    let mut tallies: Vec<Result<Tally>> = (0..shards.len()).map(|_| Ok(Tally::default())).collect();
    let mut grad_slots: Vec<Option<&mut Vec<FloatSet>>> = match grads {
        Some(g) => g.iter_mut().map(Some).collect(),
        None => (0..shards.len()).map(|_| None).collect(),
    };
    let work = |shard: &[(usize, Record)], mut g: Option<&mut Vec<FloatSet>>| -> Result<Tally> {
        let mut t = Tally::default();
        if let Some(g) = g.as_deref_mut() {
            for s in g.iter_mut() {
                s.clear();
            }
        }
        for (fi, r) in shard {
            let p = prepare(&ds.headers[*fi], r, rw, !sets[0].mix.is_empty())?;
            let si = p.view.index() % sets.len();
            let grad = g.as_deref_mut().map(|g| (&mut g[si], scale));
            t.add(&forward_backward(&sets[si], &p, pw, grad));
        }
        Ok(t)
    };
    std::thread::scope(|scope| {
        type Job<'a> = (usize, &'a [(usize, Record)], Option<&'a mut Vec<FloatSet>>);
        let mut jobs: Vec<Vec<Job>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, (shard, g)) in shards.iter().zip(grad_slots.iter_mut()).enumerate() {
            jobs[k % threads].push((k, shard, g.take()));
        }
        let handles: Vec<_> = jobs
            .into_iter()
            .map(|list| {
                scope.spawn(move || {
                    list.into_iter()
                        .map(|(k, shard, g)| (k, work(shard, g)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (k, t) in h.join().expect("trainer thread") {
                tallies[k] = t;
            }
        }
    });
    let mut total = Tally::default();
    for t in tallies {
        total.add(&t?);
    }
    Ok(total)
}

/// The value loss the classical evaluation would have on the held-out positions, read
/// as a win probability `σ(eval / scale)` at the best of a few scales (its own fit's is
/// 200 units per logit), and that scale: the number a network has to beat.
fn classical_value_loss(ds: &Dataset, result_weight: f32) -> Result<(f64, f32, f64)> {
    let mut evals = Vec::with_capacity(ds.held_out.len());
    let (mut decided, mut right) = (0, 0);
    for (fi, r) in &ds.held_out {
        let b = r.to_board(&ds.headers[*fi])?;
        let e = crate::core::eval::evaluate(&b) as f32;
        evals.push((e, value_target(r, result_weight)));
        if r.result.to_i8() != 0 {
            decided += 1;
            right += (r.result.to_i8() as f32 * e > 0.0) as usize;
        }
    }
    let loss = |scale: f32| {
        let mut total = 0.0;
        for (e, t) in &evals {
            let p = crate::core::scale::logistic_f32(e / scale);
            let q = [p, 0.0, 1.0 - p];
            total -= (0..3).map(|k| t[k] * q[k].max(1e-6).ln()).sum::<f32>() as f64;
        }
        total / evals.len().max(1) as f64
    };
    let (best, scale) = [100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0]
        .into_iter()
        .map(|s| (loss(s), s))
        .fold((f64::MAX, 0.0), |a, b| if b.0 < a.0 { b } else { a });
    Ok((best, scale, 100.0 * right as f64 / decided.max(1) as f64))
}

/// The one-ply pick of `score` (the side to move's score of a position) on the held-out
/// positions, in percent (see the module text).
fn one_ply_pick(ds: &Dataset, mut score: impl FnMut(&Board) -> Score) -> Result<f64> {
    let step = ds.held_out.len().div_ceil(PICK_POSITIONS).max(1);
    let (mut counted, mut picked) = (0usize, 0usize);
    for (fi, r) in ds.held_out.iter().step_by(step) {
        if r.flags & (data::flags::FORCED | data::flags::THREAT_WIN) != 0 {
            continue;
        }
        let h = &ds.headers[*fi];
        let mut b = r.to_board(h)?;
        let me = b.side_to_move();
        if rules::game_end(&b).is_some()
            || b.count(me, Threat::Five) > 0
            || b.count(me.opp(), Threat::Five) > 0
        {
            continue;
        }
        let near: Vec<Pos> = b.area(2).filter(|&p| b.is_empty(p)).collect();
        let mut best: Option<(Score, Pos)> = None;
        for p in near {
            if !rules::is_legal(&mut b, p) {
                continue;
            }
            b.make(p);
            let s = -score(&b);
            b.unmake();
            if best.is_none_or(|(top, _)| s > top) {
                best = Some((s, p));
            }
        }
        if let Some((_, p)) = best {
            counted += 1;
            picked += usize::from(p == r.best_pos(h));
        }
    }
    Ok(100.0 * picked as f64 / counted.max(1) as f64)
}

/// The network of `sets` as the engine reads it (the tables rounded to 1/[`QA`]).
fn quantized(rule: Rule, sets: &[FloatSet]) -> Net {
    Net {
        rule,
        sets: sets.iter().map(FloatSet::to_set).collect(),
        board: None,
    }
}

/// The one-ply pick of the network of `sets`, as the engine would play it.
fn network_pick(ds: &Dataset, sets: &[FloatSet]) -> Result<f64> {
    let mut e = Evaluator::new(Arc::new(quantized(ds.rule, sets)));
    one_ply_pick(ds, |b| e.evaluate(b).score)
}

/// The trainer's sets, `n` of them, from `net`'s: as they are where the counts agree, or
/// a one-set network's set copied to each (a freestyle or exact-five network as the start
/// of a renju one, whose two sets are black's and white's points of view).
fn init_sets(net: &Net, n: usize) -> Result<Vec<FloatSet>> {
    let sets: Vec<FloatSet> = net.sets.iter().map(FloatSet::from_set).collect();
    match sets.len() {
        k if k == n => Ok(sets),
        1 => Ok(vec![sets[0].clone(); n]),
        k => bail!(
            "a {} network has {k} weight sets and the data's rule has {n}: no way to map them",
            net.rule.name()
        ),
    }
}

/// Runs `train` (see the module text).
pub fn run(opts: &Options) -> Result<()> {
    let ds = load(opts)?;
    let n_sets = sets_for(ds.rule).expect("checked in load");
    let mut rng = SplitMix64::new(opts.seed);
    let mut sets: Vec<FloatSet> = match &opts.init {
        Some(path) => {
            let net = Net::load(path)?;
            ensure!(
                net.rule == ds.rule || opts.cross_rule,
                "{} is a {} network, the data is {} (--cross-rule starts from it anyway)",
                path.display(),
                net.rule.name(),
                ds.rule.name()
            );
            let mut sets = init_sets(&net, n_sets)?;
            for s in sets
                .iter_mut()
                .filter(|s| s.mix.is_empty() && opts.policy_mix)
            {
                s.mix = identity_mix();
            }
            sets
        }
        None => (0..n_sets)
            .map(|_| FloatSet::random(&mut rng, opts.policy_mix))
            .collect(),
    };
    let mixed = !sets[0].mix.is_empty();
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    eprintln!(
        "train: {} network{}, {} training positions, {} held out, {} epochs of batches of {}, {} threads",
        ds.rule.name(),
        if mixed { " with a policy mix" } else { "" },
        ds.train.len(),
        ds.held_out.len(),
        opts.epochs,
        opts.batch,
        threads
    );
    let report = |label: &str, sets: &[FloatSet]| -> Result<()> {
        if ds.held_out.is_empty() {
            return Ok(());
        }
        let t = run_batch(sets, &ds, &ds.held_out, opts, threads, None)?;
        let pick = network_pick(&ds, sets)?;
        eprintln!(
            "train: {label}: held out: {}, one-ply pick {pick:.1}%",
            t.line()
        );
        Ok(())
    };
    if !ds.held_out.is_empty() {
        let (loss, scale, right) = classical_value_loss(&ds, opts.result_weight as f32)?;
        let pick = one_ply_pick(&ds, crate::core::eval::evaluate)?;
        eprintln!(
            "train: the classical evaluation on the held-out positions: value {loss:.4} at {scale} units per logit (winner favoured {right:.1}%), one-ply pick {pick:.1}%"
        );
    }
    report("start", &sets)?;
    let mut order: Vec<usize> = (0..ds.train.len()).collect();
    let mut adam: Vec<Adam> = sets.iter().map(Adam::new).collect();
    let mut grads: Vec<Vec<FloatSet>> = (0..SHARDS)
        .map(|_| (0..n_sets).map(|_| FloatSet::zeros(mixed)).collect())
        .collect();
    let mut total_grad: Vec<FloatSet> = (0..n_sets).map(|_| FloatSet::zeros(mixed)).collect();
    let steps_per_epoch = order.len().div_ceil(opts.batch);
    let total_steps = (steps_per_epoch * opts.epochs).max(1);
    let mut step: i32 = 0;
    let started = Instant::now();
    let mut batch_items: Vec<(usize, Record)> = Vec::with_capacity(opts.batch);
    for epoch in 1..=opts.epochs {
        rng.shuffle(&mut order);
        let mut tally = Tally::default();
        for chunk in order.chunks(opts.batch) {
            batch_items.clear();
            batch_items.extend(chunk.iter().map(|&i| ds.train[i].clone()));
            let t = run_batch(&sets, &ds, &batch_items, opts, threads, Some(&mut grads))?;
            tally.add(&t);
            for s in total_grad.iter_mut() {
                s.clear();
            }
            for shard in &grads {
                for (tg, g) in total_grad.iter_mut().zip(shard) {
                    tg.add(g);
                }
            }
            step += 1;
            let lr = opts.lr as f32 * (1.0 - 0.9 * (step - 1) as f32 / total_steps as f32);
            for ((w, a), g) in sets.iter_mut().zip(adam.iter_mut()).zip(&total_grad) {
                a.step(w, g, lr, step);
            }
        }
        eprintln!(
            "train: epoch {epoch}/{}: training: {} ({:.0} s)",
            opts.epochs,
            tally.line(),
            started.elapsed().as_secs_f64()
        );
        report(&format!("epoch {epoch}"), &sets)?;
    }
    let net = quantized(ds.rule, &sets);
    net.save(&opts.out)?;
    eprintln!("train: wrote {}", opts.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::XorShift64;
    use crate::nn::eval::tests::{random_mixed_net, random_moves, random_net};

    /// A record of `b` with the first empty square near the stones as its best move.
    fn record_of(b: &Board, game: u32, result: GameResult, score: i16) -> (Header, Record) {
        let h = Header::new(b.rule(), b.width(), b.height()).unwrap();
        let best = b.area(1).find(|&p| b.is_empty(p)).unwrap();
        let r = Record {
            game,
            ply: b.move_count() as u16,
            best: Record::index_of(best, b.width()),
            score,
            side_to_move: b.side_to_move(),
            result,
            flags: 0,
            stones: Record::stones_of(b),
        };
        (h, r)
    }

    fn positions(rule: Rule, n: usize, seed: u64) -> Vec<(Header, Record)> {
        let mut rng = XorShift64::new(seed);
        (0..n)
            .map(|i| {
                let mut b = Board::square(15, rule).unwrap();
                b.make(Pos::new(3 + rng.below(9), 3 + rng.below(9)));
                let target = 2 + rng.below(30);
                random_moves(&mut b, target, &mut rng);
                let result = [GameResult::Win, GameResult::Loss, GameResult::Draw][i % 3];
                record_of(&b, i as u32, result, (rng.below(600) as i16) - 300)
            })
            .filter(|(_, r)| r.stones.iter().any(|s| s.is_none()))
            .collect()
    }

    #[test]
    fn the_value_target_mixes_what_a_record_has() {
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        b.make(Pos::new(7, 7));
        let (_, mut r) = record_of(&b, 0, GameResult::Loss, 0);
        // Even score, lost game: half and half.
        assert_eq!(value_target(&r, 0.5), [0.25, 0.0, 0.75]);
        r.flags = data::flags::NO_SCORE;
        assert_eq!(value_target(&r, 0.5), [0.0, 0.0, 1.0]);
        r.flags = data::flags::OFF_PATH;
        r.result = GameResult::Draw;
        assert_eq!(value_target(&r, 0.5), [0.5, 0.0, 0.5]);
        r.score = data::encode_score(crate::core::types::mate_in(5));
        assert_eq!(value_target(&r, 0.5), [1.0, 0.0, 0.0]);
    }

    #[test]
    fn the_one_ply_pick_counts_the_move_after_which_the_score_is_best() {
        let pos = positions(Rule::Freestyle, 40, 9);
        let ds = Dataset {
            rule: Rule::Freestyle,
            train: Vec::new(),
            headers: pos.iter().map(|(h, _)| *h).collect(),
            held_out: pos
                .into_iter()
                .enumerate()
                .map(|(i, (_, r))| (i, r))
                .collect(),
        };
        // Whether the last move of `child` was its parent's record move (see record_of).
        let record_move = |child: &Board| {
            let mut parent = child.clone();
            let last = parent.history().last().unwrap().pos;
            parent.unmake();
            let first = parent.area(1).find(|&p| parent.is_empty(p));
            first == Some(last)
        };
        // Scores are the side to move's: the parent likes the child its opponent likes least.
        let pick = |worst: Score| one_ply_pick(&ds, |b| if record_move(b) { worst } else { 0 });
        assert_eq!(pick(-500).unwrap(), 100.0);
        assert_eq!(pick(500).unwrap(), 0.0);
    }

    #[test]
    fn the_engine_plays_the_network_the_trainer_trains() {
        for (rule, mixed) in [
            (Rule::Freestyle, false),
            (Rule::Renju, false),
            (Rule::Freestyle, true),
            (Rule::Renju, true),
        ] {
            let net = random_mixed_net(rule, 11, mixed);
            let sets: Vec<FloatSet> = net.sets.iter().map(FloatSet::from_set).collect();
            let mut e = crate::nn::Evaluator::new(Arc::new(net.clone()));
            let mut clipped = 0;
            for (h, r) in positions(rule, 30, 5) {
                let p = prepare(&h, &r, 0.5, mixed).unwrap();
                let fw = forward(&sets[p.view.index() % sets.len()], &p);
                let b = r.to_board(&h).unwrap();
                let o = e.evaluate(&b);
                e.prepare_policy(&b);
                for k in 0..3 {
                    assert!((o.wdl[k] - fw.q[k]).abs() < 1e-3, "{:?} {:?}", o.wdl, fw.q);
                }
                let empty: Vec<Pos> = b.squares().filter(|&q| b.is_empty(q)).collect();
                assert_eq!(empty.len(), fw.logits.len());
                for (q, l) in empty.iter().zip(&fw.logits) {
                    let got = e.policy(&b, *q).unwrap();
                    assert!(
                        (got - l).abs() < 1e-3 * (1.0 + l.abs()),
                        "{rule:?} {mixed}: {got} {l}"
                    );
                }
                // The mixed vectors are clipped at both ends somewhere, so both of the
                // clip's sides were compared.
                for t in fw.t.iter().flatten() {
                    clipped |= u8::from(*t < 0.0) | (u8::from(*t > 1.0) << 1);
                }
            }
            assert_eq!(clipped, if mixed { 3 } else { 0 }, "{rule:?}");
        }
    }

    #[test]
    fn the_backward_pass_is_the_gradient() {
        for mixed in [false, true] {
            backward_pass_is_the_gradient(mixed);
        }
    }

    fn backward_pass_is_the_gradient(mixed: bool) {
        let mut rng = SplitMix64::new(3);
        let mut w = FloatSet::random(&mut rng, mixed);
        // A mix away from the identity: neighbours count, and some mixed vectors clip.
        for m in w.mix.iter_mut() {
            *m += 0.6 * ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5);
        }
        let (h, r) = positions(Rule::Freestyle, 1, 8).remove(0);
        let s = prepare(&h, &r, 0.5, mixed).unwrap();
        let loss = |w: &FloatSet| {
            let t = forward_backward(w, &s, 0.7, None);
            t.value_loss + 0.7 * t.policy_loss
        };
        let mut g = FloatSet::zeros(mixed);
        forward_backward(&w, &s, 0.7, Some((&mut g, 1.0)));
        // Every parameter of the head and the mix, and the table entries of the first
        // squares' rows.
        let mut checked = 0;
        // A mix weight of channel c moves that channel of every square's mixed vector
        // (by up to four times the step): channels with one that close to the clip's
        // boundaries, where the loss bends, are left out.
        let fw = forward(&w, &s);
        let near_kink: Vec<bool> = (0..DIM)
            .map(|c| {
                fw.t.iter()
                    .any(|t| t[c].abs() < 5e-3 || (t[c] - 1.0).abs() < 5e-3)
            })
            .collect();
        assert!(near_kink.iter().filter(|&&k| k).count() < DIM / 2);
        // Rows many squares share (empty lines) are left out: a step of the size used
        // here moves some of those squares across a clip boundary, where the loss bends.
        let uses = |r: u32| s.rows.iter().flatten().filter(|&&x| x == r).count();
        let rows: Vec<usize> = s
            .rows
            .iter()
            .flatten()
            .filter(|&&r| uses(r) <= 2)
            .take(20)
            .map(|&r| r as usize)
            .collect();
        assert!(rows.len() >= 4);
        // The parts after the table: the head's seven, then the mix.
        let parts = g.params().len() - 1;
        for part in 1..=parts {
            let n = g.params()[part].len();
            assert_eq!(n == 0, part == parts && !mixed);
            for i in 0..n {
                if part == parts && near_kink[i % DIM] {
                    continue;
                }
                let mut wp = w.clone();
                let mut wm = w.clone();
                let eps = 1e-3;
                wp.params_mut()[part][i] += eps;
                wm.params_mut()[part][i] -= eps;
                let num = (loss(&wp) - loss(&wm)) / (2.0 * eps as f64);
                let ana = g.params()[part][i] as f64;
                assert!(
                    (num - ana).abs() < 2e-3 + 2e-2 * ana.abs(),
                    "mix {mixed}, part {part} [{i}]: {num} vs {ana}"
                );
                checked += 1;
            }
        }
        for r in rows {
            for i in r * DIM..(r + 1) * DIM {
                let mut wp = w.clone();
                let mut wm = w.clone();
                let eps = 1e-3;
                wp.table[i] += eps;
                wm.table[i] -= eps;
                let num = (loss(&wp) - loss(&wm)) / (2.0 * eps as f64);
                let ana = g.table[i] as f64;
                assert!(
                    (num - ana).abs() < 2e-3 + 2e-2 * ana.abs(),
                    "mix {mixed}, table [{i}]: {num} vs {ana}"
                );
                checked += 1;
            }
        }
        assert!(checked > if mixed { 2050 } else { 2000 }, "{checked}");
    }

    /// Writes `games` 9x9 freestyle games of `nodes` a move to `out`.
    fn tiny_data(out: &std::path::Path, games: u32, nodes: u64, seed: u64) {
        crate::tools::datagen::run(&crate::tools::datagen::Options {
            out: out.to_path_buf(),
            games,
            nodes,
            openings: None,
            stones: 3,
            random_plies: 2,
            side_positions: 25,
            rule: Rule::Freestyle,
            size: 9,
            threads: Some(2),
            seed,
            params: String::new(),
        })
        .unwrap();
    }

    #[test]
    fn training_learns_and_the_thread_count_changes_nothing() {
        for mixed in [false, true] {
            training_learns(mixed);
        }
    }

    fn training_learns(mixed: bool) {
        let dir =
            std::env::temp_dir().join(format!("fivefold-train-{}-{mixed}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("tiny.data");
        tiny_data(&data, 12, 300, 4);
        let opts = |threads: usize, out: &str, epochs: usize| Options {
            data: vec![data.clone()],
            out: dir.join(out),
            init: None,
            cross_rule: false,
            epochs,
            batch: 32,
            lr: 0.01,
            result_weight: 0.0,
            policy_weight: 1.0,
            held_out: Vec::new(),
            max_positions: None,
            seed: 9,
            threads: Some(threads),
            policy_mix: mixed,
        };
        run(&opts(1, "zero.fnet", 0)).unwrap();
        run(&opts(1, "one.fnet", 8)).unwrap();
        run(&opts(2, "two.fnet", 8)).unwrap();
        let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
        assert_eq!(
            read("one.fnet"),
            read("two.fnet"),
            "threads changed the network"
        );
        // The loss on the training positions went down, on the games' positions and on
        // the off-path ones (a quarter of the positions had one). The value target is the
        // score alone (`result_weight` 0): most of these 9x9 games are draws, and a
        // result's draw, which no score gives, would pull the on-path targets away from
        // the off-path ones beside them.
        let (h, records) = data::read_file(&data).unwrap();
        let tally = |name: &str, off_path: bool| {
            let net = Net::load(&dir.join(name)).unwrap();
            assert_eq!(net.sets[0].has_mix(), mixed);
            let set = FloatSet::from_set(&net.sets[0]);
            let mut t = Tally::default();
            for r in records
                .iter()
                .filter(|r| (r.flags & data::flags::OFF_PATH != 0) == off_path)
            {
                t.add(&forward_backward(
                    &set,
                    &prepare(&h, r, 0.0, mixed).unwrap(),
                    1.0,
                    None,
                ));
            }
            t
        };
        for off_path in [false, true] {
            let (before, after) = (tally("zero.fnet", off_path), tally("one.fnet", off_path));
            assert!(before.positions >= 100, "{before:?}");
            assert!(
                after.value_loss < 0.9 * before.value_loss,
                "{before:?} {after:?}"
            );
            assert!(
                after.policy_loss < 0.8 * before.policy_loss,
                "{before:?} {after:?}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_held_out_games_do_not_depend_on_the_other_files() {
        let dir = std::env::temp_dir().join(format!("fivefold-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let make = |name: &str, seed: u64| {
            let path = dir.join(name);
            tiny_data(&path, 40, 100, seed);
            path
        };
        let (a, b) = (make("a.data", 11), make("b.data", 12));
        let opts = |data: Vec<PathBuf>, held_out: Vec<PathBuf>| Options {
            data,
            out: dir.join("unused.fnet"),
            init: None,
            cross_rule: false,
            epochs: 0,
            batch: 32,
            lr: 0.01,
            result_weight: 0.5,
            policy_weight: 1.0,
            held_out,
            max_positions: None,
            seed: 1,
            threads: Some(1),
            policy_mix: false,
        };
        // The held-out games of b: the same with b alone and b listed after a.
        let games = |ds: &Dataset, file: usize| {
            let mut g: Vec<u32> = ds
                .held_out
                .iter()
                .filter(|(f, _)| *f == file)
                .map(|(_, r)| r.game)
                .collect();
            g.dedup();
            g
        };
        let alone = load(&opts(vec![b.clone()], vec![])).unwrap();
        let after = load(&opts(vec![a.clone(), b.clone()], vec![])).unwrap();
        assert!(!games(&alone, 0).is_empty(), "no game of 40 held out");
        assert_eq!(games(&alone, 0), games(&after, 1));
        // With --held-out, exactly that file's positions are held out.
        let ds = load(&opts(vec![a.clone()], vec![b.clone()])).unwrap();
        let (_, a_records) = data::read_file(&a).unwrap();
        let (_, b_records) = data::read_file(&b).unwrap();
        assert_eq!(ds.train.len(), a_records.len());
        assert_eq!(ds.held_out.len(), b_records.len());
        assert!(ds.train.iter().all(|(f, _)| *f == 0));
        assert!(ds.held_out.iter().all(|(f, _)| *f == 1));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_network_of_another_rule_starts_one_only_when_asked() {
        let dir = std::env::temp_dir().join(format!("fivefold-cross-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("tiny.data");
        tiny_data(&data, 4, 100, 21);
        let exact = random_net(Rule::Exact, 5);
        let init = dir.join("exact.fnet");
        exact.save(&init).unwrap();
        let opts = |cross_rule: bool| Options {
            data: vec![data.clone()],
            out: dir.join("out.fnet"),
            init: Some(init.clone()),
            cross_rule,
            epochs: 0,
            batch: 32,
            lr: 0.01,
            result_weight: 0.5,
            policy_weight: 1.0,
            held_out: Vec::new(),
            max_positions: None,
            seed: 1,
            threads: Some(1),
            policy_mix: false,
        };
        let refused = run(&opts(false)).unwrap_err().to_string();
        assert!(refused.contains("--cross-rule"), "{refused}");
        assert!(!dir.join("out.fnet").exists());
        // With the flag, zero epochs write the exact-five weights as a freestyle network.
        run(&opts(true)).unwrap();
        let out = Net::load(&dir.join("out.fnet")).unwrap();
        assert_eq!(out.rule, Rule::Freestyle);
        assert_eq!(out.sets, exact.sets);
        // A one-set network's set becomes both of renju's; renju's two fit no one-set rule.
        let renju = init_sets(&exact, 2).unwrap();
        assert_eq!(renju.len(), 2);
        assert_eq!(renju[0].table, renju[1].table);
        assert_eq!(renju[1].table, FloatSet::from_set(&exact.sets[0]).table);
        assert!(init_sets(&random_net(Rule::Renju, 6), 1).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
