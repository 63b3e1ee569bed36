//! Memory limits (issue 7): after real searching, the engine's peak resident memory
//! (`VmHWM` in `/proc/<pid>/status`, so Linux only) stays under `INFO max_memory`, also with
//! many search threads, and `INFO hash_size` sizes the table; a table the system refuses
//! is made smaller rather than abort the engine.

#![cfg(target_os = "linux")]

mod common;

use common::{expect_move, Brain};
use std::process::Command;

/// Peak and current resident memory of a process, in bytes.
fn memory(pid: u32) -> (u64, u64) {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read /proc/<pid>/status");
    let field = |name: &str| -> u64 {
        let line = status
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {status}"));
        let kb: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.parse().ok())
            .expect("a number of kB");
        kb * 1024
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// Plays a few moves with `settings` sent first (searching about `turn_ms` each), empties
/// the table, and returns the peak resident memory.
fn peak_after_searching(settings: &[&str], rule: u32, turn_ms: u64) -> u64 {
    let mut b = Brain::start();
    b.send(&format!("INFO rule {rule}"));
    for s in settings {
        b.send(s);
    }
    b.new_game(15, turn_ms);
    let mut taken = vec![expect_move(&b.ask("BEGIN"))];
    for their in [(3, 3), (11, 3), (3, 11), (11, 11)] {
        if taken.contains(&their) {
            continue;
        }
        taken.push(their);
        taken.push(expect_move(
            &b.ask(&format!("TURN {},{}", their.0, their.1)),
        ));
    }
    // Emptying the table writes all of it, so all of it is resident now, however few
    // entries the searches stored (a debug build searches slowly).
    b.send("YXHASHCLEAR");
    b.expect_silence();
    let (peak, _) = memory(b.pid());
    b.send("END");
    peak
}

const MB: u64 = 1 << 20;

#[test]
fn max_memory_64mb_is_kept_and_used() {
    let limit = 64 * MB;
    for rule in [0, 4] {
        let peak = peak_after_searching(&[&format!("INFO max_memory {limit}")], rule, 150);
        eprintln!(
            "rule {rule}, max_memory 64 MB: peak {:.1} MB",
            peak as f64 / MB as f64
        );
        assert!(
            peak < limit,
            "rule {rule}: peak resident memory {peak} bytes is over the limit {limit}"
        );
        // Most of it goes to the table (0.7 * 64 MB less 16 MB for the rest).
        assert!(
            peak > 28 * MB,
            "rule {rule}: peak {peak} bytes: the table does not use the memory allowed"
        );
    }
}

#[test]
fn max_memory_20mb_is_kept() {
    let limit = 20 * MB;
    for rule in [0, 4] {
        let peak = peak_after_searching(&[&format!("INFO max_memory {limit}")], rule, 150);
        eprintln!(
            "rule {rule}, max_memory 20 MB: peak {:.1} MB",
            peak as f64 / MB as f64
        );
        assert!(
            peak < limit,
            "rule {rule}: peak resident memory {peak} bytes is over the limit {limit}"
        );
    }
}

#[test]
fn max_memory_is_kept_with_many_threads() {
    // A machine with many cores runs as many threads by default; each takes memory.
    // Each thread evaluating with a network holds its own sums of the network's features
    // besides its searcher: the same limit must hold with `use_net` on.
    for (limit, threads, net) in [(20 * MB, 64, 0), (64 * MB, 128, 0), (64 * MB, 128, 1)] {
        let settings = [
            format!("INFO max_memory {limit}"),
            format!("INFO thread_num {threads}"),
            format!("INFO use_net {net}"),
        ];
        let settings: Vec<&str> = settings.iter().map(String::as_str).collect();
        let peak = peak_after_searching(&settings, 0, 150);
        eprintln!(
            "max_memory {} MB, {threads} threads, use_net {net}: peak {:.1} MB",
            limit / MB,
            peak as f64 / MB as f64
        );
        assert!(
            peak < limit,
            "{threads} threads, use_net {net}: peak resident memory {peak} bytes is over \
             the limit {limit}"
        );
    }
}

#[test]
fn hash_size_sizes_the_table() {
    // 32 MB of table (hash_size is in kilobytes) and one thread: the peak is the table
    // plus the engine's own few megabytes.
    let peak = peak_after_searching(&["INFO hash_size 32768", "INFO thread_num 1"], 0, 150);
    eprintln!("hash_size 32768: peak {:.1} MB", peak as f64 / MB as f64);
    assert!(
        peak > 32 * MB,
        "peak {peak} bytes: the 32 MB table is not used"
    );
    assert!(
        peak < 32 * MB + 24 * MB,
        "peak {peak} bytes: far more than the 32 MB table"
    );
    let small = peak_after_searching(&["INFO hash_size 1024", "INFO thread_num 1"], 0, 150);
    eprintln!("hash_size 1024: peak {:.1} MB", small as f64 / MB as f64);
    assert!(
        small + 24 * MB < peak,
        "a 1 MB table ({small} bytes) should take far less than a 32 MB one ({peak})"
    );
}

#[test]
fn a_table_the_system_refuses_is_made_smaller() {
    // 300 MB of address space (ulimit -v, in kilobytes) and a table of 1 GB asked for,
    // directly or as 70% of max_memory: the allocation would fail and abort the process.
    // With many threads, their stacks and (glibc) allocator arenas would exhaust what the
    // table leaves, and the next allocation would abort it.
    for (threads, setting) in [
        (1, "INFO hash_size 1048576"),
        (1, "INFO max_memory 1073741824"),
        (1, "INFO hash_size 4194304"),
        (8, "INFO hash_size 1048576"),
        (64, "INFO max_memory 1073741824"),
    ] {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg("ulimit -v 300000 && exec \"$0\"")
            .arg(env!("CARGO_BIN_EXE_pbrain-fivefold"));
        let mut b = Brain::with_command(cmd);
        b.send(&format!("INFO thread_num {threads}"));
        b.send(setting);
        b.new_game(15, 200);
        expect_move(&b.ask("BEGIN"));
        expect_move(&b.ask("TURN 3,3"));
        expect_move(&b.ask("TURN 11,11"));
        b.expect_silence();
    }
}
