//! The position database: analysis results and a person's notes about positions, kept in
//! an SQLite file (through `rusqlite`, with SQLite built in) so that hours of analysis
//! survive a crash, a killed engine or two engines sharing one file.
//!
//! A position is stored once for all its symmetric forms: its key ([`Key`]) is the
//! smallest of the board's images under the symmetries the board has (eight on a square
//! board, four on a rectangle), written with the rule, the size and the side to move. A
//! record ([`Record`]) holds the best move, score, depth and bound found for the side to
//! move, whether a person chose that move, a tag and a text; labels are kept per square of
//! the position (Yixin-Board's board texts). Squares are stored in the key's frame and
//! turned back into the asking board's frame when read.
//!
//! The file is opened in WAL mode with `synchronous=FULL`, every write is one transaction
//! and a busy timeout lets a second engine wait for the first one's write instead of
//! failing. A file that is not an SQLite database, or fails SQLite's quick check, is
//! refused at open with an error that says so.

use crate::core::board::Board;
use crate::core::types::{mate_plies, symmetries, Color, Pos, Rule, Score};
use anyhow::{bail, Context, Result};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a write waits for another engine's write on the same file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The schema version in `PRAGMA user_version`.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS position (
    key     TEXT PRIMARY KEY NOT NULL, -- see database::Key
    best    INTEGER,                   -- square index y*width+x in the key's frame
    by_user INTEGER NOT NULL DEFAULT 0,-- 1: a person chose the best move
    score   INTEGER,                   -- for the side to move
    depth   INTEGER NOT NULL DEFAULT 0,
    bound   INTEGER NOT NULL DEFAULT 0,-- 0 none, 1 upper, 2 lower, 3 exact
    tag     INTEGER NOT NULL DEFAULT 0,-- Yixin-Board's tag (characters), 0 none
    text    TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS label (
    key    TEXT NOT NULL,              -- the position the label is shown in
    square INTEGER NOT NULL,           -- in the key's frame
    label  TEXT NOT NULL,
    PRIMARY KEY (key, square)
) WITHOUT ROWID;
";

/// Bound of a stored score.
pub const BOUND_NONE: i64 = 0;
pub const BOUND_UPPER: i64 = 1;
pub const BOUND_LOWER: i64 = 2;
pub const BOUND_EXACT: i64 = 3;

/// A position's canonical key and the map from the asking board's frame to the key's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// `rule:WxH:side:cells`, cells row by row in the key's frame (`.` empty, `x` black,
    /// `o` white); side `b` or `w` to move.
    pub text: String,
    width: usize,
    height: usize,
    /// The symmetry (index into [`symmetries`]) that maps the board to the key's frame.
    sym: usize,
}

/// Maps `x,y` of a `w`x`h` board through symmetry `s`, if the image stays on the board.
fn map(s: usize, w: usize, h: usize, x: usize, y: usize) -> Option<(usize, usize)> {
    let (dx, dy) = (2 * x as i64 - (w as i64 - 1), 2 * y as i64 - (h as i64 - 1));
    let (ex, ey) = symmetries()[s](dx, dy);
    let (nx, ny) = ((ex + w as i64 - 1) / 2, (ey + h as i64 - 1) / 2);
    (nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h)
        .then_some((nx as usize, ny as usize))
}

/// The symmetries a `w`x`h` board has (all eight when square, else the four that keep
/// the axes).
fn board_symmetries(w: usize, h: usize) -> Vec<usize> {
    (0..8)
        .filter(|&s| {
            (0..h).all(|y| (0..w).all(|x| map(s, w, h, x, y).is_some())) && (w == h || s < 4)
        })
        .collect()
}

/// The inverse of symmetry `s`.
fn inverse(s: usize) -> usize {
    let f = symmetries();
    (0..8)
        .find(|&t| f[t](f[s](3, 7).0, f[s](3, 7).1) == (3, 7))
        .expect("the symmetries form a group")
}

impl Key {
    /// The key of `board` with `side` to move.
    pub fn of(board: &Board, side: Color) -> Key {
        let (w, h) = (board.width(), board.height());
        let side = match side {
            Color::Black => 'b',
            Color::White => 'w',
        };
        let mut best: Option<(String, usize)> = None;
        for s in board_symmetries(w, h) {
            let mut cells = vec![b'.'; w * h];
            for y in 0..h {
                for x in 0..w {
                    let (nx, ny) = map(s, w, h, x, y).expect("a symmetry of this board");
                    cells[ny * w + nx] = match board.stone(Pos::new(x, y)) {
                        Some(Color::Black) => b'x',
                        Some(Color::White) => b'o',
                        None => b'.',
                    };
                }
            }
            let cells = String::from_utf8(cells).expect("ASCII");
            if best.as_ref().is_none_or(|(c, _)| cells < *c) {
                best = Some((cells, s));
            }
        }
        let (cells, sym) = best.expect("the identity is a symmetry");
        Key {
            text: format!("{}:{w}x{h}:{side}:{cells}", rule_code(board.rule())),
            width: w,
            height: h,
            sym,
        }
    }

    /// `rule:WxH:`, the start of the keys of every position of this rule and size.
    pub fn family(&self) -> String {
        let mut parts = self.text.splitn(3, ':');
        format!(
            "{}:{}:",
            parts.next().unwrap_or(""),
            parts.next().unwrap_or("")
        )
    }

    /// The index, in the key's frame, of the board's square `p`.
    pub fn to_stored(&self, p: Pos) -> i64 {
        let (x, y) = map(self.sym, self.width, self.height, p.x(), p.y()).expect("on the board");
        (y * self.width + x) as i64
    }

    /// The board's square for an index in the key's frame (None if out of range).
    pub fn from_stored(&self, index: i64) -> Option<Pos> {
        let n = (self.width * self.height) as i64;
        if !(0..n).contains(&index) {
            return None;
        }
        let (x, y) = (index as usize % self.width, index as usize / self.width);
        let (bx, by) = map(inverse(self.sym), self.width, self.height, x, y)?;
        Some(Pos::new(bx, by))
    }
}

fn rule_code(r: Rule) -> &'static str {
    match r {
        Rule::Freestyle => "freestyle",
        Rule::Exact => "exact",
        Rule::Renju => "renju",
        Rule::Caro => "caro",
        Rule::CaroExact => "caroexact",
    }
}

