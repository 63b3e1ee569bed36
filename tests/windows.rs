//! The Windows build under wine, as Gomocup runs it: a protocol conversation, the bench,
//! a match against the Linux build in every rule, and each of Gomocup's conditions (its
//! memory limit, its three time controls, the process suspended between moves, renju
//! games drawn after 200 moves).
//!
//! `scripts/windows.sh --wine` builds both .exe files and sets up wine in
//! `target/windows/wine/`; `.ci/run` does that where Debian's packages can be installed.
//! Where the folder, wine, or an up-to-date build is missing, each test says SKIPPED on
//! stderr, with the command that sets it up, and passes.
//!
//! The tests take one lock, so only one wine process thinks at a time (timings under
//! wine on two cores are what is checked).

mod common;

use common::{board_command, expect_move, forbid_squares, referee_move, Brain};
use fivefold::cli::bench;
use fivefold::core::rules::{self, reference::Grid};
use fivefold::engine::time::{budget, Clock, MOVE_OVERHEAD_MS};
use fivefold::{Board, Color, Pos, Rule};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Gomocup's memory limit: 350 MB for the whole process, sent as `INFO max_memory`.
const GOMOCUP_MEMORY: u64 = 350 * 1024 * 1024;

/// Where `scripts/windows.sh --wine` left wine and the .exe files.
struct Wine {
    wine: PathBuf,
    dir: PathBuf,
}

impl Wine {
    /// The set-up folder, or `None` after saying on stderr why the test is skipped.
    fn find(test: &str) -> Option<Wine> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("target/windows/wine");
        let skip = |why: String| {
            common::say_skipped(test, &why, "scripts/windows.sh --install --wine");
            None
        };
        let Ok(wine) = std::fs::read_to_string(dir.join("WINE")) else {
            return skip(format!("no wine set-up in {}", dir.display()));
        };
        let wine = PathBuf::from(wine.trim());
        if !wine.exists() {
            return skip(format!(
                "wine is not installed ({} is missing)",
                wine.display()
            ));
        }
        for file in [
            "bcryptprimitives.dll",
            "pbrain-fivefold.exe",
            "pbrain-fivefold-avx2.exe",
        ] {
            if !dir.join(file).exists() {
                return skip(format!("{} is missing", dir.join(file).display()));
            }
        }
        let built = std::fs::read_to_string(dir.join("SOURCE")).unwrap_or_default();
        let now = Command::new("bash")
            .arg(root.join("scripts/windows.sh"))
            .arg("--source-hash")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        if built.trim() != now.trim() || now.trim().is_empty() {
            return skip(format!(
                "the .exe files were built from other sources ({} now {})",
                built.trim(),
                now.trim()
            ));
        }
        let wine = Wine { wine, dir };
        wine.keep_server();
        Some(wine)
    }

    /// Starts the prefix's wineserver to stay up between the tests' processes (for two
    /// minutes after the last one). Left to itself it exits three seconds after its last
    /// client, and a process that starts while it is exiting can hang at start-up.
    fn keep_server(&self) {
        static STARTED: std::sync::Once = std::sync::Once::new();
        STARTED.call_once(|| {
            let near = self.wine.with_file_name("wineserver64");
            let server = if near.exists() {
                near
            } else {
                self.wine.with_file_name("wineserver")
            };
            let started = Command::new(&server)
                .arg("-p120")
                .env("WINEPREFIX", self.dir.join("prefix"))
                .status();
            if !matches!(started, Ok(s) if s.success()) {
                eprintln!("could not start {} -p120: {started:?}", server.display());
            }
        });
    }

    /// The builds this machine can run: the baseline, and the AVX2 one where the CPU has
    /// AVX2.
    fn exes(&self) -> Vec<&'static str> {
        let avx2 = std::fs::read_to_string("/proc/cpuinfo")
            .map(|c| c.split_whitespace().any(|w| w == "avx2"))
            .unwrap_or(false);
        if avx2 {
            vec!["pbrain-fivefold.exe", "pbrain-fivefold-avx2.exe"]
        } else {
            eprintln!("this CPU has no AVX2: pbrain-fivefold-avx2.exe is not run");
            vec!["pbrain-fivefold.exe"]
        }
    }

    fn command(&self, exe: &str) -> Command {
        let mut cmd = Command::new(&self.wine);
        cmd.arg(self.dir.join(exe))
            .env("WINEPREFIX", self.dir.join("prefix"))
            .env("WINEDEBUG", "-all");
        cmd
    }

    fn brain(&self, exe: &str) -> Brain {
        Brain::with_command(self.command(exe))
    }
}

