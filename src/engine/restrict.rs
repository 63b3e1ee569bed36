//! Moves a person has ruled out for the search: Yixin-Board's *block paths* and its
//! hand-marked forbidden points.
//!
//! - A **block path** rules out one move in one position: the position is kept by its
//!   key ([`Board::hash`], which holds the stones and the side to move), so the move is
//!   ruled out wherever the search meets that position, by whatever order of moves it got
//!   there (a transposition is blocked too).
//! - A **forbidden point** rules out a square for one colour everywhere in the search,
//!   like a renju foul chosen by hand.
//!
//! The search ([`crate::engine::search`]) never plays a ruled-out move, at the root or
//! below it, and does not take the shortcuts that assume every move can be played (a
//! five, a four-three or a double three won on sight, the threat solver's proofs; see
//! there). An empty set changes nothing: the search is then exactly the search without
//! restrictions. The engine empties its transposition table whenever its set changes
//! ([`crate::engine::Engine::set_restrictions`]), so no result found under other
//! restrictions is read back.

use crate::core::board::Board;
use crate::core::types::{Color, Pos, CELLS};
use std::collections::HashMap;

const WORDS: usize = CELLS.div_ceil(64);

/// A set of ruled-out moves: block paths and forbidden points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restrictions {
    /// Position key → the squares the side to move may not play there.
    paths: HashMap<u64, Vec<Pos>>,
    /// Per colour (by [`Color::index`]), a bit per square index: forbidden for that colour.
    forbidden: [[u64; WORDS]; 2],
}

impl Default for Restrictions {
    fn default() -> Restrictions {
        Restrictions {
            paths: HashMap::new(),
            forbidden: [[0; WORDS]; 2],
        }
    }
}

impl Restrictions {
    /// Whether nothing is ruled out.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.forbidden_count() == 0
    }

    /// Rules out `p` in the position with key `key`; false if it already was.
    pub fn block_path(&mut self, key: u64, p: Pos) -> bool {
        let v = self.paths.entry(key).or_default();
        if v.contains(&p) {
            return false;
        }
        v.push(p);
        true
    }

    /// Allows `p` again in the position with key `key`; false if it was not ruled out.
    pub fn unblock_path(&mut self, key: u64, p: Pos) -> bool {
        let Some(v) = self.paths.get_mut(&key) else {
            return false;
        };
        let before = v.len();
        v.retain(|&q| q != p);
        let removed = v.len() < before;
        if v.is_empty() {
            self.paths.remove(&key);
        }
        removed
    }

    /// Removes every block path; returns how many there were.
    pub fn clear_paths(&mut self) -> usize {
        let n = self.path_count();
        self.paths.clear();
        n
    }

    /// Number of block paths (blocked moves, over all positions).
    pub fn path_count(&self) -> usize {
        self.paths.values().map(Vec::len).sum()
    }

    /// Marks `p` forbidden (or, `on` false, no longer forbidden) for colour `c`; false if
    /// it already was so.
    pub fn set_forbidden(&mut self, c: Color, p: Pos, on: bool) -> bool {
        let (w, bit) = (p.idx() / 64, 1u64 << (p.idx() % 64));
        let word = &mut self.forbidden[c.index()][w];
        if (*word & bit != 0) == on {
            return false;
        }
        *word ^= bit;
        true
    }

    /// Number of forbidden points, both colours together.
    pub fn forbidden_count(&self) -> usize {
        self.forbidden
            .iter()
            .flatten()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Whether `p` is forbidden for colour `c`.
    #[inline]
    pub fn is_forbidden(&self, c: Color, p: Pos) -> bool {
        let i = p.idx();
        i < CELLS && self.forbidden[c.index()][i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Whether the side to move of `b` may play `p` (a move the restrictions leave; the
    /// rules are not checked here).
    #[inline]
    pub fn allows(&self, b: &Board, p: Pos) -> bool {
        if self.is_forbidden(b.side_to_move(), p) {
            return false;
        }
        self.paths.is_empty() || !self.paths.get(&b.hash()).is_some_and(|v| v.contains(&p))
    }

    /// The empty squares of `b` the side to move may not play, in reading order.
    pub fn ruled_out(&self, b: &Board) -> Vec<Pos> {
        if self.is_empty() {
            return Vec::new();
        }
        b.squares()
            .filter(|&p| b.is_empty(p) && !self.allows(b, p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    #[test]
    fn paths_are_kept_by_position_and_forbids_by_colour() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut r = Restrictions::default();
        assert!(r.is_empty());
        let h8 = Pos::new(7, 7);
        let i9 = Pos::new(8, 8);
        assert!(r.block_path(b.hash(), h8));
        assert!(!r.block_path(b.hash(), h8));
        assert_eq!(r.path_count(), 1);
        assert!(!r.allows(&b, h8));
        assert!(r.allows(&b, i9));
        assert_eq!(r.ruled_out(&b), vec![h8]);
        b.make(i9);
        // Another position: the block does not apply.
        assert!(r.allows(&b, h8));
        assert!(r.unblock_path(Board::new(15, 15, Rule::Freestyle).unwrap().hash(), h8));
        assert!(r.is_empty());

        assert!(r.set_forbidden(Color::White, h8, true));
        assert!(!r.set_forbidden(Color::White, h8, true));
        assert_eq!(r.forbidden_count(), 1);
        // White to move now.
        assert!(!r.allows(&b, h8));
        b.make(Pos::new(3, 3));
        assert!(r.allows(&b, h8));
        assert!(r.set_forbidden(Color::White, h8, false));
        assert!(r.is_empty());
        assert_eq!(r.clear_paths(), 0);
    }
}
