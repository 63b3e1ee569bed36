//! One protocol session's state: the game as the manager described it and everything
//! the commands set, grouped by what it is for: the game and the rule; the clock
//! ([`MoveClock`]); what `INFO` set ([`Settings`]) and what is known of the GUI
//! ([`Gui`]); the squares and paths our answers avoid ([`Avoid`]); the position database
//! ([`Book`]); the lines waiting for the next command; the framer that makes whole
//! commands of lines ([`Framer`]); the pondering search.
//!
//! Here too is what the commands share: the names of squares, the limits of a search
//! for an answer, our move played (`Session::play_own`, which replaces a move that is not
//! legal or is excluded, and relaxes renju's fouls only when nothing else is left), and what a search is to the session: a [`Job`] for the worker thread and the
//! [`Answer`] it makes, which the main loop applies once the search is over. Each command
//! builds its job in one place, with its search and its answer side by side.
//!
//! The commands are in the rooms above: the game's own and `INFO` in
//! [`crate::gomocup::dispatch`], the Yixin-Board requests in
//! [`crate::gomocup::requests`] and [`crate::gomocup::openings`], the blocked squares in
//! [`crate::gomocup::avoid`], the database's in [`crate::gomocup::database`], the worker
//! thread in [`crate::gomocup::jobs`] and the main loop in [`crate::gomocup::run`].
//!
//! The session keeps no engine resources of its own: before each search it hands the
//! engine the manager's memory limit, threads and restrictions (`Session::prepare_engine`),
//! and the engine plans its table and threads under them.

use crate::analysis::multipv;
#[cfg(feature = "sqlite")]
use crate::book::store::Database;
use crate::core::board::Board;
use crate::core::rules;
use crate::core::time::Instant;
use crate::core::types::{Color, Pos, Rule, Score};
use crate::engine::restrict::Restrictions;
use crate::engine::search::Limits;
use crate::engine::time;
use crate::engine::tt::BUCKET_BYTES;
use crate::engine::{Engine, StopToken};
use crate::gomocup::clock::MoveClock;
use crate::gomocup::command::Framer;
use crate::gomocup::output::{Output, Reporter};
use crate::gomocup::ponder::Ponder;
use crate::gomocup::reply::{self, Names};
use crate::gomocup::settings::{Gui, Settings};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// `INFO timeout_turn` of Yixin-Board's levels other than the custom one (33 minutes):
/// no time limit meant.
const YIXIN_LEVEL_TURN_MS: u64 = 2_000_000;
/// Most time for a Yixin-Board step it shows no thinking for, under those levels.
const UNWATCHED_MS: u64 = 10_000;

/// What the main loop does after a command.
pub enum Flow {
    Continue,
    Quit,
    /// Run this search, then continue.
    Think(Job),
}

/// The search a job runs on the worker thread.
pub(super) type Search = Box<dyn FnOnce(&mut Engine, &Reporter, &StopToken) -> Answer + Send>;

/// What a search found, applied to the session on the main thread once the search is
/// over: the reply it writes and what it changes in the game.
pub struct Answer(Box<dyn FnOnce(&mut Session) + Send>);

impl Answer {
    /// An answer that does `apply` to the session.
    pub fn new(apply: impl FnOnce(&mut Session) + Send + 'static) -> Answer {
        Answer(Box::new(apply))
    }

    /// Our move `p` (`Pos::NONE` if the search had none: a legal square is found).
    pub fn play(p: Pos) -> Answer {
        Answer::new(move |s| s.play_own(p))
    }

    /// Our move as a full search of the position found it, with its score and depth,
    /// stored in the position database when one is in use.
    pub fn searched(p: Pos, score: Score, depth: i32) -> Answer {
        Answer::new(move |s| {
            s.store_result(p, score, depth);
            s.play_own(p)
        })
    }

    /// A line to write, and nothing else.
    pub fn say(line: String) -> Answer {
        Answer::new(move |s| s.reply(&line))
    }

    /// An `ERROR` line.
    pub fn error(message: String) -> Answer {
        Answer::new(move |s| {
            s.error(&message);
        })
    }

    /// Applies the answer to the session.
    pub fn apply(self, session: &mut Session) {
        (self.0)(session)
    }
}

/// A search to run on the worker thread, and what to answer if it fails.
pub struct Job {
    pub(super) search: Search,
    /// The answer when the search panics or no thread can be started.
    pub(super) failed: Answer,
    /// Whether the answer is our move in the game (pondering may follow it).
    pub our_move: bool,
    /// Whether the search's time counts as our thinking time (the short search that
    /// decides a draw offer does not).
    pub timed: bool,
}