/// Runs `body` with the lock held, for each build, if wine is set up.
fn with_wine(test: &str, body: impl Fn(&Wine, &str)) {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(wine) = Wine::find(test) else { return };
    for exe in wine.exes() {
        eprintln!("{test}: {exe}");
        body(&wine, exe);
    }
}

/// Sends the `BOARD` command for `b` and returns the reply and how long it took.
fn ask_board(e: &mut Brain, b: &Board) -> (String, Duration) {
    let t = Instant::now();
    let reply = e.ask(&board_command(b));
    (reply, t.elapsed())
}

/// A board with `moves` (protocol squares `x,y`) played in turn from black.
fn position(rule: Rule, moves: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for &(x, y) in moves {
        b.make(Pos::new(x, y));
    }
    b
}

fn peak_memory(pid: u32) -> u64 {
    common::proc_kb_field(&format!("/proc/{pid}/status"), "VmHWM:")
}

fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "kill {sig} {pid}");
}

#[test]
fn a_protocol_conversation_under_wine() {
    with_wine("a_protocol_conversation_under_wine", |wine, exe| {
        let mut e = wine.brain(exe);
        let about = e.ask("ABOUT");
        assert!(about.starts_with("name=\"Fivefold\""), "{about}");
        e.send("INFO rule 4");
        assert_eq!(e.ask("START 15"), "OK");
        e.send("INFO timeout_turn 500\nINFO timeout_match 60000\nINFO max_memory 367001600");
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let first = e.ask("BEGIN");
        referee_move(&mut b, &first);
        b.make(
            b.pos(8, 8)
                .filter(|&p| b.is_empty(p))
                .unwrap_or(Pos::new(6, 6)),
        );
        let last = b.last_move().unwrap();
        let reply = e.ask(&format!("TURN {},{}", last.x(), last.y()));
        referee_move(&mut b, &reply);
        let (reply, _) = ask_board(&mut e, &position(Rule::Renju, &[(7, 7), (7, 8), (8, 7)]));
        expect_move(&reply);
        // Two double threes far apart, at c3 (2,2) and m13 (12,12); black to move. One
        // move cannot mend both, so after the engine's reply black has forbidden
        // squares, and YXSHOWFORBID must list exactly the ones the rules say.
        let mut b = position(
            Rule::Renju,
            &[
                (3, 2),
                (7, 0),
                (4, 2),
                (0, 7),
                (2, 3),
                (14, 7),
                (2, 4),
                (7, 14),
                (11, 12),
                (14, 0),
                (10, 12),
                (0, 14),
                (12, 11),
                (14, 14),
                (12, 10),
                (9, 0),
            ],
        );
        let (reply, _) = ask_board(&mut e, &b);
        referee_move(&mut b, &reply);
        let expected: Vec<(usize, usize)> = rules::forbidden_squares(&mut b)
            .into_iter()
            .map(|p| (p.x(), p.y()))
            .collect();
        assert!(!expected.is_empty());
        let mut shown = forbid_squares(&e.ask("YXSHOWFORBID"));
        shown.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(shown, expected);
        // END in the middle of a long search: the process leaves at once.
        let far = b.squares().filter(|&p| b.is_empty(p)).last().unwrap();
        e.send(&format!(
            "INFO timeout_turn 30000\nTURN {},{}",
            far.x(),
            far.y()
        ));
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        e.send("END");
        let status = e
            .wait_exit(Duration::from_secs(5))
            .expect("exits after END");
        assert!(status.success(), "{status:?}");
        eprintln!("  END during a search: exited in {:?}", t.elapsed());
    });
}

