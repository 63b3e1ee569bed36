//! The board: stones, side to move, move history, and an incrementally kept picture of
//! every shape on it.
//!
//! Per square and direction the board keeps a *line key* (the ten squares around it on
//! that line, see [`crate::core::pattern`]). A move changes the keys of the up to forty squares
//! that see it; for each of those that is empty, one table lookup gives its new shape on
//! that line for both colours, and a second per colour whose shapes changed gives its
//! threat class and evaluation values together.
//! Counts of threat classes per colour make questions such as "can the opponent make five
//! next move?" O(1).
//!
//! The forty squares a stone can change are a constant table of index offsets
//! (`NEIGHBOURS`); `make` first updates their keys and looks up their new shapes (forty
//! independent loads), then reshapes the empty ones. [`Board::count_after`] answers "how
//! many such squares would a colour have after this stone" from the same table without
//! touching the board. The move generator asks that of every defence of an open three it
//! tries, through [`Board::open_four_left_after`], which needs to look at only the few
//! open-four squares already there.
//!
//! `make` saves the old shapes of every square it changes, and the totals, on an undo
//! stack; `unmake` takes the stone out of the line keys and restores the rest from
//! there, without a single table lookup. `make`/`unmake` keep everything exact; `check_invariants` recomputes it all from
//! scratch and is run after every `make`/`unmake` in debug builds.

use crate::core::pattern::{key_weight, line_key, unpack4, Pat, Threat};
use crate::core::rng::{Rng, SplitMix64};
use crate::core::tables::{self, Tables};
use crate::core::types::{
    cell, Color, Pos, Rule, CELLS, DIR_OFFSETS, MAX_SIZE, MIN_SIZE, PAD, STRIDE,
};
use std::fmt;

/// One of the forty squares whose line keys a stone changes: its index offset from the
/// stone, the direction of the line they share, and what a black stone adds to its key
/// there (a white stone adds twice as much: the key counts cell codes).
#[derive(Copy, Clone)]
struct Neighbour {
    off: isize,
    dir: usize,
    weight: u32,
}

/// The forty squares up to five steps away on the four lines through a square.
const NEIGHBOURS: [Neighbour; 40] = {
    let mut t = [Neighbour {
        off: 0,
        dir: 0,
        weight: 0,
    }; 40];
    let mut d = 0;
    while d < 4 {
        let mut k = 1;
        while k <= 5 {
            // Seen from the square `k` steps back the stone is `k` steps ahead, and the
            // other way round.
            let n = d * 10 + 2 * (k as usize - 1);
            t[n] = Neighbour {
                off: -DIR_OFFSETS[d] * k,
                dir: d,
                weight: key_weight(k),
            };
            t[n + 1] = Neighbour {
                off: DIR_OFFSETS[d] * k,
                dir: d,
                weight: key_weight(-k),
            };
            k += 1;
        }
        d += 1;
    }
    t
};

/// One entry of the move history.
#[derive(Copy, Clone, Debug)]
pub struct Played {
    pub pos: Pos,
    pub color: Color,
    /// Whether this move completed a winning five for its colour.
    pub won: bool,
    /// Bounding box of the stones before this move (x0, y0, x1, y1), or `None` if empty.
    bbox: Option<(u8, u8, u8, u8)>,
}

/// Zobrist keys: fixed seed, so hashes are the same on every run.
struct Zobrist {
    stone: [Vec<u64>; 2],
    side: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: std::sync::OnceLock<Zobrist> = std::sync::OnceLock::new();
    Z.get_or_init(|| {
        let mut r = SplitMix64::new(0x5EED_F1FE_F01D_2026);
        let black = (0..CELLS).map(|_| r.next_u64()).collect();
        let white = (0..CELLS).map(|_| r.next_u64()).collect();
        Zobrist {
            stone: [black, white],
            side: r.next_u64(),
        }
    })
}

/// What the board keeps per square. Shapes, classes and values are valid for empty
/// squares; the line keys are kept for every square.
#[derive(Copy, Clone, Default)]
#[repr(C, align(32))]
struct Square {
    /// Line key per direction.
    keys: [u32; 4],
    /// Per colour: the four line shapes, four bits each.
    pats: [u16; 2],
    /// Per colour: evaluation value as the side to move and as the other side.
    vals: [[i16; 2]; 2],
    /// Per colour: the threat class.
    threat: [u8; 2],
}

