//! Yixin-Board's position database commands in a build without SQLite (the `sqlite`
//! feature off: the browser's engine, whose page keeps its own database): every command
//! is understood and answered as with no file open, and the ones that would open, write
//! or check a file say that this build has none. The game never plays or stores a book
//! move.

use crate::core::types::{Pos, Score};
use crate::gomocup::command::{DbCommand, DbFile};
use crate::gomocup::session::{Flow, Session};

/// What the commands that need a file answer.
const NONE: &str = "this build has no position database (built without the sqlite feature)";

impl Session {
    /// No database: no stored move.
    pub(super) fn book_move(&mut self) -> Option<Pos> {
        None
    }

    /// No database: nothing is stored.
    pub(super) fn store_result(&mut self, _p: Pos, _score: Score, _depth: i32) {}

    /// `YXSETDATABASE`: refused; the engine goes on without a database, as when a file
    /// cannot be opened.
    pub(super) fn set_database(&mut self, _path: &str) -> Flow {
        self.error(&format!(
            "YXSETDATABASE: {NONE}; playing without a database"
        ))
    }

    pub(super) fn save_database(&mut self) -> Flow {
        self.error(&format!("YXSAVEDATABASE: {NONE}"))
    }

    pub(super) fn db_file(&mut self, cmd: DbFile, _path: &str) -> Flow {
        self.error(&format!("{}: {NONE}", cmd.name()))
    }

    pub(super) fn db_check(&mut self) -> Flow {
        self.error(&format!("YXDBCHECK: {NONE}"))
    }

    pub(super) fn db_fix(&mut self) -> Flow {
        self.error(&format!("YXDBFIX: {NONE}"))
    }

    /// A query shows nothing stored (Yixin-Board asks after every move while "Use
    /// Database" is on); an edit is refused.
    pub(super) fn database(&mut self, cmd: &DbCommand, _stones: &[(i64, i64)]) -> Flow {
        if let DbCommand::QueryAll { text } = cmd {
            self.out.line("MESSAGE DATABASE REFRESH");
            if *text {
                self.out.line("MESSAGE DATABASE TEXT \"\"");
            }
            self.out.line("MESSAGE DATABASE DONE");
            return Flow::Continue;
        }
        self.error(&format!("{}: {NONE}", cmd.name()))
    }
}