impl Job {
    /// A job that runs `search` and answers with what it returns, or with `failed`.
    pub fn new(
        search: impl FnOnce(&mut Engine, &Reporter, &StopToken) -> Answer + Send + 'static,
        failed: Answer,
    ) -> Job {
        Job {
            search: Box::new(search),
            failed,
            our_move: false,
            timed: true,
        }
    }

    /// This job, its answer being our move in the game.
    pub fn our_move(mut self) -> Job {
        self.our_move = true;
        self
    }

    /// This job, its time not counted against the clock.
    pub fn untimed(mut self) -> Job {
        self.timed = false;
        self
    }
}

/// The position of the current game.
pub struct Game {
    pub board: Board,
    /// Our colour, once known.
    pub me: Option<Color>,
    /// Squares nobody may play (`BOARD` field 3: continuous-game marks).
    pub walls: Vec<Pos>,
}

impl Game {
    pub fn new(board: Board) -> Game {
        Game {
            board,
            me: None,
            walls: Vec::new(),
        }
    }
    /// Our colour: as known, else the side to move.
    pub fn my_color(&self) -> Color {
        self.me.unwrap_or(self.board.side_to_move())
    }
    pub fn empty_squares(&self) -> usize {
        (self.board.width() * self.board.height())
            .saturating_sub(self.board.move_count() + self.walls.len())
    }
}

/// Replays a board's moves, each in its colour, on a new board with `rule`, leaving out the
/// move at `skip`; the side to move is kept.
pub(super) fn replay(board: &Board, rule: Rule, skip: Option<usize>) -> Result<Board, String> {
    let mut b = Board::new(board.width(), board.height(), rule)?;
    for (i, m) in board.history().iter().enumerate() {
        if Some(i) != skip {
            b.make_color(m.pos, m.color);
        }
    }
    b.set_side_to_move(board.side_to_move());
    Ok(b)
}

/// The state of one protocol session.
pub struct Session {
    pub(super) out: Arc<Output>,
    pub(super) engine: Arc<Mutex<Engine>>,
    /// Makes whole commands of the input lines.
    pub(super) framer: Framer,
    pub(super) game: Option<Game>,
    pub(super) rule: Rule,
    pub(super) clock: MoveClock,
    pub(super) settings: Settings,
    pub(super) gui: Gui,
    pub(super) avoid: Avoid,
    pub(super) book: Book,
    /// Lines about `INFO` commands (`ERROR …`, or a `MESSAGE` that a search parameter
    /// was held to its range) waiting for the next other command, in order.
    pub(super) pending: Vec<String>,
    /// The pondering search running now, if any ([`crate::gomocup::ponder`]).
    pub(super) pondering: Option<Ponder>,
}

/// The squares and moves our answers avoid.
#[derive(Default)]
pub struct Avoid {
    /// `YXBLOCK` squares: never our answer if there is another move.
    pub excluded: Vec<Pos>,
    /// `YXBLOCKPATH` paths and `YXFORBID` points: moves every search leaves out.
    pub restrict: Restrictions,
}

/// The position database and the switches that say how the game uses it.
pub struct Book {
    /// The file opened by `YXSETDATABASE`, if any (a build without the `sqlite` feature
    /// has none: `gomocup::nodatabase`).
    #[cfg(feature = "sqlite")]
    pub db: Option<Database>,
    /// `INFO usedatabase` (default on): play stored moves and store results.
    pub use_db: bool,
    /// `INFO database_readonly`: store nothing.
    pub readonly: bool,
}

impl Default for Book {
    fn default() -> Book {
        Book {
            #[cfg(feature = "sqlite")]
            db: None,
            use_db: true,
            readonly: false,
        }
    }
}

impl Session {
    pub fn new(out: Arc<Output>) -> Session {
        // The table gets its real size before the first search, once the manager has had
        // the chance to send its memory limit.
        let engine = Engine::new(BUCKET_BYTES);
        Session {
            out,
            engine: Arc::new(Mutex::new(engine)),
            framer: Framer::default(),
            game: None,
            rule: Rule::Freestyle,
            clock: MoveClock::default(),
            settings: Settings::default(),
            gui: Gui::default(),
            avoid: Avoid::default(),
            book: Book::default(),
            pending: Vec::new(),
            pondering: None,
        }
    }

    /// How the human-readable output names squares now.
    pub(super) fn names(&self) -> Names {
        let (width, height) = self.size();
        Names {
            width,
            height,
            transpose: self.gui.transposed(),
        }
    }

