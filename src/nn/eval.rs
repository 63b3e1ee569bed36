//! The network in the search: square vectors kept up to date as the board changes, and
//! the value and policy read from them.
//!
//! Every empty square has, per point of view (black's and white's), its clipped vector:
//! the sum of its five table rows ([`crate::nn::features::square_rows`]) held to `0..=QA`. Occupied squares
//! count as zero. The pool of a point of view is the sum of its squares' vectors.
//!
//! A move changes the rows of the squares within five steps of it on its four lines (the
//! threat classes see five steps), forty at most, and the square itself. So the
//! [`Evaluator`] remembers the moves its vectors stand for, and when asked about a board,
//! compares that list with the board's history. Moves taken back since are undone by
//! copying back the squares' states saved when they were played (a *frame* per sync that
//! played moves); for the moves played since, the squares around them are computed again
//! from the board as it is now (only the rows of the lines through the moves and the
//! threat row), the old states saved, and the pools corrected by the differences. The
//! search never has to tell it about moves (the threat solver plays thousands it never
//! evaluates); a search that evaluates at most nodes pays one move's squares and one
//! copy per evaluation. Moves taken back below the first frame, or another board, and
//! every square is computed again (a *restart*): for the board of the moves the two
//! histories share, where the new one is at most [`MAX_DIRTY_MOVES`] past them, and the
//! rest played as a frame, so the first frame sits where the search went down from. A
//! restart at the new board made it the first frame, and every board that branched off
//! above it restarted again: after a long forced line, or between the root moves that
//! `analyse` searches one by one, a 20x20 search did so thousands of times.
//!
//! The search asks for the value of the same positions many times (iterative deepening
//! and transpositions: a third of the bench's evaluations repeat one made before), so
//! [`Evaluator::score`] keeps the last scores in a small cache by position hash; a
//! score found there costs neither the head nor a sync (the next evaluation that misses
//! brings the vectors over every move since at once).
//!
//! The table work is integer: `i16` rows summed in `i16` (the table's range keeps five
//! rows from overflowing, [`crate::nn::net::TABLE_LIMIT`]), clipped, and the changes of
//! the clipped vectors summed in `i16` before they are added into `i32` pools (31 at
//! most at a time), all of which the compiler vectorises. The head after the pool is a
//! few thousand floating-point operations, the policy's part of it only where the search
//! orders moves ([`Evaluator::policy`]).

use crate::core::board::Board;
use crate::core::scale::SCORE_PER_LOGIT;
use crate::core::types::{cell, Color, Pos, Rule, Score, CELLS, DIR_OFFSETS};
#[cfg(test)]
use crate::nn::features::square_rows;
use crate::nn::features::{line_maps, line_rows_both, threat_row, ROWS_PER_SQUARE};
use crate::nn::net::{classical_input, mix_parts, wdl, Head, Net, Set, DIM, HID, POOL_DIV, QA};
use crate::nn::simd::{Kernel, Simd};
use std::sync::Arc;

/// The evaluation is held within this (a proven result is far beyond it).
pub const SCORE_LIMIT: Score = 4000;
/// Moves past the shared ones beyond which a restart computes every square for the new
/// board itself, rather than for the shared moves and the rest played as a frame.
pub const MAX_DIRTY_MOVES: usize = 6;
/// Entries of the score cache ([`Evaluator::score`]): 128 KB a search thread.
pub const SCORE_CACHE_ENTRIES: usize = 1 << 14;

/// One square's clipped vector seen from `view` under `set` (for the tests' pools from
/// scratch).
#[cfg(test)]
fn square_vector(set: &Set, b: &Board, p: Pos, view: Color) -> [i16; DIM] {
    let [r0, r1, r2, r3, r4] = square_rows(b, p, view);
    let t = &set.table;
    let (r0, r1, r2, r3, r4) = (&t[r0], &t[r1], &t[r2], &t[r3], &t[r4]);
    let mut f = [0i16; DIM];
    for i in 0..DIM {
        f[i] = (r0[i] + r1[i] + r2[i] + r3[i] + r4[i]).clamp(0, QA as i16);
    }
    f
}

/// A square's sum or clipped vector, or the pending changes of those: [`DIM`] lanes.
type Lanes = [i16; DIM];

/// A lane clipped to `0..=QA`.
#[inline(always)]
fn clip(x: i16) -> i16 {
    x.clamp(0, QA as i16)
}

/// `sum - old + new`, lane by lane (wrapping: the sums stay within `i16`, see
/// [`crate::nn::net::TABLE_LIMIT`]). Like every lane helper here it is inlined, so that
/// the compiler vectorises it in the caller with the vector instructions the caller is
/// compiled for ([`crate::nn::simd`]).
#[inline(always)]
fn swap_row(sum: &Lanes, old: &Lanes, new: &Lanes) -> Lanes {
    std::array::from_fn(|i| sum[i].wrapping_sub(old[i]).wrapping_add(new[i]))
}

/// The sum of five rows.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn sum_rows(rows: [&Lanes; ROWS_PER_SQUARE]) -> Lanes {
    let [r0, r1, r2, r3, r4] = rows;
    let mut sum = [0; DIM];
    for i in 0..DIM {
        sum[i] = r0[i]
            .wrapping_add(r1[i])
            .wrapping_add(r2[i])
            .wrapping_add(r3[i])
            .wrapping_add(r4[i]);
    }
    sum
}

