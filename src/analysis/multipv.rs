//! Several positions searched side by side, built on [`Engine`] without touching the
//! search itself.
//!
//! [`deepen`] takes a list of positions and searches all of them to depth 0 (the static
//! evaluation), then 1, 2, … (each with [`Engine::think`] and a fixed depth) until the
//! time, node or depth limit or a raised stop token stops it. A depth counts only once every
//! position still in the race has completed it, so the scores it returns were all
//! computed to the same depth and can be compared.
//!
//! [`best_lines`] uses it for multi-line analysis, the one implementation behind the
//! protocol's `YXNBEST`, root-move exclusion (`YXBLOCK`, continuous-game marks) and
//! `pbrain-fivefold analyse`: the candidate moves are made on copies of the board and the
//! positions after them are searched; a move's score is the negated score of the
//! position it leads to. The Swap2 opening decisions ([`crate::analysis::swap2`]) use
//! it to compare candidate openings.

use crate::core::board::Board;
use crate::core::eval;
use crate::core::time::Instant;
use crate::core::types::{is_mate, mate_in, mated_in, Pos, Score, MATE_BOUND};
use crate::engine::movegen::{self, ScoredMove, Situation};
use crate::engine::restrict::Restrictions;
use crate::engine::search::{Limits, MAX_DEPTH};
use crate::engine::time::Budget;
use crate::engine::{Engine, StopToken};
use std::time::Duration;

/// Result of one position for its side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: Score,
    /// Depth of the search that gave the score (0: static evaluation or a final position).
    pub depth: i32,
    pub seldepth: i32,
    /// Best line from the position (empty when only statically evaluated).
    pub pv: Vec<Pos>,
    /// The game is decided here without search (five made, board full, no legal move):
    /// deeper searches cannot change the score.
    pub terminal: bool,
}

/// Evaluations after a depth, passed to the progress callback.
pub struct Round<'a> {
    pub depth: i32,
    pub evals: &'a [Eval],
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Score of the position before a move, from the score of the position after it (seen by
/// the other side): negated, and a mate is one ply further away.
pub fn parent_score(child: Score) -> Score {
    let s = -child;
    if s >= MATE_BOUND {
        s - 1
    } else if s <= -MATE_BOUND {
        s + 1
    } else {
        s
    }
}

/// Depth-0 evaluation: final positions get their exact score, others the static evaluation.
pub fn static_eval(b: &Board) -> Eval {
    static_eval_under(b, &Restrictions::default())
}

/// [`static_eval`] under restrictions ([`crate::engine::restrict`]): a five the side to
/// move may not play is no win on sight (the position is left to the search).
fn static_eval_under(b: &Board, restrict: &Restrictions) -> Eval {
    let done = |score| Eval {
        score,
        depth: 0,
        seldepth: 0,
        pv: Vec::new(),
        terminal: true,
    };
    if b.last_move_won() {
        // The side to move faces a five already made.
        return done(mated_in(0));
    }
    if b.is_full() {
        return done(0);
    }
    let mut copy = b.clone();
    let mut moves: Vec<ScoredMove> = Vec::new();
    let situation = movegen::generate(&mut copy, &mut moves);
    if moves.is_empty() {
        // No legal move (renju black can only block on a foul): as the search scores it.
        return done(match situation {
            Situation::BlockFour => mated_in(2),
            Situation::DefendThree => mated_in(4),
            _ => 0,
        });
    }
    if situation == Situation::Win && restrict.allows(b, moves[0].pos) {
        return Eval {
            score: mate_in(1),
            depth: 0,
            seldepth: 1,
            pv: vec![moves[0].pos],
            terminal: true,
        };
    }
    Eval {
        score: eval::evaluate(b),
        depth: 0,
        seldepth: 0,
        pv: Vec::new(),
        terminal: false,
    }
}

/// How far [`deepen`] takes its positions.
pub struct Race<'a> {
    /// Deepest depth searched (0 = static evaluation only).
    pub max_depth: i32,
    /// After each completed depth only the `keep` positions with the highest `rank` stay in
    /// the race (the others keep their last result).
    pub keep: usize,
    pub rank: &'a dyn Fn(&Eval) -> i64,
}