#[test]
fn the_bench_matches_the_linux_build() {
    let expected = std::sync::OnceLock::new();
    with_wine("the_bench_matches_the_linux_build", |wine, exe| {
        let expected = expected.get_or_init(|| bench::run_search(bench::BENCH_DEPTH));
        let out = wine
            .command(exe)
            .arg("bench")
            .output()
            .expect("run the bench");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        for key in ["Nodes: ", "Signature: "] {
            let ours = expected.iter().find(|l| l.starts_with(key)).unwrap();
            let theirs = text.lines().find(|l| l.starts_with(key));
            assert_eq!(theirs, Some(ours.as_str()), "{exe} bench:\n{text}");
        }
        let nps = text
            .lines()
            .find(|l| l.starts_with("Nodes/s: "))
            .unwrap_or("");
        eprintln!(
            "  {} {nps}",
            expected.iter().find(|l| l.starts_with("Nodes: ")).unwrap()
        );
    });
}

/// Gomocup's manager kills an AI that uses more than 350 MB. With `INFO max_memory`
/// saying so, two games' worth of searching stays under it, counted as the resident
/// memory of the whole wine process.
#[test]
fn memory_stays_under_gomocups_limit() {
    with_wine("memory_stays_under_gomocups_limit", |wine, exe| {
        let mut e = wine.brain(exe);
        e.send(&format!("INFO max_memory {GOMOCUP_MEMORY}"));
        for game in 0..2 {
            assert_eq!(e.ask("START 15"), "OK");
            e.send("INFO timeout_turn 2000");
            let b = position(Rule::Freestyle, &[(7, 7), (8, 8), (game + 5, 7)]);
            let (reply, _) = ask_board(&mut e, &b);
            expect_move(&reply);
        }
        let peak = peak_memory(e.pid());
        eprintln!("  peak resident memory {} MB", peak >> 20);
        assert!(
            peak < GOMOCUP_MEMORY,
            "{exe} peaked at {peak} bytes, over 350 MB"
        );
        // The table is written in by the searches and, between them, by the engine's
        // warmer: searches of this length fill most of it, so the figure measures the
        // plan, not an idle process.
        assert!(
            peak > GOMOCUP_MEMORY / 3,
            "{exe} peaked at only {peak} bytes"
        );
        e.send("END");
    });
}

/// Every move in time whatever memory is granted (issue 102): with `INFO max_memory` at
/// 2 GiB (a table of 1.4 GB, made and emptied in microseconds), the first move, one after
/// a real search, one after `YXHASHCLEAR` and one after `RESTART` each come within the
/// 100 ms turn limit and 50 ms, and the peak resident memory stays under the grant.
#[test]
fn every_first_move_keeps_the_turn_limit_with_2_gib() {
    with_wine(
        "every_first_move_keeps_the_turn_limit_with_2_gib",
        |wine, exe| {
            const GRANT: u64 = 2 << 30;
            let mut e = wine.brain(exe);
            e.send(&format!("INFO max_memory {GRANT}"));
            assert_eq!(e.ask("START 15"), "OK");
            e.send("INFO timeout_turn 100");
            let timed = |e: &mut Brain, cmd: &str| {
                let t = Instant::now();
                let reply = e.ask(cmd);
                let took = t.elapsed();
                expect_move(&reply);
                assert!(
                    took <= Duration::from_millis(150),
                    "{exe}: {cmd} answered after {took:?}, over 100 ms and 50 ms"
                );
                took.as_millis()
            };
            let mut took = vec![timed(&mut e, "BEGIN"), timed(&mut e, "TURN 3,3")];
            e.send("YXHASHCLEAR");
            took.push(timed(&mut e, "TURN 11,11"));
            assert_eq!(e.ask("RESTART"), "OK");
            took.push(timed(&mut e, "BEGIN"));
            let peak = peak_memory(e.pid());
            eprintln!(
                "  moves after {took:?} ms; peak resident memory {} MB",
                peak >> 20
            );
            assert!(peak < GRANT, "{exe} peaked at {peak} bytes, over 2 GiB");
            e.send("END");
        },
    );
}

