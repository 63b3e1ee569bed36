//! Move generation that respects the threats on the board.
//!
//! - If the side to move can make five, that is the only move.
//! - If the opponent can make five, only the blocks are generated (none if black would
//!   have to block on a renju foul: the game is lost).
//! - If the opponent can make an open four (it has an open three, or a double-four
//!   square), only moves that stop it and the side to move's own fours are generated.
//! - Otherwise, every empty square within two of a stone.
//!
//! Renju black never gets a forbidden square. Every move carries an ordering score from
//! both colours' shapes at the square; ties are broken by square index so the order is
//! the same on every run.

use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rules;
use crate::core::types::{Color, Pos, Rule};

/// A move and its ordering score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    pub pos: Pos,
    pub score: i32,
    /// Where the network's policy ranked the move: tenths of a logit below the node's
    /// favourite (0 for the favourite, and where there is no policy). It fits in the
    /// padding after `pos`, so the move stays eight bytes.
    pub policy_gap: i16,
}

/// What kind of position the generator found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Situation {
    /// The side to move makes five with the only generated move.
    Win,
    /// The opponent threatens five; the moves are the blocks (possibly none).
    BlockFour,
    /// The opponent threatens an open four; the moves stop it or make a four.
    DefendThree,
    /// Nothing forcing.
    Quiet,
}

/// Ordering bonus for the side to move's own threat class at a square.
const ATTACK: [i32; Threat::COUNT] = [
    0, 60, 80, 120, 150, 400, 450, 900, 500, 700, 4000, 8000, 100_000, -100_000,
];
/// Ordering bonus for the opponent's threat class at a square (blocking it).
const DEFEND: [i32; Threat::COUNT] = [
    0, 40, 50, 90, 110, 300, 350, 700, 200, 300, 2000, 5000, 50_000, 0,
];

/// Ordering score of a square from both colours' shapes.
#[inline]
pub fn order_score(b: &Board, p: Pos, me: Color) -> i32 {
    let mine = b.threat(p, me);
    let theirs = b.threat(p, me.opp());
    let vm = b.square_value(p, me, 0);
    let vo = b.square_value(p, me.opp(), 1);
    ATTACK[mine as usize] + DEFEND[theirs as usize] + vm + vo * 3 / 4
}

/// Whether `p` is a legal move for colour `c` (renju black: not a foul).
#[inline]
pub fn legal_for(b: &mut Board, p: Pos, c: Color) -> bool {
    if c != Color::Black || b.rule() != Rule::Renju {
        return true;
    }
    match b.threat(p, c) {
        Threat::Forbidden => false,
        Threat::DoubleThree => !rules::is_forbidden(b, p),
        _ => true,
    }
}

/// The first square (in reading order) where colour `c` has threat class exactly `t`.
pub fn find_square(b: &Board, c: Color, t: Threat) -> Option<Pos> {
    let (x0, y0, x1, y1) = b.area_rect(2);
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| Pos::new(x, y)))
        .find(|&p| b.is_empty(p) && b.threat(p, c) == t)
}

/// Generates the moves of the side to move into `out`, sorted best first. When the
/// position is lost (no block, no defence), every legal move near the stones is
/// generated instead, so a player always has something to play.
pub fn generate(b: &mut Board, out: &mut Vec<ScoredMove>) -> Situation {
    let s = generate_unsorted(b, out);
    if out.is_empty() && s != Situation::Quiet {
        quiet_moves(b, out);
    }
    sort(out);
    s
}

/// Like [`generate`] but leaves the moves unsorted: the search's
/// [`crate::engine::picker::MovePicker`] picks them in order, since most nodes cut off
/// after a few moves.
pub fn generate_unsorted(b: &mut Board, out: &mut Vec<ScoredMove>) -> Situation {
    out.clear();
    let me = b.side_to_move();
    let opp = me.opp();
    if b.move_count() == 0 {
        out.push(ScoredMove {
            pos: b.center(),
            score: 0,
            policy_gap: 0,
        });
        return Situation::Quiet;
    }
    if b.count(me, Threat::Five) > 0 {
        if let Some(p) = b
            .area(4)
            .find(|&p| b.is_empty(p) && b.threat(p, me) == Threat::Five)
        {
            out.push(ScoredMove {
                pos: p,
                score: 1_000_000,
                policy_gap: 0,
            });
            return Situation::Win;
        }
    }
    if b.count(opp, Threat::Five) > 0 {
        let total = b.count(opp, Threat::Five) as usize;
        let mut squares = Vec::with_capacity(total);
        b.each_empty_until(2, |p| {
            if b.threat(p, opp) == Threat::Five {
                squares.push(p);
            }
            squares.len() < total
        });
        for p in squares {
            if legal_for(b, p, me) {
                out.push(ScoredMove {
                    pos: p,
                    score: order_score(b, p, me),
                    policy_gap: 0,
                });
            }
        }
        sort(out);
        return Situation::BlockFour;
    }
    if b.count(opp, Threat::OpenFour) > 0 {
        defend_open_four(b, me, out);
        sort(out);
        return Situation::DefendThree;
    }
    quiet_moves(b, out);
    Situation::Quiet
}

