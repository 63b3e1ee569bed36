//! The main search: iterative deepening with aspiration windows over a principal
//! variation search (negamax with null-window re-searches), a shared transposition
//! table, threat-aware move generation ([`crate::movegen`]), killer and history move
//! ordering and late-move reductions.
//!
//! Scores are from the side to move; a five `n` plies from the root scores
//! `MATE - n` (see [`crate::types`]). The search stops when the stop flag is raised,
//! the hard time limit passes or the node limit is reached; it always has a move to
//! answer with, because the root moves are ordered before the first iteration.

use crate::board::Board;
use crate::eval;
use crate::movegen::{self, ScoredMove, Situation};
use crate::pattern::Threat;
use crate::time::{self, Budget};
use crate::tt::{score_from_tt, score_to_tt, Bound, Tt};
use crate::types::{is_mate, mate_in, mated_in, Pos, Score, CELLS, INF, MATE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Deepest nominal depth iterative deepening starts.
pub const MAX_DEPTH: i32 = 100;

/// What limits one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub max_depth: Option<i32>,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Soft target and hard limit for the time.
    pub budget: Option<Budget>,
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

/// One search thread's state. Several can share a table and a stop flag.
pub struct Searcher {
    tt: Arc<Tt>,
    stop: Arc<AtomicBool>,
    nodes: u64,
    start: Instant,
    hard: Option<Duration>,
    max_nodes: u64,
    /// Set when any stop condition fired; every node returns at once after that.
    stopped: bool,
    /// Checks of time and node limits are skipped until the first depth completes.
    can_stop: bool,
    killers: Vec<[Pos; 2]>,
    history: Vec<[i32; 2]>,
    buffers: Vec<Vec<ScoredMove>>,
    pv: Vec<Vec<Pos>>,
    seldepth: i32,
}

impl Searcher {
    pub fn new(tt: Arc<Tt>, stop: Arc<AtomicBool>) -> Searcher {
        Searcher {
            tt,
            stop,
            nodes: 0,
            start: Instant::now(),
            hard: None,
            max_nodes: u64::MAX,
            stopped: false,
            can_stop: false,
            killers: vec![[Pos::NONE; 2]; MAX_PLY + 2],
            history: vec![[0; 2]; CELLS],
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            seldepth: 0,
        }
    }

    /// The shared table.
    pub fn tt(&self) -> &Arc<Tt> {
        &self.tt
    }

    /// Forgets move-ordering statistics (killers and history).
    pub fn clear_history(&mut self) {
        for k in &mut self.killers {
            *k = [Pos::NONE; 2];
        }
        for h in &mut self.history {
            *h = [0; 2];
        }
    }

    /// Searches `board` for the side to move; `report` receives progress after each depth.
    pub fn search(&mut self, board: &Board, limits: &Limits, report: &mut dyn FnMut(&Info)) -> SearchResult {
        let mut b = board.clone();
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.can_stop = false;
        self.hard = limits.budget.map(|bu| bu.hard);
        self.max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        self.seldepth = 0;
        for k in &mut self.killers {
            *k = [Pos::NONE; 2];
        }
        for h in &mut self.history {
            h[0] /= 8;
            h[1] /= 8;
        }
        self.tt.new_search();

        let mut root: Vec<ScoredMove> = Vec::new();
        let situation = movegen::generate(&mut b, &mut root);
        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best: root.first().map_or(Pos::NONE, |m| m.pos),
            score: eval::evaluate(&b),
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
        // A single legal reply needs no thought when the clock is running.
        if root.len() == 1 && limits.budget.is_some() && limits.max_depth.is_none() {
            result.depth = 1;
            report(&self.info(&result));
            return result;
        }

        let mut prev_score = 0;
        let mut stable = 0u32;
        let mut last_best = Pos::NONE;
        for depth in 1..=max_depth {
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 4 && !is_mate(prev_score) {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INF, INF)
            };
            let mut iteration: Option<(Score, Vec<Pos>)> = None;
            loop {
                let (score, best_pv) = self.root_search(&mut b, &mut root, depth, alpha, beta);
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
                    result.depth = depth;
                    result.seldepth = self.seldepth;
                    if result.best == last_best {
                        stable += 1;
                    } else {
                        stable = 0;
                    }
                    last_best = result.best;
                    prev_score = score;
                    result.nodes = self.nodes;
                    result.elapsed = self.start.elapsed();
                    if completed {
                        report(&self.info(&result));
                    }
                    if let Some(bu) = limits.budget {
                        if completed && self.start.elapsed() >= time::scale_soft(&bu, stable, drop) {
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
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result
    }

    fn info(&self, r: &SearchResult) -> Info {
        Info {
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            pv: r.pv.clone(),
        }
    }

    /// Searches every root move; returns the best score and its PV (if any move was
    /// searched completely with a score above alpha). Root moves are re-sorted so the
    /// best comes first.
    fn root_search(
        &mut self,
        b: &mut Board,
        root: &mut [ScoredMove],
        depth: i32,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Option<Vec<Pos>>) {
        let mut best = -INF;
        let mut best_pv: Option<Vec<Pos>> = None;
        let mut best_idx = 0;
        for i in 0..root.len() {
            let m = root[i].pos;
            b.make(m);
            let mut score;
            if i == 0 {
                score = -self.pvs(b, -beta, -alpha, depth - 1, 1, true);
            } else {
                score = -self.pvs(b, -alpha - 1, -alpha, depth - 1, 1, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(b, -beta, -alpha, depth - 1, 1, true);
                }
            }
            b.unmake();
            if self.stopped {
                break;
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
        if self.stop.load(Ordering::Relaxed) {
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

    fn pvs(&mut self, b: &mut Board, mut alpha: Score, mut beta: Score, depth: i32, ply: usize, pv_node: bool) -> Score {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        let me = b.side_to_move();
        let opp = me.opp();
        let ply_i = ply as i32;
        if b.count(me, Threat::Five) > 0 {
            return mate_in(ply_i + 1);
        }
        if b.is_full() {
            return 0;
        }
        let opp_fives = b.count(opp, Threat::Five);
        if opp_fives == 0 && b.count(me, Threat::OpenFour) > 0 {
            return mate_in(ply_i + 3);
        }
        if opp_fives >= 2 {
            return mated_in(ply_i + 2);
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(b);
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply_i));
        beta = beta.min(mate_in(ply_i + 1));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 && opp_fives == 0 {
            return eval::evaluate(b);
        }

        let key = b.hash();
        let mut tt_move = Pos::NONE;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            let s = score_from_tt(e.score, ply_i);
            if !pv_node && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let situation = movegen::generate(b, &mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return match situation {
                Situation::BlockFour => mated_in(ply_i + 2),
                Situation::DefendThree => mated_in(ply_i + 4),
                _ => 0,
            };
        }
        // Table move first, then killers.
        if situation == Situation::Quiet || situation == Situation::DefendThree {
            let killers = self.killers[ply];
            for m in moves.iter_mut() {
                if m.pos == tt_move {
                    m.score = i32::MAX;
                } else if m.pos == killers[0] {
                    m.score += 3000;
                } else if m.pos == killers[1] {
                    m.score += 2000;
                }
                // Saturating: the table move's i32::MAX must stay first, not wrap around.
                m.score = m.score.saturating_add(self.history[m.pos.idx()][me.index()] / 16);
            }
            movegen::sort(&mut moves);
        } else if let Some(i) = moves.iter().position(|m| m.pos == tt_move) {
            moves[..=i].rotate_right(1);
        }

        // A forced reply does not use up depth.
        let ext = i32::from(situation == Situation::BlockFour);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        for i in 0..moves.len() {
            let m = moves[i];
            let my_threat = b.threat(m.pos, me);
            let their_threat = b.threat(m.pos, opp);
            let quiet = situation == Situation::Quiet
                && m.pos != tt_move
                && my_threat < Threat::OpenThree
                && their_threat < Threat::OpenThree;
            let mut r = 0;
            if depth >= 3 && i >= 3 && quiet {
                r = 1 + i32::from(i >= 10) + i32::from(depth >= 8 && i >= 20);
            }
            let new_depth = depth - 1 + ext;
            b.make(m.pos);
            let mut score;
            if i == 0 {
                score = -self.pvs(b, -beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                score = -self.pvs(b, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.pvs(b, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.pvs(b, -beta, -alpha, new_depth, ply + 1, true);
                }
            }
            b.unmake();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.pos;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m.pos);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m.pos {
                                k[1] = k[0];
                                k[0] = m.pos;
                            }
                            let h = &mut self.history[m.pos.idx()][me.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply_i), depth, bound);
        best
    }
}

/// Convenience: searches a position with a fresh table of `hash_mb` megabytes.
pub fn search_position(board: &Board, limits: &Limits, hash_mb: usize) -> SearchResult {
    let tt = Arc::new(Tt::new(hash_mb << 20));
    let mut s = Searcher::new(tt, Arc::new(AtomicBool::new(false)));
    s.search(board, limits, &mut |_| {})
}