    /// The size of the current game's board (15x15 before the first `START`).
    pub(super) fn size(&self) -> (usize, usize) {
        self.game
            .as_ref()
            .map_or((15, 15), |g| (g.board.width(), g.board.height()))
    }

    /// After the squares' meaning changed (Yixin-Board identified itself after its first
    /// `START`, or `INFO square_names`): a rectangular board turns round, so that it has
    /// the shape the GUI meant. The stones stay on their squares (`x,y` as sent) if they
    /// all fit; otherwise the board is emptied (the GUI sends its position before it
    /// asks for anything).
    pub(super) fn follow_square_meaning(&mut self) {
        let rule = self.rule;
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let (w, h) = (g.board.width(), g.board.height());
        if w == h {
            return;
        }
        let Ok(mut b) = Board::new(h, w, rule) else {
            return;
        };
        let fits = |p: Pos| p.x() < h && p.y() < w;
        if g.board.history().iter().all(|m| fits(m.pos)) && g.walls.iter().all(|&p| fits(p)) {
            for m in g.board.history() {
                b.make_color(m.pos, m.color);
            }
            b.set_side_to_move(g.board.side_to_move());
            g.board = b;
        } else {
            *g = Game::new(b);
        }
    }

    pub(super) fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn reply(&self, line: &str) {
        self.out.line(line);
    }

    pub(super) fn error(&self, message: &str) -> Flow {
        self.out.line(&format!("ERROR {message}"));
        Flow::Continue
    }

    /// Hands the engine the memory limit, the threads asked for and the restrictions,
    /// before a search: it sizes its table and threads under them
    /// ([`Engine::configure`], which changes nothing when they are as before).
    pub(super) fn prepare_engine(&mut self) {
        let mut e = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        e.configure(self.settings.memory, self.settings.threads);
        e.set_restrictions(&self.avoid.restrict);
    }

    /// Writes the lines about `INFO` settings that wait for the next other command.
    pub(super) fn flush_pending(&mut self) {
        for line in std::mem::take(&mut self.pending) {
            self.reply(&line);
        }
    }

    /// Makes the engine the side to move in the current game and gives what a search of
    /// it needs: the board, the limits (time counted from `received`) and the squares
    /// our answer avoids. The caller has checked that a game with an empty square exists.
    pub(super) fn our_turn(&mut self, received: Instant) -> (Board, Limits, Vec<Pos>) {
        let exclude = self.exclusions();
        let limits = self.limits(received);
        let g = self.game.as_mut().expect("a game in progress");
        let me = g.my_color();
        g.me = Some(me);
        g.board.set_side_to_move(me);
        (g.board.clone(), limits, exclude)
    }

    /// Search limits for an answer to a command read at `received`: time from the clock,
    /// depth and nodes as set.
    pub(super) fn limits(&mut self, received: Instant) -> Limits {
        let empty = self.game.as_ref().map_or(0, Game::empty_squares);
        Limits {
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes,
            budget: Some(self.clock.budget(empty, received)),
            skip_threats: false,
        }
    }

    /// [`Session::limits`] for the Yixin-Board steps it shows no "thinking" for and offers
    /// no stop (Swap2 step 1, the Soosorv steps): under its levels other than the custom
    /// one (`INFO timeout_turn 2000000`: no time limit, a node limit or the person's stop
    /// ends a search) these get at most [`UNWATCHED_MS`].
    pub(super) fn unwatched_limits(&mut self, received: Instant) -> Limits {
        let mut limits = self.limits(received);
        if self.clock.clock.turn_ms == YIXIN_LEVEL_TURN_MS {
            let cap = Duration::from_millis(UNWATCHED_MS).saturating_sub(received.elapsed());
            limits.budget = limits.budget.map(|b| time::Budget {
                soft: b.soft.min(cap),
                hard: b.hard.min(cap),
            });
        }
        limits
    }

    /// Plays our move: `p` if it is legal for us, else the best legal square we can find.
    pub(super) fn play_own(&mut self, p: Pos) {
        let exclude = self.exclusions();
        let Some(g) = self.game.as_mut() else { return };
        let me = g.my_color();
        match legal_or_fallback(g, p, me, &exclude) {
            Some(q) => {
                g.board.make_color(q, me);
                g.me = Some(me);
                self.reply(&reply::move_line(q));
            }
            None => {
                self.error("no empty square left to play");
            }
        }
    }