/// Every legal empty square within two of a stone.
fn quiet_moves(b: &mut Board, out: &mut Vec<ScoredMove>) {
    let me = b.side_to_move();
    let (x0, y0, x1, y1) = b.area_rect(2);
    let renju_black = me == Color::Black && b.rule() == Rule::Renju;
    for y in y0..=y1 {
        let near = b.near_row(y);
        for x in x0..=x1 {
            let p = Pos::new(x, y);
            if near >> x & 1 == 0 || !b.is_empty(p) {
                continue;
            }
            if renju_black && !legal_for(b, p, me) {
                continue;
            }
            out.push(ScoredMove {
                pos: p,
                score: order_score(b, p, me),
                policy_gap: 0,
            });
        }
    }
}

/// The opponent has squares where it would make an open four (or a double four).
/// Candidates: those squares, the empty squares on their lines within four steps, and
/// every square where the side to move makes a four. A candidate that is not a four is
/// kept only if, once played, the opponent has no such square left.
fn defend_open_four(b: &mut Board, me: Color, out: &mut Vec<ScoredMove>) {
    let opp = me.opp();
    let mut cands: Vec<Pos> = Vec::new();
    let mut threats: Vec<Pos> = Vec::new();
    // The squares looked for, as the board counts them: the scan stops at the last.
    let mut left = b.count_at_least(me, Threat::Four) + b.count(opp, Threat::OpenFour) as u32;
    b.each_empty_until(2, |p| {
        let mine = b.threat(p, me);
        if mine >= Threat::Four && mine != Threat::Forbidden {
            cands.push(p);
            left -= 1;
        }
        if b.threat(p, opp) == Threat::OpenFour {
            left -= 1;
            threats.push(p);
            cands.push(p);
            for d in 0..4 {
                if b.pat(p, opp, d) < crate::core::pattern::Pat::OpenFour
                    && b.pat(p, opp, d) != crate::core::pattern::Pat::Four
                {
                    continue;
                }
                for k in -4isize..=4 {
                    let q = p.step(d, k);
                    if k != 0 && b.is_empty(q) {
                        cands.push(q);
                    }
                }
            }
        }
        left > 0
    });
    cands.sort_unstable();
    cands.dedup();
    for p in cands {
        if !legal_for(b, p, me) {
            continue;
        }
        if b.threat(p, me) < Threat::Four && b.open_four_left_after(p, opp, &threats) {
            continue;
        }
        out.push(ScoredMove {
            pos: p,
            score: order_score(b, p, me),
            policy_gap: 0,
        });
    }
}

/// Sorts by score, best first; equal scores by square index.
#[inline]
pub fn sort(out: &mut [ScoredMove]) {
    out.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_the_four() {
        let mut b = Board::from_diagram(
            "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . . . O O . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
            Rule::Freestyle,
        )
        .unwrap();
        // White to move must block at a2 or f2 (both ends open: the four is open and black wins anyway).
        let mut v = Vec::new();
        assert_eq!(generate(&mut b, &mut v), Situation::BlockFour);
        let mut got: Vec<Pos> = v.iter().map(|m| m.pos).collect();
        got.sort();
        assert_eq!(got, vec![Pos::new(0, 1), Pos::new(5, 1)]);
    }

    #[test]
    fn defend_the_three() {
        let mut b = Board::from_diagram(
            "
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . X X X . . . .
            . . . . . . . . . .
            . . . . O . . . . .
            . . . . O . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            ",
            Rule::Freestyle,
        )
        .unwrap();
        let mut v = Vec::new();
        assert_eq!(generate(&mut b, &mut v), Situation::DefendThree);
        let got: Vec<Pos> = v.iter().map(|m| m.pos).collect();
        // Only the squares next to ..XXX.. stop it: after a far block the other side
        // still makes an open four.
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(sorted, vec![Pos::new(2, 3), Pos::new(6, 3)]);
    }
}
