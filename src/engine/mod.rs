//! The engine as front ends use it: a transposition table sized from the memory the
//! manager allows, the search threads, and one stop flag that `END`, `STOP` and the
//! clock raise.
//!
//! Below it: [`search`] (iterative deepening PVS), [`threat`] (VCF/VCT solver), [`movegen`]
//! (threat-aware move generation), [`picker`] (move ordering), [`params`] (the search's
//! tunable parameters), [`multipv`] (several best lines), [`tt`] (the lock-free
//! transposition table) and [`time`] (the move clock).

pub mod movegen;
pub mod multipv;
pub mod params;
pub mod picker;
pub mod search;
pub mod threat;
pub mod time;
pub mod tt;

use crate::core::board::Board;
use crate::engine::search::{Info, Limits, SearchResult, Searcher};
use crate::engine::tt::Tt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Most search threads the engine runs.
pub const MAX_THREADS: usize = 256;

/// Default number of threads: every core the machine reports, at most 64.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(64)
}

/// Default table size when the manager gives no memory limit.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

pub struct Engine {
    tt: Arc<Tt>,
    stop: Arc<AtomicBool>,
    searcher: Searcher,
    /// Helper threads' searchers (lazy SMP), kept between moves for their statistics.
    helpers: Vec<Searcher>,
    threads: usize,
    params: crate::engine::search::Params,
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
        Engine {
            tt,
            stop,
            searcher,
            helpers: Vec::new(),
            threads: 1,
            params: crate::engine::search::Params::default(),
        }
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
            self.searcher.params = self.params.clone();
            self.helpers.clear();
        }
    }

    pub fn hash_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Empties the table and the move-ordering statistics.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
        self.searcher.clear_history();
        for h in &mut self.helpers {
            h.clear_history();
        }
    }

    /// The search settings every thread uses.
    pub fn params(&self) -> &crate::engine::search::Params {
        &self.params
    }

    /// Search settings for every thread (for experiments; the defaults are the engine's).
    pub fn set_params(&mut self, params: crate::engine::search::Params) {
        self.searcher.params = params.clone();
        for h in &mut self.helpers {
            h.params = params.clone();
        }
        self.params = params;
    }

    /// Number of search threads to use (at most [`MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches the position for the side to move. Clears the stop flag first, so
    /// raise it only while this runs.
    ///
    /// With several threads (lazy SMP), helpers search the same position sharing the
    /// table; only the main thread's result and reports count, and it stops the helpers
    /// when it is done. One thread is fully deterministic for a fixed depth.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.stop.store(false, Ordering::SeqCst);
        if self.threads <= 1 {
            self.searcher.set_thread(0, None);
            return self.searcher.search(board, limits, report);
        }
        while self.helpers.len() < self.threads - 1 {
            let mut h = Searcher::new(self.tt.clone(), self.stop.clone());
            h.params = self.params.clone();
            self.helpers.push(h);
        }
        self.helpers.truncate(self.threads - 1);
        let nodes = Arc::new(AtomicU64::new(0));
        self.searcher.set_thread(0, Some(nodes.clone()));
        let helper_limits = Limits {
            max_depth: limits.max_depth,
            max_nodes: None,
            budget: None,
            skip_threats: limits.skip_threats,
        };
        let stop = self.stop.clone();
        let (main, helpers) = (&mut self.searcher, &mut self.helpers);
        std::thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                h.set_thread(i + 1, Some(nodes.clone()));
                let hl = helper_limits.clone();
                s.spawn(move || {
                    h.search(board, &hl, &mut |_| {});
                });
            }
            let r = main.search(board, limits, report);
            stop.store(true, Ordering::SeqCst);
            r
        })
    }
}