/// Searches `boards` to a common depth, deepening all of them together as `race` says.
/// Time and node limits come from `limits` (its `max_depth` is ignored): no new depth
/// starts once the soft time target is spent, and a search in progress stops at the hard
/// limit. Returns the evaluations and the number of nodes searched.
pub fn deepen(
    engine: &mut Engine,
    boards: &[Board],
    race: &Race,
    limits: &Limits,
    stop: &StopToken,
    on_round: &mut dyn FnMut(&Round),
) -> (Vec<Eval>, u64) {
    let Race {
        max_depth,
        keep,
        rank,
    } = *race;
    let start = Instant::now();
    let mut evals: Vec<Eval> = boards
        .iter()
        .map(|b| static_eval_under(b, engine.restrictions()))
        .collect();
    let mut nodes = 0u64;
    on_round(&Round {
        depth: 0,
        evals: &evals,
        nodes,
        elapsed: start.elapsed(),
    });
    let mut racing: Vec<usize> = (0..boards.len()).filter(|&i| !evals[i].terminal).collect();
    let max_depth = max_depth.clamp(0, MAX_DEPTH - 1);
    for depth in 1..=max_depth {
        if depth > 1 {
            prune(&mut racing, &evals, keep, rank);
        }
        // Proven results do not change with depth.
        racing.retain(|&i| !is_mate(evals[i].score));
        if racing.is_empty() || stop.is_raised() {
            break;
        }
        if let Some(b) = limits.budget {
            if depth > 1 && start.elapsed() >= b.soft {
                break;
            }
        }
        let mut round: Vec<(usize, Eval)> = Vec::with_capacity(racing.len());
        let mut complete = true;
        // Like the search itself, the first depth is completed whatever the clock says
        // (each position's search of it is short); the node limit holds from the start,
        // since a wide first depth on a big board can take hundreds of times a small
        // `max_node`: the positions not reached keep their static evaluation.
        let over = |nodes: u64| {
            limits.max_nodes.is_some_and(|n| nodes >= n)
                || (depth > 1 && limits.budget.is_some_and(|b| start.elapsed() >= b.hard))
        };
        for &i in &racing {
            if stop.is_raised() || over(nodes) {
                complete = false;
                break;
            }
            let child_limits = if depth == 1 {
                Limits {
                    max_depth: Some(1),
                    max_nodes: limits.max_nodes.map(|n| n.saturating_sub(nodes).max(1)),
                    skip_threats: true,
                    ..Limits::default()
                }
            } else {
                let left = limits
                    .budget
                    .map(|b| b.hard.saturating_sub(start.elapsed()));
                Limits {
                    max_depth: Some(depth),
                    max_nodes: limits.max_nodes.map(|n| n.saturating_sub(nodes).max(1)),
                    budget: left.map(|left| Budget {
                        soft: left,
                        hard: left,
                    }),
                    skip_threats: true,
                }
            };
            let r = engine.think(&boards[i], &child_limits, stop, &mut |_| {});
            nodes += r.nodes;
            let out_of_budget = stop.is_raised() || over(nodes);
            // A proven mate ends the search before the depth is reached.
            let finished = r.depth >= depth || (is_mate(r.score) && r.depth > 0);
            if !finished {
                complete = false;
                break;
            }
            let mut pv = r.pv.clone();
            if pv.is_empty() && !r.best.is_none() {
                pv.push(r.best);
            }
            round.push((
                i,
                Eval {
                    score: r.score,
                    depth,
                    seldepth: r.seldepth.max(depth),
                    pv,
                    terminal: false,
                },
            ));
            if out_of_budget {
                // This position finished, but the others cannot: the depth is incomplete.
                complete = round.len() == racing.len();
                break;
            }
        }
        if !complete {
            if depth == 1 {
                // Out of nodes in the first depth: the positions searched keep what
                // they found, the others their static evaluation.
                for (i, e) in round {
                    evals[i] = e;
                }
            }
            break;
        }
        for (i, e) in round {
            evals[i] = e;
        }
        on_round(&Round {
            depth,
            evals: &evals,
            nodes,
            elapsed: start.elapsed(),
        });
        if limits.max_nodes.is_some_and(|n| nodes >= n) {
            break;
        }
    }
    (evals, nodes)
}

