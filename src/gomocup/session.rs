//! One protocol session: the game as the manager described it, the options it set, and
//! the loop that reads commands, runs searches on a worker thread and writes replies.
//!
//! Threads:
//! - a reader turns input bytes into lines (invalid UTF-8 converted lossily, CR and LF
//!   both end a line, over-long lines cut) and sends them into a channel;
//! - the main loop takes lines from the channel one at a time and applies them to the
//!   [`Session`] ([`Session::handle_line`]); commands that need a search become a job;
//! - a job runs on a worker thread that owns the engine for its duration, while the main
//!   loop keeps reading: `END` exits at once, `STOP`/`YXSTOP` make the search answer with
//!   its best move so far, and every other line waits until the answer is written. Each
//!   job has its own [`StopToken`], made before the worker starts and raised once by
//!   `END`, `STOP` or `YXSTOP`; the engine never clears it, so a stop that arrives
//!   before the search has started, or between the searches of one job (`YXNBEST`,
//!   `SWAP2BOARD`), still ends it. The clock is the search's own limit;
//! - with `INFO pondering 1`, after our move, once nothing is waiting, the engine
//!   searches on in the background ([`crate::gomocup::ponder`]) until the next line, which
//!   stops it before it is handled (a database query does not; after an `INFO` setting it
//!   starts again once nothing is waiting);
//! - every output line goes through one [`Output`], which writes it with its line end in
//!   one piece and flushes it.
//!
//! The session keeps no engine resources of its own: before each search it hands the
//! engine the manager's `INFO max_memory` (or `hash_size`) and `thread_num`, and the engine
//! plans its table and threads under them ([`Engine::configure`]).
//!
//! Yixin-Board's block paths (`YXBLOCKPATH`, `YXBLOCKPATHUNDO`, `YXBLOCKPATHRESET`) and
//! forbidden points (`YXFORBID`) are kept here as one
//! [`crate::engine::restrict::Restrictions`], handed to the engine before each search
//! ([`Engine::set_restrictions`]); the squares they rule out in the current position join
//! the `YXBLOCK` squares our answer avoids.
//!
//! Yixin-Board's command-box requests answer in messages and leave the game as it is:
//! `YXDRAW` (the person offers a draw: a short search of the position decides, see
//! [`DRAW_MARGIN`]), `YXRESIGN` (the person resigns: the engine names the winner) and
//! `YXPRINTFEATURE` (the evaluation's view of the position, [`crate::gomocup::features`]).
//!
//! Bad input never changes the game: a command is checked completely before the board is
//! touched, and errors are answered with `ERROR …` (or `UNKNOWN …` for commands the
//! engine does not know).

use crate::analysis::multipv::{self, Line};
use crate::analysis::{balance, defend, soosorv, strength, swap2};
use crate::book::store::{self, Database, Key, Record};
use crate::book::transfer;
use crate::core::board::Board;
use crate::core::rules;
use crate::core::types::is_mate;
use crate::core::types::{
    format_score, Color, Pos, Rule, Score, MATE, MATE_BOUND, MAX_SIZE, MIN_SIZE, PAD, STRIDE,
};
use crate::engine::memory::{Cap, MemoryLimit, MAX_HASH_BYTES};
use crate::engine::params::{self, Params};
use crate::engine::restrict::Restrictions;
use crate::engine::search::{Info, Limits, RootMove, MAX_DEPTH};
use crate::engine::time::{self, Clock};
use crate::engine::tt::BUCKET_BYTES;
use crate::engine::{Engine, StopToken, MAX_THREADS};
use crate::gomocup::ponder::Ponder;
use crate::gomocup::protocol::DbCommand;
use crate::gomocup::protocol::{
    self, clean, one_line, plural, BlockLine, Command, Names, Progress, Realtime,
};
use crate::gomocup::{features, hashfile};
use anyhow::Result;
use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Longest time accepted from `INFO timeout_turn`, `timeout_match` and `time_left` (about
/// 35 years; larger values mean the same and would overflow the time arithmetic).
pub const MAX_TIME_MS: u64 = 1 << 40;
/// Most lines `YXNBEST` reports.
pub const MAX_NBEST: i64 = 64;
/// Input lines longer than this are cut (the rest of the line is dropped).
pub const MAX_LINE_BYTES: usize = 64 << 10;
/// `INFO timeout_turn` of Yixin-Board's levels other than the custom one (33 minutes):
/// no time limit meant.
const YIXIN_LEVEL_TURN_MS: u64 = 2_000_000;
/// Most time for a Yixin-Board step it shows no thinking for, under those levels.
const UNWATCHED_MS: u64 = 10_000;
/// The Soosorv step commands, by step.
const SOOSORV_NAMES: [&str; 6] = [
    "YXSOOSORVSTEP1",
    "YXSOOSORVSTEP2",
    "YXSOOSORVSTEP3",
    "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5",
    "YXSOOSORVSTEP6",
];
/// `INFO square_names` values.
const NAMES_PLAIN: u8 = 0;
const NAMES_TRANSPOSED: u8 = 1;
const NAMES_AUTO: u8 = 2;
/// Stack size of the search thread.
const SEARCH_STACK_BYTES: usize = 16 << 20;
/// `YXDRAW`: the engine accepts a draw when its search gives its own side at most this
/// score (evaluation units; 50 is a win chance of about 56% on the curve of
/// [`protocol::win_rate`]), and declines it when its side stands better than that.
pub const DRAW_MARGIN: Score = 50;
/// `YXDRAW`: the longest the decision's search takes (less under a short turn limit:
/// a quarter of the move's time).
const DRAW_SEARCH_MS: u64 = 1000;

/// Where replies go: each line is written with its line end in one piece and flushed.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    broken: AtomicBool,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
            broken: AtomicBool::new(false),
        }
    }

    /// Writes one line (the line end is added).
    pub fn line(&self, text: &str) {
        log::debug!("> {text}");
        let mut buf = Vec::with_capacity(text.len() + 1);
        buf.extend_from_slice(text.as_bytes());
        buf.push(b'\n');
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        if sink.write_all(&buf).and_then(|()| sink.flush()).is_err() {
            self.broken.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a write failed (the manager closed its end).
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::SeqCst)
    }
}

/// What the main loop does after a line.
pub enum Flow {
    Continue,
    Quit,
    /// Run this search, then continue.
    Think(Box<Job>),
}

/// A search to run on the worker thread.
pub enum Job {
    /// Our move in `board` (side to move = us), never on an `exclude` square if avoidable.
    Move {
        board: Board,
        limits: Limits,
        exclude: Vec<Pos>,
    },
    /// Our move at a strength below full (`INFO strength`; [`strength::play`]), with
    /// the seed of its random choice.
    Weak {
        board: Board,
        limits: Limits,
        exclude: Vec<Pos>,
        strength: u8,
        seed: u64,
    },
    /// The `n` best moves as messages, then the best as our move.
    NBest {
        board: Board,
        limits: Limits,
        n: usize,
        exclude: Vec<Pos>,
    },
    /// A Swap2 decision for `board` (0, 3 or 5 stones).
    Swap2 { board: Board, limits: Limits },
    /// Yixin-Board's Swap2 step 1, 2 or 3 for `board` (0, 3 or 5 stones).
    Swap2Step {
        step: u8,
        board: Board,
        limits: Limits,
    },
    /// `YXSEARCHDEFEND`: the defences against the opponent's threat, searched side by
    /// side; the best is then our move.
    Defend {
        board: Board,
        limits: Limits,
        exclude: Vec<Pos>,
    },
    /// Yixin-Board's Soosorv step `step` for `board` (its stones in move order), with
    /// the number of fifth moves `n` (steps 4, 5) or black's `offers` (step 6).
    Soosorv {
        step: u8,
        board: Board,
        n: usize,
        offers: Vec<Pos>,
        limits: Limits,
    },
    /// `YXBALANCEONE` / `YXBALANCETWO`.
    Balance {
        board: Board,
        limits: Limits,
        two: bool,
        bias: i64,
        exclude: Vec<Pos>,
    },
    /// `YXDRAW`: a short silent search of `board` (its side to move as it is) decides
    /// whether the engine, playing `me`, accepts the person's offer of a draw.
    Draw {
        board: Board,
        limits: Limits,
        me: Color,
    },
}

/// What a job found.
pub enum Answer {
    /// Our move (`Pos::NONE` if the search had none).
    Move(Pos),
    /// Our move as a full search of the position found it, with its score and depth
    /// (stored in the position database when one is in use).
    Searched(Pos, Score, i32),
    Swap2(Result<swap2::Reply, String>),
    /// Yixin-Board's Swap2 step, the position it decided on, and its decision.
    Swap2Step(u8, Box<Board>, Result<swap2::Reply, String>),
    /// A Soosorv step, the position it decided on, and its decision.
    Soosorv(u8, Box<Board>, Result<soosorv::Reply, String>),
    /// The balancing move(s), the first one the side to move's.
    Balance(Result<Vec<Pos>, String>),
    /// Nothing to play: a line to write (`YXDRAW`'s `MESSAGE draw: …`). The main loop
    /// writes it, so that it comes out once the job is over, as a move would.
    Said(String),
}

impl Job {
    /// The answer to give if the worker fails.
    fn failed(&self) -> Answer {
        match self {
            Job::Move { .. } | Job::Weak { .. } | Job::NBest { .. } | Job::Defend { .. } => {
                Answer::Move(Pos::NONE)
            }
            Job::Swap2 { .. } => Answer::Swap2(Err("the search failed".into())),
            Job::Swap2Step { step, board, .. } => Answer::Swap2Step(
                *step,
                Box::new(board.clone()),
                Err("the search failed".into()),
            ),
            Job::Balance { .. } => Answer::Balance(Err("the search failed".into())),
            Job::Draw { .. } => Answer::Said("MESSAGE draw: declined (the search failed)".into()),
            Job::Soosorv { step, board, .. } => Answer::Soosorv(
                *step,
                Box::new(board.clone()),
                Err("the search failed".into()),
            ),
        }
    }
}

enum Event {
    Line(String, Instant),
    Eof,
    Done(Answer),
}

/// The position of the current game.
struct Game {
    board: Board,
    /// Our colour, once known.
    me: Option<Color>,
    /// Squares nobody may play (`BOARD` field 3: continuous-game marks).
    walls: Vec<Pos>,
}

impl Game {
    fn new(board: Board) -> Game {
        Game {
            board,
            me: None,
            walls: Vec::new(),
        }
    }
    /// Our colour: as known, else the side to move.
    fn my_color(&self) -> Color {
        self.me.unwrap_or(self.board.side_to_move())
    }
    fn empty_squares(&self) -> usize {
        (self.board.width() * self.board.height())
            .saturating_sub(self.board.move_count() + self.walls.len())
    }
}

