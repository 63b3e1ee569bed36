//! The network's weights, their file format, and the head (the part after the table).
//!
//! A network is one or two weight *sets*: one for freestyle and exact five (colours play
//! the same game), two for renju (black's point of view and white's). A set is a table
//! of [`ROWS`] rows of [`DIM`] 16-bit integers ([`QA`] is 1.0) and a small floating-point
//! head:
//!
//! - value: `pool` ([`DIM`] numbers, the clipped square vectors summed over the empty
//!   squares, divided by [`POOL_DIV`]) → `h = relu(w1 · pool + b1)` ([`HID`]) →
//!   `w2 · h + b2`: three logits, win, draw and loss for the side to move; then the
//!   classical evaluation `e` joins in: `cw · e / (2 * 200)` is added to the win logit
//!   and taken from the loss logit. With the rest at zero and `cw` = 1 the network's
//!   score is the classical one; training learns what to add to it (and how far to
//!   trust it);
//! - policy: `g = wp · h + bp` ([`DIM`]); a square's logit is its clipped vector dotted
//!   with `g`, or, in a network with a *policy mix*, its mixed vector: per channel `i`,
//!   `clip(c_i v_i + a_i O_i + b_i D_i + e_i)` to `0..=1`, where `v` is the square's
//!   clipped vector and `O` and `D` the sums of its four orthogonal and four diagonal
//!   neighbours' (occupied squares and the edge count as zero). So a square's policy
//!   sees the lines through the squares around it, at a cost only where moves are
//!   ordered; the value (the pool) is the same with or without.
//!
//! **File format** (little-endian): the 8 bytes `FIVENET` and a zero byte; `u16`
//! version (1, or 2 for a network with a policy mix); `u8` rule (`INFO rule` number: 0,
//! 1 or 4); `u8` sets (2 for renju, else 1); `u16` [`DIM`]; `u16` [`HID`]; `u32`
//! [`ROWS`]; `u32` flags (version 1: 0; version 2: bit 0, the policy mix, the only bit
//! there is). Then per set the table (`ROWS * DIM` `i16`, row after row), then the head
//! as `f32`: `w1` (`HID` rows of `DIM`), `b1`, `w2` (3 rows of `HID`), `b2`, `wp` (`DIM`
//! rows of `HID`), `bp`, `cw` (one number), and with the policy mix [`MIX_LEN`] `f32`:
//! `c`, `a`, `b`, `e` above, [`DIM`] each.
//! Last, the FNV-1a 64-bit hash of every byte before it, as a `u64`. `pbrain-fivefold
//! train` writes it (version 1 where there is no mix, so older builds read it); the
//! engine reads it from the binary or a file ([`available`]).

use crate::core::types::{Color, Rule};
use crate::nn::features::ROWS;
use anyhow::{bail, ensure, Context, Result};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Width of a square's vector.
pub const DIM: usize = 32;
/// Width of the head's hidden layer.
pub const HID: usize = 32;
/// Table and activation units per 1.0.
pub const QA: i32 = 1024;
/// The pooled sum is divided by this before the head.
pub const POOL_DIV: f32 = 32.0;
/// The largest table entry in floating point. Five rows of at most this, at [`QA`],
/// sum to less than `i16::MAX`, so the engine sums them in 16 bits without overflow (and
/// a larger entry would mean nothing past the clip to `0..=1` anyway).
pub const TABLE_LIMIT: f32 = 6.0;

/// Numbers of a policy mix: centre, orthogonal and diagonal weights and a bias, [`DIM`]
/// each.
pub const MIX_LEN: usize = 4 * DIM;

/// A policy mix's parts in file order ([`Set::mix`]): the centre's, the orthogonal
/// neighbours' and the diagonal neighbours' weights and the bias, [`DIM`] each.
pub fn mix_parts(mix: &[f32]) -> [&[f32]; 4] {
    [
        &mix[..DIM],
        &mix[DIM..2 * DIM],
        &mix[2 * DIM..3 * DIM],
        &mix[3 * DIM..MIX_LEN],
    ]
}

