//! What our answers avoid, as Yixin-Board sets it: `YXBLOCK` squares (never our answer
//! while another move exists), and the block paths (`YXBLOCKPATH`: a move ruled out in the
//! position a path of moves leads to) and forbidden points (`YXFORBID`) that every search
//! leaves out ([`crate::engine::restrict::Restrictions`], handed to the engine before each
//! search). All are kept across games until reset.

use crate::core::board::Board;
use crate::core::rules;
use crate::core::types::{Color, Pos};
use crate::gomocup::reply::plural;
use crate::gomocup::session::{Flow, Session};

impl Session {
    /// `YXBLOCK` / `YXBLOCKUNDO` with the squares of its block.
    pub(super) fn exclude(&mut self, undo: bool, stones: &[(i64, i64)]) -> Flow {
        let name = if undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
        let squares = match self.squares_of(stones) {
            Ok(s) => s,
            Err(e) => return self.error(&format!("{name}: {e}; nothing changed")),
        };
        for p in squares {
            if undo {
                self.avoid.excluded.retain(|&q| q != p);
            } else if !self.avoid.excluded.contains(&p) {
                self.avoid.excluded.push(p);
            }
        }
        Flow::Continue
    }

    /// `YXBLOCKRESET`: no square is blocked any more.
    pub(super) fn reset_blocks(&mut self) -> Flow {
        self.avoid.excluded.clear();
        Flow::Continue
    }

    /// `YXBLOCKPATHRESET`: no path is blocked any more.
    pub(super) fn reset_block_paths(&mut self) -> Flow {
        let n = self.avoid.restrict.clear_paths();
        self.reply(&format!(
            "MESSAGE blockpath: {} removed (0 in all)",
            plural(n, "path")
        ));
        Flow::Continue
    }

    /// Squares our answer avoids: continuous-game marks, `YXBLOCK` squares, and the
    /// squares block paths and forbidden points rule out for us in the current position.
    pub(super) fn exclusions(&self) -> Vec<Pos> {
        let mut v = self.avoid.excluded.clone();
        if let Some(g) = &self.game {
            v.extend_from_slice(&g.walls);
            if !self.avoid.restrict.is_empty() {
                let mut b = g.board.clone();
                b.set_side_to_move(g.my_color());
                for p in self.avoid.restrict.ruled_out(&b) {
                    if !v.contains(&p) {
                        v.push(p);
                    }
                }
            }
        }
        v
    }

    /// `YXBLOCKPATH` / `YXBLOCKPATHUNDO` with the path of its block.
    pub(super) fn block_path(&mut self, undo: bool, stones: &[(i64, i64)]) -> Flow {
        let name = if undo {
            "YXBLOCKPATHUNDO"
        } else {
            "YXBLOCKPATH"
        };
        let (key, last) = match self.path_position(stones) {
            Ok(t) => t,
            Err(e) => return self.error(&format!("{name}: {e}; nothing changed")),
        };
        let (verb, done) = if undo {
            ("removed", "not blocked")
        } else {
            ("blocked", "already blocked")
        };
        let changed = match last {
            Some(p) if undo => self.avoid.restrict.unblock_path(key, p),
            Some(p) => self.avoid.restrict.block_path(key, p),
            None => false,
        };
        let why = match (last, changed) {
            (_, true) => String::new(),
            (Some(_), false) => format!(", {done}"),
            (None, false) => {
                let &(x, y) = stones.last().expect("a path of one move or more");
                format!(", {x},{y} is not an empty square of that position")
            }
        };
        self.reply(&format!(
            "MESSAGE blockpath: {} {verb}{why} ({} in all)",
            plural(usize::from(changed), "path"),
            self.avoid.restrict.path_count()
        ));
        Flow::Continue
    }

    /// The position a block path's moves but the last lead to, from the empty board of
    /// the current game's size and rule (black first, colours alternating), as its key,
    /// and the last move's square; `None` for the square when it is off the board or taken
    /// (Yixin-Board's `blockpath except` sends every square of its largest board). Every
    /// move but the last must be on the board, on an empty square and legal.
    fn path_position(&self, stones: &[(i64, i64)]) -> Result<(u64, Option<Pos>), String> {
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        let (w, h) = (g.board.width(), g.board.height());
        let Some((&(lx, ly), prefix)) = stones.split_last() else {
            return Err(
                "no moves (expected the path from the empty board, the blocked move last)".into(),
            );
        };
        let mut b = Board::new(w, h, g.board.rule())?;
        let mut color = Color::Black;
        for &(x, y) in prefix {
            let p = b
                .pos(x, y)
                .ok_or_else(|| format!("{x},{y} is outside the {w}x{h} board"))?;
            if !b.is_empty(p) {
                return Err(format!("{x},{y} is given twice"));
            }
            b.set_side_to_move(color);
            if !rules::is_legal(&mut b, p) {
                return Err(format!("{x},{y} is a foul for black"));
            }
            if b.last_move_won() {
                return Err(format!("{x},{y} follows a five"));
            }
            b.make_color(p, color);
            color = color.opp();
        }
        b.set_side_to_move(color);
        if b.last_move_won() {
            return Err("the path ends in a five: there is no move to block".into());
        }
        let last = b.pos(lx, ly).filter(|&p| b.is_empty(p));
        Ok((b.hash(), last))
    }

    /// `YXFORBID add|del x y side`.
    pub(super) fn forbid(&mut self, add: bool, x: i64, y: i64, side: u8) -> Flow {
        let p = match self.squares_of(&[(x, y)]) {
            Ok(v) => v[0],
            Err(e) => return self.error(&format!("YXFORBID: {e}; nothing changed")),
        };
        let color = if side == 0 {
            Color::Black
        } else {
            Color::White
        };
        let changed = self.avoid.restrict.set_forbidden(color, p, add);
        let what = match (add, changed) {
            (true, true) => "forbidden",
            (true, false) => "already forbidden",
            (false, true) => "no longer forbidden",
            (false, false) => "was not forbidden",
        };
        self.reply(&format!(
            "MESSAGE forbid: {} {what} for {} ({} in all)",
            self.names().square(p),
            color.name(),
            self.avoid.restrict.forbidden_count()
        ));
        Flow::Continue
    }
}