/// Adds to `pending` the change of a square's clipped vector from sum `old` to sum
/// `new` (each clipped to `0..=QA`, so the change is within `-QA..=QA`).
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn reclip_into(old: &Lanes, new: &Lanes, pending: &mut Lanes) {
    for i in 0..DIM {
        pending[i] = pending[i].wrapping_add(clip(new[i]) - clip(old[i]));
    }
}

/// Takes a square's clipped vector (of sum `sum`) out through `pending`.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn unclip_into(sum: &Lanes, pending: &mut Lanes) {
    for i in 0..DIM {
        pending[i] = pending[i].wrapping_sub(clip(sum[i]));
    }
}

/// Adds the pending changes into a pool and clears them.
#[inline(always)]
fn flush_into(pool: &mut [i32; DIM], pending: &mut Lanes) {
    for (p, d) in pool.iter_mut().zip(pending.iter_mut()) {
        *p += *d as i32;
        *d = 0;
    }
}

/// Changes of clipped vectors a pending sum holds at most before it is added into its
/// pool: each is within `-QA..=QA`, so this many stay inside `i16`.
const PENDING_LIMIT: u32 = (i16::MAX as i32 / QA) as u32;

/// The search's score for win, draw and loss probabilities: the logit of the expected
/// result on the one scale ([`SCORE_PER_LOGIT`] units a logit), within [`SCORE_LIMIT`].
pub fn score_of(wdl: [f32; 3]) -> Score {
    let w = wdl[0] as f64 + 0.5 * wdl[1] as f64;
    let l = wdl[2] as f64 + 0.5 * wdl[1] as f64;
    let s = SCORE_PER_LOGIT * (w.max(1e-6) / l.max(1e-6)).ln();
    (s.round() as Score).clamp(-SCORE_LIMIT, SCORE_LIMIT)
}

/// A head's two larger products laid out for the search: `w1` and `wp` transposed, so
/// that each input scales a contiguous row added into all outputs at once (the compiler
/// vectorises that; the row-by-row dot products of [`Head`] it cannot, as it keeps the
/// order of a floating-point sum). Every output still sums its terms in the same order,
/// so the results are [`Head`]'s to the bit (but for the sign of a zero).
#[derive(Clone)]
struct FastHead {
    /// `w1` transposed: `DIM` rows of `HID`.
    w1t: Vec<[f32; HID]>,
    b1: [f32; HID],
    /// `wp` transposed: `HID` rows of `DIM`.
    wpt: Vec<[f32; DIM]>,
    bp: [f32; DIM],
}

impl FastHead {
    fn new(h: &Head) -> FastHead {
        let w1t = (0..DIM)
            .map(|i| std::array::from_fn(|j| h.w1[j * DIM + i]))
            .collect();
        let wpt = (0..HID)
            .map(|j| std::array::from_fn(|i| h.wp[i * HID + j]))
            .collect();
        FastHead {
            w1t,
            b1: std::array::from_fn(|j| h.b1[j]),
            wpt,
            bp: std::array::from_fn(|i| h.bp[i]),
        }
    }

    /// [`Head::hidden`]'s rectified layer.
    #[inline]
    fn hidden(&self, pool: &[f32; DIM]) -> [f32; HID] {
        let mut acc = [0f32; HID];
        for (row, &x) in self.w1t.iter().zip(pool) {
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w * x;
            }
        }
        std::array::from_fn(|j| (self.b1[j] + acc[j]).max(0.0))
    }

    /// [`Head::policy`]. Inputs at zero (the rectifier's) add nothing and are skipped.
    #[inline]
    fn policy(&self, h: &[f32; HID]) -> [f32; DIM] {
        let mut acc = [0f32; DIM];
        for (row, &x) in self.wpt.iter().zip(h) {
            if x != 0.0 {
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w * x;
                }
            }
        }
        std::array::from_fn(|i| self.bp[i] + acc[i])
    }
}

/// A set's policy mix laid out for the search ([`crate::nn::net`], *policy mix*): the
/// weights over [`QA`], as they multiply the squares' integer vectors.
#[derive(Clone)]
struct FastMix {
    c: [f32; DIM],
    a: [f32; DIM],
    b: [f32; DIM],
    e: [f32; DIM],
}

impl FastMix {
    fn new(set: &Set) -> Option<FastMix> {
        set.has_mix().then(|| {
            let [c, a, b, e] = mix_parts(&set.mix);
            let over_qa = |w: &[f32]| std::array::from_fn(|i| w[i] / QA as f32);
            FastMix {
                c: over_qa(c),
                a: over_qa(a),
                b: over_qa(b),
                e: std::array::from_fn(|i| e[i]),
            }
        })
    }
}

/// Offsets of a square's orthogonal and diagonal neighbours in the padded board, both
/// ways along the board's first two directions and its last two (the padding keeps every
/// neighbour of a board square inside it).
const ORTH: [isize; 4] = [
    DIR_OFFSETS[0],
    -DIR_OFFSETS[0],
    DIR_OFFSETS[1],
    -DIR_OFFSETS[1],
];
const DIAG: [isize; 4] = [
    DIR_OFFSETS[2],
    -DIR_OFFSETS[2],
    DIR_OFFSETS[3],
    -DIR_OFFSETS[3],
];

