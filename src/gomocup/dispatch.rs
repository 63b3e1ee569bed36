//! What the session does with each whole command: [`Session::handle`] takes the
//! [`Request`]s the framer made of a line and dispatches them; the game's own commands
//! (`START`, `TURN`, `PLAY`, `TAKEBACK`, `BOARD`, `BEGIN`, …) and the `INFO` settings are
//! carried out here, the others in the rooms named after them.
//!
//! Bad input never changes the game: a command is checked completely before the board is
//! touched, and errors are answered with `ERROR …` (or `UNKNOWN …` for commands the
//! engine does not know). `INFO` errors wait for the next other command, so that a
//! manager reading one reply per command reads them in order.

use crate::analysis::multipv;
use crate::analysis::strength;
use crate::core::board::Board;
use crate::core::rules;
use crate::core::time::Instant;
use crate::core::types::{Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::engine::memory::{Cap, MAX_HASH_BYTES};
use crate::engine::{Engine, StopToken};
use crate::gomocup::command::{clean, Command, Framed, Request};
use crate::gomocup::hashfile;
use crate::gomocup::output::{lines_reported, Reporter};
use crate::gomocup::reply::{self, fmt_bytes, one_line, plural};
use crate::gomocup::session::{replay, Answer, Flow, Game, Job, Session};
use crate::gomocup::settings::Setting;

impl Session {
    /// Applies one input line.
    pub fn handle_line(&mut self, line: &str, received: Instant) -> Flow {
        let framed = self.frame(line);
        self.handle(framed, received)
    }

    /// Takes one input line into the framer: the whole commands it completed.
    pub fn frame(&mut self, line: &str) -> Framed {
        log::debug!("< {line}");
        self.framer.push(line)
    }

    /// Applies the whole commands one line completed (the flow of the last one). A line
    /// that opened a command the next lines complete is a command too: the lines about
    /// earlier `INFO` settings come out before it, as before any other command.
    pub fn handle(&mut self, framed: Framed, received: Instant) -> Flow {
        if framed.opened {
            self.flush_pending();
        }
        let mut flow = Flow::Continue;
        for request in framed.requests {
            flow = self.request(request, received);
            if !matches!(flow, Flow::Continue) {
                break;
            }
        }
        flow
    }

    fn request(&mut self, request: Request, received: Instant) -> Flow {
        if !matches!(
            request,
            Request::Line(Command::Info { .. } | Command::Empty)
        ) {
            self.flush_pending();
        }
        let transposed = self.gui.transposed();
        let flow = match request {
            Request::Line(command) => self.command(command, received),
            Request::Block { command, stones } => self.block(command, stones, received),
            Request::BadBlock { name, error } => {
                self.error(&format!("{name}: {error}; nothing changed"))
            }
            Request::CutShort { name, line } => self.error(&format!(
                "{name} ended by '{line}' before DONE; nothing changed"
            )),
        };
        if self.gui.transposed() != transposed {
            self.follow_square_meaning();
        }
        flow
    }

    /// A command whole on its line.
    fn command(&mut self, cmd: Command, received: Instant) -> Flow {
        match cmd {
            Command::Empty => Flow::Continue,
            Command::Start {
                width,
                height,
                pair,
            } => {
                self.gui.start_pair = pair;
                self.start("START", width, height)
            }
            Command::RectStart { width, height } => self.start("RECTSTART", width, height),
            Command::Restart => match &self.game {
                Some(g) => {
                    let (w, h) = (g.board.width(), g.board.height());
                    self.new_game(w, h)
                }
                None => self.error("RESTART: no game to restart; send START first"),
            },
            Command::Begin => match self.game.as_mut() {
                Some(g) => {
                    g.me = Some(g.board.side_to_move());
                    self.think_move(received)
                }
                None => self.error("BEGIN: no game; send START first"),
            },
            Command::Turn(x, y) => self.turn(x, y, received),
            Command::Play(x, y) => self.play(x, y),
            Command::Takeback(x, y) => self.takeback(x, y),
            // The framer hands these over with their blocks (Request::Block); one without
            // is a block with no squares.
            cmd @ (Command::Board { .. }
            | Command::Swap2Board
            | Command::Block { .. }
            | Command::BlockPath { .. }
            | Command::Database(_)) => self.block(cmd, Vec::new(), received),
            Command::BlockReset => self.reset_blocks(),
            Command::BlockPathReset => self.reset_block_paths(),
            Command::Forbid { add, x, y, side } => self.forbid(add, x, y, side),
            Command::Info { key, value } => {
                if let Err(e) = Setting::parse(&key, &value).and_then(|s| self.set(s)) {
                    self.pending.push(format!("ERROR {e}"));
                }
                Flow::Continue
            }
            Command::End => Flow::Quit,
            Command::About => {
                self.reply(&reply::about_line(&reply::ABOUT));
                Flow::Continue
            }
            // Nothing is running: nothing to stop.
            Command::Stop => Flow::Continue,
            Command::ShowForbid => self.show_forbid(),
            Command::HashClear => {
                self.engine().clear_hash();
                Flow::Continue
            }
            Command::ShowInfo => self.show_info(),
            Command::NBest(n) => self.nbest(n, received),
            Command::SearchDefend => self.search_defend(received),
            Command::Swap2Step(step) => self.swap2_step(step, received),
            Command::Balance { two, bias } => self.balance(two, bias, received),
            Command::Soosorv { step, n } => self.soosorv(step, n, &[], received),
            Command::ShowHashUsage => {
                let (permille, bytes) = {
                    let e = self.engine();
                    (e.hash_usage(), e.hash_bytes())
                };
                self.reply(&format!(
                    "MESSAGE Hash usage: {}.{}% of {} (transposition table)",
                    permille / 10,
                    permille % 10,
                    fmt_bytes(bytes)
                ));
                Flow::Continue
            }
            Command::SetDatabase(path) => self.set_database(&path),
            Command::HashFile { dump, path } => self.hash_file(dump, &path),
            Command::SaveDatabase => self.save_database(),
            Command::DbCheck => self.db_check(),
            Command::DbFix => self.db_fix(),
            Command::DbFile { cmd, path } => self.db_file(cmd, &path),
            Command::Draw => self.draw(received),
            Command::Resign => self.resign(),
            Command::PrintFeature => self.print_features(),
            Command::Malformed { name, reason } => self.error(&format!("{name}: {reason}")),
            Command::StrayDone => self.error("DONE without BOARD"),
            Command::Unknown(word) => {
                self.reply(&format!("UNKNOWN command '{word}'"));
                Flow::Continue
            }
        }
    }

    /// A command with the squares of its block.
    fn block(
        &mut self,
        command: Command,
        stones: Vec<(i64, i64, Option<i64>)>,
        received: Instant,
    ) -> Flow {
        let squares: Vec<(i64, i64)> = stones.iter().map(|&(x, y, _)| (x, y)).collect();
        match command {
            Command::Board { think } => {
                let name = if think { "BOARD" } else { "YXBOARD" };
                match self.position(&stones) {
                    Ok(game) => {
                        self.game = Some(game);
                        if think {
                            self.think_move(received)
                        } else {
                            Flow::Continue
                        }
                    }
                    Err(e) => self.error(&format!("{name}: {e}; nothing changed")),
                }
            }
            Command::Swap2Board => self.swap2_board(&squares, received),
            Command::Soosorv { step, n } => self.soosorv(step, n, &squares, received),
            Command::BlockPath { undo } => self.block_path(undo, &squares),
            Command::Block { undo } => self.exclude(undo, &squares),
            Command::Database(cmd) => self.database(&cmd, &squares),
            // The framer opens blocks for the commands above only, and `command` hands
            // over no other.
            _ => Flow::Continue,
        }
    }

    /// `YXSHOWINFO`: the engine's name and what the GUI may set.
    fn show_info(&mut self) -> Flow {
        self.gui.showinfo = true;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.reply(&format!(
            "MESSAGE {} {}",
            reply::ABOUT.name,
            reply::ABOUT.version
        ));
        self.reply(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
        // Yixin-Board sends INFO hash_size 2^k kilobytes for k up to this.
        let max_k = (MAX_HASH_BYTES / 1024).ilog2();
        self.reply(&format!("MESSAGE INFO MAX_HASH_SIZE {max_k}"));
        Flow::Continue
    }

    fn start(&mut self, name: &str, width: i64, height: i64) -> Flow {
        let range = MIN_SIZE as i64..=MAX_SIZE as i64;
        if !range.contains(&width) || !range.contains(&height) {
            let size = if width == height {
                width.to_string()
            } else {
                format!("{width}x{height}")
            };
            return self.error(&format!(
                "{name}: board size {size} is not supported (sides {MIN_SIZE} to {MAX_SIZE})"
            ));
        }
        // Yixin-Board's squares are row,column: w columns and h rows are h in the engine's
        // x and w in its y.
        if self.gui.transposed() {
            self.new_game(height as usize, width as usize)
        } else {
            self.new_game(width as usize, height as usize)
        }
    }

    fn new_game(&mut self, width: usize, height: usize) -> Flow {
        match Board::new(width, height, self.rule) {
            Ok(b) => {
                self.game = Some(Game::new(b));
                self.clock.new_game();
                self.reply("OK");
                Flow::Continue
            }
            Err(e) => self.error(&e),
        }
    }

    /// The empty square at `x,y` of the current game, or why there is none.
    fn free_square(&self, x: i64, y: i64) -> Result<Pos, String> {
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        let p = g
            .board
            .pos(x, y)
            .ok_or_else(|| format!("{x},{y} is outside the {} board", self.names().size()))?;
        if !g.board.is_empty(p) || g.walls.contains(&p) {
            return Err(format!("{x},{y} is not empty"));
        }
        Ok(p)
    }

    fn turn(&mut self, x: i64, y: i64, received: Instant) -> Flow {
        let p = match self.free_square(x, y) {
            Ok(p) => p,
            Err(e) => return self.error(&format!("TURN: {e}")),
        };
        let Some(g) = self.game.as_mut() else {
            return Flow::Continue;
        };
        // Unknown colours (a new game): the opponent is the side to move.
        let theirs = g.me.map_or(g.board.side_to_move(), Color::opp);
        g.board.make_color(p, theirs);
        g.me = Some(theirs.opp());
        self.think_move(received)
    }

    fn play(&mut self, x: i64, y: i64) -> Flow {
        let p = match self.free_square(x, y) {
            Ok(p) => p,
            Err(e) => return self.error(&format!("PLAY: {e}")),
        };
        let Some(g) = self.game.as_mut() else {
            return Flow::Continue;
        };
        let me = g.my_color();
        g.board.make_color(p, me);
        g.me = Some(me);
        self.reply(&reply::move_line(p));
        Flow::Continue
    }

    fn takeback(&mut self, x: i64, y: i64) -> Flow {
        let Some(g) = self.game.as_mut() else {
            return self.error("TAKEBACK: no game; send START first");
        };
        let Some(p) = g.board.pos(x, y) else {
            let size = self.names().size();
            return self.error(&format!("TAKEBACK: {x},{y} is outside the {size} board"));
        };
        let Some(i) = g.board.history().iter().rposition(|m| m.pos == p) else {
            return self.error(&format!("TAKEBACK: there is no stone at {x},{y}"));
        };
        if i + 1 == g.board.move_count() {
            g.board.unmake();
        } else {
            let color = g.board.history()[i].color;
            match replay(&g.board, g.board.rule(), Some(i)) {
                Ok(mut b) => {
                    b.set_side_to_move(color);
                    g.board = b;
                }
                Err(e) => return self.error(&format!("TAKEBACK: {e}")),
            }
        }
        self.reply("OK");
        Flow::Continue
    }

    /// Our move in the current game: the database's, or a search (below full strength,
    /// `INFO strength`, a weaker choice among the best lines).
    fn think_move(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_mut() else {
            return Flow::Continue;
        };
        if g.empty_squares() == 0 {
            return self.error("no empty square left to play");
        }
        if let Some(p) = self.book_move() {
            self.clock.forget_move();
            self.play_own(p);
            return Flow::Continue;
        }
        let (board, limits, exclude) = self.our_turn(received);
        if self.settings.strength < strength::FULL {
            let (level, seed) = (self.settings.strength, self.settings.next_seed());
            let search = move |e: &mut Engine, rep: &Reporter, stop: &StopToken| {
                let p = strength::play(e, &board, &limits, &exclude, level, seed, stop, &mut |l| {
                    rep.lines(&l.lines, l.nodes, l.elapsed)
                });
                log::debug!("strength {level}: {p:?}");
                Answer::play(p)
            };
            return Flow::Think(Job::new(search, Answer::play(Pos::NONE)).our_move());
        }
        let search = move |e: &mut Engine, rep: &Reporter, stop: &StopToken| {
            let avoid = !exclude.is_empty()
                && multipv::candidates(&board, &[])
                    .iter()
                    .any(|p| exclude.contains(p));
            if avoid {
                // Some candidate moves are excluded: search the others side by side.
                let want = multipv::Want {
                    n: 1,
                    exclude: &exclude,
                    widen: false,
                };
                let lines = lines_reported(e, &board, &want, &limits, stop, rep);
                return Answer::play(lines.lines.first().map_or(Pos::NONE, |l| l.mv));
            }
            let r = if rep.realtime {
                e.think_observed(
                    &board,
                    &limits,
                    stop,
                    &mut |i| rep.info(i),
                    Some(&mut |m| rep.root_move(m)),
                )
            } else {
                e.think(&board, &limits, stop, &mut |i| rep.info(i))
            };
            Answer::searched(r.best, r.score, r.depth)
        };
        Flow::Think(Job::new(search, Answer::play(Pos::NONE)).our_move())
    }

    /// The game a `BOARD` block describes. Field 1 marks our stones, 2 the opponent's,
    /// 3 continuous-game marks (squares nobody may play). Black is the side with more
    /// stones, or we are when both have as many; we are to move. Stones are placed in the
    /// order given, so under renju (where the manager sends them in move order) the
    /// board's history is the game's.
    fn position(&self, stones: &[(i64, i64, Option<i64>)]) -> Result<Game, String> {
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        let (w, h) = (g.board.width(), g.board.height());
        let size = self.names().size();
        let mut board = Board::new(w, h, self.rule)?;
        let mut seen: Vec<Pos> = Vec::with_capacity(stones.len());
        let mut placed: Vec<(Pos, i64)> = Vec::with_capacity(stones.len());
        for &(x, y, field) in stones {
            let p = board
                .pos(x, y)
                .ok_or_else(|| format!("{x},{y} is outside the {size} board"))?;
            let f = match field {
                Some(f @ 1..=3) => f,
                Some(f) => return Err(format!("{x},{y},{f}: the field must be 1, 2 or 3")),
                None => {
                    return Err(format!(
                        "{x},{y}: the field is missing (expected x,y,field)"
                    ))
                }
            };
            if seen.contains(&p) {
                return Err(format!("{x},{y} is given twice"));
            }
            seen.push(p);
            placed.push((p, f));
        }
        let own = placed.iter().filter(|s| s.1 == 1).count();
        let theirs = placed.iter().filter(|s| s.1 == 2).count();
        let me = if own >= theirs {
            Color::Black
        } else {
            Color::White
        };
        let mut walls = Vec::new();
        for &(p, f) in &placed {
            match f {
                1 => board.make_color(p, me),
                2 => board.make_color(p, me.opp()),
                _ => walls.push(p),
            }
        }
        board.set_side_to_move(me);
        Ok(Game {
            board,
            me: Some(me),
            walls,
        })
    }

    fn show_forbid(&mut self) -> Flow {
        let Some(g) = &self.game else {
            return self.error("YXSHOWFORBID: no game; send START first");
        };
        let mut b = g.board.clone();
        let squares: Vec<Pos> = rules::forbidden_squares(&mut b)
            .into_iter()
            .filter(|p| !g.walls.contains(p))
            .collect();
        self.reply(&reply::forbid_line(&squares));
        Flow::Continue
    }

    /// `YXHASHDUMP` (`dump`) / `YXHASHLOAD`: the table to or from the file at `path`,
    /// for the current rule and board size ([`hashfile`]). Answers with a message, or an
    /// error that leaves the table as it was.
    fn hash_file(&mut self, dump: bool, path: &str) -> Flow {
        let name = if dump { "YXHASHDUMP" } else { "YXHASHLOAD" };
        let (w, h) = self.size();
        let context = hashfile::context(self.rule, w, h);
        let file = std::path::Path::new(path);
        let (memory, threads) = (self.settings.memory, self.settings.threads);
        let result = {
            let mut e = self.engine();
            // The table at the size the next search will use, so a load is not lost to
            // a resize. (The restrictions wait for the next search: handing them over
            // here would empty the table before a dump when they changed.)
            e.configure(memory, threads);
            if dump {
                hashfile::dump(&e, file, context)
            } else {
                hashfile::load(&mut e, file, context)
            }
        };
        match result {
            Ok(n) if dump => {
                self.reply(&format!(
                    "MESSAGE Transposition table dumped: {} ({n} entries)",
                    one_line(path)
                ));
                Flow::Continue
            }
            Ok(n) => {
                self.reply(&format!(
                    "MESSAGE Transposition table loaded from {} ({n} entries)",
                    one_line(path)
                ));
                Flow::Continue
            }
            Err(e) => {
                log::warn!("{name} {path}: {e}");
                let rest = if dump { "" } else { "; the table is unchanged" };
                self.error(&format!("{name}: {}{rest}", one_line(&e)))
            }
        }
    }

    /// Applies one `INFO` setting.
    pub(super) fn set(&mut self, setting: Setting) -> Result<(), String> {
        match setting {
            Setting::TurnTime(ms) => self.clock.clock.turn_ms = ms,
            Setting::MatchTime(ms) => self.clock.clock.match_ms = ms,
            Setting::TimeLeft(ms) => self.clock.time_left(ms),
            Setting::Memory { limit, text } => {
                self.settings.memory = limit;
                self.plan_memory(Some(&text));
            }
            Setting::Threads(n) => {
                self.settings.threads = n;
                self.plan_memory(None);
            }
            Setting::Rule(rule) => self.set_rule(rule)?,
            Setting::MaxNodes(n) => self.settings.max_nodes = n,
            Setting::MaxDepth(d) => self.settings.max_depth = d,
            Setting::ShowDetail(v) => self.gui.show_detail = v,
            Setting::SquareNames(n) => self.gui.square_names = n,
            Setting::VcThread => self.gui.vcthread = true,
            Setting::Pondering(on) => self.settings.ponder = on,
            Setting::Strength(s) => self.settings.strength = s,
            Setting::UseDatabase(on) => self.book.use_db = on,
            Setting::DatabaseReadonly(on) => self.book.readonly = on,
            Setting::Param {
                name,
                min,
                max,
                value,
            } => {
                let mut e = self.engine();
                let mut p = e.params().clone();
                let set = p.set(name, value)?;
                e.set_params(p);
                drop(e);
                if set != value {
                    self.pending.push(format!(
                        "MESSAGE INFO {name}: {value} is outside {min}..{max}, set to {set}"
                    ));
                }
            }
            Setting::Ignored => {}
        }
        Ok(())
    }

    /// Hands the engine the memory limit and the threads asked for now, when the manager
    /// sets them and no clock runs, so that a table is made (and an old one freed) before
    /// any search ([`crate::engine::Engine::configure`]; the limits of each search do it
    /// again, and then change nothing). When `setting` (the `INFO` line that set the
    /// memory) gave more than the engine uses, a `MESSAGE` says what it uses and why.
    pub(super) fn plan_memory(&mut self, setting: Option<&str>) {
        let plan = self
            .engine()
            .configure(self.settings.memory, self.settings.threads);
        let (Some(setting), Some(cap)) = (setting, plan.cap) else {
            return;
        };
        let why = match cap {
            Cap::Machine(have) => format!(
                "more than this machine has ({})",
                fmt_bytes(usize::try_from(have).unwrap_or(usize::MAX))
            ),
            Cap::Largest => format!(
                "more than the largest table the engine makes ({})",
                fmt_bytes(MAX_HASH_BYTES as usize)
            ),
            Cap::Refused => "more than the system grants this process".to_string(),
        };
        self.pending.push(format!(
            "MESSAGE {}: {why}; using a {} transposition table and {}",
            clean(setting),
            fmt_bytes(plan.table_bytes),
            plural(plan.threads, "search thread")
        ));
    }
}
