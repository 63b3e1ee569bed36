//! The Gomocup (Piskvork) protocol as text: parsing of command lines and of the lines
//! inside `BOARD`-style blocks, and formatting of the engine's replies and messages.
//!
//! Everything here is pure (no I/O, no game state): [`parse`] turns one input line
//! into a [`Command`], [`parse_block_line`] reads a line inside a block that ends with
//! `DONE`, and the `*_line` functions build output lines. [`crate::gomocup::session`] holds the
//! state and the threads.
//!
//! Commands are case-insensitive; leading and trailing white space (including the CR of
//! CRLF line ends) is ignored. Numbers are kept as `i64` here and range-checked by the
//! session, which knows the board.

use crate::analysis::{soosorv, swap2};
use crate::core::notation;
use crate::core::types::{format_score, is_mate, Pos, Score};
use crate::engine::search::Info;
use std::time::Duration;

/// One command line from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line (ignored).
    Empty,
    /// `START n` (or Yixin-Board's `START w h`): a new game on a w x h board. `pair`: the
    /// two sizes were given (Yixin-Board 2 sends `START w h` even for a square board,
    /// Yixin-Board 3 sends `START n`).
    Start { width: i64, height: i64, pair: bool },
    /// `RECTSTART w,h`.
    RectStart { width: i64, height: i64 },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the engine opens the game.
    Begin,
    /// `TURN x,y`: the opponent played there; the engine answers.
    Turn(i64, i64),
    /// `PLAY x,y`: the engine must play there and echo it.
    Play(i64, i64),
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(i64, i64),
    /// `BOARD` (think afterwards) or `YXBOARD` (only set the position); stones follow,
    /// one `x,y,field` line each, until `DONE`.
    Board { think: bool },
    /// `SWAP2BOARD`: 0, 3 or 5 stones follow (`x,y` lines) until `DONE`.
    Swap2Board,
    /// `INFO key value` (key in lower case, value as sent).
    Info { key: String, value: String },
    /// `END`: quit.
    End,
    /// `ABOUT`.
    About,
    /// `STOP` or `YXSTOP`: answer now with the best move found so far.
    Stop,
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXNBEST n`: the n best moves as messages, then the best move.
    NBest(i64),
    /// `YXBLOCK` / `YXBLOCKUNDO`: squares the engine must not answer with (a block of
    /// `x,y` lines follows); `undo` removes them from the list again.
    Block { undo: bool },
    /// `YXBLOCKRESET`: forget all blocked squares.
    BlockReset,
    /// `YXBLOCKPATH` / `YXBLOCKPATHUNDO`: a block of `x,y` lines follows, a path of moves
    /// from the empty board; in the position after all of them but the last, the last
    /// is ruled out for the search (`undo`: allowed again).
    BlockPath { undo: bool },
    /// `YXBLOCKPATHRESET`: forget all block paths.
    BlockPathReset,
    /// `YXFORBID add x y side` / `YXFORBID del x y side`: square x,y (the same pair a
    /// block line would give) is forbidden (`add`) or no longer forbidden for a colour
    /// everywhere in the search; `side` 0 is black, 1 white.
    Forbid { add: bool, x: i64, y: i64, side: u8 },
    /// `YXSEARCHDEFEND`: analyse the side to move's defences against the opponent's
    /// threats (every move when there is no threat), then play the best as our move.
    SearchDefend,
    /// `YXSWAP2STEP1` (empty board: put three stones), `YXSWAP2STEP2` (three stones:
    /// swap, play the fourth, or put two more), `YXSWAP2STEP3` (five stones: choose the
    /// colour), for the position of the last `YXBOARD`.
    Swap2Step(u8),
    /// `YXBALANCEONE bias` / `YXBALANCETWO bias`: the move (two moves) after which the
    /// position is closest to `bias` for the side to move now.
    Balance { two: bool, bias: i64 },
    /// `YXSHOWHASHUSAGE`: how full the transposition table is.
    ShowHashUsage,
    /// `YXSOOSORVSTEP1` to `YXSOOSORVSTEP6`: Yixin-Board's Soosorv opening steps. Step 1
    /// stands alone; the others are followed by the position, `x,y` lines in move order
    /// until `DONE`. `n`: the number of fifth moves (steps 4 and 5), else 0.
    Soosorv { step: u8, n: i64 },
    /// One of Yixin-Board's position-database commands that work on a position: a block
    /// of `x,y` lines (the moves from the empty board, in order) ending with `DONE` follows.
    Database(DbCommand),
    /// `YXSETDATABASE path` (the path on the command line or, as Yixin-Board sends it,
    /// on the next line): use that database file.
    SetDatabase(String),
    /// `YXSAVEDATABASE`: make the file whole (the database commits every write).
    SaveDatabase,
    /// `YXDBCHECK`: check the database file for damage.
    DbCheck,
    /// `YXDBFIX`: check the file, rebuild its indexes, drop unreadable records, compact it.
    DbFix,
    /// A database command that reads or writes a file: `path` on the command line or, as
    /// Yixin-Board sends it, on the next line (empty here then).
    DbFile { cmd: DbFile, path: String },
    /// `YXHASHDUMP` (`dump`) or `YXHASHLOAD`: the transposition table to or from the
    /// file at `path`; an empty path means the next non-blank line is the path (as
    /// Yixin-Board sends it).
    HashFile { dump: bool, path: String },
    /// `YXDRAW`: the person offers the engine a draw in the current position; answered
    /// `MESSAGE draw: accepted …` or `MESSAGE draw: declined …` after a short search.
    Draw,
    /// `YXRESIGN`: the person resigns the game; answered with a message naming the
    /// winner (the board is kept).
    Resign,
    /// `YXPRINTFEATURE`: the evaluation's view of the current position as messages
    /// ([`crate::gomocup::features`]).
    PrintFeature,
    /// A known command with arguments that do not parse.
    Malformed { name: String, reason: String },
    /// `DONE` outside a block.
    StrayDone,
    /// Anything else (the first word, as sent).
    Unknown(String),
}

/// The database commands that read or write a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbFile {
    /// `YXLIBTODB`: import a RenLib `.lib` file.
    LibToDb,
    /// `YXDBTOLIB`: export the tree from the current position to a `.lib` file.
    DbToLib,
    /// `YXDBTOTXT` (this rule and board size) / `YXDBTOTXTALL` (everything): the
    /// database as text.
    DbToTxt { all: bool },
    /// `YXTXTTODB`: read that text back.
    TxtToDb,
    /// `YXDBTOPOS`: the positions of this rule and board size as move lists.
    DbToPos,
    /// `YXDBMERGE`: copy another database file into this one.
    Merge,
    /// `YXDBSPLIT`: copy the current position and what follows it into another file.
    Split,
}

impl DbFile {
    pub fn name(self) -> &'static str {
        match self {
            DbFile::LibToDb => "YXLIBTODB",
            DbFile::DbToLib => "YXDBTOLIB",
            DbFile::DbToTxt { all: false } => "YXDBTOTXT",
            DbFile::DbToTxt { all: true } => "YXDBTOTXTALL",
            DbFile::TxtToDb => "YXTXTTODB",
            DbFile::DbToPos => "YXDBTOPOS",
            DbFile::Merge => "YXDBMERGE",
            DbFile::Split => "YXDBSPLIT",
        }
    }
}

/// A database command that works on the position of the block that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbCommand {
    /// `YXQUERYDATABASEALL` / `YXQUERYDATABASEALLT` (`text`: the position's text too):
    /// what is stored about each move from the position.
    QueryAll { text: bool },
    /// `YXQUERYDATABASEONE`: the position's own record.
    QueryOne,
    /// `YXQUERYDATABASETEXT`: the position's text.
    QueryText,
    /// `YXSETBESTMOVEDATABASE`: the last move is the best move of the position before it.
    SetBest,
    /// `YXCLEARBESTMOVEDATABASE`: the position before the last move has no best move.
    ClearBest,
    /// `YXEDITLABELDATABASE x,y label`: the label on square x,y of the position (an empty
    /// label removes it).
    EditLabel { x: i64, y: i64, label: String },
    /// `YXEDITTVDDATABASE mask tag value depth`: set the tag (mask bit 1; a tag of -1 or 0
    /// removes it), the value (bit 2) and the depth (bit 4) of the position's record.
    EditTvd {
        mask: i64,
        tag: i64,
        value: i64,
        depth: i64,
    },
    /// `YXEDITTEXTDATABASE "text"`: the position's text.
    EditText(String),
    /// `YXDELETEDATABASEONE`: delete the position's record and labels.
    DeleteOne,
    /// `YXDELETEDATABASEALL [filter]`: delete every record (the filter Yixin-Board may add,
    /// as sent, upper-cased; empty when none).
    DeleteAll { filter: String },
}

impl DbCommand {
    pub fn name(&self) -> &'static str {
        match self {
            DbCommand::QueryAll { text: false } => "YXQUERYDATABASEALL",
            DbCommand::QueryAll { text: true } => "YXQUERYDATABASEALLT",
            DbCommand::QueryOne => "YXQUERYDATABASEONE",
            DbCommand::QueryText => "YXQUERYDATABASETEXT",
            DbCommand::SetBest => "YXSETBESTMOVEDATABASE",
            DbCommand::ClearBest => "YXCLEARBESTMOVEDATABASE",
            DbCommand::EditLabel { .. } => "YXEDITLABELDATABASE",
            DbCommand::EditTvd { .. } => "YXEDITTVDDATABASE",
            DbCommand::EditText(_) => "YXEDITTEXTDATABASE",
            DbCommand::DeleteOne => "YXDELETEDATABASEONE",
            DbCommand::DeleteAll { .. } => "YXDELETEDATABASEALL",
        }
    }
}

/// The quoted text that starts `s` (after white space), as Yixin-Board writes it for
/// `YXEDITTEXTDATABASE`: `"` and `\` escaped with a backslash, line breaks kept. Returns
/// the text and what follows the closing quote, or `None` while the closing quote has not
/// come yet (the text goes on on the next line). Text that does not start with a quote is
/// taken whole, up to the end.
pub fn parse_quoted(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let Some(body) = s.strip_prefix('"') else {
        return Some((s.trim_end().to_string(), ""));
    };
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match chars.next() {
                Some((_, e @ ('"' | '\\'))) => out.push(e),
                Some((_, e)) => {
                    out.push('\\');
                    out.push(e);
                }
                None => return None,
            },
            c => out.push(c),
        }
    }
    None
}

