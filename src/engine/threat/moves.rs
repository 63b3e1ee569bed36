//! The attacker's candidate moves: its fours (for the VCF and the narrow VCF) and its
//! fours and threes (for the VCT), pushed on the solver's move stack best first, ranked
//! by their threat class and by their nearness to the attacker's last moves.

use super::squares::{classes, for_class, renju_black, DOUBLE_THREE, FOURS};
use super::ThreatSolver;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rules;
use crate::core::types::{Color, Pos};

/// Ordering bonus for being near an earlier attacking move: on one of its lines within
/// four, or within two squares.
#[inline]
pub(super) fn prox(p: Pos, q: Pos) -> i32 {
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
pub(super) fn last_moves(b: &Board, c: Color) -> (Pos, Pos) {
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
pub(super) fn four_rank(b: &mut Board, p: Pos, c: Color) -> Option<i32> {
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
    /// Pushes the attacker's legal fours, best first.
    pub(super) fn gen_fours(&mut self, b: &mut Board, a: Color) {
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
    pub(super) fn narrow_fours(&mut self, b: &Board, a: Color, start: usize, first: bool) {
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

    /// Pushes the attacker's fours and threes, best first.
    pub(super) fn gen_threats(&mut self, b: &mut Board, a: Color) {
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
}