/// Each of Gomocup's time controls (30 s a move and 180 s a game; fastgame 5 s and
/// 120 s; the finals' 300 s and 1000 s): the move comes within the turn limit and within
/// what is left of the game clock (give or take [`STALL_MS`]). Late in a game (little
/// left) every control is checked; the fastgame control also at its full clock, where
/// the turn limit binds.
#[test]
fn gomocups_time_controls_are_kept() {
    with_wine("gomocups_time_controls_are_kept", |wine, exe| {
        let mut e = wine.brain(exe);
        assert_eq!(e.ask("START 15"), "OK");
        let b = position(Rule::Freestyle, &[(7, 7), (8, 7), (8, 8), (6, 6), (9, 9)]);
        let empties = b.squares().filter(|&p| b.is_empty(p)).count();
        let controls = [
            (30_000, 180_000, 2_500),
            (5_000, 120_000, 2_500),
            (300_000, 1_000_000, 2_500),
            (5_000, 120_000, 120_000),
        ];
        for (turn, game, left) in controls {
            e.send(&format!(
                "INFO timeout_turn {turn}\nINFO timeout_match {game}\nINFO time_left {left}"
            ));
            // The clock never falls from one report to the next, so the engine learns no
            // overhead beyond the least it keeps back.
            let plan = budget(
                &Clock {
                    turn_ms: turn,
                    match_ms: game,
                    left_ms: Some(left),
                },
                empties,
                MOVE_OVERHEAD_MS,
            );
            let (reply, took) = ask_board(&mut e, &b);
            expect_move(&reply);
            eprintln!(
                "  {turn} ms a move, {game} ms a game, {left} ms left: answered in {took:?} (hard limit {:?})",
                plan.hard
            );
            assert!(
                took < Duration::from_millis(turn.min(left) + STALL_MS),
                "{exe}: {took:?} at {turn}/{game} with {left} ms left"
            );
            assert!(
                took < plan.hard + Duration::from_millis(400),
                "{exe}: {took:?}, planned at most {:?}",
                plan.hard
            );
        }
        e.send("END");
    });
}

/// Gomocup's manager suspends the AI's process while the opponent thinks. Stopped with
/// SIGSTOP for a second after each move (its helper threads with it) and continued
/// before the next, the engine loses nothing: each move comes in time (the turn limit
/// plus the host's stalls, [`STALL_MS`], as in [`a_match_against_the_linux_build`]: CI
/// once saw a move of 1013 ms here), the game clock it was told is kept, and the game
/// goes on to its end.
#[test]
fn a_process_suspended_between_moves_plays_on() {
    with_wine("a_process_suspended_between_moves_plays_on", |wine, exe| {
        let mut e = wine.brain(exe);
        e.send("INFO thread_num 2");
        assert_eq!(e.ask("START 15"), "OK");
        const TURN_LIMIT_MS: u64 = 1_000;
        e.send(&format!(
            "INFO timeout_turn {TURN_LIMIT_MS}\nINFO timeout_match 30000"
        ));
        let mut b = position(Rule::Freestyle, &[(7, 7), (8, 8)]);
        let mut left = 30_000i64;
        for _ in 0..6 {
            e.send(&format!("INFO time_left {left}"));
            let (reply, took) = ask_board(&mut e, &b);
            left -= took.as_millis() as i64;
            eprintln!("  move {}: {took:?}", b.move_count() + 1);
            assert!(
                took < Duration::from_millis(TURN_LIMIT_MS + STALL_MS),
                "{exe}: {took:?}"
            );
            referee_move(&mut b, &reply);
            signal(e.pid(), "-STOP");
            std::thread::sleep(Duration::from_millis(1_000));
            signal(e.pid(), "-CONT");
            if b.last_move_won() {
                break;
            }
            // The opponent's move: the first empty square near the centre.
            let p = b
                .squares()
                .filter(|&p| b.is_empty(p))
                .min_by_key(|p| p.x().abs_diff(7) + p.y().abs_diff(7))
                .unwrap();
            b.make(p);
            if b.last_move_won() {
                break;
            }
        }
        assert!(
            left > 20_000,
            "{exe} spent {} ms of its clock",
            30_000 - left
        );
        e.expect_silence();
        e.send("END");
    });
}

