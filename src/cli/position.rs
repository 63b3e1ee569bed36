//! The position options shared by the subcommands ([`PositionArgs`]) and reading a
//! position from `--moves`, `--file` (a diagram, a Piskvork `.psq` or an SGF record),
//! `--rule` and `--size`/`--width`/`--height`.

use crate::cli::args;
use crate::core::board::Board;
use crate::core::notation;
use crate::core::rules;
use crate::core::types::{Pos, Rule};
use anyhow::{anyhow, bail, Context, Result};

/// The position options of `play`, `analyse` and `solve`: `--moves` or `--file`, the
/// rule and the board size.
#[derive(clap::Args, Clone, Debug)]
pub struct PositionArgs {
    /// The position as moves in game order, black first: "h8 i9 j10" or "7,7 8,8"
    #[arg(long, value_name = "MOVES", conflicts_with = "file")]
    pub moves: Option<String>,
    /// Read the position from a file: a diagram (X, O and . rows), a Piskvork .psq or an SGF record
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
    /// Rule: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = args::rule)]
    pub rule: Rule,
    /// Board size (a file's own size wins)
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub size: usize,
    /// Board width, for a rectangular board [default: --size]
    #[arg(long, value_name = "W")]
    pub width: Option<usize>,
    /// Board height, for a rectangular board [default: --size]
    #[arg(long, value_name = "H")]
    pub height: Option<usize>,
}

/// Plays a list of squares in order (black first) on a new board, checking each move.
pub fn board_from_moves(
    moves: &[(usize, usize)],
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Board> {
    let mut b = Board::new(width, height, rule).map_err(|e| anyhow!(e))?;
    for (i, &(x, y)) in moves.iter().enumerate() {
        let p = Pos::new(x, y);
        if !b.is_empty(p) {
            bail!(
                "move {} ({}) is on an occupied square",
                i + 1,
                notation::square_name(p, height)
            );
        }
        if let Some(c) = b.winner() {
            bail!(
                "move {} ({}) comes after the game is already over: {} made five",
                i + 1,
                notation::square_name(p, height),
                c.name()
            );
        }
        if b.side_to_move() == crate::core::types::Color::Black && rules::is_forbidden(&mut b, p) {
            bail!(
                "move {} ({}) is a forbidden move for black under renju",
                i + 1,
                notation::square_name(p, height)
            );
        }
        b.make(p);
    }
    Ok(b)
}

/// Reads a position from the arguments: `--moves "h8 i9 …"` (or `x,y` squares),
/// or `--file F` holding a diagram (`X`, `O`, `.` rows), a Piskvork `.psq` record or an
/// SGF record. Board size from `--size N` or `--width W --height H` (15 by default; a
/// file's own size wins), rule from `--rule`.
pub fn position(args: &PositionArgs) -> Result<Board> {
    let rule = args.rule;
    let width = args.width.unwrap_or(args.size);
    let height = args.height.unwrap_or(args.size);
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        return position_from_text(&text, width, height, rule)
            .with_context(|| format!("in {path}"));
    }
    let moves = args.moves.as_deref().unwrap_or("");
    let list = notation::parse_moves(moves, width, height).map_err(|e| anyhow!(e))?;
    board_from_moves(&list, width, height, rule)
}

/// Recognises a record's format by its content and reads it.
fn position_from_text(text: &str, width: usize, height: usize, rule: Rule) -> Result<Board> {
    let t = text.trim_start();
    if t.starts_with("(;") || t.starts_with('(') && t.contains(";B[") {
        let (w, h, moves) = crate::core::record::parse_sgf(text)?;
        return board_from_moves(&moves, w, h, rule);
    }
    if t.starts_with("Piskvorky") {
        let (w, h, moves) = crate::core::record::parse_psq(text)?;
        return board_from_moves(&moves, w, h, rule);
    }
    if t.lines()
        .any(|l| l.trim().starts_with(['X', 'O', '.', '+']))
    {
        return Board::from_diagram(text, rule).map_err(|e| anyhow!(e));
    }
    let list = notation::parse_moves(text, width, height).map_err(|e| anyhow!(e))?;
    board_from_moves(&list, width, height, rule)
}
