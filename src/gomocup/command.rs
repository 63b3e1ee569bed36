//! The Gomocup (Piskvork) protocol's input: what one line says ([`parse`] gives its
//! [`Command`], [`parse_block_line`] reads a line inside a block that ends with `DONE`),
//! and the framing that makes whole commands of lines ([`Framer`] gives [`Request`]s): a
//! `BOARD`-style command with its block of squares, a command with its path on the next
//! line (as Yixin-Board sends `YXSETDATABASE`, the database file commands and the table
//! dump), `YXEDITTEXTDATABASE` with its quoted text over several lines. Each line is
//! parsed once, here; the session ([`crate::gomocup::session`]) receives whole commands.
//!
//! Everything here is pure (no I/O, no game state). Commands are case-insensitive;
//! leading and trailing white space (including the CR of CRLF line ends) is ignored.
//! Numbers are kept as `i64` here and range-checked by the session, which knows the
//! board; `INFO` values are read by [`crate::gomocup::settings`].

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
fn parse_quoted(s: &str) -> Option<(String, &str)> {
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
fn parse_int(s: &str) -> Option<i64> {
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

/// A whole command: a line, or a command line and the lines that complete it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A command whole on its line (a path that came on the next line filled in).
    Line(Command),
    /// A command and the squares of its block, in the order sent: `BOARD` and `YXBOARD`
    /// (`x,y,field`), `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`, `YXBLOCKPATH`,
    /// `YXBLOCKPATHUNDO`, the Soosorv steps 2 to 6 and the database commands on a
    /// position (`x,y`; a field sent there is dropped).
    Block {
        command: Command,
        stones: Vec<(i64, i64, Option<i64>)>,
    },
    /// A block with a line that is not a square: `name` is its command, `error` the
    /// first bad line's fault. Nothing is to change.
    BadBlock { name: String, error: String },
    /// A block cut short by a command line before its `DONE` (the command comes next).
    CutShort { name: String, line: String },
}

/// The name of the block a command opens (`BOARD`, `YXBLOCKPATH`, …), or `None` for a
/// command that is whole on its line.
fn block_name(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Board { think: true } => "BOARD",
        Command::Board { think: false } => "YXBOARD",
        Command::Swap2Board => "SWAP2BOARD",
        Command::Block { undo: false } => "YXBLOCK",
        Command::Block { undo: true } => "YXBLOCKUNDO",
        Command::BlockPath { undo: false } => "YXBLOCKPATH",
        Command::BlockPath { undo: true } => "YXBLOCKPATHUNDO",
        Command::Soosorv { step, .. } if *step > 1 => SOOSORV_NAMES[usize::from(*step - 1)],
        Command::Database(cmd) => cmd.name(),
        _ => return None,
    })
}

/// The Soosorv step commands, by step.
pub const SOOSORV_NAMES: [&str; 6] = [
    "YXSOOSORVSTEP1",
    "YXSOOSORVSTEP2",
    "YXSOOSORVSTEP3",
    "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5",
    "YXSOOSORVSTEP6",
];

/// Whether a command only reads the position database (Yixin-Board sends one after each
/// of our moves while "Use Database" is on; it needs nothing of the engine).
fn is_query(command: &Command) -> bool {
    matches!(
        command,
        Command::Database(DbCommand::QueryAll { .. } | DbCommand::QueryOne | DbCommand::QueryText)
    )
}

/// What a line that comes while a search runs asks of it, read from its first word
/// alone (the line itself waits, and is framed once the search has answered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// `END`: quit now.
    End,
    /// `STOP` or `YXSTOP`: answer now with the best move found so far.
    Stop,
}

/// The [`Interrupt`] a line is, if any: `END`, `STOP` or `YXSTOP` as its first word, as
/// [`parse`] reads them.
pub fn interrupt(line: &str) -> Option<Interrupt> {
    let word = line.split_whitespace().next()?;
    if word.eq_ignore_ascii_case("END") {
        Some(Interrupt::End)
    } else if word.eq_ignore_ascii_case("STOP") || word.eq_ignore_ascii_case("YXSTOP") {
        Some(Interrupt::Stop)
    } else {
        None
    }
}

