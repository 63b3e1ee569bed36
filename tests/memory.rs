//! Memory limits (issue 7): after real searching, the engine's peak resident memory
//! (`VmHWM` in `/proc/<pid>/status`, so Linux only) stays under `INFO max_memory`, also with
//! many search threads, and `INFO hash_size` sizes the table; a table the system refuses
//! is made smaller rather than abort the engine.
//!
//! Every move in time whatever memory is granted (issue 102): with the managers' memory
//! settings up to 16 GiB and an absurd one, the first move, a move after `YXHASHCLEAR`,
//! after `RESTART` and after `START` with another size each come within the turn limit
//! and [`MARGIN_MS`], and what the engine does not use of a grant is said in a `MESSAGE`.
//! These timings are of the test build under `cargo test`; `scripts/check.sh` runs them
//! again on the release build (`FIVEFOLD_BIN`).
//!
//! The tests take one lock, so that the timings are not of a machine busy with the
//! 128-thread searches of another test.

#![cfg(target_os = "linux")]

mod common;

use common::{expect_move, proc_kb_field, Brain};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The engine's binary: `FIVEFOLD_BIN` where set (scripts/check.sh names the release
/// build), else the test build.
fn binary() -> String {
    std::env::var("FIVEFOLD_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_pbrain-fivefold").into())
}

/// The engine started from [`binary`].
fn engine() -> Brain {
    Brain::with_command(Command::new(binary()))
}

/// Peak and current resident memory of a process, in bytes.
fn memory(pid: u32) -> (u64, u64) {
    let status = format!("/proc/{pid}/status");
    (
        proc_kb_field(&status, "VmHWM:"),
        proc_kb_field(&status, "VmRSS:"),
    )
}

/// Plays a few moves with `settings` sent first (searching about `turn_ms` each), waits
/// (at most 10 s) until the peak resident memory stops growing (the background thread
/// that writes a new table's pages in between searches, at least 64 pages a few
/// milliseconds, has written all of it), and returns it.
fn peak_after_searching(settings: &[&str], rule: u32, turn_ms: u64) -> u64 {
    let _lock = one_at_a_time();
    let mut b = engine();
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
    // The table's pages are written in between the searches and after them, however few
    // entries the searches stored (a debug build searches slowly).
    b.expect_silence();
    let waited = Instant::now();
    let mut peak = memory(b.pid()).0;
    while waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(200));
        let now = memory(b.pid()).0;
        if now == peak {
            break;
        }
        peak = now;
    }
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
        let _lock = one_at_a_time();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg("ulimit -v 300000 && exec \"$0\"")
            .arg(binary());
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

const GB: u64 = 1 << 30;
/// The turn limit of the timing tests (`INFO timeout_turn`).
const TURN_MS: u64 = 100;
/// How late past the turn limit a move may come.
const MARGIN_MS: u64 = 50;

/// The machine's memory (`MemTotal`).
fn machine_memory() -> u64 {
    proc_kb_field("/proc/meminfo", "MemTotal:")
}

/// Sends `cmd`, expects a move, and checks that it came within the turn limit and the
/// margin; returns how long it took.
fn timed_move(b: &mut Brain, cmd: &str, what: &str) -> Duration {
    let t = Instant::now();
    let reply = b.ask(cmd);
    let took = t.elapsed();
    expect_move(&reply);
    assert!(
        took <= Duration::from_millis(TURN_MS + MARGIN_MS),
        "{what}: the move came after {took:?}, over the {TURN_MS} ms turn limit and {MARGIN_MS} ms"
    );
    took
}

