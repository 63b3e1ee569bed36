//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and threes).
//!
//! The attacker is always the side to move. In a VCF it plays only fours; the defender's
//! replies are forced: it must stop the five (take the five square; in caro also the
//! square beyond it when that blocks the five at both ends). In a VCT the attacker may
//! also play threes, i.e. moves after which it could make an open four; the defender then
//! has every reply that might stop the threat: the squares that destroy all of the
//! attacker's open-four squares, and its own fours (tried first: they are the likeliest
//! refutations). A short VCF of the defender refutes a three at once. Optionally
//! ([`ThreatSolver::set_vcf_threats`]) the attacker may also play quiet moves that
//! threaten a VCF; the defender then gets every move that breaks that VCF.
//!
//! Everything is read from the board's threat classes, which already encode the rules: a
//! square of class `Five` wins for that colour (exact fives, caro's blocked fives, renju's
//! overlines are all decided there), a renju black four on a forbidden square is class
//! `Forbidden`, not a four. On top of that the solver handles:
//! - a defender who already threatens five: the attacker must stop it first, and in a VCF
//!   with a four (a *counter-four* anywhere in a line is handled the same way, so a forced
//!   block that makes a four for the defender must be answered);
//! - renju black may not play on a forbidden square: not to attack, not to defend (a
//!   white four whose only block is a foul wins at once), checked with
//!   [`rules::is_forbidden`], which resolves double threes;
//! - caro: an open four need not win (after one end is blocked the other five may be
//!   blocked at both ends), so there every way to stop a five is searched.
//!
//! Results are kept in the solver's own fixed-size table, keyed by [`Board::hash`]:
//! *proven* (with the length of the win found and its first move) and *disproven* (with
//! the ply budget that was searched). A search stopped by its node limit, a stop token
//! ([`ThreatSolver::set_stop`]) or a deadline ([`ThreatSolver::set_deadline`]) stores
//! nothing it did not finish; the token and the clock are read every 256 nodes, on the
//! calling thread (the solver starts no thread). Depth is counted in plies of the
//! winning line, attacker and defender moves together, the five included: a VCF with
//! `n` fours before the five is `2n + 1` plies. The VCF is a depth-first search to the full budget; the VCT is iteratively
//! deepened (3, 5, 7, ... plies), and at every attacker node first tries a VCF.
//!
//! Soundness: a line reported as won is won against every defence (the defender's
//! candidate sets are supersets of the moves that can matter; the tests check them against
//! exhaustive references). Completeness holds for the VCF within its budget; the VCT only
//! knows the threats above, so a win that needs a quiet defensive move is not found.
//! A solver is not shared between threads: give each search thread its own.

use crate::core::board::Board;
use crate::core::pattern::{combine, key_weight, Pat, Threat};
use crate::core::rules;
use crate::core::types::{Color, Pos, Rule, CELLS, DIRS};
use crate::engine::stop::StopToken;
use std::time::Instant;

/// Table size used by [`ThreatSolver::new`]: 2^18 entries of 16 bytes (4 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 18;
/// Plies of the defender's own VCF looked for at every VCT defence (two fours and the
/// five): a cheap refutation of the attacker's threat. Longer ones are found too, by
/// trying the defender's fours first, but this settles many positions without a VCT
/// quickly.
const DEFENDER_VCF_PLIES: u16 = 5;
/// Longest line (in plies) the solver will look for.
pub const MAX_PLIES: usize = 1000;

const VCF_SALT: u64 = 0;
const VCT_SALT: u64 = 0x6A09_E667_F3BC_C908;
const NARROW_VCF_SALT: u64 = 0xBB67_AE85_84CA_A73B;

const EMPTY: u8 = 0;
const PROVEN: u8 = 1;
const DISPROVEN: u8 = 2;
/// Budget stored with a disproof that holds whatever the budget (no fours at all, an
/// unstoppable double five threat of the defender, ...).
const ALWAYS: u16 = u16::MAX;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    mv: Pos,
    /// Proven: plies to the five. Disproven: the budget that was searched.
    len: u16,
    flag: u8,
}

/// Two-entry buckets: the first keeps the more valuable result, the second always takes
/// the newest.
struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 30);
        let n = 1usize << bits;
        Table {
            slots: vec![Entry::default(); n],
            mask: (n / 2) - 1,
        }
    }
    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = Entry::default());
    }
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 17) as usize & self.mask) * 2
    }
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.bucket(key);
        let s = &self.slots[i..i + 2];
        if s[0].flag != EMPTY && s[0].key == key {
            Some(s[0])
        } else if s[1].flag != EMPTY && s[1].key == key {
            Some(s[1])
        } else {
            None
        }
    }
    #[inline]
    fn value(e: &Entry) -> u32 {
        match e.flag {
            EMPTY => 0,
            PROVEN => 100_000,
            _ if e.len == ALWAYS => 1,
            _ => e.len as u32 + 2,
        }
    }
    fn store(&mut self, key: u64, flag: u8, len: u16, mv: Pos) {
        let i = self.bucket(key);
        let new = Entry { key, mv, len, flag };
        let s = &mut self.slots[i..i + 2];
        if s[0].key == key && s[0].flag != EMPTY {
            // A disproof with a bigger budget is not overwritten by a smaller one.
            if !(s[0].flag == DISPROVEN && flag == DISPROVEN && s[0].len > len) {
                s[0] = new;
            }
        } else if s[1].key == key && s[1].flag != EMPTY {
            if Table::value(&new) >= Table::value(&s[0]) {
                s[1] = s[0];
                s[0] = new;
            } else {
                s[1] = new;
            }
        } else if Table::value(&new) >= Table::value(&s[0]) {
            s[1] = s[0];
            s[0] = new;
        } else {
            s[1] = new;
        }
    }
}

/// A short list of squares on the stack.
#[derive(Copy, Clone)]
struct PosList {
    n: usize,
    items: [Pos; 16],
}

impl PosList {
    fn new() -> PosList {
        PosList {
            n: 0,
            items: [Pos::NONE; 16],
        }
    }
    #[inline]
    fn push(&mut self, p: Pos) {
        if self.n < self.items.len() && !self.contains(p) {
            self.items[self.n] = p;
            self.n += 1;
        }
    }
    #[inline]
    fn contains(&self, p: Pos) -> bool {
        self.items[..self.n].contains(&p)
    }
    #[inline]
    fn as_slice(&self) -> &[Pos] {
        &self.items[..self.n]
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
}

/// Counters of the last call.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Moves made on the board by the search (each attacker or defender move is a node).
    pub nodes: u64,
    /// Whether the node limit, the stop token or the deadline cut the search short: a `None` result
    /// then means "not found", not "no win".
    pub aborted: bool,
}

