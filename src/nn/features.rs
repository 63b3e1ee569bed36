//! What the network sees of a square: five table rows, one per line direction and one
//! for the square's threat classes.
//!
//! **Line rows.** The board keeps, per square and direction, a line key of the ten
//! squares within five steps ([`crate::core::pattern::line_key`]: a base-three number per
//! side, black 1 and white 2, offset by where the board ends). The network reads four
//! steps each way, from one colour's point of view (own stones 1, the other's 2): a side
//! has `1 + 3 + 9 + 27 + 81 = 121` codes, a line `121 * 121`. A line and its mirror
//! image (the two sides swapped) share a row, since the board's symmetries turn one into
//! the other: [`LINE_ROWS`] = `121 * 122 / 2` = 7381 rows, and the four directions share
//! them too. So the network's output is the same on all eight symmetric images of a
//! position (and its policy moves with them), with no augmentation in training.
//!
//! **Threat row.** The square's combined threat class for the own colour and for the
//! other ([`Threat`], 14 each: 196 rows after the line rows). The classes see five steps
//! and know the rule (overlines, renju fouls), which four steps of raw stones do not.

use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::types::{Color, Pos};
use std::sync::OnceLock;

/// Codes of one side of a line, four squares out.
pub const SIDE_CODES: usize = 121;
/// Rows for lines: one per unordered pair of side codes.
pub const LINE_ROWS: usize = SIDE_CODES * (SIDE_CODES + 1) / 2;
/// Rows for threat classes: own class times the other's.
pub const THREAT_ROWS: usize = Threat::COUNT * Threat::COUNT;
/// All rows of a table.
pub const ROWS: usize = LINE_ROWS + THREAT_ROWS;
/// Rows summed for one square: four lines and the threat classes.
pub const ROWS_PER_SQUARE: usize = 5;

/// The board's side keys (five squares, `0..364`) and where they start for each length.
const BOARD_SIDE_KEYS: usize = 364;
const BOARD_SIDE_OFFSET: [u32; 6] = [0, 1, 4, 13, 40, 121];
/// Where the network's side codes of each length (0 to 4 squares) start.
const SIDE_OFFSET: [usize; 5] = [0, 1, 4, 13, 40];

pub(crate) struct Maps {
    /// Per point of view (0 black, 1 white): board side key → the network's side code.
    side: [[u8; BOARD_SIDE_KEYS]; 2],
    /// `left * 121 + right` → line row.
    line: Vec<u16>,
}

fn maps() -> &'static Maps {
    static M: OnceLock<Maps> = OnceLock::new();
    M.get_or_init(|| {
        let mut side = [[0u8; BOARD_SIDE_KEYS]; 2];
        for (view, table) in side.iter_mut().enumerate() {
            for (key, code) in table.iter_mut().enumerate() {
                *code = side_code(key as u32, view) as u8;
            }
        }
        let mut line = vec![0u16; SIDE_CODES * SIDE_CODES];
        let mut next = 0u16;
        for l in 0..SIDE_CODES {
            for r in l..SIDE_CODES {
                line[l * SIDE_CODES + r] = next;
                line[r * SIDE_CODES + l] = next;
                next += 1;
            }
        }
        debug_assert_eq!(next as usize, LINE_ROWS);
        Maps { side, line }
    })
}

/// The network's code of a board side key seen by `view` (0 black, 1 white): the first
/// four squares, own stones 1 and the other colour's 2.
fn side_code(key: u32, view: usize) -> usize {
    let len = BOARD_SIDE_OFFSET
        .iter()
        .rposition(|&o| o <= key)
        .expect("offset 0");
    let mut digits = key - BOARD_SIDE_OFFSET[len];
    let n = len.min(4);
    let mut code = 0;
    let mut pow = 1;
    for _ in 0..n {
        let mut c = (digits % 3) as usize;
        digits /= 3;
        if view == 1 && c != 0 {
            c = 3 - c;
        }
        code += c * pow;
        pow *= 3;
    }
    SIDE_OFFSET[n] + code
}

/// The line row of a board line key (see [`crate::core::pattern::line_key`]) seen by
/// `view`.
#[inline]
pub fn line_row(key: u32, view: Color) -> usize {
    line_row_in(maps(), key, view)
}

