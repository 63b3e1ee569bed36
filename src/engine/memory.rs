//! How the engine spends the memory it is allowed: the size of the transposition table
//! and how many search threads fit beside it.
//!
//! A front end only says what it was given ([`MemoryLimit`]: the manager's `max_memory`
//! for the whole engine, or a size for the table alone) and how many threads it would
//! like; [`MemoryPlan::new`] decides, and [`crate::engine::Engine::configure`] applies the
//! plan. Everything but the table and the helper threads is a fixed reserve
//! ([`RESERVED_BYTES`]).
//!
//! A limit is a grant, not a demand: no limit makes the engine plan for more memory than
//! the machine has ([`machine_memory`]), and the plan says what held the table below what
//! the limit alone would give ([`Cap`]), so that a front end can tell its user.

/// Most search threads the engine runs: every thread count the engine is given, from a
/// protocol, a command line or a memory plan, is clamped to this.
pub const MAX_THREADS: usize = 256;

/// `n` as a number of search threads: 1 to [`MAX_THREADS`].
pub fn clamp_threads(n: usize) -> usize {
    n.clamp(1, MAX_THREADS)
}

/// Default table size when the manager gives no memory limit.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;
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

/// What held the table below the size its [`MemoryLimit`] alone gives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cap {
    /// The limit is more than the machine has (its memory in bytes, [`machine_memory`]):
    /// the plan is made for that instead.
    Machine(u64),
    /// The table would be larger than [`MAX_HASH_BYTES`].
    Largest,
    /// The system refused the memory (an address-space or commit limit): the table is
    /// the largest it granted ([`allocatable`]; set by [`crate::engine::Engine::configure`]).
    Refused,
}

/// What fits under a [`MemoryLimit`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Size of the transposition table to allocate (the allocator may grant less, see
    /// [`allocatable`]).
    pub table_bytes: usize,
    /// Search threads to run (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// What made the table smaller than the limit alone gives, if anything.
    pub cap: Option<Cap>,
}

impl MemoryPlan {
    /// The table size and the number of search threads for `limit` and the threads asked
    /// for, on this machine (`MemoryPlan::for_machine` with [`machine_memory`]).
    pub fn new(limit: MemoryLimit, threads: usize) -> MemoryPlan {
        MemoryPlan::for_machine(limit, threads, machine_memory())
    }

    /// The table size and the number of search threads for `limit` and the threads asked
    /// for (clamped to 1 ..= [`MAX_THREADS`]) on a machine with `machine`
    /// bytes of memory (`None`: not known).
    ///
    /// Under [`MemoryLimit::Total`], what is left of its [`MEMORY_SHARE_PERCENT`] after
    /// [`RESERVED_BYTES`] is shared: threads beyond the first take at most half of it
    /// ([`THREAD_BYTES`] each) and the table the rest, so a small limit on a machine with
    /// many cores runs fewer threads rather than go over it. Other limits keep the
    /// threads. A whole-engine limit above the machine's memory counts as the machine's
    /// memory, and a table alone gets at most what that would give it. The table is
    /// always between [`MIN_HASH_BYTES`] and [`MAX_HASH_BYTES`].
    fn for_machine(limit: MemoryLimit, threads: usize, machine: Option<u64>) -> MemoryPlan {
        let threads = clamp_threads(threads);
        let machine = machine.filter(|&m| m > 0);
        let mut cap = None;
        let (table, threads) = match limit {
            MemoryLimit::Total(m) if m > 0 => {
                let m = match machine {
                    Some(have) if have < m => {
                        cap = Some(Cap::Machine(have));
                        have
                    }
                    _ => m,
                };
                let usable = usable_bytes(m);
                let extra = usize::try_from(usable / 2 / THREAD_BYTES).unwrap_or(usize::MAX);
                let threads = threads.min(extra.saturating_add(1));
                let helpers = (threads as u64 - 1).saturating_mul(THREAD_BYTES);
                (usable.saturating_sub(helpers), threads)
            }
            MemoryLimit::Table(t) if t > 0 => match machine {
                Some(have) if usable_bytes(have) < t => {
                    cap = Some(Cap::Machine(have));
                    (usable_bytes(have), threads)
                }
                _ => (t, threads),
            },
            _ => (DEFAULT_HASH_BYTES as u64, threads),
        };
        if table > MAX_HASH_BYTES && cap.is_none() {
            cap = Some(Cap::Largest);
        }
        let table = table.clamp(MIN_HASH_BYTES, MAX_HASH_BYTES);
        MemoryPlan {
            table_bytes: usize::try_from(table).unwrap_or(usize::MAX),
            threads,
            cap,
        }
    }
}

/// The memory this machine has, in bytes, as far as the engine can tell: the physical
/// memory (Linux: `MemTotal` of `/proc/meminfo`; Windows: `GlobalMemoryStatusEx`), or the
/// memory limit of the process's control group (a container's, Linux cgroup v2
/// `memory.max`) where that is less. `None` where neither can be read.
pub fn machine_memory() -> Option<u64> {
    let physical = physical_memory();
    let group = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    match (physical, group) {
        (Some(p), Some(g)) => Some(p.min(g)),
        (p, g) => p.or(g),
    }
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
#[cfg(not(windows))]
fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total(&info)
}