/// VCF/VCT solver with its own table of proven and disproven positions, reusable across
/// calls (positions stay valid: the table is keyed by the full position hash).
pub struct ThreatSolver {
    tt: Table,
    /// Move lists of all plies, one stack: each node pushes its moves, then truncates.
    moves: Vec<(i32, Pos)>,
    /// Per square: generation stamp (high bits) and a counter (low 8 bits), for the
    /// intersection of the defence zones of several open-four squares.
    marks: Vec<u32>,
    generation: u32,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    /// A spare list of squares.
    scratch: Vec<Pos>,
    /// Whether the VCT also uses VCF threats (see [`ThreatSolver::set_vcf_threats`]).
    vcf_threats: bool,
    /// A token that stops every search of this solver when raised (see [`ThreatSolver::set_stop`]).
    stop: Option<StopToken>,
    /// A time at which every search of this solver stops (see [`ThreatSolver::set_deadline`]).
    deadline: Option<Instant>,
    /// Node count at which the stop token and the deadline are read next.
    next_check: u64,
    /// Inside [`ThreatSolver::has_narrow_vcf`]: the attacker tries only some fours.
    narrow: bool,
    /// The ply budget the current search started with (its first attacker node has it).
    root_budget: u16,
}

impl Default for ThreatSolver {
    fn default() -> Self {
        ThreatSolver::new()
    }
}

/// A win the side to move has on sight, where the opponent has no five to make: its
/// length in plies (the last makes five) and the threat class of the first move's square.
///
/// - An open four to make (or a double four): 3 plies.
/// - A four-three, or a double three, while the opponent has no four to make: 5 plies.
///   The four must be blocked on its own line, and one stone stops only one of two open
///   threes; the other three becomes an open four. Without a four of its own the
///   opponent cannot gain a tempo: a four made later, from a three it builds meanwhile,
///   comes after the open four, one move too late.
///
/// Not for renju black's threes (the open four they lead to may be a foul; its double
/// three is one: [`renju_four_three_win`] plays black's four-threes out) nor under caro
/// (whose threes may not lead to a win), where the search finds those wins by playing
/// them out.
pub fn quick_win(b: &Board) -> Option<(i32, Threat)> {
    quick_win_for(b, b.side_to_move())
}

/// [`quick_win`] for colour `me` as if it were to move: what the side to move must
/// answer (or get in first) when `me` is its opponent.
pub fn quick_win_for(b: &Board, me: Color) -> Option<(i32, Threat)> {
    let opp = me.opp();
    if b.count(opp, Threat::Five) > 0 {
        return None;
    }
    if b.count(me, Threat::OpenFour) > 0 {
        return Some((3, Threat::OpenFour));
    }
    let threes_may_fail = match b.rule() {
        Rule::Renju => me == Color::Black,
        Rule::Caro | Rule::CaroExact => true,
        Rule::Freestyle | Rule::Exact => false,
    };
    if threes_may_fail || b.count_at_least(opp, Threat::Four) > 0 {
        return None;
    }
    [Threat::FourThree, Threat::DoubleThree]
        .into_iter()
        .find(|&t| b.count(me, t) > 0)
        .map(|t| (5, t))
}

/// Renju black's four-three that wins on sight, where [`quick_win`] cannot tell: the
/// square of a four-three after which white, having blocked the four (its only move:
/// white has no four to make, so no five either), faces an open four that is no foul.
/// Both moves are played out on `b` and taken back, so the fouls and white's block are
/// the board's own; 5 plies. `None` for every other side and rule.
pub fn renju_four_three_win(b: &mut Board) -> Option<Pos> {
    let (me, opp) = (Color::Black, Color::White);
    if b.rule() != Rule::Renju
        || b.side_to_move() != me
        || b.count(me, Threat::FourThree) == 0
        || b.count(opp, Threat::Five) > 0
        || b.count_at_least(opp, Threat::Four) > 0
    {
        return None;
    }
    // A four-three square has a stone of its four within two squares of it.
    let mut candidates = PosList::new();
    for_empty(b, 2, |p| {
        if b.threat(p, me) == Threat::FourThree {
            candidates.push(p);
        }
    });
    candidates.as_slice().iter().copied().find(|&p| {
        b.make(p);
        let block = fives(b, me, p);
        let wins = block.len() == 1 && {
            b.make(block.as_slice()[0]);
            let open_four = b.count(me, Threat::OpenFour) > 0 && b.count(opp, Threat::Five) == 0;
            b.unmake();
            open_four
        };
        b.unmake();
        wins
    })
}

#[inline]
fn is_caro(rule: Rule) -> bool {
    matches!(rule, Rule::Caro | Rule::CaroExact)
}

#[inline]
fn renju_black(b: &Board, c: Color) -> bool {
    c == Color::Black && b.rule() == Rule::Renju
}

/// Whether `c` may play at the empty square `p`.
#[inline]
fn can_play(b: &mut Board, p: Pos, c: Color) -> bool {
    b.is_empty(p) && !(renju_black(b, c) && rules::is_forbidden(b, p))
}

/// The square `k` steps from `p` along direction `d`, if it is on the board (unlike
/// [`Pos::step`], safe beyond the padding).
#[inline]
fn along(b: &Board, p: Pos, d: usize, k: isize) -> Option<Pos> {
    let (dx, dy) = DIRS[d];
    b.pos(
        p.x() as i64 + dx as i64 * k as i64,
        p.y() as i64 + dy as i64 * k as i64,
    )
}

/// Calls `f` on every empty square within `margin` of the stones, row by row.
#[inline]
fn for_empty(b: &Board, margin: usize, mut f: impl FnMut(Pos)) {
    b.each_empty_until(margin, |p| {
        f(p);
        true
    });
}

/// A set of threat classes, one bit per class.
const fn classes(list: &[Threat]) -> u16 {
    let mut set = 0;
    let mut i = 0;
    while i < list.len() {
        set |= 1 << list[i] as u16;
        i += 1;
    }
    set
}

/// Four, four-two, four-three and open four: the classes of a square that makes a four.
const FOURS: u16 = classes(&[
    Threat::Four,
    Threat::FourTwo,
    Threat::FourThree,
    Threat::OpenFour,
]);
/// A renju black square with two open threes: a four-three in disguise or a foul.
const DOUBLE_THREE: u16 = classes(&[Threat::DoubleThree]);

/// Calls `f` on every empty square within `margin` (at least two) of the stones where
/// colour `c` has a threat class in `set` ([`classes`]), row by row. The board counts
/// such squares, so the scan stops at the last one, and does not start if there is none.
/// Every class from a three up needs three stones of its colour within a window of five
/// around the square, so such squares lie within two of the stones.
fn for_class(b: &Board, c: Color, set: u16, margin: usize, mut f: impl FnMut(Pos, Threat)) {
    debug_assert!(
        margin >= 2 && set & classes(&[Threat::None, Threat::OpenTwo, Threat::DoubleTwo]) == 0
    );
    let mut left: u32 = (0..Threat::COUNT)
        .filter(|&t| set >> t & 1 != 0)
        .map(|t| b.count(c, Threat::from_u8(t as u8)) as u32)
        .sum();
    if left == 0 {
        return;
    }
    b.each_empty_until(margin, |p| {
        let t = b.threat(p, c);
        if set >> t as u16 & 1 != 0 {
            f(p, t);
            left -= 1;
        }
        left > 0
    });
}

