//! The position database's file commands (Yixin-Board's `libtodb`, `dbtotxt`,
//! `dbtotxt all`, `txttodb`, `dbtopos`, `dbfix`, and Rapfi's `YXDBTOLIB`): each reads or
//! writes one file and answers with the `MESSAGE` lines Yixin-Board shows in its log, or
//! one `ERROR` line. A missing, unreadable or damaged file, or a path that cannot be
//! written, is an error line: the database and the game are left as they were.
//!
//! - `YXLIBTODB path`: imports a RenLib `.lib` file ([`crate::book::renlib`]) for the
//!   current rule and board size (15x15 at most): every node's position is stored (an empty
//!   record when there was none), its comment becomes the position's text (added on a new
//!   line to a text already there), its board text the label on its square in the position
//!   before it. One transaction: a bad file imports nothing.
//! - `YXDBTOLIB path`: writes, as a `.lib` file, the moves to the current game position and
//!   every move from it that leads somewhere in the database, with texts as comments and
//!   labels as board texts ([`Database::export_lib`]). Scores, depths and best moves have no
//!   place in the format and are not written.
//! - `YXDBTOTXT path` / `YXDBTOTXTALL path`: the records and labels of this rule and board
//!   size (or all) as tab-separated text ([`Database::to_text`]); `YXTXTTODB path` reads
//!   that text back, replacing the records it holds.
//! - `YXDBTOPOS path`: the positions of this rule and board size as move lists, one a line.
//! - `YXDBMERGE path`: copies another database file into this one
//!   ([`Database::merge_from`]); `YXDBSPLIT path`: copies the current position, the way to
//!   it and what follows it into another file, created if missing
//!   ([`Database::split_into`]).
//! - `YXDBFIX`: [`Database::fix`].

use crate::book::renlib;
use crate::book::store::{Database, Key};
use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::{Color, Pos, Rule};
use crate::gomocup::command::DbFile;
use crate::gomocup::reply::{one_line, plural};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file beside it, so that a failed write
/// leaves no half file under the name.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let mut tmp_name = name.to_os_string();
    tmp_name.push(".fivefold-tmp");
    let tmp = path.with_file_name(tmp_name);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::Error::new(e).context(format!("cannot write {}", path.display()))
    })
}

/// Whether two paths name one file (both existing).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The largest file read (a `.lib` or a text form): 256 MiB.
const MAX_READ: u64 = 256 << 20;

fn read_file(path: &Path) -> Result<Vec<u8>> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if len > MAX_READ {
        bail!("{} is over {} MiB", path.display(), MAX_READ >> 20);
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Where the game stands, for the commands that need a position or a board size.
pub struct Position<'a> {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// The game's moves (square, colour), oldest first.
    pub moves: &'a [(Pos, Color)],
}

/// Carries out a file command; returns the reply lines (one `ERROR` line on failure).
pub fn run(
    db: Option<&mut Database>,
    readonly: bool,
    cmd: DbFile,
    path: &str,
    at: &Position,
) -> Vec<String> {
    let name = cmd.name();
    let result = match db {
        None => Err(anyhow::anyhow!("no database; send YXSETDATABASE first")),
        Some(_) if readonly && matches!(cmd, DbFile::LibToDb | DbFile::TxtToDb | DbFile::Merge) => {
            Err(anyhow::anyhow!(
                "the database is read-only (INFO database_readonly 1); nothing changed"
            ))
        }
        Some(db) => file_command(db, cmd, Path::new(path), at),
    };
    match result {
        Ok(lines) => lines,
        Err(e) => {
            log::warn!("{name} {path}: {e:#}");
            vec![format!("ERROR {name}: {}", one_line(&format!("{e:#}")))]
        }
    }
}