/// Text quoted for Yixin-Board's `MESSAGE DATABASE TEXT` line: `"` and `\` escaped, line
/// breaks kept (Yixin-Board reads on to the closing quote).
pub fn quote_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One line inside a block that ends with `DONE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockLine {
    /// A blank line (ignored).
    Empty,
    /// `DONE`: the block ends.
    Done,
    /// `x,y` or `x,y,field`.
    Stone { x: i64, y: i64, field: Option<i64> },
    /// A line that is not a square; the text says why.
    Bad(String),
}

/// Parses one command line.
pub fn parse(line: &str) -> Command {
    let line = line.trim();
    if line.is_empty() {
        return Command::Empty;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let name = word.to_ascii_uppercase();
    let malformed = |reason: String| Command::Malformed {
        name: name.clone(),
        reason,
    };
    match name.as_str() {
        "START" => {
            let nums: Vec<&str> = rest
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .collect();
            match nums.as_slice() {
                [n] => match parse_int(n) {
                    Some(n) => Command::Start {
                        width: n,
                        height: n,
                        pair: false,
                    },
                    None => malformed(format!("'{}' is not a board size", clean(n))),
                },
                [w, h] => match (parse_int(w), parse_int(h)) {
                    (Some(w), Some(h)) => Command::Start {
                        width: w,
                        height: h,
                        pair: true,
                    },
                    _ => malformed(format!("'{}' is not a board size", clean(rest))),
                },
                [] => malformed("expects a board size (START 15)".into()),
                _ => malformed(format!("'{}' is not a board size", clean(rest))),
            }
        }
        "RECTSTART" => match parse_pair(rest) {
            Ok((w, h)) => Command::RectStart {
                width: w,
                height: h,
            },
            Err(e) => malformed(format!("{e} (expected RECTSTART width,height)")),
        },
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" | "PLAY" | "TAKEBACK" => match parse_pair(rest) {
            Ok((x, y)) => match name.as_str() {
                "TURN" => Command::Turn(x, y),
                "PLAY" => Command::Play(x, y),
                _ => Command::Takeback(x, y),
            },
            Err(e) => malformed(format!("{e} (expected {name} x,y)")),
        },
        "BOARD" => Command::Board { think: true },
        "YXBOARD" => Command::Board { think: false },
        "SWAP2BOARD" => Command::Swap2Board,
        "INFO" => {
            let (key, value) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                malformed("expects a key and a value (INFO timeout_turn 5000)".into())
            } else {
                Command::Info {
                    key: key.to_ascii_lowercase(),
                    value: value.to_string(),
                }
            }
        }
        "END" => Command::End,
        "ABOUT" => Command::About,
        "STOP" | "YXSTOP" => Command::Stop,
        "YXSHOWFORBID" => Command::ShowForbid,
        "YXHASHCLEAR" => Command::HashClear,
        "YXSHOWINFO" => Command::ShowInfo,
        "YXNBEST" => match parse_int(rest) {
            Some(n) => Command::NBest(n),
            None => malformed(format!(
                "'{}' is not a number of moves (expected YXNBEST n)",
                clean(rest)
            )),
        },
        "YXBLOCK" => Command::Block { undo: false },
        "YXBLOCKUNDO" => Command::Block { undo: true },
        "YXBLOCKRESET" => Command::BlockReset,
        "YXBLOCKPATH" => Command::BlockPath { undo: false },
        "YXBLOCKPATHUNDO" => Command::BlockPath { undo: true },
        "YXBLOCKPATHRESET" => Command::BlockPathReset,
        "YXFORBID" => {
            let words: Vec<&str> = rest
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .collect();
            let usage = "(expected YXFORBID add|del x y side, side 0 black or 1 white)";
            match words.as_slice() {
                [sub, x, y, side] => {
                    let add = if sub.eq_ignore_ascii_case("add") {
                        Some(true)
                    } else if sub.eq_ignore_ascii_case("del") {
                        Some(false)
                    } else {
                        None
                    };
                    match (add, parse_int(x), parse_int(y), parse_int(side)) {
                        (None, ..) => malformed(format!(
                            "'{}' is not add or del {usage}",
                            clean(sub)
                        )),
                        (Some(add), Some(x), Some(y), Some(s @ (0 | 1))) => Command::Forbid {
                            add,
                            x,
                            y,
                            side: s as u8,
                        },
                        (Some(_), Some(_), Some(_), _) => malformed(format!(
                            "'{}' is not a side {usage}",
                            clean(side)
                        )),
                        _ => malformed(format!(
                            "'{x} {y}' is not a pair of numbers {usage}",
                            x = clean(x),
                            y = clean(y)
                        )),
                    }
                }
                _ => malformed(format!("'{}' {usage}", clean(rest))),
            }
        }
        "YXSEARCHDEFEND" => Command::SearchDefend,
        "YXSWAP2STEP1" => Command::Swap2Step(1),
        "YXSWAP2STEP2" => Command::Swap2Step(2),
        "YXSWAP2STEP3" => Command::Swap2Step(3),
        "YXSHOWHASHUSAGE" => Command::ShowHashUsage,
        "YXQUERYDATABASEALL" => Command::Database(DbCommand::QueryAll { text: false }),
        "YXQUERYDATABASEALLT" => Command::Database(DbCommand::QueryAll { text: true }),
        "YXQUERYDATABASEONE" => Command::Database(DbCommand::QueryOne),
        "YXQUERYDATABASETEXT" => Command::Database(DbCommand::QueryText),
        "YXSETBESTMOVEDATABASE" => Command::Database(DbCommand::SetBest),
        "YXCLEARBESTMOVEDATABASE" => Command::Database(DbCommand::ClearBest),
        "YXDELETEDATABASEONE" => Command::Database(DbCommand::DeleteOne),
        "YXDELETEDATABASEALL" => Command::Database(DbCommand::DeleteAll {
            filter: rest.to_ascii_uppercase(),
        }),
        "YXEDITLABELDATABASE" => {
            let (square, label) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            match parse_pair(square) {
                Ok((x, y)) if label.chars().any(char::is_control) => malformed(format!(
                    "the label of {x},{y} has control characters"
                )),
                Ok((x, y)) => Command::Database(DbCommand::EditLabel {
                    x,
                    y,
                    label: label.to_string(),
                }),
                Err(e) => malformed(format!("{e} (expected {name} x,y label)")),
            }
        }
        "YXEDITTVDDATABASE" => {
            let nums: Vec<Option<i64>> = rest.split_whitespace().map(parse_int).collect();
            match nums.as_slice() {
                [Some(mask), Some(tag), Some(value), Some(depth)] => {
                    Command::Database(DbCommand::EditTvd {
                        mask: *mask,
                        tag: *tag,
                        value: *value,
                        depth: *depth,
                    })
                }
                _ => malformed(format!(
                    "'{}' is not four numbers (expected {name} mask tag value depth)",
                    clean(rest)
                )),
            }
        }
        "YXEDITTEXTDATABASE" => match parse_quoted(rest) {
            Some((text, tail)) if tail.trim().is_empty() => {
                Command::Database(DbCommand::EditText(text))
            }
            _ => malformed(
                "the text must be quoted and followed by the moves (expected YXEDITTEXTDATABASE \"text\")"
                    .into(),
            ),
        },
        "YXSETDATABASE" => Command::SetDatabase(rest.to_string()),
        "YXHASHDUMP" => Command::HashFile {
            dump: true,
            path: rest.to_string(),
        },
        "YXHASHLOAD" => Command::HashFile {
            dump: false,
            path: rest.to_string(),
        },
        "YXDRAW" => Command::Draw,
        "YXRESIGN" => Command::Resign,
        "YXPRINTFEATURE" => Command::PrintFeature,
        "YXSAVEDATABASE" => Command::SaveDatabase,
        "YXDBCHECK" => Command::DbCheck,
        "YXDBFIX" => Command::DbFix,
        "YXLIBTODB" | "YXDBTOLIB" | "YXDBTOTXT" | "YXDBTOTXTALL" | "YXTXTTODB" | "YXDBTOPOS"
        | "YXDBMERGE" | "YXDBSPLIT" => {
            let cmd = match name.as_str() {
                "YXLIBTODB" => DbFile::LibToDb,
                "YXDBTOLIB" => DbFile::DbToLib,
                "YXDBTOTXT" => DbFile::DbToTxt { all: false },
                "YXDBTOTXTALL" => DbFile::DbToTxt { all: true },
                "YXTXTTODB" => DbFile::TxtToDb,
                "YXDBMERGE" => DbFile::Merge,
                "YXDBSPLIT" => DbFile::Split,
                _ => DbFile::DbToPos,
            };
            Command::DbFile {
                cmd,
                path: rest.to_string(),
            }
        }
        "YXSOOSORVSTEP1" | "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" | "YXSOOSORVSTEP6" => {
            Command::Soosorv {
                step: name.as_bytes()[13] - b'0',
                n: 0,
            }
        }
        "YXSOOSORVSTEP4" | "YXSOOSORVSTEP5" => match parse_int(rest) {
            Some(n) => Command::Soosorv {
                step: name.as_bytes()[13] - b'0',
                n,
            },
            None => malformed(format!(
                "'{}' is not a number of fifth moves (expected {name} n, n from 1 to 8)",
                clean(rest)
            )),
        },
        "YXBALANCEONE" | "YXBALANCETWO" => {
            // Yixin-Board always sends the bias; a missing one means even.
            let bias = if rest.is_empty() {
                Some(0)
            } else {
                parse_int(rest)
            };
            match bias {
                Some(bias) => Command::Balance {
                    two: name == "YXBALANCETWO",
                    bias,
                },
                None => malformed(format!(
                    "'{}' is not a score (expected {name} bias, 0 for even)",
                    clean(rest)
                )),
            }
        }
        "DONE" => Command::StrayDone,
        _ => Command::Unknown(clean(word)),
    }
}

/// Parses one line inside a block.
pub fn parse_block_line(line: &str) -> BlockLine {
    let line = line.trim();
    if line.is_empty() {
        return BlockLine::Empty;
    }
    if line.eq_ignore_ascii_case("DONE") {
        return BlockLine::Done;
    }
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    let bad = || {
        BlockLine::Bad(format!(
            "'{}' is not a square (expected x,y,field)",
            clean(line)
        ))
    };
    match parts.as_slice() {
        [x, y] => match (parse_int(x), parse_int(y)) {
            (Some(x), Some(y)) => BlockLine::Stone { x, y, field: None },
            _ => bad(),
        },
        [x, y, f] => match (parse_int(x), parse_int(y), parse_int(f)) {
            (Some(x), Some(y), Some(f)) => BlockLine::Stone {
                x,
                y,
                field: Some(f),
            },
            _ => bad(),
        },
        _ => bad(),
    }
}

/// An integer, with an optional sign; nothing else on the text.
pub fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() || s.len() > 20 {
        return None;
    }
    s.parse::<i64>().ok()
}

/// `x,y` (spaces around the numbers allowed).
pub fn parse_pair(s: &str) -> Result<(i64, i64), String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("missing coordinates".into());
    }
    let Some((a, b)) = s.split_once(',') else {
        return Err(format!("'{}' is not a pair of numbers", clean(s)));
    };
    match (parse_int(a), parse_int(b)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(format!("'{}' is not a pair of numbers", clean(s))),
    }
}

/// Input text made safe to echo in a reply: one line, printable, at most 60 characters.
pub fn clean(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(60)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// Text for one reply line: control characters (line breaks in an error's text, a path
/// with odd bytes) become `?`; nothing is cut, unlike [`clean`].
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `1 position`, `3 positions`: a count and its word, for reply text.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Engine description for `ABOUT`. The optional fields are left out of the reply when
/// `None` rather than filled with a placeholder.
pub struct About {
    pub name: &'static str,
    pub version: &'static str,
    pub author: &'static str,
    pub country: Option<&'static str>,
    pub www: Option<&'static str>,
    pub email: Option<&'static str>,
}

/// What `ABOUT` reports. Change the values here only.
pub const ABOUT: About = About {
    name: "Fivefold",
    version: env!("CARGO_PKG_VERSION"),
    author: "Fivefold developers",
    country: None,
    www: None,
    email: None,
};

/// The `ABOUT` reply: `key="value"` pairs separated by `, `. Values never hold a comma, an
/// equals sign or a quote (managers split on them), so any such character is replaced.
pub fn about_line(a: &About) -> String {
    let v = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c == ',' || c == '=' || c == '"' || c.is_control() {
                    ' '
                } else {
                    c
                }
            })
            .collect()
    };
    let mut fields = vec![
        ("name", a.name),
        ("version", a.version),
        ("author", a.author),
    ];
    for (key, value) in [("country", a.country), ("www", a.www), ("email", a.email)] {
        if let Some(value) = value {
            fields.push((key, value));
        }
    }
    fields
        .iter()
        .map(|(key, value)| format!("{key}=\"{}\"", v(value)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A square as the protocol writes it: `x,y`.
pub fn move_line(p: Pos) -> String {
    notation::xy(p)
}

/// The `YXSHOWFORBID` reply: `FORBID` and two digits each for x and y of every forbidden
/// square, ending with `.` (`FORBID .` when there is none).
pub fn forbid_line(squares: &[Pos]) -> String {
    let mut s = String::from("FORBID ");
    for p in squares {
        s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
    }
    s.push('.');
    s
}

/// The lines Yixin-Board reads as the answer to its Swap2 step 1, 2 or 3 (squares as
/// `x y`, which it reads as its own row and column):
/// - step 1 (empty board): `MESSAGE SWAP2 MOVE1 x y`, `… MOVE2 x y`, `… MOVE3 x y`;
/// - step 2 (three stones): `MESSAGE SWAP2 SWAP1 YES` (we take black), `MESSAGE SWAP2
///   SWAP1 NO` (we stay white; the GUI then sends `BOARD` for the fourth stone), or
///   `MESSAGE SWAP2 MOVE4 x y` and `… MOVE5 x y` (two more stones; the GUI's player
///   chooses the colour);
/// - step 3 (five stones): `MESSAGE SWAP2 SWAP2 YES` (we take black) or `MESSAGE SWAP2
///   SWAP2 NO` (we take white; the GUI then sends `BOARD` for the sixth stone).
///
/// `None` for a decision that does not belong to the step.
pub fn swap2_step_lines(step: u8, reply: &swap2::Reply) -> Option<Vec<String>> {
    use swap2::Reply;
    let at = |k: u8, p: Pos| format!("MESSAGE SWAP2 MOVE{k} {} {}", p.x(), p.y());
    match (step, reply) {
        (1, Reply::Opening([a, b, c])) => Some(vec![at(1, *a), at(2, *b), at(3, *c)]),
        (2, Reply::Swap) => Some(vec!["MESSAGE SWAP2 SWAP1 YES".into()]),
        (2, Reply::Stone(_)) => Some(vec!["MESSAGE SWAP2 SWAP1 NO".into()]),
        (2, Reply::Two(a, b)) => Some(vec![at(4, *a), at(5, *b)]),
        (3, Reply::Swap) => Some(vec!["MESSAGE SWAP2 SWAP2 YES".into()]),
        (3, Reply::Stone(_)) => Some(vec!["MESSAGE SWAP2 SWAP2 NO".into()]),
        _ => None,
    }
}

