//! Game records other Gomoku tools read and write: Piskvork's `.psq` and SGF.

use crate::board::Board;
use anyhow::{anyhow, bail, Result};

/// Writes a game as a Piskvork `.psq` record: a header with the board size, then one
/// `x,y,time` line per move (1-based squares), as Piskvork saves games.
pub fn write_psq(b: &Board) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", b.width(), b.height());
    for m in b.history() {
        s.push_str(&format!("{},{},0\n", m.pos.x() + 1, m.pos.y() + 1));
    }
    s
}

/// A game record read from a file: width, height and the moves (0-based `x,y`) in order.
pub type Record = (usize, usize, Vec<(usize, usize)>);

/// Reads a `.psq` record: board size and moves (0-based squares).
pub fn parse_psq(text: &str) -> Result<Record> {
    let mut lines = text.lines();
    let header = lines.next().ok_or_else(|| anyhow!("empty .psq record"))?;
    let size = header
        .split_whitespace()
        .nth(1)
        .ok_or_else(|| anyhow!("line 1: expected 'Piskvorky WxH, …'"))?
        .trim_end_matches(',');
    let (w, h) = size
        .split_once('x')
        .ok_or_else(|| anyhow!("line 1: bad board size '{size}'"))?;
    let w: usize = w
        .parse()
        .map_err(|_| anyhow!("line 1: bad board width '{w}'"))?;
    let h: usize = h
        .parse()
        .map_err(|_| anyhow!("line 1: bad board height '{h}'"))?;
    let mut moves = Vec::new();
    for (i, line) in lines.enumerate() {
        let parts: Vec<&str> = line.trim().split(',').collect();
        if parts.len() < 2 {
            break; // the move list ends at the first line that is not a move
        }
        let (Ok(x), Ok(y)) = (
            parts[0].trim().parse::<usize>(),
            parts[1].trim().parse::<usize>(),
        ) else {
            break;
        };
        if x == 0 || y == 0 || x > w || y > h {
            bail!(
                "line {}: square {x},{y} is outside the {w}x{h} board",
                i + 2
            );
        }
        moves.push((x - 1, y - 1));
    }
    Ok((w, h, moves))
}

/// Writes a game as SGF (game type 4 = Gomoku), black's and white's moves as `B[..]`/`W[..]`
/// with letters from `a` for x and y counted from the top.
pub fn write_sgf(b: &Board, result: Option<&str>) -> String {
    let size = if b.width() == b.height() {
        format!("{}", b.width())
    } else {
        format!("{}:{}", b.width(), b.height())
    };
    let mut s = format!(
        "(;GM[4]FF[4]SZ[{size}]AP[Fivefold:{}]",
        env!("CARGO_PKG_VERSION")
    );
    if let Some(r) = result {
        s.push_str(&format!("RE[{r}]"));
    }
    for m in b.history() {
        let tag = if m.color == crate::types::Color::Black {
            'B'
        } else {
            'W'
        };
        s.push_str(&format!(
            ";{tag}[{}{}]",
            sgf_coord(m.pos.x()),
            sgf_coord(m.pos.y())
        ));
    }
    s.push_str(")\n");
    s
}

fn sgf_coord(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

fn sgf_value(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// Reads an SGF record: board size (SZ, default 15) and the moves in order.
pub fn parse_sgf(text: &str) -> Result<Record> {
    let (mut w, mut h) = (15, 15);
    if let Some(i) = text.find("SZ[") {
        let rest = &text[i + 3..];
        let v = &rest[..rest
            .find(']')
            .ok_or_else(|| anyhow!("unterminated SZ[...]"))?];
        if let Some((a, b)) = v.split_once(':') {
            w = a.trim().parse().map_err(|_| anyhow!("bad SZ[{v}]"))?;
            h = b.trim().parse().map_err(|_| anyhow!("bad SZ[{v}]"))?;
        } else {
            w = v.trim().parse().map_err(|_| anyhow!("bad SZ[{v}]"))?;
            h = w;
        }
    }
    let mut moves = Vec::new();
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if (bytes[i] == 'B' || bytes[i] == 'W')
            && bytes[i + 1] == '['
            && (i == 0 || !bytes[i - 1].is_ascii_alphabetic())
        {
            let start = i + 2;
            let end = bytes[start..]
                .iter()
                .position(|&c| c == ']')
                .map(|e| start + e)
                .ok_or_else(|| anyhow!("unterminated move"))?;
            let v: Vec<char> = bytes[start..end].to_vec();
            if v.len() == 2 {
                let (Some(x), Some(y)) = (sgf_value(v[0]), sgf_value(v[1])) else {
                    bail!("bad SGF move '{}'", v.iter().collect::<String>());
                };
                if x >= w || y >= h {
                    bail!(
                        "SGF move '{}' is outside the {w}x{h} board",
                        v.iter().collect::<String>()
                    );
                }
                moves.push((x, y));
            }
            i = end;
        }
        i += 1;
    }
    Ok((w, h, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Pos, Rule};

    #[test]
    fn psq_and_sgf_round_trip() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (0, 14), (14, 0)] {
            b.make(Pos::new(x, y));
        }
        let (w, h, m) = parse_psq(&write_psq(&b)).unwrap();
        assert_eq!(
            (w, h, m.clone()),
            (15, 15, vec![(7, 7), (8, 8), (0, 14), (14, 0)])
        );
        let (w, h, m2) = parse_sgf(&write_sgf(&b, Some("B+R"))).unwrap();
        assert_eq!((w, h), (15, 15));
        assert_eq!(m2, m);
    }
}
