//! Game records other Gomoku tools read and write: Piskvork's `.psq` and SGF.

use crate::core::board::Board;
use crate::core::types::Color;
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
        let tag = if m.color == crate::core::types::Color::Black {
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

impl RecordResult {
    /// The side that won, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            RecordResult::BlackWins => Some(Color::Black),
            RecordResult::WhiteWins => Some(Color::White),
            RecordResult::Draw => None,
        }
    }
}

/// One game of a file of SGF games, such as the `-sgf` output of c-gomoku-cli.
#[derive(Clone, Debug)]
pub struct SgfGame {
    pub record: Record,
    /// From `RE[B+…]`, `RE[W+…]`, `RE[0]` or `RE[Draw]`; `None` without a result.
    pub result: Option<RecordResult>,
    /// The rule from `RU[n]` (Gomocup's rule numbers), if the game states one.
    pub rule: Option<crate::core::types::Rule>,
    /// How many moves carry the comment `C[opening move]` (c-gomoku-cli marks the
    /// opening it was given that way).
    pub opening: usize,
    /// False when the game's `TE` says it ended off the board: a time forfeit, a crash,
    /// an illegal move or a renju foul (c-gomoku-cli's wording). Such a result says
    /// nothing about the position, so `tune` leaves these games out.
    pub decided_on_board: bool,
    /// Per move of `record`, the `V[...]` of that move's node if it has one: a score of
    /// the position after the move, positive when it favours black (the SGF meaning of
    /// `V`), in whatever units whoever wrote it used (`tune --teacher` reads these).
    pub values: Vec<Option<f64>>,
    /// The players' names from `PB[...]` and `PW[...]`, if given: whoever plays the
    /// black stones and whoever plays the white ones (c-gomoku-cli names the engines so).
    pub black: Option<String>,
    pub white: Option<String>,
    /// The game's number from `GN[n]`, if it has one. c-gomoku-cli numbers a match's
    /// games from 1, and with `-repeat` the two games of its k-th opening are 2k-1 and 2k
    /// (`import --games` splits a match by these numbers).
    pub number: Option<u64>,
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

/// The scores one engine reported in a c-gomoku-cli `messages.txt` (what match.sh keeps
/// as `OUT/messages.txt`): per game, in the order of its `Game ID:` lines, the last
/// score the engine gave before each of its moves, as `(move number, score)` with the
/// score from that engine's side (the side to move). The engine is the one whose name
/// contains `engine`. A score is the number after `Eval` (Rapfi, `Eval 120`) or `ev`
/// (Fivefold, `ev 120`); mate scores (`+M21`, `-M8`) and anything else that is not a
/// plain number are left out: the game's result says as much about those positions.
pub fn match_scores(messages: &str, engine: &str) -> Vec<Vec<(usize, f64)>> {
    let mut games: Vec<Vec<(usize, f64)>> = Vec::new();
    for line in messages.lines() {
        if line.starts_with("Game ID:") {
            games.push(Vec::new());
            continue;
        }
        let Some(game) = games.last_mut() else {
            continue;
        };
        let Some((ply, rest)) = line.split_once(") ") else {
            continue;
        };
        let Ok(ply) = ply.trim().parse::<usize>() else {
            continue;
        };
        let Some((name, text)) = rest.split_once(": ") else {
            continue;
        };
        if !name.contains(engine) {
            continue;
        }
        let mut words = text.split(|c: char| c.is_whitespace() || c == '|');
        let score = loop {
            match words.next() {
                None => break None,
                Some(w) if w.eq_ignore_ascii_case("eval") || w == "ev" => {
                    break words
                        .find(|w| !w.is_empty())
                        .and_then(|v| v.parse::<i32>().ok().filter(|_| !v.contains('M')));
                }
                Some(_) => {}
            }
        };
        if let Some(v) = score {
            match game.last_mut() {
                Some(last) if last.0 == ply => last.1 = f64::from(v),
                _ => game.push((ply, f64::from(v))),
            }
        }
    }
    games
}

/// Puts an engine's reported scores ([`match_scores`]) on a game's moves as
/// [`SgfGame::values`]: the score before move `n` is the value of the position after
/// move `n - 1`, and (by the minimax the score comes from) of the position after the
/// engine's own move `n`; both from black's view. Moves without a score keep theirs.
pub fn put_scores(game: &mut SgfGame, scores: &[(usize, f64)]) {
    let moves = game.record.2.len();
    game.values.resize(moves, None);
    for &(n, v) in scores {
        // Move n (1-based) is black's when n is odd.
        let black_view = if n % 2 == 1 { v } else { -v };
        for after in [n.wrapping_sub(1), n] {
            if after >= 1 && after <= moves {
                game.values[after - 1] = Some(black_view);
            }
        }
    }
}

/// The `V[...]` value of every move node of one game, in order (`None` where a move
/// has no value or it is not a number). Nodes are split at `;` outside property
/// values, so comments may hold anything; a node is a move node if it has a `B[..]` or
/// `W[..]` property with a two-letter value, as [`parse_sgf`] reads them.
fn sgf_move_values(text: &str) -> Vec<Option<f64>> {
    let mut out = Vec::new();
    // (property name, value) pairs of the current node.
    let mut props: Vec<(String, String)> = Vec::new();
    let mut name = String::new();
    let mut value = String::new();
    let (mut in_value, mut escaped) = (false, false);
    let finish = |props: &mut Vec<(String, String)>, out: &mut Vec<Option<f64>>| {
        let is_move = props
            .iter()
            .any(|(n, v)| (n == "B" || n == "W") && v.chars().count() == 2);
        if is_move {
            let v = props
                .iter()
                .find(|(n, _)| n == "V")
                .and_then(|(_, v)| v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite());
            out.push(v);
        }
        props.clear();
    };
    let mut last_name = String::new();
    for ch in text.chars() {
        if in_value {
            if escaped {
                value.push(ch);
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == ']' {
                in_value = false;
                props.push((last_name.clone(), std::mem::take(&mut value)));
            } else {
                value.push(ch);
            }
            continue;
        }
        match ch {
            ';' | '(' | ')' => {
                finish(&mut props, &mut out);
                name.clear();
            }
            '[' => {
                // A property with several values (`AB[aa][bb]`) keeps its name.
                if !name.is_empty() {
                    last_name = std::mem::take(&mut name);
                }
                in_value = true;
            }
            c if c.is_ascii_uppercase() => name.push(c),
            _ => {}
        }
    }
    finish(&mut props, &mut out);
    out
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
                rule: sgf_property(game, "RU").and_then(crate::core::types::Rule::parse),
                opening: game.matches("C[opening move]").count(),
                decided_on_board: !sgf_property(game, "TE").is_some_and(|t| {
                    let t = t.to_ascii_lowercase();
                    ["forfeit", "crash", "illegal", "forbidden"]
                        .iter()
                        .any(|w| t.contains(w))
                }),
                values: sgf_move_values(game),
                black: sgf_property(game, "PB").map(str::to_string),
                white: sgf_property(game, "PW").map(str::to_string),
                number: sgf_property(game, "GN").and_then(|n| n.trim().parse().ok()),
            }
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{Pos, Rule};

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

    #[test]
    fn move_values_are_read_node_by_node() {
        // V[] on some moves; comments holding `;`, `V[` and an escaped `]` are no nodes.
        let text = "(;FF[4]SZ[15]RE[B+1];B[hh]C[opening; V[9]]V[12];W[ih]C[a \\] b]\
                    ;B[hg]V[-40.5]C[x];W[ig]V[none])";
        let g = parse_sgf_games(text).remove(0).unwrap();
        assert_eq!(g.record.2.len(), 4);
        assert_eq!(g.values, vec![Some(12.0), None, Some(-40.5), None]);
    }

    #[test]
    fn an_engines_scores_in_match_messages_become_values_from_blacks_view() {
        // c-gomoku-cli's messages.txt: Rapfi white in game 1 (moves 4 and 6), black in
        // game 2 (move 5), Fivefold's own lines in between; the last line of a move
        // counts, mate scores do not.
        let messages = "------------------------------\n\
            Game ID: 1\n\
            Engines: ff x rapfi\n\
            4) bin-pbrain-rapfi: Depth 2-3 | Eval 144 | Time 0ms | F9 J5\n\
            4) bin-pbrain-rapfi: Depth 9-11 | Eval -185 | Time 18ms | F6 J5\n\
            5) pbrain-ff: depth 8-14 ev 30 n 32K pv i10\n\
            6) bin-pbrain-rapfi: Speed 992K | Depth 20-37 | Eval 1733 | Node 374K\n\
            8) bin-pbrain-rapfi: Depth 24-27 | Eval +M21 | Node 237K\n\
            ------------------------------\n\
            Game ID: 2\n\
            5) bin-pbrain-rapfi: OptiTime 714ms | MaxTime 2112ms\n\
            5) bin-pbrain-rapfi: Depth 26-2 | Eval VAL_NONE | Node 72\n\
            5) bin-pbrain-rapfi: Depth 26-2 | Eval 50 | Node 72\n";
        let scores = match_scores(messages, "rapfi");
        assert_eq!(
            scores,
            vec![vec![(4, -185.0), (6, 1733.0)], vec![(5, 50.0)]]
        );
        assert_eq!(match_scores(messages, "ff"), vec![vec![(5, 30.0)], vec![]]);
        let text = "(;FF[4]SZ[15]RE[W+1];B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie])";
        let mut g = parse_sgf_games(text).remove(0).unwrap();
        put_scores(&mut g, &scores[0]);
        // White's -185 before move 4 is black's +185 after moves 3 and 4; white's 1733
        // before move 6 is black's -1733 after moves 5 and 6.
        let v = |x: f64| Some(x);
        assert_eq!(
            g.values,
            vec![
                None,
                None,
                v(185.0),
                v(185.0),
                v(-1733.0),
                v(-1733.0),
                None,
                None
            ]
        );
    }
}