#[test]
fn every_move_keeps_the_turn_limit_whatever_memory_is_granted() {
    // What the manager sends, and what it grants: the whole engine for max_memory; the
    // table alone for hash_size (Yixin-Board's, in kilobytes), the rest besides; the
    // machine for an absurd value.
    let rows = [
        ("INFO max_memory 367001600", 367_001_600),
        ("INFO max_memory 2147483648", 2 * GB),
        ("INFO max_memory 8589934592", 8 * GB),
        ("INFO max_memory 17179869184", 16 * GB),
        ("INFO hash_size 4194304", 4 * GB + 64 * MB),
        ("INFO max_memory 9999999999999999999999", machine_memory()),
    ];
    for (setting, granted) in rows {
        let _lock = one_at_a_time();
        let mut b = engine();
        b.send(setting);
        b.new_game(15, TURN_MS);
        let mut took = vec![timed_move(
            &mut b,
            "BEGIN",
            &format!("{setting}, first move"),
        )];
        took.push(timed_move(
            &mut b,
            "TURN 3,3",
            &format!("{setting}, second move"),
        ));
        b.send("YXHASHCLEAR");
        took.push(timed_move(
            &mut b,
            "TURN 11,11",
            &format!("{setting}, after YXHASHCLEAR"),
        ));
        assert_eq!(b.ask("RESTART"), "OK");
        took.push(timed_move(
            &mut b,
            "BEGIN",
            &format!("{setting}, after RESTART"),
        ));
        assert_eq!(b.ask("START 20"), "OK");
        took.push(timed_move(
            &mut b,
            "BEGIN",
            &format!("{setting}, after START 20"),
        ));
        took.push(timed_move(
            &mut b,
            "TURN 3,3",
            &format!("{setting}, on 20x20"),
        ));
        let (peak, _) = memory(b.pid());
        eprintln!(
            "{setting}: moves after {:?}, peak {} MB",
            took.iter().map(|d| d.as_millis()).collect::<Vec<_>>(),
            peak / MB
        );
        assert!(
            peak < granted,
            "{setting}: peak resident memory {peak} bytes, over the {granted} granted"
        );
        b.send("END");
    }
}

/// The `MESSAGE` lines that come with the reply to `cmd` sent after `setting`.
fn messages_after(b: &mut Brain, setting: &str, cmd: &str) -> Vec<String> {
    b.send(setting);
    b.ask_all(cmd)
        .into_iter()
        .filter(|l| l.starts_with("MESSAGE"))
        .collect()
}

/// The engine's answer to `YXSHOWHASHUSAGE` (a `MESSAGE` with the table's size).
fn hash_usage(b: &mut Brain) -> String {
    b.send("YXSHOWHASHUSAGE");
    let l = b.line();
    assert!(l.starts_with("MESSAGE Hash usage: "), "{l}");
    l
}

#[test]
fn memory_the_engine_does_not_use_is_said() {
    let _lock = one_at_a_time();
    let mut b = engine();
    b.send("INFO thread_num 1");
    // Gomocup's 350 MB: all of it planned for, nothing to say; the table is 70% of it
    // less the engine's reserve.
    assert_eq!(
        messages_after(&mut b, "INFO max_memory 367001600", "START 15"),
        Vec::<String>::new()
    );
    assert!(hash_usage(&mut b).contains("of 229 MB"));
    // 16 GiB: more than the largest table.
    let said = messages_after(&mut b, "INFO max_memory 17179869184", "START 15");
    assert_eq!(
        said,
        ["MESSAGE INFO max_memory 17179869184: more than the largest table the engine makes (4 GB); using a 4 GB transposition table and 1 search thread"],
    );
    assert!(hash_usage(&mut b).contains("of 4 GB"));
    // More than any machine has.
    let said = messages_after(&mut b, "INFO max_memory 9999999999999999999999", "START 15");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(
            "MESSAGE INFO max_memory 9999999999999999999999: more than this machine has ("
        ) && said[0].ends_with("GB); using a 4 GB transposition table and 1 search thread"),
        "{said:?}"
    );
    let said = messages_after(&mut b, "INFO hash_size 99999999999999", "START 15");
    assert!(
        said.len() == 1 && said[0].contains("more than this machine has"),
        "{said:?}"
    );
    // A table of 1 GB asked for (hash_size in kilobytes) is made as asked.
    assert_eq!(
        messages_after(&mut b, "INFO hash_size 1048576", "START 15"),
        Vec::<String>::new()
    );
    assert!(hash_usage(&mut b).contains("of 1 GB"));
    b.send("END");
}
