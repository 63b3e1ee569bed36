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

/// Who won a recorded game, as an SGF `RE` property says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    BlackWins,
    WhiteWins,
    Draw,
}

/// One game of a file of SGF games, such as the `-sgf` output of c-gomoku-cli.
#[derive(Clone, Debug)]
pub struct SgfGame {
    pub record: Record,
    /// From `RE[B+…]`, `RE[W+…]`, `RE[0]` or `RE[Draw]`; `None` without a result.
    pub result: Option<RecordResult>,
    /// The rule from `RU[n]` (Gomocup's rule numbers), if the game states one.
    pub rule: Option<crate::types::Rule>,
    /// How many moves carry the comment `C[opening move]` (c-gomoku-cli marks the
    /// opening it was given that way).
    pub opening: usize,
    /// False when the game's `TE` says it ended off the board: a time forfeit, a crash,
    /// an illegal move or a renju foul (c-gomoku-cli's wording). Such a result says
    /// nothing about the position, so `tune` leaves these games out.
    pub decided_on_board: bool,
}

/// The value of the first property `name[...]` in `text` that is a property name of
/// its own (not the tail of a longer one).
fn sgf_property<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}[");
    let mut from = 0;
    while let Some(i) = text[from..].find(&key).map(|i| i + from) {
        let whole = i == 0 || !text.as_bytes()[i - 1].is_ascii_alphabetic();
        let rest = &text[i + key.len()..];
        if whole {
            return rest.find(']').map(|e| &rest[..e]);
        }
        from = i + key.len();
    }
    None
}

/// Reads every game of a file of SGF games (each `(;…)` in turn). A game that does
/// not parse comes back as its error, so one damaged record does not lose the rest.
pub fn parse_sgf_games(text: &str) -> Vec<Result<SgfGame>> {
    let starts: Vec<usize> = text.match_indices("(;").map(|(i, _)| i).collect();
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(text.len());
        let game = &text[s..e];
        out.push(parse_sgf(game).map(|record| {
            let result = sgf_property(game, "RE").and_then(|r| {
                let r = r.trim().to_ascii_lowercase();
                if r.starts_with("b+") {
                    Some(RecordResult::BlackWins)
                } else if r.starts_with("w+") {
                    Some(RecordResult::WhiteWins)
                } else if r == "0" || r.starts_with("draw") || r == "d" {
                    Some(RecordResult::Draw)
                } else {
                    None
                }
            });
            SgfGame {
                record,
                result,
                rule: sgf_property(game, "RU").and_then(crate::types::Rule::parse),
                opening: game.matches("C[opening move]").count(),
                decided_on_board: !sgf_property(game, "TE").is_some_and(|t| {
                    let t = t.to_ascii_lowercase();
                    ["forfeit", "crash", "illegal", "forbidden"]
                        .iter()
                        .any(|w| t.contains(w))
                }),
            }
        }));
    }
    out
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

    #[test]
    fn a_file_of_sgf_games_reads_game_by_game() {
        // As c-gomoku-cli writes them: a rule, a result, the opening marked by comments.
        let text = "(;FF[4]GM[4]RU[4]SZ[15]PB[a]PW[b]RE[W+1]TE[White win]\n\
            ;B[hh]C[opening move];W[ih]C[opening move];B[hg]C[opening move]\n\
            ;W[ig]C[37ms];B[hf]C[41ms])\n\n\
            (;FF[4]GM[4]RU[0]SZ[15]RE[0];B[aa];W[zz])\n\
            (;FF[4]GM[4]SZ[20]RE[B+R];B[ab];W[ba])\n\
            (;FF[4]GM[4]RU[0]SZ[15]RE[B+1]TE[Black win by time forfeit];B[hh];W[ih])\n\
            (;FF[4]GM[4]RU[4]SZ[15]RE[W+1]TE[Black play forbidden move - double three];B[hh])\n";
        let games = parse_sgf_games(text);
        assert_eq!(games.len(), 5);
        let g = games[0].as_ref().unwrap();
        assert!(g.decided_on_board);
        assert_eq!(g.result, Some(RecordResult::WhiteWins));
        assert_eq!(g.rule, Some(Rule::Renju));
        assert_eq!(g.opening, 3);
        assert_eq!(g.record.2, vec![(7, 7), (8, 7), (7, 6), (8, 6), (7, 5)]);
        // A move off the board spoils that game only.
        assert!(games[1].is_err());
        let g = games[2].as_ref().unwrap();
        assert_eq!(
            (g.record.0, g.result, g.rule),
            (20, Some(RecordResult::BlackWins), None)
        );
        assert_eq!(g.record.2, vec![(0, 1), (1, 0)]);
        assert!(g.decided_on_board);
        // A loss on time or by a foul is a result, but not one the position earned.
        let g = games[3].as_ref().unwrap();
        assert_eq!(g.result, Some(RecordResult::BlackWins));
        assert!(!g.decided_on_board);
        assert!(!games[4].as_ref().unwrap().decided_on_board);
    }
}
