//! Yixin-Board's position database commands, on the book of [`crate::book`]: opening a
//! file (`YXSETDATABASE`), saving and checking it, the queries and edits on the position
//! of a block (`YXQUERYDATABASEALL`, `YXEDITTVDDATABASE`, …, answered in the `MESSAGE
//! DATABASE …` lines Yixin-Board reads), the file commands ([`crate::gomocup::dbfile`]),
//! and the two ways the game uses the book: a stored move it trusts answers our turn
//! (`Session::book_move`), and a searched move is stored (`Session::store_result`).

use crate::book::store::{self, Database, Key, Record};
use crate::book::transfer;
use crate::core::board::Board;
use crate::core::rules;
use crate::core::types::{is_mate, Bound, Color, Pos, Score, MATE};
use crate::engine::search::MAX_DEPTH;
use crate::gomocup::command::{clean, DbCommand, DbFile};
use crate::gomocup::reply::{one_line, plural, quote_text};
use crate::gomocup::session::{Flow, Session};

impl Session {
    /// The database's move for the current position, when one is open and in use and it
    /// holds a move it trusts: a person's choice, a proven win or loss, or a result at
    /// least as deep as `INFO max_depth` asks for. The move must be legal and not blocked.
    pub(super) fn book_move(&mut self) -> Option<Pos> {
        if !self.book.use_db {
            return None;
        }
        let exclude = self.exclusions();
        let db = self.book.db.as_ref()?;
        let g = self.game.as_mut()?;
        let me = g.my_color();
        let key = Key::of(&g.board, me);
        let rec = match db.get(&key) {
            Ok(r) => r?,
            Err(e) => {
                log::error!("database {}: {e:#}", db.path().display());
                return None;
            }
        };
        let p = rec.best?;
        let deep = self.settings.max_depth.is_some_and(|d| rec.depth >= d);
        let trusted = rec.by_user || rec.score.is_some_and(is_mate) || deep;
        if !trusted || !g.board.is_empty(p) || g.walls.contains(&p) || exclude.contains(&p) {
            return None;
        }
        let side = g.board.side_to_move();
        g.board.set_side_to_move(me);
        let legal = rules::is_legal(&mut g.board, p);
        g.board.set_side_to_move(side);
        if !legal {
            return None;
        }
        log::info!(
            "database move {} (score {:?}, depth {}, chosen by a person: {})",
            self.names().square(p),
            rec.score,
            rec.depth,
            rec.by_user
        );
        Some(p)
    }

    /// Stores our searched move for the current position (before it is played) when a
    /// database is open, in use and writable. A failed write is reported and the game
    /// goes on.
    pub(super) fn store_result(&mut self, p: Pos, score: Score, depth: i32) {
        if !self.book.use_db || self.book.readonly || p.is_none() {
            return;
        }
        let (Some(db), Some(g)) = (self.book.db.as_mut(), self.game.as_ref()) else {
            return;
        };
        let key = Key::of(&g.board, g.my_color());
        if let Err(e) = db.store_result(&key, p, score, depth) {
            eprintln!(
                "pbrain-fivefold: database {}: the result was not stored: {e:#}",
                db.path().display()
            );
            let line = format!("MESSAGE db: the result was not stored: {e:#}");
            self.reply(&line);
        }
    }

    /// `YXSETDATABASE`: opens the file, with Yixin-Board 3's loading markers around it
    /// (none for Yixin-Board 2, which cannot read them: [`crate::gomocup::settings::Gui::yixin_board_2`]). A
    /// file that cannot be used is reported (`ERROR` and stderr) and the engine goes on
    /// without a database.
    pub(super) fn set_database(&mut self, path: &str) -> Flow {
        self.book.db = None;
        // Yixin-Board 2 has no loading dialog: it would take the markers for a square's
        // record and crash.
        let markers = !self.gui.yixin_board_2();
        if markers {
            self.reply(&format!("MESSAGE DATABASE LOAD START {}", clean(path)));
        }
        let opened = Database::open(std::path::Path::new(path)).and_then(|db| {
            let n = db.len()?;
            Ok((db, n))
        });
        if markers {
            self.reply("MESSAGE DATABASE LOAD DONE");
        }
        match opened {
            Ok((db, n)) => {
                log::info!("database {path}: {n} positions");
                self.book.db = Some(db);
                self.reply(&format!(
                    "MESSAGE db {}: {}",
                    clean(path),
                    plural(n as usize, "position")
                ));
                Flow::Continue
            }
            Err(e) => {
                // On stderr whatever the log level: the person must learn that the
                // file is not being used.
                eprintln!(
                    "pbrain-fivefold: YXSETDATABASE {path}: {e:#}; playing without a database"
                );
                self.error(&format!(
                    "YXSETDATABASE: {}; playing without a database",
                    one_line(&format!("{e:#}"))
                ))
            }
        }
    }