/// Yixin-Board's tag for a move whose value (for the side that plays it) is `value`:
/// `w` or `l` and the plies to the five for a proven win or loss, else the value itself
/// (held to -999..999), up to four characters packed base 256 as Yixin-Board unpacks
/// them; 0 (no tag) when there is no value.
pub fn tag_of(value: Option<Score>) -> i64 {
    let Some(v) = value else { return 0 };
    let text = match mate_plies(v) {
        Some(n) if (1..=999).contains(&n) => format!("w{n}"),
        Some(n) if (-999..0).contains(&n) => format!("l{}", -n),
        Some(n) if n > 0 => "w".to_string(),
        Some(_) => "l".to_string(),
        None => v.clamp(-999, 999).to_string(),
    };
    text.bytes().fold(0, |acc, b| acc * 256 + i64::from(b))
}

/// What the database holds about one position, squares in the asking board's frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub best: Option<Pos>,
    /// A person set the best move (`YXSETBESTMOVEDATABASE`): searches do not replace it.
    pub by_user: bool,
    /// For the side to move.
    pub score: Option<Score>,
    pub depth: i32,
    pub bound: i64,
    /// Yixin-Board's tag: up to four characters packed base 256, 0 for none.
    pub tag: i64,
    pub text: String,
}

/// An open database file.
pub struct Database {
    conn: Connection,
    path: PathBuf,
}

fn sql<T>(r: rusqlite::Result<T>) -> Result<T> {
    r.map_err(anyhow::Error::from)
}

impl Database {
    /// Opens (creating if missing) the database at `path`. Refuses, with an error that
    /// says why, a file that is not a database of this kind or is damaged.
    pub fn open(path: &Path) -> Result<Database> {
        let conn =
            Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let setup = || -> rusqlite::Result<String> {
            let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
            conn.execute_batch("PRAGMA synchronous=FULL;")?;
            conn.query_row("PRAGMA quick_check", [], |r| r.get(0))
                .map(|check: String| format!("{mode}\n{check}"))
        };
        let out = setup().with_context(|| {
            format!(
                "{} is not a usable database (damaged, or not an SQLite file)",
                path.display()
            )
        })?;
        let (mode, check) = out.split_once('\n').unwrap_or((&out, ""));
        if check != "ok" {
            bail!("{} is damaged: {check}", path.display());
        }
        if !mode.eq_ignore_ascii_case("wal") {
            log::warn!("{}: journal mode {mode}, not WAL", path.display());
        }
        let mut db = Database {
            conn,
            path: path.to_path_buf(),
        };
        db.write(|tx| {
            let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            let tables: i64 = tx.query_row(
                "SELECT count(*) FROM sqlite_master WHERE type='table'",
                [],
                |r| r.get(0),
            )?;
            if version == 0 && tables == 0 {
                tx.execute_batch(SCHEMA)?;
                tx.execute_batch(&format!("PRAGMA user_version={SCHEMA_VERSION}"))?;
            }
            Ok(())
        })?;
        let version: i64 = sql(db.conn.query_row("PRAGMA user_version", [], |r| r.get(0)))?;
        if version != SCHEMA_VERSION {
            bail!(
                "{} is an SQLite file but not a Fivefold position database (schema version {version})",
                path.display()
            );
        }
        Ok(db)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in one write transaction (taken at once, so two writers queue on the busy
    /// timeout rather than fail on upgrade), committed only if `f` succeeds.
    fn write<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
    ) -> Result<T> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let v = f(&tx)?;
        tx.commit()?;
        Ok(v)
    }

    /// The record of `key`'s position, if any.
    pub fn get(&self, key: &Key) -> Result<Option<Record>> {
        let row = sql(self
            .conn
            .query_row(
                "SELECT best, by_user, score, depth, bound, tag, text FROM position WHERE key=?1",
                [&key.text],
                |r| {
                    Ok((
                        r.get::<_, Option<i64>>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, String>(6)?,
                    ))
                },
            )
            .optional())?;
        Ok(
            row.map(|(best, by_user, score, depth, bound, tag, text)| Record {
                best: best.and_then(|i| key.from_stored(i)),
                by_user: by_user != 0,
                score: score.map(|s| s.clamp(-32_000, 32_000) as Score),
                depth: depth.clamp(0, 1000) as i32,
                bound: bound.clamp(0, 3),
                tag,
                text,
            }),
        )
    }

    /// Changes `key`'s record with `f` (starting from an empty record if there is none)
    /// and stores it, in one transaction.
    pub fn update(&mut self, key: &Key, f: impl FnOnce(&mut Record)) -> Result<()> {
        let mut rec = self.get(key)?.unwrap_or_default();
        f(&mut rec);
        let best = rec.best.map(|p| key.to_stored(p));
        self.write(|tx| {
            tx.execute(
                "INSERT INTO position (key, best, by_user, score, depth, bound, tag, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(key) DO UPDATE SET best=?2, by_user=?3, score=?4, depth=?5,
                     bound=?6, tag=?7, text=?8",
                params![
                    key.text,
                    best,
                    rec.by_user as i64,
                    rec.score.map(i64::from),
                    i64::from(rec.depth),
                    rec.bound,
                    rec.tag,
                    rec.text
                ],
            )
        })?;
        Ok(())
    }

    /// Stores a search's result for `key`'s position unless the record already holds a
    /// deeper one or a person's choice of move.
    pub fn store_result(&mut self, key: &Key, best: Pos, score: Score, depth: i32) -> Result<()> {
        let old = self.get(key)?;
        if let Some(old) = &old {
            if old.by_user || (old.best.is_some() && old.depth > depth) {
                return Ok(());
            }
        }
        self.update(key, |r| {
            r.best = Some(best);
            r.score = Some(score);
            r.depth = depth;
            r.bound = BOUND_EXACT;
        })
    }

    /// The label on square `p` of `key`'s position.
    pub fn label(&self, key: &Key, p: Pos) -> Result<Option<String>> {
        sql(self
            .conn
            .query_row(
                "SELECT label FROM label WHERE key=?1 AND square=?2",
                params![key.text, key.to_stored(p)],
                |r| r.get(0),
            )
            .optional())
    }

    /// Sets (or, with an empty text, removes) the label on square `p` of `key`'s position.
    pub fn set_label(&mut self, key: &Key, p: Pos, label: &str) -> Result<()> {
        let square = key.to_stored(p);
        self.write(|tx| {
            if label.is_empty() {
                tx.execute(
                    "DELETE FROM label WHERE key=?1 AND square=?2",
                    params![key.text, square],
                )
            } else {
                put_label(tx, &key.text, square, label)
            }
        })?;
        Ok(())
    }

    /// Deletes `key`'s record and the labels shown in its position.
    pub fn delete(&mut self, key: &Key) -> Result<()> {
        self.write(|tx| {
            tx.execute("DELETE FROM position WHERE key=?1", [&key.text])?;
            tx.execute("DELETE FROM label WHERE key=?1", [&key.text])
        })?;
        Ok(())
    }

