//! The JSON that `analyse --json` and `solve --json` print: one schema, written as Rust
//! types and serialised by `serde_json` (which escapes every string as RFC 8259 asks).
//!
//! The same thing has the same name and shape in both commands: a [`Position`], a
//! [`Move`] (`h8` name and 0-based `x`,`y`; a [`Stone`] adds its colour), a [`Line`] of moves with what is known
//! about it, a [`ForcedWin`], and the top-level [`Analysis`], [`Solution`] and
//! [`Defences`] objects. `docs/json.md` documents the schema with real output.
//!
//! Every object is printed on one line; optional facts that do not apply are `null`
//! rather than missing, so a script can rely on every key being there.

use crate::analysis::multipv;
use crate::core::board::Board;
use crate::core::notation::square_name;
use crate::core::rules::GameEnd;
use crate::core::types::{format_score, mate_plies, Color, Pos, Score};
use serde::Serialize;

/// The version of this schema, printed in every top-level object. It goes up when a key
/// changes meaning or goes away (adding keys does not change it).
pub const SCHEMA_VERSION: u32 = 1;

/// A square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// `h8` style: a letter for the column from the left, the row counted from the bottom
    /// (on boards wider than 26 columns, columns past `z` are named `x,y`).
    pub name: String,
    /// Column from the left, from 0.
    pub x: usize,
    /// Row from the top, from 0 (`x,y` is the other notation the commands read).
    pub y: usize,
}

impl Move {
    /// The square `p` of a board `height` rows high; `None` for [`Pos::NONE`] (in a
    /// solver's line: the defender has no legal block, any move loses).
    pub fn of(p: Pos, height: usize) -> Option<Move> {
        (!p.is_none()).then(|| Move {
            name: square_name(p, height),
            x: p.x(),
            y: p.y(),
        })
    }

    /// The squares of a list; `null` where [`Move::of`] gives `None`.
    pub fn list(squares: &[Pos], height: usize) -> Vec<Option<Move>> {
        squares.iter().map(|&p| Move::of(p, height)).collect()
    }
}

/// A stone on the board: its square, as a [`Move`], and its colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stone {
    pub name: String,
    pub x: usize,
    pub y: usize,
    /// `black` or `white`.
    pub color: &'static str,
}

/// The analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// `freestyle`, `exact5`, `renju`, `caro` or `caro-exact5`.
    pub rule: &'static str,
    pub width: usize,
    pub height: usize,
    /// The stones in the order they were played; a diagram's, which has no move order,
    /// in reading order (top row first, left to right).
    pub moves: Vec<Stone>,
    /// `black` or `white`.
    pub side_to_move: &'static str,
    /// The file the position was read from, if any.
    pub file: Option<String>,
}

impl Position {
    pub fn of(b: &Board, file: Option<&str>) -> Position {
        Position {
            rule: b.rule().name(),
            width: b.width(),
            height: b.height(),
            moves: b
                .history()
                .iter()
                .filter_map(|m| {
                    Move::of(m.pos, b.height()).map(|s| Stone {
                        name: s.name,
                        x: s.x,
                        y: s.y,
                        color: m.color.name(),
                    })
                })
                .collect(),
            side_to_move: b.side_to_move().name(),
            file: file.map(str::to_string),
        }
    }
}

/// A sequence of moves from the position, and what is known about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The moves, the first one played from the position. `null` stands for "any move"
    /// (a defender with no legal block).
    pub moves: Vec<Option<Move>>,
    /// The number of moves.
    pub plies: usize,
    /// The search's score for the side to move of the position (`null` for a solver
    /// line): about 100 per good shape, mates near ±30000.
    pub score: Option<Score>,
    /// The score as the text output writes it: `+35`, `+M3` (side to move makes five in
    /// 3 plies), `-M4`.
    pub score_text: Option<String>,
    /// Plies to the five when one is forced: positive when the side to move makes it,
    /// negative when the opponent does; `null` when none is known.
    pub mate: Option<i32>,
    /// Search depth in plies from the position (the first move included); `null` for a
    /// solver line.
    pub depth: Option<i32>,
    /// Deepest ply the search reached on this line; `null` for a solver line.
    pub seldepth: Option<i32>,
    /// Whether the moves run to the five (`null` when the line is not a forced win).
    pub complete: Option<bool>,
}

impl Line {
    /// A line of the multi-line analysis.
    pub fn of_search(l: &multipv::Line, height: usize) -> Line {
        Line {
            moves: Move::list(&l.pv, height),
            plies: l.pv.len(),
            score: Some(l.score),
            score_text: Some(format_score(l.score)),
            mate: mate_plies(l.score),
            depth: Some(l.depth),
            seldepth: Some(l.seldepth),
            complete: None,
        }
    }