/// The shapes of one empty square before a move changed them, for `unmake`.
#[derive(Copy, Clone, Default)]
struct Undo {
    idx: u16,
    pats: [u16; 2],
    vals: [[i16; 2]; 2],
    threat: [u8; 2],
}

/// What the board adds up over its empty squares.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
struct Totals {
    /// Per colour, how many empty squares have each threat class.
    counts: [[u16; Threat::COUNT]; 2],
    /// Per colour and role, the sum of the evaluation values of all empty squares.
    value_sum: [[i32; 2]; 2],
}

/// The totals before a move, and where its entries on the undo stack begin.
#[derive(Copy, Clone)]
struct Frame {
    totals: Totals,
    undo_len: u32,
}

/// A Gomoku board with incremental shape information.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    tables: &'static Tables,
    cells: Vec<u8>,
    /// Everything kept per square, in one cache-friendly record.
    sq: Vec<Square>,
    /// Threat class counts and value sums over the empty squares.
    totals: Totals,
    /// The stones of each row as bits: bit `x + 2` of entry `y + 2`. Two empty rows and
    /// columns on each side keep every 5x5 window around a square inside.
    rows: [u64; MAX_SIZE + 4],
    zobrist: u64,
    side: Color,
    history: Vec<Played>,
    /// Per move in `history`: the totals before it.
    frames: Vec<Frame>,
    /// The old shapes of every square a move changed, so that `unmake` restores them
    /// without looking anything up.
    undo: Vec<Undo>,
    /// Where `make` collects a move's undo entries before they join `undo`.
    saved: Box<[Undo; 40]>,
    bbox: Option<(u8, u8, u8, u8)>,
}

/// Gives empty square `i` (record `sq`) its new shapes `lp` on line `d` (black in the low
/// nibble) and updates the totals, if they changed; returns the old ones for the undo stack.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // `c` indexes several arrays
fn reshape(
    t: &Tables,
    i: usize,
    sq: &mut Square,
    d: usize,
    lp: u16,
    totals: &mut Totals,
) -> Option<Undo> {
    let shift = 4 * d;
    let cur = ((sq.pats[0] >> shift) & 15) | (((sq.pats[1] >> shift) & 15) << 4);
    if cur == lp {
        return None;
    }
    let old = *sq;
    let mask = !(15u16 << shift);
    let new = [
        (old.pats[0] & mask) | ((lp & 15) << shift),
        (old.pats[1] & mask) | (((lp >> 4) & 15) << shift),
    ];
    sq.pats = new;
    for c in 0..2 {
        if new[c] == old.pats[c] {
            continue;
        }
        let cmb = t.combo(c, new[c]);
        let ot = old.threat[c];
        let nt = cmb.threat;
        if ot != nt {
            totals.counts[c][ot as usize] -= 1;
            totals.counts[c][nt as usize] += 1;
            sq.threat[c] = nt;
        }
        let nv = cmb.vals;
        let ov = old.vals[c];
        totals.value_sum[c][0] += nv[0] as i32 - ov[0] as i32;
        totals.value_sum[c][1] += nv[1] as i32 - ov[1] as i32;
        sq.vals[c] = nv;
    }
    Some(Undo {
        idx: i as u16,
        pats: old.pats,
        vals: old.vals,
        threat: old.threat,
    })
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.to_diagram())
    }
}

