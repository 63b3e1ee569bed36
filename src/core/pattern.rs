//! Lookup tables built once per rule: a line window around a square → the shape that
//! square would make on that line for each colour, and four such shapes → the square's
//! combined threat class.
//!
//! A *line key* describes the ten squares within five steps of a centre square along one
//! direction (see [`line_key`]: a base-three number per side, empty, black or white, and
//! where the board ends); the centre itself is not in the key. Five steps are enough to see every five through the centre and the squares just
//! beyond it, which decide overlines (exact five, renju) and blocked fives (caro).
//!
//! Shapes are defined recursively on the line, always through the centre stone:
//! - `Five`: the centre completes a winning line (exactly five where the rule asks);
//! - `Overline`: the centre makes six or more where that does not win;
//! - `OpenFour`: two squares complete a five, with the same four stones (`.XXXX.`);
//! - `DoubleFour`: two squares complete a five with different stones (`X.XXX.X`);
//! - `Four`: one square completes a five;
//! - `OpenThree`: one more stone makes an `OpenFour` (for renju black only a true
//!   straight four counts; elsewhere a one-line double four does too);
//! - `Three`: one more stone makes a four;
//! - `OpenTwo`: one more stone makes an open three; `Two`: one more makes a three.

use crate::core::types::{Color, Rule};

/// The shape a square makes on one line if a colour plays there.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pat {
    None = 0,
    Two = 1,
    OpenTwo = 2,
    Three = 3,
    OpenThree = 4,
    Four = 5,
    OpenFour = 6,
    DoubleFour = 7,
    Five = 8,
    Overline = 9,
}

impl Pat {
    pub const COUNT: usize = 10;
    #[inline]
    pub fn from_u8(v: u8) -> Pat {
        match v {
            0 => Pat::None,
            1 => Pat::Two,
            2 => Pat::OpenTwo,
            3 => Pat::Three,
            4 => Pat::OpenThree,
            5 => Pat::Four,
            6 => Pat::OpenFour,
            7 => Pat::DoubleFour,
            8 => Pat::Five,
            9 => Pat::Overline,
            _ => Pat::None,
        }
    }
    /// Whether this shape is a four of some kind (one or more squares complete a five).
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Pat::Four | Pat::OpenFour | Pat::DoubleFour)
    }
}

/// The combined threat class of a square for one colour, weakest first.
/// "…Two" means "plus a lesser shape (a three or an open two) on another line".
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    OpenTwo = 1,
    Three = 2,
    DoubleTwo = 3,
    ThreeTwo = 4,
    OpenThree = 5,
    OpenThreeTwo = 6,
    /// Two open threes. For renju black this is only a *candidate* foul: whether it is
    /// forbidden needs the recursive check in [`crate::core::rules::is_forbidden`].
    DoubleThree = 7,
    Four = 8,
    FourTwo = 9,
    FourThree = 10,
    /// Two squares to complete five: an open four, a double four (not renju black).
    OpenFour = 11,
    Five = 12,
    /// Renju black only: overline or double four without a five. Never a legal move.
    Forbidden = 13,
}

impl Threat {
    pub const COUNT: usize = 14;
    #[inline]
    pub fn from_u8(v: u8) -> Threat {
        debug_assert!((v as usize) < Threat::COUNT);
        // SAFETY-free conversion through a table keeps this total.
        const ALL: [Threat; Threat::COUNT] = [
            Threat::None,
            Threat::OpenTwo,
            Threat::Three,
            Threat::DoubleTwo,
            Threat::ThreeTwo,
            Threat::OpenThree,
            Threat::OpenThreeTwo,
            Threat::DoubleThree,
            Threat::Four,
            Threat::FourTwo,
            Threat::FourThree,
            Threat::OpenFour,
            Threat::Five,
            Threat::Forbidden,
        ];
        ALL[(v as usize).min(Threat::COUNT - 1)]
    }
    /// Makes a four (or better) on some line.
    #[inline]
    pub fn is_four_or_better(self) -> bool {
        self >= Threat::Four && self <= Threat::Five
    }
    /// Makes an open three (or better) but no four.
    #[inline]
    pub fn is_three_class(self) -> bool {
        self >= Threat::OpenThree && self <= Threat::DoubleThree
    }
}