/// The network's evaluation of positions as a search visits them (see the module text).
/// One per search thread.
#[derive(Clone)]
pub struct Evaluator {
    net: Arc<Net>,
    /// The vector instructions the updates and the head run with: the CPU's widest
    /// ([`crate::nn::simd`]).
    simd: Simd,
    /// The heads of the network's sets, laid out for speed (indexed as `Net::set_for`).
    heads: Vec<FastHead>,
    /// Their policy mixes, where the network has them.
    mixes: Vec<Option<FastMix>>,
    /// The board the vectors stand for: size, rule and moves.
    shape: (usize, usize, Rule),
    moves: Vec<(Pos, Color)>,
    valid: bool,
    /// Per square index, per point of view: the rows and their sum.
    sq: Vec<[SquareState; 2]>,
    /// One frame per sync that played moves, newest last, and the squares' states
    /// before it (square index and state), so that taking those moves back is a copy.
    frames: Vec<Frame>,
    saved: Vec<Saved>,
    /// Per point of view: the sum of the vectors.
    pool: [[i32; DIM]; 2],
    /// Squares to compute again, and marks so each is listed once.
    /// Each with the lines (bits 0-3) that changed under it; bit 4 all of them.
    dirty: Vec<(Pos, u8)>,
    /// Per square: the epoch it was last listed in, and where in `dirty`.
    stamp: Vec<(u32, u32)>,
    epoch: u32,
    /// The hidden layer of the last evaluation and the position it was for, and the
    /// policy vector computed from it (once asked for).
    h: [f32; HID],
    h_for: Option<(u64, Color)>,
    g: [f32; DIM],
    g_ready: bool,
    /// Scores of positions evaluated lately on boards of the shape `cache_for`, by
    /// [`Board::hash`]: an entry holds the hash's upper 48 bits and the score's 16.
    cache: Vec<u64>,
    cache_for: (usize, usize, Rule),
    /// Times every square was computed again (for tests and diagnostics).
    restarts: u64,
}

/// What the evaluator keeps of one square from one point of view. Its vector is the sum
/// clipped to `0..=QA` (zero for an occupied square, whose sum is zero).
///
/// Aligned to 16 bytes, the rows padded to eight: the state is copied (saved and
/// restored) as five aligned 16-byte words, each read back from one earlier store. With
/// the 74 bytes packed, a copy read a word that straddled the sum and the rows, written
/// by separate stores, and stalled on it.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct SquareState {
    /// The rows' sum (exact: the table's range keeps it within `i16`).
    sum: [i16; DIM],
    /// The square's rows (the first [`ROWS_PER_SQUARE`]; the rest stay [`NO_ROWS`]), or
    /// [`NO_ROWS`] in the first while it is occupied.
    rows: [u16; ROW_SLOTS],
}

/// Row slots kept per square: [`ROWS_PER_SQUARE`] padded to a 16-byte word.
const ROW_SLOTS: usize = 8;

const NO_ROWS: u16 = u16::MAX;
/// A dirty square's mark for "every line changed" (the square itself was played or
/// taken back).
const ALL_LINES: u8 = 0b1111;

impl SquareState {
    const OCCUPIED: SquareState = SquareState {
        rows: [NO_ROWS; ROW_SLOTS],
        sum: [0; DIM],
    };
}

/// A square's state from one point of view, saved before a move changed it. Small
/// enough (96 bytes) that saving and restoring are inline copies.
#[derive(Clone, Copy)]
struct Saved {
    state: SquareState,
    square: u16,
    view: u8,
}

/// Moves played in one sync: where they start in the evaluator's moves, the pools
/// before them and where their squares' old states start in the saved list.
#[derive(Clone, Copy)]
struct Frame {
    moves_before: usize,
    pool: [[i32; DIM]; 2],
    saved_from: usize,
}

/// The evaluator's hot code as kernels for [`Simd::run`], compiled for the CPU's
/// vector instructions: bringing the vectors to a board ([`Evaluator::sync`], and
/// [`Evaluator::refresh_all`] for a restart), the head's hidden layer and its policy
/// vector. (The head inlined with the update into one kernel was slower.)
struct SyncTo<'a>(&'a mut Evaluator, &'a Board);
struct RefreshAll<'a>(&'a mut Evaluator, &'a Board);
struct Hidden<'a>(&'a FastHead, &'a [f32; DIM]);
struct Policy<'a>(&'a FastHead, &'a [f32; HID]);

impl Kernel for SyncTo<'_> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        self.0.sync_in(self.1)
    }
}

impl Kernel for RefreshAll<'_> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        self.0.refresh_all_in(self.1)
    }
}

impl Kernel for Hidden<'_> {
    type Out = [f32; HID];
    #[inline(always)]
    fn run(self) -> [f32; HID] {
        self.0.hidden(self.1)
    }
}

impl Kernel for Policy<'_> {
    type Out = [f32; DIM];
    #[inline(always)]
    fn run(self) -> [f32; DIM] {
        self.0.policy(self.1)
    }
}