/// Renju games at Gomocup are drawn after 200 moves. A position one move short of that,
/// with no five on the board, gets a legal move in time, as does the move after it.
#[test]
fn renju_games_run_to_the_200_move_draw() {
    with_wine("renju_games_run_to_the_200_move_draw", |wine, exe| {
        let b = crowded_renju_position(199);
        let mut e = wine.brain(exe);
        e.send("INFO rule 4");
        assert_eq!(e.ask("START 15"), "OK");
        e.send("INFO timeout_turn 1000");
        let mut b2 = b.clone();
        let (reply, took) = ask_board(&mut e, &b2);
        referee_move(&mut b2, &reply);
        assert!(took < Duration::from_millis(1_000), "{exe}: {took:?}");
        assert_eq!(b2.move_count(), 200);
        eprintln!("  move 200 in {took:?}");
        e.expect_silence();
        e.send("END");
    });
}

/// A renju position of `n` stones, black first, with no five and no foul played: random
/// legal moves that make no five, restarting where the board runs out of them.
fn crowded_renju_position(n: usize) -> Board {
    use fivefold::core::rng::{Rng, XorShift64};
    let mut rng = XorShift64::new(200);
    'again: loop {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        while b.move_count() < n {
            let side = b.side_to_move();
            let grid = Grid::from_board(&b);
            let mut options: Vec<Pos> = b
                .squares()
                .filter(|&p| b.is_empty(p))
                .filter(|&p| !grid.makes_five(p.x() as i32, p.y() as i32, side))
                .collect();
            if side == Color::Black {
                options.retain(|&p| !rules::is_forbidden(&mut b, p));
            }
            if options.is_empty() {
                continue 'again;
            }
            b.make(options[rng.below(options.len())]);
        }
        return b;
    }
}