/// An open block of lines ending with `DONE`.
enum Block {
    Board {
        think: bool,
        stones: Vec<(i64, i64, Option<i64>)>,
        error: Option<String>,
    },
    Swap2 {
        stones: Vec<(i64, i64)>,
        error: Option<String>,
    },
    Exclude {
        undo: bool,
        stones: Vec<(i64, i64)>,
        error: Option<String>,
    },
    /// `YXBLOCKPATH` / `YXBLOCKPATHUNDO`: a path of moves from the empty board.
    Path {
        undo: bool,
        stones: Vec<(i64, i64)>,
        error: Option<String>,
    },
    Soosorv {
        step: u8,
        n: i64,
        stones: Vec<(i64, i64)>,
        error: Option<String>,
    },
    Database {
        cmd: DbCommand,
        stones: Vec<(i64, i64)>,
        error: Option<String>,
    },
}

impl Block {
    fn name(&self) -> &str {
        match self {
            Block::Board { think: true, .. } => "BOARD",
            Block::Board { think: false, .. } => "YXBOARD",
            Block::Swap2 { .. } => "SWAP2BOARD",
            Block::Exclude { undo: false, .. } => "YXBLOCK",
            Block::Exclude { undo: true, .. } => "YXBLOCKUNDO",
            Block::Path { undo: false, .. } => "YXBLOCKPATH",
            Block::Path { undo: true, .. } => "YXBLOCKPATHUNDO",
            Block::Soosorv { step, .. } => SOOSORV_NAMES[usize::from(*step - 1)],
            Block::Database { cmd, .. } => cmd.name(),
        }
    }
    fn error_slot(&mut self) -> &mut Option<String> {
        match self {
            Block::Board { error, .. }
            | Block::Swap2 { error, .. }
            | Block::Exclude { error, .. }
            | Block::Path { error, .. }
            | Block::Soosorv { error, .. }
            | Block::Database { error, .. } => error,
        }
    }
}

/// Whether `p` is a square of the board (also for positions that are not on any board).
fn on_board(b: &Board, p: Pos) -> bool {
    let (col, row) = (p.idx() % STRIDE, p.idx() / STRIDE);
    col >= PAD && row >= PAD && col - PAD < b.width() && row - PAD < b.height()
}

/// Replays a board's moves, each in its colour, on a new board with `rule`, leaving out the
/// move at `skip`; the side to move is kept.
fn replay(board: &Board, rule: Rule, skip: Option<usize>) -> Result<Board, String> {
    let mut b = Board::new(board.width(), board.height(), rule)?;
    for (i, m) in board.history().iter().enumerate() {
        if Some(i) != skip {
            b.make_color(m.pos, m.color);
        }
    }
    b.set_side_to_move(board.side_to_move());
    Ok(b)
}

/// Reports search progress as messages.
struct Reporter {
    out: Arc<Output>,
    /// `INFO show_detail` not 0: the thinking messages as Yixin-Board shows them.
    detail: bool,
    /// `INFO show_detail` bit 1: Yixin-Board's realtime markers (`MESSAGE REALTIME …`).
    realtime: bool,
    /// `INFO show_detail` bit 2: Yixin-Board 3's per-line `INFO PV …` blocks.
    info: bool,
    names: Names,
    /// Root moves were marked (`REALTIME POS`/`DONE`) since the last depth's report:
    /// that report starts with `REALTIME REFRESH`.
    marked: Cell<bool>,
}

impl Reporter {
    fn message(&self, text: &str) {
        self.out.line(&format!("MESSAGE {text}"));
    }

    fn info(&self, info: &Info) {
        let p = Progress::from_info(info);
        if self.detail {
            self.out.line(&protocol::detail_line(&p, &self.names));
        } else {
            self.out.line(&protocol::progress_line(&p, &self.names));
        }
        if self.info && !info.pv.is_empty() {
            for l in protocol::info_lines(0, 1, &p) {
                self.out.line(&l);
            }
        }
        if self.realtime {
            if self.marked.replace(false) {
                self.out.line(protocol::REALTIME_REFRESH);
            }
            if let Some(&m) = info.pv.first() {
                self.out.line(&protocol::realtime_best_line(m));
            }
        }
    }

    /// A single search's progress through its root moves (only asked for with the
    /// realtime markers on): `POS` as the search enters a move, `DONE` as it leaves it,
    /// then `LOSE` for a move proven to lose or `BEST` for a new best move.
    fn root_move(&self, m: RootMove) {
        self.marked.set(true);
        match m {
            RootMove::Enter { pos, .. } => {
                self.out.line(&protocol::realtime_line(Realtime::Pos, pos));
            }
            RootMove::Leave {
                pos, score, best, ..
            } => {
                self.out.line(&protocol::realtime_line(Realtime::Done, pos));
                if is_mate(score) && score < 0 {
                    self.out.line(&protocol::realtime_line(Realtime::Lose, pos));
                } else if best {
                    self.out.line(&protocol::realtime_best_line(pos));
                }
            }
        }
    }

    fn lines(&self, lines: &[Line], nodes: u64, elapsed: Duration) {
        for (k, l) in lines.iter().enumerate() {
            let p = Progress {
                multipv: Some(k + 1),
                depth: l.depth,
                seldepth: l.seldepth,
                score: l.score,
                nodes,
                elapsed,
                pv: &l.pv,
            };
            if self.detail {
                self.out.line(&protocol::detail_line(&p, &self.names));
            } else {
                self.out.line(&protocol::progress_line(&p, &self.names));
            }
            if self.info {
                for i in protocol::info_lines(k, lines.len(), &p) {
                    self.out.line(&i);
                }
            }
        }
        if self.realtime && !lines.is_empty() {
            // Every listed move was searched to this depth: marked as searched, those
            // proven to lose as lost, and the best.
            self.out.line(protocol::REALTIME_REFRESH);
            for l in lines {
                self.out.line(&protocol::realtime_line(Realtime::Pos, l.mv));
                self.out
                    .line(&protocol::realtime_line(Realtime::Done, l.mv));
                if is_mate(l.score) && l.score < 0 {
                    self.out
                        .line(&protocol::realtime_line(Realtime::Lose, l.mv));
                }
            }
            self.out.line(&protocol::realtime_best_line(lines[0].mv));
        }
    }
}

/// Runs a job on the engine (on the worker thread).
fn work(engine: &mut Engine, job: Job, rep: &Reporter, stop: &StopToken) -> Answer {
    match job {
        Job::Move {
            board,
            limits,
            exclude,
        } => {
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
                let lines = lines_reported(engine, &board, &want, &limits, stop, rep);
                Answer::Move(lines.lines.first().map_or(Pos::NONE, |l| l.mv))
            } else {
                let r = if rep.realtime {
                    engine.think_observed(
                        &board,
                        &limits,
                        stop,
                        &mut |i| rep.info(i),
                        Some(&mut |m| rep.root_move(m)),
                    )
                } else {
                    engine.think(&board, &limits, stop, &mut |i| rep.info(i))
                };
                Answer::Searched(r.best, r.score, r.depth)
            }
        }
        Job::Weak {
            board,
            limits,
            exclude,
            strength,
            seed,
        } => {
            let p = strength::play(
                engine,
                &board,
                &limits,
                &exclude,
                strength,
                seed,
                stop,
                &mut |l| rep.lines(&l.lines, l.nodes, l.elapsed),
            );
            log::debug!("strength {strength}: {p:?}");
            Answer::Move(p)
        }
        Job::NBest {
            board,
            limits,
            n,
            exclude,
        } => {
            let want = multipv::Want {
                n,
                exclude: &exclude,
                widen: false,
            };
            let lines = lines_reported(engine, &board, &want, &limits, stop, rep);
            Answer::Move(lines.lines.first().map_or(Pos::NONE, |l| l.mv))
        }
        Job::Swap2 { board, limits } => Answer::Swap2(swap2::decide(engine, &board, &limits, stop)),
        Job::Swap2Step {
            step,
            board,
            limits,
        } => {
            let reply = swap2::decide(engine, &board, &limits, stop);
            Answer::Swap2Step(step, Box::new(board), reply)
        }
        Job::Soosorv {
            step,
            board,
            n,
            offers,
            limits,
        } => {
            let reply = soosorv::decide(engine, step, &board, n, &offers, &limits, stop);
            Answer::Soosorv(step, Box::new(board), reply)
        }
        Job::Defend {
            board,
            limits,
            exclude,
        } => search_defend(engine, &board, &limits, &exclude, rep, stop),
        Job::Balance {
            board,
            limits,
            two,
            bias,
            exclude,
        } => {
            let bias = bias.clamp(-i64::from(MATE_BOUND) + 1, i64::from(MATE_BOUND) - 1) as Score;
            match balance::balance(engine, &board, two, bias, &exclude, &limits, stop) {
                Some(b) => {
                    rep.message(&format!(
                        "balance: {} leaves {} for the side to move (aim {bias}, depth {})",
                        protocol::pv_text(&b.moves, &rep.names),
                        format_score(b.score),
                        b.depth
                    ));
                    Answer::Balance(Ok(b.moves))
                }
                None => Answer::Balance(Err("no legal move".into())),
            }
        }
        Job::Draw { board, limits, me } => {
            let r = engine.think(&board, &limits, stop, &mut |_| {});
            let ours = if board.side_to_move() == me {
                r.score
            } else {
                -r.score
            };
            Answer::Said(format!("MESSAGE {}", draw_answer(ours, r.depth)))
        }
    }
}

/// The answer to `YXDRAW` for the engine's score `ours` from a search to `depth`:
/// accepted unless the engine's side stands better than [`DRAW_MARGIN`].
fn draw_answer(ours: Score, depth: i32) -> String {
    let verdict = if ours <= DRAW_MARGIN {
        "accepted"
    } else {
        "declined"
    };
    format!(
        "draw: {verdict} (score {} for the engine, depth {depth})",
        format_score(ours)
    )
}

/// A multi-line analysis ([`multipv::best_lines`]) that reports its lines after every
/// depth, and its final lines too when no depth was reported with them (a position
/// decided at the first depth, or a search stopped after it).
fn lines_reported(
    engine: &mut Engine,
    board: &Board,
    want: &multipv::Want,
    limits: &Limits,
    stop: &StopToken,
    rep: &Reporter,
) -> multipv::Lines {
    let mut last: Option<Vec<Line>> = None;
    let lines = multipv::best_lines(engine, board, want, limits, stop, &mut |l| {
        rep.lines(&l.lines, l.nodes, l.elapsed);
        last = Some(l.lines.clone());
    });
    if !lines.lines.is_empty() && last.as_ref() != Some(&lines.lines) {
        rep.lines(&lines.lines, lines.nodes, lines.elapsed);
    }
    lines
}

