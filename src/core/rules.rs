//! Who wins and what black may not play under renju: the renju fouls, and how a game
//! ends ([`game_end`]: a five, a full board, or no legal move left).
//!
//! The fast path reads the board's incremental threat classes: a square whose class is
//! `Five` wins, `Forbidden` is a certain foul (overline or double four), and a renju
//! `DoubleThree` is a foul only if at least two of its threes are *real*: a three is real
//! when one of the squares that turn it into a straight four is itself legal for black,
//! checked recursively with the three's stone on the board, and does not make a five on
//! another line.
//!
//! That last clause is how Gomocup's arbiter reads the rule. Piskvork's foul checker,
//! which judges Gomocup's renju games, does not count a three whose only straight-four
//! squares would give black a five elsewhere: black would simply win there, so the
//! three never becomes a straight four. `tests/arbiter.rs` checks every square of
//! thousands of positions against a port of that checker.
//!
//! [`reference`](mod@reference) is a slow, obviously correct implementation that scans the raw stones;
//! tests cross-check the fast path against it on many random positions.

use crate::core::board::Board;
use crate::core::pattern::{key_weight, Pat, Threat};
use crate::core::types::{Color, Pos, Rule, DIRS};

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
            if t.pat(with_q, Color::Black) == Pat::OpenFour
                && b.threat(q, Color::Black) != Threat::Five
                && !is_forbidden(b, q)
            {
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

/// The run of `c` stones through `p` along direction `d`, in order, and whether it wins
/// under the board's rule (length, overline and caro blocking as the rule says).
fn run_through(b: &Board, p: Pos, d: usize, c: Color) -> (Vec<Pos>, bool) {
    let (dx, dy) = (DIRS[d].0 as i64, DIRS[d].1 as i64);
    let at = |k: i64| b.pos(p.x() as i64 + dx * k, p.y() as i64 + dy * k);
    let mut lo = 0;
    while at(lo - 1).is_some_and(|q| b.stone(q) == Some(c)) {
        lo -= 1;
    }
    let mut hi = 0;
    while at(hi + 1).is_some_and(|q| b.stone(q) == Some(c)) {
        hi += 1;
    }
    let run: Vec<Pos> = (lo..=hi).filter_map(at).collect();
    let exact = matches!(b.rule(), Rule::Exact | Rule::CaroExact)
        || (b.rule() == Rule::Renju && c == Color::Black);
    let long_enough = if exact {
        run.len() == 5
    } else {
        run.len() >= 5
    };
    let caro = matches!(b.rule(), Rule::Caro | Rule::CaroExact);
    let blocked = |k: i64| at(k).is_some_and(|q| b.stone(q) == Some(c.opp()));
    let wins = long_enough && !(caro && blocked(lo - 1) && blocked(hi + 1));
    (run, wins)
}

/// The winner and the stones of the winning line: the five the last move made, or,
/// for positions set up from a diagram (which carry no move order), any winning five on
/// the board.
pub fn winning_line(b: &Board) -> Option<(Color, Vec<Pos>)> {
    if let Some(c) = b.winner() {
        let p = b.last_move()?;
        let mut longest: Vec<Pos> = Vec::new();
        for d in 0..4 {
            let (run, wins) = run_through(b, p, d, c);
            if wins {
                return Some((c, run));
            }
            if run.len() > longest.len() {
                longest = run;
            }
        }
        // The board says the move won; show the longest line even if this reading of the
        // rule disagrees.
        return Some((c, longest));
    }
    for p in b.squares() {
        let Some(c) = b.stone(p) else { continue };
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            let before = b.pos(p.x() as i64 - dx as i64, p.y() as i64 - dy as i64);
            if before.is_some_and(|q| b.stone(q) == Some(c)) {
                continue; // not the start of the run
            }
            let (run, wins) = run_through(b, p, d, c);
            if wins {
                return Some((c, run));
            }
        }
    }
    None
}

/// Why black may not play at `p` under renju, if it is a foul.
pub fn foul(b: &mut Board, p: Pos) -> Option<&'static str> {
    if !is_forbidden(b, p) {
        return None;
    }
    let pats = b.pats(p, Color::Black);
    Some(if pats.contains(&Pat::Overline) {
        "overline"
    } else if b.threat(p, Color::Black) == Threat::Forbidden {
        "double four"
    } else {
        "double three"
    })
}