/// The lines Yixin-Board reads as the answer to a Soosorv step (squares as `x y`, which
/// it reads as its own row and column):
/// - step 1: `MESSAGE SOOSORV MOVE1 x y`, `… MOVE2 x y`, `… MOVE3 x y`;
/// - step 2: `MESSAGE SOOSORV SWAP1 YES` or `… NO`; step 4: `MESSAGE SOOSORV SWAP2 YES` or
///   `… NO`;
/// - step 3: `MESSAGE SOOSORV MOVE4 x y n` (the fourth stone and the number of fifth moves);
/// - step 5: `MESSAGE SOOSORV MOVE5 REFRESH`, one `MESSAGE SOOSORV MOVE5 x y` per offered
///   fifth move, `MESSAGE SOOSORV MOVE5 DONE`;
/// - step 6: `MESSAGE SOOSORV MOVE5C x y` (the offer taken).
///
/// `None` for a decision that does not belong to the step.
pub fn soosorv_lines(step: u8, reply: &soosorv::Reply) -> Option<Vec<String>> {
    use soosorv::Reply;
    let xy = |p: Pos| format!("{} {}", p.x(), p.y());
    let yes = |b: bool| if b { "YES" } else { "NO" };
    match (step, reply) {
        (1, Reply::Opening(s)) => Some(
            s.iter()
                .enumerate()
                .map(|(k, &p)| format!("MESSAGE SOOSORV MOVE{} {}", k + 1, xy(p)))
                .collect(),
        ),
        (2, Reply::Swap(b)) => Some(vec![format!("MESSAGE SOOSORV SWAP1 {}", yes(*b))]),
        (4, Reply::Swap(b)) => Some(vec![format!("MESSAGE SOOSORV SWAP2 {}", yes(*b))]),
        (3, Reply::Fourth(p, n)) => Some(vec![format!("MESSAGE SOOSORV MOVE4 {} {n}", xy(*p))]),
        (5, Reply::Fifths(v)) => {
            let mut lines = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
            lines.extend(
                v.iter()
                    .map(|&p| format!("MESSAGE SOOSORV MOVE5 {}", xy(p))),
            );
            lines.push("MESSAGE SOOSORV MOVE5 DONE".into());
            Some(lines)
        }
        (6, Reply::Choose(p)) => Some(vec![format!("MESSAGE SOOSORV MOVE5C {}", xy(*p))]),
        _ => None,
    }
}