/// The value of one position.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub wdl: [f32; 3],
    pub score: Score,
}

impl Evaluator {
    pub fn new(net: Arc<Net>) -> Evaluator {
        let heads = net.sets.iter().map(|s| FastHead::new(&s.head)).collect();
        let mixes = net.sets.iter().map(FastMix::new).collect();
        Evaluator {
            net,
            simd: Simd::detect(),
            heads,
            mixes,
            shape: (0, 0, Rule::Freestyle),
            moves: Vec::new(),
            valid: false,
            sq: vec![[SquareState::OCCUPIED; 2]; CELLS],
            frames: Vec::new(),
            saved: Vec::new(),
            pool: [[0; DIM]; 2],
            dirty: Vec::with_capacity(64),
            stamp: vec![(0, 0); CELLS],
            epoch: 0,
            h: [0.0; HID],
            h_for: None,
            g: [0.0; DIM],
            g_ready: false,
            cache: vec![0; SCORE_CACHE_ENTRIES],
            cache_for: (0, 0, Rule::Freestyle),
            restarts: 0,
        }
    }

    /// The network it evaluates with.
    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Computes `squares` again from `b` for both points of view, each with the lines
    /// that changed under it: the rows that changed are taken out of its sum and the
    /// new ones added, in place (all of them for a square that was occupied, or with
    /// [`ALL_LINES`]). The new rows are found first, so a square whose rows all stay is
    /// neither saved nor touched; with `save` the old state of every square changed is
    /// saved. The changes of the clipped vectors are summed in `i16` (a third of the
    /// work of widening each into the pool) and added into the pools every
    /// [`PENDING_LIMIT`] squares and at the end, so the pools are whole when it returns.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn refresh_squares(&mut self, b: &Board, squares: impl Iterator<Item = (Pos, u8)>, save: bool) {
        let maps = line_maps();
        let net = &*self.net;
        let tables = [
            &net.set_for(Color::Black).table[..],
            &net.set_for(Color::White).table[..],
        ];
        let (sq, pool) = (&mut self.sq, &mut self.pool);
        let saved = &mut self.saved;
        let mut pending = [[0i16; DIM]; 2];
        let mut count = 0;
        for (p, lines) in squares {
            let st = &mut sq[p.idx()];
            if !b.is_empty(p) {
                if st[0].rows[0] == NO_ROWS {
                    continue;
                }
                for (v, (s, pend)) in st.iter_mut().zip(&mut pending).enumerate() {
                    if save {
                        saved.push(Saved {
                            state: *s,
                            square: p.0,
                            view: v as u8,
                        });
                    }
                    unclip_into(&s.sum, pend);
                    *s = SquareState::OCCUPIED;
                }
            } else {
                let full = st[0].rows[0] == NO_ROWS || lines == ALL_LINES;
                // The new rows of both points of view, and a bit per row that changed.
                let mut new = [st[0].rows, st[1].rows];
                let mut changed = [0u8; 2];
                for d in 0..4 {
                    if full || lines & (1 << d) != 0 {
                        let r = line_rows_both(maps, b.key(p, d));
                        for v in 0..2 {
                            changed[v] |= u8::from(r[v] != new[v][d]) << d;
                            new[v][d] = r[v];
                        }
                    }
                }
                let threats = [b.threat(p, Color::Black), b.threat(p, Color::White)];
                for v in 0..2 {
                    let r = threat_row(threats[v], threats[1 - v]) as u16;
                    changed[v] |= u8::from(r != new[v][4]) << 4;
                    new[v][4] = r;
                }
                if changed == [0, 0] {
                    continue;
                }
                for v in 0..2 {
                    if changed[v] == 0 {
                        continue;
                    }
                    let (table, s) = (tables[v], &mut st[v]);
                    if save {
                        saved.push(Saved {
                            state: *s,
                            square: p.0,
                            view: v as u8,
                        });
                    }
                    let old = s.sum;
                    let sum = if full {
                        let r = new[v];
                        sum_rows([r[0], r[1], r[2], r[3], r[4]].map(|r| &table[r as usize]))
                    } else {
                        let mut sum = old;
                        let mut bits = changed[v];
                        while bits != 0 {
                            let k = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let (was, now) = (s.rows[k] as usize, new[v][k] as usize);
                            sum = swap_row(&sum, &table[was], &table[now]);
                        }
                        sum
                    };
                    s.sum = sum;
                    s.rows = new[v];
                    reclip_into(&old, &sum, &mut pending[v]);
                }
            }
            count += 1;
            if count == PENDING_LIMIT {
                for (pool, pend) in pool.iter_mut().zip(&mut pending) {
                    flush_into(pool, pend);
                }
                count = 0;
            }
        }
        if count > 0 {
            for (pool, pend) in pool.iter_mut().zip(&mut pending) {
                flush_into(pool, pend);
            }
        }
    }

    /// Computes every square again (with the CPU's vector instructions, as
    /// [`Evaluator::sync`]).
    #[inline(never)]
    fn refresh_all(&mut self, b: &Board) {
        self.simd.run(RefreshAll(self, b))
    }

    /// [`Evaluator::refresh_all`]'s body.
    #[inline(always)]
    fn refresh_all_in(&mut self, b: &Board) {
        self.restarts += 1;
        if self.shape.0 != b.width() || self.shape.1 != b.height() {
            self.sq.fill([SquareState::OCCUPIED; 2]);
        } else {
            for p in b.squares() {
                self.sq[p.idx()] = [SquareState::OCCUPIED; 2];
            }
        }
        self.pool = [[0; DIM]; 2];
        self.refresh_squares(b, b.squares().map(|p| (p, ALL_LINES)), false);
        self.shape = (b.width(), b.height(), b.rule());
        self.frames.clear();
        self.saved.clear();
        self.moves.clear();
        self.moves
            .extend(b.history().iter().map(|m| (m.pos, m.color)));
        self.valid = true;
    }

    /// Computes every square again, and brings the vectors to `b`. Where `b` is a few
    /// moves past the `common` moves the vectors stood for, the squares are computed
    /// for the board of the common moves and the rest played as a frame: the first
    /// frame is then where the search went down from, and going back up to it costs no
    /// further restart. (A restart at `b` would make `b` the first frame, and each
    /// sibling of it would restart again: after a long forced line, or between the
    /// root moves `analyse` searches one by one.)
    #[cold]
    fn restart(&mut self, b: &Board, common: usize) {
        if b.move_count() - common > MAX_DIRTY_MOVES {
            return self.refresh_all(b);
        }
        let mut base = b.clone();
        while base.move_count() > common {
            base.unmake();
        }
        self.refresh_all(&base);
        self.sync(b);
    }

    /// Brings the vectors to `b` (see the module text): the frames of moves taken back
    /// are restored from what they saved, the moves played since are one new frame.
    pub fn sync(&mut self, b: &Board) {
        self.simd.run(SyncTo(self, b))
    }

    /// [`Evaluator::sync`]'s body, inlined into the vector dispatch's copies.
    #[inline(always)]
    fn sync_in(&mut self, b: &Board) {
        let h = b.history();
        if !self.valid || self.shape != (b.width(), b.height(), b.rule()) {
            return self.refresh_all(b);
        }
        let common = self
            .moves
            .iter()
            .zip(h)
            .take_while(|(a, m)| a.0 == m.pos && a.1 == m.color)
            .count();
        if common == self.moves.len() && common == h.len() {
            return;
        }
        // Take back whole frames down to the common moves (perhaps below them, where a
        // frame held several moves); below the frames, only a refresh can go back.
        while self.moves.len() > common {
            let Some(f) = self.frames.pop() else {
                return self.restart(b, common);
            };
            for s in self.saved.drain(f.saved_from..).rev() {
                self.sq[s.square as usize][s.view as usize] = s.state;
            }
            self.pool = f.pool;
            self.moves.truncate(f.moves_before);
        }
        let from = self.moves.len();
        let played = h.len() - from;
        if played == 0 {
            return;
        }
        self.frames.push(Frame {
            moves_before: from,
            pool: self.pool,
            saved_from: self.saved.len(),
        });
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill((0, 0));
            self.epoch = 1;
        }
        self.dirty.clear();
        for m in &h[from..] {
            let p = m.pos;
            self.mark(p, ALL_LINES);
            for d in 0..4 {
                for k in (-5..=5).filter(|&k| k != 0) {
                    let q = p.step(d, k);
                    if b.cell(q) != cell::WALL {
                        // A line row sees four squares each way: five steps away only
                        // the threat classes can change.
                        self.mark(q, if k.abs() <= 4 { 1 << d } else { 0 });
                    }
                }
            }
        }
        let dirty = std::mem::take(&mut self.dirty);
        self.refresh_squares(b, dirty.iter().copied(), true);
        self.dirty = dirty;
        self.moves
            .extend(h[from..].iter().map(|m| (m.pos, m.color)));
    }

    /// Lists square `q` for computing again, with `lines` changed.
    #[inline]
    fn mark(&mut self, q: Pos, lines: u8) {
        let (epoch, at) = self.stamp[q.idx()];
        if epoch == self.epoch {
            self.dirty[at as usize].1 |= lines;
        } else {
            self.stamp[q.idx()] = (self.epoch, self.dirty.len() as u32);
            self.dirty.push((q, lines));
        }
    }

    /// The fast head of `view`'s set.
    #[inline]
    fn head_for(&self, view: Color) -> &FastHead {
        &self.heads[view.index() % self.heads.len()]
    }

    /// The pool of `view`, in floating point, as the head reads it.
    fn pool_f(&self, view: Color) -> [f32; DIM] {
        self.pool[view.index()].map(|s| s as f32 / (QA as f32 * POOL_DIV))
    }

    /// The value of `b` for the side to move. The hidden layer is kept for
    /// [`Evaluator::prepare_policy`].
    pub fn evaluate(&mut self, b: &Board) -> Output {
        self.sync(b);
        let view = b.side_to_move();
        let h = self
            .simd
            .run(Hidden(self.head_for(view), &self.pool_f(view)));
        let logits = self.net.set_for(view).head.value(&h, classical_input(b));
        self.h = h;
        self.h_for = Some((b.hash(), view));
        self.g_ready = false;
        let wdl = wdl(&logits);
        Output {
            wdl,
            score: score_of(wdl),
        }
    }

    /// The score of [`Evaluator::evaluate`], from the cache where `b` was evaluated
    /// lately. A score found there costs neither the head nor bringing the vectors to
    /// `b` (the next evaluation brings them over every move since at once); the search
    /// visits the same positions many times (a third of its evaluations in the bench).
    #[inline]
    pub fn score(&mut self, b: &Board) -> Score {
        let shape = (b.width(), b.height(), b.rule());
        if self.cache_for != shape {
            self.cache.fill(0);
            self.cache_for = shape;
        }
        let key = b.hash();
        let slot = key as usize % SCORE_CACHE_ENTRIES;
        let tag = key & !0xffff;
        let entry = self.cache[slot];
        if entry != 0 && entry & !0xffff == tag {
            return entry as u16 as i16 as Score;
        }
        let score = self.evaluate(b).score;
        self.cache[slot] = tag | (score as i16 as u16 as u64);
        score
    }

    /// Makes the policy of `b` readable by [`Evaluator::policy`]: from the last
    /// evaluation where that was `b`, else after evaluating it.
    pub fn prepare_policy(&mut self, b: &Board) {
        if self.h_for != Some((b.hash(), b.side_to_move())) {
            self.evaluate(b);
        }
        if !self.g_ready {
            let head = self.head_for(b.side_to_move());
            self.g = self.simd.run(Policy(head, &self.h));
            self.g_ready = true;
        }
    }

    /// Whether [`Evaluator::prepare_policy`] was last called for `b`, so that
    /// [`Evaluator::policy_logit`] reads `b`'s policy.
    #[inline]
    pub fn policy_ready(&self, b: &Board) -> bool {
        self.g_ready && self.h_for == Some((b.hash(), b.side_to_move()))
    }

    /// The policy logit of empty square `p` for `view` to move, in the position last
    /// prepared (see [`Evaluator::policy_ready`]). Summed in eight lanes, which the
    /// compiler vectorises.
    #[inline]
    pub fn policy_logit(&self, view: Color, p: Pos) -> f32 {
        if let Some(mix) = &self.mixes[view.index() % self.mixes.len()] {
            return self.mixed_policy_logit(mix, view, p);
        }
        let sum = &self.sq[p.idx()][view.index()].sum;
        let mut lanes = [0f32; 8];
        for (v, g) in sum.chunks_exact(8).zip(self.g.chunks_exact(8)) {
            for k in 0..8 {
                lanes[k] += v[k].clamp(0, QA as i16) as f32 * g[k];
            }
        }
        lanes.iter().sum::<f32>() / QA as f32
    }

    /// [`Evaluator::policy_logit`] with a policy mix: the square's vector mixed with its
    /// neighbours' (occupied squares and those off the board hold zero sums).
    #[allow(clippy::needless_range_loop)]
    fn mixed_policy_logit(&self, mix: &FastMix, view: Color, p: Pos) -> f32 {
        let (i, v) = (p.idx(), view.index());
        let clipped = |k: isize| {
            let sum = &self.sq[(i as isize + k) as usize][v].sum;
            sum.map(|x| x.clamp(0, QA as i16))
        };
        // Four clipped vectors sum to at most 4 QA: inside i16.
        let neighbours = |offsets: [isize; 4]| {
            let mut acc = [0i16; DIM];
            for k in offsets {
                let c = clipped(k);
                for j in 0..DIM {
                    acc[j] += c[j];
                }
            }
            acc
        };
        let (own, orth, diag) = (clipped(0), neighbours(ORTH), neighbours(DIAG));
        let mut lanes = [0f32; DIM];
        for j in 0..DIM {
            let t = mix.c[j] * own[j] as f32
                + mix.a[j] * orth[j] as f32
                + mix.b[j] * diag[j] as f32
                + mix.e[j];
            lanes[j] = t.clamp(0.0, 1.0) * self.g[j];
        }
        lanes.iter().sum()
    }

    /// The policy logit of empty square `p` in the position last prepared with
    /// [`Evaluator::prepare_policy`] (which must be `b`: `None` otherwise).
    #[inline]
    pub fn policy(&self, b: &Board, p: Pos) -> Option<f32> {
        self.policy_ready(b)
            .then(|| self.policy_logit(b.side_to_move(), p))
    }

    /// The pools from scratch, for tests: what [`Evaluator::sync`] should have kept.
    #[cfg(test)]
    fn pools_from_scratch(&self, b: &Board) -> [[i32; DIM]; 2] {
        let mut pool = [[0i32; DIM]; 2];
        for p in b.squares().filter(|&p| b.is_empty(p)) {
            for view in [Color::Black, Color::White] {
                let v = square_vector(self.net.set_for(view), b, p, view);
                for (s, &x) in pool[view.index()].iter_mut().zip(v.iter()) {
                    *s += x as i32;
                }
            }
        }
        pool
    }

    /// The same evaluator with the vector instructions of `simd` (for the tests).
    #[cfg(test)]
    fn with_simd(mut self, simd: Simd) -> Evaluator {
        self.simd = simd;
        self
    }

    /// How many times every square was computed again (for the tests).
    #[cfg(test)]
    pub(crate) fn restarts(&self) -> u64 {
        self.restarts
    }

    /// The pools kept now.
    pub fn pools(&self) -> [[i32; DIM]; 2] {
        self.pool
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::rng::{Rng, XorShift64};
    use crate::core::rules;
    use crate::nn::features::ROWS;
    use crate::nn::net::{sets_for, Head, HID};

    /// A network of random weights for `rule`, the table in the range training gives.
    pub(crate) fn random_net(rule: Rule, seed: u64) -> Net {
        let mut rng = XorShift64::new(seed);
        let mut u =
            move |lo: f32, hi: f32| lo + (hi - lo) * (rng.next_u64() % 10_000) as f32 / 10_000.0;
        let sets = (0..sets_for(rule).unwrap())
            .map(|_| {
                let table = (0..ROWS)
                    .map(|_| [0; DIM].map(|_: i16| (u(-0.3, 0.45) * QA as f32) as i16))
                    .collect();
                let mut head = Head::zeros();
                for part in head.parts_mut() {
                    for v in part.iter_mut() {
                        *v = u(-0.5, 0.5);
                    }
                }
                assert_eq!(head.b1.len(), HID);
                Set {
                    table,
                    head,
                    mix: Vec::new(),
                }
            })
            .collect();
        Net {
            rule,
            sets,
            board: None,
        }
    }

    /// [`random_net`], with a random policy mix where `mixed`: the centre's weight 0.5
    /// to 1.5, the neighbours' -0.5 to 0.5, the bias -0.3 to 0.3.
    pub(crate) fn random_mixed_net(rule: Rule, seed: u64, mixed: bool) -> Net {
        let mut net = random_net(rule, seed);
        if !mixed {
            return net;
        }
        let mut rng = XorShift64::new(seed ^ 0x5eed);
        for set in net.sets.iter_mut() {
            set.mix = (0..crate::nn::net::MIX_LEN)
                .map(|i| {
                    let u = (rng.next_u64() % 10_000) as f32 / 10_000.0 - 0.5;
                    match i / DIM {
                        0 => 1.0 + u,
                        3 => 0.6 * u,
                        _ => u,
                    }
                })
                .collect();
        }
        net
    }

    /// Plays random legal moves near the stones until `n` are on the board or the game
    /// ends.
    pub(crate) fn random_moves(b: &mut Board, n: usize, rng: &mut impl Rng) {
        while b.move_count() < n && rules::game_end(b).is_none() {
            let near: Vec<Pos> = b.area(2).filter(|&p| b.is_empty(p)).collect();
            let mut cands: Vec<Pos> = near
                .into_iter()
                .filter(|&p| rules::is_legal(b, p))
                .collect();
            if cands.is_empty() {
                cands = b.squares().filter(|&p| b.is_empty(p)).collect();
            }
            if cands.is_empty() {
                return;
            }
            b.make(cands[rng.below(cands.len())]);
        }
    }

    #[test]
    fn kept_pools_equal_pools_from_scratch_through_moves_and_takebacks() {
        for (rule, size, mixed) in [
            (Rule::Freestyle, 15, false),
            (Rule::Renju, 15, false),
            (Rule::Exact, 20, false),
            (Rule::Freestyle, 7, false),
            (Rule::Freestyle, 15, true),
            (Rule::Renju, 20, true),
        ] {
            let net = Arc::new(random_mixed_net(rule, 7, mixed));
            let mut e = Evaluator::new(net);
            let mut rng = XorShift64::new(99);
            for _ in 0..20 {
                let mut b = Board::square(size, rule).unwrap();
                let target = 1 + rng.below(40);
                random_moves(&mut b, target, &mut rng);
                // Walk around: take back a few, play others, evaluating now and then.
                for step in 0..30 {
                    if rng.chance(1, 2) && b.move_count() > 0 {
                        for _ in 0..1 + rng.below(3) {
                            b.unmake();
                        }
                    } else {
                        let n = b.move_count() + 1 + rng.below(3);
                        random_moves(&mut b, n, &mut rng);
                    }
                    if step % 3 != 1 {
                        e.evaluate(&b);
                        assert_eq!(
                            e.pools(),
                            e.pools_from_scratch(&b),
                            "{rule:?} {size}\n{}",
                            b.to_diagram()
                        );
                        // The policy (with a mix, read from the neighbours' kept
                        // vectors too) is a fresh evaluator's.
                        if step % 3 == 0 {
                            let mut fresh = Evaluator::new(e.net().clone());
                            e.prepare_policy(&b);
                            fresh.prepare_policy(&b);
                            for p in b.squares().filter(|&p| b.is_empty(p)) {
                                assert_eq!(
                                    e.policy(&b, p),
                                    fresh.policy(&b, p),
                                    "{rule:?} {mixed}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_vector_level_gives_the_same_results_to_the_bit() {
        // The portable code and each copy compiled for wider vectors (crate::nn::simd)
        // walk the same moves and takebacks: pools, value and policy are equal, the
        // floating-point numbers bit for bit.
        let levels = Simd::available();
        for (rule, size, mixed) in [
            (Rule::Freestyle, 15, false),
            (Rule::Renju, 15, false),
            (Rule::Exact, 20, true),
        ] {
            let net = Arc::new(random_mixed_net(rule, 21, mixed));
            let mut es: Vec<Evaluator> = levels
                .iter()
                .map(|&s| Evaluator::new(net.clone()).with_simd(s))
                .collect();
            let mut rng = XorShift64::new(77);
            for _ in 0..10 {
                let mut b = Board::square(size, rule).unwrap();
                random_moves(&mut b, 1 + rng.below(30), &mut rng);
                for step in 0..20 {
                    if rng.chance(1, 2) && b.move_count() > 0 {
                        b.unmake();
                    } else {
                        let n = b.move_count() + 1 + rng.below(2);
                        random_moves(&mut b, n, &mut rng);
                    }
                    let outs: Vec<Output> = es.iter_mut().map(|e| e.evaluate(&b)).collect();
                    for (e, o) in es.iter().zip(&outs) {
                        assert_eq!(e.pools(), es[0].pools(), "{}", e.simd.name());
                        assert_eq!(o.wdl.map(f32::to_bits), outs[0].wdl.map(f32::to_bits));
                        assert_eq!(o.score, outs[0].score);
                    }
                    if step % 4 == 0 {
                        for e in es.iter_mut() {
                            e.prepare_policy(&b);
                        }
                        for p in b.squares().filter(|&p| b.is_empty(p)) {
                            let want = es[0].policy(&b, p).map(f32::to_bits);
                            for e in &es {
                                assert_eq!(e.policy(&b, p).map(f32::to_bits), want);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_below_an_unevaluated_root_restarts_once() {
        // The children of a root are evaluated, the root never (as `analyse` does,
        // searching each root move on its own):
        // the second child restarts for the root's board, and no sibling after it, nor
        // a grandchild's sibling, nor a jump of more than MAX_DIRTY_MOVES moves down.
        let net = Arc::new(random_net(Rule::Freestyle, 9));
        let mut e = Evaluator::new(net);
        let mut rng = XorShift64::new(5);
        let mut b = Board::square(20, Rule::Freestyle).unwrap();
        random_moves(&mut b, 8, &mut rng);
        let children: Vec<Pos> = b.area(2).filter(|&p| b.is_empty(p)).take(12).collect();
        for (i, &c) in children.iter().enumerate() {
            b.make(c);
            e.evaluate(&b);
            for &g in children.iter().filter(|&&g| g != c).take(3) {
                b.make(g);
                e.evaluate(&b);
                b.unmake();
            }
            if i == 5 {
                let before = b.move_count();
                random_moves(&mut b, before + 10, &mut rng);
                assert!(b.move_count() > before + MAX_DIRTY_MOVES);
                e.evaluate(&b);
                while b.move_count() > before {
                    b.unmake();
                }
            }
            e.evaluate(&b);
            assert_eq!(e.pools(), e.pools_from_scratch(&b));
            b.unmake();
        }
        assert_eq!(e.restarts(), 2);
    }

    #[test]
    fn cached_scores_are_the_evaluations() {
        // The same stones on a 15x15 and a 20x20 board have the same hash but not the
        // same score: the cache must not hand one board's score to the other.
        let net = Arc::new(random_net(Rule::Freestyle, 5));
        let fresh = |b: &Board| Evaluator::new(net.clone()).evaluate(b).score;
        let mut e = Evaluator::new(net.clone());
        let mut rng = XorShift64::new(11);
        let mut differ = 0;
        for _ in 0..20 {
            let mut small = Board::square(15, Rule::Freestyle).unwrap();
            random_moves(&mut small, 1 + rng.below(30), &mut rng);
            let mut large = Board::square(20, Rule::Freestyle).unwrap();
            for m in small.history() {
                large.make(m.pos);
            }
            assert_eq!(small.hash(), large.hash());
            differ += usize::from(fresh(&small) != fresh(&large));
            for b in [&small, &small, &large, &large, &small] {
                assert_eq!(e.score(b), fresh(b), "\n{}", b.to_diagram());
            }
        }
        assert!(differ > 10, "{differ}");
    }

    #[test]
    fn scores_follow_the_expected_result() {
        assert_eq!(score_of([0.5, 0.0, 0.5]), 0);
        assert_eq!(score_of([0.0, 1.0, 0.0]), 0);
        let s = score_of([0.731_058_6, 0.0, 0.268_941_4]);
        assert!((s - SCORE_PER_LOGIT as Score).abs() <= 1, "{s}");
        let sure = score_of([1.0, 0.0, 0.0]);
        assert!(sure > 2000 && sure <= SCORE_LIMIT, "{sure}");
        assert_eq!(score_of([0.0, 0.0, 1.0]), -sure);
    }

    #[test]
    fn the_policy_is_only_read_for_the_position_evaluated() {
        let mut e = Evaluator::new(Arc::new(random_net(Rule::Freestyle, 3)));
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        b.make(Pos::new(7, 7));
        e.evaluate(&b);
        assert!(e.policy(&b, Pos::new(8, 8)).is_none());
        e.prepare_policy(&b);
        assert!(e.policy(&b, Pos::new(8, 8)).is_some());
        b.make(Pos::new(8, 8));
        assert!(e.policy(&b, Pos::new(9, 9)).is_none());
    }
}