const MAGIC: &[u8; 8] = b"FIVENET\0";
/// The newest format version this build reads and writes.
const VERSION: u16 = 2;
const HEADER_BYTES: usize = 24;
/// Version 2's flag for a policy mix.
const FLAG_POLICY_MIX: u32 = 1;

/// The head's weights (see the module text), row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub wp: Vec<f32>,
    pub bp: Vec<f32>,
    /// The classical evaluation's weight (one number).
    pub cw: Vec<f32>,
}

/// What the head computes from a pool, kept for the trainer's backward pass.
#[derive(Clone, Debug)]
pub struct HeadOut {
    /// Hidden layer before the rectifier.
    pub z1: [f32; HID],
    /// Hidden layer.
    pub h: [f32; HID],
    /// Win, draw and loss logits.
    pub logits: [f32; 3],
    /// The policy vector.
    pub g: [f32; DIM],
}

impl Head {
    /// A head of zeros.
    pub fn zeros() -> Head {
        Head {
            w1: vec![0.0; HID * DIM],
            b1: vec![0.0; HID],
            w2: vec![0.0; 3 * HID],
            b2: vec![0.0; 3],
            wp: vec![0.0; DIM * HID],
            bp: vec![0.0; DIM],
            cw: vec![0.0; 1],
        }
    }

    /// The parameter arrays in file order.
    pub fn parts(&self) -> [&Vec<f32>; 7] {
        [
            &self.w1, &self.b1, &self.w2, &self.b2, &self.wp, &self.bp, &self.cw,
        ]
    }

    /// The parameter arrays in file order, to change.
    pub fn parts_mut(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.wp,
            &mut self.bp,
            &mut self.cw,
        ]
    }

    /// The head on a pool and the classical input `c` (the classical evaluation over
    /// `2 * 200`, see [`classical_input`]).
    pub fn forward(&self, pool: &[f32; DIM], c: f32) -> HeadOut {
        let (z1, h) = self.hidden(pool);
        HeadOut {
            z1,
            h,
            logits: self.value(&h, c),
            g: self.policy(&h),
        }
    }

    /// The hidden layer, before and after the rectifier.
    #[inline]
    pub fn hidden(&self, pool: &[f32; DIM]) -> ([f32; HID], [f32; HID]) {
        let mut z1 = [0f32; HID];
        let mut h = [0f32; HID];
        for j in 0..HID {
            let row = &self.w1[j * DIM..(j + 1) * DIM];
            z1[j] = self.b1[j] + row.iter().zip(pool).map(|(w, x)| w * x).sum::<f32>();
            h[j] = z1[j].max(0.0);
        }
        (z1, h)
    }

    /// Win, draw and loss logits from the hidden layer and the classical input.
    #[inline]
    pub fn value(&self, h: &[f32; HID], c: f32) -> [f32; 3] {
        let mut logits = [0f32; 3];
        for (k, l) in logits.iter_mut().enumerate() {
            let row = &self.w2[k * HID..(k + 1) * HID];
            *l = self.b2[k] + row.iter().zip(h).map(|(w, x)| w * x).sum::<f32>();
        }
        logits[0] += self.cw[0] * c;
        logits[2] -= self.cw[0] * c;
        logits
    }

    /// The policy vector from the hidden layer.
    #[inline]
    pub fn policy(&self, h: &[f32; HID]) -> [f32; DIM] {
        let mut g = [0f32; DIM];
        for (i, gi) in g.iter_mut().enumerate() {
            let row = &self.wp[i * HID..(i + 1) * HID];
            *gi = self.bp[i] + row.iter().zip(h).map(|(w, x)| w * x).sum::<f32>();
        }
        g
    }
}

/// The head's classical input: the classical evaluation for the side to move, over
/// twice the score units per logit (so that it alone gives the classical score back).
pub fn classical_input(b: &crate::core::board::Board) -> f32 {
    crate::core::eval::evaluate(b) as f32 / (2.0 * crate::core::scale::SCORE_PER_LOGIT as f32)
}

/// Win, draw and loss probabilities from the head's logits.
pub fn wdl(logits: &[f32; 3]) -> [f32; 3] {
    let m = logits.iter().cloned().fold(f32::MIN, f32::max);
    let e = logits.map(|l| (l - m).exp());
    let s: f32 = e.iter().sum();
    e.map(|x| x / s)
}

