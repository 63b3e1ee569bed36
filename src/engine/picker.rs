//! Move ordering for the main search, in one place: the statistics it learns from
//! cut-offs ([`OrderingStats`]: killers per ply, history per square and colour) and the
//! [`MovePicker`] that hands a node its moves best first.
//!
//! A node's moves come from [`movegen::generate_unsorted`], each with a shape score
//! ([`movegen::order_score`]: both colours' threats and line values at the square). The
//! picker ranks them:
//!
//! 1. the table move, whatever kind of node;
//! 2. in a quiet node or one that answers an open three: the shape score, plus
//!    [`KILLER_BONUS`] for the ply's first or second killer, plus the history score
//!    divided by [`HISTORY_DIVISOR`], plus the network's policy where it is on (computed
//!    only once the table move, if there is one, has been handed out);
//! 3. in a node that must block a four: the shape score alone.
//!
//! Equal ranks go to the lower square index, so the order never depends on how the
//! moves happened to be generated or sorted. The picker selects one move at a time
//! (most nodes cut off after a few moves, so a full sort would be wasted).

use crate::core::board::Board;
use crate::core::types::{Color, Pos, CELLS};
use crate::engine::movegen::{self, ScoredMove, Situation};
use crate::nn::Evaluator;

/// Rank of the table move: above any shape, killer or history score.
const TT_MOVE_RANK: i32 = 1 << 30;
/// Ordering bonus of the ply's first and second killer in quiet nodes.
pub const KILLER_BONUS: [i32; 2] = [3000, 2000];
/// The history score counts this much less than the shape score in the ranking.
pub const HISTORY_DIVISOR: i32 = 16;
/// Ceiling of a history score (the sum of depth squared over the cut-offs).
const HISTORY_MAX: i32 = 1 << 20;
/// At the start of a search, history scores are divided by this (killers are forgotten).
const HISTORY_AGEING: i32 = 8;

/// What move ordering learns during a search: two killers per ply (the last two
/// different quiet moves that cut off there) and a history score per square and colour
/// (depth squared added at each quiet cut-off).
pub struct OrderingStats {
    killers: Vec<[Pos; 2]>,
    history: Vec<[i32; 2]>,
}