/// A match of the Windows build against the Linux build: every rule Gomocup plays
/// (freestyle, exact five, renju, caro), both colours, refereed here; no illegal move,
/// no time overrun by the Windows build, renju drawn at 200 moves.
///
/// How a move is held to the turn limit: Piskvork, Gomocup's manager, forfeits a brain
/// only past the limit plus a tolerance (`tolerance=1000` ms by default, `checkTimeOut`
/// in its game.cpp). Here the tolerance is a tenth of that, [`STALL_MS`]: on a shared
/// 2-core machine a busy process is now and then held off its core for tens of
/// milliseconds (a loop reading the clock on the development VM, with one search beside
/// it, saw gaps of up to 20 ms in 10 s; CI once saw a move of 315 ms at this 300 ms
/// limit), which no reserve of the engine's can rule out. What the engine itself aims
/// for is checked on the median: half its moves come within the limit.
#[test]
fn a_match_against_the_linux_build() {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(wine) = Wine::find("a_match_against_the_linux_build") else {
        return;
    };
    // The build Gomocup's zip carries: AVX2 where the CPU has it.
    let exe = *wine.exes().last().unwrap();
    let opening = [(7, 7), (8, 6), (9, 8)];
    let mut score = [0, 0, 0]; // Windows wins, Linux wins, draws
    let mut windows_moves: Vec<Duration> = Vec::new();
    for (number, rule) in [
        (0, Rule::Freestyle),
        (1, Rule::Exact),
        (4, Rule::Renju),
        (8, Rule::Caro),
    ] {
        for windows_black in [true, false] {
            let mut engines = [wine.brain(exe), Brain::start()];
            for e in engines.iter_mut() {
                e.send(&format!("INFO rule {number}"));
                assert_eq!(e.ask("START 15"), "OK");
                e.send(&format!(
                    "INFO timeout_turn {TURN_MS}\nINFO timeout_match 20000"
                ));
            }
            let mut left = [20_000i64; 2];
            let mut slowest = [Duration::ZERO; 2];
            let mut b = position(rule, &opening);
            let result = loop {
                let side = b.side_to_move();
                let windows = (side == Color::Black) == windows_black;
                let i = if windows { 0 } else { 1 };
                engines[i].send(&format!("INFO time_left {}", left[i].max(0)));
                let (reply, took) = ask_board(&mut engines[i], &b);
                left[i] -= took.as_millis() as i64;
                slowest[i] = slowest[i].max(took);
                if windows {
                    windows_moves.push(took);
                }
                // The Windows build is held to the turn limit (with the tolerance above)
                // and to its clock. The Linux one is only its opponent: the test
                // profile's build, with its invariant checks, several times slower, whose
                // time outside its search (reading the board, checking it) is not what
                // is measured here; it is held to a bound that only a hang would break.
                // (On CI's slow machine it once used up a 20 s clock in a 60-move game.)
                let limit = if windows { TURN_MS + STALL_MS } else { 3_000 };
                assert!(
                    took < Duration::from_millis(limit),
                    "{} took {took:?} for move {}",
                    ["Windows", "Linux"][i],
                    b.move_count() + 1
                );
                assert!(
                    !windows || left[i] > 0,
                    "Windows ran out of time at move {}",
                    b.move_count() + 1
                );
                referee_move(&mut b, &reply);
                if b.last_move_won() {
                    break i;
                }
                if b.is_full() || (rule == Rule::Renju && b.move_count() >= 200) {
                    break 2;
                }
            };
            score[result] += 1;
            eprintln!(
                "  rule {number}, Windows {}: {} after {} moves; clocks left {} and {} ms, \
                 slowest moves {:?} and {:?} (Windows, Linux)",
                if windows_black { "black" } else { "white" },
                ["Windows won", "Linux won", "draw"][result],
                b.move_count(),
                left[0],
                left[1],
                slowest[0],
                slowest[1]
            );
            for e in engines.iter_mut() {
                e.expect_silence();
                e.send("END");
            }
        }
    }
    eprintln!(
        "{exe} under wine against the Linux build: {}-{}-{} (W-L-D)",
        score[0], score[1], score[2]
    );
    windows_moves.sort();
    let median = windows_moves[windows_moves.len() / 2];
    let over = windows_moves
        .iter()
        .filter(|&&t| t >= Duration::from_millis(TURN_MS))
        .count();
    eprintln!(
        "  Windows moves: {}, median {median:?}, {over} at or over the {TURN_MS} ms limit",
        windows_moves.len()
    );
    assert!(
        median < Duration::from_millis(TURN_MS),
        "the Windows build's median move took {median:?}"
    );
}

/// The turn limit of [`a_match_against_the_linux_build`] (ms).
const TURN_MS: u64 = 300;

/// How far past its turn limit (or what is left of its game clock) one move of the
/// Windows build may come (ms): the host's stalls, a tenth of Piskvork's default
/// tolerance (see [`a_match_against_the_linux_build`]).
const STALL_MS: u64 = 100;
