//! How the engine spends the memory it is allowed: the size of the transposition table
//! and how many search threads fit beside it.
//!
//! A front end only says what it was given ([`MemoryLimit`]: the manager's `max_memory`
//! for the whole engine, or a size for the table alone) and how many threads it would
//! like; [`MemoryPlan::new`] decides, and [`crate::engine::Engine::configure`] applies the
//! plan. Everything but the table and the helper threads is a fixed reserve
//! ([`RESERVED_BYTES`]).

use crate::engine::DEFAULT_HASH_BYTES;

/// Memory the engine needs besides the transposition table and the helper threads: the
/// shape tables (about 2 MB for each rule used, see [`crate::core::tables::Tables`]; a
/// session normally uses one or two rules), the main search thread's stack and buffers,
/// board copies, the program itself and its I/O buffers.
pub const RESERVED_BYTES: u64 = 16 << 20;
/// Share of a whole-engine limit the engine plans to use (the rest is a safety margin
/// for the allocator and the operating system's accounting).
pub const MEMORY_SHARE_PERCENT: u64 = 70;
/// Smallest table the engine uses, however little memory it is given.
pub const MIN_HASH_BYTES: u64 = 256 << 10;
/// Largest table the engine allocates (every limit is capped here).
pub const MAX_HASH_BYTES: u64 = 4 << 30;
/// Memory each search thread beyond the first takes: its searcher's move buffers, history,
/// principal variations and threat-search table, the touched part of its stack, and,
/// where a network evaluates, its evaluator's per-square sums. Measured on Linux x86-64
/// (peak resident memory with 1 and 33 threads, a 1 MB table, 2.5 s of search): about
/// 1.3 MB a thread with the classical evaluation and 1.8 MB with a network (the
/// networks' weights are shared), to which the evaluator's score cache has since added
/// 128 KB ([`crate::nn::eval::SCORE_CACHE_ENTRIES`]). Planned for the larger, since
/// `use_net` can change after the plan is made.
pub const THREAD_BYTES: u64 = 2 << 20;

/// What the engine may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// Nothing said: a table of [`DEFAULT_HASH_BYTES`].
    Default,
    /// Bytes for the whole engine (0: as [`MemoryLimit::Default`]).
    Total(u64),
    /// Bytes for the table alone (0: as [`MemoryLimit::Default`]).
    Table(u64),
}

/// What fits under a [`MemoryLimit`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Size of the transposition table to allocate (the allocator may grant less, see
    /// [`allocatable`]).
    pub table_bytes: usize,
    /// Search threads to run (1 to [`crate::engine::MAX_THREADS`]).
    pub threads: usize,
}

impl MemoryPlan {
    /// The table size and the number of search threads for `limit` and the threads asked
    /// for (clamped to 1 ..= [`crate::engine::MAX_THREADS`]).
    ///
    /// Under [`MemoryLimit::Total`], what is left of its [`MEMORY_SHARE_PERCENT`] after
    /// [`RESERVED_BYTES`] is shared: threads beyond the first take at most half of it
    /// ([`THREAD_BYTES`] each) and the table the rest, so a small limit on a machine with
    /// many cores runs fewer threads rather than go over it. Other limits keep the
    /// threads. The table is always between [`MIN_HASH_BYTES`] and [`MAX_HASH_BYTES`].
    pub fn new(limit: MemoryLimit, threads: usize) -> MemoryPlan {
        let threads = crate::engine::clamp_threads(threads);
        let (table, threads) = match limit {
            MemoryLimit::Total(m) if m > 0 => {
                let usable = usable_bytes(m);
                let extra = usize::try_from(usable / 2 / THREAD_BYTES).unwrap_or(usize::MAX);
                let threads = threads.min(extra.saturating_add(1));
                let helpers = (threads as u64 - 1).saturating_mul(THREAD_BYTES);
                (usable.saturating_sub(helpers), threads)
            }
            MemoryLimit::Table(t) if t > 0 => (t, threads),
            _ => (DEFAULT_HASH_BYTES as u64, threads),
        };
        let table = table.clamp(MIN_HASH_BYTES, MAX_HASH_BYTES);
        MemoryPlan {
            table_bytes: usize::try_from(table).unwrap_or(usize::MAX),
            threads,
        }
    }
}

/// The part of a whole-engine limit of `total` bytes left for the table and the helper
/// threads: its [`MEMORY_SHARE_PERCENT`] less [`RESERVED_BYTES`].
pub fn usable_bytes(total: u64) -> u64 {
    (total / 100)
        .saturating_mul(MEMORY_SHARE_PERCENT)
        .saturating_sub(RESERVED_BYTES)
}

/// The address space a trial table allocation leaves spare ([`allocatable`]) besides
/// what the helper threads take ([`trial_spare`]): the engine reserves more after the
/// table is made (the search thread's stack, the pondering thread's, the networks read at
/// the first search), which under a `ulimit -v` near the table's size would otherwise
/// fail and abort the process. It is larger than [`RESERVED_BYTES`], the memory the plan
/// expects the rest of the engine to use, because it is address space: a limit on that
/// counts a thread's whole stack and every reservation, used or not.
pub const TRIAL_SPARE_BYTES: usize = 64 << 20;

/// The stack of a helper thread of a parallel search (the standard library's default):
/// address space it takes beside its [`THREAD_BYTES`] of heap.
pub const HELPER_STACK_BYTES: usize = 2 << 20;

/// The address space to leave spare beside the table for `threads` search threads:
/// [`TRIAL_SPARE_BYTES`], and for each helper its [`THREAD_BYTES`] and its stack.
pub fn trial_spare(threads: usize) -> usize {
    let helper = THREAD_BYTES as usize + HELPER_STACK_BYTES;
    TRIAL_SPARE_BYTES.saturating_add(threads.saturating_sub(1).saturating_mul(helper))
}

