//! Square notation: the protocol's `x,y` (0-based, x the column, y down from the top)
//! and the `h8` style of Gomoku and Renju records (letter for the column from `a`,
//! number for the row counted from the bottom, so `h8` is the centre of 15x15).

use crate::core::types::Pos;

/// Parses `x,y` (protocol) or `h8` (letters `a`-`z`, rows from the bottom) on a board of
/// the given size. Returns the column and row, or a message saying what is wrong.
pub fn parse_square(s: &str, width: usize, height: usize) -> Result<(usize, usize), String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("empty square".into());
    }
    let (x, y) = if let Some((a, b)) = s.split_once(',') {
        let x: i64 = a
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a square (expected x,y)"))?;
        let y: i64 = b
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a square (expected x,y)"))?;
        (x, y)
    } else {
        let lower = s.to_ascii_lowercase();
        let mut chars = lower.chars();
        let c = chars.next().unwrap_or(' ');
        if !c.is_ascii_lowercase() {
            return Err(format!(
                "'{s}' is not a square (expected x,y or a letter and a number like h8)"
            ));
        }
        let row: i64 = chars.as_str().parse().map_err(|_| {
            format!("'{s}' is not a square (expected x,y or a letter and a number like h8)")
        })?;
        let x = (c as u8 - b'a') as i64;
        (x, height as i64 - row)
    };
    if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
        return Err(format!("'{s}' is outside the {width}x{height} board"));
    }
    Ok((x as usize, y as usize))
}

/// `h8`-style name of a square (falls back to `x,y` beyond column z).
pub fn square_name(p: Pos, height: usize) -> String {
    let (x, y) = (p.x(), p.y());
    if x < 26 {
        format!("{}{}", (b'a' + x as u8) as char, height - y)
    } else {
        format!("{x},{y}")
    }
}

/// Protocol name of a square: `x,y`.
pub fn xy(p: Pos) -> String {
    format!("{},{}", p.x(), p.y())
}

/// Parses a list of squares separated by spaces (or semicolons): `h8 i9 j10` or `7,7 8,8`.
pub fn parse_moves(s: &str, width: usize, height: usize) -> Result<Vec<(usize, usize)>, String> {
    s.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|t| !t.is_empty())
        .map(|t| parse_square(t, width, height))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations() {
        assert_eq!(parse_square("h8", 15, 15), Ok((7, 7)));
        assert_eq!(parse_square("a1", 15, 15), Ok((0, 14)));
        assert_eq!(parse_square("O15", 15, 15), Ok((14, 0)));
        assert_eq!(parse_square("3,4", 15, 15), Ok((3, 4)));
        assert!(parse_square("p1", 15, 15).is_err());
        assert!(parse_square("15,0", 15, 15).is_err());
        assert!(parse_square("-1,0", 15, 15).is_err());
        assert!(parse_square("h", 15, 15).is_err());
        assert_eq!(square_name(Pos::new(7, 7), 15), "h8");
        assert_eq!(square_name(Pos::new(0, 14), 15), "a1");
        assert_eq!(parse_moves("h8 i9", 15, 15), Ok(vec![(7, 7), (8, 6)]));
    }
}