/// One weight set: the table and the head.
#[derive(Clone, Debug, PartialEq)]
pub struct Set {
    /// [`ROWS`] rows of [`DIM`].
    pub table: Vec<[i16; DIM]>,
    pub head: Head,
    /// The policy mix ([`MIX_LEN`] numbers: `c`, `a`, `b`, `e` of the module text), or
    /// empty for none. The sets of a network have one or none alike.
    pub mix: Vec<f32>,
}

impl Set {
    /// Whether the set's policy has a mix step.
    pub fn has_mix(&self) -> bool {
        !self.mix.is_empty()
    }
}

/// A network: the rule it was trained for and its weight sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub rule: Rule,
    pub sets: Vec<Set>,
    /// The one board (width, height) this network plays, or `None` for every board its
    /// rule is played on. Not part of the file: a built-in network kept for one board
    /// (see `EMBEDDED` in this module) has it; every file read has `None`.
    pub board: Option<(usize, usize)>,
}

/// How many weight sets a network for `rule` has, or `None` where the network has no
/// form for the rule (caro: the classical evaluation plays it).
pub fn sets_for(rule: Rule) -> Option<usize> {
    match rule {
        Rule::Freestyle | Rule::Exact => Some(1),
        Rule::Renju => Some(2),
        Rule::Caro | Rule::CaroExact => None,
    }
}

