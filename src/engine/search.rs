//! The main search: iterative deepening with aspiration windows over a principal
//! variation search (negamax with null-window re-searches), a shared transposition
//! table, threat-aware move generation ([`crate::engine::movegen`]), move ordering by the
//! table move, killers and history ([`crate::engine::picker`]), late-move reductions of
//! every move after the first (ln depth x ln move number / 2, threats and defences
//! included, at the root too, one ply more in expected cut nodes for moves that are not
//! killers), singular extensions of a table move that
//! alone holds its score, a fail-high reduction (one ply off every move but fours in a
//! cut node whose static score is well above beta), internal iterative reduction (and
//! a shallower search of a PV node whose table entry is from a much shallower search), a
//! width limit at every node from ply 2 (a few moves where a four or an open three is on
//! the board, more elsewhere), move-count pruning near the leaves, and reverse futility
//! pruning and razoring where the opponent has nothing that wins by force next move
//! (razoring also needs the opponent to have no four to make and the side to move no
//! four-three or double three). A leaf where the side to move can make a four and
//! stands below beta asks the threat solver for a narrow VCF (only fours that make
//! something else, near the last one, which may end in a double three the opponent has
//! no four against), so a threat sequence the search starts is seen through to its end.
//! A four-three or a double three to make, against no four, is a win on sight at every
//! node ([`quick_win`]; renju black's four-threes after playing two moves out,
//! [`renju_four_three_win`]).
//! Before the first iteration the main thread asks the threat solver
//! ([`crate::engine::threat`]) for a VCF or VCT of its own (played at once as a mate) and for
//! the opponent's VCF (the root keeps only the moves that refute it), within a fifth
//! of the hard time limit or, without a clock, a node budget that follows the search's
//! own limits.
//!
//! Positions are scored and moves ordered with the [`Evaluation`] the searcher is handed
//! before a search ([`crate::engine::evaluation`]): the classical evaluation, or a
//! network, whose policy then orders the moves after the table move and which may score
//! the positions too. The searcher does not choose it.
//!
//! Moves a person ruled out ([`crate::engine::restrict`]: block paths, forbidden points)
//! are never played, at the root (where, if nothing else is left, any other legal square
//! is tried, and if there is none the restrictions are ignored so that there is an
//! answer) or below it. While any are set, a five counts only on a square its side may
//! play, and the shortcuts that assume every move can be played are not taken: the root
//! threat search, the leaf VCF and the wins on sight; a node whose moves are all ruled
//! out scores as lost where it had to block a four (or an open three), else statically.
//! With none set the search is exactly the unrestricted one.
//!
//! The main thread can tell a caller which root move it is searching
//! ([`Searcher::search_observed`], [`RootMove`]), for GUIs that mark the square being
//! searched; with no observer (the bench, helpers, tools) the root loop only tests an
//! `Option` per root move, and the tree searched is the same either way.
//!
//! Scores are from the side to move; a five `n` plies from the root scores
//! `MATE - n` (see [`crate::core::types`]). The search stops when its stop token is raised,
//! the hard time limit passes or the node limit is reached; it always has a move to
//! answer with: the first root move as ordered before the first iteration, once the
//! threat search has kept only the moves that refute the opponent's VCF (the same move
//! a single legal reply is answered with at once).

use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::time::Instant;
use crate::core::types::{
    is_mate, mate_in, mated_in, Bound, Color, Pos, Score, INF, MATE, MATE_BOUND,
};
use crate::engine::evaluation::{Evaluation, Networks};
use crate::engine::movegen::{self, ScoredMove, Situation};
pub use crate::engine::params::Params;
use crate::engine::picker::{MovePicker, OrderingStats};
use crate::engine::restrict::Restrictions;
use crate::engine::stop::StopToken;
use crate::engine::threat::{quick_win, quick_win_for, renju_four_three_win, ThreatSolver};
use crate::engine::time::{self, Budget};
use crate::engine::tt::{score_from_tt, score_to_tt, Entry, Tt};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Deepest nominal depth iterative deepening starts.
pub const MAX_DEPTH: i32 = 100;
/// Threat solver table per search thread: 2^16 entries of 16 bytes (1 MiB).
pub const THREAT_TABLE_BITS: u32 = 16;
/// Root VCF: plies (the five included) and nodes.
const ROOT_VCF_PLIES: usize = 61;
const ROOT_VCF_NODES: u64 = 200_000;
/// Root VCT: plies and at most this many nodes (less with a short clock).
const ROOT_VCT_PLIES: usize = 21;
const ROOT_VCT_NODES: u64 = 2_000_000;
/// Nodes for each candidate when checking which moves refute the opponent's VCF.
const ROOT_DEFENCE_NODES: u64 = 20_000;
/// Leaf VCF: plies (the five included) and solver nodes. Only leaves where the side to
/// move can make a four and stands below beta ask, so most leaves cost nothing.
const LEAF_VCF_PLIES: usize = 31;
const LEAF_VCF_NODES: u64 = 1_000;

/// How long a search runs before it tells its root-move observer about the root moves
/// (as Rapfi waits 200 ms before its realtime markers): a short search says nothing extra,
/// and the fast first iterations do not flood the output.
pub const ROOT_MOVES_AFTER: Duration = Duration::from_millis(200);

/// The main thread's progress through the root moves of an iteration, reported to the
/// observer of [`Searcher::search_observed`] once the search has run for
/// [`ROOT_MOVES_AFTER`]. Every `Leave` follows the `Enter` of the same move; a move
/// whose search the stop cut short gets no `Leave`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootMove {
    /// The search of this root move at this depth starts.
    Enter { pos: Pos, depth: i32 },
    /// It is done: its score (a bound unless `best`; at most a mated score when the move
    /// is proven to lose), and whether it became the iteration's best move so far.
    Leave {
        pos: Pos,
        depth: i32,
        score: Score,
        best: bool,
    },
}

/// Late-move reduction of the `n`-th move (1-based) at `depth`: ln(depth) * ln(n) / 2,
/// rounded (before the PV node's one ply less and the clamp to depth - 2).
fn lmr_reduction(depth: i32, n: usize) -> i32 {
    const DEPTHS: usize = 64;
    const MOVES: usize = 128;
    fn formula(depth: i32, n: usize) -> i32 {
        ((depth.max(1) as f64).ln() * (n.max(1) as f64).ln() / 2.0).round() as i32
    }
    static TABLE: OnceLock<Vec<[u8; MOVES]>> = OnceLock::new();
    let (d, n) = (depth.max(0) as usize, n);
    if d >= DEPTHS || n >= MOVES {
        return formula(depth, n);
    }
    let t = TABLE.get_or_init(|| {
        (0..DEPTHS)
            .map(|d| std::array::from_fn(|n| formula(d as i32, n) as u8))
            .collect()
    });
    i32::from(t[d][n])
}