    /// `YXSAVEDATABASE`: every write is already committed; this folds the write-ahead log
    /// into the file, between Yixin-Board 3's saving markers (none for Yixin-Board 2).
    pub(super) fn save_database(&mut self) -> Flow {
        let Some(db) = self.book.db.as_mut() else {
            return self.error("YXSAVEDATABASE: no database; send YXSETDATABASE first");
        };
        let path = db.path().display().to_string();
        let result = db.checkpoint();
        if !self.gui.yixin_board_2() {
            self.reply(&format!("MESSAGE DATABASE SAVE START {}", clean(&path)));
            self.reply("MESSAGE DATABASE SAVE DONE");
        }
        match result {
            Ok(()) => Flow::Continue,
            Err(e) => {
                log::error!("YXSAVEDATABASE {path}: {e:#}");
                self.error(&format!("YXSAVEDATABASE: {}", one_line(&format!("{e:#}"))))
            }
        }
    }

    /// A database file command ([`crate::gomocup::dbfile`]) on the current game's rule,
    /// board size and moves.
    pub(super) fn db_file(&mut self, cmd: DbFile, path: &str) -> Flow {
        let (width, height, moves) = self.game.as_ref().map_or((15, 15, Vec::new()), |g| {
            let moves = g.board.history().iter().map(|m| (m.pos, m.color)).collect();
            (g.board.width(), g.board.height(), moves)
        });
        let at = crate::gomocup::dbfile::Position {
            width,
            height,
            rule: self.rule,
            moves: &moves,
        };
        let lines =
            crate::gomocup::dbfile::run(self.book.db.as_mut(), self.book.readonly, cmd, path, &at);
        for l in &lines {
            self.reply(l);
        }
        Flow::Continue
    }

    /// `YXDBCHECK`: SQLite's integrity check of the file, as messages.
    pub(super) fn db_check(&mut self) -> Flow {
        let Some(db) = self.book.db.as_ref() else {
            return self.error("YXDBCHECK: no database; send YXSETDATABASE first");
        };
        match db.integrity_check() {
            Ok(lines) if lines == ["ok"] => {
                let n = db.len().unwrap_or(0);
                self.reply(&format!(
                    "MESSAGE db check: ok, {}",
                    plural(n as usize, "position")
                ));
                Flow::Continue
            }
            Ok(lines) => {
                for l in &lines {
                    self.reply(&format!("MESSAGE db check: {}", clean(l)));
                }
                self.error(&format!(
                    "YXDBCHECK: the database is damaged ({} problems)",
                    lines.len()
                ))
            }
            Err(e) => self.error(&format!("YXDBCHECK: {}", one_line(&format!("{e:#}")))),
        }
    }

    /// The position a database command's block describes: the moves from the empty board
    /// of the current game's size, black first, colours alternating.
    fn db_position(&self, stones: &[(i64, i64)]) -> anyhow::Result<Board> {
        let (w, h) = self.size();
        let mut b = Board::new(w, h, self.rule).map_err(anyhow::Error::msg)?;
        let size = self.names().size();
        let mut color = Color::Black;
        for &(x, y) in stones {
            let p = b
                .pos(x, y)
                .ok_or_else(|| anyhow::anyhow!("{x},{y} is outside the {size} board"))?;
            if !b.is_empty(p) {
                anyhow::bail!("{x},{y} is given twice");
            }
            b.make_color(p, color);
            color = color.opp();
        }
        b.set_side_to_move(color);
        Ok(b)
    }