impl OrderingStats {
    /// Empty statistics for a search of at most `plies` plies.
    pub fn new(plies: usize) -> OrderingStats {
        OrderingStats {
            killers: vec![[Pos::NONE; 2]; plies],
            history: vec![[0; 2]; CELLS],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.killers.fill([Pos::NONE; 2]);
        self.history.fill([0; 2]);
    }

    /// Before a new search: the killers are forgotten, the history fades.
    pub fn age(&mut self) {
        self.killers.fill([Pos::NONE; 2]);
        for h in &mut self.history {
            h[0] /= HISTORY_AGEING;
            h[1] /= HISTORY_AGEING;
        }
    }

    /// The two killers at `ply` (`Pos::NONE` where there is none yet).
    pub fn killers(&self, ply: usize) -> [Pos; 2] {
        self.killers[ply]
    }

    /// A quiet move `p` of colour `c` cut off at `ply` in a search of `depth` plies.
    pub fn record_cutoff(&mut self, ply: usize, p: Pos, c: Color, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != p {
            k[1] = k[0];
            k[0] = p;
        }
        let h = &mut self.history[p.idx()][c.index()];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// Ordering bonus of a move in a quiet node: killer bonus and history.
    fn bonus(&self, killers: [Pos; 2], p: Pos, c: Color) -> i32 {
        let killer = if p == killers[0] {
            KILLER_BONUS[0]
        } else if p == killers[1] {
            KILLER_BONUS[1]
        } else {
            0
        };
        killer + self.history[p.idx()][c.index()] / HISTORY_DIVISOR
    }
}

/// A node's moves, handed out best first (see the module documentation for the order).
/// It owns the node's move buffer while it lives; [`MovePicker::into_buffer`] gives it
/// back for the next node at the same ply.
pub struct MovePicker {
    moves: Vec<ScoredMove>,
    situation: Situation,
    next: usize,
    /// The policy's weight while its ranking waits for the second move (see
    /// [`MovePicker::new`]).
    policy_pending: Option<i32>,
    /// The ply's killers when the node started (a singular-extension search of the same
    /// node may record new ones; this node keeps ranking and reducing by these).
    killers: [Pos; 2],
}

impl MovePicker {
    /// Generates and ranks the moves of the side to move at `ply` into `buffer`. With a
    /// network evaluator and a weight, quiet nodes and those that answer an open three
    /// add the network's policy: `weight` ordering units per logit, counted from the
    /// node's best logit (so the favourite gains nothing and the others lose).
    ///
    /// Where the table move is among the moves it goes first whatever the policy says,
    /// and it often ends the node, so the policy (a head evaluation, and a product per
    /// move) waits until the second move is asked for ([`MovePicker::next_move_with`]);
    /// the order is the one ranking everything at once would give.
    pub fn new(
        b: &mut Board,
        mut buffer: Vec<ScoredMove>,
        tt_move: Pos,
        ply: usize,
        stats: &OrderingStats,
        policy: Option<(&mut Evaluator, i32)>,
    ) -> MovePicker {
        let me = b.side_to_move();
        let killers = stats.killers(ply);
        let situation = movegen::generate_unsorted(b, &mut buffer);
        let mut policy_pending = None;
        if matches!(situation, Situation::Quiet | Situation::DefendThree) {
            let mut has_tt_move = false;
            for m in buffer.iter_mut() {
                if m.pos == tt_move {
                    m.score = TT_MOVE_RANK;
                    has_tt_move = true;
                } else {
                    m.score += stats.bonus(killers, m.pos, me);
                }
            }
            if let Some((e, weight)) = policy {
                if has_tt_move {
                    policy_pending = Some(weight);
                } else {
                    e.prepare_policy(b);
                    add_policy(b, e, weight, &mut buffer, 0);
                }
            }
        } else if let Some(m) = buffer.iter_mut().find(|m| m.pos == tt_move) {
            m.score = TT_MOVE_RANK;
        }
        MovePicker {
            moves: buffer,
            situation,
            next: 0,
            policy_pending,
            killers,
        }
    }

    /// What kind of node the generator found.
    pub fn situation(&self) -> Situation {
        self.situation
    }

    /// Whether the side to move has no move at all (lost, or a full board).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move and its number in the order (0 for the first), or `None` when all
    /// have been handed out.
    fn next_move(&mut self) -> Option<(usize, Pos)> {
        debug_assert!(self.policy_pending.is_none() || self.next == 0);
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        pick_best(&mut self.moves, i);
        self.next += 1;
        Some((i, self.moves[i].pos))
    }

    /// `MovePicker::next_move`, ranking the moves after the first by the policy of `b`
    /// (the node's position, as at [`MovePicker::new`]) if that was put off; `e` is the
    /// evaluator given to [`MovePicker::new`].
    pub fn next_move_with(&mut self, b: &Board, e: Option<&mut Evaluator>) -> Option<(usize, Pos)> {
        if self.next == 1 {
            if let (Some(weight), Some(e)) = (self.policy_pending.take(), e) {
                debug_assert_eq!(self.moves[0].score, TT_MOVE_RANK);
                e.prepare_policy(b);
                add_policy(b, e, weight, &mut self.moves, 1);
            }
        }
        self.next_move()
    }

    /// The policy gap ([`ScoredMove::policy_gap`]) of the `i`-th move handed out: how
    /// far, in tenths of a logit, the network's policy puts it below the node's favourite
    /// (0 where the node has no policy).
    pub fn policy_gap(&self, i: usize) -> i32 {
        self.moves.get(i).map_or(0, |m| i32::from(m.policy_gap))
    }

    /// Whether `p` was one of the ply's killers when the node started.
    pub fn is_killer(&self, p: Pos) -> bool {
        self.killers.contains(&p)
    }

    /// The move buffer, for reuse.
    pub fn into_buffer(self) -> Vec<ScoredMove> {
        self.moves
    }
}

/// Adds the policy's ordering bonus (see [`MovePicker::new`]) to the scores of
/// `moves[from..]`, if `e` holds the policy of `b`: each move's logit in ordering units,
/// less the best of all the moves'; and sets each move's [`ScoredMove::policy_gap`]
/// (below the best logit of all). The moves before `from` were handed out already.
fn add_policy(b: &Board, e: &Evaluator, weight: i32, moves: &mut [ScoredMove], from: usize) {
    if moves.is_empty() || !e.policy_ready(b) {
        return;
    }
    let view = b.side_to_move();
    let mut best = i32::MIN;
    let mut best_logit = i16::MIN;
    for (i, m) in moves.iter_mut().enumerate() {
        let logit = e.policy_logit(view, m.pos);
        let bonus = (logit * weight as f32) as i32;
        best = best.max(bonus);
        if i >= from {
            m.score += bonus;
        }
        // The logit in tenths for now, made the gap below the best in the second pass.
        m.policy_gap = (logit * 10.0).clamp(-16_000.0, 16_000.0) as i16;
        best_logit = best_logit.max(m.policy_gap);
    }
    for (i, m) in moves.iter_mut().enumerate() {
        if i >= from {
            m.score -= best;
        }
        m.policy_gap -= best_logit;
    }
}

/// Moves the best of `moves[i..]` (highest score, then lowest square index) to `i`.
#[inline]
fn pick_best(moves: &mut [ScoredMove], i: usize) {
    // Score and square folded into one number (higher is better: the score, then the
    // lower square), so the scan is one comparison per move, without branches.
    let rank = |m: &ScoredMove| (i64::from(m.score) << 16) | i64::from(u16::MAX - m.pos.0);
    if i >= moves.len() {
        return;
    }
    let mut best = (i64::MIN, 0);
    for (j, m) in moves[i..].iter().enumerate() {
        let r = rank(m);
        if r > best.0 {
            best = (r, j);
        }
    }
    moves.swap(i, i + best.1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    /// Picking the best move one at a time gives the order `movegen::sort` gives: the
    /// higher score first, equal scores by the lower square, negative and extreme scores
    /// too.
    #[test]
    fn pick_best_picks_in_sorted_order() {
        use crate::core::rng::{Rng, XorShift64};
        let mut rng = XorShift64::new(12345);
        let mut next = || (rng.next_u64() >> 33) as i32;
        for n in [1, 2, 7, 40, 120] {
            let mut moves: Vec<ScoredMove> = (0..n)
                .map(|i| ScoredMove {
                    pos: Pos::new(i % 15, i / 15),
                    policy_gap: 0,
                    score: match next() % 5 {
                        0 => -100_000,
                        1 => 1_000_000,
                        2 => 7,
                        _ => next() % 2000 - 1000,
                    },
                })
                .collect();
            // Shuffle so the input order says nothing.
            for i in (1..moves.len()).rev() {
                moves.swap(i, next() as usize % (i + 1));
            }
            let mut want = moves.clone();
            movegen::sort(&mut want);
            for i in 0..moves.len() {
                pick_best(&mut moves, i);
            }
            assert_eq!(moves, want);
        }
    }

    /// The table move comes first, then the killers ahead of equal shapes, and every move
    /// comes out once.
    #[test]
    fn table_move_then_killers_then_the_rest() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 7)] {
            b.make(Pos::new(x, y));
        }
        let mut all = Vec::new();
        movegen::generate(&mut b, &mut all);
        let tt_move = all.last().unwrap().pos;
        let killer = all[all.len() - 2].pos;
        let mut stats = OrderingStats::new(4);
        stats.record_cutoff(2, killer, b.side_to_move(), 1);
        assert_eq!(stats.killers(2), [killer, Pos::NONE]);
        let mut picker = MovePicker::new(&mut b, Vec::new(), tt_move, 2, &stats, None);
        assert!(picker.is_killer(killer));
        assert_eq!(picker.situation(), Situation::Quiet);
        let mut order = Vec::new();
        while let Some((i, p)) = picker.next_move() {
            assert_eq!(i, order.len());
            order.push(p);
        }
        assert_eq!(order[0], tt_move);
        let mut sorted = order.clone();
        sorted.sort();
        let mut want: Vec<Pos> = all.iter().map(|m| m.pos).collect();
        want.sort();
        assert_eq!(sorted, want);
        // Without its bonus the killer would come last (the table move, behind it in
        // shape, having moved to the front); the bonus moves it up.
        let at = order.iter().position(|&p| p == killer).unwrap();
        assert!(at < order.len() - 1, "killer at {at} of {}", order.len());
    }

