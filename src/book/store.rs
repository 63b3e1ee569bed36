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
use crate::core::types::{mate_plies, symmetries, Bound, Color, Pos, Rule, Score};
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
pub(super) fn map(s: usize, w: usize, h: usize, x: usize, y: usize) -> Option<(usize, usize)> {
    let (dx, dy) = (2 * x as i64 - (w as i64 - 1), 2 * y as i64 - (h as i64 - 1));
    let (ex, ey) = symmetries()[s](dx, dy);
    let (nx, ny) = ((ex + w as i64 - 1) / 2, (ey + h as i64 - 1) / 2);
    (nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h)
        .then_some((nx as usize, ny as usize))
}

/// The symmetries a `w`x`h` board has (all eight when square, else the four that keep
/// the axes).
pub(super) fn board_symmetries(w: usize, h: usize) -> Vec<usize> {
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
    /// What the score means, if one is stored.
    pub bound: Option<Bound>,
    /// Yixin-Board's tag: up to four characters packed base 256, 0 for none.
    pub tag: i64,
    pub text: String,
}

/// An open database file.
pub struct Database {
    pub(super) conn: Connection,
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
    pub(super) fn write<T>(
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
                bound: Bound::from_code(bound.clamp(0, 3)),
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
                    rec.bound.map_or(0, Bound::code),
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
            r.bound = Some(Bound::Exact);
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

/// Stores a label, replacing the one on `square` under `key`.
pub(super) fn put_label(
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
        assert_eq!(
            (r.score, r.depth, r.bound),
            (Some(120), 14, Some(Bound::Exact))
        );
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