/// Whether an evaluation is final: deeper searches would not change it.
fn is_exact(e: &Eval) -> bool {
    e.terminal || is_mate(e.score)
}

/// The depth to rank an evaluation by when the deepest one in the list is `deepest`:
/// positions dropped from the race keep the depth they reached, but exact results count
/// as deep as the deepest.
pub fn effective_depth(e: &Eval, deepest: i32) -> i32 {
    if is_exact(e) {
        deepest
    } else {
        e.depth
    }
}

/// Keeps the `keep` best positions by `rank` (stable: ties keep their order).
fn prune(racing: &mut Vec<usize>, evals: &[Eval], keep: usize, rank: &dyn Fn(&Eval) -> i64) {
    if racing.len() <= keep {
        return;
    }
    racing.sort_by_key(|&i| std::cmp::Reverse(rank(&evals[i])));
    racing.truncate(keep.max(1));
    racing.sort_unstable();
}

/// One line of a multi-line analysis: a root move, its score and the line after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Pos,
    pub score: Score,
    /// Depth from the root (the move itself counts one).
    pub depth: i32,
    pub seldepth: i32,
    /// The move followed by the best line after it.
    pub pv: Vec<Pos>,
}

/// How many squares [`candidates`] offers when the move generator offers none.
const FALLBACK_SQUARES: usize = 40;

/// The root moves worth considering for the side to move, best first, leaving out
/// `exclude`: the move generator's list, or, if that is empty after exclusion, every legal
/// empty square (those near stones and the centre first, at most 40).
pub fn candidates(board: &Board, exclude: &[Pos]) -> Vec<Pos> {
    candidates_at_least(board, exclude, 1)
}

/// [`candidates`], widened to `at_least` moves when the move generator offers fewer (it
/// leaves out moves that lose at once to a four or an open three): the other legal empty
/// squares follow in the same order as [`candidates`]' fallback. An empty generator list
/// is widened to `max(at_least, 40)` squares, as in [`candidates`].
pub fn candidates_at_least(board: &Board, exclude: &[Pos], at_least: usize) -> Vec<Pos> {
    let mut b = board.clone();
    let mut moves: Vec<ScoredMove> = Vec::new();
    movegen::generate(&mut b, &mut moves);
    let mut list: Vec<Pos> = moves
        .iter()
        .map(|m| m.pos)
        .filter(|p| !exclude.contains(p))
        .collect();
    if list.len() >= at_least.max(1) {
        return list;
    }
    let room = if list.is_empty() {
        FALLBACK_SQUARES.max(at_least)
    } else {
        at_least - list.len()
    };
    let me = b.side_to_move();
    let centre = b.center();
    let squares: Vec<Pos> = b
        .squares()
        .filter(|&p| b.is_empty(p) && !exclude.contains(&p) && !list.contains(&p))
        .collect();
    let mut scored: Vec<(i32, usize, Pos)> = Vec::new();
    for p in squares {
        if movegen::legal_for(&mut b, p, me) {
            let dist = p.x().abs_diff(centre.x()).max(p.y().abs_diff(centre.y()));
            let near = i32::from(b.near(p)) * 1000;
            scored.push((movegen::order_score(&b, p, me) + near, dist, p));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    list.extend(scored.into_iter().take(room).map(|(_, _, p)| p));
    list
}

/// What a multi-line analysis is asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Want<'a> {
    /// How many lines (root moves) to list.
    pub n: usize,
    /// Root moves never to list (`YXBLOCK`, continuous-game marks).
    pub exclude: &'a [Pos],
    /// List `n` moves even where the move generator offers fewer, widening its list with
    /// [`candidates_at_least`] (`analyse` does; the protocol lists what the generator
    /// offers).
    pub widen: bool,
}

/// The lines of a multi-line analysis, after a depth and at the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    /// Best first, at most the number asked for.
    pub lines: Vec<Line>,
    /// The deepest depth every line still in the race completed, from the root (1: only
    /// the static evaluation of the positions after the moves; 0: nothing to search).
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// How many root moves the first depth searched.
    pub considered: usize,
}