    /// Deletes every record and label of positions under `key`'s rule and board size
    /// (every position that follows from the empty board that `key` is the key of).
    pub fn delete_all_like(&mut self, key: &Key) -> Result<()> {
        let prefix = key.family();
        self.write(|tx| {
            tx.execute(
                "DELETE FROM position WHERE substr(key, 1, length(?1)) = ?1",
                [&prefix],
            )?;
            tx.execute(
                "DELETE FROM label WHERE substr(key, 1, length(?1)) = ?1",
                [&prefix],
            )
        })?;
        Ok(())
    }

    /// The number of positions stored.
    pub fn len(&self) -> Result<u64> {
        let n: i64 = sql(self
            .conn
            .query_row("SELECT count(*) FROM position", [], |r| r.get(0)))?;
        Ok(n as u64)
    }

    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Copies the write-ahead log into the main file (`YXSAVEDATABASE`): every write is
    /// already committed, this only leaves the file whole without its `-wal` companion.
    pub fn checkpoint(&mut self) -> Result<()> {
        sql(self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            }))?;
        Ok(())
    }

    /// SQLite's full integrity check: `ok`, or the problems found, one a line.
    pub fn integrity_check(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<String>>>()?)
    }
}

/// The rule of a key's code.
fn rule_of_code(code: &str) -> Option<Rule> {
    [
        Rule::Freestyle,
        Rule::Exact,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ]
    .into_iter()
    .find(|&r| rule_code(r) == code)
}

/// The position of a key's text and its side to move; an error for a text that is not
/// the canonical key of a position.
pub fn parse_key(text: &str) -> Result<(Board, Color)> {
    let parts: Vec<&str> = text.split(':').collect();
    let [rule, size, side, cells] = parts.as_slice() else {
        bail!("'{text}' is not a position key (rule:WxH:side:cells)");
    };
    let rule = rule_of_code(rule).with_context(|| format!("'{rule}' is not a rule"))?;
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
        .with_context(|| format!("'{size}' is not a board size WxH"))?;
    let side = match *side {
        "b" => Color::Black,
        "w" => Color::White,
        s => bail!("'{s}' is not a side to move (b or w)"),
    };
    let mut board = Board::new(w, h, rule).map_err(anyhow::Error::msg)?;
    if cells.len() != w * h {
        bail!("{} cells for a {w}x{h} board", cells.len());
    }
    for (i, c) in cells.bytes().enumerate() {
        let p = Pos::new(i % w, i / w);
        match c {
            b'.' => {}
            b'x' => board.make_color(p, Color::Black),
            b'o' => board.make_color(p, Color::White),
            _ => bail!("'{}' is not a cell (., x or o)", char::from(c)),
        }
    }
    board.set_side_to_move(side);
    if Key::of(&board, side).text != text {
        bail!("the key is not in its canonical (smallest) form");
    }
    Ok((board, side))
}

/// One stored position, as read for a walk through the tree or a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub best: Option<i64>,
    pub by_user: bool,
    pub score: Option<i64>,
    pub depth: i64,
    pub bound: i64,
    pub tag: i64,
    pub text: String,
}

/// Every position and label of one rule and board size (or of all), in memory, for the
/// commands that walk the tree of positions (export, delete after a position).
pub struct Snapshot {
    pub rows: std::collections::BTreeMap<String, Row>,
    /// Key -> (square in the key's frame, label).
    pub labels: std::collections::BTreeMap<String, Vec<(i64, String)>>,
    /// Key of a position -> the squares (in its key's frame) of the moves from it to a
    /// stored position: every stored position less one stone of the side that moved last.
    children: std::collections::HashMap<String, Vec<i64>>,
}

/// For each symmetry of a `w`x`h` board, where each square (`y*w+x`) goes.
fn permutations(w: usize, h: usize) -> Vec<Vec<usize>> {
    board_symmetries(w, h)
        .into_iter()
        .map(|s| {
            (0..w * h)
                .map(|i| {
                    let (x, y) = map(s, w, h, i % w, i / w).expect("a symmetry of this board");
                    y * w + x
                })
                .collect()
        })
        .collect()
}

/// The smallest image of `cells` under `perms` (as [`Key::of`] chooses it) and the
/// permutation that gives it.
fn smallest_image<'a>(cells: &[u8], perms: &'a [Vec<usize>]) -> (Vec<u8>, &'a [usize]) {
    let mut best: Option<(Vec<u8>, &[usize])> = None;
    let mut image = vec![b'.'; cells.len()];
    for perm in perms {
        for (i, &c) in cells.iter().enumerate() {
            image[perm[i]] = c;
        }
        if best.as_ref().is_none_or(|(b, _)| image < *b) {
            best = Some((image.clone(), perm));
        }
    }
    best.expect("the identity is a symmetry")
}

/// The entries of [`Snapshot::children`] for the stored key `key`.
fn parent_links(
    key: &str,
    perms: &mut std::collections::HashMap<(usize, usize), Vec<Vec<usize>>>,
    out: &mut std::collections::HashMap<String, Vec<i64>>,
) {
    let parts: Vec<&str> = key.split(':').collect();
    let [rule, size, side, cells] = parts.as_slice() else {
        return;
    };
    let Some((w, h)) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
    else {
        return;
    };
    if w * h != cells.len() || w * h > 32 * 32 {
        return;
    }
    let (mover, parent_side) = match *side {
        "b" => (b'o', 'w'),
        "w" => (b'x', 'b'),
        _ => return,
    };
    let perms = perms.entry((w, h)).or_insert_with(|| permutations(w, h));
    let mut parent = cells.as_bytes().to_vec();
    for i in 0..parent.len() {
        if parent[i] != mover {
            continue;
        }
        parent[i] = b'.';
        let (image, perm) = smallest_image(&parent, perms);
        let text = format!(
            "{rule}:{size}:{parent_side}:{}",
            String::from_utf8_lossy(&image)
        );
        out.entry(text).or_default().push(perm[i] as i64);
        parent[i] = mover;
    }
}

impl Snapshot {
    /// The moves from `board` (`side` to move) that lead somewhere in the database: a
    /// square with a label, the position's best move, and the moves to a stored position
    /// (one square for each position, on a symmetric board); row by row, each with its
    /// label.
    pub fn moves(&self, board: &Board, side: Color) -> Vec<(Pos, Option<String>)> {
        let key = Key::of(board, side);
        let mut found: std::collections::BTreeMap<(usize, usize), Option<String>> =
            Default::default();
        for (sq, label) in self.labels.get(&key.text).into_iter().flatten() {
            if let Some(p) = key.from_stored(*sq).filter(|&p| board.is_empty(p)) {
                found.insert((p.y(), p.x()), Some(label.clone()));
            }
        }
        if let Some(p) = self
            .rows
            .get(&key.text)
            .and_then(|r| r.best)
            .and_then(|i| key.from_stored(i))
            .filter(|&p| board.is_empty(p))
        {
            found.entry((p.y(), p.x())).or_insert(None);
        }
        for &sq in self.children.get(&key.text).into_iter().flatten() {
            if let Some(p) = key.from_stored(sq).filter(|&p| board.is_empty(p)) {
                found.entry((p.y(), p.x())).or_insert(None);
            }
        }
        found
            .into_iter()
            .map(|((y, x), l)| (Pos::new(x, y), l))
            .collect()
    }
}