    /// A database command on the position of its block: its messages, or one `ERROR`.
    pub(super) fn database(&mut self, cmd: &DbCommand, stones: &[(i64, i64)]) -> Flow {
        if let Err(e) = self.database_command(cmd, stones) {
            log::debug!("{}: {e:#}", cmd.name());
            self.error(&format!("{}: {}", cmd.name(), one_line(&format!("{e:#}"))));
        }
        Flow::Continue
    }

    /// `YXDBFIX`: [`crate::book::store::Database::fix`], as messages.
    pub(super) fn db_fix(&mut self) -> Flow {
        for l in crate::gomocup::dbfile::fix(self.book.db.as_mut(), self.book.readonly) {
            self.reply(&l);
        }
        Flow::Continue
    }

    /// Carries out a database command on the position of its block.
    fn database_command(&mut self, cmd: &DbCommand, stones: &[(i64, i64)]) -> anyhow::Result<()> {
        let board = self.db_position(stones)?;
        let size = self.names().size();
        let side = board.side_to_move();
        let key = Key::of(&board, side);
        let writes = !matches!(
            cmd,
            DbCommand::QueryAll { .. } | DbCommand::QueryOne | DbCommand::QueryText
        );
        let Some(db) = self.book.db.as_mut() else {
            if let DbCommand::QueryAll { text } = cmd {
                // Yixin-Board asks after every move while "Use Database" is on: with no
                // file open there is nothing to show.
                self.out.line("MESSAGE DATABASE REFRESH");
                if *text {
                    self.out.line("MESSAGE DATABASE TEXT \"\"");
                }
                self.out.line("MESSAGE DATABASE DONE");
                return Ok(());
            }
            anyhow::bail!("no database; send YXSETDATABASE first");
        };
        if writes && self.book.readonly {
            anyhow::bail!("the database is read-only (INFO database_readonly 1); nothing changed");
        }
        // The position before the last move, and the last move.
        let parent = || -> anyhow::Result<(Key, Pos)> {
            let Some(&(x, y)) = stones.last() else {
                anyhow::bail!("needs at least one move (the move to mark)");
            };
            let mut b = board.clone();
            let p = b.pos(x, y).expect("checked by db_position");
            b.unmake();
            Ok((Key::of(&b, side.opp()), p))
        };
        let out = &self.out;
        match cmd {
            DbCommand::QueryAll { text } => {
                let mut lines = vec!["MESSAGE DATABASE REFRESH".to_string()];
                let own = db.get(&key)?;
                let mut child = board.clone();
                for y in 0..board.height() {
                    for x in 0..board.width() {
                        let p = Pos::new(x, y);
                        if !board.is_empty(p) {
                            continue;
                        }
                        child.make_color(p, side);
                        child.set_side_to_move(side.opp());
                        let rec = db.get(&Key::of(&child, side.opp()))?;
                        child.unmake();
                        let label = db.label(&key, p)?;
                        // The position's own best move, shown with the position's value
                        // when the move's result is not stored itself.
                        let best = own.as_ref().filter(|r| r.best == Some(p));
                        if rec.is_none() && label.is_none() && best.is_none() {
                            continue;
                        }
                        let rec = match (rec, best) {
                            (Some(r), _) => Record {
                                score: r.score.map(|s| -s),
                                bound: r.bound.map(Bound::flipped),
                                ..r
                            },
                            (None, Some(b)) => Record {
                                tag: 0,
                                text: String::new(),
                                ..b.clone()
                            },
                            (None, None) => Record::default(),
                        };
                        // The value for the side to move here (a child's record is
                        // for the opponent, turned round above).
                        let value = rec.score;
                        let tag = if rec.tag > 0 {
                            rec.tag
                        } else {
                            store::tag_of(value)
                        };
                        // No tag is -1, as Rapfi sends it: Yixin-Board draws a square's
                        // label only where its tag is not 0.
                        let tag = if tag == 0 { -1 } else { tag };
                        let bound = rec.bound.map_or(0, Bound::code);
                        // The seventh number: whether the move's position has a text.
                        let mut line = format!(
                            "MESSAGE DATABASE {x} {y} {tag} {} {} {bound} {}",
                            value.unwrap_or(0),
                            rec.depth,
                            u8::from(!rec.text.is_empty())
                        );
                        if let Some(l) = label {
                            line.push(' ');
                            line.push_str(&l);
                        }
                        lines.push(line);
                    }
                }
                if *text {
                    let t = db.get(&key)?.map(|r| r.text).unwrap_or_default();
                    lines.push(format!("MESSAGE DATABASE TEXT {}", quote_text(&t)));
                }
                lines.push("MESSAGE DATABASE DONE".to_string());
                for l in &lines {
                    out.line(l);
                }
            }
            DbCommand::QueryOne => match db.get(&key)? {
                Some(rec) => {
                    let label = match parent() {
                        Ok((pk, p)) => db.label(&pk, p)?,
                        Err(_) => None,
                    };
                    let mut line = format!(
                        "MESSAGE DATABASE ONE {} {} {} {}",
                        rec.tag,
                        rec.score.unwrap_or(0),
                        rec.depth,
                        rec.bound.map_or(0, Bound::code)
                    );
                    if let Some(l) = label {
                        line.push(' ');
                        line.push_str(&l);
                    }
                    out.line(&line);
                }
                None => out.line("MESSAGE DATABASE ONE 0 0 0 0"),
            },
            DbCommand::QueryText => {
                let t = db.get(&key)?.map(|r| r.text).unwrap_or_default();
                out.line(&format!("MESSAGE DATABASE TEXT {}", quote_text(&t)));
            }
            DbCommand::SetBest => {
                let (pk, p) = parent()?;
                db.update(&pk, |r| {
                    r.best = Some(p);
                    r.by_user = true;
                })?;
            }
            DbCommand::ClearBest => {
                let (pk, _) = parent()?;
                db.update(&pk, |r| {
                    r.best = None;
                    r.by_user = false;
                })?;
            }
            DbCommand::EditLabel { x, y, label } => {
                let p = board
                    .pos(*x, *y)
                    .ok_or_else(|| anyhow::anyhow!("{x},{y} is outside the {size} board"))?;
                if label.chars().count() > 64 {
                    anyhow::bail!("a label has at most 64 characters; nothing changed");
                }
                db.set_label(&key, p, label)?;
            }
            &DbCommand::EditTvd {
                mask,
                tag,
                value,
                depth,
            } => {
                if !(1..=7).contains(&mask) {
                    anyhow::bail!(
                        "mask {mask} is not 1 (tag), 2 (value), 4 (depth) or a sum of them"
                    );
                }
                db.update(&key, |r| {
                    if mask & 1 != 0 {
                        r.tag = tag.max(0);
                    }
                    if mask & 2 != 0 {
                        r.score = Some(value.clamp(-(MATE as i64), MATE as i64) as Score);
                        if r.bound.is_none() {
                            r.bound = Some(Bound::Exact);
                        }
                    }
                    if mask & 4 != 0 {
                        r.depth = depth.clamp(0, i64::from(MAX_DEPTH)) as i32;
                    }
                })?;
                // The record as it is now (Yixin-Board shows it in its log).
                return self.database_command(&DbCommand::QueryOne, stones);
            }
            DbCommand::EditText(text) => db.update(&key, |r| r.text = text.clone())?,
            DbCommand::DeleteOne => db.delete(&key)?,
            DbCommand::DeleteAll { filter } => {
                // Yixin-Board means the positions that follow the one on its board (from
                // the empty board with no filter: every position of this rule and size).
                let (f, recursive) = transfer::DeleteFilter::parse(filter)
                    .map_err(|e| anyhow::anyhow!("{e}; nothing was deleted"))?;
                if f != transfer::DeleteFilter::All || !stones.is_empty() {
                    let n = db.delete_after(&board, side, f, recursive)?;
                    out.line(&format!(
                        "MESSAGE db: deleted {} after this one",
                        plural(n, "position")
                    ));
                    return self.database_command(&DbCommand::QueryAll { text: false }, stones);
                }
                db.delete_all_like(&key)?;
                // The board's marks as they are now, as after any change of the tree.
                return self.database_command(&DbCommand::QueryAll { text: false }, stones);
            }
        }
        Ok(())
    }
}