/// The largest size up to `bytes` (halving, down to [`MIN_HASH_BYTES`], which is never
/// refused) that the allocator grants now with `spare` bytes more ([`trial_spare`]).
/// Where the address space or the committed memory is limited (`ulimit -v`, a job
/// object), a table the system refuses would abort the process, and so would one that
/// leaves nothing for what the engine allocates after it (threads, and the networks read
/// at the first search); a trial allocation of the size and the spare, freed at once,
/// finds what fits. (Where memory is overcommitted the trial always succeeds and costs
/// nothing: it is never written.)
pub fn allocatable(bytes: usize, spare: usize) -> usize {
    let mut b = bytes;
    while b > MIN_HASH_BYTES as usize {
        if grants(b.saturating_add(spare)) {
            return b;
        }
        b /= 2;
    }
    b.max(MIN_HASH_BYTES as usize)
}

/// Whether the allocator grants `bytes` now: a trial reservation, freed at once and
/// never written.
fn grants(bytes: usize) -> bool {
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}

/// The most search threads, up to `threads` (halving, down to one, which is never
/// refused), whose [`trial_spare`] the allocator grants now beside the smallest table.
/// Under a `ulimit -v` a thread the system cannot give its stack (or the standard
/// library its signal stack) aborts the process, so the threads are fitted before the
/// table, which [`allocatable`] then sizes with their spare.
pub fn affordable_threads(threads: usize) -> usize {
    let mut t = threads.max(1);
    while t > 1 {
        if grants((MIN_HASH_BYTES as usize).saturating_add(trial_spare(t))) {
            return t;
        }
        t /= 2;
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MAX_THREADS;

    fn table(limit: MemoryLimit) -> usize {
        MemoryPlan::new(limit, 1).table_bytes
    }

    #[test]
    fn memory_limits_the_table() {
        assert_eq!(table(MemoryLimit::Default), DEFAULT_HASH_BYTES);
        assert_eq!(table(MemoryLimit::Total(0)), DEFAULT_HASH_BYTES);
        assert_eq!(table(MemoryLimit::Table(0)), DEFAULT_HASH_BYTES);
        let m = 350u64 << 20;
        let b = table(MemoryLimit::Total(m)) as u64;
        assert!(b + RESERVED_BYTES <= m * 7 / 10 + 1);
        assert!(b >= m / 2);
        assert_eq!(table(MemoryLimit::Total(1 << 20)) as u64, MIN_HASH_BYTES);
        assert_eq!(table(MemoryLimit::Table(1 << 20)), 1 << 20);
        assert_eq!(table(MemoryLimit::Table(u64::MAX)) as u64, MAX_HASH_BYTES);
    }

    #[test]
    fn memory_limits_the_threads() {
        let plan = |limit, threads| {
            let p = MemoryPlan::new(limit, threads);
            (p.table_bytes, p.threads)
        };
        // Other limits keep the threads (within the engine's cap).
        assert_eq!(plan(MemoryLimit::Default, 64), (DEFAULT_HASH_BYTES, 64));
        assert_eq!(plan(MemoryLimit::Table(1 << 20), 8), (1 << 20, 8));
        assert_eq!(plan(MemoryLimit::Total(0), 0), (DEFAULT_HASH_BYTES, 1));
        assert_eq!(plan(MemoryLimit::Default, usize::MAX).1, MAX_THREADS);
        // Too little memory for more than one thread.
        assert_eq!(
            plan(MemoryLimit::Total(20 << 20), 64),
            (MIN_HASH_BYTES as usize, 1)
        );
        // Threads take at most half of what is left after the reserve; all fits the limit.
        for (m, asked) in [
            (64u64 << 20, 128),
            (64 << 20, 4),
            (350 << 20, 64),
            (1 << 30, 512),
        ] {
            let (table, threads) = plan(MemoryLimit::Total(m), asked);
            let usable = m / 100 * MEMORY_SHARE_PERCENT - RESERVED_BYTES;
            assert!(threads >= 1 && threads <= asked.min(MAX_THREADS));
            assert!(
                (threads as u64 - 1) * THREAD_BYTES <= usable / 2,
                "{m} {asked}: {threads} threads"
            );
            assert!(
                table as u64 + (threads as u64 - 1) * THREAD_BYTES <= usable,
                "{m} {asked}: {table}"
            );
            assert!(
                table as u64 >= usable / 2 - THREAD_BYTES,
                "{m} {asked}: the table gets the rest"
            );
        }
        assert_eq!(plan(MemoryLimit::Total(64 << 20), 4).1, 4);
        assert!(plan(MemoryLimit::Total(64 << 20), 128).1 < 40);
    }

    #[test]
    fn a_table_too_large_to_allocate_is_halved() {
        assert_eq!(allocatable(1 << 20, trial_spare(1)), 1 << 20);
        assert_eq!(allocatable(1 << 20, usize::MAX), MIN_HASH_BYTES as usize);
        // More than any address space: halved until an allocation succeeds.
        let b = allocatable(usize::MAX, trial_spare(4));
        assert!(b < usize::MAX && b >= MIN_HASH_BYTES as usize);
    }

    #[test]
    fn threads_whose_stacks_fit_nowhere_are_halved() {
        assert_eq!(affordable_threads(0), 1);
        assert_eq!(affordable_threads(1), 1);
        assert_eq!(affordable_threads(8), 8);
        // More than any address space (a spare of 4 MB a thread past 2^62 bytes).
        let t = affordable_threads(usize::MAX / 2);
        assert!((1..usize::MAX / 4).contains(&t), "{t}");
    }
}