/// The squares where `c` makes five. Looks along the lines through `around` first (where
/// new fives appear) and scans the board only if that does not account for all of them.
fn fives(b: &Board, c: Color, around: Pos) -> PosList {
    let mut out = PosList::new();
    let total = b.count(c, Threat::Five) as usize;
    if total == 0 {
        return out;
    }
    if !around.is_none() {
        for d in 0..4 {
            for k in -4isize..=4 {
                let q = around.step(d, k);
                if k != 0 && b.is_empty(q) && b.threat(q, c) == Threat::Five {
                    out.push(q);
                }
            }
        }
        if out.len() >= total {
            return out;
        }
    }
    out = PosList::new();
    for_empty(b, 1, |q| {
        if b.threat(q, c) == Threat::Five {
            out.push(q);
        }
    });
    out
}

/// The squares where the side to move can play so that colour `c` (its opponent), whose
/// five squares are `f`, has none left. Outside caro only the five square itself does
/// that, and only if there is one. In caro a stone just beyond the five square also
/// stops it (the five would be blocked at both ends), and one stone can even stop two.
fn kills(b: &mut Board, c: Color, f: &PosList) -> PosList {
    let mover = c.opp();
    debug_assert_eq!(b.side_to_move(), mover);
    let mut out = PosList::new();
    if f.len() == 0 {
        return out;
    }
    let s0 = f.as_slice()[0];
    if !is_caro(b.rule()) {
        if f.len() == 1 && can_play(b, s0, mover) {
            out.push(s0);
        }
        return out;
    }
    // A stone that stops the five at s0 is s0 itself, or the free end of a run through
    // s0 whose other end is already the mover's stone (the five would be blocked at
    // both ends). Each candidate is then checked on the board.
    let mut cands = [Pos::NONE; 9];
    let mut n = 0;
    cands[n] = s0;
    n += 1;
    for d in 0..4 {
        let end = |sgn: isize| {
            let mut k = 1;
            while b.stone(s0.step(d, sgn * k)) == Some(c) {
                k += 1;
            }
            s0.step(d, sgn * k)
        };
        let (e1, e2) = (end(-1), end(1));
        for (e, other) in [(e1, e2), (e2, e1)] {
            if b.is_empty(e) && b.stone(other) == Some(mover) {
                cands[n] = e;
                n += 1;
            }
        }
    }
    for &r in &cands[..n] {
        b.make(r);
        let gone = b.count(c, Threat::Five) == 0;
        b.unmake();
        if gone {
            out.push(r);
        }
    }
    out
}

/// Ordering bonus for being near an earlier attacking move: on one of its lines within
/// four, or within two squares.
#[inline]
fn prox(p: Pos, q: Pos) -> i32 {
    if q.is_none() {
        return 0;
    }
    let dx = (p.x() as i32 - q.x() as i32).abs();
    let dy = (p.y() as i32 - q.y() as i32).abs();
    let dist = dx.max(dy);
    if (dx == 0 || dy == 0 || dx == dy) && dist <= 4 {
        3
    } else if dist <= 2 {
        2
    } else if dist <= 4 {
        1
    } else {
        0
    }
}

/// The last two moves of colour `c` (most recent first).
fn last_moves(b: &Board, c: Color) -> (Pos, Pos) {
    let mut out = [Pos::NONE; 2];
    let mut n = 0;
    for m in b.history().iter().rev().take(8) {
        if m.color == c {
            out[n] = m.pos;
            n += 1;
            if n == 2 {
                break;
            }
        }
    }
    (out[0], out[1])
}

/// How good a four at `p` is for `c` (higher first), or `None` if `c` has no legal four
/// there. Five squares are not fours.
#[inline]
fn four_rank(b: &mut Board, p: Pos, c: Color) -> Option<i32> {
    match b.threat(p, c) {
        Threat::OpenFour => Some(5),
        Threat::FourThree => Some(4),
        Threat::FourTwo => Some(2),
        Threat::Four => Some(1),
        // Renju black: a four with two open threes is a foul unless a three is false.
        Threat::DoubleThree
            if renju_black(b, c)
                && b.pats(p, c).iter().any(|t| t.is_four())
                && !rules::is_forbidden(b, p) =>
        {
            Some(3)
        }
        _ => None,
    }
}

/// How good a threat (four or three) at `p` is for `c`, or `None` if it is neither or
/// not a legal move.
#[inline]
fn threat_rank(b: &mut Board, p: Pos, c: Color) -> Option<i32> {
    match b.threat(p, c) {
        Threat::OpenFour => Some(7),
        Threat::FourThree => Some(6),
        Threat::DoubleThree => {
            if renju_black(b, c) && rules::is_forbidden(b, p) {
                None
            } else {
                Some(5)
            }
        }
        Threat::OpenThreeTwo => Some(4),
        Threat::FourTwo => Some(3),
        Threat::OpenThree => Some(2),
        Threat::Four => Some(1),
        // A closed three: a quiet move that may threaten a VCF.
        Threat::Three | Threat::ThreeTwo => Some(0),
        _ => None,
    }
}

impl ThreatSolver {
    /// A solver with a 4 MiB table.
    pub fn new() -> ThreatSolver {
        ThreatSolver::with_table_bits(DEFAULT_TABLE_BITS)
    }

    /// A solver whose table has 2^`bits` entries of 16 bytes.
    pub fn with_table_bits(bits: u32) -> ThreatSolver {
        ThreatSolver {
            tt: Table::new(bits),
            moves: Vec::with_capacity(4096),
            marks: vec![0; CELLS],
            generation: 0,
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            scratch: Vec::with_capacity(64),
            vcf_threats: false,
            stop: None,
            deadline: None,
            next_check: 0,
            narrow: false,
            root_budget: 0,
        }
    }

    /// Whether the VCT's attacker may also play quiet moves that threaten a VCF (a
    /// closed three that prepares a four-three, say), answered by every move that breaks
    /// the VCF. Off by default (it widens the search a lot); off, the VCT uses fours and
    /// threes only.
    pub fn set_vcf_threats(&mut self, on: bool) {
        if on != self.vcf_threats {
            self.vcf_threats = on;
            self.tt.clear(); // VCT results depend on it
        }
    }

    /// A token that, when raised, stops any search of this solver as if its node limit
    /// were reached (read every 256 nodes): the main search passes on its own.
    pub fn set_stop(&mut self, stop: Option<StopToken>) {
        self.stop = stop;
    }

