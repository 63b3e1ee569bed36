//! The board as text for people, shared by `play` and `analyse`: a grid with letters
//! across and row numbers down the side (counted from the bottom, the `h8` way), the
//! last move in brackets, renju fouls marked, and optional ANSI colours. Only drawing:
//! who won and why a move is a foul are decided in [`crate::core::rules`].

use crate::core::board::Board;
use crate::core::notation::square_name;
use crate::core::rules;
use crate::core::types::{Color, Pos};

/// Character of an empty square.
pub const EMPTY: char = '.';
/// Character of an empty square where black may not play (renju).
pub const FORBIDDEN: char = '!';

const RESET: &str = "\x1b[0m";
const BLACK_STYLE: &str = "\x1b[1;36m"; // bold cyan
const WHITE_STYLE: &str = "\x1b[1;33m"; // bold yellow
const LAST_STYLE: &str = "\x1b[1;32m"; // bold green brackets
const WIN_STYLE: &str = "\x1b[7m"; // reverse video
const FORBIDDEN_STYLE: &str = "\x1b[31m"; // red
const DIM_STYLE: &str = "\x1b[2m"; // dim dots and labels

/// What to show besides the stones.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// Square drawn in brackets (the last move).
    pub last: Option<Pos>,
    /// Stones to highlight (the winning line); only visible with colours.
    pub highlight: Vec<Pos>,
    /// Empty squares to mark as forbidden for black.
    pub forbidden: Vec<Pos>,
    /// Use ANSI colours.
    pub ansi: bool,
}

impl View {
    /// The usual view of a position: last move, winning line, and renju fouls while the
    /// game goes on.
    pub fn of(b: &Board, ansi: bool) -> View {
        let win = rules::winning_line(b);
        let forbidden = if win.is_none() && !b.is_full() && b.rule().has_forbidden() {
            rules::forbidden_squares(&mut b.clone())
        } else {
            Vec::new()
        };
        View {
            last: b.last_move(),
            highlight: win.map(|(_, l)| l).unwrap_or_default(),
            forbidden,
            ansi,
        }
    }
}

fn paint(s: &mut String, style: &str, text: &str, ansi: bool) {
    if ansi {
        s.push_str(style);
        s.push_str(text);
        s.push_str(RESET);
    } else {
        s.push_str(text);
    }
}

/// Column header line(s). Columns after `z` cannot be named by a letter; they are
/// labelled with their protocol `x` in two rows (tens, then units) and entered as `x,y`.
fn header(width: usize, ansi: bool) -> String {
    let mut s = String::new();
    let mut top = String::from("   ");
    let mut second = String::from("   ");
    for x in 0..width {
        top.push(' ');
        second.push(' ');
        if x < 26 {
            top.push((b'a' + x as u8) as char);
            second.push(' ');
        } else {
            top.push(char::from_digit((x / 10) as u32, 10).unwrap_or('?'));
            second.push(char::from_digit((x % 10) as u32, 10).unwrap_or('?'));
        }
    }
    paint(&mut s, DIM_STYLE, top.trim_end(), ansi);
    s.push('\n');
    if width > 26 {
        paint(&mut s, DIM_STYLE, second.trim_end(), ansi);
        s.push('\n');
    }
    s
}

