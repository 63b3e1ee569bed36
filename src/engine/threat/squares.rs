//! What the solver reads off the board: whether a colour may play a square, the squares
//! of a set of threat classes, the squares where a colour makes five and the moves that
//! stop those fives. Every room of the solver builds on these.

use super::table::PosList;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rules;
use crate::core::types::{Color, Pos, Rule, DIRS};

#[inline]
pub(super) fn is_caro(rule: Rule) -> bool {
    matches!(rule, Rule::Caro | Rule::CaroExact)
}

#[inline]
pub(super) fn renju_black(b: &Board, c: Color) -> bool {
    c == Color::Black && b.rule() == Rule::Renju
}

/// Whether `c` may play at the empty square `p`.
#[inline]
pub(super) fn can_play(b: &mut Board, p: Pos, c: Color) -> bool {
    b.is_empty(p) && !(renju_black(b, c) && rules::is_forbidden(b, p))
}

/// The square `k` steps from `p` along direction `d`, if it is on the board (unlike
/// [`Pos::step`], safe beyond the padding).
#[inline]
pub(super) fn along(b: &Board, p: Pos, d: usize, k: isize) -> Option<Pos> {
    let (dx, dy) = DIRS[d];
    b.pos(
        p.x() as i64 + dx as i64 * k as i64,
        p.y() as i64 + dy as i64 * k as i64,
    )
}

/// Calls `f` on every empty square within `margin` of the stones, row by row.
#[inline]
pub(super) fn for_empty(b: &Board, margin: usize, mut f: impl FnMut(Pos)) {
    b.each_empty_until(margin, |p| {
        f(p);
        true
    });
}

/// A set of threat classes, one bit per class.
pub(super) const fn classes(list: &[Threat]) -> u16 {
    let mut set = 0;
    let mut i = 0;
    while i < list.len() {
        set |= 1 << list[i] as u16;
        i += 1;
    }
    set
}

/// Four, four-two, four-three and open four: the classes of a square that makes a four.
pub(super) const FOURS: u16 = classes(&[
    Threat::Four,
    Threat::FourTwo,
    Threat::FourThree,
    Threat::OpenFour,
]);

/// A renju black square with two open threes: a four-three in disguise or a foul.
pub(super) const DOUBLE_THREE: u16 = classes(&[Threat::DoubleThree]);

/// Calls `f` on every empty square within `margin` (at least two) of the stones where
/// colour `c` has a threat class in `set` ([`classes`]), row by row. The board counts
/// such squares, so the scan stops at the last one, and does not start if there is none.
/// Every class from a three up needs three stones of its colour within a window of five
/// around the square, so such squares lie within two of the stones.
pub(super) fn for_class(
    b: &Board,
    c: Color,
    set: u16,
    margin: usize,
    mut f: impl FnMut(Pos, Threat),
) {
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
pub(super) fn fives(b: &Board, c: Color, around: Pos) -> PosList {
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
pub(super) fn kills(b: &mut Board, c: Color, f: &PosList) -> PosList {
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