fn file_command(db: &mut Database, cmd: DbFile, path: &Path, at: &Position) -> Result<Vec<String>> {
    let shown = one_line(&path.display().to_string());
    let empty = Board::new(at.width, at.height, at.rule).map_err(anyhow::Error::msg)?;
    let family = Key::of(&empty, Color::Black).family();
    let start = Instant::now();
    // The game's moves, black first and colours alternating (the position of `YXBOARD`).
    let game_moves = || -> Result<Vec<Pos>> {
        let mut color = Color::Black;
        let mut moves = Vec::new();
        for &(p, c) in at.moves {
            if c != color {
                bail!("the current position is not a game from the empty board with black first and colours alternating; send it with YXBOARD");
            }
            moves.push(p);
            color = color.opp();
        }
        Ok(moves)
    };
    let lines = match cmd {
        DbFile::LibToDb => {
            if at.width > 15 || at.height > 15 {
                bail!(
                    "a RenLib library holds boards up to 15x15, not {}x{}; nothing was imported",
                    at.width,
                    at.height
                );
            }
            let bytes = read_file(path)?;
            let tree =
                renlib::read(&bytes).with_context(|| format!("{shown}: nothing was imported"))?;
            let s = db.import_lib(&tree, &empty)?;
            let mut line = format!(
                "MESSAGE db: imported {} from {shown}: {} new, {}, {}",
                plural(s.nodes, "position"),
                s.new_positions,
                plural(s.texts, "text"),
                plural(s.labels, "label"),
            );
            if s.skipped > 0 {
                line.push_str(&format!(
                    ", {} skipped (off the board, on a stone, or after a pass)",
                    plural(s.skipped, "node")
                ));
            }
            vec![line]
        }
        DbFile::DbToLib => {
            let (tree, n) = db.export_lib(&empty, &game_moves()?)?;
            write_file(path, &renlib::write(&tree)?)?;
            vec![format!(
                "MESSAGE db: exported {} to {shown}",
                plural(n, "node")
            )]
        }
        DbFile::DbToTxt { all } => {
            let (text, n, l) = db.to_text(if all { "" } else { &family })?;
            write_file(path, text.as_bytes())?;
            vec![format!(
                "MESSAGE db: wrote {} and {} ({}) to {shown}",
                plural(n, "position"),
                plural(l, "label"),
                if all {
                    "all rules and sizes".to_string()
                } else {
                    family.trim_end_matches(':').replace(':', " ")
                }
            )]
        }
        DbFile::TxtToDb => {
            let bytes = read_file(path)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("{shown} is not UTF-8 text; nothing was read"))?;
            let (n, l) = db
                .from_text(&text)
                .with_context(|| format!("{shown}: nothing was read"))?;
            vec![format!(
                "MESSAGE db: read {} and {} from {shown}",
                plural(n, "position"),
                plural(l, "label")
            )]
        }
        DbFile::DbToPos => {
            let (text, n, left) = db.to_positions(&family)?;
            write_file(path, text.as_bytes())?;
            let mut line = format!("MESSAGE db: wrote {} to {shown}", plural(n, "position"));
            if left > 0 {
                line.push_str(&format!(
                    ", {left} left out (the empty board, or stones no game from it gives)"
                ));
            }
            vec![line]
        }
        DbFile::Merge => {
            if !path.is_file() {
                bail!("{shown} is not a file; nothing was merged");
            }
            if same_file(path, db.path()) {
                bail!("{shown} is the database itself; nothing was merged");
            }
            let other = Database::open(path)?;
            let (n, total) = db.merge_from(&other)?;
            vec![format!(
                "MESSAGE db: merged {n} of {} from {shown}",
                plural(total, "position")
            )]
        }
        DbFile::Split => {
            if same_file(path, db.path()) {
                bail!("{shown} is the database itself; nothing was written");
            }
            let moves = game_moves()?;
            let mut other = Database::open(path)?;
            let n = db.split_into(&mut other, &empty, &moves)?;
            other.checkpoint()?;
            vec![format!(
                "MESSAGE db: wrote {} (this position, the way to it and what follows it) to {shown}",
                plural(n, "position")
            )]
        }
    };
    log::info!("{} {shown}: {:?}", cmd.name(), start.elapsed());
    Ok(lines)
}

/// `YXDBFIX`: the steps done, as `MESSAGE db fix: …` lines, and an `ERROR` line
/// when the file is still damaged.
pub fn fix(db: Option<&mut Database>, readonly: bool) -> Vec<String> {
    let Some(db) = db else {
        return vec!["ERROR YXDBFIX: no database; send YXSETDATABASE first".to_string()];
    };
    if readonly {
        return vec![
            "ERROR YXDBFIX: the database is read-only (INFO database_readonly 1); nothing changed (YXDBCHECK checks it)".to_string(),
        ];
    }
    match db.fix() {
        Ok((done, problems)) => {
            let mut lines: Vec<String> = done
                .iter()
                .map(|l| format!("MESSAGE db fix: {l}"))
                .collect();
            if !problems.is_empty() {
                for p in &problems {
                    lines.push(format!("MESSAGE db fix: {}", one_line(p)));
                }
                lines.push(format!(
                    "ERROR YXDBFIX: the database is still damaged ({}); copy what YXDBTOTXTALL can still read into a new file",
                    plural(problems.len(), "problem")
                ));
            }
            lines
        }
        Err(e) => vec![format!("ERROR YXDBFIX: {}", one_line(&format!("{e:#}")))],
    }
}