/// Counts as GUIs' log scrapers read them: `950`, `12K`, `1.2M`, `3.4G`.
pub fn fmt_count(n: u64) -> String {
    fn scaled(n: u64, unit: u64, suffix: &str) -> String {
        let v = n as f64 / unit as f64;
        if v < 10.0 {
            format!("{:.1}{suffix}", v)
        } else {
            format!("{:.0}{suffix}", v)
        }
    }
    if n < 10_000 {
        n.to_string()
    } else if n < 1_000_000 {
        scaled(n, 1_000, "K")
    } else if n < 1_000_000_000 {
        scaled(n, 1_000_000, "M")
    } else {
        scaled(n, 1_000_000_000, "G")
    }
}

/// How the human-readable output names squares (`h8`: a letter for the column, rows
/// counted up from the bottom), for a board of `width` x `height`.
///
/// Yixin-Board sends and reads every protocol square as `row,column` (its own `y,x`), so
/// the engine's `x,y` is the GUI's row and column: the stones land right, but a name made
/// from the engine's `x` as the column would name the mirrored square. With `transpose`
/// the names are those of the square the GUI means: the column letter from `y`, the row
/// number from `x`. Protocol replies (`x,y`) are never transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names {
    pub width: usize,
    pub height: usize,
    pub transpose: bool,
}

