//! Small value types shared by every module: colours, squares, rules and scores.

use std::fmt;

/// Cells outside the playing area on each side of the padded board. Five is the
/// longest reach of a line window (see [`crate::core::pattern`]), so a window centred on
/// any real square stays inside the array.
pub const PAD: usize = 5;
/// Largest board side supported.
pub const MAX_SIZE: usize = 32;
/// Smallest board side supported.
pub const MIN_SIZE: usize = 5;
/// Row stride of the padded board array (fixed, so direction offsets are constants).
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded board array.
pub const CELLS: usize = STRIDE * STRIDE;
/// Index offsets of the four line directions: horizontal, vertical, diagonal (down-right)
/// and anti-diagonal (down-left).
pub const DIR_OFFSETS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// The four directions as (dx, dy).
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// A stone colour. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    /// The cell code of a stone of this colour (see [`cell`]).
    #[inline]
    pub fn cell(self) -> u8 {
        self as u8 + 1
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// Cell codes in the board array (the digits of line keys, see [`crate::core::pattern::line_key`]).
pub mod cell {
    pub const EMPTY: u8 = 0;
    pub const BLACK: u8 = 1;
    pub const WHITE: u8 = 2;
    pub const WALL: u8 = 3;
}

/// A square, stored as its index into the padded board array.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// Marker for "no square" (index 0 is always padding, never a playable square).
    pub const NONE: Pos = Pos(0);

    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
    /// The square `k` steps along direction `d` (may be padding).
    #[inline]
    pub fn step(self, d: usize, k: isize) -> Pos {
        Pos((self.0 as isize + DIR_OFFSETS[d] * k) as u16)
    }
    /// Whether `q` is another square on one of the four lines through this one, at most
    /// `n` steps away: the squares whose line windows (five each way) see this one, for
    /// `n` = 5.
    #[inline]
    pub fn sees(self, q: Pos, n: usize) -> bool {
        let dx = self.x().abs_diff(q.x());
        let dy = self.y().abs_diff(q.y());
        self != q && (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= n
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_none() {
            write!(f, "none")
        } else {
            write!(f, "{},{}", self.x(), self.y())
        }
    }
}

/// The game rules, numbered as the protocol's `INFO rule`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// 0: five or more in a row wins.
    Freestyle,
    /// 1: exactly five wins; an overline wins for nobody.
    Exact,
    /// 4 (and 2, as Yixin-Board sends): black must make exactly five and may not play
    /// overlines, double fours or double threes; white wins with five or more.
    Renju,
    /// 8: caro, five or more wins unless both ends of the line are blocked by the opponent.
    Caro,
    /// 9: caro with exactly five.
    CaroExact,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Exact,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Parses the protocol's `INFO rule` value. Gomocup defines it as a bit mask: 1 exact
    /// five, 2 continuous game, 4 renju, 8 caro. Bit 2 is about the manager (whether the
    /// game goes on after a five) and changes nothing in how to play, so 3 is exact five
    /// and 10 caro. Yixin-Board sends 2 alone for renju, and where the two readings clash
    /// Yixin-Board's wins: 2 is renju (Gomocup's freestyle continuous game is played the
    /// same way as freestyle, so only the renju reading changes play). Renju already makes
    /// black's five exact, so the exact bit adds nothing to it (5 is renju). Renju with
    /// caro (4 and 8 together), and values outside 0 to 15, are impossible: `None`.
    pub fn from_info(n: i64) -> Option<Rule> {
        const EXACT: i64 = 1;
        const RENJU: i64 = 4;
        const CARO: i64 = 8;
        if !(0..=15).contains(&n) {
            return None;
        }
        if n == 2 {
            return Some(Rule::Renju);
        }
        let exact = n & EXACT != 0;
        match (n & RENJU != 0, n & CARO != 0) {
            (true, true) => None,
            (true, false) => Some(Rule::Renju),
            (false, true) if exact => Some(Rule::CaroExact),
            (false, true) => Some(Rule::Caro),
            (false, false) if exact => Some(Rule::Exact),
            (false, false) => Some(Rule::Freestyle),
        }
    }
    /// The protocol number of this rule.
    pub fn info_number(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Exact => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }
    pub fn index(self) -> usize {
        match self {
            Rule::Freestyle => 0,
            Rule::Exact => 1,
            Rule::Renju => 2,
            Rule::Caro => 3,
            Rule::CaroExact => 4,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact5",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact5",
        }
    }
    /// Parses a rule by name or by its `INFO rule` value (`freestyle`, `exact5`, `renju`,
    /// `caro`, `caro-exact5`, or a number as [`Rule::from_info`] reads it).
    pub fn parse(s: &str) -> Option<Rule> {
        let s = s.trim().to_ascii_lowercase();
        if let Ok(n) = s.parse::<i64>() {
            return Rule::from_info(n);
        }
        match s.as_str() {
            "freestyle" | "free" | "gomoku" => Some(Rule::Freestyle),
            "exact" | "exact5" | "standard" => Some(Rule::Exact),
            "renju" => Some(Rule::Renju),
            "caro" => Some(Rule::Caro),
            "caro-exact" | "caro-exact5" | "caro5" => Some(Rule::CaroExact),
            _ => None,
        }
    }
    /// Whether black has forbidden moves.
    #[inline]
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }
}

