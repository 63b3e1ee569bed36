//! Faulting a new transposition table's memory in while the engine is idle.
//!
//! A table is memory the system hands out zeroed and maps page by page when it is first
//! written ([`crate::engine::tt`]), so making it costs nothing, but a search that writes
//! to a page for the first time waits for the kernel: a few microseconds a page on a
//! virtual machine, where a 4 GiB table has a million pages. So after the engine makes a
//! table of [`WARM_MIN_BYTES`] or more, one background thread ([`Warmer`]) writes to each
//! of its pages in turn ([`Tt::touch_pages`]), and only while no search runs:
//! [`crate::engine::Engine::think`] pauses it for the search and lets it go on after. The
//! time it uses is the time between moves (the manager's, the opponent's), never a move's,
//! and little of it: it rests [`REST`] after every [`PAGES_PER_STEP`] pages (at most
//! 256 MB a second with 4 KiB pages, a fifth of a core or less), so that it does not take
//! a core from another program (the opponent, a second game) and a table replaced soon
//! after it was made (a manager that sends one memory setting after another) was not
//! written in for nothing.
//! It ends when every page has been written, or when the table is replaced: dropping the
//! [`Warmer`] stops and joins its thread, so the table it holds is freed with it.
//!
//! Its writes change no entry ([`Tt::touch_pages`]), so a search with one thread stays
//! deterministic whether or not the warmer ran before it.

use crate::engine::tt::Tt;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Smallest table a warmer is started for: below it a search faults its pages in at a
/// cost of a few milliseconds in all.
pub const WARM_MIN_BYTES: usize = 8 << 20;
/// Pages written between two rests (256 KiB with 4 KiB pages: a fraction of a
/// millisecond).
pub const PAGES_PER_STEP: usize = 64;
/// How long the warmer rests after each step (a pause or a stop ends the rest at once).
pub const REST: Duration = Duration::from_millis(1);

#[derive(Copy, Clone, PartialEq, Eq)]
enum State {
    Run,
    Pause,
    Stop,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn set(&self, state: State) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        // A stopped warmer stays stopped.
        if *s != State::Stop {
            *s = state;
        }
        self.changed.notify_all();
    }

    /// Rests for [`REST`] (less if the state changes), then waits while paused; false
    /// once stopped.
    fn rest(&self) -> bool {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut s, _) = self
            .changed
            .wait_timeout_while(s, REST, |s| *s == State::Run)
            .unwrap_or_else(PoisonError::into_inner);
        while *s == State::Pause {
            s = self.changed.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        *s == State::Run
    }
}

/// The background thread that writes a table's pages in (see the module's documentation).
pub struct Warmer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Warmer {
    /// Starts writing `tt`'s pages in, if it is of [`WARM_MIN_BYTES`] or more; `None` if it
    /// is smaller, or where no thread can be started (the table is then faulted in by the
    /// searches themselves, as it would be anyway).
    pub fn start(tt: Arc<Tt>) -> Option<Warmer> {
        if tt.size_bytes() < WARM_MIN_BYTES {
            return None;
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State::Run),
            changed: Condvar::new(),
        });
        let theirs = shared.clone();
        let thread = std::thread::Builder::new()
            .name("table warmer".into())
            .stack_size(64 << 10)
            .spawn(move || {
                let pages = tt.pages();
                let mut page = 0;
                while page < pages {
                    tt.touch_pages(page, PAGES_PER_STEP);
                    page += PAGES_PER_STEP;
                    if !theirs.rest() {
                        break;
                    }
                }
                log::debug!(
                    "table warmer: {} of {pages} pages written in",
                    page.min(pages)
                );
            });
        match thread {
            Ok(t) => Some(Warmer {
                shared,
                thread: Some(t),
            }),
            Err(e) => {
                log::debug!("no table warmer: {e}");
                None
            }
        }
    }

    /// Holds the warmer still (it stops within [`PAGES_PER_STEP`] pages) until the
    /// returned guard is dropped, also when a search unwinds.
    pub fn pause(&self) -> Paused {
        self.shared.set(State::Pause);
        Paused(self.shared.clone())
    }
}

/// A paused [`Warmer`]: it goes on when this is dropped.
pub struct Paused(Arc<Shared>);

impl Drop for Paused {
    fn drop(&mut self) {
        self.0.set(State::Run);
    }
}

impl Drop for Warmer {
    fn drop(&mut self) {
        self.shared.set(State::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::time::Instant;
    use crate::core::types::Bound;
    use crate::core::types::Pos;
    use std::time::Duration;

    /// Whether the warmer has written every page of its table.
    fn is_done(w: &Warmer) -> bool {
        w.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    fn wait_done(w: &Warmer) {
        let t = Instant::now();
        while !is_done(w) {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "the warmer never ends"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn small_tables_get_no_warmer() {
        assert!(Warmer::start(Arc::new(Tt::new(WARM_MIN_BYTES / 2))).is_none());
    }

    #[test]
    fn a_warmer_changes_no_entry_and_ends() {
        let tt = Arc::new(Tt::new(WARM_MIN_BYTES));
        let keys: Vec<u64> = (1..=2000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, Pos(i as u16 % 400 + 40), i as i32, 5, Bound::Exact);
        }
        let before: Vec<_> = keys.iter().map(|&k| tt.probe(k)).collect();
        let w = Warmer::start(tt.clone()).expect("a warmer");
        wait_done(&w);
        let after: Vec<_> = keys.iter().map(|&k| tt.probe(k)).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn a_paused_warmer_waits_and_a_dropped_one_stops() {
        let tt = Arc::new(Tt::new(16 << 20));
        let w = Warmer::start(tt.clone()).expect("a warmer");
        let paused = w.pause();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!is_done(&w), "a paused warmer went on to the end");
        drop(paused);
        wait_done(&w);
        let w = Warmer::start(tt.clone()).expect("a warmer");
        let _paused = w.pause();
        drop(w);
        // The warmer's thread has let go of the table.
        assert_eq!(Arc::strong_count(&tt), 1);
    }
}
