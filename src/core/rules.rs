//! Who wins and what black may not play under renju.
//!
//! The fast path reads the board's incremental threat classes: a square whose class is
//! `Five` wins, `Forbidden` is a certain foul (overline or double four), and a renju
//! `DoubleThree` is a foul only if at least two of its threes are *real*: a three is real
//! when one of the squares that turn it into a straight four is itself legal for black,
//! checked recursively with the three's stone on the board.
//!
//! [`reference`](mod@reference) is a slow, obviously correct implementation that scans the raw stones;
//! tests cross-check the fast path against it on many random positions.

use crate::core::board::Board;
use crate::core::pattern::{key_weight, Pat, Threat};
use crate::core::types::{Color, Pos, Rule};

/// Whether black may not play at the empty square `p` (always false outside renju).
pub fn is_forbidden(b: &mut Board, p: Pos) -> bool {
    if b.rule() != Rule::Renju || !b.is_empty(p) {
        return false;
    }
    match b.threat(p, Color::Black) {
        Threat::Forbidden => true,
        Threat::DoubleThree => double_three_is_real(b, p),
        _ => false,
    }
}

/// Whether the side to move may play at `p`: on the board, empty, and not a renju foul.
pub fn is_legal(b: &mut Board, p: Pos) -> bool {
    if p.is_none() || !b.is_empty(p) {
        return false;
    }
    !(b.side_to_move() == Color::Black && is_forbidden(b, p))
}

/// Every square where black may not play, in reading order.
pub fn forbidden_squares(b: &mut Board) -> Vec<Pos> {
    if b.rule() != Rule::Renju {
        return Vec::new();
    }
    let squares: Vec<Pos> = b.squares().collect();
    squares
        .into_iter()
        .filter(|&p| is_forbidden(b, p))
        .collect()
}

/// The threat class of `p` for `c` with renju double threes resolved: a real double
/// three becomes `Forbidden`, a false one the class its real shapes give.
pub fn real_threat(b: &mut Board, p: Pos, c: Color) -> Threat {
    let t = b.threat(p, c);
    if t != Threat::DoubleThree || c != Color::Black || b.rule() != Rule::Renju {
        return t;
    }
    let pats = b.pats(p, c);
    let real = real_threes(b, p, &pats);
    if real >= 2 {
        return Threat::Forbidden;
    }
    // Demote the false threes and classify again.
    let mut demoted = pats;
    let mut kept = real;
    for pat in demoted.iter_mut() {
        if *pat == Pat::OpenThree {
            if kept > 0 {
                kept -= 1;
            } else {
                *pat = Pat::Three;
            }
        }
    }
    crate::core::pattern::combine(demoted, true)
}

fn double_three_is_real(b: &mut Board, p: Pos) -> bool {
    let pats = b.pats(p, Color::Black);
    real_threes(b, p, &pats) >= 2
}

/// Counts the open threes black would make at `p` that can really become a straight
/// four (stops counting at two).
fn real_threes(b: &mut Board, p: Pos, pats: &[Pat; 4]) -> u32 {
    let side = b.side_to_move();
    b.make_color(p, Color::Black);
    let t = b.tables();
    let mut real = 0;
    for (d, &pat) in pats.iter().enumerate() {
        if pat != Pat::OpenThree {
            continue;
        }
        let key = b.key(p, d);
        for k in -4isize..=4 {
            if k == 0 {
                continue;
            }
            let q = p.step(d, k);
            if !b.is_empty(q) {
                continue;
            }
            // Would a black stone at q turn p's line into a straight four?
            let with_q = key + crate::core::types::cell::BLACK as u32 * key_weight(k);
            if t.pat(with_q, Color::Black) == Pat::OpenFour && !is_forbidden(b, q) {
                real += 1;
                break;
            }
        }
        if real >= 2 {
            break;
        }
    }
    b.unmake();
    b.set_side_to_move(side);
    real
}

/// Slow reference rules on a plain grid of stones, used only by tests.
pub mod reference {
    use crate::core::board::Board;
    use crate::core::types::{Color, Rule, DIRS};

    /// A plain grid: `None` empty, `Some(colour)` a stone.
    #[derive(Clone)]
    pub struct Grid {
        pub w: i32,
        pub h: i32,
        pub rule: Rule,
        pub cells: Vec<Option<Color>>,
    }

    impl Grid {
        pub fn from_board(b: &Board) -> Grid {
            let (w, h) = (b.width() as i32, b.height() as i32);
            let mut cells = vec![None; (w * h) as usize];
            for p in b.squares() {
                cells[p.y() * w as usize + p.x()] = b.stone(p);
            }
            Grid {
                w,
                h,
                rule: b.rule(),
                cells,
            }
        }
        pub fn get(&self, x: i32, y: i32) -> Option<Option<Color>> {
            (x >= 0 && y >= 0 && x < self.w && y < self.h)
                .then(|| self.cells[(y * self.w + x) as usize])
        }
        fn set(&mut self, x: i32, y: i32, v: Option<Color>) {
            self.cells[(y * self.w + x) as usize] = v;
        }
        fn exact(&self, c: Color) -> bool {
            matches!(self.rule, Rule::Exact | Rule::CaroExact)
                || (self.rule == Rule::Renju && c == Color::Black)
        }

