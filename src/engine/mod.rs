//! The engine as front ends use it. An [`Engine`] owns its resources: the transposition
//! table and the search threads, sized by the engine itself from the memory it is allowed
//! ([`Engine::configure`] applies a [`memory::MemoryPlan`]; a front end only passes on
//! its manager's limit and the threads it would like, all clamped to [`memory::MAX_THREADS`]).
//!
//! Stopping is per search: [`Engine::think`] takes a [`StopToken`] that the caller keeps
//! and raises from any thread (`END`, `STOP`, a GUI's stop button). The engine only reads
//! it, so a stop raised before the search starts is not lost, and one token can stop a
//! job of several searches. The clock and the depth and node limits are the search's own
//! ([`search::Limits`]); the root threat search is bounded by a deadline the solver
//! checks itself, so no search starts a timer thread.
//!
//! Making, resizing and emptying the table never stall a move, whatever its size: the
//! table is memory the system hands out zeroed, emptied by starting a new epoch
//! ([`tt`]), and its pages are written in by a background thread while no search runs
//! ([`warm`]).
//!
//! Below it: [`memory`] (the memory plan, and the process's address-space limit),
//! [`warm`] (the table's pages faulted in between searches), [`stop`] (stop tokens),
//! [`search`] (iterative deepening PVS), [`evaluation`] (what a search evaluates with,
//! and the choice of the network for each search, which the engine makes), [`threat`]
//! (the VCF/VCT solver), [`movegen`] (threat-aware move generation), [`picker`] (move
//! ordering), [`params`] (the search's tunable parameters), [`restrict`] (moves a person
//! ruled out: block paths and forbidden points), [`tt`] (the lock-free transposition
//! table) and [`time`] (the time plan of a move). The services built on the engine (several best
//! lines, the opening rules' decisions) are [`crate::analysis`]'s.

pub mod evaluation;
pub mod memory;
pub mod movegen;
pub mod params;
pub mod picker;
pub mod restrict;
pub mod search;
pub mod stop;
pub mod threads;
pub mod threat;
pub mod time;
pub mod tt;
pub mod warm;

use crate::core::board::Board;
use crate::engine::evaluation::Networks;
use crate::engine::memory::{
    affordable_threads, allocatable, clamp_threads, trial_spare, Cap, MemoryLimit, MemoryPlan,
    DEFAULT_HASH_BYTES,
};
use crate::engine::restrict::Restrictions;
use crate::engine::search::{Info, Limits, RootMove, SearchResult, Searcher};
pub use crate::engine::stop::StopToken;
use crate::engine::tt::Tt;
use crate::engine::warm::Warmer;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// Default number of threads: every core the machine reports, at most 64.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(64)
}