/// The kind of node `pvs` searches: on the principal variation (full window), or a
/// null-window node expected to fail high (cut) or low (all). The root's later moves and
/// every reduced search are cut nodes; a cut node's first child is an all node and
/// the other way round, as in the minimal tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The first move's child.
    fn first_child(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            Node::Cut => Node::All,
            Node::All => Node::Cut,
        }
    }

    /// A later move's child searched with a null window at full depth.
    fn zero_window_child(self) -> Node {
        match self {
            Node::Cut => Node::All,
            _ => Node::Cut,
        }
    }

    /// The same node searched with a null window (singular-extension test).
    fn without_pv(self) -> Node {
        match self {
            Node::Cut => Node::Cut,
            _ => Node::All,
        }
    }
}

/// What limits one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub max_depth: Option<i32>,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Soft target and hard limit for the time.
    pub budget: Option<Budget>,
    /// Skip the root threat search: for searches run many times over one position's
    /// children (multi-line analysis), where the solver's node budget would be spent
    /// once per child and per depth, and for tests of the search alone.
    pub skip_threats: bool,
}

/// Progress after each completed depth (and the final answer).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Pos,
    pub score: Score,
    pub depth: i32,
    pub seldepth: i32,
    pub pv: Vec<Pos>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// One search thread's state. Several can share a table and a stop token.
pub struct Searcher {
    tt: Arc<Tt>,
    /// Read every 256 nodes (and by the root threat search); never cleared here.
    stop: StopToken,
    nodes: u64,
    start: Instant,
    hard: Option<Duration>,
    max_nodes: u64,
    /// Set when any stop condition fired; every node returns at once after that.
    stopped: bool,
    /// Checks of time and node limits are skipped until the first depth completes.
    can_stop: bool,
    /// Killers and history for move ordering.
    ordering: OrderingStats,
    /// The move left out at each ply by a singular-extension search, or NONE.
    excluded: Vec<Pos>,
    /// Depth of the current iteration (extensions stop at twice this many plies).
    root_depth: i32,
    buffers: Vec<Vec<ScoredMove>>,
    pv: Vec<Vec<Pos>>,
    seldepth: i32,
    /// 0 for the main thread; helpers skip some depths so the threads spread out.
    thread_id: usize,
    /// Node counter shared by all threads of a search, and how much of `nodes` this
    /// thread has added to it.
    shared_nodes: Option<Arc<AtomicU64>>,
    flushed_nodes: u64,
    /// Node count at which `pvs` next checks the clock and the limits.
    next_check: u64,
    pub params: Params,
    /// This thread's threat-space solver (its own table).
    threat: ThreatSolver,
    /// How its searches score positions and order moves: the classical evaluation until
    /// it is handed another ([`Searcher::set_evaluation`]).
    evaluation: Evaluation,
    /// Moves a person ruled out ([`crate::engine::restrict`]), and whether there are any
    /// (read once per search: with none the search is exactly the unrestricted one).
    restrict: Arc<Restrictions>,
    restrict_on: bool,
}

impl Searcher {
    /// A searcher on `tt` that stops when `stop` is raised.
    pub fn new(tt: Arc<Tt>, stop: StopToken) -> Searcher {
        Searcher {
            tt,
            stop,
            nodes: 0,
            start: Instant::now(),
            hard: None,
            max_nodes: u64::MAX,
            stopped: false,
            can_stop: false,
            ordering: OrderingStats::new(MAX_PLY + 2),
            excluded: vec![Pos::NONE; MAX_PLY + 2],
            root_depth: 0,
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            seldepth: 0,
            thread_id: 0,
            shared_nodes: None,
            flushed_nodes: 0,
            next_check: 0,
            params: Params::default(),
            threat: ThreatSolver::with_table_bits(THREAT_TABLE_BITS),
            evaluation: Evaluation::classical(),
            restrict: Arc::new(Restrictions::default()),
            restrict_on: false,
        }
    }

    /// The moves the next searches leave out. The caller keeps the table consistent
    /// with them ([`crate::engine::Engine::set_restrictions`] empties it on a change).
    pub fn set_restrictions(&mut self, restrict: Arc<Restrictions>) {
        self.restrict = restrict;
    }

    /// Whether the side to move of `b` may play `p` under the restrictions.
    #[inline]
    fn allowed(&self, b: &Board, p: Pos) -> bool {
        !self.restrict_on || self.restrict.allows(b, p)
    }

    /// Hands this searcher the evaluation its searches use from now on: the engine
    /// chooses one before each search ([`crate::engine::evaluation::Networks::choose`]).
    fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// Takes the evaluation for a search of `b` under this searcher's parameters: the
    /// one `networks` chooses ([`Networks::choose`]) from the evaluation it had.
    pub fn prepare_evaluation(&mut self, networks: &mut Networks, b: &Board) {
        let previous = self.take_evaluation();
        let evaluation = networks.choose(&self.params, b, previous);
        self.set_evaluation(evaluation);
    }

    /// Takes back its evaluation, leaving the classical one: the evaluation for the next
    /// search is chosen from it, to go on with its network's evaluator.
    fn take_evaluation(&mut self) -> Evaluation {
        std::mem::take(&mut self.evaluation)
    }

    /// The evaluation its searches use.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Makes this searcher a helper thread of a parallel search (id > 0), or the main
    /// thread (id 0), counting its nodes into `shared` as well.
    pub fn set_thread(&mut self, id: usize, shared: Option<Arc<AtomicU64>>) {
        self.thread_id = id;
        self.shared_nodes = shared;
    }

    /// The token the next searches stop on (the engine gives each search the caller's).
    pub fn set_stop(&mut self, stop: StopToken) {
        self.stop = stop;
    }

    /// Nodes searched by all threads of the current search (this one alone if single).
    fn total_nodes(&self) -> u64 {
        match &self.shared_nodes {
            Some(n) => n.load(Ordering::Relaxed) + (self.nodes - self.flushed_nodes),
            None => self.nodes,
        }
    }

    /// The shared table.
    pub fn tt(&self) -> &Arc<Tt> {
        &self.tt
    }

    /// Forgets move-ordering statistics (killers and history).
    pub fn clear_history(&mut self) {
        self.ordering.clear();
    }

