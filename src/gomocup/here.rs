//! The protocol on the caller's own thread, one line at a time: for a host that hands
//! the engine its lines and takes its replies itself, where no thread can be started.
//! That is the browser (`src/web`): the engine runs in a Web Worker of its own, a search
//! runs to its answer inside the call that asked for it, and the page stops it through
//! the host's stop flag, which every [`crate::engine::StopToken`] reads there
//! (`core::host`).
//!
//! The lines mean what they mean on standard input ([`crate::gomocup::run`]), with two
//! differences that follow from the single thread: a `STOP` can only come from the host's
//! flag, not as a line during the search, and there is no pondering (the page analyses
//! while the person thinks, and stops that when they move).

use crate::core::time::Instant;
use crate::gomocup::output::Output;
use crate::gomocup::session::{Flow, Job, Session};
use std::sync::{Arc, PoisonError};

/// A session driven one line at a time.
pub struct Driver {
    session: Session,
    ended: bool,
}

impl Driver {
    /// A new session writing its replies to `out`.
    pub fn new(out: Arc<Output>) -> Driver {
        Driver {
            session: Session::new(out),
            ended: false,
        }
    }

    /// Handles one input line (without its line end), running any search it asks for to
    /// its answer. Returns false once the session is over (`END`); later lines are
    /// ignored.
    pub fn line(&mut self, line: &str) -> bool {
        if self.ended {
            return false;
        }
        let received = Instant::now();
        let framed = self.session.frame(line);
        match self.session.handle(framed, received) {
            Flow::Continue => {}
            Flow::Quit => self.ended = true,
            Flow::Think(job) => self.session.run_job_here(job),
        }
        !self.ended
    }
}

impl Session {
    /// Runs a job on this thread, then charges the clock and applies its answer, as
    /// `Session::run_job` does on its worker.
    fn run_job_here(&mut self, job: Job) {
        let (started, stop, reporter) = self.start_job();
        let Job { search, timed, .. } = job;
        let answer = {
            let mut e = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
            search(&mut e, &reporter, &stop)
        };
        self.finish(timed, answer, started);
    }
}