/// The physical memory Windows reports (`GlobalMemoryStatusEx`'s `ullTotalPhys`).
#[cfg(windows)]
#[allow(unsafe_code)]
fn physical_memory() -> Option<u64> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    let mut status = MEMORYSTATUSEX {
        dwLength: std::mem::size_of::<MEMORYSTATUSEX>() as u32,
        dwMemoryLoad: 0,
        ullTotalPhys: 0,
        ullAvailPhys: 0,
        ullTotalPageFile: 0,
        ullAvailPageFile: 0,
        ullTotalVirtual: 0,
        ullAvailVirtual: 0,
        ullAvailExtendedVirtual: 0,
    };
    // SAFETY: `status` is a valid MEMORYSTATUSEX with its length set, as the call requires;
    // it only writes into it.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) } != 0;
    (ok && status.ullTotalPhys > 0).then_some(status.ullTotalPhys)
}

/// The `MemTotal` line of a `/proc/meminfo` text, in bytes.
#[cfg_attr(windows, allow(dead_code))]
fn mem_total(info: &str) -> Option<u64> {
    let kb: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    kb.checked_mul(1024)
}

/// The part of a whole-engine limit of `total` bytes left for the table and the helper
/// threads: its [`MEMORY_SHARE_PERCENT`] less [`RESERVED_BYTES`].
fn usable_bytes(total: u64) -> u64 {
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

// The process's address-space limit (`ulimit -v`) and the allocator fitted to it at
// start, called by the binaries before any thread. Under such a limit the table is also
// sized with room to spare ([`allocatable`]).

/// The process's address-space limit in bytes (`ulimit -v`, `RLIMIT_AS`), if it has one
/// that Linux reports (`/proc/self/limits`); `None` elsewhere.
#[cfg(any(test, all(target_os = "linux", target_env = "gnu")))]
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    address_space_in_limits(&limits)
}

/// The soft limit of `Max address space` in the text of `/proc/self/limits`, in bytes.
#[cfg(any(test, all(target_os = "linux", target_env = "gnu")))]
fn address_space_in_limits(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// Fits the allocator to an address-space limit; call once at start, before any thread.
///
/// glibc's allocator gives each thread that allocates an arena of its own, up to eight
/// for each core, and each reserves 64 MB of address space. Under a `ulimit -v` of a few
/// hundred megabytes, a search with a handful of threads would exhaust the limit with
/// reservations it never uses, and the next allocation anywhere would fail and abort the
/// process. Under a limit the allocator keeps one arena for every thread (they share its
/// lock, a cost paid only under such a limit); without one, and on other allocators,
/// nothing changes.
#[cfg_attr(all(target_os = "linux", target_env = "gnu"), allow(unsafe_code))]
pub fn fit_allocator_to_address_space() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if let Some(limit) = address_space_limit() {
        // SAFETY: mallopt only sets an allocator parameter; M_ARENA_MAX takes any count.
        let set = unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) } == 1;
        log::debug!("address space limited to {limit} bytes: one allocator arena ({set})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(limit: MemoryLimit) -> usize {
        MemoryPlan::for_machine(limit, 1, None).table_bytes
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
            let p = MemoryPlan::for_machine(limit, threads, None);
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
    fn no_limit_plans_for_more_than_the_machine_has() {
        const GB: u64 = 1 << 30;
        let plan = |limit, machine| MemoryPlan::for_machine(limit, 1, machine);
        // Under the machine's memory: as without it.
        let gomocup = MemoryLimit::Total(350 << 20);
        assert_eq!(plan(gomocup, Some(24 * GB)), plan(gomocup, None));
        assert_eq!(plan(gomocup, Some(24 * GB)).cap, None);
        // More than the machine: planned for the machine.
        let huge = plan(MemoryLimit::Total(u64::MAX), Some(2 * GB));
        assert_eq!(huge.cap, Some(Cap::Machine(2 * GB)));
        assert_eq!(huge.table_bytes as u64, usable_bytes(2 * GB));
        let table = plan(MemoryLimit::Table(4 * GB), Some(2 * GB));
        assert_eq!(table.cap, Some(Cap::Machine(2 * GB)));
        assert_eq!(table.table_bytes as u64, usable_bytes(2 * GB));
        assert_eq!(plan(MemoryLimit::Table(GB), Some(2 * GB)).cap, None);
        // The largest table the engine makes.
        let big = plan(MemoryLimit::Total(16 * GB), Some(64 * GB));
        assert_eq!(big.cap, Some(Cap::Largest));
        assert_eq!(big.table_bytes as u64, MAX_HASH_BYTES);
        assert_eq!(
            plan(MemoryLimit::Total(16 * GB), None).cap,
            Some(Cap::Largest)
        );
        assert_eq!(plan(MemoryLimit::Default, Some(GB)).cap, None);
    }

    #[test]
    fn the_machines_memory_is_read_from_meminfo() {
        let info = "MemTotal:       24559044 kB\nMemFree:        23000000 kB\n";
        assert_eq!(mem_total(info), Some(24_559_044 * 1024));
        assert_eq!(mem_total("MemFree: 5 kB\n"), None);
        assert_eq!(mem_total("MemTotal: lots\n"), None);
        if cfg!(target_os = "linux") {
            assert!(machine_memory().is_some_and(|m| m > 64 << 20));
        }
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

    #[test]
    fn the_address_space_limit_is_read_from_the_kernels_table() {
        let limited = "Limit                     Soft Limit           Hard Limit           Units     \n\
                       Max stack size            8388608              unlimited            bytes     \n\
                       Max address space         307200000            unlimited            bytes     \n";
        assert_eq!(address_space_in_limits(limited), Some(307_200_000));
        let free =
            "Max address space         unlimited            unlimited            bytes     \n";
        assert_eq!(address_space_in_limits(free), None);
        assert_eq!(address_space_in_limits(""), None);
    }
}