/// How a line is judged, per rule and colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Five or more wins.
    Std,
    /// Exactly five wins; six or more is an overline.
    Exact,
    /// Renju black: exactly five, and only a true straight four makes an open three.
    RenjuBlack,
    /// Caro: five or more, not blocked by the opponent at both ends.
    CaroStd,
    /// Caro with exactly five.
    CaroExact,
}

impl Kind {
    pub fn of(rule: Rule, color: Color) -> Kind {
        match (rule, color) {
            (Rule::Freestyle, _) => Kind::Std,
            (Rule::Exact, _) => Kind::Exact,
            (Rule::Renju, Color::Black) => Kind::RenjuBlack,
            (Rule::Renju, Color::White) => Kind::Std,
            (Rule::Caro, _) => Kind::CaroStd,
            (Rule::CaroExact, _) => Kind::CaroExact,
        }
    }
    fn exact(self) -> bool {
        matches!(self, Kind::Exact | Kind::RenjuBlack | Kind::CaroExact)
    }
    fn caro(self) -> bool {
        matches!(self, Kind::CaroStd | Kind::CaroExact)
    }
}

// Own-perspective cell codes used while classifying a line.
const E: u8 = 0;
const O: u8 = 1;
const X: u8 = 2;
const W: u8 = 3;

/// Keys of one side of a line (the five squares from the centre outwards): the board
/// ends there after `j` squares (`j` = 0..=5) and those squares are empty, black or
/// white, so there are `1 + 3 + 9 + 27 + 81 + 243` of them.
const SIDE_KEYS: u32 = 364;

/// Number of distinct line keys. A key is a base-three number per side, offset by where
/// the board ends on that side (see [`line_key`]): 132 496 keys, where two bits per
/// square would need 2^20. The table indexed by it (a byte per key) fits the processor's
/// second-level cache.
pub const KEY_COUNT: usize = (SIDE_KEYS * SIDE_KEYS) as usize;

/// First key of a side whose board ends after `j` squares: `(3^j - 1) / 2`.
const SIDE_OFFSET: [u32; 6] = [0, 1, 4, 13, 40, 121];

/// What a stone of cell code 1 (black) `k` steps from the centre adds to the line key
/// (`k` in -5..=5, not 0); a white stone (code 2) adds twice as much. Squares on the
/// board only: the key changes by `code * key_weight(k)` when a stone is placed or taken
/// away, whatever else is on the line.
#[inline]
pub const fn key_weight(k: isize) -> u32 {
    const POW3: [u32; 5] = [1, 3, 9, 27, 81];
    if k < 0 {
        POW3[(-k - 1) as usize] * SIDE_KEYS
    } else {
        POW3[(k - 1) as usize]
    }
}

/// The line key of the ten squares around a centre, `cell_at(k)` giving the cell code
/// (as in [`crate::core::types::cell`]) of the square `k` steps away (`k` in -5..=5, not 0).
/// Walls are only beyond the board's edge: a wall ends that side, and what lies past it
/// is not looked at.
pub fn line_key(cell_at: impl Fn(isize) -> u8) -> u32 {
    let side = |dir: isize| {
        let (mut v, mut j) = (0, 0);
        while j < 5 {
            let c = cell_at(dir * (j + 1));
            if c == W {
                break;
            }
            v += c as u32 * key_weight(j + 1);
            j += 1;
        }
        SIDE_OFFSET[j as usize] + v
    };
    side(-1) * SIDE_KEYS + side(1)
}

/// Line of eleven cells with the centre at index 5.
type Line = [u8; 11];

/// Whether the own run `l..=r` wins under `kind`.
fn win_run(line: &Line, l: usize, r: usize, kind: Kind) -> bool {
    let len = r - l + 1;
    let long_enough = if kind.exact() { len == 5 } else { len >= 5 };
    if !long_enough {
        return false;
    }
    if kind.caro() {
        let left_blocked = l > 0 && line[l - 1] == X;
        let right_blocked = r < 10 && line[r + 1] == X;
        if left_blocked && right_blocked {
            return false;
        }
    }
    true
}

/// The own run through the centre.
fn run(line: &Line) -> (usize, usize) {
    let mut l = 5;
    while l > 0 && line[l - 1] == O {
        l -= 1;
    }
    let mut r = 5;
    while r < 10 && line[r + 1] == O {
        r += 1;
    }
    (l, r)
}