/// What the framer waits for.
#[derive(Clone, Debug, Default)]
enum Open {
    /// A command line.
    #[default]
    Command,
    /// The lines of a block until `DONE`, for `command`, with the first bad line's fault.
    Block {
        command: Command,
        stones: Vec<(i64, i64, Option<i64>)>,
        error: Option<String>,
    },
    /// The next non-blank line, which is the path of `command` (sent with an empty one).
    Path(Command),
    /// The rest of a `YXEDITTEXTDATABASE` text, open until its closing quote.
    Text(String),
}

/// The longest `YXEDITTEXTDATABASE` text kept while its closing quote has not come.
const MAX_TEXT: usize = 1 << 20;

/// What one line completed: the requests (none while a block, a path or a text is open;
/// two when a command cuts a block short), whether it started a command that the lines
/// after it complete, and whether a database query's block is open after it.
#[derive(Debug)]
pub struct Framed {
    pub requests: Vec<Request>,
    /// The line was a command that opened a block, or that waits for its path or text on
    /// the lines after it.
    pub opened: bool,
    in_query: bool,
}

impl Framed {
    /// Whether this line lets a search on the opponent's time go on: it completed only
    /// database queries, or it was a line of a query's block (see `is_query`).
    pub fn keeps_pondering(&self) -> bool {
        let query = |r: &Request| matches!(r, Request::Block { command, .. } if is_query(command));
        self.requests.iter().all(query) && (self.in_query || !self.requests.is_empty())
    }

    /// Whether this line only set something (`INFO`), or kept pondering going.
    pub fn only_settings(&self) -> bool {
        let setting = |r: &Request| matches!(r, Request::Line(Command::Info { .. }));
        self.keeps_pondering() || (!self.requests.is_empty() && self.requests.iter().all(setting))
    }
}

/// Makes whole commands ([`Request`]s) of input lines, one line at a time.
#[derive(Clone, Debug, Default)]
pub struct Framer {
    open: Open,
    /// The line being taken opened a command that later lines complete.
    opened: bool,
}

impl Framer {
    /// Takes one input line.
    pub fn push(&mut self, line: &str) -> Framed {
        let mut requests = Vec::new();
        self.opened = false;
        self.take(line, &mut requests);
        let in_query = matches!(&self.open, Open::Block { command, .. } if is_query(command));
        Framed {
            requests,
            opened: self.opened,
            in_query,
        }
    }

    fn take(&mut self, line: &str, requests: &mut Vec<Request>) {
        match std::mem::take(&mut self.open) {
            Open::Path(command) if line.trim().is_empty() => self.open = Open::Path(command),
            Open::Path(command) => requests.push(Request::Line(with_path(command, line.trim()))),
            Open::Text(mut text) => {
                text.push('\n');
                text.push_str(line.trim_end_matches(['\r', '\n']));
                self.text(text, requests);
            }
            Open::Block {
                command,
                stones,
                error,
            } => self.block_line(command, stones, error, line, requests),
            Open::Command => match edit_text(line) {
                Some(text) => {
                    self.opened = true;
                    self.text(text, requests)
                }
                None => self.command(parse(line), requests),
            },
        }
    }

    /// A command line: whole, or the start of a block or of a path on the next line.
    fn command(&mut self, command: Command, requests: &mut Vec<Request>) {
        if block_name(&command).is_some() {
            self.opened = true;
            self.open = Open::Block {
                command,
                stones: Vec::new(),
                error: None,
            };
        } else if needs_path(&command) {
            self.opened = true;
            self.open = Open::Path(command);
        } else {
            requests.push(Request::Line(command));
        }
    }

    /// A line inside a block.
    fn block_line(
        &mut self,
        command: Command,
        mut stones: Vec<(i64, i64, Option<i64>)>,
        mut error: Option<String>,
        line: &str,
        requests: &mut Vec<Request>,
    ) {
        let name = block_name(&command).unwrap_or_default().to_string();
        match parse_block_line(line) {
            BlockLine::Empty => {}
            BlockLine::Done => {
                requests.push(match error {
                    Some(error) => Request::BadBlock { name, error },
                    None => Request::Block { command, stones },
                });
                return;
            }
            BlockLine::Stone { x, y, field } => {
                let board = matches!(command, Command::Board { .. });
                stones.push((x, y, field.filter(|_| board)));
            }
            BlockLine::Bad(message) => match parse(line) {
                Command::Unknown(_) | Command::Empty => {
                    error.get_or_insert(message);
                }
                // The block is dropped, and the engine quits.
                Command::End => {
                    requests.push(Request::Line(Command::End));
                    return;
                }
                other => {
                    let line = clean(line.trim());
                    requests.push(Request::CutShort { name, line });
                    self.command(other, requests);
                    return;
                }
            },
        }
        self.open = Open::Block {
            command,
            stones,
            error,
        };
    }