    /// A forced win for `winner` when `to_move` is to move: its moves, `plies` to the
    /// five (more than the moves when the line is not complete) and whether it ends with
    /// the five.
    pub fn of_win(
        moves: &[Pos],
        height: usize,
        winner: Color,
        to_move: Color,
        plies: i32,
        complete: bool,
    ) -> Line {
        Line {
            moves: Move::list(moves, height),
            plies: moves.len(),
            score: None,
            score_text: None,
            mate: Some(if winner == to_move { plies } else { -plies }),
            depth: None,
            seldepth: None,
            complete: Some(complete),
        }
    }
}

/// How the game on the board has ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOver {
    /// `black` or `white`; `null` for a draw.
    pub winner: Option<&'static str>,
    /// `five`, `full board` or `no legal move`.
    pub reason: &'static str,
    /// The five's stones (empty for a draw).
    pub line: Vec<Move>,
}

impl GameOver {
    pub fn of(end: &GameEnd, height: usize) -> GameOver {
        match end {
            GameEnd::Five(c, line) => GameOver {
                winner: Some(c.name()),
                reason: "five",
                line: line.iter().filter_map(|&p| Move::of(p, height)).collect(),
            },
            GameEnd::Full => GameOver {
                winner: None,
                reason: "full board",
                line: Vec::new(),
            },
            GameEnd::NoLegalMove(_) => GameOver {
                winner: None,
                reason: "no legal move",
                line: Vec::new(),
            },
        }
    }
}

/// Whether a forced win was found, by whom, and how it goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForcedWin {
    /// `yes` (a forced win, in `line`), `no` (the solver proved there is none of the
    /// kind searched for) or `unknown` (none found within the limits).
    pub result: &'static str,
    /// `vcf` (victory by continuous fours), `vct` (by continuous fours and threes) or
    /// `forced` (quieter moves too): the kind found, or for `solve` the kind searched
    /// for; `null` when `analyse` found none.
    pub kind: Option<&'static str>,
    /// `black` or `white`; `null` when no win was found.
    pub winner: Option<&'static str>,
    /// The winning line from the position; `null` when no win was found.
    pub line: Option<Line>,
    /// What found the win: `solver` (the threat-space solver) or `search` (a mate score
    /// of the main search); `null` when none was found.
    pub source: Option<&'static str>,
}

/// What `analyse --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Always `analyse`.
    pub command: &'static str,
    pub schema: u32,
    pub position: Position,
    /// `null` while the game goes on.
    pub game_over: Option<GameOver>,
    /// The best moves, best first, each a [`Line`] that starts with the move.
    pub lines: Vec<Line>,
    /// How many moves the first depth searched.
    pub considered: usize,
    /// The last depth every listed line completed, in plies from the position.
    pub depth: i32,
    pub nodes: u64,
    /// Wall time in milliseconds, to the microsecond.
    pub time_ms: f64,
    /// `null` when the game is over.
    pub forced_win: Option<ForcedWin>,
}

/// What `solve --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// Always `solve`.
    pub command: &'static str,
    pub schema: u32,
    pub position: Position,
    pub forced_win: ForcedWin,
    pub nodes: u64,
    /// Wall time in milliseconds, to the microsecond.
    pub time_ms: f64,
}

/// What `solve --defend --json` prints: the replies to the opponent's VCF.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Defences {
    /// Always `solve`.
    pub command: &'static str,
    pub schema: u32,
    pub position: Position,
    /// Whether the opponent (of the side to move) has a VCF.
    pub opponent_vcf: bool,
    /// The side to move's moves that stop it; `null` when there is no VCF to stop, empty
    /// when nothing does.
    pub defences: Option<Vec<Move>>,
    /// Wall time in milliseconds, to the microsecond.
    pub time_ms: f64,
}

/// A duration in milliseconds rounded to the microsecond, for `time_ms`.
pub fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// One line of JSON for `value`.
pub fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the schema types always serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    #[test]
    fn strings_are_escaped() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let p = Position::of(&b, Some("a \"quoted\" back\\slash\nname\u{7}.psq"));
        let text = to_line(&p);
        assert!(
            text.contains(r#""file":"a \"quoted\" back\\slash\nname\u0007.psq""#),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back["file"], "a \"quoted\" back\\slash\nname\u{7}.psq",
            "{text}"
        );
    }

    #[test]
    fn squares_in_both_notations() {
        let m = Move::of(Pos::new(7, 7), 15).unwrap();
        assert_eq!(to_line(&m), r#"{"name":"h8","x":7,"y":7}"#);
        assert_eq!(Move::of(Pos::NONE, 15), None);
    }
}