/// `YXSEARCHDEFEND`: finds the opponent's threat and the moves that stop it (a third of
/// the time), says so in messages, searches those moves side by side (the rest of the
/// time) and answers with the best of them.
fn search_defend(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    exclude: &[Pos],
    rep: &Reporter,
    stop: &StopToken,
) -> Answer {
    let start = Instant::now();
    let found = defend::defences(
        board,
        exclude,
        defend::solving_deadline(limits, start),
        stop,
    );
    let names = |v: &[Pos]| protocol::pv_text(v, &rep.names);
    let threat = match &found.threat {
        defend::Threat::Vcf(line) => format!("the opponent has a VCF: {}", names(line)),
        defend::Threat::Vct(line) => format!("the opponent has a VCT: {}", names(line)),
        defend::Threat::None => "no forced win found for the opponent".to_string(),
    };
    let moves = if found.moves.is_empty() {
        rep.message(&format!(
            "defend: {threat}; no move stops it, every move searched"
        ));
        multipv::candidates(board, exclude)
    } else {
        let what = if found.threat == defend::Threat::None {
            "moves"
        } else {
            "defences"
        };
        rep.message(&format!(
            "defend: {threat}; {} {what}: {}",
            found.moves.len(),
            names(&found.moves)
        ));
        found.moves
    };
    // Everything else is left out of the search.
    let mut others: Vec<Pos> = board
        .squares()
        .filter(|&p| board.is_empty(p) && !moves.contains(&p))
        .collect();
    others.extend_from_slice(exclude);
    let want = multipv::Want {
        n: moves.len().clamp(1, MAX_NBEST as usize),
        exclude: &others,
        widen: true,
    };
    let rest = Limits {
        budget: limits.budget.map(|b| {
            let spent = start.elapsed();
            time::Budget {
                soft: b.soft.saturating_sub(spent),
                hard: b.hard.saturating_sub(spent),
            }
        }),
        ..limits.clone()
    };
    let lines = lines_reported(engine, board, &want, &rest, stop, rep);
    Answer::Move(
        lines
            .lines
            .first()
            .map_or_else(|| moves.first().copied().unwrap_or(Pos::NONE), |l| l.mv),
    )
}

/// The clock of one search for an answer, as [`Session::limits`] planned it: when its
/// command was read, what the manager's last `time_left` said (where it was sent since the
/// previous answer) and the hard limit allowed from that moment.
#[derive(Copy, Clone, Debug)]
struct MovePlan {
    received: Instant,
    left_ms: Option<u64>,
    hard_ms: u64,
}

/// The state of one protocol session.
pub struct Session {
    out: Arc<Output>,
    engine: Arc<Mutex<Engine>>,
    game: Option<Game>,
    rule: Rule,
    clock: Clock,
    /// Thinking time used since the last `INFO time_left` (or since the game started if
    /// the manager sends none).
    spent_ms: u64,
    /// What the manager charges for each move beyond the engine's thinking, learnt from
    /// its `time_left` reports.
    overhead: time::Overhead,
    /// The clock of the search now being set up or run, for [`Session::overhead`].
    plan: Option<MovePlan>,
    max_depth: Option<i32>,
    max_nodes: Option<u64>,
    /// `INFO show_detail`: messages for GUIs that display the engine's thinking (not 0),
    /// Yixin-Board's realtime markers (bit 1) and its per-line `INFO` blocks (bit 2).
    show_detail: u64,
    /// `INFO square_names`: 0 plain names, 1 transposed (the squares Yixin-Board means),
    /// 2 (the default) transposed once the GUI has shown itself to be Yixin-Board.
    names_mode: u8,
    /// The GUI sent `YXSHOWINFO` (Yixin-Board does at start-up, and so do other tools
    /// that want Rapfi's GUI messages).
    showinfo: bool,
    /// The GUI sent `INFO vcthread`, a setting of Yixin-Board's (for the Yixin engine),
    /// which it sends at start-up (`init_engine`) and other tools do not.
    vcthread: bool,
    /// The last `START` gave two sizes (`START w h`), as Yixin-Board 2 always does.
    start_pair: bool,
    /// `INFO max_memory` or `INFO hash_size`, whichever came last: the engine plans its
    /// table and threads under it before each search ([`Engine::configure`]).
    memory: MemoryLimit,
    /// Search threads asked for (`INFO thread_num`, else every core); fewer run when
    /// `INFO max_memory` has no room for them (see [`crate::engine::memory::MemoryPlan`]).
    threads: usize,
    /// Lines about `INFO` commands (`ERROR …`, or a `MESSAGE` that a search parameter
    /// was held to its range) waiting for the next other command, in order.
    pending: Vec<String>,
    block: Option<Block>,
    /// `YXBLOCK` squares: never our answer if there is another move.
    excluded: Vec<Pos>,
    /// `YXBLOCKPATH` paths and `YXFORBID` points: moves every search leaves out (kept
    /// across games, like `YXBLOCK` squares, until `YXBLOCKPATHRESET` / `YXFORBID del`).
    restrict: Restrictions,
    /// The position database (`YXSETDATABASE`), if one is open.
    db: Option<Database>,
    /// `INFO usedatabase` (default 1): play stored moves and store results.
    use_db: bool,
    /// `INFO database_readonly`: store nothing.
    db_readonly: bool,
    /// The text of a `YXEDITTEXTDATABASE` whose closing quote has not come yet.
    text_acc: Option<String>,
    /// The next non-blank line is the path of a `YXSETDATABASE`.
    db_path_next: bool,
    /// The next non-blank line is the path of this database file command.
    db_file_next: Option<protocol::DbFile>,
    /// The next non-blank line is the path of a `YXHASHDUMP` (`Some(true)`) or
    /// `YXHASHLOAD` (`Some(false)`).
    hash_path_next: Option<bool>,
    /// `INFO pondering` (default off): search on after our move until the next line.
    ponder: bool,
    /// `INFO strength`, 0 to 100 (the default: full strength, the normal search).
    strength: u8,
    /// Seeds the random choices of play below full strength.
    seed: u64,
    /// The pondering search running now, if any ([`crate::gomocup::ponder`]).
    pondering: Option<Ponder>,
}