/// Which positions `YXDELETEDATABASEALL` deletes after a position, as Yixin-Board's
/// "delete all" menu sends it (`w`, `l`, `wl`, `nonwl`, `wlnostep`, `wlinstep n`, each
/// also with `recursive` appended). Win and loss are as the GUI shows the move into the
/// position: for the side that played it (the tag's first letter, `w` or `l`, or else a
/// proven win or loss in the stored score).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteFilter {
    All,
    Win,
    Loss,
    WinLoss,
    NonWinLoss,
    /// A win or loss without the number of plies to the five.
    WinLossNoStep,
    /// A win or loss in at most this many plies.
    WinLossInStep(i64),
}

impl DeleteFilter {
    /// The filter and whether it is `recursive` (the walk stops at a position the filter
    /// keeps, instead of looking on past it). Empty text: every position.
    pub fn parse(text: &str) -> Result<(DeleteFilter, bool)> {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Ok((DeleteFilter::All, false));
        };
        let word = word.to_ascii_uppercase();
        let (name, recursive) = match word.strip_suffix("RECURSIVE") {
            Some(n) => (n, true),
            None => (word.as_str(), false),
        };
        let filter = match name {
            "W" => DeleteFilter::Win,
            "L" => DeleteFilter::Loss,
            "WL" => DeleteFilter::WinLoss,
            "NONWL" => DeleteFilter::NonWinLoss,
            "WLNOSTEP" => DeleteFilter::WinLossNoStep,
            "WLINSTEP" => {
                let n = words
                    .next()
                    .and_then(|w| w.parse::<i64>().ok())
                    .context("wlinstep needs the number of plies")?;
                DeleteFilter::WinLossInStep(n)
            }
            _ => bail!("'{word}' is not a filter (w, l, wl, nonwl, wlnostep, wlinstep n, each with or without recursive)"),
        };
        if let Some(extra) = words.next() {
            bail!("'{extra}' after the filter");
        }
        Ok((filter, recursive))
    }

    /// Whether the filter deletes a position with this record (`None`: no record).
    fn matches(self, row: Option<&Row>) -> bool {
        if self == DeleteFilter::All {
            return true;
        }
        // (win: true / loss: false, plies to the five if known), for the mover.
        let result = row.and_then(|r| {
            let mut tag = Vec::new();
            let mut t = r.tag;
            while t > 0 {
                tag.push((t % 256) as u8);
                t /= 256;
            }
            tag.reverse();
            let plies_of_score = r
                .score
                .and_then(|s| mate_plies(-(s.clamp(-32_000, 32_000) as Score)));
            match tag.first().map(u8::to_ascii_lowercase) {
                Some(c @ (b'w' | b'l')) => {
                    let n = std::str::from_utf8(&tag[1..])
                        .ok()
                        .and_then(|n| n.parse::<i64>().ok());
                    Some((c == b'w', n.or(plies_of_score.map(|p| i64::from(p.abs())))))
                }
                _ => plies_of_score.map(|p| (p > 0, Some(i64::from(p.abs())))),
            }
        });
        match self {
            DeleteFilter::All => true,
            DeleteFilter::Win => matches!(result, Some((true, _))),
            DeleteFilter::Loss => matches!(result, Some((false, _))),
            DeleteFilter::WinLoss => result.is_some(),
            DeleteFilter::NonWinLoss => result.is_none(),
            DeleteFilter::WinLossNoStep => matches!(result, Some((_, None))),
            DeleteFilter::WinLossInStep(n) => matches!(result, Some((_, Some(k))) if k <= n),
        }
    }
}

/// What a `.lib` import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibImport {
    /// Nodes with a move that were stored.
    pub nodes: usize,
    /// Positions that had no record before.
    pub new_positions: usize,
    pub texts: usize,
    pub labels: usize,
    /// Nodes left out: a move off the board or on a stone, a move-less node inside the
    /// tree, and everything below them.
    pub skipped: usize,
}

/// The most characters a label keeps (as `YXEDITLABELDATABASE` allows).
const LABEL_CHARS: usize = 64;

struct LibItem {
    key: String,
    comment: String,
    /// Parent key, square in its frame, label.
    label: Option<(String, i64, String)>,
}

fn collect_lib(
    nodes: &[crate::front::renlib::Node],
    board: &mut Board,
    side: Color,
    items: &mut Vec<LibItem>,
    skipped: &mut usize,
) {
    for node in nodes {
        let Some((x, y)) = node.square else {
            if board.move_count() == 0 {
                // Old files: a node for the empty board above the first moves.
                collect_lib(&node.children, board, side, items, skipped);
            } else {
                *skipped += node.count();
            }
            continue;
        };
        let Some(p) = board.pos(x as i64, y as i64).filter(|&p| board.is_empty(p)) else {
            *skipped += node.count();
            continue;
        };
        let parent = Key::of(board, side);
        board.make_color(p, side);
        board.set_side_to_move(side.opp());
        let label = node
            .board_text
            .chars()
            .take(LABEL_CHARS)
            .collect::<String>();
        items.push(LibItem {
            key: Key::of(board, side.opp()).text,
            comment: node.comment.clone(),
            label: (!label.is_empty()).then(|| (parent.text.clone(), parent.to_stored(p), label)),
        });
        collect_lib(&node.children, board, side.opp(), items, skipped);
        board.unmake();
        board.set_side_to_move(side);
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(s: &str) -> Result<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            other => bail!(
                "'\\{}' is not an escape (\\\\, \\n, \\r, \\t)",
                other.unwrap_or(' ')
            ),
        });
    }
    Ok(out)
}

/// Plays `moves` on a copy of `board`, black first and the colours alternating, calling
/// `each` with every position reached and its side to move; returns the last position
/// (its side to move set) and that side. A square played twice is an error.
fn replay(
    board: &Board,
    moves: &[Pos],
    mut each: impl FnMut(&Board, Color),
) -> Result<(Board, Color)> {
    let mut b = board.clone();
    let mut side = Color::Black;
    for &p in moves {
        if !b.is_empty(p) {
            bail!("{},{} is played twice", p.x(), p.y());
        }
        b.make_color(p, side);
        side = side.opp();
        each(&b, side);
    }
    b.set_side_to_move(side);
    Ok((b, side))
}