/// The `want.n` best root moves of the side to move (fewer if there are fewer
/// candidates), best first, leaving out `want.exclude`. `limits.max_depth` bounds the
/// depth from the root; time, node and abort limits work as in [`deepen`], whose first
/// depth completes whatever the clock says (a node limit can cut it short). `report` receives the lines after every completed depth from
/// 2 on.
pub fn best_lines(
    engine: &mut Engine,
    board: &Board,
    want: &Want,
    limits: &Limits,
    stop: &StopToken,
    report: &mut dyn FnMut(&Lines),
) -> Lines {
    let start = Instant::now();
    let n = want.n;
    let moves = if want.widen {
        candidates_at_least(board, want.exclude, n)
    } else {
        candidates(board, want.exclude)
    };
    if moves.is_empty() || n == 0 {
        return Lines::default();
    }
    let children: Vec<Board> = moves
        .iter()
        .map(|&m| {
            let mut b = board.clone();
            b.make(m);
            b
        })
        .collect();
    let to_lines = |evals: &[Eval]| -> Vec<Line> {
        let deepest = evals.iter().map(|e| e.depth).max().unwrap_or(0);
        let mut lines: Vec<(i32, Line)> = moves
            .iter()
            .zip(evals)
            .map(|(&m, e)| {
                let mut pv = vec![m];
                pv.extend_from_slice(&e.pv);
                let line = Line {
                    mv: m,
                    score: parent_score(e.score),
                    depth: e.depth + 1,
                    seldepth: e.seldepth + 1,
                    pv,
                };
                (effective_depth(e, deepest), line)
            })
            .collect();
        // Moves dropped from the race early were worse at that depth than those searched
        // deeper, so results of the full depth (and exact ones) come first, then by score;
        // ties keep the generator's order.
        lines.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.score.cmp(&a.1.score)));
        lines.truncate(n);
        lines.into_iter().map(|(_, l)| l).collect()
    };
    let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) - 1;
    let keep = (2 * n).max(n + 8);
    let race = Race {
        max_depth,
        keep,
        rank: &|e: &Eval| -(e.score as i64),
    };
    let mut depth = 0;
    let (evals, nodes) = deepen(
        engine,
        &children,
        &race,
        limits,
        stop,
        &mut |round: &Round| {
            depth = round.depth + 1;
            if round.depth > 0 {
                report(&Lines {
                    lines: to_lines(round.evals),
                    depth,
                    nodes: round.nodes,
                    elapsed: round.elapsed,
                    considered: moves.len(),
                });
            }
        },
    );
    Lines {
        lines: to_lines(&evals),
        depth,
        nodes,
        elapsed: start.elapsed(),
        considered: moves.len(),
    }
}