/// The mean of equally long arrays under weights that sum to one, summed in `f64` in the
/// arrays' order and stored as `f32` ([`Net::mean`]).
fn weighted_mean<'a>(arrays: impl Iterator<Item = &'a [f32]>, weights: &[f64]) -> Vec<f32> {
    let mut sum: Vec<f64> = Vec::new();
    for (a, w) in arrays.zip(weights) {
        sum.resize(a.len(), 0.0);
        for (s, x) in sum.iter_mut().zip(a) {
            *s += w * *x as f64;
        }
    }
    sum.into_iter().map(|s| s as f32).collect()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Net {
    /// The weight set that looks at the board from `view`'s side.
    #[inline]
    pub fn set_for(&self, view: Color) -> &Set {
        &self.sets[view.index() % self.sets.len()]
    }

    /// The file's bytes.
    fn to_bytes(&self) -> Vec<u8> {
        let mixed = self.sets.iter().any(Set::has_mix);
        assert!(
            self.sets
                .iter()
                .all(|s| s.has_mix() == mixed && (!mixed || s.mix.len() == MIX_LEN)),
            "the sets of a network have a policy mix of {MIX_LEN} numbers or none alike"
        );
        let mut out = Vec::with_capacity(HEADER_BYTES + self.sets.len() * ROWS * DIM * 2 + 9000);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(if mixed { VERSION } else { 1u16 }).to_le_bytes());
        out.push(self.rule.info_number() as u8);
        out.push(self.sets.len() as u8);
        out.extend_from_slice(&(DIM as u16).to_le_bytes());
        out.extend_from_slice(&(HID as u16).to_le_bytes());
        out.extend_from_slice(&(ROWS as u32).to_le_bytes());
        let flags = if mixed { FLAG_POLICY_MIX } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        for set in &self.sets {
            for row in &set.table {
                for v in row {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            for part in set.head.parts() {
                for v in part {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            for v in &set.mix {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let h = fnv1a(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// Reads a network file's bytes, checking everything the format fixes.
    fn from_bytes(bytes: &[u8]) -> Result<Net> {
        ensure!(
            bytes.len() >= HEADER_BYTES + 8 && &bytes[..8] == MAGIC,
            "not a Fivefold network file (no FIVENET header)"
        );
        let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let version = u16_at(8);
        ensure!(
            (1..=VERSION).contains(&version),
            "network format version {version}, this build reads 1 to {VERSION}"
        );
        let flags = u32_at(20);
        let known = if version == 1 { 0 } else { FLAG_POLICY_MIX };
        ensure!(
            flags & !known == 0,
            "network format version {version} with flags {flags:#x}: this build knows {known:#x}"
        );
        let mix_len = if flags & FLAG_POLICY_MIX != 0 {
            MIX_LEN
        } else {
            0
        };
        let rule_number = bytes[10];
        let Some(rule) = Rule::from_info(rule_number as i64).filter(|r| sets_for(*r).is_some())
        else {
            bail!("network for INFO rule {rule_number}: no network form for that rule");
        };
        let sets = bytes[11] as usize;
        ensure!(
            Some(sets) == sets_for(rule),
            "a {} network has {:?} weight sets, the file says {sets}",
            rule.name(),
            sets_for(rule)
        );
        let (dim, hid, rows) = (
            u16_at(12) as usize,
            u16_at(14) as usize,
            u32_at(16) as usize,
        );
        ensure!(
            (dim, hid, rows) == (DIM, HID, ROWS),
            "network shape {dim}x{hid} with {rows} rows, this build's is {DIM}x{HID} with {ROWS}"
        );
        let head_len: usize = Head::zeros().parts().iter().map(|p| p.len()).sum();
        let want = HEADER_BYTES + sets * (ROWS * DIM * 2 + (head_len + mix_len) * 4) + 8;
        ensure!(
            bytes.len() == want,
            "network file is {} bytes, its header says {want}",
            bytes.len()
        );
        let body = &bytes[..want - 8];
        let stored = u64::from_le_bytes(bytes[want - 8..].try_into().expect("8 bytes"));
        ensure!(
            fnv1a(body) == stored,
            "network file is corrupt (checksum differs)"
        );
        let mut at = HEADER_BYTES;
        let mut out = Vec::with_capacity(sets);
        for _ in 0..sets {
            let mut table = vec![[0i16; DIM]; ROWS];
            let limit = (TABLE_LIMIT * QA as f32) as i16;
            for row in table.iter_mut() {
                for v in row.iter_mut() {
                    *v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
                    ensure!(
                        (-limit..=limit).contains(v),
                        "network table entry {v} is outside ±{limit}"
                    );
                    at += 2;
                }
            }
            let mut head = Head::zeros();
            let mut mix = vec![0f32; mix_len];
            for part in head.parts_mut().into_iter().chain([&mut mix]) {
                for v in part.iter_mut() {
                    *v = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
                    ensure!(v.is_finite(), "network head holds a non-finite number");
                    at += 4;
                }
            }
            out.push(Set { table, head, mix });
        }
        Ok(Net {
            rule,
            sets: out,
            board: None,
        })
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Net> {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Net::from_bytes(&bytes).with_context(|| format!("reading {}", path.display()))
    }

    /// Writes a network file.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_bytes()).with_context(|| format!("writing {}", path.display()))
    }

    /// The weighted mean of networks of one shape, weight by weight (a *weight soup*:
    /// a network and others fine-tuned from it, or trained from it on other data, often
    /// play better averaged than alone). Each table entry is the mean rounded to the
    /// nearest integer (ties to even), each head and mix number the mean as `f32`, both
    /// computed in `f64` in the order of `nets`. The weights are normalised to sum to
    /// one; they must be finite, not negative, one per network and not all zero. The
    /// networks must be for one rule and have a policy mix alike; the result plays every
    /// board of the rule.
    pub fn mean(nets: &[Net], weights: &[f64]) -> Result<Net> {
        ensure!(!nets.is_empty(), "no network to average");
        ensure!(
            weights.len() == nets.len(),
            "{} weights for {} networks: give one weight per network",
            weights.len(),
            nets.len()
        );
        ensure!(
            weights.iter().all(|w| w.is_finite() && *w >= 0.0),
            "the weights must be finite and not negative"
        );
        let total: f64 = weights.iter().sum();
        ensure!(total > 0.0, "the weights must not all be zero");
        let w: Vec<f64> = weights.iter().map(|x| x / total).collect();
        let first = &nets[0];
        for (i, n) in nets.iter().enumerate().skip(1) {
            ensure!(
                n.rule == first.rule,
                "network {} is for {}, network 1 for {}: only networks of one rule average",
                i + 1,
                n.rule.name(),
                first.rule.name()
            );
            ensure!(
                n.sets.len() == first.sets.len()
                    && n.sets
                        .iter()
                        .zip(&first.sets)
                        .all(|(a, b)| a.has_mix() == b.has_mix()),
                "network {} has a policy mix and network 1 none, or the other way round",
                i + 1
            );
        }
        let sets = (0..first.sets.len())
            .map(|k| {
                let table = (0..first.sets[k].table.len())
                    .map(|r| {
                        std::array::from_fn(|c| {
                            let m = nets
                                .iter()
                                .zip(&w)
                                .fold(0.0, |s, (n, w)| s + w * n.sets[k].table[r][c] as f64);
                            m.round_ties_even() as i16
                        })
                    })
                    .collect();
                let mut head = Head::zeros();
                for (p, part) in head.parts_mut().into_iter().enumerate() {
                    *part = weighted_mean(nets.iter().map(|n| &n.sets[k].head.parts()[p][..]), &w);
                }
                let mix = weighted_mean(nets.iter().map(|n| &n.sets[k].mix[..]), &w);
                Set { table, head, mix }
            })
            .collect();
        Ok(Net {
            rule: first.rule,
            sets,
            board: None,
        })
    }

    /// Whether this network plays `rule` on a `width` x `height` board.
    pub fn plays(&self, rule: Rule, width: usize, height: usize) -> bool {
        self.rule == rule && self.board.is_none_or(|b| b == (width, height))
    }
}

/// The network of `nets` for `rule` on a `width` x `height` board: one kept for that
/// board if there is one, else one for every board of the rule.
pub fn pick(nets: &[Arc<Net>], rule: Rule, width: usize, height: usize) -> Option<&Arc<Net>> {
    let playing = || nets.iter().filter(|n| n.plays(rule, width, height));
    playing()
        .find(|n| n.board.is_some())
        .or_else(|| playing().next())
}

/// The one board (width, height) a built-in network is kept for, or `None` for all.
type KeptFor = Option<(usize, usize)>;

/// The network files built into the binary (from `src/nn/nets/`), each with the one board
/// it is kept for or `None` (every board of its rule):
///
/// - `freestyle.fnet` is j8a of docs/network-log.md (n5, trained on 1.6 million
///   positions of classical self-play, fine-tuned on three generations of the networks'
///   own 15x15 and 20x20 games into j3, then three times more on the networks' games from
///   balanced openings, the last two from openings shaped like the spread-out sets, into
///   j6, j7 and j8, then on j8's 15x15 games and 171,759 positions of j8's games against
///   Rapfi into j8a; j3 replaced n5, j7 replaced j3, j8 replaced j7 and j8a replaced j8
///   on an SPRT win over it);
/// - `freestyle20.fnet` is j8w, kept for 20x20: j8a fine-tuned on 141,705 positions of
///   j8's 20x20 self-play and 145,729 of j8's 20x20 games against Rapfi; on 20x20 it
///   replaced j8 (which had won its SPRT against the classical search there) on an SPRT
///   win over it;
/// - `renju.fnet` r8a: j8 as it is in both of renju's sets (black's and white's points
///   of view; `train --cross-rule`, zero epochs), which replaced r4 (trained on 1.24
///   million renju positions) on an SPRT win, fine-tuned on 400,023 positions of its own
///   renju games and 77,008 of its games against Rapfi; it replaced j8 on an SPRT win;
/// - `exact5.fnet` e10: j8a taken over to exact five (`train --cross-rule`) and fine-tuned
///   on every exact-five archive, 653,226 positions: e6's own games and e7's and e8's
///   games against Rapfi. It replaced e8 on an SPRT win. e8 was j8 taken over the same
///   way and fine-tuned on e4's games into e6, on e6's games into e7 and on e7's games
///   against Rapfi, each replacing the one before on an SPRT win, back to e4, which won
///   one against the classical search.
const EMBEDDED: &[(&[u8], KeptFor)] = &[
    (include_bytes!("nets/freestyle.fnet"), None),
    (include_bytes!("nets/freestyle20.fnet"), Some((20, 20))),
    (include_bytes!("nets/renju.fnet"), None),
    (include_bytes!("nets/exact5.fnet"), None),
];

/// The rules and board sizes (rule, width, height) where the search evaluates with the
/// network unless told otherwise (`use_net` -1, the default): those where the network
/// won an SPRT match against the classical search of the same build (docs/network-log.md,
/// "Matches", "Renju and exact five made the default" and "j8 made the default on
/// 20x20"; a network that replaces it on a board wins one against it there in turn):
/// freestyle, exact five and renju on 15x15, and freestyle on 20x20 (Gomocup's freestyle
/// board). Elsewhere (other board sizes, caro) the classical evaluation stays the default.
pub const DEFAULT_ON: &[(Rule, usize, usize)] = &[
    (Rule::Freestyle, 15, 15),
    (Rule::Freestyle, 20, 20),
    (Rule::Exact, 15, 15),
    (Rule::Renju, 15, 15),
];

/// Whether the network is the default for `rule` on a `width` x `height` board
/// ([`DEFAULT_ON`]).
pub fn on_by_default(rule: Rule, width: usize, height: usize) -> bool {
    DEFAULT_ON.contains(&(rule, width, height))
}

/// The environment variable naming a network file that replaces the built-in network of
/// its rule, for experiments (every subcommand and the protocol read it).
pub const NET_FILE_VAR: &str = "FIVEFOLD_NET";

/// The built-in networks ([`EMBEDDED`]), each with the board it is kept for.
fn embedded() -> Vec<Arc<Net>> {
    EMBEDDED
        .iter()
        .map(|&(bytes, board)| {
            let net = Net::from_bytes(bytes).expect("a built-in network reads");
            Arc::new(Net { board, ..net })
        })
        .collect()
}

/// The networks the engine evaluates with where `use_net` is on: the ones built into the
/// binary, the one in [`NET_FILE_VAR`] in place of all of its rule's (it plays every
/// board). Read once; a file that does not read is reported on stderr and the built-in
/// networks stay.
pub fn available() -> &'static [Arc<Net>] {
    static NETS: OnceLock<Vec<Arc<Net>>> = OnceLock::new();
    NETS.get_or_init(|| {
        let mut nets = embedded();
        if let Some(path) = std::env::var_os(NET_FILE_VAR).filter(|p| !p.is_empty()) {
            match Net::load(Path::new(&path)) {
                Ok(net) => {
                    log::info!(
                        "{NET_FILE_VAR}: {} network from {}",
                        net.rule.name(),
                        Path::new(&path).display()
                    );
                    nets.retain(|n| n.rule != net.rule);
                    nets.push(Arc::new(net));
                }
                Err(e) => {
                    eprintln!("pbrain-fivefold: {NET_FILE_VAR}: {e:#}; using the built-in networks")
                }
            }
        }
        nets
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(rule: Rule) -> Net {
        sample_mixed(rule, false)
    }

    fn sample_mixed(rule: Rule, mixed: bool) -> Net {
        let mut x = 1u32;
        let mut next = move || {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x
        };
        let sets = (0..sets_for(rule).unwrap())
            .map(|_| {
                let table = (0..ROWS)
                    .map(|_| [0; DIM].map(|_: i16| ((next() >> 16) % 12_289) as i16 - 6144))
                    .collect();
                let mut head = Head::zeros();
                let mut mix = vec![0f32; if mixed { MIX_LEN } else { 0 }];
                for part in head.parts_mut().into_iter().chain([&mut mix]) {
                    for v in part.iter_mut() {
                        *v = (next() % 1000) as f32 / 100.0 - 5.0;
                    }
                }
                Set { table, head, mix }
            })
            .collect();
        Net {
            rule,
            sets,
            board: None,
        }
    }

    #[test]
    fn the_built_in_networks_read_one_for_each_rule_and_board() {
        let nets = embedded();
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Exact] {
            assert!(
                nets.iter().any(|n| n.plays(rule, 15, 15)),
                "no {rule:?} network"
            );
            // One network for every board of the rule, and at most one kept for a board.
            assert_eq!(
                nets.iter()
                    .filter(|n| n.rule == rule && n.board.is_none())
                    .count(),
                1
            );
        }
        for (i, n) in nets.iter().enumerate() {
            assert!(
                nets[..i]
                    .iter()
                    .all(|m| (m.rule, m.board) != (n.rule, n.board)),
                "two {:?} for {:?}",
                n.rule,
                n.board
            );
        }
        // Where the network is the default, one is built in.
        for &(rule, w, h) in DEFAULT_ON {
            assert!(pick(&nets, rule, w, h).is_some(), "{rule:?} {w}x{h}");
            assert!(on_by_default(rule, w, h));
        }
        assert!(!on_by_default(Rule::Freestyle, 19, 19));
        assert!(!on_by_default(Rule::Renju, 20, 20));
        // Freestyle on 20x20 plays the network kept for it, 15x15 and 19x19 the other.
        let on = |w, h| pick(&nets, Rule::Freestyle, w, h).unwrap().board;
        assert_eq!(on(20, 20), Some((20, 20)));
        assert_eq!(on(15, 15), None);
        assert_eq!(on(19, 19), None);
    }

    #[test]
    fn a_network_kept_for_a_board_is_picked_there_first() {
        let general = Arc::new(sample(Rule::Freestyle));
        let mut for_20 = sample(Rule::Freestyle);
        for_20.board = Some((20, 20));
        for_20.sets[0].head = Head::zeros();
        let for_20 = Arc::new(for_20);
        let exact = Arc::new(sample(Rule::Exact));
        // Either order in the list.
        for nets in [
            vec![general.clone(), for_20.clone(), exact.clone()],
            vec![exact.clone(), for_20.clone(), general.clone()],
        ] {
            assert!(Arc::ptr_eq(
                pick(&nets, Rule::Freestyle, 20, 20).unwrap(),
                &for_20
            ));
            assert!(Arc::ptr_eq(
                pick(&nets, Rule::Freestyle, 15, 15).unwrap(),
                &general
            ));
            assert!(Arc::ptr_eq(
                pick(&nets, Rule::Exact, 20, 20).unwrap(),
                &exact
            ));
            assert!(pick(&nets, Rule::Renju, 15, 15).is_none());
        }
        // A board's network alone does not play other boards.
        let only = vec![for_20.clone()];
        assert!(pick(&only, Rule::Freestyle, 15, 15).is_none());
        assert!(for_20.plays(Rule::Freestyle, 20, 20));
        assert!(!for_20.plays(Rule::Freestyle, 20, 19));
    }

    #[test]
    fn files_read_back_and_damage_is_refused() {
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
            let net = sample(rule);
            let bytes = net.to_bytes();
            assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
            let mut bad = bytes.clone();
            bad[HEADER_BYTES + 1000] ^= 1;
            let e = Net::from_bytes(&bad).unwrap_err().to_string();
            assert!(e.contains("checksum"), "{e}");
            let e = Net::from_bytes(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .to_string();
            assert!(e.contains("bytes"), "{e}");
            assert!(Net::from_bytes(b"hello").is_err());
        }
        let mut renju_as_one = sample(Rule::Renju).to_bytes();
        renju_as_one[11] = 1;
        assert!(Net::from_bytes(&renju_as_one).is_err());
    }

    #[test]
    fn a_weight_soup_is_the_weighted_mean_of_its_networks() {
        for (rule, mixed) in [(Rule::Exact, false), (Rule::Renju, true)] {
            let a = sample_mixed(rule, mixed);
            // A network averaged with itself is itself, whatever the weights.
            assert_eq!(Net::mean(&[a.clone(), a.clone()], &[1.0, 1.0]).unwrap(), a);
            assert_eq!(Net::mean(&[a.clone(), a.clone()], &[5.0, 0.5]).unwrap(), a);
            assert_eq!(Net::mean(std::slice::from_ref(&a), &[2.0]).unwrap(), a);
            // 3:1 of a and a shifted copy: every number moves a quarter of the way.
            let mut b = a.clone();
            for set in &mut b.sets {
                for row in &mut set.table {
                    for v in row.iter_mut() {
                        *v = (*v / 2) + 4;
                    }
                }
                for part in set.head.parts_mut().into_iter().chain([&mut set.mix]) {
                    for v in part.iter_mut() {
                        *v += 1.0;
                    }
                }
            }
            let m = Net::mean(&[a.clone(), b.clone()], &[3.0, 1.0]).unwrap();
            for k in 0..a.sets.len() {
                for (r, row) in m.sets[k].table.iter().enumerate() {
                    for (c, &v) in row.iter().enumerate() {
                        let want = 0.75 * a.sets[k].table[r][c] as f64
                            + 0.25 * b.sets[k].table[r][c] as f64;
                        assert!((v as f64 - want).abs() <= 0.5, "{v} {want}");
                    }
                }
                let (ma, mm) = (&a.sets[k], &m.sets[k]);
                for (pa, pm) in ma
                    .head
                    .parts()
                    .into_iter()
                    .zip(mm.head.parts())
                    .chain([(&ma.mix, &mm.mix)])
                {
                    for (x, y) in pa.iter().zip(pm) {
                        assert!((y - (x + 0.25)).abs() < 1e-5, "{x} {y}");
                    }
                }
            }
            // Halves round to even, as the same mean anywhere would.
            let mut c = a.clone();
            let mut d = a.clone();
            c.sets[0].table[0][0] = 5;
            d.sets[0].table[0][0] = 6;
            c.sets[0].table[0][1] = -5;
            d.sets[0].table[0][1] = -6;
            let cd = Net::mean(&[c, d], &[1.0, 1.0]).unwrap();
            assert_eq!(cd.sets[0].table[0][..2], [6, -6]);
            // The result is a file the engine reads back.
            assert_eq!(Net::from_bytes(&m.to_bytes()).unwrap(), m);
        }
        let a = sample(Rule::Freestyle);
        for (nets, weights, says) in [
            (
                vec![a.clone(), sample(Rule::Exact)],
                vec![1.0, 1.0],
                "one rule",
            ),
            (
                vec![a.clone(), sample_mixed(Rule::Freestyle, true)],
                vec![1.0, 1.0],
                "policy mix",
            ),
            (
                vec![a.clone(), a.clone()],
                vec![1.0],
                "one weight per network",
            ),
            (vec![a.clone(), a.clone()], vec![1.0, -1.0], "not negative"),
            (vec![a.clone(), a.clone()], vec![1.0, f64::NAN], "finite"),
            (vec![a.clone(), a.clone()], vec![0.0, 0.0], "all be zero"),
            (vec![], vec![], "no network"),
        ] {
            let e = Net::mean(&nets, &weights).unwrap_err().to_string();
            assert!(e.contains(says), "{says}: {e}");
        }
    }

    /// Sets a file's flags and its checksum to match, as a writer would have.
    fn with_flags(bytes: &[u8], version: u16, flags: u32) -> Vec<u8> {
        let mut b = bytes[..bytes.len() - 8].to_vec();
        b[8..10].copy_from_slice(&version.to_le_bytes());
        b[20..24].copy_from_slice(&flags.to_le_bytes());
        let h = fnv1a(&b);
        b.extend_from_slice(&h.to_le_bytes());
        b
    }

    #[test]
    fn a_network_with_a_policy_mix_is_version_2_and_one_without_stays_version_1() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let plain = sample(rule).to_bytes();
            assert_eq!(u16::from_le_bytes([plain[8], plain[9]]), 1);
            let net = sample_mixed(rule, true);
            let bytes = net.to_bytes();
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
            assert_eq!(
                bytes.len(),
                plain.len() + sets_for(rule).unwrap() * MIX_LEN * 4
            );
            let back = Net::from_bytes(&bytes).unwrap();
            assert!(back.sets.iter().all(Set::has_mix));
            assert_eq!(back, net);
            // The flag is what says the mix is there: without it the length is wrong;
            // an unknown flag, or any flag in version 1, is refused.
            for (file, version, flags, says) in [
                (&bytes, 2, 0, "bytes"),
                (&bytes, 2, 3, "flags"),
                (&bytes, 1, 1, "flags"),
                (&plain, 3, 0, "version 3"),
            ] {
                let e = Net::from_bytes(&with_flags(file, version, flags))
                    .unwrap_err()
                    .to_string();
                assert!(e.contains(says), "{version} {flags:#x}: {e}");
            }
            // A version-2 file without the mix is read too (as version 1 is).
            assert_eq!(
                Net::from_bytes(&with_flags(&plain, 2, 0)).unwrap(),
                sample(rule)
            );
        }
    }
}
