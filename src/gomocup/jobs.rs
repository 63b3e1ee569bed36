//! The worker thread: a [`Job`] runs on it with the engine while the main loop keeps
//! reading (`Session::run_job`): `END` exits at once, `STOP`/`YXSTOP` raise the job's
//! [`StopToken`], and every other line waits until the answer is written. The token is
//! made before the worker starts and never cleared, so a stop that arrives before the
//! search has started, or between the searches of one job (`YXNBEST`, `SWAP2BOARD`),
//! still ends it. Then the clock is charged and the job's [`Answer`] applied.

use crate::core::time::Instant;
use crate::engine::StopToken;
use crate::gomocup::command::{interrupt, Interrupt};
use crate::gomocup::output::Reporter;
use crate::gomocup::session::{Answer, Flow, Job, Session};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::PoisonError;

/// Stack size of the search thread.
const SEARCH_STACK_BYTES: usize = 16 << 20;

/// What the main loop receives.
pub enum Event {
    /// An input line and when it was read.
    Line(String, Instant),
    /// The end of input.
    Eof,
    /// A job's answer (`None`: its search failed).
    Done(Option<Answer>),
}

impl Session {
    /// Runs a job on a worker thread while reading input: `END` quits at once, `STOP`
    /// and `YXSTOP` stop the search, other lines wait in `queue`. The engine gets the
    /// memory limit, the threads and the restrictions of the session first.
    pub(super) fn run_job(
        &mut self,
        job: Job,
        rx: &Receiver<Event>,
        tx: &Sender<Event>,
        queue: &mut VecDeque<(String, Instant)>,
        eof: &mut bool,
    ) -> Flow {
        // The job's own token is made before the worker exists and never cleared: a stop
        // read while the worker is still starting, or between two of the job's searches,
        // is not lost.
        let (started, stop, reporter) = self.start_job();
        let Job {
            search,
            failed,
            timed,
            ..
        } = job;
        let worker = {
            let engine = self.engine.clone();
            let stop = stop.clone();
            let tx = tx.clone();
            move || {
                let answer = catch_unwind(AssertUnwindSafe(|| {
                    let mut e = engine.lock().unwrap_or_else(PoisonError::into_inner);
                    search(&mut e, &reporter, &stop)
                }));
                if answer.is_err() {
                    log::error!("the search failed; answering with a fallback");
                }
                let _ = tx.send(Event::Done(answer.ok()));
            }
        };
        let spawned = std::thread::Builder::new()
            .name("fivefold-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(worker);
        if let Err(e) = spawned {
            log::error!("cannot start the search thread: {e}");
            self.finish(timed, failed, started);
            return Flow::Continue;
        }
        loop {
            let Ok(event) = rx.recv() else {
                return Flow::Quit;
            };
            match event {
                Event::Line(line, at) => match interrupt(&line) {
                    Some(Interrupt::End) => {
                        stop.raise();
                        return Flow::Quit;
                    }
                    Some(Interrupt::Stop) => stop.raise(),
                    None => queue.push_back((line, at)),
                },
                Event::Eof => *eof = true,
                Event::Done(answer) => {
                    self.finish(timed, answer.unwrap_or(failed), started);
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

    /// What a job starts with, on whichever thread it runs (here or
    /// `Session::run_job_here`): the time it started, the engine given the session's
    /// memory limit, threads and restrictions, a stop token of its own, and the reporter of
    /// its progress.
    pub(super) fn start_job(&mut self) -> (Instant, StopToken, Reporter) {
        let started = Instant::now();
        self.prepare_engine();
        let reporter = Reporter::new(self.out.clone(), self.gui.show_detail, self.names());
        (started, StopToken::new(), reporter)
    }

    /// Charges a job's time to the clock, then applies its answer.
    pub(super) fn finish(&mut self, timed: bool, answer: Answer, started: Instant) {
        self.clock.answered(timed, started);
        answer.apply(self);
    }
}