impl Names {
    /// Plain names (no transposition) on a `width` x `height` board.
    pub fn plain(width: usize, height: usize) -> Names {
        Names {
            width,
            height,
            transpose: false,
        }
    }

    /// The board's size as the GUI sees it, columns x rows (`20x15`): transposed, the
    /// engine's `x` (its width) counts the GUI's rows.
    pub fn size(&self) -> String {
        if self.transpose {
            format!("{}x{}", self.height, self.width)
        } else {
            format!("{}x{}", self.width, self.height)
        }
    }

    /// The name of a square.
    pub fn square(&self, p: Pos) -> String {
        if !self.transpose {
            return notation::square_name(p, self.height);
        }
        // The GUI's column is the engine's y, its row (from the top) the engine's x, and
        // it has as many rows as the engine's board is wide.
        let (col, row) = (p.y(), p.x());
        if col < 26 && row < self.width {
            format!("{}{}", (b'a' + col as u8) as char, self.width - row)
        } else {
            notation::xy(p)
        }
    }
}

/// A principal variation in `h8` notation, separated by spaces.
pub fn pv_text(pv: &[Pos], names: &Names) -> String {
    pv.iter()
        .map(|&p| names.square(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one progress message says: a depth's result, or one line of a multi-line analysis.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// 1-based line number for multi-line analysis (`None` for an ordinary search).
    pub multipv: Option<usize>,
    pub depth: i32,
    pub seldepth: i32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: &'a [Pos],
}

impl<'a> Progress<'a> {
    pub fn from_info(info: &'a Info) -> Progress<'a> {
        Progress {
            multipv: None,
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            elapsed: info.elapsed,
            pv: &info.pv,
        }
    }
    fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// The compact progress message log scrapers read:
/// `MESSAGE depth 9-14 ev 35 n 1.2M n/s 2.3M tm 800 pv h8 i9`
/// (`multipv 2` after `MESSAGE` for the second line of a multi-line analysis).
pub fn progress_line(p: &Progress, names: &Names) -> String {
    let mut s = String::from("MESSAGE ");
    if let Some(k) = p.multipv {
        s.push_str(&format!("multipv {k} "));
    }
    s.push_str(&format!(
        "depth {}-{} ev {} n {} n/s {} tm {} pv {}",
        p.depth,
        p.seldepth.max(p.depth),
        format_score(p.score),
        fmt_count(p.nodes),
        fmt_count(p.nps()),
        p.elapsed.as_millis(),
        pv_text(p.pv, names)
    ));
    s
}

/// The detail message for GUIs that show the engine's thinking (`INFO show_detail 1`):
/// `MESSAGE Depth 9-14 | Eval +M7 | Nodes 1.2M | Speed 2.3M | Time 800ms | PV h8 i9`.
pub fn detail_line(p: &Progress, names: &Names) -> String {
    let head = match p.multipv {
        Some(k) => format!("MESSAGE ({k}) "),
        None => "MESSAGE ".to_string(),
    };
    format!(
        "{head}Depth {}-{} | Eval {} | Nodes {} | Speed {}/s | Time {}ms | PV {}",
        p.depth,
        p.seldepth.max(p.depth),
        format_score(p.score),
        fmt_count(p.nodes),
        fmt_count(p.nps()),
        p.elapsed.as_millis(),
        pv_text(p.pv, names)
    )
}

/// Yixin-Board's realtime marker lines, squares as the protocol writes them (`x,y`,
/// which the GUI reads as its own row,column): `MESSAGE REALTIME BEST x,y` (the current
/// best move), `LOSE x,y` (a move proven to lose), `POS x,y` / `DONE x,y` (a move being
/// searched / searched: in a multi-line analysis per listed line, in a single search per
/// root move as the search enters and leaves it).
pub fn realtime_line(kind: Realtime, p: Pos) -> String {
    let word = match kind {
        Realtime::Best => "BEST",
        Realtime::Lose => "LOSE",
        Realtime::Pos => "POS",
        Realtime::Done => "DONE",
    };
    format!("MESSAGE REALTIME {word} {}", move_line(p))
}

/// The kinds of [`realtime_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    Best,
    Lose,
    Pos,
    Done,
}

/// `MESSAGE REALTIME REFRESH`: Yixin-Board forgets its searched-square markers.
pub const REALTIME_REFRESH: &str = "MESSAGE REALTIME REFRESH";

/// Yixin-Board's marker for the current best move: `MESSAGE REALTIME BEST x,y`.
pub fn realtime_best_line(p: Pos) -> String {
    realtime_line(Realtime::Best, p)
}

/// The estimated chance of winning for a score (for the side it is for), as the
/// classical evaluation's weights were fitted: `1 / (1 + e^(-score / 200))`
/// ([`crate::core::scale`]); 1 and 0 for a five found.
pub fn win_rate(score: Score) -> f64 {
    if is_mate(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    crate::core::scale::expected(score as f64)
}

/// The `INFO` lines Yixin-Board 3 reads for one line of analysis (`INFO show_detail` 2
/// or 3), from which it draws the evaluation or win-rate label on the line's first
/// square: `INFO PV k` (0-based), `INFO NUMPV n`, `INFO DEPTH d`, `INFO SELDEPTH s`,
/// `INFO NODES`, `INFO TOTALNODES`, `INFO TOTALTIME` (ms), `INFO SPEED` (nodes/s),
/// `INFO EVAL` (`+M7` / `-M7` for a five found, else the score), `INFO WINRATE`
/// (0 to 1), `INFO BESTLINE x,y x,y …` (protocol squares) and `INFO PV DONE`.
pub fn info_lines(index: usize, count: usize, p: &Progress) -> Vec<String> {
    let line =
        p.pv.iter()
            .map(|&q| move_line(q))
            .collect::<Vec<_>>()
            .join(" ");
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {}", p.depth),
        format!("INFO SELDEPTH {}", p.seldepth.max(p.depth)),
        format!("INFO NODES {}", p.nodes),
        format!("INFO TOTALNODES {}", p.nodes),
        format!("INFO TOTALTIME {}", p.elapsed.as_millis()),
        format!("INFO SPEED {}", p.nps()),
        format!("INFO EVAL {}", format_score(p.score)),
        format!("INFO WINRATE {:.4}", win_rate(p.score)),
        format!("INFO BESTLINE {line}"),
        "INFO PV DONE".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{mate_in, mated_in};

    #[test]
    fn commands_are_case_insensitive_and_trimmed() {
        assert_eq!(
            parse("start 15\r"),
            Command::Start {
                width: 15,
                height: 15,
                pair: false
            }
        );
        assert_eq!(
            parse("  START   20  "),
            Command::Start {
                width: 20,
                height: 20,
                pair: false
            }
        );
        assert_eq!(
            parse("start 15 15"),
            Command::Start {
                width: 15,
                height: 15,
                pair: true
            }
        );
        assert_eq!(
            parse("RectStart 20,15"),
            Command::RectStart {
                width: 20,
                height: 15
            }
        );
        assert_eq!(parse("turn 7, 8"), Command::Turn(7, 8));
        assert_eq!(parse("PLAY 1,2"), Command::Play(1, 2));
        assert_eq!(parse("takeback 3,4"), Command::Takeback(3, 4));
        assert_eq!(parse("yxstop"), Command::Stop);
        assert_eq!(parse("Stop"), Command::Stop);
        assert_eq!(parse("board"), Command::Board { think: true });
        assert_eq!(parse("YXBOARD"), Command::Board { think: false });
        assert_eq!(parse(""), Command::Empty);
        assert_eq!(parse(" \r"), Command::Empty);
        assert_eq!(parse("yxnbest 3"), Command::NBest(3));
        assert_eq!(parse("done"), Command::StrayDone);
    }

    #[test]
    fn info_keeps_the_value() {
        assert_eq!(
            parse("INFO Timeout_Turn 5000"),
            Command::Info {
                key: "timeout_turn".into(),
                value: "5000".into()
            }
        );
        assert_eq!(
            parse("INFO folder C:\\My Documents\\x"),
            Command::Info {
                key: "folder".into(),
                value: "C:\\My Documents\\x".into()
            }
        );
        assert_eq!(
            parse("info show_detail 1"),
            Command::Info {
                key: "show_detail".into(),
                value: "1".into()
            }
        );
        assert!(matches!(parse("INFO"), Command::Malformed { .. }));
    }

    #[test]
    fn malformed_arguments() {
        for l in [
            "TURN",
            "TURN 7",
            "TURN a,b",
            "TURN 7;8",
            "TURN 99999999999999999999999,1",
            "START",
            "START x",
            "RECTSTART 20",
            "YXNBEST",
            "YXNBEST x",
        ] {
            assert!(matches!(parse(l), Command::Malformed { .. }), "{l}");
        }
        // Out-of-board numbers parse; the session range-checks them.
        assert_eq!(parse("TURN -1,40"), Command::Turn(-1, 40));
    }

    #[test]
    fn unknown_commands_and_yixin_extensions() {
        assert_eq!(parse("FOO bar"), Command::Unknown("FOO".into()));
        assert_eq!(parse("7,7,1"), Command::Unknown("7,7,1".into()));
        assert_eq!(parse("yxdraw"), Command::Draw);
        assert_eq!(
            parse("yxhashdump"),
            Command::HashFile {
                dump: true,
                path: String::new()
            }
        );
        assert_eq!(
            parse("YXHASHLOAD C:\\x y"),
            Command::HashFile {
                dump: false,
                path: "C:\\x y".into()
            }
        );
        assert_eq!(parse("\u{1}\u{2}x"), Command::Unknown("??x".into()));
    }

    /// Yixin-Board's block-path and forbid commands, as its `main.c` writes them.
    #[test]
    fn block_path_and_forbid_commands() {
        assert_eq!(parse("yxblockpath"), Command::BlockPath { undo: false });
        assert_eq!(parse("YXBLOCKPATHUNDO"), Command::BlockPath { undo: true });
        assert_eq!(parse("yxblockpathreset"), Command::BlockPathReset);
        assert_eq!(
            parse("yxforbid add 7 8 0"),
            Command::Forbid {
                add: true,
                x: 7,
                y: 8,
                side: 0
            }
        );
        assert_eq!(
            parse("YXFORBID Del 14 0 1"),
            Command::Forbid {
                add: false,
                x: 14,
                y: 0,
                side: 1
            }
        );
        // Off-board squares parse; the session range-checks them.
        assert_eq!(
            parse("yxforbid add -1 40 1"),
            Command::Forbid {
                add: true,
                x: -1,
                y: 40,
                side: 1
            }
        );
        for l in [
            "yxforbid",
            "yxforbid add",
            "yxforbid add 7 7",
            "yxforbid add 7 7 2",
            "yxforbid add 7 7 -1",
            "yxforbid put 7 7 0",
            "yxforbid add x 7 0",
            "yxforbid add 7 7 0 9",
        ] {
            assert!(
                matches!(parse(l), Command::Malformed { ref name, .. } if name == "YXFORBID"),
                "{l}"
            );
        }
        // The block lines are the ordinary ones.
        assert_eq!(
            parse_block_line("7,6"),
            BlockLine::Stone {
                x: 7,
                y: 6,
                field: None
            }
        );
    }

    /// The lines Yixin-Board's command box sends for `draw`, `resign` and `print
    /// features` (bare, lower case); arguments are ignored.
    #[test]
    fn draw_resign_and_print_features() {
        assert_eq!(parse("yxdraw"), Command::Draw);
        assert_eq!(parse("YXDRAW\r"), Command::Draw);
        assert_eq!(parse("yxresign"), Command::Resign);
        assert_eq!(parse("YxResign now"), Command::Resign);
        assert_eq!(parse("yxprintfeature"), Command::PrintFeature);
        assert_eq!(
            parse("yxprintfeatures"),
            Command::Unknown("yxprintfeatures".into())
        );
    }

    /// Yixin-Board's database commands, as its `main.c` writes them.
    #[test]
    fn database_commands() {
        assert_eq!(parse("yxdbfix"), Command::DbFix);
        assert_eq!(
            parse("yxlibtodb"),
            Command::DbFile {
                cmd: DbFile::LibToDb,
                path: String::new()
            }
        );
        assert_eq!(
            parse("YXDBTOTXTALL C:\\all.txt"),
            Command::DbFile {
                cmd: DbFile::DbToTxt { all: true },
                path: "C:\\all.txt".into()
            }
        );
        for (line, cmd) in [
            ("yxdbtolib", DbFile::DbToLib),
            ("yxdbtotxt", DbFile::DbToTxt { all: false }),
            ("yxtxttodb", DbFile::TxtToDb),
            ("yxdbtopos", DbFile::DbToPos),
            ("yxdbmerge", DbFile::Merge),
            ("yxdbsplit", DbFile::Split),
        ] {
            assert_eq!(
                parse(line),
                Command::DbFile {
                    cmd,
                    path: String::new()
                }
            );
            assert_eq!(cmd.name().to_ascii_lowercase(), line);
        }
        assert_eq!(
            parse("yxquerydatabaseall"),
            Command::Database(DbCommand::QueryAll { text: false })
        );
        assert_eq!(
            parse("yxquerydatabaseallt"),
            Command::Database(DbCommand::QueryAll { text: true })
        );
        assert_eq!(parse("yxsetdatabase"), Command::SetDatabase(String::new()));
        assert_eq!(
            parse("yxsetdatabase C:\\db"),
            Command::SetDatabase("C:\\db".into())
        );
        assert_eq!(
            parse("yxeditlabeldatabase 6,7 A1"),
            Command::Database(DbCommand::EditLabel {
                x: 6,
                y: 7,
                label: "A1".into()
            })
        );
        assert_eq!(
            parse("yxeditlabeldatabase 6,7 "),
            Command::Database(DbCommand::EditLabel {
                x: 6,
                y: 7,
                label: String::new()
            })
        );
        assert_eq!(
            parse("yxedittvddatabase 1 -1 0 0"),
            Command::Database(DbCommand::EditTvd {
                mask: 1,
                tag: -1,
                value: 0,
                depth: 0
            })
        );
        assert!(matches!(
            parse("yxedittvddatabase 2 -1 x 0"),
            Command::Malformed { .. }
        ));
        assert_eq!(
            parse("yxdeletedatabaseall wlinstep 5"),
            Command::Database(DbCommand::DeleteAll {
                filter: "WLINSTEP 5".into()
            })
        );
        // The quoted text: escapes undone, what follows the quote returned.
        assert_eq!(
            parse_quoted(" \"a \\\"b\\\" \\\\ c\"7,7"),
            Some(("a \"b\" \\ c".to_string(), "7,7"))
        );
        assert_eq!(parse_quoted("\"open"), None);
        assert_eq!(quote_text("a \"b\" \\ c"), "\"a \\\"b\\\" \\\\ c\"");
    }

    #[test]
    fn block_lines() {
        assert_eq!(
            parse_block_line("7,7,1"),
            BlockLine::Stone {
                x: 7,
                y: 7,
                field: Some(1)
            }
        );
        assert_eq!(
            parse_block_line(" 7 , 8 \r"),
            BlockLine::Stone {
                x: 7,
                y: 8,
                field: None
            }
        );
        assert_eq!(parse_block_line("done"), BlockLine::Done);
        assert_eq!(parse_block_line("DONE\r"), BlockLine::Done);
        assert_eq!(parse_block_line(""), BlockLine::Empty);
        assert!(matches!(parse_block_line("7,7,1,1"), BlockLine::Bad(_)));
        assert!(matches!(parse_block_line("seven"), BlockLine::Bad(_)));
        assert!(matches!(parse_block_line("7,,1"), BlockLine::Bad(_)));
    }

    #[test]
    fn about_has_no_separator_inside_values() {
        let a = About {
            name: "A,b",
            version: "1=2",
            author: "x\"y",
            country: Some("c"),
            www: None,
            email: Some("e"),
        };
        let line = about_line(&a);
        assert_eq!(
            line,
            "name=\"A b\", version=\"1 2\", author=\"x y\", country=\"c\", email=\"e\""
        );
        let line = about_line(&ABOUT);
        assert!(line.starts_with("name=\"Fivefold\", version=\""));
        assert!(!line.contains("\"-\""), "{line}");
    }

    #[test]
    fn formats() {
        assert_eq!(fmt_count(950), "950");
        assert_eq!(fmt_count(12_345), "12K");
        assert_eq!(fmt_count(1_234_567), "1.2M");
        assert_eq!(fmt_count(23_456_789), "23M");
        assert_eq!(fmt_count(3_400_000_000), "3.4G");
        assert_eq!(forbid_line(&[]), "FORBID .");
        assert_eq!(
            forbid_line(&[Pos::new(7, 3), Pos::new(10, 12)]),
            "FORBID 07031012."
        );
        let pv = [Pos::new(7, 7), Pos::new(8, 6)];
        let p = Progress {
            multipv: None,
            depth: 9,
            seldepth: 14,
            score: mate_in(7),
            nodes: 1_200_000,
            elapsed: Duration::from_millis(800),
            pv: &pv,
        };
        assert_eq!(
            progress_line(&p, &Names::plain(15, 15)),
            "MESSAGE depth 9-14 ev +M7 n 1.2M n/s 1.5M tm 800 pv h8 i9"
        );
        let q = Progress {
            multipv: Some(2),
            score: mated_in(4),
            ..p.clone()
        };
        assert_eq!(
            progress_line(&q, &Names::plain(15, 15)),
            "MESSAGE multipv 2 depth 9-14 ev -M4 n 1.2M n/s 1.5M tm 800 pv h8 i9"
        );
        assert_eq!(
            detail_line(&p, &Names::plain(15, 15)),
            "MESSAGE Depth 9-14 | Eval +M7 | Nodes 1.2M | Speed 1.5M/s | Time 800ms | PV h8 i9"
        );
        assert_eq!(
            realtime_best_line(Pos::new(7, 8)),
            "MESSAGE REALTIME BEST 7,8"
        );
    }

    #[test]
    fn transposed_names_are_the_squares_yixin_board_means() {
        // Yixin-Board sent `9,7` (its row 9 from the top, column 7): the stone stands on
        // H6 of its 15x15 board, which plain names call j8.
        let p = Pos::new(9, 7);
        assert_eq!(Names::plain(15, 15).square(p), "j8");
        let yx = Names {
            transpose: true,
            ..Names::plain(15, 15)
        };
        assert_eq!(yx.square(p), "h6");
        assert_eq!(yx.square(Pos::new(0, 0)), "a15");
        assert_eq!(yx.square(Pos::new(14, 0)), "a1");
        assert_eq!(pv_text(&[Pos::new(7, 7), p], &yx), "h8 h6");
        // Yixin-Board 2.1's 20 columns and 15 rows (`START 20 15`): 15 wide in the
        // engine's x (its rows), 20 tall in y (its columns, A to T).
        let rect = Names {
            width: 15,
            height: 20,
            transpose: true,
        };
        assert_eq!(rect.size(), "20x15");
        assert_eq!(rect.square(Pos::new(7, 19)), "t8");
        assert_eq!(rect.square(Pos::new(6, 10)), "k9");
        assert_eq!(Names::plain(20, 15).size(), "20x15");
    }

    #[test]
    fn yixin_board_realtime_and_info_lines() {
        assert_eq!(
            realtime_line(Realtime::Lose, Pos::new(3, 12)),
            "MESSAGE REALTIME LOSE 3,12"
        );
        assert_eq!(
            realtime_line(Realtime::Pos, Pos::new(1, 2)),
            "MESSAGE REALTIME POS 1,2"
        );
        assert_eq!(
            realtime_line(Realtime::Done, Pos::new(1, 2)),
            "MESSAGE REALTIME DONE 1,2"
        );
        let pv = [Pos::new(7, 7), Pos::new(8, 6)];
        let p = Progress {
            multipv: None,
            depth: 9,
            seldepth: 14,
            score: 0,
            nodes: 1_200_000,
            elapsed: Duration::from_millis(800),
            pv: &pv,
        };
        assert_eq!(
            info_lines(1, 3, &p),
            [
                "INFO PV 1",
                "INFO NUMPV 3",
                "INFO DEPTH 9",
                "INFO SELDEPTH 14",
                "INFO NODES 1200000",
                "INFO TOTALNODES 1200000",
                "INFO TOTALTIME 800",
                "INFO SPEED 1500000",
                "INFO EVAL 0",
                "INFO WINRATE 0.5000",
                "INFO BESTLINE 7,7 8,6",
                "INFO PV DONE",
            ]
        );
        assert!(win_rate(200) > 0.73 && win_rate(200) < 0.74);
        assert_eq!(win_rate(mate_in(3)), 1.0);
        assert_eq!(win_rate(mated_in(2)), 0.0);
    }

    #[test]
    fn yixin_board_analysis_and_opening_commands() {
        assert_eq!(parse("yxsearchdefend"), Command::SearchDefend);
        assert_eq!(parse("yxswap2step1"), Command::Swap2Step(1));
        assert_eq!(parse("yxswap2step2"), Command::Swap2Step(2));
        assert_eq!(parse("yxswap2step3"), Command::Swap2Step(3));
        assert_eq!(parse("yxshowhashusage"), Command::ShowHashUsage);
        assert_eq!(
            parse("yxbalanceone 0"),
            Command::Balance {
                two: false,
                bias: 0
            }
        );
        assert_eq!(
            parse("yxbalancetwo -30"),
            Command::Balance {
                two: true,
                bias: -30
            }
        );
        assert_eq!(
            parse("yxbalanceone"),
            Command::Balance {
                two: false,
                bias: 0
            }
        );
        assert!(matches!(parse("yxbalancetwo x"), Command::Malformed { .. }));
        assert_eq!(parse("yxsoosorvstep1"), Command::Soosorv { step: 1, n: 0 });
        assert_eq!(parse("yxsoosorvstep6"), Command::Soosorv { step: 6, n: 0 });
        assert_eq!(
            parse("yxsoosorvstep4 2"),
            Command::Soosorv { step: 4, n: 2 }
        );
        assert_eq!(
            parse("YXSOOSORVSTEP5 8"),
            Command::Soosorv { step: 5, n: 8 }
        );
        assert!(matches!(parse("yxsoosorvstep5"), Command::Malformed { .. }));
    }

    #[test]
    fn soosorv_answers_in_yixin_boards_form() {
        use soosorv::Reply;
        let p = Pos::new(6, 9);
        assert_eq!(
            soosorv_lines(3, &Reply::Fourth(p, 4)).unwrap(),
            ["MESSAGE SOOSORV MOVE4 6 9 4"]
        );
        assert_eq!(
            soosorv_lines(5, &Reply::Fifths(vec![p, Pos::new(1, 2)])).unwrap(),
            [
                "MESSAGE SOOSORV MOVE5 REFRESH",
                "MESSAGE SOOSORV MOVE5 6 9",
                "MESSAGE SOOSORV MOVE5 1 2",
                "MESSAGE SOOSORV MOVE5 DONE"
            ]
        );
        assert_eq!(
            soosorv_lines(6, &Reply::Choose(p)).unwrap(),
            ["MESSAGE SOOSORV MOVE5C 6 9"]
        );
        assert_eq!(
            soosorv_lines(2, &Reply::Swap(true)).unwrap(),
            ["MESSAGE SOOSORV SWAP1 YES"]
        );
        assert_eq!(
            soosorv_lines(4, &Reply::Swap(false)).unwrap(),
            ["MESSAGE SOOSORV SWAP2 NO"]
        );
        assert_eq!(soosorv_lines(4, &Reply::Choose(p)), None);
        assert_eq!(
            swap2_step_lines(2, &swap2::Reply::Two(p, Pos::new(1, 2))).unwrap(),
            ["MESSAGE SWAP2 MOVE4 6 9", "MESSAGE SWAP2 MOVE5 1 2"]
        );
        assert_eq!(swap2_step_lines(3, &swap2::Reply::Two(p, p)), None);
    }
}