impl Board {
    /// A new empty board. Sizes outside 5..=32 are an error.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(format!(
                "board size {width}x{height} is outside {MIN_SIZE}..{MAX_SIZE}"
            ));
        }
        let tables = tables::tables(rule);
        let mut b = Board {
            width,
            height,
            rule,
            tables,
            cells: vec![cell::WALL; CELLS],
            sq: vec![Square::default(); CELLS],
            totals: Totals::default(),
            rows: [0; MAX_SIZE + 4],
            zobrist: 0,
            side: Color::Black,
            history: Vec::with_capacity(width * height),
            frames: Vec::with_capacity(width * height),
            undo: Vec::with_capacity(64 * 40),
            saved: Box::new([Undo::default(); 40]),
            bbox: None,
        };
        for y in 0..height {
            for x in 0..width {
                b.cells[Pos::new(x, y).idx()] = cell::EMPTY;
            }
        }
        let (keys, pats, threat, counts, value_sum) = b.recompute();
        for i in 0..CELLS {
            let sq = &mut b.sq[i];
            sq.keys = keys[i];
            sq.pats = pats[i];
            sq.threat = threat[i];
            sq.vals = [
                b.tables.combo(0, pats[i][0]).vals,
                b.tables.combo(1, pats[i][1]).vals,
            ];
        }
        b.totals = Totals { counts, value_sum };
        Ok(b)
    }

    /// A square board.
    pub fn square(size: usize, rule: Rule) -> Result<Board, String> {
        Board::new(size, size, rule)
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Sets the side to move (for positions set up from a diagram or a BOARD command).
    pub fn set_side_to_move(&mut self, c: Color) {
        self.side = c;
    }
    #[inline]
    pub fn move_count(&self) -> usize {
        self.history.len()
    }
    #[inline]
    pub fn history(&self) -> &[Played] {
        &self.history
    }
    #[inline]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|m| m.pos)
    }
    /// Whether the last move made five.
    #[inline]
    pub fn last_move_won(&self) -> bool {
        self.history.last().is_some_and(|m| m.won)
    }
    /// The winner, if the last move made five.
    pub fn winner(&self) -> Option<Color> {
        self.history.last().filter(|m| m.won).map(|m| m.color)
    }
    #[inline]
    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }
    /// [`Board::hash`] after the side to move plays `p`, computed without playing it.
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash() ^ zobrist().stone[self.side.index()][p.idx()] ^ zobrist().side
    }
    /// Hash of the stones and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        match self.side {
            Color::Black => self.zobrist,
            Color::White => self.zobrist ^ zobrist().side,
        }
    }
    #[inline]
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }
    /// Whether `p` is one of this board's squares (not [`Pos::NONE`], the padding or a
    /// square of a larger board), for squares that did not come from this board.
    pub fn has_square(&self, p: Pos) -> bool {
        let (col, row) = (p.idx() % STRIDE, p.idx() / STRIDE);
        col >= PAD && row >= PAD && col - PAD < self.width && row - PAD < self.height
    }
    /// The square at `x,y`, if on the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        self.contains(x, y)
            .then(|| Pos::new(x as usize, y as usize))
    }
    /// Raw cell code at a square (see [`cell`]).
    #[inline]
    pub fn cell(&self, p: Pos) -> u8 {
        self.cells[p.idx()]
    }
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == cell::EMPTY
    }
    /// The stone at a square, if any.
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells[p.idx()] {
            cell::BLACK => Some(Color::Black),
            cell::WHITE => Some(Color::White),
            _ => None,
        }
    }
    /// Threat class of an empty square for a colour. For renju black, `DoubleThree` may
    /// or may not be forbidden: see [`crate::core::rules::is_forbidden`].
    #[inline]
    pub fn threat(&self, p: Pos, c: Color) -> Threat {
        Threat::from_u8(self.sq[p.idx()].threat[c.index()])
    }
    /// The shape a colour would make at an empty square on line `d`.
    #[inline]
    pub fn pat(&self, p: Pos, c: Color, d: usize) -> Pat {
        Pat::from_u8(((self.sq[p.idx()].pats[c.index()] >> (4 * d)) & 15) as u8)
    }
    /// The four line shapes of a colour at a square.
    #[inline]
    pub fn pats(&self, p: Pos, c: Color) -> [Pat; 4] {
        unpack4(self.sq[p.idx()].pats[c.index()])
    }
    /// The evaluation value of an empty square for a colour, as the side to move
    /// (`role` 0) or as the other side (`role` 1).
    #[inline]
    pub fn square_value(&self, p: Pos, c: Color, role: usize) -> i32 {
        self.sq[p.idx()].vals[c.index()][role] as i32
    }
    /// Line key of a square on direction `d`.
    #[inline]
    pub fn key(&self, p: Pos, d: usize) -> u32 {
        self.sq[p.idx()].keys[d]
    }
    #[inline]
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }
    /// How many empty squares have threat class `t` for colour `c`.
    #[inline]
    pub fn count(&self, c: Color, t: Threat) -> u16 {
        self.totals.counts[c.index()][t as usize]
    }
    /// How many empty squares have a threat class of at least `t` (and below Forbidden).
    pub fn count_at_least(&self, c: Color, t: Threat) -> u32 {
        (t as usize..Threat::Forbidden as usize)
            .map(|i| self.totals.counts[c.index()][i] as u32)
            .sum()
    }
    /// How many empty squares would have threat class `t` for colour `c` once `mover`
    /// has a stone on the empty square `p`: the same as [`Board::make_color`], then
    /// [`Board::count`], then [`Board::unmake`], at a fraction of the cost, since only
    /// `c`'s shapes around `p` are looked up and nothing is written. (Under caro, where a
    /// stone can matter beyond the line window, it does exactly that.)
    pub fn count_after(&mut self, p: Pos, mover: Color, c: Color, t: Threat) -> u16 {
        if self.rule == Rule::Caro {
            let side = self.side;
            self.make_color(p, mover);
            let n = self.count(c, t);
            self.unmake();
            self.side = side;
            return n;
        }
        let (i, ci, tc) = (p.idx(), c.index(), t as u8);
        let mut n = self.totals.counts[ci][t as usize] - u16::from(self.sq[i].threat[ci] == tc);
        let code = mover.cell() as u32;
        let (t, line) = (self.tables, &self.tables.line[..]);
        for nb in &NEIGHBOURS {
            let q = i.wrapping_add_signed(nb.off);
            if self.cells[q] != cell::EMPTY {
                continue;
            }
            let sq = &self.sq[q];
            let lp = (line[(sq.keys[nb.dir] + code * nb.weight) as usize] >> (4 * ci)) & 15;
            let shift = 4 * nb.dir;
            let new = (sq.pats[ci] & !(15 << shift)) | ((lp as u16) << shift);
            if new != sq.pats[ci] {
                let was = u16::from(sq.threat[ci] == tc);
                n = n - was + u16::from(t.combo(ci, new).threat == tc);
            }
        }
        n
    }
    /// Whether colour `c` still has a square of threat class `OpenFour` once its opponent
    /// has a stone on the empty square `p`, where `squares` are all of `c`'s `OpenFour`
    /// squares now: the answer of `count_after(p, c.opp(), c, Threat::OpenFour) > 0`,
    /// from the listed squares alone. An opponent stone only takes ways to make five
    /// away, so no other square can gain the class; each listed square keeps it unless
    /// `p` is on one of its lines within five steps, and then one lookup for that line
    /// tells. Where that reasoning does not hold (a renju black double four, a foul,
    /// becomes an open four when one of its fours is blocked: so wherever black has a
    /// foul square; likewise a renju black open four with two open threes, classed as a
    /// double three, becomes an open four when one three is blocked; caro; `c` has a
    /// five square) or the list is not complete, the full count answers.
    pub fn open_four_left_after(&mut self, p: Pos, c: Color, squares: &[Pos]) -> bool {
        let t = Threat::OpenFour;
        if self.rule == Rule::Caro
            || self.count(c, Threat::Forbidden) > 0
            || (self.rule == Rule::Renju && self.count(c, Threat::DoubleThree) > 0)
            || self.count(c, Threat::Five) > 0
            || squares.len() != self.count(c, t) as usize
        {
            return self.count_after(p, c.opp(), c, t) > 0;
        }
        let (ci, code) = (c.index(), c.opp().cell() as u32);
        let left = squares.iter().any(|&q| {
            if q == p {
                return false;
            }
            // `q` is `s` steps from `p` along direction `d`, or on none of its lines.
            let dx = q.x() as isize - p.x() as isize;
            let dy = q.y() as isize - p.y() as isize;
            let (d, s) = match (dx, dy) {
                (_, 0) => (0, dx),
                (0, _) => (1, dy),
                _ if dx == dy => (2, dx),
                _ if dx == -dy => (3, dy),
                _ => return true,
            };
            if s.abs() > 5 {
                return true;
            }
            let sq = &self.sq[q.idx()];
            // Seen from `q`, the stone is `s` steps back.
            let key = sq.keys[d] + code * key_weight(-s);
            let lp = (self.tables.line[key as usize] >> (4 * ci)) & 15;
            let shift = 4 * d;
            let new = (sq.pats[ci] & !(15 << shift)) | ((lp as u16) << shift);
            self.tables.combo(ci, new).threat == t as u8
        });
        debug_assert_eq!(
            left,
            self.count_after(p, c.opp(), c, t) > 0,
            "{p:?}\n{self:?}"
        );
        left
    }
    /// Sum of the evaluation values of all empty squares for a colour, as the side to
    /// move (`role` 0) or as the other side (`role` 1).
    #[inline]
    pub fn value_sum(&self, c: Color, role: usize) -> i32 {
        self.totals.value_sum[c.index()][role]
    }
    /// Number of stones in the 5x5 square around `p`.
    pub fn near(&self, p: Pos) -> u8 {
        let (x, y) = (p.x(), p.y());
        self.rows[y..y + 5]
            .iter()
            .map(|r| (r >> x & 0x1F).count_ones())
            .sum::<u32>() as u8
    }
    /// Bit `x` is set when a stone lies within two squares (in both directions) of
    /// square `x, y`: the squares [`Board::near`] counts at least one stone around.
    #[inline]
    pub fn near_row(&self, y: usize) -> u64 {
        let m = self.rows[y..y + 5].iter().fold(0, |a, r| a | r);
        m | m >> 1 | m >> 2 | m >> 3 | m >> 4
    }
    /// Every square of the board, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }
    /// The rectangle (x0, y0, x1, y1) within `margin` of the stones' bounding box,
    /// clipped to the board; empty (x0 > x1) when there are no stones.
    #[inline]
    pub fn area_rect(&self, margin: usize) -> (usize, usize, usize, usize) {
        match self.bbox {
            Some((a, b, c, d)) => (
                (a as usize).saturating_sub(margin),
                (b as usize).saturating_sub(margin),
                (c as usize + margin).min(self.width - 1),
                (d as usize + margin).min(self.height - 1),
            ),
            None => (1, 1, 0, 0),
        }
    }
    /// Calls `f` on the empty squares within `margin` of the stones' bounding box, row by
    /// row, until it returns false.
    #[inline]
    pub fn each_empty_until(&self, margin: usize, mut f: impl FnMut(Pos) -> bool) {
        let (x0, y0, x1, y1) = self.area_rect(margin);
        for y in y0..=y1 {
            let row = Pos::new(x0, y).0;
            for i in 0..=(x1 - x0) as u16 {
                let p = Pos(row + i);
                if self.is_empty(p) && !f(p) {
                    return;
                }
            }
        }
    }
    /// Squares within distance `margin` of the stones' bounding box (clipped to the board).
    pub fn area(&self, margin: usize) -> impl Iterator<Item = Pos> + '_ {
        let (x0, y0, x1, y1) = self.area_rect(margin);
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
    }
    /// The square in the middle of the board.
    pub fn center(&self) -> Pos {
        Pos::new(self.width / 2, self.height / 2)
    }

    /// Plays a stone of the side to move. The square must be empty and on the board.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        let c = self.side;
        self.make_color(p, c);
    }

    /// Plays a stone of colour `c`; the opponent of `c` is to move next.
    pub fn make_color(&mut self, p: Pos, c: Color) {
        let i = p.idx();
        debug_assert_eq!(
            self.cells[i],
            cell::EMPTY,
            "make on a non-empty square {p:?}"
        );
        let won = self.sq[i].threat[c.index()] == Threat::Five as u8;
        self.history.push(Played {
            pos: p,
            color: c,
            won,
            bbox: self.bbox,
        });
        self.frames.push(Frame {
            totals: self.totals,
            undo_len: self.undo.len() as u32,
        });
        self.uncount(i);
        self.cells[i] = c.cell();
        self.zobrist ^= zobrist().stone[c.index()][i];
        self.rows[p.y() + 2] |= 1 << (p.x() + 2);
        // First every key and its table entry (forty independent loads the processor
        // can overlap), then the shapes of the empty squares among them.
        let code = c.cell() as u32;
        let line = &self.tables.line[..];
        let mut seen = [0u8; 40];
        for (s, n) in seen.iter_mut().zip(NEIGHBOURS.iter()) {
            let key = &mut self.sq[i.wrapping_add_signed(n.off)].keys[n.dir];
            *key += code * n.weight;
            *s = line[*key as usize];
        }
        if self.rule == Rule::Caro {
            for (&lp, n) in seen.iter().zip(NEIGHBOURS.iter()) {
                let q = i.wrapping_add_signed(n.off);
                if self.cells[q] == cell::EMPTY {
                    let lp = self.caro_line_pats(q, n.dir, lp);
                    self.refresh_with(q, n.dir, lp);
                }
            }
        } else {
            // Slices taken once and the totals and saved shapes kept locally, so the
            // loop need not reload anything after each store.
            let (t, cells, sq) = (self.tables, &self.cells[..], &mut self.sq[..]);
            let mut totals = self.totals;
            let saved = &mut self.saved[..];
            let mut n_saved = 0;
            for (&lp, n) in seen.iter().zip(NEIGHBOURS.iter()) {
                let q = i.wrapping_add_signed(n.off);
                if cells[q] == cell::EMPTY {
                    if let Some(u) = reshape(t, q, &mut sq[q], n.dir, lp as u16, &mut totals) {
                        saved[n_saved] = u;
                        n_saved += 1;
                    }
                }
            }
            self.totals = totals;
            self.undo.extend_from_slice(&self.saved[..n_saved]);
        }
        if self.rule == Rule::Caro {
            self.caro_far_refresh(i);
        }
        let (x, y) = (p.x() as u8, p.y() as u8);
        self.bbox = Some(match self.bbox {
            None => (x, y, x, y),
            Some((a, b, cc, d)) => (a.min(x), b.min(y), cc.max(x), d.max(y)),
        });
        self.side = c.opp();
        #[cfg(debug_assertions)]
        self.assert_invariants();
    }

    /// Takes back the last move. Does nothing on an empty history.
    ///
    /// The shapes come back from the undo stack: only the line keys are recomputed.
    pub fn unmake(&mut self) {
        let Some(m) = self.history.pop() else { return };
        let f = self.frames.pop().expect("one frame per move");
        let i = m.pos.idx();
        let c = m.color;
        self.cells[i] = cell::EMPTY;
        self.zobrist ^= zobrist().stone[c.index()][i];
        self.rows[m.pos.y() + 2] &= !(1 << (m.pos.x() + 2));
        let code = c.cell() as u32;
        for n in &NEIGHBOURS {
            self.sq[i.wrapping_add_signed(n.off)].keys[n.dir] -= code * n.weight;
        }
        // Newest first, so a square changed twice ends with its oldest shapes.
        let sqs = &mut self.sq[..];
        for u in self.undo.drain(f.undo_len as usize..).rev() {
            let sq = &mut sqs[u.idx as usize];
            sq.pats = u.pats;
            sq.vals = u.vals;
            sq.threat = u.threat;
        }
        // The played square was not refreshed while occupied: its shapes are still
        // those from before the move.
        self.totals = f.totals;
        self.bbox = m.bbox;
        self.side = c;
        #[cfg(debug_assertions)]
        self.assert_invariants();
    }

    /// Removes an empty square's threat classes and values from the totals.
    #[inline]
    fn uncount(&mut self, i: usize) {
        for c in 0..2 {
            let t = self.sq[i].threat[c] as usize;
            self.totals.counts[c][t] -= 1;
            self.totals.value_sum[c][0] -= self.sq[i].vals[c][0] as i32;
            self.totals.value_sum[c][1] -= self.sq[i].vals[c][1] as i32;
        }
    }

    /// Both colours' shapes at square `i` on line `d` (black in the low nibble).
    ///
    /// The table sees five squares each way. Under caro with overlines winning, a run of
    /// six or more reaching the edge of that window may be blocked by a stone the table
    /// cannot see; such rare fives are checked by scanning the line itself.
    #[inline]
    fn line_pats(&self, i: usize, d: usize) -> u16 {
        self.line_pats_for(i, d, self.sq[i].keys[d])
    }

    #[inline(always)]
    fn line_pats_for(&self, i: usize, d: usize, key: u32) -> u16 {
        let lp = self.tables.line[key as usize];
        if self.rule == Rule::Caro {
            return self.caro_line_pats(i, d, lp);
        }
        lp as u16
    }

    /// [`Board::line_pats_for`] under caro: a five whose run is blocked at both ends
    /// beyond the table's window is no five. Kept out of line so the common path inlines.
    #[inline(never)]
    fn caro_line_pats(&self, i: usize, d: usize, lp: u8) -> u16 {
        let five = Pat::Five as u8;
        let mut out = lp;
        if lp & 15 == five && self.caro_run_blocked(i, d, Color::Black) {
            out &= 0xF0;
        }
        if lp >> 4 == five && self.caro_run_blocked(i, d, Color::White) {
            out &= 0x0F;
        }
        out as u16
    }

    /// Whether a stone of `c` at `i` would make a run on line `d` blocked at both ends by
    /// the opponent.
    fn caro_run_blocked(&self, i: usize, d: usize, c: Color) -> bool {
        let off = DIR_OFFSETS[d];
        let end = |dir: isize| {
            let mut q = i as isize + off * dir;
            while self.cells[q as usize] == c.cell() {
                q += off * dir;
            }
            self.cells[q as usize]
        };
        end(1) == c.opp().cell() && end(-1) == c.opp().cell()
    }

    /// Caro with overlines winning: a stone at `i` can end a run of five or more whose far
    /// end is beyond the squares a line key sees; the empty square there may have gained or
    /// lost a five, so it is refreshed too.
    fn caro_far_refresh(&mut self, i: usize) {
        for (d, &off) in DIR_OFFSETS.iter().enumerate() {
            for dir in [-1isize, 1] {
                let mut q = i as isize + off * dir;
                let col = self.cells[q as usize];
                if col != cell::BLACK && col != cell::WHITE {
                    continue;
                }
                let mut n = 0;
                while self.cells[q as usize] == col {
                    q += off * dir;
                    n += 1;
                }
                if n >= 5 && self.cells[q as usize] == cell::EMPTY {
                    self.refresh(q as usize, d);
                }
            }
        }
    }

    /// Recomputes the shape of empty square `i` on line `d` after its key changed, and
    /// saves the old shapes on the undo stack if they change.
    fn refresh(&mut self, i: usize, d: usize) {
        let lp = self.line_pats(i, d);
        self.refresh_with(i, d, lp);
    }

    /// [`Board::refresh`] with the square's shapes on that line already looked up.
    #[inline]
    fn refresh_with(&mut self, i: usize, d: usize, lp: u16) {
        if let Some(u) = reshape(self.tables, i, &mut self.sq[i], d, lp, &mut self.totals) {
            self.undo.push(u);
        }
    }

    #[allow(clippy::type_complexity)]
    fn recompute(
        &self,
    ) -> (
        Vec<[u32; 4]>,
        Vec<[u16; 2]>,
        Vec<[u8; 2]>,
        [[u16; Threat::COUNT]; 2],
        [[i32; 2]; 2],
    ) {
        let t = self.tables;
        let mut keys = vec![[0u32; 4]; CELLS];
        let mut pats = vec![[0u16; 2]; CELLS];
        let mut threat = vec![[0u8; 2]; CELLS];
        let mut counts = [[0u16; Threat::COUNT]; 2];
        let mut value_sum = [[0i32; 2]; 2];
        for p in self.squares() {
            let i = p.idx();
            for d in 0..4 {
                let key = line_key(|k| self.cells[(i as isize + DIR_OFFSETS[d] * k) as usize]);
                keys[i][d] = key;
                let lp = self.line_pats_for(i, d, key);
                pats[i][0] |= (lp & 15) << (4 * d);
                pats[i][1] |= (lp >> 4) << (4 * d);
            }
            threat[i] = [t.combo(0, pats[i][0]).threat, t.combo(1, pats[i][1]).threat];
            if self.cells[i] == cell::EMPTY {
                for c in 0..2 {
                    counts[c][threat[i][c] as usize] += 1;
                    let v = t.combo(c, pats[i][c]).vals;
                    value_sum[c][0] += v[0] as i32;
                    value_sum[c][1] += v[1] as i32;
                }
            }
        }
        (keys, pats, threat, counts, value_sum)
    }

    /// Recomputes every incremental field from scratch and compares.
    pub fn check_invariants(&self) -> Result<(), String> {
        let (keys, pats, threat, counts, value_sum) = self.recompute();
        for p in self.squares() {
            let i = p.idx();
            if keys[i] != self.sq[i].keys {
                return Err(format!("line keys differ at {p:?}"));
            }
            if self.cells[i] == cell::EMPTY {
                if pats[i] != self.sq[i].pats {
                    return Err(format!("shapes differ at {p:?}"));
                }
                if threat[i] != self.sq[i].threat {
                    return Err(format!("threat classes differ at {p:?}"));
                }
                let v = [
                    self.tables.combo(0, pats[i][0]).vals,
                    self.tables.combo(1, pats[i][1]).vals,
                ];
                if v != self.sq[i].vals {
                    return Err(format!("square values differ at {p:?}"));
                }
            }
            let mut n = 0;
            for dy in -2i64..=2 {
                for dx in -2i64..=2 {
                    let (x, y) = (p.x() as i64 + dx, p.y() as i64 + dy);
                    if self.contains(x, y)
                        && self.cells[Pos::new(x as usize, y as usize).idx()] != cell::EMPTY
                    {
                        n += 1;
                    }
                }
            }
            if n != self.near(p) {
                return Err(format!("near count differs at {p:?}"));
            }
        }
        if counts != self.totals.counts {
            return Err("threat counts differ".into());
        }
        if value_sum != self.totals.value_sum {
            return Err(format!(
                "value sums differ: {:?} vs {:?}",
                value_sum, self.totals.value_sum
            ));
        }
        let mut z = 0u64;
        let mut stones = 0;
        for p in self.squares() {
            if let Some(c) = self.stone(p) {
                z ^= zobrist().stone[c.index()][p.idx()];
                stones += 1;
            }
        }
        if z != self.zobrist {
            return Err("zobrist key differs".into());
        }
        if stones != self.history.len() {
            return Err("stone count differs from history".into());
        }
        let mut bbox: Option<(u8, u8, u8, u8)> = None;
        for m in &self.history {
            let (x, y) = (m.pos.x() as u8, m.pos.y() as u8);
            bbox = Some(match bbox {
                None => (x, y, x, y),
                Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x), d.max(y)),
            });
        }
        if bbox != self.bbox {
            return Err("bounding box differs".into());
        }
        Ok(())
    }

    #[cfg(debug_assertions)]
    fn assert_invariants(&self) {
        if let Err(e) = self.check_invariants() {
            panic!("board invariant broken: {e}\n{}", self.to_diagram());
        }
    }

    /// The board as a diagram: `X` black, `O` white, `.` empty, one row per line.
    pub fn to_diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if x > 0 {
                    s.push(' ');
                }
                s.push(match self.stone(Pos::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// Builds a position from a diagram: one row per line, `X`/`x` black, `O`/`o` white,
    /// `.` or `+` empty; spaces, and row or column labels made of digits, are ignored; a line
    /// with no cells is skipped. All rows must have the same number of cells. The side
    /// to move is black when both have as many stones, white when black has one more,
    /// otherwise whoever has fewer. Stones are placed in reading order, so fives already on
    /// the diagram are not detected as wins.
    pub fn from_diagram(text: &str, rule: Rule) -> Result<Board, String> {
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for line in text.lines() {
            let row: Vec<u8> = line
                .chars()
                .filter_map(|c| match c {
                    'X' | 'x' => Some(cell::BLACK),
                    'O' | 'o' => Some(cell::WHITE),
                    '.' | '+' => Some(cell::EMPTY),
                    _ => None,
                })
                .collect();
            if !row.is_empty() {
                rows.push(row);
            }
        }
        let h = rows.len();
        let w = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != w) {
            return Err("diagram rows have different lengths".into());
        }
        let mut b = Board::new(w, h, rule)?;
        let (mut nb, mut nw) = (0, 0);
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                match c {
                    cell::BLACK => {
                        b.make_color(Pos::new(x, y), Color::Black);
                        nb += 1;
                    }
                    cell::WHITE => {
                        b.make_color(Pos::new(x, y), Color::White);
                        nw += 1;
                    }
                    _ => {}
                }
            }
        }
        for m in &mut b.history {
            m.won = false;
        }
        b.side = if nb <= nw { Color::Black } else { Color::White };
        Ok(b)
    }
}
