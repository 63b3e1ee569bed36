//! Pondering (`INFO pondering 1`): after the engine has answered a move, it searches the
//! position the opponent now faces on a thread of its own, with no limit, until the next
//! line arrives. The search fills the transposition table, so the answer to the
//! opponent's move starts from what the table learned meanwhile. Pondering prints
//! nothing, answers nothing and changes no setting, and it takes no time from the clock:
//! the session counts only its own searches, and the next command's time runs from the
//! moment it arrived, as always.
//!
//! Stopping: [`Ponder::stop`] raises the search's token and waits for the thread, which
//! returns within a few hundred nodes (the search reads its token every 256 nodes and
//! the threat solver checks it too), so the engine is free again for the command.

use crate::core::board::Board;
use crate::core::time::Instant;
use crate::engine::search::Limits;
use crate::engine::{Engine, StopToken};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack size of the pondering thread (as the session's search thread).
const STACK_BYTES: usize = 16 << 20;

/// A search running in the background until stopped.
pub struct Ponder {
    stop: StopToken,
    handle: JoinHandle<()>,
    started: Instant,
}

impl Ponder {
    /// Starts searching `board` (the opponent to move) on its own thread, with the
    /// engine's settings and no limit but the stop. `None` if no thread can be started
    /// (the game goes on without pondering).
    pub fn start(engine: Arc<Mutex<Engine>>, board: Board) -> Option<Ponder> {
        let stop = StopToken::new();
        let token = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("fivefold-ponder".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    let mut e = engine.lock().unwrap_or_else(PoisonError::into_inner);
                    if token.is_raised() {
                        return;
                    }
                    let limits = Limits::default();
                    let r = e.think(&board, &limits, &token, &mut |_| {});
                    log::debug!(
                        "pondering: depth {}, {} nodes, {:?}",
                        r.depth,
                        r.nodes,
                        r.elapsed
                    );
                }));
                if ran.is_err() {
                    log::error!("pondering failed; the game goes on");
                }
            });
        match spawned {
            Ok(handle) => Some(Ponder {
                stop,
                handle,
                started: Instant::now(),
            }),
            Err(e) => {
                log::warn!("cannot start pondering: {e}");
                None
            }
        }
    }

    /// Stops the search and waits until the engine is free; returns how long it ran.
    pub fn stop(self) -> Duration {
        self.stop.raise();
        let ran = self.started.elapsed();
        if self.handle.join().is_err() {
            log::error!("the pondering thread failed");
        }
        log::debug!("pondering stopped after {ran:?}");
        ran
    }
}
