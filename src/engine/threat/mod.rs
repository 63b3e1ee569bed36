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
//!   [`rules::is_forbidden`](crate::core::rules::is_forbidden), which resolves double threes;
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
//!
//! The solver is kept in rooms, each with what it holds: `table.rs` (the solver's own
//! table of proven and disproven positions, and the short lists of squares its nodes
//! pass around, and its verdicts read and stored), `sight.rs` (the wins seen without a
//! search, which the main search asks about at every node, and a line played again),
//! `squares.rs` (what the solver reads off the board: the squares
//! that make five, the moves that stop them, the squares of a threat class), `moves.rs`
//! (the attacker's fours and threes, ranked), `vcf.rs` (the VCF, and the defences against
//! the opponent's), `vct.rs` (the VCT, and the defender's replies to a threat) and
//! `line.rs` (a proven win built into its line from the table).
//! This file holds the solver itself, its settings and its public entries, but for the
//! defences against a VCF ([`ThreatSolver::vcf_defences`]), which are with the VCF.

mod line;
mod moves;
mod sight;
mod squares;
mod table;
mod vcf;
mod vct;

pub use sight::{quick_win, quick_win_for, renju_four_three_win, replay_wins};

use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::{Pos, CELLS};
use crate::engine::stop::StopToken;
use table::Table;

/// Table size used by [`ThreatSolver::new`]: 2^18 entries of 16 bytes (4 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 18;

/// Longest line (in plies) the solver will look for.
pub const MAX_PLIES: usize = 1000;

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

    fn next_generation(&mut self) -> u32 {
        self.generation = (self.generation + 1) & 0x00FF_FFFF;
        if self.generation == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.generation = 1;
        }
        self.generation
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
}