/// [`best_lines`], reporting the lines after every depth and the final lines too where no
/// depth was reported with them (a position decided at the first depth, or a search
/// stopped after it), so that the last lines reported are the answer's.
pub fn best_lines_reported(
    engine: &mut Engine,
    board: &Board,
    want: &Want,
    limits: &Limits,
    stop: &StopToken,
    report: &mut dyn FnMut(&Lines),
) -> Lines {
    let mut last: Option<Vec<Line>> = None;
    let lines = best_lines(engine, board, want, limits, stop, &mut |l| {
        report(l);
        last = Some(l.lines.clone());
    });
    if !lines.lines.is_empty() && last.as_ref() != Some(&lines.lines) {
        report(&lines);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{Rule, MATE};

    fn board(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn parent_scores() {
        assert_eq!(parent_score(35), -35);
        assert_eq!(parent_score(mated_in(0)), mate_in(1));
        assert_eq!(parent_score(mate_in(3)), mated_in(4));
        assert_eq!(parent_score(MATE - 5), -(MATE - 6));
    }

    #[test]
    fn winning_move_is_first_line() {
        // Black has four in a row with both ends open; white played elsewhere.
        let b = board(&[
            (3, 7),
            (3, 0),
            (4, 7),
            (4, 0),
            (5, 7),
            (5, 0),
            (6, 7),
            (9, 9),
        ]);
        let mut e = Engine::new(1 << 20);
        let stop = StopToken::new();
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let want = Want {
            n: 3,
            ..Want::default()
        };
        let lines = best_lines(&mut e, &b, &want, &limits, &stop, &mut |_| {}).lines;
        assert!(!lines.is_empty());
        assert_eq!(lines[0].score, mate_in(1));
        assert!(lines[0].mv == Pos::new(2, 7) || lines[0].mv == Pos::new(7, 7));
        // Excluding both winning squares leaves other moves, never the excluded ones.
        let ex = [Pos::new(2, 7), Pos::new(7, 7)];
        let want = Want {
            n: 3,
            exclude: &ex,
            widen: false,
        };
        let lines = best_lines(&mut e, &b, &want, &limits, &stop, &mut |_| {}).lines;
        assert!(!lines.is_empty());
        assert!(lines.iter().all(|l| !ex.contains(&l.mv)));
    }

    #[test]
    fn a_node_limit_holds_in_the_first_depth() {
        // Scattered stones: many candidate moves, each searched to depth 1 at the first
        // depth. Unlimited, that first depth costs many times a small node limit.
        let b = board(&[
            (7, 7),
            (3, 3),
            (11, 11),
            (3, 11),
            (11, 3),
            (7, 2),
            (2, 7),
            (12, 7),
            (7, 12),
        ]);
        let want = Want {
            n: 1,
            ..Want::default()
        };
        let run = |max_nodes: Option<u64>| {
            let mut e = Engine::new(1 << 20);
            let limits = Limits {
                max_depth: Some(2),
                max_nodes,
                ..Limits::default()
            };
            best_lines(&mut e, &b, &want, &limits, &StopToken::new(), &mut |_| {})
        };
        let full = run(None);
        let limited = run(Some(100));
        assert!(full.considered > 10, "{}", full.considered);
        assert!(full.nodes > 1_000, "{}", full.nodes);
        // The limit stops the first depth after the search that reaches it.
        assert!(
            limited.nodes < full.nodes / 4,
            "{} of {}",
            limited.nodes,
            full.nodes
        );
        let mv = limited.lines[0].mv;
        assert!(b.is_empty(mv) && !full.lines.is_empty());
    }

    #[test]
    fn lines_are_distinct_sorted_and_at_one_depth() {
        let b = board(&[(7, 7), (8, 8), (8, 6)]);
        let mut e = Engine::new(1 << 20);
        let stop = StopToken::new();
        let limits = Limits {
            max_depth: Some(3),
            ..Limits::default()
        };
        let mut rounds = 0;
        let want = Want {
            n: 4,
            ..Want::default()
        };
        let result = best_lines(&mut e, &b, &want, &limits, &stop, &mut |l| {
            rounds += 1;
            assert!(l.lines.len() <= 4);
            assert_eq!(l.depth, rounds + 1);
        });
        assert_eq!(result.depth, 3);
        let lines = result.lines;
        assert_eq!(lines.len(), 4);
        assert_eq!(rounds, 2);
        for w in lines.windows(2) {
            assert!(w[0].score >= w[1].score);
            assert_ne!(w[0].mv, w[1].mv);
        }
        assert!(lines
            .iter()
            .all(|l| l.depth == 3 && l.pv[0] == l.mv && b.is_empty(l.mv)));
    }

    #[test]
    fn widened_lists_are_as_long_as_asked() {
        // The empty board: the generator offers the centre only.
        let b = board(&[]);
        assert!(candidates(&b, &[]).len() < 3);
        let wide = candidates_at_least(&b, &[], 3);
        assert_eq!(wide.len(), 3);
        assert_eq!(wide[0], b.center());
        let mut e = Engine::new(1 << 20);
        let stop = StopToken::new();
        let limits = Limits {
            max_depth: Some(2),
            ..Limits::default()
        };
        let want = Want {
            n: 3,
            exclude: &[],
            widen: true,
        };
        let result = best_lines(&mut e, &b, &want, &limits, &stop, &mut |_| {});
        assert_eq!(result.lines.len(), 3);
        assert_eq!(result.considered, 3);
    }

    #[test]
    fn abort_returns_static_results() {
        let b = board(&[(7, 7), (8, 8)]);
        let mut e = Engine::new(1 << 20);
        let stop = StopToken::new();
        stop.raise();
        let want = Want {
            n: 2,
            ..Want::default()
        };
        let result = best_lines(&mut e, &b, &want, &Limits::default(), &stop, &mut |_| {});
        assert_eq!(result.depth, 1);
        let lines = result.lines;
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.depth == 1));
    }
}