#[inline(always)]
fn line_row_in(m: &Maps, key: u32, view: Color) -> usize {
    let side = &m.side[view.index()];
    let l = side[(key / BOARD_SIDE_KEYS as u32) as usize] as usize;
    let r = side[(key % BOARD_SIDE_KEYS as u32) as usize] as usize;
    m.line[l * SIDE_CODES + r] as usize
}

/// The line rows of a board line key seen by black and by white, from the maps read
/// once by the caller ([`line_maps`]): what the evaluator's updates look up for every
/// changed line, so the maps are not fetched again for each.
#[inline(always)]
pub(crate) fn line_rows_both(m: &Maps, key: u32) -> [u16; 2] {
    let (lk, rk) = (
        (key / BOARD_SIDE_KEYS as u32) as usize,
        (key % BOARD_SIDE_KEYS as u32) as usize,
    );
    let row = |view: usize| {
        let side = &m.side[view];
        m.line[side[lk] as usize * SIDE_CODES + side[rk] as usize]
    };
    [row(0), row(1)]
}

/// The maps [`line_rows_both`] reads.
#[inline]
pub(crate) fn line_maps() -> &'static Maps {
    maps()
}

/// The threat row of an own and another threat class.
#[inline]
pub fn threat_row(own: Threat, other: Threat) -> usize {
    LINE_ROWS + own as usize * Threat::COUNT + other as usize
}

/// The five rows of square `p` seen by `view`. Meaningful for empty squares (the
/// network reads no others).
#[inline]
pub fn square_rows(b: &Board, p: Pos, view: Color) -> [usize; ROWS_PER_SQUARE] {
    let m = maps();
    [
        line_row_in(m, b.key(p, 0), view),
        line_row_in(m, b.key(p, 1), view),
        line_row_in(m, b.key(p, 2), view),
        line_row_in(m, b.key(p, 3), view),
        threat_row(b.threat(p, view), b.threat(p, view.opp())),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pattern::line_key;
    use crate::core::types::Rule;

    /// The line key of eleven cells written as text, centre in the middle: `.` empty,
    /// `x` black, `o` white, `#` beyond the board.
    fn key_of(text: &str) -> u32 {
        let cells: Vec<u8> = text
            .chars()
            .map(|c| match c {
                'x' => 1,
                'o' => 2,
                '#' => 3,
                _ => 0,
            })
            .collect();
        assert_eq!(cells.len(), 11);
        line_key(|k| cells[(5 + k) as usize])
    }

    #[test]
    fn rows_see_four_squares_each_way_from_one_colour() {
        // The fifth square out is not seen.
        assert_eq!(
            line_row(key_of("x....?....."), Color::Black),
            line_row(key_of(".....?....."), Color::Black)
        );
        assert_ne!(
            line_row(key_of(".x...?....."), Color::Black),
            line_row(key_of(".....?....."), Color::Black)
        );
        // Mirror images share a row.
        assert_eq!(
            line_row(key_of("..xo.?....#"), Color::Black),
            line_row(key_of("#....?.ox.."), Color::Black)
        );
        // Black's view of a line is white's view of the colours swapped.
        assert_eq!(
            line_row(key_of("..xo.?.x..."), Color::Black),
            line_row(key_of("..ox.?.o..."), Color::White)
        );
        assert_ne!(
            line_row(key_of("..xo.?.x..."), Color::Black),
            line_row(key_of("..xo.?.x..."), Color::White)
        );
        // A wall four steps out and one five steps out differ (the fifth is the wall's
        // own square, off the board, so the side has four squares either way: equal).
        assert_eq!(
            line_row(key_of("#....?....."), Color::Black),
            line_row(key_of(".....?....."), Color::Black)
        );
        assert_ne!(
            line_row(key_of(".#...?....."), Color::Black),
            line_row(key_of(".....?....."), Color::Black)
        );
    }

    #[test]
    fn every_row_is_used_and_in_range() {
        let mut seen = vec![false; LINE_ROWS];
        for l in 0..BOARD_SIDE_KEYS as u32 {
            for r in 0..BOARD_SIDE_KEYS as u32 {
                for view in [Color::Black, Color::White] {
                    seen[line_row(l * BOARD_SIDE_KEYS as u32 + r, view)] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(threat_row(Threat::Forbidden, Threat::Forbidden), ROWS - 1);
        let b = Board::square(15, Rule::Freestyle).unwrap();
        for p in b.squares() {
            assert!(square_rows(&b, p, Color::White).iter().all(|&r| r < ROWS));
        }
    }
}