impl Session {
    pub fn new(out: Arc<Output>) -> Session {
        // The table gets its real size before the first search, once the manager has had
        // the chance to send its memory limit.
        let engine = Engine::new(BUCKET_BYTES);
        Session {
            out,
            engine: Arc::new(Mutex::new(engine)),
            game: None,
            rule: Rule::Freestyle,
            clock: Clock::default(),
            spent_ms: 0,
            overhead: time::Overhead::default(),
            plan: None,
            max_depth: None,
            max_nodes: None,
            show_detail: 0,
            names_mode: NAMES_AUTO,
            showinfo: false,
            vcthread: false,
            start_pair: false,
            memory: MemoryLimit::Default,
            // Every core unless the manager says otherwise (INFO thread_num).
            threads: crate::engine::default_threads(),
            pending: Vec::new(),
            block: None,
            excluded: Vec::new(),
            restrict: Restrictions::default(),
            db: None,
            use_db: true,
            db_readonly: false,
            text_acc: None,
            db_path_next: false,
            db_file_next: None,
            hash_path_next: None,
            ponder: false,
            pondering: None,
            strength: strength::FULL,
            seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id()).rotate_left(32),
        }
    }

    /// Whether squares are Yixin-Board's `row,column` (its own `y,x`): the engine's `x`
    /// is then the GUI's row, and a board of `w` columns and `h` rows is `h` wide in the
    /// engine's `x` and `w` tall in its `y` ([`Session::start`]).
    fn transposed(&self) -> bool {
        match self.names_mode {
            NAMES_PLAIN => false,
            NAMES_TRANSPOSED => true,
            _ => self.showinfo && self.vcthread,
        }
    }

    /// Whether the GUI is Yixin-Board 2 (accreator/Yixin-Board 2.x): Yixin-Board, whose
    /// `START` lines carry two sizes. Its `init_engine` and every `send_board` send
    /// `START w h` / `start w h`, even for a square board; Yixin-Board 3 sends `START n`.
    /// It cannot read the database loading and saving markers (`MESSAGE DATABASE LOAD
    /// …`, `SAVE …`): it takes them for a square's record and crashes.
    fn yixin_board_2(&self) -> bool {
        self.showinfo && self.vcthread && self.start_pair
    }

    /// How the human-readable output names squares now.
    fn names(&self) -> Names {
        let (width, height) = self
            .game
            .as_ref()
            .map_or((15, 15), |g| (g.board.width(), g.board.height()));
        Names {
            width,
            height,
            transpose: self.transposed(),
        }
    }

    /// After the squares' meaning changed (Yixin-Board identified itself after its first
    /// `START`, or `INFO square_names`): a rectangular board turns round, so that it has
    /// the shape the GUI meant. The stones stay on their squares (`x,y` as sent) if they
    /// all fit; otherwise the board is emptied (the GUI sends its position before it
    /// asks for anything).
    fn follow_square_meaning(&mut self) {
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

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn reply(&self, line: &str) {
        self.out.line(line);
    }

    fn error(&self, message: &str) -> Flow {
        self.out.line(&format!("ERROR {message}"));
        Flow::Continue
    }

    /// Applies one input line.
    pub fn handle_line(&mut self, line: &str, received: Instant) -> Flow {
        log::debug!("< {line}");
        if self.db_path_next && !line.trim().is_empty() {
            self.db_path_next = false;
            return self.set_database(line.trim());
        }
        if let Some(cmd) = self.db_file_next.filter(|_| !line.trim().is_empty()) {
            self.db_file_next = None;
            return self.db_file(cmd, line.trim());
        }
        if self.hash_path_next.is_some() && !line.trim().is_empty() {
            let dump = self.hash_path_next.take().unwrap_or_default();
            return self.hash_file(dump, line.trim());
        }
        if let Some(mut text) = self.text_acc.take() {
            text.push('\n');
            text.push_str(line.trim_end_matches(['\r', '\n']));
            return self.edit_text(text);
        }
        if self.block.is_none() {
            let t = line.trim_start();
            let head = "YXEDITTEXTDATABASE";
            if t.len() >= head.len()
                && t.is_char_boundary(head.len())
                && t[..head.len()].eq_ignore_ascii_case(head)
            {
                let rest = &t[head.len()..];
                if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                    for line in std::mem::take(&mut self.pending) {
                        self.reply(&line);
                    }
                    return self.edit_text(rest.trim_end_matches(['\r', '\n']).to_string());
                }
            }
        }
        if self.block.is_some() {
            return self.block_line(line, received);
        }
        self.command(protocol::parse(line), received)
    }

    fn block_line(&mut self, line: &str, received: Instant) -> Flow {
        match protocol::parse_block_line(line) {
            BlockLine::Empty => Flow::Continue,
            BlockLine::Done => match self.block.take() {
                Some(block) => self.end_block(block, received),
                None => Flow::Continue,
            },
            BlockLine::Stone { x, y, field } => {
                match &mut self.block {
                    Some(Block::Board { stones, .. }) => stones.push((x, y, field)),
                    Some(
                        Block::Swap2 { stones, .. }
                        | Block::Exclude { stones, .. }
                        | Block::Path { stones, .. }
                        | Block::Soosorv { stones, .. }
                        | Block::Database { stones, .. },
                    ) => stones.push((x, y)),
                    _ => {}
                }
                Flow::Continue
            }
            BlockLine::Bad(message) => match protocol::parse(line) {
                Command::Unknown(_) | Command::Empty => {
                    if let Some(slot) = self.block.as_mut().map(Block::error_slot) {
                        slot.get_or_insert(message);
                    }
                    Flow::Continue
                }
                Command::End => Flow::Quit,
                cmd => {
                    // A command before DONE: the block was cut short.
                    let name = self
                        .block
                        .take()
                        .map(|b| b.name().to_string())
                        .unwrap_or_default();
                    self.error(&format!(
                        "{name} ended by '{}' before DONE; nothing changed",
                        clean(line.trim())
                    ));
                    self.command(cmd, received)
                }
            },
        }
    }

    fn command(&mut self, cmd: Command, received: Instant) -> Flow {
        let transposed = self.transposed();
        let flow = self.command_inner(cmd, received);
        if self.transposed() != transposed {
            self.follow_square_meaning();
        }
        flow
    }

    fn command_inner(&mut self, cmd: Command, received: Instant) -> Flow {
        if !matches!(cmd, Command::Info { .. } | Command::Empty) {
            for line in std::mem::take(&mut self.pending) {
                self.reply(&line);
            }
        }
        match cmd {
            Command::Empty => Flow::Continue,
            Command::Start {
                width,
                height,
                pair,
            } => {
                self.start_pair = pair;
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
            Command::Board { think } => {
                self.block = Some(Block::Board {
                    think,
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
            Command::Swap2Board => {
                self.block = Some(Block::Swap2 {
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
            Command::Block { undo } => {
                self.block = Some(Block::Exclude {
                    undo,
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
            Command::BlockReset => {
                self.excluded.clear();
                Flow::Continue
            }
            Command::BlockPath { undo } => {
                self.block = Some(Block::Path {
                    undo,
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
            Command::BlockPathReset => {
                let n = self.restrict.clear_paths();
                self.reply(&format!(
                    "MESSAGE blockpath: {} removed (0 in all)",
                    plural(n, "path")
                ));
                Flow::Continue
            }
            Command::Forbid { add, x, y, side } => self.forbid(add, x, y, side),
            Command::Info { key, value } => {
                if let Err(e) = self.info(&key, &value) {
                    self.pending.push(format!("ERROR {e}"));
                }
                Flow::Continue
            }
            Command::End => Flow::Quit,
            Command::About => {
                self.reply(&protocol::about_line(&protocol::ABOUT));
                Flow::Continue
            }
            // Nothing is running: nothing to stop.
            Command::Stop => Flow::Continue,
            Command::ShowForbid => self.show_forbid(),
            Command::HashClear => {
                self.engine().clear_hash();
                Flow::Continue
            }
            Command::ShowInfo => {
                self.showinfo = true;
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.reply(&format!(
                    "MESSAGE {} {}",
                    protocol::ABOUT.name,
                    protocol::ABOUT.version
                ));
                self.reply(&format!("MESSAGE INFO MAX_THREAD_NUM {threads}"));
                // Yixin-Board sends INFO hash_size 2^k kilobytes for k up to this.
                let max_k = (MAX_HASH_BYTES / 1024).ilog2();
                self.reply(&format!("MESSAGE INFO MAX_HASH_SIZE {max_k}"));
                Flow::Continue
            }
            Command::NBest(n) => self.nbest(n, received),
            Command::SearchDefend => self.search_defend(received),
            Command::Swap2Step(step) => self.swap2_step(step, received),
            Command::Balance { two, bias } => self.balance(two, bias, received),
            Command::Soosorv { step: 1, .. } => self.soosorv(1, 0, &[], received),
            Command::Soosorv { step, n } => {
                self.block = Some(Block::Soosorv {
                    step,
                    n,
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
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
            Command::Database(cmd) => {
                self.block = Some(Block::Database {
                    cmd,
                    stones: Vec::new(),
                    error: None,
                });
                Flow::Continue
            }
            Command::SetDatabase(path) => {
                if path.is_empty() {
                    self.db_path_next = true;
                    Flow::Continue
                } else {
                    self.set_database(&path)
                }
            }
            Command::HashFile { dump, path } => {
                if path.is_empty() {
                    self.hash_path_next = Some(dump);
                    Flow::Continue
                } else {
                    self.hash_file(dump, &path)
                }
            }
            Command::SaveDatabase => self.save_database(),
            Command::DbCheck => self.db_check(),
            Command::DbFix => {
                for l in crate::gomocup::dbfile::fix(self.db.as_mut(), self.db_readonly) {
                    self.reply(&l);
                }
                Flow::Continue
            }
            Command::DbFile { cmd, path } if path.is_empty() => {
                self.db_file_next = Some(cmd);
                Flow::Continue
            }
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
        if self.transposed() {
            self.new_game(height as usize, width as usize)
        } else {
            self.new_game(width as usize, height as usize)
        }
    }

    fn new_game(&mut self, width: usize, height: usize) -> Flow {
        match Board::new(width, height, self.rule) {
            Ok(b) => {
                self.game = Some(Game::new(b));
                if self.clock.left_ms.is_none() {
                    self.spent_ms = 0;
                }
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
        self.reply(&protocol::move_line(p));
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

    /// Starts the search for our move in the current game.
    fn think_move(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_mut() else {
            return Flow::Continue;
        };
        if g.empty_squares() == 0 {
            return self.error("no empty square left to play");
        }
        if let Some(p) = self.book_move() {
            self.overhead.forget_move();
            self.play_own(p);
            return Flow::Continue;
        }
        let (board, limits, exclude) = self.our_turn(received);
        if self.strength < strength::FULL {
            self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            return Flow::Think(Box::new(Job::Weak {
                board,
                limits,
                exclude,
                strength: self.strength,
                seed: self.seed,
            }));
        }
        Flow::Think(Box::new(Job::Move {
            board,
            limits,
            exclude,
        }))
    }

    /// The database's move for the current position, when one is open and in use and it
    /// holds a move it trusts: a person's choice, a proven win or loss, or a result at
    /// least as deep as `INFO max_depth` asks for. The move must be legal and not blocked.
    fn book_move(&mut self) -> Option<Pos> {
        if !self.use_db {
            return None;
        }
        let exclude = self.exclusions();
        let db = self.db.as_ref()?;
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
        let deep = self.max_depth.is_some_and(|d| rec.depth >= d);
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
    fn store_result(&mut self, p: Pos, score: Score, depth: i32) {
        if !self.use_db || self.db_readonly || p.is_none() {
            return;
        }
        let (Some(db), Some(g)) = (self.db.as_mut(), self.game.as_ref()) else {
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

    /// Reads a `YXEDITTEXTDATABASE` line (and, while its quoted text is open, the lines
    /// after it): once the closing quote has come, the block of moves starts, its first
    /// move on the same line as the quote (Yixin-Board sends no line break there).
    fn edit_text(&mut self, text: String) -> Flow {
        const MAX_TEXT: usize = 1 << 20;
        match protocol::parse_quoted(&text) {
            None if text.len() > MAX_TEXT => {
                self.error("YXEDITTEXTDATABASE: the text is over 1 MiB or its closing quote is missing; nothing changed")
            }
            None => {
                self.text_acc = Some(text);
                Flow::Continue
            }
            Some((body, tail)) => {
                let tail = tail.to_string();
                self.block = Some(Block::Database {
                    cmd: DbCommand::EditText(body),
                    stones: Vec::new(),
                    error: None,
                });
                if tail.trim().is_empty() {
                    Flow::Continue
                } else {
                    self.block_line(&tail, Instant::now())
                }
            }
        }
    }

    /// `YXSETDATABASE`: opens the file, with Yixin-Board 3's loading markers around it
    /// (none for Yixin-Board 2, which cannot read them: [`Session::yixin_board_2`]). A
    /// file that cannot be used is reported (`ERROR` and stderr) and the engine goes on
    /// without a database.
    fn set_database(&mut self, path: &str) -> Flow {
        self.db = None;
        // Yixin-Board 2 has no loading dialog: it would take the markers for a square's
        // record and crash.
        let markers = !self.yixin_board_2();
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
                self.db = Some(db);
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
    fn save_database(&mut self) -> Flow {
        let Some(db) = self.db.as_mut() else {
            return self.error("YXSAVEDATABASE: no database; send YXSETDATABASE first");
        };
        let path = db.path().display().to_string();
        let result = db.checkpoint();
        if !self.yixin_board_2() {
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
    fn db_file(&mut self, cmd: protocol::DbFile, path: &str) -> Flow {
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
        let lines = crate::gomocup::dbfile::run(self.db.as_mut(), self.db_readonly, cmd, path, &at);
        for l in &lines {
            self.reply(l);
        }
        Flow::Continue
    }

    /// `YXDBCHECK`: SQLite's integrity check of the file, as messages.
    fn db_check(&mut self) -> Flow {
        let Some(db) = self.db.as_ref() else {
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
        let (w, h) = self
            .game
            .as_ref()
            .map_or((15, 15), |g| (g.board.width(), g.board.height()));
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
        let Some(db) = self.db.as_mut() else {
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
        if writes && self.db_readonly {
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
                                bound: match r.bound {
                                    store::BOUND_UPPER => store::BOUND_LOWER,
                                    store::BOUND_LOWER => store::BOUND_UPPER,
                                    b => b,
                                },
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
                        let bound = rec.bound;
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
                    lines.push(format!(
                        "MESSAGE DATABASE TEXT {}",
                        protocol::quote_text(&t)
                    ));
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
                        rec.bound
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
                out.line(&format!(
                    "MESSAGE DATABASE TEXT {}",
                    protocol::quote_text(&t)
                ));
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
                        if r.bound == store::BOUND_NONE {
                            r.bound = store::BOUND_EXACT;
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

    /// Makes the engine the side to move in the current game and gives what a search of
    /// it needs: the board, the limits (time counted from `received`) and the squares
    /// the GUI blocked. The caller has checked that a game with an empty square exists.
    fn our_turn(&mut self, received: Instant) -> (Board, Limits, Vec<Pos>) {
        let exclude = self.exclusions();
        let limits = self.limits(received);
        let g = self.game.as_mut().expect("a game in progress");
        let me = g.my_color();
        g.me = Some(me);
        g.board.set_side_to_move(me);
        (g.board.clone(), limits, exclude)
    }

    fn nbest(&mut self, n: i64, received: Instant) -> Flow {
        if n < 1 {
            return self.error(&format!(
                "YXNBEST: {n} is not a number of moves (1 or more)"
            ));
        }
        let Some(g) = self.game.as_mut() else {
            return self.error("YXNBEST: no game; send START first");
        };
        if g.empty_squares() == 0 {
            return self.error("YXNBEST: no empty square left to play");
        }
        let (board, limits, exclude) = self.our_turn(received);
        Flow::Think(Box::new(Job::NBest {
            board,
            limits,
            n: n.min(MAX_NBEST) as usize,
            exclude,
        }))
    }

    /// `YXSEARCHDEFEND`: the side to move's defences, searched; the best is our move.
    fn search_defend(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXSEARCHDEFEND: no game; send START first");
        };
        if g.empty_squares() == 0 {
            return self.error("YXSEARCHDEFEND: no empty square left to play");
        }
        let (board, limits, exclude) = self.our_turn(received);
        Flow::Think(Box::new(Job::Defend {
            board,
            limits,
            exclude,
        }))
    }

    /// `YXDRAW`: the person offers a draw. With no move left to play (a full board, or
    /// only renju fouls for the side to move) the engine accepts at once; on a board with
    /// a five the game is over and nothing is decided; otherwise a short search of the
    /// position as it stands decides ([`DRAW_MARGIN`]): a quarter of the move's time, at
    /// most [`DRAW_SEARCH_MS`], stopped by `STOP`/`YXSTOP` like any search. Nothing in
    /// the game changes, and the time is not counted against the engine's clock.
    fn draw(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXDRAW: no game; send START first");
        };
        match rules::game_end(&g.board) {
            Some(rules::GameEnd::Five(c, _)) => {
                self.reply(&format!(
                    "MESSAGE draw: the game is over ({} has five); nothing to decide",
                    c.name()
                ));
                return Flow::Continue;
            }
            Some(_) => {
                self.reply("MESSAGE draw: accepted (no move is left to play)");
                return Flow::Continue;
            }
            None if g.empty_squares() == 0 => {
                self.reply("MESSAGE draw: accepted (no move is left to play)");
                return Flow::Continue;
            }
            None => {}
        }
        let me = g.my_color();
        let board = g.board.clone();
        let mut limits = self.limits(received);
        let cap = Duration::from_millis(DRAW_SEARCH_MS);
        limits.budget = limits.budget.map(|b| {
            let t = (b.hard / 4).min(cap);
            time::Budget { soft: t, hard: t }
        });
        Flow::Think(Box::new(Job::Draw { board, limits, me }))
    }

    /// `YXRESIGN`: the person resigns; the engine's side wins. The message names the
    /// winner; pondering stops (the line has already stopped it, and nothing starts it
    /// again before the next move of ours); the board is kept, so the person may take
    /// moves back or go on. The position database records no games' results (only
    /// searched moves and a person's edits), so nothing is written there either.
    fn resign(&mut self) -> Flow {
        self.stop_pondering();
        let Some(g) = self.game.as_ref() else {
            return self.error("YXRESIGN: no game; send START first");
        };
        let me = g.my_color();
        self.reply(&format!(
            "MESSAGE resign: {} resigns, {} ({}) wins",
            me.opp().name(),
            me.name(),
            protocol::ABOUT.name
        ));
        Flow::Continue
    }

    /// `YXPRINTFEATURE`: the evaluation's view of the position ([`features::lines`]).
    fn print_features(&mut self) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXPRINTFEATURE: no game; send START first");
        };
        let lines = features::lines(&g.board, &g.walls, &self.names(), self.engine().params());
        for l in lines {
            self.reply(&l);
        }
        Flow::Continue
    }

    /// `YXBALANCEONE` / `YXBALANCETWO` on the current position.
    fn balance(&mut self, two: bool, bias: i64, received: Instant) -> Flow {
        let name = if two { "YXBALANCETWO" } else { "YXBALANCEONE" };
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        if g.empty_squares() < if two { 2 } else { 1 } {
            return self.error(&format!("{name}: not enough empty squares left"));
        }
        let (board, limits, exclude) = self.our_turn(received);
        Flow::Think(Box::new(Job::Balance {
            board,
            limits,
            two,
            bias,
            exclude,
        }))
    }

    /// Yixin-Board's Swap2 steps. Step 1 starts from an empty board (the GUI sends no
    /// position); steps 2 and 3 take the position of the last `YXBOARD`, which must hold
    /// 3 or 5 stones, in move order from black.
    fn swap2_step(&mut self, step: u8, received: Instant) -> Flow {
        let name = format!("YXSWAP2STEP{step}");
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        let (w, h) = (g.board.width(), g.board.height());
        let mut board = match Board::new(w, h, self.rule) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        if step > 1 {
            let want = if step == 2 { 3 } else { 5 };
            let n = g.board.move_count();
            if n != want {
                return self.error(&format!(
                    "{name}: {n} stones on the board; this step needs {want} (send YXBOARD first)"
                ));
            }
            for m in g.board.history() {
                board.make(m.pos);
            }
        }
        let limits = if step == 1 {
            self.unwatched_limits(received)
        } else {
            self.limits(received)
        };
        Flow::Think(Box::new(Job::Swap2Step {
            step,
            board,
            limits,
        }))
    }

    /// Yixin-Board's Soosorv steps: step 1 on an empty board, the others on the stones
    /// given (in move order, black first; for step 6 the first four, the rest being
    /// black's offered fifth moves), `n` fifth moves for steps 4 and 5.
    fn soosorv(&mut self, step: u8, n: i64, stones: &[(i64, i64)], received: Instant) -> Flow {
        let name = SOOSORV_NAMES[usize::from(step - 1)];
        let squares = match self.squares_of(stones) {
            Ok(s) => s,
            Err(e) => return self.error(&format!("{name}: {e}; nothing changed")),
        };
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        let n = if step == 4 || step == 5 {
            if !(1..=soosorv::MAX_FIFTHS as i64).contains(&n) {
                return self.error(&format!(
                    "{name}: {n} is not a number of fifth moves (1 to {})",
                    soosorv::MAX_FIFTHS
                ));
            }
            n as usize
        } else {
            0
        };
        let want = match step {
            1 => 0,
            2 | 3 => 3,
            _ => 4,
        };
        let enough = if step == 6 {
            squares.len() > want
        } else {
            squares.len() == want
        };
        if !enough {
            let more = if step == 6 {
                "4 and the offered fifth moves"
            } else {
                ""
            };
            let need = if step == 6 {
                more.to_string()
            } else {
                want.to_string()
            };
            return self.error(&format!(
                "{name}: {} stones given; this step needs {need}",
                squares.len()
            ));
        }
        let mut board = match Board::new(g.board.width(), g.board.height(), self.rule) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        for (i, (&p, &(x, y))) in squares.iter().zip(stones).enumerate() {
            let taken = if i < want {
                !board.is_empty(p)
            } else {
                !board.is_empty(p) || squares[want..i].contains(&p)
            };
            if taken {
                return self.error(&format!("{name}: {x},{y} is given twice; nothing changed"));
            }
            if i < want {
                board.make(p);
            }
        }
        let offers = squares[want.min(squares.len())..].to_vec();
        let limits = self.unwatched_limits(received);
        Flow::Think(Box::new(Job::Soosorv {
            step,
            board,
            n,
            offers,
            limits,
        }))
    }

    /// Squares our answer avoids: continuous-game marks, `YXBLOCK` squares, and the
    /// squares block paths and forbidden points rule out for us in the current position.
    fn exclusions(&self) -> Vec<Pos> {
        let mut v = self.excluded.clone();
        if let Some(g) = &self.game {
            v.extend_from_slice(&g.walls);
            if !self.restrict.is_empty() {
                let mut b = g.board.clone();
                b.set_side_to_move(g.my_color());
                for p in self.restrict.ruled_out(&b) {
                    if !v.contains(&p) {
                        v.push(p);
                    }
                }
            }
        }
        v
    }

    /// Search limits for a move: time from the clock (less the time since the command
    /// could be read), depth and nodes as set. Also hands the engine the memory limit and
    /// the threads asked for, so that it sizes its table and threads before the search.
    fn limits(&mut self, received: Instant) -> Limits {
        let (memory, threads) = (self.memory, self.threads);
        {
            let mut e = self.engine();
            e.configure(memory, threads);
            e.set_restrictions(&self.restrict);
        }
        let empty = self.game.as_ref().map_or(0, Game::empty_squares);
        let left = match self.clock.left_ms {
            Some(l) => Some(l.saturating_sub(self.spent_ms)),
            None if self.clock.match_ms > 0 => {
                Some(self.clock.match_ms.saturating_sub(self.spent_ms))
            }
            None => None,
        };
        let clock = Clock {
            left_ms: left,
            ..self.clock
        };
        let mut budget = time::budget(&clock, empty, self.overhead.per_move_ms());
        self.plan = Some(MovePlan {
            received,
            left_ms: self.clock.left_ms.filter(|_| self.spent_ms == 0),
            hard_ms: budget.hard.as_millis() as u64,
        });
        let waited = received.elapsed();
        budget.soft = budget.soft.saturating_sub(waited);
        budget.hard = budget.hard.saturating_sub(waited);
        Limits {
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            budget: Some(budget),
            skip_threats: false,
        }
    }

    /// Hands the engine the memory limit and the threads asked for now, when the manager
    /// sets them and no clock runs, so that a table is made (and an old one freed) before
    /// any search ([`Engine::configure`]; [`Session::limits`] does it again, and then
    /// changes nothing). When `setting` (the `INFO` line that set the memory) gave more
    /// than the engine uses, a `MESSAGE` says what it uses and why.
    fn plan_memory(&mut self, setting: Option<&str>) {
        let plan = self.engine().configure(self.memory, self.threads);
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

    /// [`Session::limits`] for the Yixin-Board steps it shows no "thinking" for and offers
    /// no stop (Swap2 step 1, the Soosorv steps): under its levels other than the custom
    /// one (`INFO timeout_turn 2000000`: no time limit, a node limit or the person's stop
    /// ends a search) these get at most [`UNWATCHED_MS`].
    fn unwatched_limits(&mut self, received: Instant) -> Limits {
        let mut limits = self.limits(received);
        if self.clock.turn_ms == YIXIN_LEVEL_TURN_MS {
            let cap = Duration::from_millis(UNWATCHED_MS).saturating_sub(received.elapsed());
            limits.budget = limits.budget.map(|b| time::Budget {
                soft: b.soft.min(cap),
                hard: b.hard.min(cap),
            });
        }
        limits
    }

    fn info(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = || -> Result<i128, String> {
            value
                .trim()
                .parse::<i128>()
                .map_err(|_| format!("INFO {key}: '{}' is not a number", clean(value)))
        };
        let non_negative = || -> Result<u64, String> {
            let n = number()?;
            if n < 0 {
                return Err(format!("INFO {key}: {n} is negative"));
            }
            Ok(u64::try_from(n).unwrap_or(u64::MAX))
        };
        match key {
            "timeout_turn" => self.clock.turn_ms = non_negative()?.min(MAX_TIME_MS),
            "timeout_match" => self.clock.match_ms = non_negative()?.min(MAX_TIME_MS),
            "time_left" => {
                let left = non_negative()?.min(MAX_TIME_MS);
                self.overhead.time_left(left);
                log::debug!(
                    "time_left {left} ms; kept back for each move to come: {} ms",
                    self.overhead.per_move_ms()
                );
                self.clock.left_ms = Some(left);
                self.spent_ms = 0;
            }
            "max_memory" => {
                self.memory = MemoryLimit::Total(non_negative()?);
                self.plan_memory(Some(&format!("INFO max_memory {}", value.trim())));
            }
            "hash_size" => {
                self.memory = MemoryLimit::Table(non_negative()?.saturating_mul(1024));
                self.plan_memory(Some(&format!("INFO hash_size {}", value.trim())));
            }
            "game_type" => {
                let v = number()?;
                // 0 human opponent, 1 brain, 2 tournament, 3 network tournament: the
                // engine plays the same way against all of them.
                if !(0..=3).contains(&v) {
                    return Err(format!("INFO game_type: {v} is not 0, 1, 2 or 3"));
                }
            }
            "rule" => {
                let v = number()?;
                let rule = i64::try_from(v).ok().and_then(Rule::from_info).ok_or_else(|| {
                    format!("INFO rule: {v} is not a rule (a bit mask: 1 exact five, 2 continuous game, 4 renju, 8 caro; renju and caro together are impossible; 2 alone is renju)")
                })?;
                self.set_rule(rule)?;
            }
            // A folder for persistent files: the engine keeps none.
            "folder" => log::debug!("INFO folder {value}"),
            "thread_num" => {
                let v = number()?;
                if v < 1 {
                    return Err(format!(
                        "INFO thread_num: {v} is not a number of threads (1 or more)"
                    ));
                }
                self.threads = v.min(MAX_THREADS as i128) as usize;
                self.plan_memory(None);
            }
            "evaluate" => {
                protocol::parse_pair(value).map_err(|e| format!("INFO evaluate: {e}"))?;
            }
            "max_node" => {
                let v = number()?;
                self.max_nodes = (v > 0 && v < u64::MAX as i128).then_some(v as u64);
            }
            "max_depth" => {
                let v = number()?;
                self.max_depth = (v > 0).then_some(v.min(MAX_DEPTH as i128) as i32);
            }
            "show_detail" => {
                let v = number()?;
                if v < 0 {
                    return Err(format!("INFO show_detail: {v} is negative"));
                }
                self.show_detail = u64::try_from(v).unwrap_or(u64::MAX);
            }
            "square_names" => {
                let v = number()?;
                self.names_mode = match v {
                    0 => NAMES_PLAIN,
                    1 => NAMES_TRANSPOSED,
                    2 => NAMES_AUTO,
                    _ => {
                        return Err(format!(
                            "INFO square_names: {v} is not 0 (x is the column), 1 (transposed, as Yixin-Board means them) or 2 (transposed under Yixin-Board)"
                        ))
                    }
                };
            }
            "vcthread" => self.vcthread = true,
            // Yixin-Board's "Use Database" and "Database Readonly" menu items.
            "pondering" => self.ponder = number()? != 0,
            "strength" => {
                let v = number()?;
                if !(0..=100).contains(&v) {
                    return Err(format!(
                        "INFO strength: {v} is not a strength (0 to 100; 100 is full strength)"
                    ));
                }
                self.strength = v as u8;
            }
            "usedatabase" => self.use_db = number()? != 0,
            "database_readonly" => self.db_readonly = number()? != 0,
            // Yixin-Board settings with no meaning for this engine. `caution_factor` (its
            // style slider, 0 rash to 5 cautious) is how far from the stones Rapfi's move
            // generator looks; Fivefold's takes that from the threats on the board and
            // has no such setting.
            "time_increment" | "caution_factor" | "nbestsym" | "nbest_sym" | "checkmate"
            | "thread_split_depth" | "start_depth" => {
                log::debug!("INFO {key} ignored")
            }
            // The search's tunable parameters, by their names (see engine::params); any
            // other key is ignored.
            _ => match params::find(key) {
                Some(param) => {
                    let v = number()?;
                    let v = i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
                    let mut e = self.engine();
                    let mut p = e.params().clone();
                    let set = p.set(param.name, v)?;
                    e.set_params(p);
                    drop(e);
                    if set != v {
                        self.pending.push(format!(
                            "MESSAGE INFO {key}: {v} is outside {}..{}, set to {set}",
                            param.min, param.max
                        ));
                    }
                }
                None => log::info!("unknown INFO key '{key}' ignored"),
            },
        }
        Ok(())
    }

    /// Starts pondering ([`crate::gomocup::ponder`]) on the position after our move, when
    /// `INFO pondering` is on, our move was the last one played and the game goes on.
    fn start_pondering(&mut self) {
        if !self.ponder || self.pondering.is_some() {
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

    /// Whether `line` leaves pondering running: a database query (`YXQUERYDATABASE…`)
    /// and the lines of its block. With "Use Database" on (its default) Yixin-Board sends
    /// one right after each of our moves; it reads only the database and the board it
    /// carries, never the engine, so the search on the opponent's time goes on.
    fn keeps_pondering(&self, line: &str) -> bool {
        let query = |cmd: &DbCommand| {
            matches!(
                cmd,
                DbCommand::QueryAll { .. } | DbCommand::QueryOne | DbCommand::QueryText
            )
        };
        match &self.block {
            Some(Block::Database { cmd, .. }) => query(cmd),
            Some(_) => false,
            None => matches!(protocol::parse(line), Command::Database(cmd) if query(&cmd)),
        }
    }

    /// Stops pondering, if it runs, and waits until the engine is free.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.pondering.take() {
            p.stop();
        }
    }

    /// `YXHASHDUMP` (`dump`) / `YXHASHLOAD`: the table to or from the file at `path`,
    /// for the current rule and board size ([`hashfile`]). Answers with a message, or an
    /// error that leaves the table as it was.
    fn hash_file(&mut self, dump: bool, path: &str) -> Flow {
        let name = if dump { "YXHASHDUMP" } else { "YXHASHLOAD" };
        let (w, h) = self
            .game
            .as_ref()
            .map_or((15, 15), |g| (g.board.width(), g.board.height()));
        let context = hashfile::context(self.rule, w, h);
        let (memory, threads) = (self.memory, self.threads);
        let file = std::path::Path::new(path);
        let result = {
            let mut e = self.engine();
            // The table at the size the next search will use, so a load is not lost
            // to a resize.
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

    fn set_rule(&mut self, rule: Rule) -> Result<(), String> {
        if let Some(g) = self.game.as_mut() {
            if g.board.rule() != rule {
                g.board = replay(&g.board, rule, None)?;
            }
        }
        self.rule = rule;
        Ok(())
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
        self.reply(&protocol::forbid_line(&squares));
        Flow::Continue
    }

    fn end_block(&mut self, block: Block, received: Instant) -> Flow {
        let name = block.name().to_string();
        match block {
            Block::Database {
                cmd,
                stones,
                error: None,
            } => {
                if let Err(e) = self.database_command(&cmd, &stones) {
                    log::debug!("{name}: {e:#}");
                    self.error(&format!("{name}: {}", one_line(&format!("{e:#}"))));
                }
                Flow::Continue
            }
            Block::Board { error: Some(e), .. }
            | Block::Swap2 { error: Some(e), .. }
            | Block::Exclude { error: Some(e), .. }
            | Block::Path { error: Some(e), .. }
            | Block::Soosorv { error: Some(e), .. }
            | Block::Database { error: Some(e), .. } => {
                self.error(&format!("{name}: {e}; nothing changed"))
            }
            Block::Board {
                think,
                stones,
                error: None,
            } => match self.position(&stones) {
                Ok(game) => {
                    self.game = Some(game);
                    if think {
                        self.think_move(received)
                    } else {
                        Flow::Continue
                    }
                }
                Err(e) => self.error(&format!("{name}: {e}; nothing changed")),
            },
            Block::Swap2 {
                stones,
                error: None,
            } => match self.swap2_position(&stones) {
                Ok(board) => {
                    let limits = self.limits(received);
                    if let Some(g) = self.game.as_mut() {
                        *g = Game::new(board.clone());
                    }
                    Flow::Think(Box::new(Job::Swap2 { board, limits }))
                }
                Err(e) => self.error(&format!("{name}: {e}; nothing changed")),
            },
            Block::Soosorv {
                step,
                n,
                stones,
                error: None,
            } => self.soosorv(step, n, &stones, received),
            Block::Path {
                undo,
                stones,
                error: None,
            } => self.block_path(undo, &stones),
            Block::Exclude {
                undo,
                stones,
                error: None,
            } => {
                let squares = match self.squares_of(&stones) {
                    Ok(s) => s,
                    Err(e) => return self.error(&format!("{name}: {e}; nothing changed")),
                };
                for p in squares {
                    if undo {
                        self.excluded.retain(|&q| q != p);
                    } else if !self.excluded.contains(&p) {
                        self.excluded.push(p);
                    }
                }
                Flow::Continue
            }
        }
    }

    /// `YXBLOCKPATH` / `YXBLOCKPATHUNDO` with the path of its block.
    fn block_path(&mut self, undo: bool, stones: &[(i64, i64)]) -> Flow {
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
            Some(p) if undo => self.restrict.unblock_path(key, p),
            Some(p) => self.restrict.block_path(key, p),
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
            self.restrict.path_count()
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
    fn forbid(&mut self, add: bool, x: i64, y: i64, side: u8) -> Flow {
        let p = match self.squares_of(&[(x, y)]) {
            Ok(v) => v[0],
            Err(e) => return self.error(&format!("YXFORBID: {e}; nothing changed")),
        };
        let color = if side == 0 {
            Color::Black
        } else {
            Color::White
        };
        let changed = self.restrict.set_forbidden(color, p, add);
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
            self.restrict.forbidden_count()
        ));
        Flow::Continue
    }

    /// Squares of the current board from a list of coordinates.
    fn squares_of(&self, stones: &[(i64, i64)]) -> Result<Vec<Pos>, String> {
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

    /// The board a `SWAP2BOARD` block describes: 0, 3 or 5 stones, black first, colours
    /// alternating.
    fn swap2_position(&self, stones: &[(i64, i64)]) -> Result<Board, String> {
        let squares = self.squares_of(stones)?;
        if ![0, 3, 5].contains(&squares.len()) {
            return Err(format!(
                "{} stones given; swap2 needs 0, 3 or 5",
                squares.len()
            ));
        }
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        let mut board = Board::new(g.board.width(), g.board.height(), self.rule)?;
        for (p, &(x, y)) in squares.iter().zip(stones) {
            if !board.is_empty(*p) {
                return Err(format!("{x},{y} is given twice"));
            }
            board.make(*p);
        }
        Ok(board)
    }

    /// Runs a job on a worker thread while reading input: `END` quits at once, `STOP`
    /// and `YXSTOP` stop the search, other lines wait in `queue`.
    fn run_job(
        &mut self,
        job: Box<Job>,
        rx: &Receiver<Event>,
        tx: &Sender<Event>,
        queue: &mut VecDeque<(String, Instant)>,
        eof: &mut bool,
    ) -> Flow {
        let started = Instant::now();
        // The job's own token, made before the worker exists and never cleared: a stop
        // read while the worker is still starting, or between two of the job's searches,
        // is not lost.
        let stop = StopToken::new();
        let reporter = Reporter {
            out: self.out.clone(),
            detail: self.show_detail != 0,
            realtime: self.show_detail & 1 != 0,
            info: self.show_detail & 2 != 0,
            names: self.names(),
            marked: Cell::new(false),
        };
        let fallback = job.failed();
        let worker = {
            let engine = self.engine.clone();
            let stop = stop.clone();
            let tx = tx.clone();
            move || {
                let failed = job.failed();
                let answer = catch_unwind(AssertUnwindSafe(|| {
                    let mut e = engine.lock().unwrap_or_else(PoisonError::into_inner);
                    work(&mut e, *job, &reporter, &stop)
                }))
                .unwrap_or_else(|_| {
                    log::error!("the search failed; answering with a fallback");
                    failed
                });
                let _ = tx.send(Event::Done(answer));
            }
        };
        let spawned = std::thread::Builder::new()
            .name("fivefold-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(worker);
        if let Err(e) = spawned {
            log::error!("cannot start the search thread: {e}");
            self.finish(fallback, started);
            return Flow::Continue;
        }
        loop {
            let Ok(event) = rx.recv() else {
                return Flow::Quit;
            };
            match event {
                Event::Line(line, at) => match protocol::parse(&line) {
                    Command::End => {
                        stop.raise();
                        return Flow::Quit;
                    }
                    Command::Stop => stop.raise(),
                    _ => queue.push_back((line, at)),
                },
                Event::Eof => *eof = true,
                Event::Done(answer) => {
                    self.finish(answer, started);
                    // Managers wait for an answer before they send the next move, so lines
                    // that came during the search are a script's: their time starts now.
                    let now = Instant::now();
                    for item in queue.iter_mut() {
                        item.1 = now;
                    }
                    return Flow::Continue;
                }
            }
        }
    }

    /// Writes a job's answer and plays it on the board.
    fn finish(&mut self, answer: Answer, started: Instant) {
        let plan = self.plan.take();
        if !matches!(answer, Answer::Said(_)) {
            self.spent_ms = self
                .spent_ms
                .saturating_add(started.elapsed().as_millis() as u64);
            // The manager's next time_left shows what this answer cost beyond the
            // thinking time allowed and used.
            match plan {
                Some(MovePlan {
                    received,
                    left_ms: Some(left),
                    hard_ms,
                }) => {
                    let took = received.elapsed().as_millis() as u64;
                    log::debug!("answer {took} ms after the command (limit {hard_ms} ms)");
                    let used = took.min(hard_ms);
                    self.overhead.moved(left, used);
                }
                _ => self.overhead.forget_move(),
            }
        }
        match answer {
            Answer::Said(line) => self.reply(&line),
            Answer::Move(p) => self.play_own(p),
            Answer::Searched(p, score, depth) => {
                self.store_result(p, score, depth);
                self.play_own(p)
            }
            Answer::Swap2(Ok(reply)) => self.apply_swap2(reply),
            Answer::Swap2(Err(e)) => {
                self.error(&format!("SWAP2BOARD: {e}"));
            }
            Answer::Swap2Step(step, board, Ok(reply)) => self.apply_swap2_step(step, *board, reply),
            Answer::Swap2Step(step, _, Err(e)) => {
                self.error(&format!("YXSWAP2STEP{step}: {e}"));
            }
            Answer::Soosorv(step, board, Ok(reply)) => self.apply_soosorv(step, *board, reply),
            Answer::Soosorv(step, _, Err(e)) => {
                self.error(&format!("YXSOOSORVSTEP{step}: {e}"));
            }
            Answer::Balance(Ok(moves)) => self.apply_balance(&moves),
            Answer::Balance(Err(e)) => {
                self.error(&format!("YXBALANCE: {e}"));
            }
        }
    }

    /// Answers a Soosorv step with the lines Yixin-Board reads
    /// ([`protocol::soosorv_lines`]) and makes the game the position decided on with the
    /// stones the engine put (the opening, the fourth stone, the fifth move taken) and
    /// the colour it took. Offered fifth moves are not played: the other side picks one.
    fn apply_soosorv(&mut self, step: u8, board: Board, reply: soosorv::Reply) {
        let name = SOOSORV_NAMES[usize::from(step - 1)];
        let Some(lines) = protocol::soosorv_lines(step, &reply) else {
            self.error(&format!("{name}: no answer for this position"));
            return;
        };
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match &reply {
            soosorv::Reply::Opening(s) => s.to_vec(),
            soosorv::Reply::Fourth(p, _) | soosorv::Reply::Choose(p) => vec![*p],
            soosorv::Reply::Swap(_) | soosorv::Reply::Fifths(_) => Vec::new(),
        };
        let mut check = board;
        for &p in &stones {
            if !(on_board(&check, p) && check.is_empty(p) && rules::is_legal(&mut check, p)) {
                self.error(&format!("{name}: the engine chose an illegal square"));
                return;
            }
            check.make(p);
        }
        *g = Game::new(check);
        g.me = match reply {
            // Step 2 asks white, step 4 black, whether to swap.
            soosorv::Reply::Swap(swap) => {
                let asked = if step == 2 {
                    Color::White
                } else {
                    Color::Black
                };
                Some(if swap { asked.opp() } else { asked })
            }
            // The fourth stone is white's; the fifth move taken is black's, taken by white.
            soosorv::Reply::Fourth(..) | soosorv::Reply::Choose(_) => Some(Color::White),
            soosorv::Reply::Fifths(_) => Some(Color::Black),
            soosorv::Reply::Opening(_) => None,
        };
        for l in lines {
            self.reply(&l);
        }
    }

    /// Plays the balancing moves on the board (alternating from the side to move) and
    /// answers them: `x,y`, or `x,y x,y` for two.
    fn apply_balance(&mut self, moves: &[Pos]) {
        let Some(g) = self.game.as_mut() else { return };
        let mut check = g.board.clone();
        for &p in moves {
            if !(on_board(&check, p) && check.is_empty(p) && rules::is_legal(&mut check, p)) {
                self.error("YXBALANCE: the engine chose an illegal square");
                return;
            }
            check.make(p);
        }
        let mover = g.board.side_to_move();
        g.board = check;
        // One move: ours, as after any move of ours; two: one each, colours open.
        g.me = (moves.len() == 1).then_some(mover);
        let text = moves
            .iter()
            .map(|&p| protocol::move_line(p))
            .collect::<Vec<_>>()
            .join(" ");
        self.reply(&text);
    }

    /// Answers a Yixin-Board Swap2 step with the lines it reads
    /// ([`protocol::swap2_step_lines`]) and makes the game the position decided on
    /// (`board`, black first) with the stones put played and a colour taken ours.
    fn apply_swap2_step(&mut self, step: u8, board: Board, reply: swap2::Reply) {
        let Some(lines) = protocol::swap2_step_lines(step, &reply) else {
            self.error(&format!("YXSWAP2STEP{step}: no answer for this position"));
            return;
        };
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match reply {
            swap2::Reply::Opening(s) => s.to_vec(),
            swap2::Reply::Two(a, b) => vec![a, b],
            swap2::Reply::Swap | swap2::Reply::Stone(_) => Vec::new(),
        };
        let mut check = board;
        for &p in &stones {
            if !(on_board(&check, p) && check.is_empty(p) && rules::is_legal(&mut check, p)) {
                self.error(&format!(
                    "YXSWAP2STEP{step}: the engine chose an illegal square"
                ));
                return;
            }
            check.make(p);
        }
        *g = Game::new(check);
        g.me = match reply {
            swap2::Reply::Swap => Some(Color::Black),
            // Step 2: we stay white and the GUI asks for the fourth stone; step 3: we
            // take white and the GUI asks for the sixth.
            swap2::Reply::Stone(_) => Some(Color::White),
            _ => None,
        };
        for l in lines {
            self.reply(&l);
        }
    }

    /// Plays our move: `p` if it is legal for us, else the best legal square we can find.
    fn play_own(&mut self, p: Pos) {
        let exclude = self.exclusions();
        let Some(g) = self.game.as_mut() else { return };
        let me = g.my_color();
        match legal_or_fallback(g, p, me, &exclude) {
            Some(q) => {
                g.board.make_color(q, me);
                g.me = Some(me);
                self.reply(&protocol::move_line(q));
            }
            None => {
                self.error("no empty square left to play");
            }
        }
    }

    fn apply_swap2(&mut self, reply: swap2::Reply) {
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match reply {
            swap2::Reply::Opening(s) => s.to_vec(),
            swap2::Reply::Swap => Vec::new(),
            swap2::Reply::Stone(p) => vec![p],
            swap2::Reply::Two(a, b) => vec![a, b],
        };
        // The squares come from searches of this board; check them all the same.
        let mut check = g.board.clone();
        for &p in &stones {
            let legal = on_board(&check, p) && check.is_empty(p) && rules::is_legal(&mut check, p);
            if !legal {
                self.error("SWAP2BOARD: the engine chose an illegal square");
                return;
            }
            check.make(p);
        }
        g.board = check;
        g.me = match reply {
            swap2::Reply::Swap => Some(Color::Black),
            swap2::Reply::Stone(_) => Some(Color::White),
            _ => None,
        };
        self.reply(&reply.line());
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
        on_board(b, q)
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

/// A size in bytes as people read it: `512 KB`, `64 MB`, `2 GB`, `23.4 GB`.
fn fmt_bytes(bytes: usize) -> String {
    const KB: usize = 1 << 10;
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GB", bytes >> 30)
    } else if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{} KB", bytes.div_ceil(KB))
    }
}

/// Reads input lines into the channel until the end of input.
fn read_lines<R: Read>(input: R, tx: &Sender<Event>) {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    let send = |line: &[u8]| -> bool {
        let text = String::from_utf8_lossy(line);
        text.split('\r').all(|part| {
            tx.send(Event::Line(part.to_string(), Instant::now()))
                .is_ok()
        })
    };
    loop {
        let (used, end) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => {
                let (chunk, used, end) = match buf.iter().position(|&c| c == b'\n') {
                    Some(i) => (&buf[..i], i + 1, true),
                    None => (buf, buf.len(), false),
                };
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                (used, end)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read input: {e}");
                break;
            }
        };
        reader.consume(used);
        if end {
            if !send(&line) {
                return;
            }
            line.clear();
        }
    }
    if !line.is_empty() {
        send(&line);
    }
    let _ = tx.send(Event::Eof);
}

/// Runs the protocol on `input` and `output` until `END`, the end of input, or a failed
/// write. Returns when the session is over (a search still running is abandoned).
pub fn run<R, W>(input: R, output: W) -> Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    run_with(input, output, Params::default())
}

/// [`run`] with search parameters other than the defaults from the start (`INFO` can
/// still change them).
pub fn run_with<R, W>(input: R, output: W, params: Params) -> Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Arc::new(Output::new(Box::new(output)));
    let (tx, rx) = mpsc::channel::<Event>();
    {
        let tx = tx.clone();
        std::thread::Builder::new()
            .name("fivefold-input".into())
            .spawn(move || read_lines(input, &tx))?;
    }
    let mut session = Session::new(out.clone());
    session.engine().set_params(params);
    let mut queue: VecDeque<(String, Instant)> = VecDeque::new();
    let mut eof = false;
    // Our move was made and since then only queries and settings came: ponder whenever
    // nothing is waiting (a setting stops it; it starts again after).
    let mut ponder_planned = false;
    loop {
        if out.is_broken() {
            log::info!("output closed; exiting");
            return Ok(());
        }
        let (line, received) = match queue.pop_front() {
            Some(item) => item,
            None if eof => return Ok(()),
            None => {
                // Nothing waiting: pondering runs now if our move asked for it (a
                // no-op when it runs already).
                if ponder_planned {
                    session.start_pondering();
                }
                match rx.recv() {
                    Ok(Event::Line(line, at)) => (line, at),
                    Ok(Event::Eof) | Err(_) => {
                        eof = true;
                        continue;
                    }
                    // Only a running job sends answers, and run_job receives them.
                    Ok(Event::Done(_)) => continue,
                }
            }
        };
        // Any line stops pondering first: the engine is then free, and the line's time
        // has run from its arrival (`received`), not from the stop. Only a database
        // query, which Yixin-Board sends after every move, lets it go on.
        let keeps = session.keeps_pondering(&line);
        if !keeps {
            session.stop_pondering();
        }
        // Lines that leave a planned pondering planned: queries and settings (Yixin-Board
        // sends `INFO time_left` and a database query while we think, so they wait in
        // the queue when our move is made).
        let harmless = keeps || matches!(protocol::parse(&line), Command::Info { .. });
        match session.handle_line(&line, received) {
            Flow::Continue => {}
            Flow::Quit => return Ok(()),
            Flow::Think(job) => {
                let our_move = matches!(*job, Job::Move { .. } | Job::Weak { .. });
                if let Flow::Quit = session.run_job(job, &rx, &tx, &mut queue, &mut eof) {
                    return Ok(());
                }
                // Think on while the opponent does, once the lines that came meanwhile
                // are handled.
                ponder_planned = our_move;
                continue;
            }
        }
        if !harmless {
            ponder_planned = false;
        }
    }
}

/// Runs the protocol on standard input and output.
pub fn run_stdio() -> Result<()> {
    run(std::io::stdin(), std::io::stdout())
}

/// [`run_stdio`] with search parameters other than the defaults.
pub fn run_stdio_with(params: Params) -> Result<()> {
    run_with(std::io::stdin(), std::io::stdout(), params)
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
        assert!(on_board(&g.board, q));
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

    /// Output collected in memory.
    #[derive(Clone, Default)]
    struct Collect(Arc<Mutex<Vec<u8>>>);

    impl Write for Collect {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stop_read_before_the_search_starts_is_not_lost() {
        // No time limit to speak of, and the stop comes in the same read as the command
        // that starts the search: it is taken while the worker thread is still starting.
        // The input then ends, and the session waits for the answer, which only the stop
        // can bring. (The session used to repeat its stop every 5 ms for this.)
        for (threads, stop) in [(1, "YXSTOP"), (2, "STOP"), (3, "YXSTOP"), (1, "STOP")] {
            let script = format!(
                "START 15\nINFO timeout_turn {MAX_TIME_MS}\nINFO timeout_match {MAX_TIME_MS}\n\
                 INFO hash_size 1024\nINFO thread_num {threads}\n\
                 BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE\n{stop}\n"
            );
            let out = Collect::default();
            let (tx, rx) = mpsc::channel();
            {
                let out = out.clone();
                std::thread::spawn(move || {
                    let _ = tx.send(run(std::io::Cursor::new(script.into_bytes()), out).is_ok());
                });
            }
            let ok = rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{threads} threads, {stop}: the stop was lost"));
            assert!(ok);
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            let last = text.lines().last().unwrap_or_default();
            let (x, y) = last.split_once(',').expect("a move last");
            let mv = (x.parse::<usize>().unwrap(), y.parse::<usize>().unwrap());
            assert!(![(7, 7), (8, 8), (8, 6)].contains(&mv), "{text}");
        }
    }

    /// A session writing into a buffer, after `lines`, each of which must need no answer
    /// from a search.
    fn session_after(lines: &[&str]) -> (Session, Collect) {
        let out = Collect::default();
        let mut s = Session::new(Arc::new(Output::new(Box::new(out.clone()))));
        let now = Instant::now();
        for l in lines {
            assert!(matches!(s.handle_line(l, now), Flow::Continue), "{l}");
        }
        (s, out)
    }

    #[test]
    fn what_the_manager_charges_beyond_the_thinking_is_learnt_from_time_left() {
        // A manager whose clock falls by 400 ms for each move the engine answers at once,
        // and one that sends no time_left.
        for reports in [true, false] {
            let (mut s, _) = session_after(&[
                "START 15",
                "INFO timeout_turn 5000",
                "INFO timeout_match 60000",
            ]);
            let now = Instant::now();
            let first = s.limits(Instant::now()).budget.expect("a clock").soft;
            let mut left = 60_000;
            for i in 0..6 {
                if reports {
                    let l = format!("INFO time_left {left}");
                    assert!(matches!(s.handle_line(&l, now), Flow::Continue));
                }
                let turn = format!("TURN {},0", 2 * i);
                assert!(matches!(
                    s.handle_line(&turn, Instant::now()),
                    Flow::Think(_)
                ));
                s.finish(Answer::Move(Pos::new(2 * i, 14)), Instant::now());
                left -= 400;
            }
            if reports {
                let l = format!("INFO time_left {left}");
                assert!(matches!(s.handle_line(&l, now), Flow::Continue));
                assert!(s.overhead.per_move_ms() > 300, "{:?}", s.overhead);
                // Kept back for every move that may still come: the target for a move
                // falls from the whole turn to a share of what is left after that.
                let later = s.limits(Instant::now()).budget.expect("a clock").soft;
                assert!(later < first / 2, "{first:?} -> {later:?}");
            } else {
                assert_eq!(s.overhead.per_move_ms(), time::least_overhead_ms());
            }
        }
    }

    #[test]
    fn pondering_runs_only_when_asked_and_takes_no_clock_time() {
        for on in [false, true] {
            let (mut s, out) = session_after(&[
                "START 15",
                "INFO hash_size 256",
                "INFO thread_num 1",
                "INFO timeout_match 100000",
            ]);
            let now = Instant::now();
            let pondering = if on {
                "INFO pondering 1"
            } else {
                "INFO pondering 0"
            };
            assert!(matches!(s.handle_line(pondering, now), Flow::Continue));
            assert!(matches!(s.handle_line("TURN 7,7", now), Flow::Think(_)));
            s.finish(Answer::Move(Pos::new(8, 8)), Instant::now());
            let spent = s.spent_ms;
            let usage = s.engine().hash_usage();
            // Ponder for a while, several times over if the machine is slow to fill the
            // table (the engine is locked while pondering, so it is looked at between).
            let mut after = usage;
            for round in 1..=10u64 {
                s.start_pondering();
                assert_eq!(s.pondering.is_some(), on);
                std::thread::sleep(Duration::from_millis(200 * round));
                let t = Instant::now();
                s.stop_pondering();
                assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
                assert!(s.pondering.is_none());
                after = s.engine().hash_usage();
                if after > usage || (!on && round == 2) {
                    break;
                }
            }
            // The table filled only while pondering; the clock saw none of it.
            if on {
                assert!(after > usage, "{usage} -> {after}");
            } else {
                assert_eq!(after, usage);
            }
            assert_eq!(s.spent_ms, spent);
            // Only our move was written.
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            assert_eq!(text, "OK\n8,8\n");
            // Never while it is our turn.
            assert!(matches!(s.handle_line("TURN 9,9", now), Flow::Think(_)));
            s.start_pondering();
            assert!(s.pondering.is_none());
        }
    }

    #[test]
    fn a_database_query_leaves_pondering_running() {
        let (mut s, out) = session_after(&["START 15", "INFO hash_size 256", "INFO pondering 1"]);
        let now = Instant::now();
        assert!(matches!(s.handle_line("TURN 7,7", now), Flow::Think(_)));
        s.finish(Answer::Move(Pos::new(6, 7)), Instant::now());
        s.start_pondering();
        assert!(s.pondering.is_some());
        // What Yixin-Board sends right after our move while "Use Database" is on (no
        // database open here: it is answered as empty), handled as the input loop does.
        for l in [
            "yxquerydatabaseallt",
            "7,7",
            "6,7",
            "done",
            "YXQUERYDATABASEONE",
            "done",
        ] {
            assert!(s.keeps_pondering(l), "{l}");
            assert!(matches!(s.handle_line(l, now), Flow::Continue), "{l}");
            assert!(s.pondering.is_some(), "{l}");
        }
        // Anything else stops it: an edit of the database, a setting, the opponent's move.
        for l in [
            "yxedittextdatabase",
            "yxsetbestmovedatabase",
            "INFO time_left 5000",
            "yxboard",
            "TURN 8,9",
        ] {
            assert!(!s.keeps_pondering(l), "{l}");
        }
        s.stop_pondering();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.contains(
                "MESSAGE DATABASE REFRESH\nMESSAGE DATABASE TEXT \"\"\nMESSAGE DATABASE DONE\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn session_without_io() {
        let out = Arc::new(Output::new(Box::new(std::io::sink())));
        let mut s = Session::new(out);
        let now = Instant::now();
        assert!(matches!(s.handle_line("START 15", now), Flow::Continue));
        assert!(
            matches!(s.handle_line("TURN 7,7", now), Flow::Think(j) if matches!(*j, Job::Move { .. }))
        );
        let g = s.game.as_ref().unwrap();
        assert_eq!(g.me, Some(Color::White));
        assert_eq!(g.board.stone(Pos::new(7, 7)), Some(Color::Black));
        // Bad input leaves the game alone.
        for l in [
            "TURN 7,7",
            "TURN 15,0",
            "TURN x",
            "TAKEBACK 1,1",
            "PLAY -1,2",
        ] {
            assert!(matches!(s.handle_line(l, now), Flow::Continue), "{l}");
            assert_eq!(s.game.as_ref().unwrap().board.move_count(), 1, "{l}");
        }
        assert!(matches!(s.handle_line("END", now), Flow::Quit));
    }
}