/// Draws the board. Every square takes two characters, so the square in column `x`
/// (0-based) is at character `4 + 2x` of its row line; the last move is framed by
/// brackets that replace the spaces around it.
///
/// ```text
///     a b c d e f g h i j k l m n o
/// 15  . . . . . . . . . . . . . . .  15
///  8  . . . . . . .[X]. . . . . . .  8
/// ```
pub fn render(b: &Board, v: &View) -> String {
    let (w, h) = (b.width(), b.height());
    let mut s = header(w, v.ansi);
    for y in 0..h {
        let row = h - y;
        let mut line = String::new();
        paint(&mut line, DIM_STYLE, &format!("{row:>2}"), v.ansi);
        line.push(' ');
        for x in 0..w {
            let p = Pos::new(x, y);
            let sep = if v.last == Some(p) {
                '['
            } else if x > 0 && v.last == Some(Pos::new(x - 1, y)) {
                ']'
            } else {
                ' '
            };
            paint(
                &mut line,
                LAST_STYLE,
                &sep.to_string(),
                v.ansi && sep != ' ',
            );
            let (ch, style) = match b.stone(p) {
                Some(Color::Black) => ('X', BLACK_STYLE),
                Some(Color::White) => ('O', WHITE_STYLE),
                None if v.forbidden.contains(&p) => (FORBIDDEN, FORBIDDEN_STYLE),
                None => (EMPTY, DIM_STYLE),
            };
            if v.ansi && v.highlight.contains(&p) {
                line.push_str(WIN_STYLE);
            }
            paint(&mut line, style, &ch.to_string(), v.ansi);
        }
        let end = if v.last == Some(Pos::new(w - 1, y)) {
            ']'
        } else {
            ' '
        };
        paint(
            &mut line,
            LAST_STYLE,
            &end.to_string(),
            v.ansi && end != ' ',
        );
        line.push(' ');
        paint(&mut line, DIM_STYLE, &row.to_string(), v.ansi);
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&header(w, v.ansi));
    s
}

/// `h8`-style name of a square; `--` for "no square" (a line may hold one where a side
/// has no legal move).
pub fn name(p: Pos, height: usize) -> String {
    if p.is_none() {
        "--".into()
    } else {
        square_name(p, height)
    }
}

/// Names of squares, `h8` style, separated by spaces.
pub fn names(b: &Board, squares: &[Pos]) -> String {
    squares
        .iter()
        .map(|&p| name(p, b.height()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A colour's name with a capital letter.
pub fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn play(b: &mut Board, moves: &str) {
        for (x, y) in crate::core::notation::parse_moves(moves, b.width(), b.height()).unwrap() {
            b.make(Pos::new(x, y));
        }
    }

    #[test]
    fn squares_sit_where_the_layout_says() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        play(&mut b, "h8 i9");
        let text = render(&b, &View::of(&b, false));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0].trim_end(), "    a b c d e f g h i j k l m n o");
        // Row 15 is the top row, row 1 the bottom one.
        assert!(lines[1].starts_with("15 "));
        assert!(lines[15].starts_with(" 1 "));
        let row8 = lines[1 + 15 - 8];
        let row9 = lines[1 + 15 - 9];
        assert_eq!(row8.chars().nth(4 + 2 * 7), Some('X'));
        assert_eq!(row9.chars().nth(4 + 2 * 8), Some('O'));
        // The last move is framed.
        assert_eq!(&row9[4 + 2 * 8 - 1..4 + 2 * 8 + 2], "[O]");
        assert!(!row8.contains('['));
        assert_eq!(names(&b, &[Pos::new(7, 7), Pos::NONE]), "h8 --");
    }

    #[test]
    fn last_move_on_the_right_edge_and_wide_boards() {
        let mut b = Board::new(30, 10, Rule::Freestyle).unwrap();
        b.make(Pos::new(29, 0));
        let text = render(&b, &View::of(&b, false));
        let lines: Vec<&str> = text.lines().collect();
        // Two header rows: column 29 is labelled 2 over 9.
        assert_eq!(lines[0].chars().nth(4 + 2 * 29), Some('2'));
        assert_eq!(lines[1].chars().nth(4 + 2 * 29), Some('9'));
        assert!(lines[2].starts_with("10 "));
        assert!(lines[2].contains("[X] 10"));
    }

    #[test]
    fn renju_fouls_are_named_and_drawn() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        // Black h9 h10 i8 j8: h8 makes two open threes.
        play(&mut b, "h9 a1 h10 o1 i8 a15 j8 o15");
        let h8 = Pos::new(7, 7);
        assert!(rules::is_forbidden(&mut b, h8));
        let view = View::of(&b, false);
        assert!(view.forbidden.contains(&h8));
        let text = render(&b, &view);
        let row8 = text.lines().nth(1 + 15 - 8).unwrap();
        assert_eq!(row8.chars().nth(4 + 2 * 7), Some(FORBIDDEN));
    }

    #[test]
    fn colours_only_when_asked() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        play(&mut b, "h8");
        assert!(!render(&b, &View::of(&b, false)).contains('\x1b'));
        assert!(render(&b, &View::of(&b, true)).contains('\x1b'));
    }
}