    /// A time after which any search of this solver stops as if its node limit were
    /// reached (the clock is read every 256 nodes, with the stop token): the main search
    /// uses it to keep the solver inside its share of the move's time. `None`: no time
    /// limit.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Nodes and abort status of the last call.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            aborted: self.aborted,
        }
    }

    fn start(&mut self, node_limit: u64) {
        self.nodes = 0;
        self.next_check = 0;
        self.node_limit = node_limit.max(1);
        self.aborted = false;
        self.moves.clear();
    }

    /// Counts a node; returns whether the search must stop.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + 256;
            if self.stop.as_ref().is_some_and(StopToken::is_raised)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    #[inline]
    fn make(&mut self, b: &mut Board, p: Pos) {
        self.nodes += 1;
        b.make(p);
    }

    // ----------------------------------------------------------------- public entries

    /// Looks for a VCF of the side to move within `max_plies` plies (the five included)
    /// and `node_limit` nodes. Returns the winning line: attacker and defender moves
    /// alternating, ending with the five. A defender move of `Pos::NONE` means the
    /// defender has no legal block (renju black whose only block is forbidden): any move
    /// loses. `None` means no VCF was found; [`ThreatSolver::stats`] tells whether the
    /// search was cut short. Building the line may take up to `node_limit` more nodes
    /// (it follows the table, and searches again only where an entry was overwritten).
    /// The board is left as it was.
    pub fn vcf(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> Option<Vec<Pos>> {
        self.start(node_limit);
        if b.winner().is_some() || b.is_full() {
            return None;
        }
        let budget = max_plies.min(MAX_PLIES) as u16;
        self.vcf_attack(b, budget)?;
        self.walk(b, budget, false)
    }

    /// Whether the side to move has a VCF within the limits (no line is built). Meant for
    /// search leaves with a small node limit; results accumulate in the table.
    pub fn has_vcf(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> bool {
        self.start(node_limit);
        if b.winner().is_some() || b.is_full() {
            return false;
        }
        let budget = max_plies.min(MAX_PLIES) as u16;
        self.vcf_attack(b, budget).is_some()
    }

    /// Like [`ThreatSolver::has_vcf`], but the attacker tries only the fours that also
    /// make a three or a two on another line (`FourTwo` or better); after its first four,
    /// only such fours on a line through its previous four within four squares, and at
    /// most the two best. This is the VCF PentaZen runs at its search leaves: it misses
    /// the VCFs that need a plain four or a four away from the last one. Where its fours
    /// lead to a four-three or a double three against a defender with no four to make
    /// ([`quick_win`]), that is a win too: so a win it finds is a real VCF or a VCF that
    /// ends in a double three. It costs a few nodes where the full search costs tens, so
    /// the search can afford it at every leaf (`docs/strength.md`). Its results
    /// are kept in the table apart from the full search's.
    pub fn has_narrow_vcf(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> bool {
        self.narrow = true;
        self.root_budget = max_plies.min(MAX_PLIES) as u16;
        let found = self.has_vcf(b, max_plies, node_limit);
        self.narrow = false;
        found
    }

    /// Looks for a VCT of the side to move: fours and threes, iteratively deepened up to
    /// `max_plies`, stopping after `node_limit` nodes, when the solver's stop token is
    /// raised or at its deadline. Returns the winning line, with the defender's most
    /// stubborn reply at each step (building it may take up to `node_limit` more nodes, as
    /// in [`ThreatSolver::vcf`]). A VCF counts as a VCT; [`ThreatSolver::has_vct`] is the
    /// cheaper question.
    pub fn vct(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> Option<Vec<Pos>> {
        let budget = self.vct_depth(b, max_plies, node_limit)?;
        self.walk(b, budget, true)
    }

    /// Whether the side to move has a VCT within the limits (no line is built).
    pub fn has_vct(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> bool {
        self.vct_depth(b, max_plies, node_limit).is_some()
    }

    /// The iterative deepening behind [`ThreatSolver::vct`] and [`ThreatSolver::has_vct`]:
    /// VCT searches of 3, 5, 7, … plies up to `max_plies`, until one wins, the node limit
    /// is spent, or the stop token or the deadline ends it. Returns the ply budget of the search that won.
    fn vct_depth(&mut self, b: &mut Board, max_plies: usize, node_limit: u64) -> Option<u16> {
        self.start(node_limit);
        if b.winner().is_some() || b.is_full() {
            return None;
        }
        let max = max_plies.min(MAX_PLIES) as u16;
        let mut budget = max.min(3);
        loop {
            if self.vct_attack(b, budget).is_some() {
                return Some(budget);
            }
            if self.aborted || budget >= max {
                return None;
            }
            budget = (budget + 2).min(max);
        }
    }

    /// Defence against the opponent's VCF. If the opponent (not the side to move) would
    /// have a VCF were it to move, returns every move of the side to move that leaves it
    /// without one within `max_plies` (own fives and fours included; empty if nothing
    /// helps). Returns `None` when the opponent has no VCF, so nothing needs restricting.
    ///
    /// Every candidate is first checked by replaying the opponent's winning line after
    /// it; only moves that break the line get a full VCF search (each with `node_limit`
    /// nodes). A candidate whose search hits the node limit is kept (not proven lost), and
    /// [`ThreatSolver::stats`] then says `aborted`; `None` with `aborted` means the
    /// opponent's VCF was not found within the limit.
    pub fn vcf_defences(
        &mut self,
        b: &mut Board,
        max_plies: usize,
        node_limit: u64,
    ) -> Option<Vec<Pos>> {
        let me = b.side_to_move();
        let opp = me.opp();
        if b.winner().is_some() || b.is_full() {
            return None;
        }
        b.set_side_to_move(opp);
        let line = self.vcf(b, max_plies, node_limit);
        b.set_side_to_move(me);
        let line = line?;
        let mut total = self.nodes;

        // Candidates: own fives and legal fours anywhere, and every empty square within
        // five steps along a line of any square of the opponent's winning line.
        let mut cands: Vec<Pos> = Vec::new();
        let stamp = self.next_generation();
        let mut add = |s: &mut Self, p: Pos| {
            if s.marks[p.idx()] >> 8 != stamp {
                s.marks[p.idx()] = stamp << 8;
                cands.push(p);
            }
        };
        let mut fours = Vec::new();
        let set = FOURS | DOUBLE_THREE | classes(&[Threat::Five]);
        for_class(b, me, set, 2, |p, _| fours.push(p));
        for p in fours {
            if b.threat(p, me) == Threat::Five || four_rank(b, p, me).is_some() {
                add(self, p);
            }
        }
        let caro = is_caro(b.rule());
        for &s in line.iter().filter(|s| !s.is_none()) {
            add(self, s);
            for d in 0..4 {
                for k in 1..=5isize {
                    for sgn in [-1isize, 1] {
                        let q = s.step(d, sgn * k);
                        if b.is_empty(q) {
                            add(self, q);
                        }
                    }
                }
                if caro {
                    // A long run's far end can block a caro five beyond five steps.
                    for sgn in [-1isize, 1] {
                        let mut k = 1;
                        loop {
                            let q = s.step(d, sgn * k);
                            if b.stone(q) != Some(opp) {
                                if b.is_empty(q) {
                                    add(self, q);
                                }
                                break;
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
        // Renju: a white stone can make a black double three real, so a black move of the
        // line that is a double three could turn into a foul from afar: try everything.
        b.set_side_to_move(opp);
        let risky = renju_black(b, opp) && line_has_double_three(b, &line);
        b.set_side_to_move(me);
        if risky {
            for p in b.squares().collect::<Vec<_>>() {
                if b.is_empty(p) {
                    add(self, p);
                }
            }
        }
        cands.sort();

        let mut out = Vec::new();
        let mut cut_short = false;
        for r in cands {
            if !can_play(b, r, me) {
                continue;
            }
            if b.threat(r, me) == Threat::Five {
                out.push(r);
                continue;
            }
            b.make(r);
            total += 1;
            let refutes = if replay_wins(b, &line) {
                false
            } else {
                let found = self.has_vcf(b, max_plies, node_limit);
                total += self.nodes;
                cut_short |= self.aborted;
                !found
            };
            b.unmake();
            if refutes {
                out.push(r);
            }
        }
        self.nodes = total;
        self.aborted = cut_short;
        Some(out)
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = (self.generation + 1) & 0x00FF_FFFF;
        if self.generation == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
    }

    // ------------------------------------------------------------------------- VCF

    /// Attacker (side to move) node of the VCF: plies to the five, if won within `budget`.
    fn vcf_attack(&mut self, b: &mut Board, budget: u16) -> Option<u16> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(a, Threat::Five) > 0 {
            return Some(1);
        }
        if budget < 3 {
            return None;
        }
        // The narrow search's fours may end in a four-three or a double three against a
        // defender with no four: a win (see [`quick_win`]), though not a VCF.
        if self.narrow && budget >= 5 && quick_win(b).is_some_and(|(plies, _)| plies == 5) {
            return Some(5);
        }
        let defender_fives = b.count(d, Threat::Five);
        if defender_fives == 0
            && b.count_at_least(a, Threat::Four) == 0
            && !(renju_black(b, a) && b.count(a, Threat::DoubleThree) > 0)
        {
            return None; // no four anywhere
        }
        let caro = is_caro(b.rule());
        if defender_fives == 0 && !caro && b.count(a, Threat::OpenFour) > 0 {
            return Some(3);
        }
        let key = b.hash()
            ^ if self.narrow {
                NARROW_VCF_SALT
            } else {
                VCF_SALT
            };
        if let Some(settled) = self.settled(key, budget) {
            return settled;
        }
        if self.out_of_budget() {
            return None;
        }
        let mut result = None;
        let mut best = Pos::NONE;
        let mut always = false;
        if defender_fives > 0 {
            // The defender threatens five: stop it, and with a four.
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            always = true;
            for &q in kills(b, d, &f).as_slice() {
                if four_rank(b, q, a).is_some() {
                    always = false;
                    if let Some(l) = self.vcf_play(b, q, budget) {
                        result = Some(l);
                        best = q;
                        break;
                    }
                    if self.aborted {
                        break;
                    }
                }
            }
        } else {
            let start = self.moves.len();
            self.gen_fours(b, a);
            if self.narrow {
                self.narrow_fours(b, a, start, budget == self.root_budget);
            }
            (result, best) = self.first_win(b, start, budget, false);
        }
        self.store_result(key, result, best, always, budget);
        result
    }

    /// The table's verdict on `key` for `budget` plies, if it settles the question:
    /// `Some(Some(len))` proven within the budget, `Some(None)` disproven for it.
    fn settled(&self, key: u64, budget: u16) -> Option<Option<u16>> {
        let e = self.tt.probe(key)?;
        if e.flag == PROVEN && e.len <= budget {
            Some(Some(e.len))
        } else if e.flag == DISPROVEN && e.len >= budget {
            Some(None)
        } else {
            None
        }
    }

    /// Tries the attacker moves pushed on the move stack from `start`, in order, until one
    /// wins (VCF or VCT play as `vct` says); pops them. Returns its plies and square.
    fn first_win(
        &mut self,
        b: &mut Board,
        start: usize,
        budget: u16,
        vct: bool,
    ) -> (Option<u16>, Pos) {
        let mut found = (None, Pos::NONE);
        for i in start..self.moves.len() {
            let m = self.moves[i].1;
            let r = if vct {
                self.vct_play(b, m, budget)
            } else {
                self.vcf_play(b, m, budget)
            };
            if let Some(l) = r {
                found = (Some(l), m);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.moves.truncate(start);
        found
    }

    /// Stores an attacker node's outcome: proven with its best move, or (unless the
    /// search was cut short) disproven for this budget or, with `always`, for any.
    fn store_result(
        &mut self,
        key: u64,
        result: Option<u16>,
        best: Pos,
        always: bool,
        budget: u16,
    ) {
        if let Some(l) = result {
            self.tt.store(key, PROVEN, l, best);
        } else if !self.aborted {
            self.tt.store(
                key,
                DISPROVEN,
                if always { ALWAYS } else { budget },
                Pos::NONE,
            );
        }
    }

    /// The attacker plays the four `m`; plies to the five from before `m`.
    fn vcf_play(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        self.make(b, m);
        let r = self.vcf_reply(b, m, budget - 1);
        b.unmake();
        r.map(|l| l + 1)
    }

    /// Defender node after the attacker's four `m`: every block must lose.
    fn vcf_reply(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        let d = b.side_to_move();
        let a = d.opp();
        if b.count(d, Threat::Five) > 0 {
            return None; // an unanswered five threat of the defender
        }
        let f = fives(b, a, m);
        self.blocks(b, &f, budget, false)
    }

    /// The defender must stop the attacker's five squares `f`: plies to the five if every
    /// way to do so loses (`vct` selects the attacker search that follows).
    fn blocks(&mut self, b: &mut Board, f: &PosList, budget: u16, vct: bool) -> Option<u16> {
        if f.len() == 0 {
            return None;
        }
        let k = kills(b, b.side_to_move().opp(), f);
        if k.len() == 0 {
            return Some(2); // two fives, or the only block is a renju foul
        }
        let mut worst = 0;
        for &s in k.as_slice() {
            self.make(b, s);
            let r = if vct {
                self.vct_attack(b, budget - 1)
            } else {
                self.vcf_attack(b, budget - 1)
            };
            b.unmake();
            worst = worst.max(r? + 1);
        }
        Some(worst)
    }

    /// Pushes the attacker's legal fours, best first.
    fn gen_fours(&mut self, b: &mut Board, a: Color) {
        let start = self.moves.len();
        let (l1, l2) = last_moves(b, a);
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        let set = FOURS | if renju_black(b, a) { DOUBLE_THREE } else { 0 };
        for_class(b, a, set, 2, |p, _| found.push(p));
        for &p in &found {
            if let Some(r) = four_rank(b, p, a) {
                self.moves.push((r * 16 + prox(p, l1) * 4 + prox(p, l2), p));
            }
        }
        self.scratch = found;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    }

    /// Narrow VCF: keeps, of the fours pushed from `start` (best first), those that also
    /// make a three or a two elsewhere; below the first attacker node only those on a
    /// line through the attacker's last stone within four squares, and at most two.
    fn narrow_fours(&mut self, b: &Board, a: Color, start: usize, first: bool) {
        let (last, _) = last_moves(b, a);
        let mut kept = start;
        for i in start..self.moves.len() {
            let (key, p) = self.moves[i];
            // The sort key is rank * 16 + proximity (below 16); FourTwo has rank 2.
            if key / 16 >= 2 && (first || prox(p, last) == 3) {
                self.moves[kept] = (key, p);
                kept += 1;
            }
        }
        if !first {
            kept = kept.min(start + 2);
        }
        self.moves.truncate(kept);
    }

    // ------------------------------------------------------------------------- VCT

    /// Attacker node of the VCT.
    fn vct_attack(&mut self, b: &mut Board, budget: u16) -> Option<u16> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(a, Threat::Five) > 0 {
            return Some(1);
        }
        if budget < 3 {
            return None;
        }
        let defender_fives = b.count(d, Threat::Five);
        let caro = is_caro(b.rule());
        if defender_fives == 0 && !caro && b.count(a, Threat::OpenFour) > 0 {
            return Some(3);
        }
        let key = b.hash() ^ VCT_SALT;
        if let Some(settled) = self.settled(key, budget) {
            return settled;
        }
        if self.out_of_budget() {
            return None;
        }
        let mut result = None;
        let mut best = Pos::NONE;
        let mut always = false;
        if defender_fives > 0 {
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            let k = kills(b, d, &f);
            always = k.len() == 0;
            for &q in k.as_slice() {
                if let Some(l) = self.vct_play(b, q, budget) {
                    result = Some(l);
                    best = q;
                    break;
                }
                if self.aborted {
                    break;
                }
            }
        } else if let Some(l) = self.vcf_attack(b, budget) {
            result = Some(l);
        } else if !self.aborted && budget >= 5 {
            let start = self.moves.len();
            self.gen_threats(b, a);
            (result, best) = self.first_win(b, start, budget, true);
        }
        self.store_result(key, result, best, always, budget);
        result
    }

    fn vct_play(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        self.make(b, m);
        let r = self.vct_reply(b, m, budget - 1);
        b.unmake();
        r.map(|l| l + 1)
    }

    /// Defender node of the VCT, after the attacker's move `m`.
    fn vct_reply(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        let d = b.side_to_move();
        let a = d.opp();
        if b.count(d, Threat::Five) > 0 {
            return None;
        }
        if b.count(a, Threat::Five) > 0 {
            let f = fives(b, a, m);
            return self.blocks(b, &f, budget, true);
        }
        if budget < 4 {
            return None;
        }
        let start = self.moves.len();
        let Some(free_len) = self.defence_candidates(b, a, budget) else {
            return None; // no threat: the defender is free
        };
        let end = self.moves.len();
        // A short VCF of the defender beats any threat short of a four: it forces every
        // attacker move until its five.
        if b.count_at_least(d, Threat::Four) > 0 && self.vcf_attack(b, DEFENDER_VCF_PLIES).is_some()
        {
            self.moves.truncate(start);
            return None;
        }
        if start == end {
            // No legal move stops the threat (a double three, say): the defender's move
            // does not matter.
            return Some(free_len);
        }
        let mut worst = 0;
        let mut ok = true;
        for i in start..end {
            let r = self.moves[i].1;
            self.make(b, r);
            let res = self.vct_attack(b, budget - 1);
            b.unmake();
            match res {
                Some(l) => worst = worst.max(l + 1),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        self.moves.truncate(start);
        ok.then_some(worst)
    }

    /// The attacker's open-four squares: where it could play a four with two ways to five
    /// that the defender cannot both stop.
    fn open_four_squares(&mut self, b: &mut Board, a: Color) -> PosList {
        let mut out = PosList::new();
        let rb = renju_black(b, a);
        if b.count(a, Threat::OpenFour) == 0 && !(rb && b.count(a, Threat::DoubleThree) > 0) {
            return out;
        }
        let mut found = PosList::new();
        let set = classes(&[Threat::OpenFour]) | if rb { DOUBLE_THREE } else { 0 };
        for_class(b, a, set, 2, |p, t| {
            if t == Threat::OpenFour || b.pats(p, a).contains(&Pat::OpenFour) {
                found.push(p);
            }
        });
        let caro = is_caro(b.rule());
        for &p in found.as_slice() {
            if b.threat(p, a) == Threat::DoubleThree && rules::is_forbidden(b, p) {
                continue;
            }
            if caro && !caro_open_four_wins(b, p, a) {
                continue;
            }
            out.push(p);
        }
        out
    }

    /// Pushes the defender's replies to the attacker's threat, the defender to move with
    /// `budget` plies left. A *three* (the attacker has open-four squares): the squares
    /// that destroy every open-four square, and the defender's fours. A *VCF threat* (the
    /// attacker would have a VCF if it moved again): every move after which the
    /// attacker's VCF line no longer works (checked by replaying it), fours included.
    /// Returns `None` (pushing nothing) if the attacker threatens nothing, else the plies
    /// to the five if the defender's move does not matter.
    fn defence_candidates(&mut self, b: &mut Board, a: Color, budget: u16) -> Option<u16> {
        let d = a.opp();
        let w = self.open_four_squares(b, a);
        if w.len() == 0 {
            return self.vcf_threat_candidates(b, a, budget);
        }
        let stamp = self.next_generation();
        let need = w.len() as u32;
        let mut touched: Vec<Pos> = Vec::with_capacity(48);
        let marks = &mut self.marks;
        let mut bump = |q: Pos| {
            let m = &mut marks[q.idx()];
            if *m >> 8 != stamp {
                *m = stamp << 8;
                touched.push(q);
            }
            *m += 1;
        };
        // A stone changes an open-four square's shapes only within five steps on its
        // lines. In caro it can also block a five at the end of its run: the run through
        // a five square of the open four holds the four and at most three more stones
        // beyond the five square (four would already give the attacker a five square,
        // and it has none here), so its ends are within five steps too.
        let reach = 5;
        for &p in w.as_slice() {
            bump(p);
            for dir in 0..4 {
                for k in 1..=reach {
                    for sgn in [-1isize, 1] {
                        match along(b, p, dir, sgn * k) {
                            Some(q) if b.is_empty(q) => bump(q),
                            _ => {}
                        }
                    }
                }
            }
        }
        let start = self.moves.len();
        let (l1, _) = last_moves(b, a);
        let prefilter = !is_caro(b.rule());
        for &q in &touched {
            if self.marks[q.idx()] & 0xFF != need || !can_play(b, q, d) {
                continue;
            }
            self.marks[q.idx()] |= 0x80; // listed (a four of the defender is pushed once)
            let four = b.threat(q, d).is_four_or_better();
            if prefilter && !four && w.as_slice().iter().any(|&p| open_four_survives(b, p, q, a)) {
                continue; // the attacker still has an open four: refuted at once
            }
            let score = if four {
                100 // counter-fours first: the likeliest refutations
            } else {
                (if w.contains(q) { 8 } else { 0 }) + prox(q, l1)
            };
            self.moves.push((score, q));
        }
        // Counter-fours anywhere.
        let mut fours = std::mem::take(&mut self.scratch);
        fours.clear();
        let set = FOURS | if renju_black(b, d) { DOUBLE_THREE } else { 0 };
        for_class(b, d, set, 2, |p, _| fours.push(p));
        for &p in &fours {
            let listed = self.marks[p.idx()] >> 8 == stamp && self.marks[p.idx()] & 0x80 != 0;
            if !listed && four_rank(b, p, d).is_some() {
                self.moves.push((100, p));
            }
        }
        self.scratch = fours;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        Some(4)
    }

    /// The VCF-threat half of [`ThreatSolver::defence_candidates`].
    fn vcf_threat_candidates(&mut self, b: &mut Board, a: Color, budget: u16) -> Option<u16> {
        let d = a.opp();
        if !self.vcf_threats || budget < 4 {
            return None;
        }
        // The attacker's VCF, as if it were to move, short enough to follow one reply.
        b.set_side_to_move(a);
        let found = self.vcf_attack(b, budget - 1).is_some();
        let traced = if found {
            self.vcf_line_tt(b, budget - 1)
        } else {
            None
        };
        b.set_side_to_move(d);
        let (line, seen) = traced?;

        // Squares that might break the line: its own squares, every five square of the
        // attacker along it, squares near the defender's replies (a counter-four made
        // with them), near the five squares in caro (a stone beyond a five blocks it),
        // and the defender's fours. Each is tried by replaying the line after it.
        let stamp = self.next_generation();
        let mut cands = std::mem::take(&mut self.scratch);
        cands.clear();
        let marks = &mut self.marks;
        let mut add = |q: Pos| {
            if b.is_empty(q) && marks[q.idx()] >> 8 != stamp {
                marks[q.idx()] = stamp << 8;
                cands.push(q);
            }
        };
        let caro = is_caro(b.rule());
        for (i, &p) in line.iter().enumerate() {
            if p.is_none() {
                continue;
            }
            add(p);
            if i % 2 == 1 {
                for dir in 0..4 {
                    for k in 1..=4isize {
                        add(p.step(dir, k));
                        add(p.step(dir, -k));
                    }
                }
            }
        }
        for &p in &seen {
            add(p);
            if caro {
                for dir in 0..4 {
                    for k in 1..=5isize {
                        add(p.step(dir, k));
                        add(p.step(dir, -k));
                    }
                }
            }
        }
        let set = FOURS | if renju_black(b, d) { DOUBLE_THREE } else { 0 };
        for_class(b, d, set, 2, |p, _| add(p));
        let start = self.moves.len();
        for (i, &r) in cands.iter().enumerate() {
            if !can_play(b, r, d) {
                continue;
            }
            self.make(b, r);
            let breaks = !replay_counted(b, &line, &mut self.nodes);
            b.unmake();
            if breaks {
                let on_line = line.contains(&r) as i32;
                self.moves.push((on_line * 1000 - i as i32, r));
            }
        }
        self.scratch = cands;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        Some(1 + line.len() as u16)
    }

    /// The attacker's (side to move) VCF line from the table, without searching: `None`
    /// if an entry is missing, if a defender's reply is not unique (caro), or if a renju
    /// black move of the line is a double three (whose legality other stones could
    /// change). Also returns every five square of the attacker met along the line. The
    /// board is left as it was.
    fn vcf_line_tt(&mut self, b: &mut Board, budget: u16) -> Option<(Vec<Pos>, Vec<Pos>)> {
        let mut line = Vec::new();
        let mut seen = Vec::new();
        let mut made = 0;
        let mut budget = budget;
        let ok = loop {
            let a = b.side_to_move();
            let d = a.opp();
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, b.last_move().unwrap_or(Pos::NONE));
                line.push(f.as_slice()[0]);
                seen.extend_from_slice(f.as_slice());
                break true;
            }
            let m = if b.count(d, Threat::Five) > 0 {
                let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
                let k = kills(b, d, &f);
                if k.len() != 1 {
                    break false;
                }
                k.as_slice()[0]
            } else {
                match self.tt.probe(b.hash() ^ VCF_SALT) {
                    Some(e)
                        if e.flag == PROVEN
                            && e.len <= budget
                            && !e.mv.is_none()
                            && b.is_empty(e.mv) =>
                    {
                        e.mv
                    }
                    _ if !is_caro(b.rule()) && b.count(a, Threat::OpenFour) > 0 => {
                        let mut out = Pos::NONE;
                        for_class(b, a, classes(&[Threat::OpenFour]), 2, |p, _| {
                            if out.is_none() {
                                out = p;
                            }
                        });
                        out
                    }
                    _ => break false,
                }
            };
            if m.is_none()
                || !b.is_empty(m)
                || (renju_black(b, a) && b.threat(m, a) == Threat::DoubleThree)
            {
                break false;
            }
            line.push(m);
            b.make(m);
            made += 1;
            budget = budget.saturating_sub(2);
            let f = fives(b, a, m);
            if f.len() == 0 {
                break false;
            }
            seen.extend_from_slice(f.as_slice());
            let k = kills(b, a, &f);
            match k.len() {
                0 => {
                    line.push(Pos::NONE);
                    line.push(f.as_slice()[0]);
                    break true;
                }
                1 => {
                    let r = k.as_slice()[0];
                    line.push(r);
                    b.make(r);
                    made += 1;
                }
                _ => break false,
            }
        };
        for _ in 0..made {
            b.unmake();
        }
        ok.then_some((line, seen))
    }

    /// Pushes the attacker's fours and threes, best first.
    fn gen_threats(&mut self, b: &mut Board, a: Color) {
        let start = self.moves.len();
        let (l1, l2) = last_moves(b, a);
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        let mut set =
            FOURS | classes(&[Threat::OpenThree, Threat::OpenThreeTwo, Threat::DoubleThree]);
        if self.vcf_threats {
            set |= classes(&[Threat::Three, Threat::ThreeTwo]);
        }
        for_class(b, a, set, 2, |p, _| found.push(p));
        for &p in &found {
            if let Some(r) = threat_rank(b, p, a) {
                self.moves.push((r * 4 + prox(p, l1) * 3 + prox(p, l2), p));
            }
        }
        self.scratch = found;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    }

    // -------------------------------------------------------------------- the line

    /// Builds the winning line of a proven root by following the table (searching again
    /// where an entry was overwritten, with at most as many nodes again as the call's
    /// limit). Leaves the board as it was.
    fn walk(&mut self, b: &mut Board, budget: u16, vct: bool) -> Option<Vec<Pos>> {
        self.aborted = false;
        self.node_limit = self.nodes.saturating_add(self.node_limit);
        let mut line = Vec::new();
        let mut made = 0;
        let mut budget = budget;
        let ok = loop {
            let a = b.side_to_move();
            let d = a.opp();
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, b.last_move().unwrap_or(Pos::NONE));
                line.push(f.as_slice()[0]);
                break true;
            }
            let Some(m) = self.attack_move(b, budget, vct) else {
                break false;
            };
            line.push(m);
            self.make(b, m);
            made += 1;
            budget = budget.saturating_sub(1);
            // The defender's reply.
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, m);
                let k = kills(b, a, &f);
                if k.len() == 0 {
                    // Nothing stops every five. Show a block if there is a legal one (the
                    // five comes elsewhere), else the defender's move does not matter.
                    if let Some(&s) = f.as_slice().iter().find(|&&s| can_play(b, s, d)) {
                        line.push(s);
                        self.make(b, s);
                        made += 1;
                        budget = budget.saturating_sub(1);
                        continue;
                    }
                    line.push(Pos::NONE);
                    line.push(f.as_slice()[0]);
                    break true;
                }
                let r = if k.len() == 1 {
                    k.as_slice()[0]
                } else {
                    // Stopped (the clock, a stop command, the node limit): give up the
                    // line, but through the unmakes below, never straight out.
                    let Some(r) = self.stubborn(b, k.as_slice().to_vec(), budget, vct) else {
                        break false;
                    };
                    r
                };
                line.push(r);
                self.make(b, r);
                made += 1;
            } else {
                let start = self.moves.len();
                if self.defence_candidates(b, a, budget).is_none() {
                    self.moves.truncate(start);
                    break false;
                }
                let cands: Vec<Pos> = self.moves[start..].iter().map(|x| x.1).collect();
                self.moves.truncate(start);
                if cands.is_empty() {
                    // Nothing stops every open four (a double three, say). Show the block
                    // of one open-four square if the defender may play there; otherwise
                    // the defender's move does not matter. (The side to move is put right
                    // by the unmakes at the end: each restores the colour of the move it
                    // takes back, the first one the attacker.)
                    let w = self.open_four_squares(b, a);
                    if let Some(&r) = w.as_slice().iter().find(|&&r| can_play(b, r, d)) {
                        line.push(r);
                        self.make(b, r);
                        made += 1;
                    } else {
                        line.push(Pos::NONE);
                        b.set_side_to_move(a);
                    }
                } else {
                    let Some(r) = self.stubborn(b, cands, budget, vct) else {
                        break false;
                    };
                    line.push(r);
                    self.make(b, r);
                    made += 1;
                }
            }
            budget = budget.saturating_sub(1);
        };
        for _ in 0..made {
            b.unmake();
        }
        ok.then_some(line)
    }

    /// The attacker's move at a proven node of the line.
    fn attack_move(&mut self, b: &mut Board, budget: u16, vct: bool) -> Option<Pos> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(d, Threat::Five) > 0 {
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            let k = kills(b, d, &f);
            if k.len() == 1 {
                return Some(k.as_slice()[0]);
            }
        } else if !is_caro(b.rule()) && b.count(a, Threat::OpenFour) > 0 {
            let mut out = Pos::NONE;
            for_class(b, a, classes(&[Threat::OpenFour]), 2, |p, _| {
                if out.is_none() {
                    out = p;
                }
            });
            return Some(out).filter(|p| !p.is_none());
        }
        for attempt in 0..2 {
            for salt in [VCF_SALT, VCT_SALT] {
                if salt == VCT_SALT && !vct {
                    continue;
                }
                if let Some(e) = self.tt.probe(b.hash() ^ salt) {
                    if e.flag == PROVEN && e.len <= budget && !e.mv.is_none() && b.is_empty(e.mv) {
                        return Some(e.mv);
                    }
                }
            }
            if attempt == 0 {
                // Overwritten: prove this node again (its entry is stored anew).
                let found = if vct {
                    self.vct_attack(b, budget)
                } else {
                    self.vcf_attack(b, budget)
                };
                found?;
            }
        }
        None
    }

    /// Of the defender's replies (all proven lost), the one with the longest win.
    fn stubborn(&mut self, b: &mut Board, cands: Vec<Pos>, budget: u16, vct: bool) -> Option<Pos> {
        let mut best: Option<(u16, Pos)> = None;
        for r in cands {
            self.make(b, r);
            let l = if vct {
                self.vct_attack(b, budget.saturating_sub(1))
            } else {
                self.vcf_attack(b, budget.saturating_sub(1))
            };
            b.unmake();
            let l = l?;
            if best.is_none_or(|(bl, _)| l > bl) {
                best = Some((l, r));
            }
        }
        best.map(|x| x.1)
    }
}

/// Whether `a`'s open-four square `w` (class `OpenFour`) certainly stays one when the
/// defender plays at `q` (not caro, where blocked fives make this a board question). Only
/// `w`'s line through `q` changes: its new shape comes from the line table.
fn open_four_survives(b: &Board, w: Pos, q: Pos, a: Color) -> bool {
    if w == q || b.threat(w, a) != Threat::OpenFour {
        return false;
    }
    let (dx, dy) = (
        q.x() as isize - w.x() as isize,
        q.y() as isize - w.y() as isize,
    );
    let (dir, k) = match (dx, dy) {
        (0, k) => (1, k),
        (k, 0) => (0, k),
        (x, y) if x == y => (2, x),
        (x, y) if x == -y => (3, -x),
        _ => return true, // not on a line through w
    };
    if k.abs() > 5 {
        return true;
    }
    debug_assert_eq!(w.step(dir, k), q);
    let key = b.key(w, dir) + a.opp().cell() as u32 * key_weight(k);
    let mut pats = b.pats(w, a);
    pats[dir] = b.tables().pat(key, a);
    combine(pats, renju_black(b, a)) == Threat::OpenFour
}

/// Whether some move of the side to move in `line` (a VCF line) is a double three when
/// it is played (renju black: legal only because a three is false).
fn line_has_double_three(b: &mut Board, line: &[Pos]) -> bool {
    let a = b.side_to_move();
    let mut made = 0;
    let mut found = false;
    for (i, &p) in line.iter().enumerate() {
        if p.is_none() || !b.is_empty(p) {
            break;
        }
        if i % 2 == 0 && b.threat(p, a) == Threat::DoubleThree {
            found = true;
            break;
        }
        b.make(p);
        made += 1;
    }
    for _ in 0..made {
        b.unmake();
    }
    found
}

/// Caro: whether `a` playing `p` (a square of class `OpenFour`) makes two fives the
/// defender cannot both stop, i.e. after every block a five remains. Leaves the board
/// and the side to move as they were.
fn caro_open_four_wins(b: &mut Board, p: Pos, a: Color) -> bool {
    let side = b.side_to_move();
    b.make_color(p, a);
    let f = fives(b, a, p);
    let wins = f.len() >= 2 && kills(b, a, &f).len() == 0;
    b.unmake();
    b.set_side_to_move(side);
    wins
}

/// Whether the attacker (side to move) still wins by playing `line` (a VCF line found
/// earlier, defender replies included) in this position: every attacker move is legal and
/// a four (or the five), every threat of the defender is answered, and the defender's
/// forced replies are the ones in the line (or the attacker wins sooner). The board is
/// left as it was.
pub fn replay_wins(b: &mut Board, line: &[Pos]) -> bool {
    let mut nodes = 0;
    replay_counted(b, line, &mut nodes)
}

/// [`replay_wins`], counting the moves it makes.
fn replay_counted(b: &mut Board, line: &[Pos], nodes: &mut u64) -> bool {
    let a = b.side_to_move();
    let d = a.opp();
    let mut made = 0;
    let mut i = 0;
    let won = loop {
        if b.count(a, Threat::Five) > 0 {
            break true;
        }
        let Some(&m) = line.get(i) else { break false };
        if m.is_none() || !can_play(b, m, a) {
            break false;
        }
        b.make(m);
        *nodes += 1;
        made += 1;
        if b.count(d, Threat::Five) > 0 {
            break false; // the defender's five threat was not stopped
        }
        let f = fives(b, a, m);
        if f.len() == 0 {
            break false;
        }
        let k = kills(b, a, &f);
        if k.len() == 0 {
            break true;
        }
        let reply = line.get(i + 1).copied().unwrap_or(Pos::NONE);
        if k.len() != 1 || k.as_slice()[0] != reply {
            // Several ways to stop it (caro), or another forced reply: not the same line.
            break false;
        }
        b.make(reply);
        *nodes += 1;
        made += 1;
        i += 2;
    };
    for _ in 0..made {
        b.unmake();
    }
    won
}
