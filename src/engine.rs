//! The engine as front ends use it: a transposition table sized from the memory the
//! manager allows, the search threads, and one stop flag that `END`, `STOP` and the
//! clock raise.

use crate::board::Board;
use crate::search::{Info, Limits, SearchResult, Searcher};
use crate::tt::Tt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Default table size when the manager gives no memory limit.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

pub struct Engine {
    tt: Arc<Tt>,
    stop: Arc<AtomicBool>,
    searcher: Searcher,
    threads: usize,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_BYTES)
    }
}

impl Engine {
    /// An engine whose table takes at most `hash_bytes`.
    pub fn new(hash_bytes: usize) -> Engine {
        let tt = Arc::new(Tt::new(hash_bytes));
        let stop = Arc::new(AtomicBool::new(false));
        let searcher = Searcher::new(tt.clone(), stop.clone());
        Engine { tt, stop, searcher, threads: 1 }
    }

    /// The flag that stops a running search (set it from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Resizes the table (its contents are lost).
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        if bytes != self.tt.size_bytes() {
            self.tt = Arc::new(Tt::new(bytes));
            self.searcher = Searcher::new(self.tt.clone(), self.stop.clone());
        }
    }

    pub fn hash_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Empties the table and the move-ordering statistics.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
        self.searcher.clear_history();
    }

    /// Number of search threads to use.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches the position for the side to move. Clears the stop flag first, so
    /// raise it only while this runs.
    pub fn think(&mut self, board: &Board, limits: &Limits, report: &mut dyn FnMut(&Info)) -> SearchResult {
        self.stop.store(false, Ordering::SeqCst);
        self.searcher.search(board, limits, report)
    }
}