    /// Searches `board` for the side to move, with the evaluation it was last handed
    /// ([`Searcher::prepare_evaluation`]); `report` receives progress after each depth.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.search_observed(board, limits, report, None)
    }

    /// [`Searcher::search`] that also tells `observe` (on the main thread only, id 0,
    /// and only after [`ROOT_MOVES_AFTER`]) which root move it enters and leaves. The
    /// observer changes nothing in the search.
    pub fn search_observed(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
        mut observe: Option<&mut dyn FnMut(RootMove)>,
    ) -> SearchResult {
        if self.thread_id != 0 {
            observe = None;
        }
        let mut b = board.clone();
        self.start = Instant::now();
        self.nodes = 0;
        self.flushed_nodes = 0;
        self.next_check = 256;
        self.stopped = false;
        self.can_stop = false;
        self.hard = limits.budget.map(|bu| bu.hard);
        self.max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        self.seldepth = 0;
        self.restrict_on = !self.restrict.is_empty();
        self.ordering.age();
        if self.thread_id == 0 {
            self.tt.new_search();
        }

        let mut root: Vec<ScoredMove> = Vec::new();
        let mut situation = movegen::generate(&mut b, &mut root);
        if self.restrict_on {
            situation = self.restrict_root(&mut b, &mut root, situation);
        }
        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best: root.first().map_or(Pos::NONE, |m| m.pos),
            score: self.evaluation.score(&b),
            depth: 0,
            seldepth: 0,
            pv: root.first().map(|m| vec![m.pos]).unwrap_or_default(),
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if root.is_empty() {
            // Only renju fouls are left, or the board is full: nothing legal to play.
            // Fall back to any empty square so the caller always has an answer.
            result.best = b.squares().find(|&p| b.is_empty(p)).unwrap_or(Pos::NONE);
            result.pv = vec![result.best];
            return result;
        }
        if situation == Situation::Win {
            result.score = mate_in(1);
            result.depth = 1;
            report(&self.info(&result));
            return result;
        }
        // The threat solver knows nothing of ruled-out moves: with restrictions its
        // proofs might use one, so it is not asked (the search finds wins by searching).
        if self.thread_id == 0 && !limits.skip_threats && !self.restrict_on {
            let found = self.root_threats(&mut b, &mut root, limits);
            // The solvers must leave the board as they found it, stopped or not.
            debug_assert_eq!(
                (b.hash(), b.move_count()),
                (board.hash(), board.move_count())
            );
            if let Some(line) = found {
                result.best = line[0];
                result.score = mate_in(line.len() as i32);
                // A threat-space win is proven to its end: report its length as the depth.
                result.depth = line.len() as i32;
                result.pv = line.into_iter().take_while(|p| !p.is_none()).collect();
                result.nodes = self.total_nodes();
                result.elapsed = self.start.elapsed();
                report(&self.info(&result));
                return result;
            }
        }
        // The root is final here (the threat search may have kept only the moves that
        // stop the opponent's VCF): the answer before any iteration ends, and a single
        // reply, is its first move, not the first move generated.
        result.best = root[0].pos;
        result.pv = vec![result.best];
        // A single legal reply needs no thought when the clock is running.
        if root.len() == 1 && limits.budget.is_some() && limits.max_depth.is_none() {
            result.depth = 1;
            report(&self.info(&result));
            return result;
        }

        let mut prev_score = 0;
        let mut stable = 0u32;
        let mut last_best = Pos::NONE;
        // The move of the last progress report: a partial iteration that changes it is
        // reported too, so that the last line a GUI drew names the move played.
        let mut reported = Pos::NONE;
        for depth in 1..=max_depth {
            // Helper threads skip every other depth (odd helpers the even ones), so that
            // they search ahead of the main thread and fill the table for it.
            if self.thread_id > 0
                && depth > 2
                && depth < max_depth
                && (depth as usize + self.thread_id).is_multiple_of(2)
            {
                continue;
            }
            self.root_depth = depth;
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 4 && !is_mate(prev_score) {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INF, INF)
            };
            let mut iteration: Option<(Score, Vec<Pos>)> = None;
            loop {
                let (score, best_pv) =
                    self.root_search(&mut b, &mut root, depth, alpha, beta, &mut observe);
                if self.stopped {
                    // A partial iteration still counts if its first move, searched with
                    // a full window, became a new best.
                    if let Some(pv) = best_pv {
                        if score > alpha && score < beta {
                            iteration = Some((score, pv));
                        }
                    }
                    break;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INF);
                    delta += delta;
                } else if score >= beta {
                    beta = (score + delta).min(INF);
                    delta += delta;
                } else {
                    iteration = Some((score, best_pv.unwrap_or_default()));
                    break;
                }
                if delta > 2000 {
                    alpha = -INF;
                    beta = INF;
                }
            }
            let completed = !self.stopped;
            if let Some((score, pv)) = iteration {
                if !pv.is_empty() {
                    let drop = prev_score - score;
                    result.best = pv[0];
                    result.score = score;
                    result.pv = pv;
                    // A partial iteration's move is reported with the last full depth.
                    result.depth = if completed { depth } else { depth - 1 };
                    result.seldepth = self.seldepth;
                    if result.best == last_best {
                        stable += 1;
                    } else {
                        stable = 0;
                    }
                    last_best = result.best;
                    prev_score = score;
                    result.nodes = self.total_nodes();
                    result.elapsed = self.start.elapsed();
                    if completed || result.best != reported {
                        report(&self.info(&result));
                        reported = result.best;
                    }
                    if let Some(bu) = limits.budget {
                        if completed && self.start.elapsed() >= time::scale_soft(&bu, stable, drop)
                        {
                            break;
                        }
                    }
                }
            }
            self.can_stop = true;
            if !completed {
                break;
            }
            // A proven result cannot change with more depth.
            if is_mate(result.score) && MATE - result.score.abs() <= depth {
                break;
            }
        }
        self.flush_nodes();
        result.nodes = self.total_nodes();
        result.elapsed = self.start.elapsed();
        result
    }

    /// Leaves the ruled-out moves out of the root list. When none is left, every other
    /// legal empty square is tried instead (a person may rule out all but one square far
    /// from the stones), ordered as the generator orders moves; when the restrictions
    /// leave no legal move at all, they are ignored here, so the search still answers. A
    /// five among the moves left is then the only move. Returns the situation of the
    /// root as the search should see it.
    fn restrict_root(
        &self,
        b: &mut Board,
        root: &mut Vec<ScoredMove>,
        situation: Situation,
    ) -> Situation {
        let all = root.clone();
        root.retain(|m| self.restrict.allows(b, m.pos));
        if root.is_empty() {
            let me = b.side_to_move();
            let squares: Vec<Pos> = b.squares().filter(|&p| b.is_empty(p)).collect();
            for p in squares {
                if self.restrict.allows(b, p) && movegen::legal_for(b, p, me) {
                    root.push(ScoredMove {
                        pos: p,
                        score: movegen::order_score(b, p, me),
                        policy_gap: 0,
                    });
                }
            }
            movegen::sort(root);
        }
        if root.is_empty() {
            *root = all;
        }
        let me = b.side_to_move();
        if let Some(&five) = root.iter().find(|m| b.threat(m.pos, me) == Threat::Five) {
            *root = vec![five];
            return Situation::Win;
        }
        if situation == Situation::Win {
            Situation::Quiet
        } else {
            situation
        }
    }

    fn flush_nodes(&mut self) {
        if let Some(n) = &self.shared_nodes {
            n.fetch_add(self.nodes - self.flushed_nodes, Ordering::Relaxed);
            self.flushed_nodes = self.nodes;
        }
    }

    /// Threat-space search at the root. Returns a winning line of the side to move (VCF,
    /// then VCT within a share of the time), or restricts `root` to the moves that refute
    /// the opponent's VCF and returns `None`.
    fn root_threats(
        &mut self,
        b: &mut Board,
        root: &mut Vec<ScoredMove>,
        limits: &Limits,
    ) -> Option<Vec<Pos>> {
        // The engine's stop flag (END, STOP, YXSTOP) always reaches the solver. With a
        // clock, the solver gets a fifth of the hard limit in all: a deadline it checks
        // with the stop flag. Both are taken away again before the iterations, whose
        // leaf threat searches the search's own checks bound.
        self.threat.set_stop(Some(self.stop.clone()));
        self.threat
            .set_deadline(limits.budget.map(|bu| Instant::now() + bu.hard / 5));
        let out = self.root_threat_searches(b, root, limits);
        self.threat.set_stop(None);
        self.threat.set_deadline(None);
        out
    }

    fn root_threat_searches(
        &mut self,
        b: &mut Board,
        root: &mut Vec<ScoredMove>,
        limits: &Limits,
    ) -> Option<Vec<Pos>> {
        let legal = |line: &Vec<Pos>, root: &[ScoredMove]| {
            line.first()
                .is_some_and(|p| root.iter().any(|m| m.pos == *p))
        };
        // Node limits. The search's own node limit, where there is one, bounds them, so a
        // node-limited search is not swamped by its threat search (with a clock as well:
        // a manager's `INFO max_node` holds however long the turn). Otherwise, with a
        // clock, time is what bounds the solver (see root_threats); with neither, the
        // search's depth.
        let (vcf_nodes, vct_nodes, defence_nodes) = match (limits.budget, limits.max_nodes) {
            (_, Some(n)) => (
                (n / 4).clamp(100, ROOT_VCF_NODES),
                (n / 4).clamp(100, ROOT_VCT_NODES),
                (n / 40).clamp(20, ROOT_DEFENCE_NODES),
            ),
            (Some(bu), None) => (
                ROOT_VCF_NODES,
                (bu.hard.as_millis() as u64 * self.params.vct_share).clamp(2_000, ROOT_VCT_NODES),
                ROOT_DEFENCE_NODES,
            ),
            (None, None) => {
                let d = limits.max_depth.unwrap_or(MAX_DEPTH).max(1) as u64;
                (
                    (d * 20_000).min(ROOT_VCF_NODES),
                    (d * 5_000).min(ROOT_VCT_NODES),
                    (d * 2_000).min(ROOT_DEFENCE_NODES),
                )
            }
        };
        let vcf = self.threat.vcf(b, ROOT_VCF_PLIES, vcf_nodes);
        self.nodes += self.threat.stats().nodes;
        if let Some(line) = vcf.filter(|l| legal(l, root)) {
            return Some(line);
        }
        let vct = self.threat.vct(b, ROOT_VCT_PLIES, vct_nodes);
        self.nodes += self.threat.stats().nodes;
        if let Some(line) = vct.filter(|l| legal(l, root)) {
            return Some(line);
        }
        let defences = self.threat.vcf_defences(b, ROOT_VCF_PLIES, defence_nodes);
        self.nodes += self.threat.stats().nodes;
        if let Some(defences) = defences {
            let kept: Vec<ScoredMove> = root
                .iter()
                .copied()
                .filter(|m| defences.contains(&m.pos))
                .collect();
            if !kept.is_empty() {
                *root = kept;
            }
        }
        None
    }

    fn info(&self, r: &SearchResult) -> Info {
        Info {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score,
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            pv: r.pv.clone(),
        }
    }

    /// Searches every root move; returns the best score and its PV (if any move was
    /// searched completely with a score above alpha). Root moves are re-sorted so the
    /// best comes first. `observe` hears of each move entered and left once the search
    /// has run for [`ROOT_MOVES_AFTER`].
    fn root_search(
        &mut self,
        b: &mut Board,
        root: &mut [ScoredMove],
        depth: i32,
        mut alpha: Score,
        beta: Score,
        observe: &mut Option<&mut dyn FnMut(RootMove)>,
    ) -> (Score, Option<Vec<Pos>>) {
        let mut best = -INF;
        let mut best_pv: Option<Vec<Pos>> = None;
        let mut best_idx = 0;
        let moves: Vec<Pos> = root.iter().map(|m| m.pos).collect();
        for (i, &m) in moves.iter().enumerate() {
            let mut entered = false;
            if let Some(f) = observe.as_mut() {
                if self.start.elapsed() >= ROOT_MOVES_AFTER {
                    f(RootMove::Enter { pos: m, depth });
                    entered = true;
                }
            }
            b.make(m);
            let mut score;
            if i == 0 {
                score = -self.pvs(b, -beta, -alpha, depth - 1, 1, Node::Pv);
            } else {
                // Late root moves are reduced as in `pvs` (as a PV node).
                let r = self.reduction(depth, i, true, false);
                score = -self.pvs(b, -alpha - 1, -alpha, depth - 1 - r, 1, Node::Cut);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.pvs(b, -alpha - 1, -alpha, depth - 1, 1, Node::Cut);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(b, -beta, -alpha, depth - 1, 1, Node::Pv);
                }
            }
            b.unmake();
            if self.stopped {
                break;
            }
            if entered {
                if let Some(f) = observe.as_mut() {
                    f(RootMove::Leave {
                        pos: m,
                        depth,
                        score,
                        best: score > best && score > alpha,
                    });
                }
            }
            if score > best {
                best = score;
                best_idx = i;
                if score > alpha {
                    let mut pv = vec![m];
                    pv.extend_from_slice(&self.pv[1]);
                    best_pv = Some(pv);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Best move first, the rest keep their order.
        if best_idx > 0 {
            root[..=best_idx].rotate_right(1);
        }
        (best, best_pv)
    }

    #[inline]
    fn check_stop(&mut self) {
        self.flush_nodes();
        if self.stop.is_raised() {
            self.stopped = true;
            return;
        }
        if !self.can_stop {
            return;
        }
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if let Some(h) = self.hard {
            if self.start.elapsed() >= h {
                self.stopped = true;
            }
        }
    }

    /// How many moves a node searches at most: no limit at the root and its children;
    /// from ply 2 (PV nodes too, every kind of move), as PentaZen does, min(round(5
    /// sqrt(depth) - 2), 8) moves where either side has a four or an open three on the
    /// board, else min(round(15 sqrt(depth) - 12), 32) (3, 9, 14, 18, 22 at depth 1-5).
    fn width_limit(&self, b: &Board, depth: i32, ply: usize) -> usize {
        if ply < 2 {
            return usize::MAX;
        }
        let tactical = [Color::Black, Color::White]
            .into_iter()
            .any(|c| b.count(c, Threat::Five) > 0 || b.count(c, Threat::OpenFour) > 0);
        let d = f64::from(depth.max(1)).sqrt();
        let n = if tactical {
            (5.0 * d - 2.0).round().min(8.0)
        } else {
            (15.0 * d - 12.0).round().min(32.0)
        };
        n.max(1.0) as usize
    }

    /// Principal variation search of the node at `ply` to `depth` within (alpha, beta):
    /// the score for the side to move, exact inside the window and a bound outside it.
    fn pvs(
        &mut self,
        b: &mut Board,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> Score {
        let pv_node = node == Node::Pv;
        let cut_node = node == Node::Cut;
        if self.enter_node(ply) {
            return 0;
        }
        if let Some(score) = self.terminal(b, ply, pv_node) {
            return score;
        }
        let me = b.side_to_move();
        let opp = me.opp();
        let ply_i = ply as i32;
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply_i));
        beta = beta.min(mate_in(ply_i + 1));
        if alpha >= beta {
            return alpha;
        }
        // A leaf is searched further where the opponent has a five to block or, up to a
        // ply past the horizon, a win on sight to stop.
        let opp_fives = b.count(opp, Threat::Five);
        if depth <= 0 && opp_fives == 0 && !(depth > -2 && quick_win_for(b, opp).is_some()) {
            return self.leaf(b, beta, ply_i);
        }

        let key = b.hash();
        let excluded = self.excluded[ply];
        // A search without one move is not the position's result: no table use.
        let tt_entry = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = tt_entry.map_or(Pos::NONE, |e| e.mv);
        if !pv_node {
            if let Some(s) = tt_entry.and_then(|e| tt_cutoff(e, depth, ply_i, alpha, beta)) {
                return s;
            }
        }
        let depth = self.reduced_depth(depth, tt_entry, pv_node, excluded);
        let static_score = self.pruning_score(b, beta, pv_node);
        if let Some(s) = static_score.and_then(|se| self.forward_prune(b, se, alpha, beta, depth)) {
            return s;
        }

        let buffer = std::mem::take(&mut self.buffers[ply]);
        // The network's policy ranks the moves after the table move: from the evaluation
        // of this very position where forward pruning asked for one, else from a new one.
        let policy = match self.evaluation.network() {
            Some(e) if self.params.policy_weight > 0 => Some((e, self.params.policy_weight)),
            _ => None,
        };
        let mut picker = MovePicker::new(b, buffer, tt_move, ply, &self.ordering, policy);
        let situation = picker.situation();
        if picker.is_empty() {
            self.buffers[ply] = picker.into_buffer();
            return match situation {
                Situation::BlockFour => mated_in(ply_i + 2),
                Situation::DefendThree => mated_in(ply_i + 4),
                _ => 0,
            };
        }
        let likely_fail_high = cut_node && self.likely_fail_high(b, static_score, beta, depth);
        let width = self.width_limit(b, depth, ply);
        // A forced reply does not use up depth.
        let forced_ext = i32::from(situation == Situation::BlockFour);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        while let Some((i, mv)) = picker.next_move_with(b, self.evaluation.network()) {
            if mv == excluded || !self.allowed(b, mv) {
                continue;
            }
            let my_threat = b.threat(mv, me);
            let their_threat = b.threat(mv, opp);
            let quiet = situation == Situation::Quiet
                && mv != tt_move
                && my_threat < Threat::OpenThree
                && their_threat < Threat::OpenThree;
            // The width limit and move-count pruning end the node once a move has been
            // found that does not lose.
            if best > -MATE_BOUND
                && (i >= width || self.move_count_prunes(i, depth, pv_node, quiet))
            {
                break;
            }
            let policy_gap = picker.policy_gap(i);
            if best > -MATE_BOUND && quiet && self.policy_prunes(policy_gap, depth, pv_node) {
                continue;
            }
            // The table move is never reduced; a quiet killer keeps the plain reduction
            // in a cut node.
            let killer = situation == Situation::Quiet
                && picker.is_killer(mv)
                && my_threat < Threat::OpenThree;
            let r = if mv == tt_move {
                0
            } else {
                (self.reduction(depth, i, pv_node, cut_node && !killer)
                    + self.policy_reduction(policy_gap, depth, quiet))
                .min((depth - 2).max(0))
            };
            let mut ext = forced_ext;
            if let Some(e) = tt_entry.filter(|_| mv == tt_move && ext == 0) {
                match self.singular_extension(b, e, depth, beta, ply, node) {
                    Singular::Extend => ext = 1,
                    Singular::No => {}
                    Singular::MultiCut(s) => {
                        self.buffers[ply] = picker.into_buffer();
                        return s;
                    }
                }
                if self.stopped {
                    break;
                }
            }
            if likely_fail_high && my_threat < Threat::Four {
                ext -= 1;
            }
            let new_depth = depth - 1 + ext;
            if new_depth > 0 {
                // The child probes the table first thing: start that load now.
                self.tt.prefetch(b.hash_after(mv));
            }
            b.make(mv);
            let mut score;
            if i == 0 {
                score = -self.pvs(b, -beta, -alpha, new_depth, ply + 1, node.first_child());
            } else {
                score = -self.pvs(b, -alpha - 1, -alpha, new_depth - r, ply + 1, Node::Cut);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.pvs(
                        b,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        node.zero_window_child(),
                    );
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.pvs(b, -beta, -alpha, new_depth, ply + 1, Node::Pv);
                }
            }
            b.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.ordering.record_cutoff(ply, mv, me, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = picker.into_buffer();
        // A stopped search's scores mean nothing: neither returned nor stored.
        if self.stopped {
            return 0;
        }
        if best == -INF && self.restrict_on && excluded.is_none() {
            // Every move was ruled out: a forced block that cannot be played loses as
            // when there is none; elsewhere the moves left are outside the generator's
            // list, and the static score stands for them.
            best = match situation {
                Situation::BlockFour => mated_in(ply_i + 2),
                Situation::DefendThree => mated_in(ply_i + 4),
                _ => self.evaluation.score(b),
            };
        }
        // A search without one move is not the position's result: not stored.
        if excluded.is_none() {
            let bound = bound(best, orig_alpha, beta);
            self.tt
                .store(key, best_move, score_to_tt(best, ply_i), depth, bound);
        }
        best
    }

    /// Counts a node at `ply`, clears its PV and tracks the selective depth; every 256
    /// nodes (the threat solver's at the leaves included, which come in batches), often
    /// enough to stop within a few milliseconds even in a debug build, which checks the
    /// whole board after every move, checks the stop conditions. Whether the search has
    /// stopped.
    #[inline]
    fn enter_node(&mut self, ply: usize) -> bool {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 256;
            self.check_stop();
        }
        if self.stopped {
            return true;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        false
    }

    /// The score of a node decided without a search, if it is: a five to complete, a full
    /// board, a four-three or a double three that wins on sight ([`quick_win`],
    /// [`renju_four_three_win`]), two fives of the opponent's to block, or the ply limit
    /// (the static score). A PV node's line gets the winning move.
    #[inline]
    fn terminal(&mut self, b: &mut Board, ply: usize, pv_node: bool) -> Option<Score> {
        let me = b.side_to_move();
        let ply_i = ply as i32;
        if self.restrict_on {
            return self.restricted_terminal(b, ply, pv_node);
        }
        if b.count(me, Threat::Five) > 0 {
            if pv_node {
                self.pv[ply].extend(movegen::find_square(b, me, Threat::Five));
            }
            return Some(mate_in(ply_i + 1));
        }
        if b.is_full() {
            return Some(0);
        }
        if let Some((plies, class)) = quick_win(b) {
            if pv_node {
                self.pv[ply].extend(movegen::find_square(b, me, class));
            }
            return Some(mate_in(ply_i + plies));
        }
        if let Some(p) = renju_four_three_win(b) {
            if pv_node {
                self.pv[ply].push(p);
            }
            return Some(mate_in(ply_i + 5));
        }
        if b.count(me.opp(), Threat::Five) >= 2 {
            return Some(mated_in(ply_i + 2));
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluation.score(b));
        }
        None
    }

    /// [`Searcher::terminal`] under restrictions: a five counts only on a square the side
    /// to move may play, and the wins on sight, which assume every move can be played, are
    /// left to the search.
    fn restricted_terminal(&mut self, b: &mut Board, ply: usize, pv_node: bool) -> Option<Score> {
        let me = b.side_to_move();
        let ply_i = ply as i32;
        if b.count(me, Threat::Five) > 0 {
            let five = b
                .area(4)
                .find(|&p| b.is_empty(p) && b.threat(p, me) == Threat::Five && self.allowed(b, p));
            if let Some(p) = five {
                if pv_node {
                    self.pv[ply].push(p);
                }
                return Some(mate_in(ply_i + 1));
            }
        }
        if b.is_full() {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluation.score(b));
        }
        None
    }

    /// The score of a leaf: its static score, or a mate where the side to move stands
    /// below beta, can make a four, and the threat solver finds a narrow VCF, so that a
    /// threat sequence the search started is seen through to its end.
    #[inline]
    fn leaf(&mut self, b: &mut Board, beta: Score, ply: i32) -> Score {
        let se = self.evaluation.score(b);
        // A VCF can only start with a four, and is only worth looking for where the
        // static score does not already reach beta.
        if se < beta && !self.restrict_on && b.count_at_least(b.side_to_move(), Threat::Four) > 0 {
            let found = self
                .threat
                .has_narrow_vcf(b, LEAF_VCF_PLIES, LEAF_VCF_NODES);
            self.nodes += self.threat.stats().nodes;
            if found {
                // The exact length is not known here; a VCF within the ply limit.
                return mate_in(ply + LEAF_VCF_PLIES as i32);
            }
        }
        se
    }

    /// The depth a node is searched to after internal iterative reduction: up to three
    /// plies less in a PV node whose table entry is from a much shallower search
    /// ([`Params::pv_stale`]), then one less from [`Params::iir_depth`] on without a table
    /// move (outside a singular-extension search).
    #[inline]
    fn reduced_depth(
        &self,
        depth: i32,
        tt_entry: Option<Entry>,
        pv_node: bool,
        excluded: Pos,
    ) -> i32 {
        let mut depth = depth;
        if let Some(e) = tt_entry {
            if pv_node && self.params.pv_stale > 0 && depth > 1 && !e.mv.is_none() {
                let r = (((depth - e.depth).max(0) * self.params.pv_stale + 50) / 100).min(3);
                depth = (depth - r).max(1);
            }
        }
        let tt_move = tt_entry.map_or(Pos::NONE, |e| e.mv);
        if self.params.iir_depth > 0
            && depth >= self.params.iir_depth
            && tt_move.is_none()
            && excluded.is_none()
        {
            depth -= 1;
        }
        depth
    }

    /// The static score where forward pruning may use it, else `None`: in a null-window
    /// node, with no five of the opponent's to block and beta no mate score, when the
    /// opponent cannot make a four-three, a double three or better next move (if he could,
    /// standing still is no measure of the position), and reverse futility pruning or
    /// razoring is on.
    #[inline]
    fn pruning_score(&mut self, b: &Board, beta: Score, pv_node: bool) -> Option<Score> {
        let opp = b.side_to_move().opp();
        let usable = !pv_node
            && b.count(opp, Threat::Five) == 0
            && beta.abs() < MATE_BOUND
            && (self.params.rfp_margin > 0 || self.params.razor_margin > 0)
            && b.count(opp, Threat::DoubleThree) == 0
            && b.count_at_least(opp, Threat::FourThree) == 0;
        if usable {
            Some(self.evaluation.score(b))
        } else {
            None
        }
    }

    /// Forward pruning of a node whose static score is `se` (see [`Searcher::pruning_score`]):
    /// the score to return without a search, if any. Razoring near the leaves where `se`
    /// is far below alpha, the opponent has no four to make and the side to move no
    /// four-three or double three; reverse futility pruning where `se` is far above beta.
    #[inline]
    fn forward_prune(
        &self,
        b: &Board,
        se: Score,
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Option<Score> {
        let p = &self.params;
        let me = b.side_to_move();
        if p.razor_margin > 0
            && depth <= p.razor_depth
            && se + p.razor_margin * depth <= alpha
            && b.count(me, Threat::DoubleThree) == 0
            && b.count_at_least(me, Threat::FourThree) == 0
            && b.count_at_least(me.opp(), Threat::Four) == 0
        {
            return Some(se);
        }
        if p.rfp_margin > 0 && depth <= p.rfp_depth && se - p.rfp_margin * depth >= beta {
            return Some(se);
        }
        None
    }

    /// Whether a cut node's moves but fours are searched a ply shallower (the fail-high
    /// reduction, see [`Params::fh_margin`]): its static score, where forward pruning may
    /// use it, is well above beta (by 90 more when the opponent can make a four).
    #[inline]
    fn likely_fail_high(
        &self,
        b: &Board,
        static_score: Option<Score>,
        beta: Score,
        depth: i32,
    ) -> bool {
        self.params.fh_margin > 0
            && static_score.is_some_and(|se| {
                let four = i32::from(b.count_at_least(b.side_to_move().opp(), Threat::Four) > 0);
                se >= beta + self.params.fh_margin * depth + 90 * four
            })
    }

    /// Move-count pruning: whether a null-window node near the leaves ends before its
    /// `i`-th move (0-based), a quiet one ([`Params::move_count`] moves per ply of depth).
    #[inline]
    fn move_count_prunes(&self, i: usize, depth: i32, pv_node: bool, quiet: bool) -> bool {
        let mc = self.params.move_count;
        mc > 0
            && !pv_node
            && quiet
            && depth <= self.params.move_count_depth
            && i >= mc * depth.max(0) as usize
    }

    /// Policy pruning (see [`Params::policy_prune`]): whether a quiet move that the
    /// network's policy puts `gap` tenths of a logit below the favourite is skipped.
    #[inline]
    fn policy_prunes(&self, gap: i32, depth: i32, pv_node: bool) -> bool {
        let margin = self.params.policy_prune;
        margin > 0 && !pv_node && depth <= self.params.policy_prune_depth && gap <= -margin
    }

    /// Policy reduction (see [`Params::policy_reduce`]): the extra ply for a late quiet
    /// move that the policy puts `gap` tenths of a logit below the favourite (the child
    /// still keeps at least one ply).
    #[inline]
    fn policy_reduction(&self, gap: i32, depth: i32, quiet: bool) -> i32 {
        let margin = self.params.policy_reduce;
        i32::from(margin > 0 && quiet && depth >= 3 && gap <= -margin)
    }

    /// Late-move reduction of the `i`-th move (0-based) of a node at `depth`, in plies:
    /// none for the first move or below depth 3, else [`lmr_reduction`], one ply less in
    /// a PV node and [`Params::cut_reduction`] more for a move expected to fail low in a
    /// cut node (`cut`), leaving the child at least one ply.
    #[inline]
    fn reduction(&self, depth: i32, i: usize, pv_node: bool, cut: bool) -> i32 {
        if depth < 3 || i == 0 {
            return 0;
        }
        let cut = if cut { self.params.cut_reduction } else { 0 };
        (lmr_reduction(depth, i + 1) - i32::from(pv_node) + cut).clamp(0, depth - 2)
    }

    /// The singular-extension test of the table move, whose entry is `e` (see
    /// [`Params::se_depth`]): the node is searched without it at half the depth, with a
    /// null window at the entry's score less a margin. If every other move stays below,
    /// the table move is singular; if one reaches the margin while that is at least beta,
    /// the node fails high (multi-cut). Not tried on a mate score, an upper bound, an
    /// entry from a much shallower search or beyond twice the iteration's depth.
    fn singular_extension(
        &mut self,
        b: &mut Board,
        e: Entry,
        depth: i32,
        beta: Score,
        ply: usize,
        node: Node,
    ) -> Singular {
        let s = score_from_tt(e.score, ply as i32);
        let tried = self.params.se_depth > 0
            && depth >= self.params.se_depth
            && e.bound != Bound::Upper
            && e.depth >= depth - 3
            && s.abs() < MATE_BOUND
            && (ply as i32) < 2 * self.root_depth;
        if !tried {
            return Singular::No;
        }
        let sb = s - self.params.se_margin * depth;
        self.excluded[ply] = e.mv;
        let v = self.pvs(b, sb - 1, sb, (depth - 1) / 2, ply, node.without_pv());
        self.excluded[ply] = Pos::NONE;
        if self.stopped {
            Singular::No
        } else if v < sb {
            Singular::Extend
        } else if sb >= beta {
            Singular::MultiCut(sb)
        } else {
            Singular::No
        }
    }

    /// The PV at `ply` becomes `mv` followed by the child's.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// The verdict of the singular-extension test on a table move.
enum Singular {
    /// Every other move falls short: the table move is searched a ply deeper.
    Extend,
    /// Another move comes close, the test was not tried, or the search stopped.
    No,
    /// Another move beats beta as well: the node returns this score at once.
    MultiCut(Score),
}

/// The score a table entry lets a null-window node at `ply` return without a search:
/// from a search at least `depth` deep, exact or a bound beyond the window.
#[inline]
fn tt_cutoff(e: Entry, depth: i32, ply: i32, alpha: Score, beta: Score) -> Option<Score> {
    let s = score_from_tt(e.score, ply);
    let cut = e.depth >= depth
        && match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
    cut.then_some(s)
}

/// The bound a node's best score is for the window it was searched with: a lower bound
/// if it reached beta, exact inside the window, an upper bound if it did not beat alpha.
#[inline]
fn bound(best: Score, alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Convenience: searches a position with a fresh table of `hash_mb` megabytes and the
/// default parameters, evaluating as the engine would ([`Networks::choose`]).
pub fn search_position(board: &Board, limits: &Limits, hash_mb: usize) -> SearchResult {
    search_position_with(board, limits, hash_mb, &Params::default())
}

/// [`search_position`] with these parameters.
pub fn search_position_with(
    board: &Board,
    limits: &Limits,
    hash_mb: usize,
    params: &Params,
) -> SearchResult {
    let tt = Arc::new(Tt::new(hash_mb << 20));
    let mut s = Searcher::new(tt, StopToken::new());
    s.params = params.clone();
    s.prepare_evaluation(&mut Networks::built_in(), board);
    s.search(board, limits, &mut |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules;
    use crate::core::types::Rule;
    use crate::nn::eval::tests::{random_moves, random_net};
    use crate::nn::Net;

    /// A searcher with the parameters of `spec`, and the networks it evaluates with:
    /// `net` alone.
    fn searcher_with(net: Net, spec: &str) -> (Searcher, Networks) {
        let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
        s.params.apply(spec).unwrap();
        (s, Networks::new(vec![Arc::new(net)]))
    }

    /// Searches `b` with the evaluation `nets` chooses for it, as the engine does.
    fn search_with(
        s: &mut Searcher,
        nets: &mut Networks,
        b: &Board,
        limits: &Limits,
    ) -> SearchResult {
        s.prepare_evaluation(nets, b);
        s.search(b, limits, &mut |_| {})
    }

    #[test]
    fn the_built_in_network_plays_freestyle_without_a_file() {
        // Black to move with an open three, white's stones in the corners.
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0)] {
            b.make(Pos::new(x, y));
        }
        let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
        s.params.apply("use_net=1").unwrap();
        let mut nets = Networks::built_in();
        s.prepare_evaluation(&mut nets, &b);
        assert!(s.evaluation().uses_net(), "no built-in freestyle network");
        let mut e = s.take_evaluation();
        let black = e.score(&b);
        assert!(black > 200, "{black}");
        // The colours swapped: black to move against white's open three.
        let mut w = Board::square(15, Rule::Freestyle).unwrap();
        for (x, y) in [(0, 0), (7, 7), (0, 14), (8, 7), (14, 0), (9, 7)] {
            w.make(Pos::new(x, y));
        }
        assert!(e.score(&w) < -200, "{}", e.score(&w));
        s.set_evaluation(e);
        let limits = Limits {
            max_depth: Some(4),
            ..Limits::default()
        };
        let r = search_with(&mut s, &mut nets, &b, &limits);
        assert!(s.evaluation().uses_net());
        assert!(
            [Pos::new(6, 7), Pos::new(10, 7)].contains(&r.best),
            "{:?}",
            r.best
        );
    }

    #[test]
    fn the_network_plays_legal_moves_and_keeps_the_tactics() {
        use crate::core::rng::{Rng, XorShift64};
        for rule in [Rule::Freestyle, Rule::Renju] {
            for spec in ["use_net=1", "use_net=2"] {
                let (mut s, mut nets) = searcher_with(random_net(rule, 21), spec);
                let mut rng = XorShift64::new(77);
                for _ in 0..6 {
                    let mut b = Board::square(15, rule).unwrap();
                    b.make(Pos::new(7, 7));
                    let n = 4 + rng.below(20);
                    random_moves(&mut b, n, &mut rng);
                    if rules::game_end(&b).is_some() {
                        continue;
                    }
                    let limits = Limits {
                        max_depth: Some(5),
                        ..Limits::default()
                    };
                    let r = search_with(&mut s, &mut nets, &b, &limits);
                    assert!(s.evaluation().uses_net(), "{rule:?} {spec}");
                    assert!(
                        rules::is_legal(&mut b, r.best),
                        "{rule:?} {spec}: {:?}",
                        r.best
                    );
                }
                // Even with random weights, an open four is played to its five.
                let mut b = Board::square(15, rule).unwrap();
                for m in ["7,7", "0,0", "8,7", "0,2", "9,7", "0,4", "10,7", "14,14"] {
                    let (x, y) = m.split_once(',').unwrap();
                    b.make(Pos::new(x.parse().unwrap(), y.parse().unwrap()));
                }
                let r = search_with(
                    &mut s,
                    &mut nets,
                    &b,
                    &Limits {
                        max_depth: Some(3),
                        ..Limits::default()
                    },
                );
                assert!(
                    [Pos::new(6, 7), Pos::new(11, 7)].contains(&r.best),
                    "{:?}",
                    r.best
                );
                assert!(r.score >= MATE_BOUND);
            }
        }
    }

    #[test]
    fn the_policy_prunes_and_reduces_only_with_the_network() {
        let limits = Limits {
            max_depth: Some(7),
            ..Limits::default()
        };
        let mut b = Board::square(15, Rule::Freestyle).unwrap();
        for p in [(7, 7), (8, 8), (7, 8), (6, 6), (9, 6), (8, 9)] {
            b.make(Pos::new(p.0, p.1));
        }
        let run = |spec: &str, b: &Board| {
            let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
            s.params.apply(spec).unwrap();
            let r = search_with(&mut s, &mut Networks::built_in(), b, &limits);
            (r.best, r.score, r.nodes)
        };
        // Without the network there is no policy: the settings change nothing.
        assert_eq!(
            run("use_net=0,policy_prune=5,policy_reduce=5", &b),
            run("use_net=0", &b)
        );
        // With it, moves the policy dislikes are skipped or searched shallower.
        let plain = run("use_net=1", &b).2;
        let pruned = run("use_net=1,policy_prune=10,policy_prune_depth=6", &b).2;
        let reduced = run("use_net=1,policy_reduce=5", &b).2;
        assert!(pruned < plain, "{pruned} {plain}");
        assert!(reduced < plain, "{reduced} {plain}");
        // The tactics stay: an open four is played to its five.
        let mut f = Board::square(15, Rule::Freestyle).unwrap();
        for m in [
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 2),
            (9, 7),
            (0, 4),
            (10, 7),
            (14, 14),
        ] {
            f.make(Pos::new(m.0, m.1));
        }
        let (best, score, _) = run("use_net=1,policy_prune=1,policy_prune_depth=32", &f);
        assert!(
            [Pos::new(6, 7), Pos::new(11, 7)].contains(&best),
            "{best:?}"
        );
        assert!(score >= MATE_BOUND);
    }

    #[test]
    fn rules_without_a_network_and_use_net_0_keep_the_classical_search() {
        let limits = Limits {
            max_depth: Some(6),
            ..Limits::default()
        };
        let mut b = Board::square(15, Rule::Caro).unwrap();
        for p in [(7, 7), (8, 8), (7, 8), (6, 6)] {
            b.make(Pos::new(p.0, p.1));
        }
        let classical = |b: &Board| {
            let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
            s.params = Params::classical();
            let r = search_with(&mut s, &mut Networks::built_in(), b, &limits);
            (r.best, r.score, r.nodes)
        };
        // A freestyle network does not play caro.
        let (mut s, mut nets) = searcher_with(random_net(Rule::Freestyle, 3), "use_net=1");
        let r = search_with(&mut s, &mut nets, &b, &limits);
        assert!(!s.evaluation().uses_net());
        assert_eq!((r.best, r.score, r.nodes), classical(&b));
        // use_net=0 leaves a freestyle search as it was.
        let mut f = Board::square(15, Rule::Freestyle).unwrap();
        for p in [(7, 7), (8, 8), (7, 8), (6, 6)] {
            f.make(Pos::new(p.0, p.1));
        }
        let (mut s, mut nets) = searcher_with(random_net(Rule::Freestyle, 3), "use_net=0");
        let r = search_with(&mut s, &mut nets, &f, &limits);
        assert!(!s.evaluation().uses_net());
        assert_eq!((r.best, r.score, r.nodes), classical(&f));
    }

    #[test]
    fn by_default_the_network_plays_only_where_it_won_its_match() {
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        // Freestyle, renju and exact five on 15x15 and freestyle on 20x20
        // (nn::net::DEFAULT_ON) with the built-in networks; freestyle 19x19 and renju
        // 13x13 with the classical search, though networks play them.
        for (rule, size, on) in [
            (Rule::Freestyle, 15, true),
            (Rule::Freestyle, 20, true),
            (Rule::Freestyle, 19, false),
            (Rule::Renju, 15, true),
            (Rule::Exact, 15, true),
            (Rule::Renju, 13, false),
        ] {
            let mut b = Board::square(size, rule).unwrap();
            b.make(Pos::new(7, 7));
            let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
            let mut nets = Networks::built_in();
            assert_eq!(s.params.use_net, -1);
            search_with(&mut s, &mut nets, &b, &limits);
            assert_eq!(s.evaluation().uses_net(), on, "{rule:?} {size}");
            // use_net=1 turns it on everywhere a network plays.
            s.params.use_net = 1;
            search_with(&mut s, &mut nets, &b, &limits);
            assert!(s.evaluation().uses_net(), "{rule:?} {size}");
        }
    }

    #[test]
    fn late_move_reductions_follow_ln_depth_times_ln_move_over_two() {
        // round(ln d * ln n / 2), from the table and beyond it alike.
        assert_eq!(lmr_reduction(3, 2), 0); // 0.38
        assert_eq!(lmr_reduction(14, 2), 1); // 0.91
        assert_eq!(lmr_reduction(14, 5), 2); // 2.12
        assert_eq!(lmr_reduction(20, 32), 5); // 5.18
        assert_eq!(lmr_reduction(100, 200), 12); // 12.2, outside the table
        for d in 1..80 {
            for n in 1..200 {
                let want = ((d as f64).ln() * (n as f64).ln() / 2.0).round() as i32;
                assert_eq!(lmr_reduction(d, n), want, "depth {d}, move {n}");
            }
        }
    }
}