    /// A `YXEDITTEXTDATABASE` text so far: once its closing quote has come, the block of
    /// moves starts, its first move on the same line as the quote (Yixin-Board sends no
    /// line break there).
    fn text(&mut self, text: String, requests: &mut Vec<Request>) {
        match parse_quoted(&text) {
            None if text.len() > MAX_TEXT => requests.push(Request::Line(Command::Malformed {
                name: "YXEDITTEXTDATABASE".into(),
                reason: "the text is over 1 MiB or its closing quote is missing; nothing changed"
                    .into(),
            })),
            None => self.open = Open::Text(text),
            Some((body, tail)) => {
                let tail = tail.to_string();
                self.open = Open::Block {
                    command: Command::Database(DbCommand::EditText(body)),
                    stones: Vec::new(),
                    error: None,
                };
                if !tail.trim().is_empty() {
                    self.take(&tail, requests);
                }
            }
        }
    }
}

/// The text after `YXEDITTEXTDATABASE` at the start of a line, if the line is one.
fn edit_text(line: &str) -> Option<String> {
    let t = line.trim_start();
    let head = "YXEDITTEXTDATABASE";
    if t.len() < head.len()
        || !t.is_char_boundary(head.len())
        || !t[..head.len()].eq_ignore_ascii_case(head)
    {
        return None;
    }
    let rest = &t[head.len()..];
    (rest.is_empty() || rest.starts_with(char::is_whitespace))
        .then(|| rest.trim_end_matches(['\r', '\n']).to_string())
}

/// Whether a command was sent without the path it needs (Yixin-Board sends the path on
/// the next line).
fn needs_path(command: &Command) -> bool {
    match command {
        Command::SetDatabase(path)
        | Command::DbFile { path, .. }
        | Command::HashFile { path, .. } => path.is_empty(),
        _ => false,
    }
}