/// Whether the side to move has any legal square (only renju black can run out before
/// the board is full).
fn has_legal_move(b: &Board) -> bool {
    if b.is_full() {
        return false;
    }
    if !(b.rule().has_forbidden() && b.side_to_move() == Color::Black) {
        return true;
    }
    let mut c = b.clone();
    let squares: Vec<Pos> = c.squares().filter(|&p| c.is_empty(p)).collect();
    squares.into_iter().any(|p| !is_forbidden(&mut c, p))
}

/// How a game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A colour made five; the stones of the winning line, in order.
    Five(Color, Vec<Pos>),
    /// The board is full without a five: a draw.
    Full,
    /// The side to move has no legal square left (renju black facing only fouls): a draw.
    NoLegalMove(Color),
}

impl GameEnd {
    /// The winner, if the game was not drawn.
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameEnd::Five(c, _) => Some(*c),
            GameEnd::Full | GameEnd::NoLegalMove(_) => None,
        }
    }
}

/// Whether the game on `b` is over, and how: a five (see [`winning_line`]), a full
/// board, or no legal move for the side to move, checked in that order.
pub fn game_end(b: &Board) -> Option<GameEnd> {
    if let Some((c, line)) = winning_line(b) {
        return Some(GameEnd::Five(c, line));
    }
    if b.is_full() {
        return Some(GameEnd::Full);
    }
    if !has_legal_move(b) {
        return Some(GameEnd::NoLegalMove(b.side_to_move()));
    }
    None
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
                // The completing square must itself be legal with (x, y) on the board,
                // and must not make a five elsewhere (Piskvork's reading, see the module).
                if straight && !self.makes_five(ex, ey, Color::Black) && !self.is_forbidden(ex, ey)
                {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{parse_moves, square_name};

    fn play(b: &mut Board, moves: &str) {
        for (x, y) in parse_moves(moves, b.width(), b.height()).unwrap() {
            b.make(Pos::new(x, y));
        }
    }

    fn names(b: &Board, line: &[Pos]) -> String {
        let v: Vec<String> = line.iter().map(|&p| square_name(p, b.height())).collect();
        v.join(" ")
    }

    #[test]
    fn winning_lines_follow_the_rule() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        play(&mut b, "a1 a15 b1 b15 c1 c15 d1 d15 e1");
        let (c, line) = winning_line(&b).unwrap();
        assert_eq!(c, Color::Black);
        assert_eq!(names(&b, &line), "a1 b1 c1 d1 e1");

        // Exact five: an overline is no win, so the board has no winner and no line.
        let mut b = Board::new(15, 15, Rule::Exact).unwrap();
        play(&mut b, "a1 a15 b1 b15 c1 c15 e1 e15 f1 f15 d1");
        assert_eq!(b.winner(), None);
        assert_eq!(winning_line(&b), None);

        // A diagram has no move order; its five is still found.
        let b = Board::from_diagram(
            ". . . . . . .\n. O O O O O .\n. X X X X . .\n. . . . . . .\n. . . . . X .\n. . . . . . .\n. . . . . . .\n",
            Rule::Freestyle,
        )
        .unwrap();
        let (c, line) = winning_line(&b).unwrap();
        assert_eq!(c, Color::White);
        assert_eq!(names(&b, &line), "b6 c6 d6 e6 f6");
    }

    #[test]
    fn fouls_are_named_and_games_end() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        // Black h9 h10 i8 j8: h8 makes two open threes.
        play(&mut b, "h9 a1 h10 o1 i8 a15 j8 o15");
        assert_eq!(foul(&mut b, Pos::new(7, 7)), Some("double three"));
        assert_eq!(foul(&mut b, Pos::new(7, 8)), None);
        assert!(has_legal_move(&b));
        assert_eq!(game_end(&b), None);
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        play(&mut b, "a1 a15 b1 b15 c1 c15 d1 d15 e1");
        let end = game_end(&b).unwrap();
        assert_eq!(end.winner(), Some(Color::Black));
        assert!(matches!(end, GameEnd::Five(Color::Black, ref l) if l.len() == 5));
    }
}