/// The engine: its transposition table, its search threads (a main searcher and the
/// helpers of a parallel search) and their settings. It is stopped through the token
/// each [`Engine::think`] is given, never through state of its own.
pub struct Engine {
    tt: Arc<Tt>,
    searcher: Searcher,
    /// Helper threads' searchers (lazy SMP), kept between moves for their statistics.
    helpers: Vec<Searcher>,
    threads: usize,
    params: crate::engine::search::Params,
    /// The table size the last [`Engine::configure`] planned (the table may be smaller,
    /// see [`allocatable`]); `None` until then.
    planned_table: Option<usize>,
    /// Moves every search leaves out ([`Engine::set_restrictions`]); empty by default.
    restrict: Arc<Restrictions>,
    /// The networks the searches may evaluate with (the built-in ones), and the choice
    /// among them that hands each thread its evaluation before a search.
    networks: Networks,
    /// Writes the table's pages in between searches ([`warm`]); `None` for a small table
    /// or once replaced.
    warmer: Option<Warmer>,
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
        let searcher = Searcher::new(tt.clone(), StopToken::new());
        Engine {
            warmer: Warmer::start(tt.clone()),
            tt,
            searcher,
            helpers: Vec::new(),
            threads: 1,
            params: crate::engine::search::Params::default(),
            planned_table: None,
            restrict: Arc::new(Restrictions::default()),
            networks: Networks::built_in(),
        }
    }

    /// Resizes the table (its contents are lost).
    fn set_hash_bytes(&mut self, bytes: usize) {
        self.planned_table = None;
        if bytes != self.tt.size_bytes() {
            // The old table's warmer stops (its thread ends) before the table is replaced.
            self.warmer = None;
            self.tt = Arc::new(Tt::new(bytes));
            self.searcher = Searcher::new(self.tt.clone(), StopToken::new());
            self.searcher.params = self.params.clone();
            self.helpers.clear();
            self.warmer = Warmer::start(self.tt.clone());
        }
    }

    /// Plans the memory for `limit` with `threads` wanted ([`MemoryPlan::new`]) and
    /// applies the plan: the threads, and a table of the planned size, or the largest
    /// the allocator grants (the plan returned then says [`Cap::Refused`] and has the
    /// size made). The table is made again only when the planned size changed since the
    /// last call (its contents are then lost), and the old one is freed first, so both
    /// never coexist. Making a table takes microseconds whatever its size ([`tt`]); a
    /// front end calls this when its manager sets the memory, before any clock runs,
    /// and again before each search, where it then changes nothing.
    ///
    /// Where even the smallest table leaves too little address space for the planned
    /// threads ([`affordable_threads`], under a `ulimit -v`), fewer threads run: a thread
    /// the system cannot give a stack to would abort the process.
    pub fn configure(&mut self, limit: MemoryLimit, threads: usize) -> MemoryPlan {
        let mut plan = MemoryPlan::new(limit, threads);
        let new_table = self.planned_table != Some(plan.table_bytes);
        // The old table is freed first, so that the trials see the room it leaves.
        if new_table {
            self.set_hash_bytes(tt::BUCKET_BYTES);
        }
        let affordable = affordable_threads(plan.threads);
        if affordable < plan.threads {
            log::warn!(
                "{} search threads do not fit in the address space; using {affordable}",
                plan.threads
            );
            plan.threads = affordable;
        }
        self.set_threads(plan.threads);
        if new_table {
            let got = allocatable(plan.table_bytes, trial_spare(plan.threads));
            if got < plan.table_bytes {
                log::warn!(
                    "a table of {} bytes cannot be allocated; using {got} bytes",
                    plan.table_bytes
                );
            }
            self.set_hash_bytes(got);
            self.planned_table = Some(plan.table_bytes);
        }
        let planned = plan.table_bytes;
        plan.table_bytes = self.hash_bytes();
        if plan.table_bytes < planned / tt::BUCKET_BYTES * tt::BUCKET_BYTES {
            plan.cap = Some(Cap::Refused);
        }
        plan
    }

    pub fn hash_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// How full the table is, in permille of its entries (sampled: see [`Tt::usage`]).
    pub fn hash_usage(&self) -> u32 {
        self.tt.usage()
    }

    /// Writes the table to `w` as a dump ([`Tt::dump`]); returns the number of entries.
    pub fn dump_hash(&self, context: u32, w: &mut dyn std::io::Write) -> std::io::Result<u64> {
        self.tt.dump(context, w)
    }

    /// Replaces the table's contents with a dump's ([`Tt::load_dump`]); an error leaves
    /// the table as it was.
    pub fn load_hash(&mut self, context: u32, bytes: &[u8]) -> Result<u64, String> {
        self.tt.load_dump(context, bytes)
    }

    /// The table's entry for a position key, if it holds one.
    pub fn probe_hash(&self, key: u64) -> Option<tt::Entry> {
        self.tt.probe(key)
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

    /// The moves every search leaves out from now on (block paths, forbidden points). When
    /// they differ from the ones before, the transposition table and the move-ordering
    /// statistics are emptied, so that nothing found under other restrictions is read
    /// back; the same set again changes nothing.
    pub fn set_restrictions(&mut self, restrict: &Restrictions) {
        if *self.restrict == *restrict {
            return;
        }
        self.restrict = Arc::new(restrict.clone());
        self.clear_hash();
    }

    /// The moves every search leaves out.
    pub fn restrictions(&self) -> &Restrictions {
        &self.restrict
    }

    /// Number of search threads to use (at most [`memory::MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = clamp_threads(n);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches the position for the side to move until `limits` or `stop` ends it.
    /// `stop` may be raised from any thread, also before this is called: the search then
    /// stops at its first check, with a legal move as always. The token is only read,
    /// never cleared or raised, so one token can cover several searches.
    ///
    /// With several threads (lazy SMP), helpers search the same position sharing the
    /// table; only the main thread's result and reports count, and it stops the helpers
    /// (through a child of `stop`) when it is done. One thread is fully deterministic for
    /// a fixed depth.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &StopToken,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.think_observed(board, limits, stop, report, None)
    }

    /// [`Engine::think`] whose main thread also tells `observe` which root move it
    /// enters and leaves, once the search has run for [`search::ROOT_MOVES_AFTER`]
    /// ([`Searcher::search_observed`]; helper threads never do). The search is the same
    /// with and without an observer.
    ///
    /// The table's warmer ([`warm`]) is held still while the search runs.
    pub fn think_observed(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &StopToken,
        report: &mut dyn FnMut(&Info),
        observe: Option<&mut dyn FnMut(RootMove)>,
    ) -> SearchResult {
        let _paused = self.warmer.as_ref().map(Warmer::pause);
        self.searcher.set_stop(stop.clone());
        self.searcher.set_restrictions(self.restrict.clone());
        // Every thread is handed its evaluation for this board: the network chosen for
        // its rule and size, or the classical one.
        self.searcher.prepare_evaluation(&mut self.networks, board);
        if self.threads <= 1 {
            self.searcher.set_thread(0, None);
            return self
                .searcher
                .search_observed(board, limits, report, observe);
        }
        while self.helpers.len() < self.threads - 1 {
            let mut h = Searcher::new(self.tt.clone(), StopToken::new());
            h.params = self.params.clone();
            self.helpers.push(h);
        }
        self.helpers.truncate(self.threads - 1);
        for h in &mut self.helpers {
            h.prepare_evaluation(&mut self.networks, board);
        }
        let nodes = Arc::new(AtomicU64::new(0));
        self.searcher.set_thread(0, Some(nodes.clone()));
        let helper_limits = Limits {
            max_depth: limits.max_depth,
            max_nodes: None,
            budget: None,
            skip_threats: limits.skip_threats,
        };
        let helpers_stop = stop.child();
        let mut idle = std::mem::take(&mut self.helpers).into_iter();
        let mut running = Vec::new();
        for (i, mut h) in idle.by_ref().enumerate() {
            h.set_thread(i + 1, Some(nodes.clone()));
            h.set_stop(helpers_stop.clone());
            h.set_restrictions(self.restrict.clone());
            let (b, hl) = (board.clone(), helper_limits.clone());
            let job = move || {
                h.search(&b, &hl, &mut |_| {});
                h
            };
            match threads::spawn(memory::HELPER_STACK_BYTES, job) {
                Ok(helper) => running.push(helper),
                // A system out of threads or address space: the helpers started search.
                Err(e) => {
                    log::warn!("search helper {} cannot start: {e}", i + 1);
                    break;
                }
            }
        }
        self.helpers.extend(idle);
        let r = self
            .searcher
            .search_observed(board, limits, report, observe);
        helpers_stop.raise();
        for helper in running {
            match helper.join() {
                Some(h) => self.helpers.push(h),
                None => log::error!("a search helper failed"),
            }
        }
        r
    }
}
