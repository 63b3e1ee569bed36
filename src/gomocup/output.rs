//! Where the protocol's lines go: [`Output`], which writes each line whole and flushed,
//! whichever thread writes it; and the search's progress as the messages GUIs read
//! ([`Reporter`], [`lines_reported`]).

use crate::analysis::multipv::{self, Line};
use crate::core::board::Board;
use crate::core::types::is_mate;
use crate::engine::search::{Info, Limits, RootMove};
use crate::engine::{Engine, StopToken};
use crate::gomocup::reply::{self, Names, Progress, Realtime};
use std::cell::Cell;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

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

/// Reports search progress as messages.
pub struct Reporter {
    out: Arc<Output>,
    /// `INFO show_detail` not 0: the thinking messages as Yixin-Board shows them.
    detail: bool,
    /// `INFO show_detail` bit 1: Yixin-Board's realtime markers (`MESSAGE REALTIME …`).
    pub realtime: bool,
    /// `INFO show_detail` bit 2: Yixin-Board 3's per-line `INFO PV …` blocks.
    info: bool,
    /// How squares are named in the messages.
    pub names: Names,
    /// Root moves were marked (`REALTIME POS`/`DONE`) since the last depth's report:
    /// that report starts with `REALTIME REFRESH`.
    marked: Cell<bool>,
}

impl Reporter {
    /// A reporter writing to `out`, as `INFO show_detail` asks.
    pub fn new(out: Arc<Output>, show_detail: u64, names: Names) -> Reporter {
        Reporter {
            out,
            detail: show_detail != 0,
            realtime: show_detail & 1 != 0,
            info: show_detail & 2 != 0,
            names,
            marked: Cell::new(false),
        }
    }

    /// `MESSAGE text`.
    pub fn message(&self, text: &str) {
        self.out.line(&format!("MESSAGE {text}"));
    }

    /// A depth's result of a single search.
    pub fn info(&self, info: &Info) {
        let p = Progress::from_info(info);
        if self.detail {
            self.out.line(&reply::detail_line(&p, &self.names));
        } else {
            self.out.line(&reply::progress_line(&p, &self.names));
        }
        if self.info && !info.pv.is_empty() {
            for l in reply::info_lines(0, 1, &p) {
                self.out.line(&l);
            }
        }
        if self.realtime {
            if self.marked.replace(false) {
                self.out.line(reply::REALTIME_REFRESH);
            }
            if let Some(&m) = info.pv.first() {
                self.out.line(&reply::realtime_best_line(m));
            }
        }
    }

    /// A single search's progress through its root moves (only asked for with the
    /// realtime markers on): `POS` as the search enters a move, `DONE` as it leaves it,
    /// then `LOSE` for a move proven to lose or `BEST` for a new best move.
    pub fn root_move(&self, m: RootMove) {
        self.marked.set(true);
        match m {
            RootMove::Enter { pos, .. } => {
                self.out.line(&reply::realtime_line(Realtime::Pos, pos));
            }
            RootMove::Leave {
                pos, score, best, ..
            } => {
                self.out.line(&reply::realtime_line(Realtime::Done, pos));
                if is_mate(score) && score < 0 {
                    self.out.line(&reply::realtime_line(Realtime::Lose, pos));
                } else if best {
                    self.out.line(&reply::realtime_best_line(pos));
                }
            }
        }
    }

    /// The lines of a multi-line analysis after a depth.
    pub fn lines(&self, lines: &[Line], nodes: u64, elapsed: Duration) {
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
                self.out.line(&reply::detail_line(&p, &self.names));
            } else {
                self.out.line(&reply::progress_line(&p, &self.names));
            }
            if self.info {
                for i in reply::info_lines(k, lines.len(), &p) {
                    self.out.line(&i);
                }
            }
        }
        if self.realtime && !lines.is_empty() {
            // Every listed move was searched to this depth: marked as searched, those
            // proven to lose as lost, and the best.
            self.out.line(reply::REALTIME_REFRESH);
            for l in lines {
                self.out.line(&reply::realtime_line(Realtime::Pos, l.mv));
                self.out.line(&reply::realtime_line(Realtime::Done, l.mv));
                if is_mate(l.score) && l.score < 0 {
                    self.out.line(&reply::realtime_line(Realtime::Lose, l.mv));
                }
            }
            self.out.line(&reply::realtime_best_line(lines[0].mv));
        }
    }
}

/// A multi-line analysis ([`multipv::best_lines_reported`]) that reports its lines as
/// messages.
pub fn lines_reported(
    engine: &mut Engine,
    board: &Board,
    want: &multipv::Want,
    limits: &Limits,
    stop: &StopToken,
    rep: &Reporter,
) -> multipv::Lines {
    multipv::best_lines_reported(engine, board, want, limits, stop, &mut |l| {
        rep.lines(&l.lines, l.nodes, l.elapsed)
    })
}