/// Stores a label, replacing the one on `square` under `key`.
fn put_label(
    tx: &rusqlite::Transaction<'_>,
    key: &str,
    square: i64,
    label: &str,
) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO label (key, square, label) VALUES (?1, ?2, ?3)
         ON CONFLICT(key, square) DO UPDATE SET label=?3",
        params![key, square, label],
    )
}

/// Stores a whole row, replacing the one under `key`.
fn put_row(tx: &rusqlite::Transaction<'_>, key: &str, r: &Row) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO position (key, best, by_user, score, depth, bound, tag, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT(key) DO UPDATE SET best=?2, by_user=?3, score=?4, depth=?5,
             bound=?6, tag=?7, text=?8",
        params![
            key,
            r.best,
            r.by_user as i64,
            r.score,
            r.depth,
            r.bound,
            r.tag,
            r.text
        ],
    )
}

/// The first line of the text form.
pub const TEXT_HEADER: &str =
    "# Fivefold position database as text (YXDBTOTXT; YXTXTTODB reads it back)";

impl Database {
    /// Every position and label whose key starts with `prefix` ("" for all).
    pub fn snapshot(&self, prefix: &str) -> Result<Snapshot> {
        let mut rows = std::collections::BTreeMap::new();
        let mut children = std::collections::HashMap::new();
        let mut perms = std::collections::HashMap::new();
        let mut stmt = self.conn.prepare(
            "SELECT key, best, by_user, score, depth, bound, tag, text FROM position
             WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key",
        )?;
        let mut q = stmt.query([prefix])?;
        while let Some(r) = q.next()? {
            let key: String = r.get(0)?;
            parent_links(&key, &mut perms, &mut children);
            rows.insert(
                key,
                Row {
                    best: r.get(1)?,
                    by_user: r.get::<_, i64>(2)? != 0,
                    score: r.get(3)?,
                    depth: r.get(4)?,
                    bound: r.get(5)?,
                    tag: r.get(6)?,
                    text: r.get(7)?,
                },
            );
        }
        let mut labels: std::collections::BTreeMap<String, Vec<(i64, String)>> = Default::default();
        let mut stmt = self.conn.prepare(
            "SELECT key, square, label FROM label
             WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key, square",
        )?;
        let mut q = stmt.query([prefix])?;
        while let Some(r) = q.next()? {
            labels
                .entry(r.get::<_, String>(0)?)
                .or_default()
                .push((r.get(1)?, r.get(2)?));
        }
        Ok(Snapshot {
            rows,
            labels,
            children,
        })
    }

    /// Imports a RenLib tree whose first level are moves from `start` (an empty board
    /// of the rule and size to import for): each node's position gets a record (an
    /// empty one if it had none), the node's comment becomes (or is added on a new line
    /// to) the position's text, its board text the label of its square in the position
    /// before it. All in one transaction: an error leaves the database as it was.
    pub fn import_lib(
        &mut self,
        nodes: &[crate::front::renlib::Node],
        start: &Board,
    ) -> Result<LibImport> {
        let mut items = Vec::new();
        let mut stats = LibImport::default();
        let mut board = start.clone();
        let side = board.side_to_move();
        collect_lib(nodes, &mut board, side, &mut items, &mut stats.skipped);
        stats.nodes = items.len();
        self.write(|tx| {
            for item in &items {
                stats.new_positions += tx.execute(
                    "INSERT OR IGNORE INTO position (key) VALUES (?1)",
                    [&item.key],
                )?;
                if !item.comment.is_empty() {
                    let old: String =
                        tx.query_row("SELECT text FROM position WHERE key=?1", [&item.key], |r| {
                            r.get(0)
                        })?;
                    if !old.contains(&item.comment) {
                        let text = if old.is_empty() {
                            item.comment.clone()
                        } else {
                            format!("{old}\n{}", item.comment)
                        };
                        tx.execute(
                            "UPDATE position SET text=?2 WHERE key=?1",
                            params![item.key, text],
                        )?;
                        stats.texts += 1;
                    }
                }
                if let Some((key, square, label)) = &item.label {
                    put_label(tx, key, *square, label)?;
                    stats.labels += 1;
                }
            }
            Ok(())
        })?;
        Ok(stats)
    }

    /// The RenLib tree of what is stored from the position after `moves` (played from
    /// the empty `board`, black first): the moves to it, one node each, then every
    /// move that leads somewhere in the database ([`Snapshot::moves`]) with the position's
    /// text as its comment and its label as its board text. A position reached again by
    /// another order of moves is written again without what follows it. Returns the
    /// first level and the number of nodes.
    pub fn export_lib(
        &self,
        board: &Board,
        moves: &[Pos],
    ) -> Result<(Vec<crate::front::renlib::Node>, usize)> {
        use crate::front::renlib::Node;
        if board.width() > 15 || board.height() > 15 {
            bail!(
                "a RenLib library holds boards up to 15x15, not {}x{}",
                board.width(),
                board.height()
            );
        }
        let snap = self.snapshot(&Key::of(board, Color::Black).family())?;
        let (mut b, side) = replay(board, moves, |_, _| {})?;
        fn walk(
            snap: &Snapshot,
            b: &mut Board,
            side: Color,
            seen: &mut std::collections::HashSet<String>,
            count: &mut usize,
        ) -> Vec<Node> {
            if !seen.insert(Key::of(b, side).text) {
                return Vec::new();
            }
            let mut out = Vec::new();
            // Moves to the same position (images of each other on a symmetric board)
            // are written once, on a labelled square if one has a label.
            let moves: Vec<(Pos, Option<String>, String)> = snap
                .moves(b, side)
                .into_iter()
                .map(|(p, label)| {
                    b.make_color(p, side);
                    let key = Key::of(b, side.opp()).text;
                    b.unmake();
                    (p, label, key)
                })
                .collect();
            let labelled: std::collections::HashSet<&str> = moves
                .iter()
                .filter(|m| m.1.is_some())
                .map(|m| m.2.as_str())
                .collect();
            let mut written = std::collections::HashSet::new();
            for (p, label, key) in moves.iter().cloned() {
                if label.is_none()
                    && (labelled.contains(key.as_str()) || !written.insert(key.clone()))
                {
                    continue;
                }
                written.insert(key.clone());
                b.make_color(p, side);
                b.set_side_to_move(side.opp());
                let text = snap
                    .rows
                    .get(&key)
                    .map(|r| r.text.clone())
                    .unwrap_or_default();
                *count += 1;
                let children = walk(snap, b, side.opp(), seen, count);
                out.push(Node {
                    square: Some((p.x(), p.y())),
                    comment: text,
                    board_text: label.unwrap_or_default(),
                    mark: false,
                    children,
                });
                b.unmake();
                b.set_side_to_move(side);
            }
            out
        }
        let mut count = 0;
        let mut nodes = walk(&snap, &mut b, side, &mut Default::default(), &mut count);
        // The moves to the position, innermost first.
        for (i, &p) in moves.iter().enumerate().rev() {
            let mut before = board.clone();
            let mut s = Color::Black;
            for &q in &moves[..i] {
                before.make_color(q, s);
                s = s.opp();
            }
            let key = Key::of(&before, s);
            before.make_color(p, s);
            let text = snap
                .rows
                .get(&Key::of(&before, s.opp()).text)
                .map(|r| r.text.clone())
                .unwrap_or_default();
            let label = snap
                .labels
                .get(&key.text)
                .and_then(|l| l.iter().find(|(sq, _)| *sq == key.to_stored(p)))
                .map(|(_, l)| l.clone())
                .unwrap_or_default();
            count += 1;
            nodes = vec![Node {
                square: Some((p.x(), p.y())),
                comment: text,
                board_text: label,
                mark: false,
                children: nodes,
            }];
        }
        Ok((nodes, count))
    }