/// `command` with the path that came on the next line.
fn with_path(command: Command, path: &str) -> Command {
    let path = path.to_string();
    match command {
        Command::SetDatabase(_) => Command::SetDatabase(path),
        Command::DbFile { cmd, .. } => Command::DbFile { cmd, path },
        Command::HashFile { dump, .. } => Command::HashFile { dump, path },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::reply::quote_text;

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

    /// The requests of `lines`, fed one by one to a new framer.
    fn framed(lines: &[&str]) -> Vec<Request> {
        let mut f = Framer::default();
        lines.iter().flat_map(|l| f.push(l).requests).collect()
    }

    #[test]
    fn a_block_comes_whole_with_its_squares() {
        assert_eq!(
            framed(&["BOARD", "7,7,1", "", " 8 , 8 , 2 ", "done"]),
            [Request::Block {
                command: Command::Board { think: true },
                stones: vec![(7, 7, Some(1)), (8, 8, Some(2))],
            }]
        );
        // Outside BOARD a field is not part of the square.
        assert_eq!(
            framed(&["YXBLOCK", "1,2,3", "4,5", "DONE"]),
            [Request::Block {
                command: Command::Block { undo: false },
                stones: vec![(1, 2, None), (4, 5, None)],
            }]
        );
        // Soosorv step 1 has no block; the later steps have.
        assert_eq!(
            framed(&["YXSOOSORVSTEP1"]),
            [Request::Line(Command::Soosorv { step: 1, n: 0 })]
        );
        assert_eq!(
            framed(&["YXSOOSORVSTEP4 3", "7,7", "DONE"]),
            [Request::Block {
                command: Command::Soosorv { step: 4, n: 3 },
                stones: vec![(7, 7, None)],
            }]
        );
    }

    #[test]
    fn a_bad_block_says_its_first_fault_and_a_command_cuts_it_short() {
        let r = framed(&["YXBOARD", "7,7,1", "seven", "x,y", "DONE"]);
        assert_eq!(
            r,
            [Request::BadBlock {
                name: "YXBOARD".into(),
                error: "'seven' is not a square (expected x,y,field)".into(),
            }]
        );
        assert_eq!(
            framed(&["BOARD", "7,7,1", "turn 1,1"]),
            [
                Request::CutShort {
                    name: "BOARD".into(),
                    line: "turn 1,1".into()
                },
                Request::Line(Command::Turn(1, 1)),
            ]
        );
        // A command that opens a block cuts the open one short and opens its own.
        assert_eq!(
            framed(&["YXBLOCKPATH", "1,1", "YXBLOCK", "2,2", "DONE"]),
            [
                Request::CutShort {
                    name: "YXBLOCKPATH".into(),
                    line: "YXBLOCK".into()
                },
                Request::Block {
                    command: Command::Block { undo: false },
                    stones: vec![(2, 2, None)],
                },
            ]
        );
        // END quits whatever is open.
        assert_eq!(
            framed(&["BOARD", "7,7,1", "END"]),
            [Request::Line(Command::End)]
        );
    }

    #[test]
    fn a_path_on_the_next_line_completes_its_command() {
        assert_eq!(
            framed(&["YXSETDATABASE", "", "  C:\\db\\my.db  "]),
            [Request::Line(Command::SetDatabase("C:\\db\\my.db".into()))]
        );
        // Whatever the next line says is the path.
        assert_eq!(
            framed(&["yxhashdump", "END"]),
            [Request::Line(Command::HashFile {
                dump: true,
                path: "END".into()
            })]
        );
        assert_eq!(
            framed(&["YXDBTOTXT", "out.txt"]),
            [Request::Line(Command::DbFile {
                cmd: DbFile::DbToTxt { all: false },
                path: "out.txt".into()
            })]
        );
        assert_eq!(
            framed(&["YXSETDATABASE my.db"]),
            [Request::Line(Command::SetDatabase("my.db".into()))]
        );
    }

    #[test]
    fn a_text_over_several_lines_opens_its_block_at_the_closing_quote() {
        let mut f = Framer::default();
        let first = f.push("YXEDITTEXTDATABASE \"line one");
        assert!(first.requests.is_empty() && first.opened);
        let second = f.push("line \\\"two\\\"\"7,7");
        assert!(second.requests.is_empty() && !second.opened);
        assert_eq!(
            f.push("done").requests,
            [Request::Block {
                command: Command::Database(DbCommand::EditText("line one\nline \"two\"".into())),
                stones: vec![(7, 7, None)],
            }]
        );
    }

    #[test]
    fn queries_keep_pondering_and_settings_keep_it_planned() {
        let mut f = Framer::default();
        for l in ["yxquerydatabaseall", "7,7", "DONE"] {
            let framed = f.push(l);
            assert!(framed.keeps_pondering() && framed.only_settings(), "{l}");
        }
        let info = f.push("INFO time_left 5000");
        assert!(!info.keeps_pondering() && info.only_settings());
        for l in ["YXBOARD", "7,7,1", "DONE", "", "TURN 1,1"] {
            let framed = f.push(l);
            assert!(!framed.keeps_pondering() && !framed.only_settings(), "{l}");
        }
    }

    #[test]
    fn only_end_and_stop_interrupt_a_search() {
        assert_eq!(interrupt(" end "), Some(Interrupt::End));
        assert_eq!(interrupt("yxstop"), Some(Interrupt::Stop));
        assert_eq!(interrupt("STOP now"), Some(Interrupt::Stop));
        for l in ["", "TURN 1,1", "ENDS", "7,7"] {
            assert_eq!(interrupt(l), None, "{l}");
        }
        for l in [" end ", "yxstop", "STOP now", "", "TURN 1,1", "ENDS"] {
            let said = match parse(l) {
                Command::End => Some(Interrupt::End),
                Command::Stop => Some(Interrupt::Stop),
                _ => None,
            };
            assert_eq!(interrupt(l), said, "{l}");
        }
    }
}