/// Search scores, from the side to move. Mates are `MATE - plies` to the five.
pub type Score = i32;
pub const MATE: Score = 30_000;
pub const INF: Score = 32_000;
/// Scores above this (in absolute value) are mates.
pub const MATE_BOUND: Score = MATE - 1_000;

/// Score for the side to move when it makes five in `ply` plies from the root.
#[inline]
pub fn mate_in(ply: i32) -> Score {
    MATE - ply
}
/// Score for the side to move when the opponent makes five in `ply` plies from the root.
#[inline]
pub fn mated_in(ply: i32) -> Score {
    -MATE + ply
}
#[inline]
pub fn is_mate(s: Score) -> bool {
    s.abs() >= MATE_BOUND
}

/// Plies to the five of a mate score: positive when the side to move makes five, negative when the
/// opponent does.
pub fn mate_plies(s: Score) -> Option<i32> {
    if !is_mate(s) {
        None
    } else if s > 0 {
        Some(MATE - s)
    } else {
        Some(-(MATE + s))
    }
}

/// What a searched score means: the true score is at most it (`Upper`: no move reached
/// alpha), at least it (`Lower`: a move reached beta), or it (`Exact`). The transposition
/// table and the position database both keep it, under the numbers Yixin-Board shows
/// ([`Bound::code`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

impl Bound {
    /// The bound's number: 1 upper, 2 lower, 3 exact (0 stands for none where one may be
    /// missing).
    pub fn code(self) -> i64 {
        self as i64
    }

    /// The bound of a number, `None` for 0 (or anything else that names none).
    pub fn from_code(code: i64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }

    /// The bound of the negated score: the side to move's upper bound is the other
    /// side's lower bound.
    pub fn flipped(self) -> Bound {
        match self {
            Bound::Upper => Bound::Lower,
            Bound::Lower => Bound::Upper,
            Bound::Exact => Bound::Exact,
        }
    }
}

/// Formats a score as GUIs expect: centipawn-like number, or `+M7` / `-M7` for a
/// five in 7 plies.
pub fn format_score(s: Score) -> String {
    if s >= MATE_BOUND {
        format!("+M{}", MATE - s)
    } else if s <= -MATE_BOUND {
        format!("-M{}", MATE + s)
    } else {
        s.to_string()
    }
}

/// A symmetry of the square, as a map of an offset from the centre.
pub type Symmetry = fn(i64, i64) -> (i64, i64);

/// The eight symmetries of the square.
pub fn symmetries() -> [Symmetry; 8] {
    [
        |x, y| (x, y),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (-x, -y),
        |x, y| (y, x),
        |x, y| (-y, x),
        |x, y| (y, -x),
        |x, y| (-y, -x),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value 0 to 15 of Gomocup's bit mask (1 exact, 2 continuous, 4 renju, 8
    /// caro), with Yixin-Board's 2 for renju; everything else refused.
    #[test]
    fn info_rule_reads_gomocups_bit_mask() {
        use Rule::*;
        let expected = [
            Some(Freestyle), // 0
            Some(Exact),     // 1
            Some(Renju),     // 2: Yixin-Board's renju
            Some(Exact),     // 3: exact five, continuous game
            Some(Renju),     // 4
            Some(Renju),     // 5
            Some(Renju),     // 6
            Some(Renju),     // 7
            Some(Caro),      // 8
            Some(CaroExact), // 9
            Some(Caro),      // 10
            Some(CaroExact), // 11
            None,            // 12: renju and caro
            None,
            None,
            None,
        ];
        for (n, want) in expected.iter().enumerate() {
            assert_eq!(Rule::from_info(n as i64), *want, "INFO rule {n}");
        }
        for n in [-1, 16, 17, 255, i64::MAX, i64::MIN] {
            assert_eq!(Rule::from_info(n), None, "INFO rule {n}");
        }
        // Each rule's own number reads back as itself.
        for r in Rule::ALL {
            assert_eq!(Rule::from_info(r.info_number()), Some(r));
        }
    }

    /// `sees` is exactly "one of the forty squares whose line windows hold this one".
    #[test]
    fn a_square_sees_the_forty_squares_on_its_lines() {
        let p = Pos::new(10, 10);
        let on_lines: Vec<Pos> = (0..4)
            .flat_map(|d| (1..=5).flat_map(move |k| [p.step(d, k), p.step(d, -k)]))
            .collect();
        let mut seen = 0;
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let q = Pos::new(x, y);
                assert_eq!(q.sees(p, 5), on_lines.contains(&q), "{x},{y}");
                seen += usize::from(q.sees(p, 5));
            }
        }
        assert_eq!(seen, 40);
        assert!(!p.sees(p, 5));
        assert!(Pos::new(12, 8).sees(p, 2) && !Pos::new(13, 7).sees(p, 2));
    }
}