        /// Length of the run of `c` through (x, y) along `d` and the cells just beyond it.
        fn run(
            &self,
            x: i32,
            y: i32,
            d: usize,
            c: Color,
        ) -> (i32, Option<Option<Color>>, Option<Option<Color>>) {
            let (dx, dy) = DIRS[d];
            let mut n = 1;
            let mut i = 1;
            while self.get(x + dx * i, y + dy * i) == Some(Some(c)) {
                n += 1;
                i += 1;
            }
            let after = self.get(x + dx * i, y + dy * i);
            let mut j = 1;
            while self.get(x - dx * j, y - dy * j) == Some(Some(c)) {
                n += 1;
                j += 1;
            }
            let before = self.get(x - dx * j, y - dy * j);
            (n, before, after)
        }

        /// Whether a stone of `c` at the empty (x, y) makes a winning five.
        pub fn makes_five(&self, x: i32, y: i32, c: Color) -> bool {
            (0..4).any(|d| {
                let (n, before, after) = self.run(x, y, d, c);
                let long = if self.exact(c) { n == 5 } else { n >= 5 };
                let caro = matches!(self.rule, Rule::Caro | Rule::CaroExact);
                let blocked = before == Some(Some(c.opp())) && after == Some(Some(c.opp()));
                long && !(caro && blocked)
            })
        }

        /// Whether black at the empty (x, y) makes six or more in a row somewhere.
        fn makes_overline(&self, x: i32, y: i32) -> bool {
            (0..4).any(|d| self.run(x, y, d, Color::Black).0 >= 6)
        }

        /// Distinct fours black makes through (x, y) on line `d` (stone already placed):
        /// groups of four stones, (x, y) among them, that one more stone turns into exactly five.
        fn fours(&self, x: i32, y: i32, d: usize) -> Vec<Vec<i32>> {
            let (dx, dy) = DIRS[d];
            let mut sets: Vec<Vec<i32>> = Vec::new();
            for start in -4..=0 {
                let mut stones = Vec::new();
                let mut empty = None;
                let mut ok = true;
                for i in start..start + 5 {
                    match self.get(x + dx * i, y + dy * i) {
                        Some(Some(Color::Black)) => stones.push(i),
                        Some(None) if empty.is_none() => empty = Some(i),
                        _ => ok = false,
                    }
                }
                let Some(e) = empty else { continue };
                if !ok || stones.len() != 4 {
                    continue;
                }
                let (ex, ey) = (x + dx * e, y + dy * e);
                if self.run(ex, ey, d, Color::Black).0 != 5 {
                    continue;
                }
                if !sets.contains(&stones) {
                    sets.push(stones);
                }
            }
            sets
        }

        /// Whether black's line `d` through (x, y) (stone placed) is a real three: some
        /// empty square, itself not a foul, turns it into a straight four containing (x, y).
        fn real_three(&mut self, x: i32, y: i32, d: usize) -> bool {
            let (dx, dy) = DIRS[d];
            for i in -4..=4 {
                if i == 0 {
                    continue;
                }
                let (ex, ey) = (x + dx * i, y + dy * i);
                if self.get(ex, ey) != Some(None) {
                    continue;
                }
                self.set(ex, ey, Some(Color::Black));
                let fours = self.fours(x, y, d);
                // A straight four: one group of four stones completed at both ends.
                let straight = fours.len() == 1 && fours[0].contains(&i) && {
                    let s = &fours[0];
                    let (lo, hi) = (s[0], s[3]);
                    hi - lo == 3
                        && self.get(x + dx * (lo - 1), y + dy * (lo - 1)) == Some(None)
                        && self.get(x + dx * (hi + 1), y + dy * (hi + 1)) == Some(None)
                        && self
                            .run(x + dx * (lo - 1), y + dy * (lo - 1), d, Color::Black)
                            .0
                            == 5
                        && self
                            .run(x + dx * (hi + 1), y + dy * (hi + 1), d, Color::Black)
                            .0
                            == 5
                };
                self.set(ex, ey, None);
                // The completing square must itself be legal with (x, y) on the board.
                if straight && !self.is_forbidden(ex, ey) {
                    return true;
                }
            }
            false
        }

        /// Whether black may not play at the empty (x, y) under renju.
        pub fn is_forbidden(&mut self, x: i32, y: i32) -> bool {
            if self.rule != Rule::Renju || self.get(x, y) != Some(None) {
                return false;
            }
            if self.makes_five(x, y, Color::Black) {
                return false;
            }
            if self.makes_overline(x, y) {
                return true;
            }
            self.set(x, y, Some(Color::Black));
            let fours: usize = (0..4).map(|d| self.fours(x, y, d).len()).sum();
            let mut foul = fours >= 2;
            if !foul {
                let mut threes = 0;
                for d in 0..4 {
                    if self.fours(x, y, d).is_empty() && self.real_three(x, y, d) {
                        threes += 1;
                    }
                }
                foul = threes >= 2;
            }
            self.set(x, y, None);
            foul
        }
    }
}
