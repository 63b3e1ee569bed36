//! Small helpers shared by the subcommands: argument lookup and reading a position
//! from `--moves`, `--file` (a diagram, a Piskvork `.psq` or an SGF record), `--rule`
//! and `--size`/`--width`/`--height`.

use crate::core::board::Board;
use crate::core::notation;
use crate::core::rules;
use crate::core::types::{Pos, Rule};
use anyhow::{anyhow, bail, Context, Result};

/// Command-line arguments after the subcommand name.
pub struct Args {
    args: Vec<String>,
}

impl Args {
    pub fn new(args: &[String]) -> Args {
        Args {
            args: args.to_vec(),
        }
    }
    /// Whether `--name` is present.
    pub fn flag(&self, name: &str) -> bool {
        self.args.iter().any(|a| a == name)
    }
    /// The value after `--name` (or in `--name=value`).
    pub fn value(&self, name: &str) -> Option<&str> {
        for (i, a) in self.args.iter().enumerate() {
            if a == name {
                return self.args.get(i + 1).map(String::as_str);
            }
            if let Some(v) = a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                return Some(v);
            }
        }
        None
    }
    /// A numeric value, with a clear error if it does not parse.
    pub fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>> {
        match self.value(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| anyhow!("{name} expects a number, got '{v}'")),
        }
    }
    /// The rule from `--rule` (name or protocol number), freestyle by default.
    pub fn rule(&self) -> Result<Rule> {
        match self.value("--rule") {
            None => Ok(Rule::Freestyle),
            Some(r) => Rule::parse(r).ok_or_else(|| {
                anyhow!("unknown rule '{r}' (use freestyle, exact5, renju, caro, caro-exact5 or 0, 1, 4, 8, 9)")
            }),
        }
    }
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
pub fn position(args: &Args) -> Result<Board> {
    let rule = args.rule()?;
    let size: usize = args.number("--size")?.unwrap_or(15);
    let width: usize = args.number("--width")?.unwrap_or(size);
    let height: usize = args.number("--height")?.unwrap_or(size);
    if let Some(path) = args.value("--file") {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        return position_from_text(&text, width, height, rule)
            .with_context(|| format!("in {path}"));
    }
    let moves = args.value("--moves").unwrap_or("");
    let list = notation::parse_moves(moves, width, height).map_err(|e| anyhow!(e))?;
    board_from_moves(&list, width, height, rule)
}

/// Recognises a record's format by its content and reads it.
pub fn position_from_text(text: &str, width: usize, height: usize, rule: Rule) -> Result<Board> {
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

/// Writes one line of a subcommand's output to stdout. When the reader has gone away
/// (`pbrain-fivefold bench | head -1`), the process ends quietly with status 0 instead
/// of panicking as `println!` does; any other write error ends it with status 1.
pub fn write_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// `println!` for subcommand output, through [`write_line`].
#[macro_export]
macro_rules! outln {
    () => {
        $crate::io::position::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::io::position::write_line(format_args!($($arg)*))
    };
}
