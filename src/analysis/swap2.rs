//! Swap2 opening decisions (the protocol's `SWAP2BOARD`, and Yixin-Board's
//! `YXSWAP2STEP1..3`), made by searching.
//!
//! Swap2: the first player puts three stones (black, white, black); the second player
//! then takes black (`SWAP`), plays the fourth stone as white, or puts two more stones
//! (white, black) and lets the first player choose; with five stones the first player
//! takes black (`SWAP`) or plays the sixth stone as white.
//!
//! - Three stones of our own: among small openings around the centre, the one whose
//!   position is closest to even (searched with white to move) — the opponent chooses the
//!   colour, so an even position leaves it nothing to gain.
//! - Given three stones: search the position for white. Clearly better for black: `SWAP`
//!   (take black). Clearly better for white: play white's best move. Close to even: play
//!   white's best move and the black reply that keeps the position closest to even, and
//!   let the opponent choose.
//! - Given five stones: take the colour the search prefers.

use crate::analysis::multipv::{self, deepen, effective_depth, Eval, Race};
use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::{symmetries, Color, Pos, Score};
use crate::engine::search::{Limits, MAX_DEPTH};
use crate::engine::time::Budget;
use crate::engine::{Engine, StopToken};
use std::collections::HashSet;

/// Score (for the side to move) beyond which a position counts as clearly better for
/// one side. Open-three-sized advantages are about this large.
pub const CLEAR_ADVANTAGE: Score = 60;
/// How many candidate openings (or fifth stones) are searched, after a static pre-selection.
const CANDIDATES: usize = 8;

/// What the engine answers to `SWAP2BOARD`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The first three stones: black, white, black.
    Opening([Pos; 3]),
    /// Take black (the opponent plays white's next stone).
    Swap,
    /// Play this stone as white.
    Stone(Pos),
    /// Play a white and a black stone and let the opponent choose the colour.
    Two(Pos, Pos),
}

impl Reply {
    /// The reply line: `x,y x,y x,y`, `SWAP`, `x,y` or `x,y x,y`.
    pub fn line(&self) -> String {
        let xy = crate::core::notation::xy;
        match self {
            Reply::Opening([a, b, c]) => format!("{} {} {}", xy(*a), xy(*b), xy(*c)),
            Reply::Swap => "SWAP".to_string(),
            Reply::Stone(p) => xy(*p),
            Reply::Two(a, b) => format!("{} {}", xy(*a), xy(*b)),
        }
    }
}

/// Decides for a Swap2 position with 0, 3 or 5 stones (black first, alternating).
pub fn decide(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    stop: &StopToken,
) -> Result<Reply, String> {
    let start = Instant::now();
    match board.move_count() {
        0 => Ok(opening(engine, board, limits, stop)),
        3 => Ok(choose_after_three(engine, board, limits, stop, start)),
        5 => Ok(choose_after_five(engine, board, limits, stop)),
        n => Err(format!("swap2 needs 0, 3 or 5 stones, not {n}")),
    }
}

/// A part of the time budget: `share` of it, less what is already spent.
pub(crate) fn share(limits: &Limits, start: Instant, share: f64) -> Limits {
    let budget = limits.budget.map(|b| {
        let spent = start.elapsed();
        let hard = b.hard.mul_f64(share).min(b.hard.saturating_sub(spent));
        Budget {
            soft: b.soft.mul_f64(share).min(hard),
            hard,
        }
    });
    Limits {
        budget,
        ..limits.clone()
    }
}

fn max_depth(limits: &Limits) -> i32 {
    limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
}

/// The evaluation closest to even, by the deepest comparable results.
fn most_even(evals: &[Eval]) -> usize {
    let deepest = evals.iter().map(|e| e.depth).max().unwrap_or(0);
    (0..evals.len())
        .max_by_key(|&i| {
            (
                effective_depth(&evals[i], deepest),
                std::cmp::Reverse(evals[i].score.abs()),
                std::cmp::Reverse(i),
            )
        })
        .unwrap_or(0)
}

/// Three-stone openings around the centre of `board`: black in the centre, white at
/// each of `whites` (offsets from the centre), black's second stone anywhere within two
/// of the centre; openings equal under a symmetry of the square around the centre once.
/// Each with its stones and the position.
pub(crate) fn centre_openings(board: &Board, whites: &[(i64, i64)]) -> Vec<([Pos; 3], Board)> {
    let c = board.center();
    let (cx, cy) = (c.x() as i64, c.y() as i64);
    let at = |dx: i64, dy: i64| board.pos(cx + dx, cy + dy);
    let mut seen: HashSet<[(i64, i64); 2]> = HashSet::new();
    let mut out = Vec::new();
    for &(wx, wy) in whites {
        for dy in -2..=2i64 {
            for dx in -2..=2i64 {
                if (dx, dy) == (0, 0) || (dx, dy) == (wx, wy) {
                    continue;
                }
                let (Some(w), Some(b3)) = (at(wx, wy), at(dx, dy)) else {
                    continue;
                };
                let canon = symmetries()
                    .iter()
                    .map(|f| [f(wx, wy), f(dx, dy)])
                    .min()
                    .unwrap_or([(wx, wy), (dx, dy)]);
                if !seen.insert(canon) {
                    continue;
                }
                let mut b = board.clone();
                b.make_color(c, Color::Black);
                b.make_color(w, Color::White);
                b.make_color(b3, Color::Black);
                out.push(([c, w, b3], b));
            }
        }
    }
    out
}