/// Everything beyond the first blocker (opponent stone or wall) on each side cannot
/// matter, so it is replaced by copies of that blocker; this keeps the memo small.
fn normalize(mut line: Line) -> Line {
    let mut i = 5;
    while i > 0 {
        i -= 1;
        if line[i] == X || line[i] == W {
            let b = line[i];
            for c in line.iter_mut().take(i) {
                *c = b;
            }
            break;
        }
    }
    let mut i = 5;
    while i < 10 {
        i += 1;
        if line[i] == X || line[i] == W {
            let b = line[i];
            for c in line.iter_mut().skip(i + 1) {
                *c = b;
            }
            break;
        }
    }
    line
}

fn encode(line: &Line) -> usize {
    line.iter().fold(0usize, |acc, &c| acc * 4 + c as usize)
}

struct Classifier {
    kind: Kind,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = 255;

impl Classifier {
    fn new(kind: Kind) -> Classifier {
        Classifier {
            kind,
            memo: vec![UNKNOWN; 1 << 22],
        }
    }

    /// Shape through the centre, which must hold an own stone.
    fn classify(&mut self, line: Line) -> Pat {
        let line = normalize(line);
        let idx = encode(&line);
        if self.memo[idx] != UNKNOWN {
            return Pat::from_u8(self.memo[idx]);
        }
        let p = self.compute(line);
        self.memo[idx] = p as u8;
        p
    }