    /// With a network's policy and a table move, the policy that waits for the second
    /// move gives the order of ranking everything at once (the table move first, then
    /// the shape, killer, history and policy scores), and the same policy gaps.
    #[test]
    fn the_policy_put_off_orders_as_ranking_at_once() {
        use crate::core::rng::{Rng, XorShift64};
        use crate::nn::eval::tests::{random_moves, random_net};
        use std::sync::Arc;
        let mut e = Evaluator::new(Arc::new(random_net(Rule::Freestyle, 21)));
        let mut rng = XorShift64::new(5);
        let mut stats = OrderingStats::new(4);
        let mut compared = 0;
        for _ in 0..40 {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            random_moves(&mut b, 2 + rng.below(20), &mut rng);
            let mut all = Vec::new();
            movegen::generate(&mut b, &mut all);
            if all.len() < 3 {
                continue;
            }
            let tt_move = all[rng.below(all.len())].pos;
            let me = b.side_to_move();
            stats.record_cutoff(
                2,
                all[rng.below(all.len())].pos,
                me,
                1 + rng.below(4) as i32,
            );
            // All at once: the policy first, then the table move's rank and the bonuses.
            let mut at_once = Vec::new();
            let situation = movegen::generate_unsorted(&mut b, &mut at_once);
            e.prepare_policy(&b);
            let policy_used = matches!(situation, Situation::Quiet | Situation::DefendThree);
            for m in at_once.iter_mut() {
                if m.pos == tt_move {
                    m.score = TT_MOVE_RANK;
                } else if policy_used {
                    m.score += stats.bonus(stats.killers(2), m.pos, me);
                }
            }
            if policy_used {
                add_policy(&b, &e, 400, &mut at_once, 0);
                if let Some(m) = at_once.iter_mut().find(|m| m.pos == tt_move) {
                    m.score = TT_MOVE_RANK;
                }
            }
            let mut want = Vec::new();
            for i in 0..at_once.len() {
                pick_best(&mut at_once, i);
                let m = at_once[i];
                want.push((m.pos, if m.pos == tt_move { 0 } else { m.policy_gap }));
            }
            // Put off: the evaluator last evaluated another position.
            let mut other = b.clone();
            other.unmake();
            e.evaluate(&other);
            let mut picker =
                MovePicker::new(&mut b, Vec::new(), tt_move, 2, &stats, Some((&mut e, 400)));
            let mut got = Vec::new();
            while let Some((i, p)) = picker.next_move_with(&b, Some(&mut e)) {
                let gap = if p == tt_move {
                    0
                } else {
                    picker.policy_gap(i) as i16
                };
                got.push((p, gap));
            }
            assert_eq!(got, want, "\n{}", b.to_diagram());
            compared += usize::from(policy_used);
        }
        assert!(compared > 20, "{compared}");
    }
}