    /// Whether `stones`, played one after another on `board`, are all legal moves (the
    /// squares come from searches of this board; they are checked all the same). The
    /// board is a copy the caller keeps only when they are.
    pub(super) fn legal_stones(board: &mut Board, stones: &[Pos]) -> bool {
        stones.iter().all(|&p| {
            let legal = board.has_square(p) && board.is_empty(p) && rules::is_legal(board, p);
            if legal {
                board.make(p);
            }
            legal
        })
    }

    /// Squares of the current board from a list of coordinates.
    pub(super) fn squares_of(&self, stones: &[(i64, i64)]) -> Result<Vec<Pos>, String> {
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        stones
            .iter()
            .map(|&(x, y)| {
                g.board
                    .pos(x, y)
                    .ok_or_else(|| format!("{x},{y} is outside the {} board", self.names().size()))
            })
            .collect()
    }

    /// `INFO rule`: the game goes on under the new rule, its moves replayed.
    pub(super) fn set_rule(&mut self, rule: Rule) -> Result<(), String> {
        if let Some(g) = self.game.as_mut() {
            if g.board.rule() != rule {
                g.board = replay(&g.board, rule, None)?;
            }
        }
        self.rule = rule;
        Ok(())
    }

    /// Starts pondering ([`crate::gomocup::ponder`]) on the position after our move, when
    /// `INFO pondering` is on, our move was the last one played and the game goes on.
    pub fn start_pondering(&mut self) {
        if !self.settings.ponder || self.pondering.is_some() {
            return;
        }
        let Some(g) = self.game.as_ref() else { return };
        let ours = g
            .board
            .history()
            .last()
            .is_some_and(|m| Some(m.color) == g.me);
        if !ours || g.empty_squares() < 2 || rules::game_end(&g.board).is_some() {
            return;
        }
        let mut board = g.board.clone();
        board.set_side_to_move(g.my_color().opp());
        self.pondering = Ponder::start(self.engine.clone(), board);
    }

    /// Stops pondering, if it runs, and waits until the engine is free.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.pondering.take() {
            p.stop();
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

/// `p` if it is a legal move for `me` in `g` and not excluded; otherwise the first legal
/// square from the move generator's candidates, then from the whole board (nearest the
/// centre first), relaxing the exclusions and finally the renju fouls only if nothing
/// else is left. `None` when the board has no empty square.
fn legal_or_fallback(g: &mut Game, p: Pos, me: Color, exclude: &[Pos]) -> Option<Pos> {
    let walls = g.walls.clone();
    let b = &mut g.board;
    b.set_side_to_move(me);
    let usable = |b: &mut Board, q: Pos, avoid: &[Pos], fouls: bool| {
        b.has_square(q)
            && b.is_empty(q)
            && !walls.contains(&q)
            && !avoid.contains(&q)
            && (!fouls || me != Color::Black || !rules::is_forbidden(b, q))
    };
    if usable(b, p, exclude, true) {
        return Some(p);
    }
    log::warn!("the search answered {p:?}, which is not a legal move here; choosing another");
    let centre = b.center();
    let mut squares: Vec<Pos> = multipv::candidates(b, exclude);
    let mut rest: Vec<Pos> = b.squares().collect();
    rest.sort_by_key(|q| {
        (
            q.x().abs_diff(centre.x()).max(q.y().abs_diff(centre.y())),
            q.idx(),
        )
    });
    squares.extend(rest);
    for (avoid, fouls) in [(exclude, true), (&[][..], true), (&[][..], false)] {
        if let Some(&q) = squares.iter().find(|&&q| usable(b, q, avoid, fouls)) {
            return Some(q);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_avoids_fouls_walls_and_exclusions() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        b.make(Pos::new(7, 7));
        let mut g = Game::new(b);
        g.walls.push(Pos::new(7, 8));
        // Pos::NONE and a padding square are not moves.
        let q = legal_or_fallback(&mut g, Pos::NONE, Color::White, &[]).unwrap();
        assert!(g.board.is_empty(q) && q != Pos::new(7, 8));
        let q = legal_or_fallback(&mut g, Pos(3), Color::White, &[]).unwrap();
        assert!(g.board.has_square(q));
        // An excluded square is replaced while another exists.
        let ex = [Pos::new(8, 8)];
        assert_ne!(
            legal_or_fallback(&mut g, Pos::new(8, 8), Color::White, &ex),
            Some(Pos::new(8, 8))
        );
        assert_eq!(
            legal_or_fallback(&mut g, Pos::new(8, 8), Color::White, &[]),
            Some(Pos::new(8, 8))
        );
    }
}
