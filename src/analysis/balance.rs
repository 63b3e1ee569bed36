//! Yixin-Board's balance commands: the move (`YXBALANCEONE`) or the two moves, one for
//! each side (`YXBALANCETWO`), after which the position is closest to a wanted score
//! (0: even). This is how people prepare openings for rules such as Soosorv or
//! Taraguchi, where one player proposes a position and the other picks a colour.
//!
//! The wanted score (`bias`) is for the side to move when the command comes, in
//! evaluation units, measured after the balancing move(s). Candidate moves (pairs of
//! moves) are pre-selected by the static evaluation, then searched side by side
//! ([`multipv::deepen`]) as long as the time allows, keeping the closest ones in the race;
//! the answer is the closest by the deepest comparable result, as the Swap2 opening
//! choice does ([`crate::analysis::swap2`]).

use crate::analysis::multipv::{self, deepen, effective_depth, parent_score, Eval, Race};
use crate::core::board::Board;
use crate::core::types::{Pos, Score};
use crate::engine::search::{Limits, MAX_DEPTH};
use crate::engine::{Engine, StopToken};

/// How many positions are searched, after the static pre-selection.
const SEARCHED: usize = 12;
/// How many first moves `YXBALANCETWO` tries, and second moves after each.
const FIRST: usize = 8;
const SECOND: usize = 8;

/// The result: the balancing move(s) and the score they leave (for the side that was to
/// move) at the depth searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balanced {
    pub moves: Vec<Pos>,
    pub score: Score,
    pub depth: i32,
}

/// The move(s) that leave `board` closest to `bias` for its side to move: one move of
/// that side (`two == false`), or one of that side and the opponent's answer. Moves on
/// `exclude` are not used. `None` when there is no legal move.
pub fn balance(
    engine: &mut Engine,
    board: &Board,
    two: bool,
    bias: Score,
    exclude: &[Pos],
    limits: &Limits,
    stop: &StopToken,
) -> Option<Balanced> {
    // The positions after the candidate moves, with the moves that lead there.
    let mut positions: Vec<(Vec<Pos>, Board)> = Vec::new();
    let firsts = multipv::candidates(board, exclude);
    let firsts = firsts.iter().take(if two { FIRST } else { firsts.len() });
    for &m in firsts {
        let mut b = board.clone();
        b.make(m);
        if !two {
            positions.push((vec![m], b));
            continue;
        }
        if b.last_move_won() {
            continue;
        }
        let seconds: Vec<Pos> = multipv::candidates(&b, exclude)
            .into_iter()
            .take(SECOND)
            .collect();
        for r in seconds {
            let mut c = b.clone();
            c.make(r);
            positions.push((vec![m, r], c));
        }
    }
    if positions.is_empty() {
        return None;
    }
    // A position's score for the side that was to move.
    let ours = move |e: &Eval| -> Score {
        if two {
            e.score
        } else {
            parent_score(e.score)
        }
    };
    let distance = move |e: &Eval| -> i64 { (i64::from(ours(e)) - i64::from(bias)).abs() };
    positions.sort_by_key(|(_, b)| distance(&multipv::static_eval(b)));
    positions.truncate(SEARCHED);
    let boards: Vec<Board> = positions.iter().map(|(_, b)| b.clone()).collect();
    let plies = if two { 2 } else { 1 };
    let race = Race {
        max_depth: limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) - plies,
        keep: SEARCHED / 2,
        rank: &|e: &Eval| -distance(e),
    };
    let (evals, _) = deepen(engine, &boards, &race, limits, stop, &mut |_| {});
    let deepest = evals.iter().map(|e| e.depth).max().unwrap_or(0);
    let best = (0..evals.len()).max_by_key(|&i| {
        (
            effective_depth(&evals[i], deepest),
            -distance(&evals[i]),
            std::cmp::Reverse(i),
        )
    })?;
    Some(Balanced {
        moves: positions[best].0.clone(),
        score: ours(&evals[best]),
        depth: evals[best].depth + plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn limits(depth: i32) -> Limits {
        Limits {
            max_depth: Some(depth),
            max_nodes: None,
            budget: None,
            skip_threats: false,
        }
    }

    #[test]
    fn balancing_moves_are_legal_unblocked_and_follow_the_aim() {
        let mut engine = Engine::new(1 << 20);
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6)] {
            b.make(Pos::new(x, y));
        }
        let stop = StopToken::new();
        let one = balance(&mut engine, &b, false, 0, &[], &limits(4), &stop).unwrap();
        assert_eq!(one.moves.len(), 1);
        assert!(b.is_empty(one.moves[0]));
        let two = balance(&mut engine, &b, true, 0, &[], &limits(4), &stop).unwrap();
        assert_eq!(two.moves.len(), 2);
        assert_ne!(two.moves[0], two.moves[1]);
        assert!(two.moves.iter().all(|&p| b.is_empty(p)));
        // Aiming at a large score for the side to move picks a stronger move than
        // aiming at even.
        let strong = balance(&mut engine, &b, false, 5000, &[], &limits(4), &stop).unwrap();
        assert!(strong.score >= one.score, "{strong:?} {one:?}");
        // Excluded squares are never used.
        let ex = [one.moves[0]];
        let other = balance(&mut engine, &b, false, 0, &ex, &limits(4), &stop).unwrap();
        assert_ne!(other.moves[0], one.moves[0]);
    }
}