    fn compute(&mut self, mut line: Line) -> Pat {
        let kind = self.kind;
        let (l, r) = run(&line);
        if win_run(&line, l, r, kind) {
            return Pat::Five;
        }
        if kind.exact() && r - l + 1 >= 6 {
            return Pat::Overline;
        }
        let mut fives = [0usize; 11];
        let mut nf = 0;
        for e in 0..11 {
            if line[e] != E {
                continue;
            }
            line[e] = O;
            let (l2, r2) = run(&line);
            if win_run(&line, l2, r2, kind) {
                fives[nf] = e;
                nf += 1;
            }
            line[e] = E;
        }
        if nf >= 2 {
            for i in 0..nf {
                for j in i + 1..nf {
                    let (a, b) = (fives[i], fives[j]);
                    if b - a == 5 && line[a + 1..b].iter().all(|&c| c == O) {
                        return Pat::OpenFour;
                    }
                }
            }
            return Pat::DoubleFour;
        }
        if nf == 1 {
            return Pat::Four;
        }
        let mut best = Pat::None;
        for e in 0..11 {
            if line[e] != E {
                continue;
            }
            line[e] = O;
            let child = self.classify(line);
            line[e] = E;
            let up = match child {
                Pat::OpenFour => Pat::OpenThree,
                Pat::DoubleFour if kind == Kind::RenjuBlack => Pat::Three,
                Pat::DoubleFour => Pat::OpenThree,
                Pat::Four => Pat::Three,
                Pat::OpenThree => Pat::OpenTwo,
                Pat::Three => Pat::Two,
                _ => Pat::None,
            };
            if up > best {
                best = up;
            }
        }
        best
    }
}

/// Combines the four line shapes of a square into its threat class.
pub fn combine(pats: [Pat; 4], renju_black: bool) -> Threat {
    let mut n = [0u8; Pat::COUNT];
    for p in pats {
        n[p as usize] += 1;
    }
    let c = |p: Pat| n[p as usize];
    if c(Pat::Five) > 0 {
        return Threat::Five;
    }
    let b4 = c(Pat::Four);
    let f3 = c(Pat::OpenThree);
    let minor = c(Pat::Three) + c(Pat::OpenTwo);
    if renju_black {
        if c(Pat::Overline) > 0 {
            return Threat::Forbidden;
        }
        let fours = c(Pat::OpenFour) + b4 + 2 * c(Pat::DoubleFour);
        if fours >= 2 {
            return Threat::Forbidden;
        }
        if f3 >= 2 {
            return Threat::DoubleThree;
        }
        if c(Pat::OpenFour) > 0 {
            return Threat::OpenFour;
        }
    } else if c(Pat::OpenFour) + c(Pat::DoubleFour) > 0 || b4 >= 2 {
        return Threat::OpenFour;
    }
    if b4 >= 1 {
        return if f3 >= 1 {
            Threat::FourThree
        } else if minor >= 1 {
            Threat::FourTwo
        } else {
            Threat::Four
        };
    }
    if f3 >= 2 {
        return Threat::DoubleThree;
    }
    if f3 == 1 {
        return if minor >= 1 {
            Threat::OpenThreeTwo
        } else {
            Threat::OpenThree
        };
    }
    let b3 = c(Pat::Three);
    if b3 >= 1 {
        return if minor >= 2 {
            Threat::ThreeTwo
        } else {
            Threat::Three
        };
    }
    match c(Pat::OpenTwo) {
        0 => Threat::None,
        1 => Threat::OpenTwo,
        _ => Threat::DoubleTwo,
    }
}

/// Unpacks four 4-bit shapes.
#[inline]
pub fn unpack4(p: u16) -> [Pat; 4] {
    [
        Pat::from_u8((p & 15) as u8),
        Pat::from_u8(((p >> 4) & 15) as u8),
        Pat::from_u8(((p >> 8) & 15) as u8),
        Pat::from_u8(((p >> 12) & 15) as u8),
    ]
}

/// The line table of a rule: line key ([`line_key`]) → the shape black would make at
/// the centre (low nibble) | the shape white would make (high nibble).
pub fn line_table(rule: Rule) -> Vec<u8> {
    let mut cb = Classifier::new(Kind::of(rule, Color::Black));
    let mut cw = Classifier::new(Kind::of(rule, Color::White));
    // Only keys that can occur on a board are filled: walls come only from the
    // outside in (a window reaching past the edge), so each side has 0..=5 walls
    // at its outer end and the inner squares are empty, black or white.
    let mut line_table = vec![0u8; KEY_COUNT];
    let mut cells = [0u8; 10];
    for wl in 0..=5usize {
        for wr in 0..=5usize {
            let inner: Vec<usize> = (wl..10 - wr).collect();
            let combos = 3usize.pow(inner.len() as u32);
            for code in 0..combos {
                let mut c = code;
                for (s, cell) in cells.iter_mut().enumerate() {
                    *cell = if s < wl || s >= 10 - wr {
                        W
                    } else {
                        let v = (c % 3) as u8;
                        c /= 3;
                        v
                    };
                }
                let key = line_key(|k| {
                    cells[if k < 0 {
                        (k + 5) as usize
                    } else {
                        (k + 4) as usize
                    }]
                }) as usize;
                let mut lb: Line = [0; 11];
                for s in 0..10 {
                    lb[if s < 5 { s } else { s + 1 }] = cells[s];
                }
                lb[5] = O;
                let mut lw = lb;
                for c in lw.iter_mut() {
                    *c = match *c {
                        1 => 2,
                        2 => 1,
                        v => v,
                    };
                }
                lw[5] = O;
                line_table[key] = cb.classify(lb) as u8 | (cw.classify(lw) as u8) << 4;
            }
        }
    }
    line_table
}

/// Classifies a line given as text, for the tests: `X` own stone, `O` opponent,
/// `.` empty, `|` wall, `*` the centre (the square being played). The centre must be
/// within the text; up to five cells each side are used, the rest count as empty.
#[cfg(test)]
fn classify_text(text: &str, kind: Kind) -> Option<Pat> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let centre = chars.iter().position(|&c| c == '*')?;
    let mut line: Line = [E; 11];
    for (i, &c) in chars.iter().enumerate() {
        let k = i as isize - centre as isize;
        if !(-5..=5).contains(&k) {
            continue;
        }
        line[(k + 5) as usize] = match c {
            'X' | 'x' => O,
            'O' | 'o' => X,
            '.' => E,
            '|' => W,
            '*' => O,
            _ => return None,
        };
    }
    // Beyond the first wall on each side everything counts as wall (`normalize`).
    let mut c = Classifier::new(kind);
    Some(c.classify(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str, kind: Kind) -> Pat {
        classify_text(s, kind).unwrap()
    }

    #[test]
    fn basic_shapes_freestyle() {
        let s = Kind::Std;
        assert_eq!(k("XX*XX", s), Pat::Five);
        assert_eq!(k("XX*XXX", s), Pat::Five);
        assert_eq!(k("..X*XX..", s), Pat::OpenFour);
        assert_eq!(k("|X*XX..", s), Pat::Four);
        assert_eq!(k("X.*XX.X", s), Pat::DoubleFour);
        assert_eq!(k("..X*X..", s), Pat::OpenThree);
        assert_eq!(k("|X*X...", s), Pat::Three);
        assert_eq!(k("..X*...", s), Pat::OpenTwo);
        assert_eq!(k("O.X*...O", s), Pat::OpenTwo);
        // Five free squares between blockers can never hold an open four.
        assert_eq!(k("O.X*..O", s), Pat::Two);
        assert_eq!(k("O*...O", s), Pat::None);
    }

    #[test]
    fn exact_and_renju_overlines() {
        assert_eq!(k("XX*XXX", Kind::Exact), Pat::Overline);
        assert_eq!(k("XX*XXX", Kind::RenjuBlack), Pat::Overline);
        // X.XXXX: filling the gap is an overline, so only the far end completes five.
        assert_eq!(k(".X.*XXX.", Kind::RenjuBlack), Pat::Four);
        assert_eq!(k(".X.*XXX.", Kind::Std), Pat::OpenFour);
        // A three whose only open-four square makes six is a plain three in renju.
        assert_eq!(k("X.*XX..", Kind::RenjuBlack), Pat::Four);
    }

    #[test]
    fn caro_blocked_five() {
        assert_eq!(k("OXX*XXO", Kind::CaroStd), Pat::None);
        assert_eq!(k("OXX*XX.", Kind::CaroStd), Pat::Five);
        assert_eq!(k("|XX*XX|", Kind::CaroStd), Pat::Five);
        // The only five would be blocked at both ends: a dead line in caro.
        assert_eq!(k("OX*XX.O", Kind::CaroStd), Pat::None);
        assert_eq!(k("OX*XX..O", Kind::CaroStd), Pat::Four);
        assert_eq!(k("OXX*XXXO", Kind::CaroExact), Pat::Overline);
    }

    #[test]
    fn line_keys_are_dense_and_change_by_the_stone_weights() {
        // Every line that can occur (walls only past the edges, then empty, black or
        // white) has its own key below KEY_COUNT, and placing a stone adds its weight.
        let mut seen = vec![false; KEY_COUNT];
        let mut cells = [0u8; 11];
        for wl in 0..=5isize {
            for wr in 0..=5isize {
                let inner = (10 - wl - wr) as u32;
                for code in 0..3usize.pow(inner) {
                    let mut c = code;
                    for k in (-5isize..=5).filter(|&k| k != 0) {
                        cells[(k + 5) as usize] = if k < -5 + wl || k > 5 - wr {
                            W
                        } else {
                            let v = (c % 3) as u8;
                            c /= 3;
                            v
                        };
                    }
                    let key = line_key(|k| cells[(k + 5) as usize]) as usize;
                    assert!(key < KEY_COUNT && !seen[key], "key {key} twice or too big");
                    seen[key] = true;
                    for k in (-5isize..=5).filter(|&k| k != 0) {
                        if cells[(k + 5) as usize] == E {
                            for stone in [O, X] {
                                let mut with = cells;
                                with[(k + 5) as usize] = stone;
                                assert_eq!(
                                    line_key(|j| with[(j + 5) as usize]),
                                    key as u32 + stone as u32 * key_weight(k)
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn combine_classes() {
        use Pat::*;
        assert_eq!(
            combine([Four, OpenThree, None, None], false),
            Threat::FourThree
        );
        assert_eq!(combine([Four, Four, None, None], false), Threat::OpenFour);
        assert_eq!(combine([Four, Four, None, None], true), Threat::Forbidden);
        assert_eq!(combine([Five, Four, Four, None], true), Threat::Five);
        assert_eq!(
            combine([OpenThree, OpenThree, None, None], true),
            Threat::DoubleThree
        );
        assert_eq!(
            combine([Overline, None, None, None], true),
            Threat::Forbidden
        );
        assert_eq!(combine([Overline, None, None, None], false), Threat::None);
        assert_eq!(
            combine([DoubleFour, None, None, None], true),
            Threat::Forbidden
        );
        assert_eq!(
            combine([OpenTwo, OpenTwo, None, None], false),
            Threat::DoubleTwo
        );
    }
}