    /// Deletes what the filter picks among the positions after `board` (`side` to move),
    /// walking every move that leads somewhere in the database ([`Snapshot::moves`]);
    /// `recursive`: not past a position the filter keeps. The position itself stays.
    /// Returns the number of positions deleted.
    pub fn delete_after(
        &mut self,
        board: &Board,
        side: Color,
        filter: DeleteFilter,
        recursive: bool,
    ) -> Result<usize> {
        let snap = self.snapshot(&Key::of(board, side).family())?;
        let mut doomed = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(board.clone(), side)];
        while let Some((mut b, side)) = stack.pop() {
            for (p, _) in snap.moves(&b, side) {
                b.make_color(p, side);
                let key = Key::of(&b, side.opp()).text;
                if seen.insert(key.clone()) {
                    let row = snap.rows.get(&key);
                    let hit = filter.matches(row);
                    if hit && (row.is_some() || snap.labels.contains_key(&key)) {
                        doomed.push(key);
                    }
                    if hit || !recursive {
                        let mut child = b.clone();
                        child.set_side_to_move(side.opp());
                        stack.push((child, side.opp()));
                    }
                }
                b.unmake();
            }
        }
        self.write(|tx| {
            for k in &doomed {
                tx.execute("DELETE FROM position WHERE key=?1", [k])?;
                tx.execute("DELETE FROM label WHERE key=?1", [k])?;
            }
            Ok(())
        })?;
        Ok(doomed.len())
    }

    /// Copies `other`'s positions and labels into this database (`YXDBMERGE`): a position
    /// new here is copied whole; one stored in both takes the other's result when it is
    /// deeper (or a person's choice where this one has none) unless a person chose this
    /// one's move, and its text and tag where this one has none; labels are added where
    /// this one has none. Returns the positions written and the positions in `other`.
    pub fn merge_from(&mut self, other: &Database) -> Result<(usize, usize)> {
        let theirs = other.snapshot("")?;
        let ours = self.snapshot("")?;
        let mut writes = Vec::new();
        for (key, t) in &theirs.rows {
            let merged = match ours.rows.get(key) {
                None => t.clone(),
                Some(o) => {
                    let mut m = o.clone();
                    let take = !o.by_user && (t.by_user || (t.best.is_some() && t.depth > o.depth));
                    if take {
                        m.best = t.best;
                        m.by_user = t.by_user;
                        m.score = t.score;
                        m.depth = t.depth;
                        m.bound = t.bound;
                    }
                    if m.text.is_empty() {
                        m.text = t.text.clone();
                    }
                    if m.tag == 0 {
                        m.tag = t.tag;
                    }
                    if &m == o {
                        continue;
                    }
                    m
                }
            };
            writes.push((key, merged));
        }
        self.write(|tx| {
            for (key, r) in &writes {
                put_row(tx, key, r)?;
            }
            for (key, list) in &theirs.labels {
                for (sq, label) in list {
                    tx.execute(
                        "INSERT OR IGNORE INTO label (key, square, label) VALUES (?1, ?2, ?3)",
                        params![key, sq, label],
                    )?;
                }
            }
            Ok(())
        })?;
        Ok((writes.len(), theirs.rows.len()))
    }

    /// Copies into `other` (`YXDBSPLIT`) the positions on the way to the one after
    /// `moves` (played from the empty `board`, black first), that position and every
    /// position after it ([`Snapshot::moves`]), with their labels. Returns the number of
    /// positions copied.
    pub fn split_into(&self, other: &mut Database, board: &Board, moves: &[Pos]) -> Result<usize> {
        let snap = self.snapshot(&Key::of(board, Color::Black).family())?;
        let mut keys = vec![Key::of(board, Color::Black).text];
        let (b, side) = replay(board, moves, |b, side| keys.push(Key::of(b, side).text))?;
        let mut seen: std::collections::HashSet<String> = keys.iter().cloned().collect();
        let mut stack = vec![(b, side)];
        while let Some((mut b, side)) = stack.pop() {
            for (p, _) in snap.moves(&b, side) {
                b.make_color(p, side);
                let key = Key::of(&b, side.opp()).text;
                if seen.insert(key.clone()) {
                    keys.push(key);
                    let mut child = b.clone();
                    child.set_side_to_move(side.opp());
                    stack.push((child, side.opp()));
                }
                b.unmake();
            }
        }
        let mut n = 0;
        other.write(|tx| {
            for key in &keys {
                if let Some(r) = snap.rows.get(key) {
                    put_row(tx, key, r)?;
                    n += 1;
                }
                for (sq, label) in snap.labels.get(key).into_iter().flatten() {
                    put_label(tx, key, *sq, label)?;
                }
            }
            Ok(())
        })?;
        Ok(n)
    }

    /// The database (positions whose key starts with `prefix`, "" for all) as text:
    /// [`TEXT_HEADER`], then one line a position and one a label, tab-separated, texts
    /// escaped. Returns the text and the numbers of positions and labels.
    pub fn to_text(&self, prefix: &str) -> Result<(String, usize, usize)> {
        let snap = self.snapshot(prefix)?;
        let mut out = format!(
            "{TEXT_HEADER}\n# position\tkey\tbest\tby_user\tscore\tdepth\tbound\ttag\ttext\n# label\tkey\tsquare\tlabel\n"
        );
        let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        for (key, r) in &snap.rows {
            out.push_str(&format!(
                "position\t{key}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                opt(r.best),
                u8::from(r.by_user),
                opt(r.score),
                r.depth,
                r.bound,
                r.tag,
                escape(&r.text)
            ));
        }
        let mut n_labels = 0;
        for (key, list) in &snap.labels {
            for (sq, label) in list {
                out.push_str(&format!("label\t{key}\t{sq}\t{}\n", escape(label)));
                n_labels += 1;
            }
        }
        Ok((out, snap.rows.len(), n_labels))
    }

    /// Reads the text form ([`Database::to_text`]) into the database: each line's
    /// record or label replaces the stored one. Every line is checked first; an error
    /// names the line and nothing is written. Returns the numbers of positions and labels.
    pub fn from_text(&mut self, text: &str) -> Result<(usize, usize)> {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let parsed = (|| -> Result<()> {
                let num = |s: &str, what: &str| -> Result<i64> {
                    s.trim()
                        .parse::<i64>()
                        .with_context(|| format!("'{s}' is not a number ({what})"))
                };
                let opt = |s: &str, what: &str| -> Result<Option<i64>> {
                    if s.trim().is_empty() {
                        Ok(None)
                    } else {
                        num(s, what).map(Some)
                    }
                };
                match f.as_slice() {
                    ["position", key, best, by_user, score, depth, bound, tag, text] => {
                        let (b, _) = parse_key(key)?;
                        let best = opt(best, "best")?;
                        if best.is_some_and(|i| !(0..(b.width() * b.height()) as i64).contains(&i))
                        {
                            bail!("best move {} is off the board", best.unwrap_or(0));
                        }
                        rows.push((
                            key.to_string(),
                            Row {
                                best,
                                by_user: num(by_user, "by_user")? != 0,
                                score: opt(score, "score")?.map(|s| {
                                    s.clamp(
                                        -(crate::core::types::MATE as i64),
                                        crate::core::types::MATE as i64,
                                    )
                                }),
                                depth: num(depth, "depth")?.clamp(0, 1000),
                                bound: num(bound, "bound")?.clamp(0, 3),
                                tag: num(tag, "tag")?.max(0),
                                text: unescape(text)?,
                            },
                        ));
                    }
                    ["label", key, square, label] => {
                        let (b, _) = parse_key(key)?;
                        let sq = num(square, "square")?;
                        if !(0..(b.width() * b.height()) as i64).contains(&sq) {
                            bail!("square {sq} is off the board");
                        }
                        labels.push((key.to_string(), sq, unescape(label)?));
                    }
                    _ => bail!("expected 'position' and 8 fields or 'label' and 3, tab-separated"),
                }
                Ok(())
            })();
            parsed.with_context(|| format!("line {}", i + 1))?;
        }
        self.write(|tx| {
            for (key, r) in &rows {
                put_row(tx, key, r)?;
            }
            for (key, sq, label) in &labels {
                put_label(tx, key, *sq, label)?;
            }
            Ok(())
        })?;
        Ok((rows.len(), labels.len()))
    }

    /// The positions whose key starts with `prefix` as move lists (`h8 i9 h10`, black
    /// first, colours alternating), one a line; positions whose stones and side to move
    /// no such game gives (and the empty board) are left out. Returns the text, the number
    /// of lines and the number left out.
    pub fn to_positions(&self, prefix: &str) -> Result<(String, usize, usize)> {
        let snap = self.snapshot(prefix)?;
        let (mut out, mut n, mut left) = (String::new(), 0, 0);
        for key in snap.rows.keys() {
            let Ok((b, side)) = parse_key(key) else {
                left += 1;
                continue;
            };
            let stones = |c| {
                b.squares()
                    .filter(|&p| b.stone(p) == Some(c))
                    .collect::<Vec<_>>()
            };
            let (black, white) = (stones(Color::Black), stones(Color::White));
            let fits = match side {
                Color::Black => black.len() == white.len(),
                Color::White => black.len() == white.len() + 1,
            };
            if !fits || black.is_empty() {
                left += 1;
                continue;
            }
            let mut names = Vec::new();
            for (i, &bl) in black.iter().enumerate() {
                names.push(crate::core::notation::square_name(bl, b.height()));
                if let Some(&w) = white.get(i) {
                    names.push(crate::core::notation::square_name(w, b.height()));
                }
            }
            out.push_str(&names.join(" "));
            out.push('\n');
            n += 1;
        }
        Ok((out, n, left))
    }

    /// `YXDBFIX`: SQLite's integrity check, the indexes rebuilt (`REINDEX`), records whose
    /// key is not a canonical position key removed, the file compacted (`VACUUM`) and the
    /// log folded in, then the check again. Returns what was done, one line each, and the
    /// problems the last check still finds (empty when the file is sound).
    pub fn fix(&mut self) -> Result<(Vec<String>, Vec<String>)> {
        let mut done = Vec::new();
        let before = self.integrity_check()?;
        if before == ["ok"] {
            done.push("integrity check: ok".to_string());
        } else {
            done.push(format!("integrity check: {} problems", before.len()));
        }
        self.conn.execute_batch("REINDEX")?;
        done.push("indexes rebuilt".to_string());
        let snap = self.snapshot("")?;
        let bad: Vec<String> = snap
            .rows
            .keys()
            .chain(snap.labels.keys())
            .filter(|k| parse_key(k).is_err())
            .cloned()
            .collect();
        self.write(|tx| {
            for k in &bad {
                tx.execute("DELETE FROM position WHERE key=?1", [k])?;
                tx.execute("DELETE FROM label WHERE key=?1", [k])?;
            }
            Ok(())
        })?;
        done.push(format!(
            "{} unreadable record{} removed",
            bad.len(),
            if bad.len() == 1 { "" } else { "s" }
        ));
        self.conn.execute_batch("VACUUM")?;
        self.checkpoint()?;
        done.push(format!("file compacted, {} positions", self.len()?));
        let after = self.integrity_check()?;
        let problems = if after == ["ok"] { Vec::new() } else { after };
        Ok((done, problems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str, rule: Rule) -> Board {
        Board::from_diagram(text, rule).expect("a diagram")
    }

    /// `positions.db` in a fresh folder of its own, which goes when this does (the
    /// test's end, passed or failed).
    struct TempDb {
        dir: PathBuf,
        path: PathBuf,
    }

    impl std::ops::Deref for TempDb {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.path
        }
    }

    impl AsRef<Path> for TempDb {
        fn as_ref(&self) -> &Path {
            &self.path
        }
    }

    impl Drop for TempDb {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn temp(name: &str) -> TempDb {
        let dir = std::env::temp_dir().join(format!("fivefold-db-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDb {
            path: dir.join("positions.db"),
            dir,
        }
    }

    /// A position and its mirror images share a key; the stored best move comes back in
    /// each asker's own frame.
    #[test]
    fn symmetric_positions_share_a_record() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.make_color(Pos::new(7, 7), Color::Black);
        b.make_color(Pos::new(8, 6), Color::White);
        let mut m = Board::new(15, 15, Rule::Freestyle).unwrap();
        m.make_color(Pos::new(7, 7), Color::Black);
        m.make_color(Pos::new(6, 8), Color::White); // the image under x <-> -x, y <-> -y
        let (k1, k2) = (Key::of(&b, Color::Black), Key::of(&m, Color::Black));
        assert_eq!(k1.text, k2.text);
        let path = temp("sym");
        let mut db = Database::open(&path).unwrap();
        db.store_result(&k1, Pos::new(9, 5), 120, 14).unwrap();
        let r = db.get(&k2).unwrap().unwrap();
        assert_eq!(r.best, Some(Pos::new(5, 9)));
        assert_eq!((r.score, r.depth, r.bound), (Some(120), 14, BOUND_EXACT));
        // The side to move, the rule and the size are part of the key.
        assert_ne!(k1.text, Key::of(&b, Color::White).text);
        let mut rb = Board::new(15, 15, Rule::Renju).unwrap();
        rb.make_color(Pos::new(7, 7), Color::Black);
        rb.make_color(Pos::new(8, 6), Color::White);
        assert_ne!(k1.text, Key::of(&rb, Color::Black).text);
    }

    /// Renju: the colours are not interchangeable; the same shape with colours swapped
    /// is another position.
    #[test]
    fn colours_are_part_of_the_key() {
        let a = board(
            "
            . . . . .
            . x o . .
            . . . . .
            . . . . .
            . . . . .",
            Rule::Renju,
        );
        let b = board(
            "
            . . . . .
            . o x . .
            . . . . .
            . . . . .
            . . . . .",
            Rule::Renju,
        );
        assert_ne!(
            Key::of(&a, Color::Black).text,
            Key::of(&b, Color::Black).text
        );
    }

    /// A rectangle has four symmetries, not eight: its transpose is another board.
    #[test]
    fn rectangles_have_four_symmetries() {
        assert_eq!(board_symmetries(15, 15).len(), 8);
        assert_eq!(board_symmetries(20, 15), vec![0, 1, 2, 3]);
        for s in 0..8 {
            assert_eq!(inverse(inverse(s)), s);
        }
    }

    /// A deeper result is kept; a person's choice of move is never replaced by a search.
    #[test]
    fn deeper_results_and_user_moves_are_kept() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let k = Key::of(&b, Color::Black);
        let path = temp("keep");
        let mut db = Database::open(&path).unwrap();
        db.store_result(&k, Pos::new(7, 7), 10, 20).unwrap();
        db.store_result(&k, Pos::new(6, 6), 30, 12).unwrap();
        assert_eq!(db.get(&k).unwrap().unwrap().best, Some(Pos::new(7, 7)));
        db.update(&k, |r| {
            r.best = Some(Pos::new(8, 8));
            r.by_user = true;
        })
        .unwrap();
        db.store_result(&k, Pos::new(6, 6), 30, 40).unwrap();
        assert_eq!(db.get(&k).unwrap().unwrap().best, Some(Pos::new(8, 8)));
    }

    /// Deleting everything of one rule and size leaves the other rules' positions.
    #[test]
    fn delete_all_keeps_other_rules_and_sizes() {
        let path = temp("family");
        let mut db = Database::open(&path).unwrap();
        let free = Board::new(15, 15, Rule::Freestyle).unwrap();
        let renju = Board::new(15, 15, Rule::Renju).unwrap();
        let big = Board::new(20, 20, Rule::Freestyle).unwrap();
        for b in [&free, &renju, &big] {
            db.store_result(&Key::of(b, Color::Black), Pos::new(7, 7), 1, 5)
                .unwrap();
        }
        db.delete_all_like(&Key::of(&free, Color::Black)).unwrap();
        assert_eq!(db.len().unwrap(), 2);
        assert!(db.get(&Key::of(&renju, Color::Black)).unwrap().is_some());
        assert!(db.get(&Key::of(&big, Color::Black)).unwrap().is_some());
    }

    /// A file that is not an SQLite database is refused with an error naming it.
    #[test]
    fn a_file_that_is_not_a_database_is_refused() {
        let path = temp("junk");
        std::fs::write(&path, vec![0x5a_u8; 8192]).unwrap();
        let err = Database::open(&path).err().expect("refused").to_string();
        assert!(err.contains("positions.db"), "{err}");
    }

    /// The index of moves to stored positions finds the positions trying every square finds, on
    /// square and oblong boards, for both sides, with symmetric positions among them.
    #[test]
    fn the_children_index_finds_every_stored_move() {
        for (w, h) in [(15, 15), (12, 9)] {
            let path = temp(&format!("children{w}"));
            let mut db = Database::open(&path).unwrap();
            let mut b = Board::new(w, h, Rule::Renju).unwrap();
            let line = [(5, 4), (6, 5), (4, 4), (6, 4), (7, 3), (2, 2), (8, 6)];
            let mut side = Color::Black;
            let mut boards = vec![(b.clone(), side)];
            for (i, &(x, y)) in line.iter().enumerate() {
                b.make_color(Pos::new(x, y), side);
                side = side.opp();
                db.update(&Key::of(&b, side), |r| r.depth = i as i32)
                    .unwrap();
                // A side branch: the same stone one square further.
                let mut c = b.clone();
                c.unmake();
                if c.is_empty(Pos::new(x + 1, y)) {
                    c.make_color(Pos::new(x + 1, y), side.opp());
                    db.update(&Key::of(&c, side), |r| r.depth = 1).unwrap();
                }
                boards.push((b.clone(), side));
            }
            let snap = db.snapshot("").unwrap();
            for (board, side) in &boards {
                let mut brute = Vec::new();
                let mut c = board.clone();
                for y in 0..h {
                    for x in 0..w {
                        let p = Pos::new(x, y);
                        if board.is_empty(p) {
                            c.make_color(p, *side);
                            if snap.rows.contains_key(&Key::of(&c, side.opp()).text) {
                                brute.push((p, None));
                            }
                            c.unmake();
                        }
                    }
                }
                assert!(!brute.is_empty() || board.move_count() == line.len());
                // One square for each position reached (a symmetric position's moves to
                // one position are images of each other).
                let keys = |moves: Vec<(Pos, Option<String>)>| {
                    let mut c = board.clone();
                    moves
                        .into_iter()
                        .map(|(p, _)| {
                            c.make_color(p, *side);
                            let k = Key::of(&c, side.opp()).text;
                            c.unmake();
                            k
                        })
                        .collect::<std::collections::BTreeSet<String>>()
                };
                let found = snap.moves(board, *side);
                assert_eq!(found.len(), keys(found.clone()).len());
                assert_eq!(keys(found), keys(brute), "{}", board.to_diagram());
            }
        }
    }
}