/// Three stones around the centre of the board, chosen to leave the position even.
fn opening(engine: &mut Engine, board: &Board, limits: &Limits, stop: &StopToken) -> Reply {
    // Black in the centre, white next to it (straight or diagonal, touching or one apart),
    // black's second stone anywhere within two of the centre.
    let mut positions = centre_openings(board, &[(1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]);
    // Pre-select by the static evaluation, then search the most even ones.
    positions.sort_by_key(|(_, b)| multipv::static_eval(b).score.abs());
    positions.truncate(CANDIDATES);
    let boards: Vec<Board> = positions.iter().map(|(_, b)| b.clone()).collect();
    let race = Race {
        max_depth: max_depth(limits),
        keep: CANDIDATES,
        rank: &|e: &Eval| -(e.score.abs() as i64),
    };
    let (evals, _) = deepen(engine, &boards, &race, limits, stop, &mut |_| {});
    Reply::Opening(positions[most_even(&evals)].0)
}

/// Given black, white, black: swap, play white's fourth stone, or play two stones.
fn choose_after_three(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    stop: &StopToken,
    start: Instant,
) -> Reply {
    let first = share(limits, start, 0.4);
    let r = engine.think(board, &first, stop, &mut |_| {});
    let best = if !r.best.is_none() && board.is_empty(r.best) {
        r.best
    } else {
        match multipv::candidates(board, &[]).first() {
            Some(&p) => p,
            None => return Reply::Swap,
        }
    };
    // The score is white's.
    if r.score <= -CLEAR_ADVANTAGE {
        return Reply::Swap;
    }
    if r.score >= CLEAR_ADVANTAGE {
        return Reply::Stone(best);
    }
    // Even: white's best move, then black's fifth stone keeping it closest to even.
    let mut after = board.clone();
    after.make(best);
    let fifths: Vec<Pos> = multipv::candidates(&after, &[])
        .into_iter()
        .take(CANDIDATES)
        .collect();
    if fifths.is_empty() {
        return Reply::Stone(best);
    }
    let boards: Vec<Board> = fifths
        .iter()
        .map(|&p| {
            let mut b = after.clone();
            b.make(p);
            b
        })
        .collect();
    let rest = share(limits, start, 1.0);
    let race = Race {
        max_depth: max_depth(limits) - 1,
        keep: CANDIDATES,
        rank: &|e: &Eval| -(e.score.abs() as i64),
    };
    let (evals, _) = deepen(engine, &boards, &race, &rest, stop, &mut |_| {});
    Reply::Two(best, fifths[most_even(&evals)])
}

/// Given five stones: play white's sixth stone if white is at least even, else take black.
fn choose_after_five(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    stop: &StopToken,
) -> Reply {
    let r = engine.think(board, limits, stop, &mut |_| {});
    if r.score < 0 || r.best.is_none() || !board.is_empty(r.best) {
        Reply::Swap
    } else {
        Reply::Stone(r.best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn limits() -> Limits {
        Limits {
            max_depth: Some(3),
            ..Limits::default()
        }
    }

    #[test]
    fn opening_is_three_distinct_stones_near_the_centre() {
        let b = Board::new(15, 15, Rule::Exact).unwrap();
        let mut e = Engine::new(1 << 20);
        let r = decide(&mut e, &b, &limits(), &StopToken::new()).unwrap();
        let Reply::Opening(s) = r else {
            panic!("expected an opening, got {r:?}")
        };
        assert_eq!(s[0], b.center());
        assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
        for p in s {
            assert!(p.x().abs_diff(7) <= 2 && p.y().abs_diff(7) <= 2);
        }
        assert_eq!(r.line().split(' ').count(), 3);
    }

    #[test]
    fn five_stones_better_for_black_are_swapped() {
        // Black has an open three and white's stones are far away: white to move is worse.
        let mut b = Board::new(15, 15, Rule::Exact).unwrap();
        b.make_color(Pos::new(6, 7), Color::Black);
        b.make_color(Pos::new(0, 0), Color::White);
        b.make_color(Pos::new(7, 7), Color::Black);
        b.make_color(Pos::new(14, 14), Color::White);
        b.make_color(Pos::new(8, 7), Color::Black);
        let mut e = Engine::new(1 << 20);
        let r = decide(&mut e, &b, &limits(), &StopToken::new()).unwrap();
        assert_eq!(r, Reply::Swap);
    }

    #[test]
    fn wrong_stone_count_is_an_error() {
        let mut b = Board::new(15, 15, Rule::Exact).unwrap();
        b.make(Pos::new(7, 7));
        let mut e = Engine::new(1 << 20);
        assert!(decide(&mut e, &b, &limits(), &StopToken::new()).is_err());
    }

    #[test]
    fn replies_after_three_are_legal() {
        let mut b = Board::new(15, 15, Rule::Exact).unwrap();
        for (x, y) in [(7, 7), (8, 7), (9, 9)] {
            b.make(Pos::new(x, y));
        }
        let mut e = Engine::new(1 << 20);
        match decide(&mut e, &b, &limits(), &StopToken::new()).unwrap() {
            Reply::Swap => {}
            Reply::Stone(p) => assert!(b.is_empty(p)),
            Reply::Two(p, q) => assert!(b.is_empty(p) && b.is_empty(q) && p != q),
            r => panic!("unexpected {r:?}"),
        }
    }
}
