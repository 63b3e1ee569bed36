//! The process itself, as the operating system runs it: its address-space limit
//! (`ulimit -v`) and the allocator fitted to it at start ([`fit_allocator_to_address_space`],
//! called by the binary before any thread). Under such a limit the table is also sized
//! with room to spare ([`crate::engine::memory::allocatable`]).

/// The process's address-space limit in bytes (`ulimit -v`, `RLIMIT_AS`), if it has one
/// that Linux reports (`/proc/self/limits`); `None` elsewhere.
pub fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    address_space_in_limits(&limits)
}

/// The soft limit of `Max address space` in the text of `/proc/self/limits`, in bytes.
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
