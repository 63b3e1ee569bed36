//! `datagen` as a process: short runs at a tiny node budget, the file read back with
//! `fivefold::tools::data` and checked position by position, the same bytes from the
//! same seed with one thread or two, and an openings file.

mod common;

use common::{run, Run};
use fivefold::core::pattern::Threat;
use fivefold::core::rules;
use fivefold::tools::data::{self, GameResult, Header, Record};
use fivefold::{Board, Color, Pos, Rule};
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    common::scratch("datagen", test)
}

/// Runs `datagen` writing `out`, with `args` after it; checks it succeeded quietly on
/// stdout, and returns its stderr.
fn datagen(out: &Path, args: &[&str]) -> String {
    let mut all = vec!["datagen", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let Run { code, out, err } = run(&all);
    assert_eq!(code, Some(0), "{all:?}: {err}");
    assert!(out.is_empty(), "datagen wrote to stdout: {out}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Whether some colour has five or more in a row on `b`.
fn has_five(b: &Board) -> bool {
    let (w, h) = (b.width() as i64, b.height() as i64);
    let at = |x: i64, y: i64| (0..w).contains(&x) && (0..h).contains(&y);
    for y in 0..h {
        for x in 0..w {
            let Some(c) = b.stone(Pos::new(x as usize, y as usize)) else {
                continue;
            };
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let run = (0..5).all(|k| {
                    let (u, v) = (x + k * dx, y + k * dy);
                    at(u, v) && b.stone(Pos::new(u as usize, v as usize)) == Some(c)
                });
                if run {
                    return true;
                }
            }
        }
    }
    false
}

/// Checks every record of a freestyle file and each game's records against each other
/// and against the game's end; returns the number of games with records.
fn check_games(header: &Header, records: &[Record]) -> usize {
    assert!(!records.is_empty(), "no positions written");
    let mut games = 0;
    let mut i = 0;
    while i < records.len() {
        let g = records[i].game;
        let end = i + records[i..].iter().take_while(|r| r.game == g).count();
        let game = &records[i..end];
        games += 1;
        for (k, r) in game.iter().enumerate() {
            let mut b = r.to_board(header).unwrap();
            let stones = r.stones.iter().filter(|s| s.is_some()).count();
            assert_eq!(stones, usize::from(r.ply), "game {g} record {k}");
            let black = r
                .stones
                .iter()
                .filter(|s| **s == Some(Color::Black))
                .count();
            assert!(black == stones - black || black == stones - black + 1);
            let mover = if r.ply % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(r.side_to_move, mover, "game {g} ply {}", r.ply);
            assert!(!has_five(&b), "game {g} ply {}: a five on the board", r.ply);
            // The side to move cannot make five at once (such positions are skipped).
            assert_eq!(b.count(mover, Threat::Five), 0, "game {g} ply {}", r.ply);
            let best = r.best_pos(header);
            assert!(b.is_empty(best) && rules::is_legal(&mut b, best));
            let forced = b.count(mover.opp(), Threat::Five) > 0;
            assert_eq!(
                r.flags & data::flags::FORCED != 0,
                forced,
                "game {g} ply {}",
                r.ply
            );
            if r.flags & data::flags::THREAT_WIN != 0 {
                assert!(data::score_mate_plies(r.score).is_some_and(|n| n > 0));
            }
            // Results agree within the game: one side's are the other's reversed.
            let first = &game[0];
            let same_side = r.side_to_move == first.side_to_move;
            let expect = match (first.result, same_side) {
                (x, true) => x,
                (GameResult::Win, false) => GameResult::Loss,
                (GameResult::Loss, false) => GameResult::Win,
                (GameResult::Draw, false) => GameResult::Draw,
            };
            assert_eq!(r.result, expect, "game {g} ply {}", r.ply);
            // Positions in a row: the next is this one with the best move played.
            if let Some(next) = game.get(k + 1) {
                assert!(next.ply > r.ply);
                if next.ply == r.ply + 1 {
                    let mut after = r.stones.clone();
                    after[usize::from(r.best)] = Some(mover);
                    assert_eq!(after, next.stones, "game {g} ply {}", r.ply);
                }
            }
        }
        // After the last position: its move makes five, fills the board, or leaves the
        // opponent a five on hand (a position not written), which the search plays.
        let last = &game[game.len() - 1];
        let mut b = last.to_board(header).unwrap();
        b.make(last.best_pos(header));
        let expect = if has_five(&b) {
            GameResult::Win
        } else if b.is_full() {
            GameResult::Draw
        } else {
            assert!(
                b.count(b.side_to_move(), Threat::Five) > 0,
                "game {g} goes on after its last position"
            );
            GameResult::Loss
        };
        assert_eq!(
            last.result, expect,
            "game {g}: the result and the end disagree"
        );
        i = end;
    }
    games
}

#[test]
fn two_games_on_two_threads_give_legal_consistent_positions() {
    let dir = scratch("two");
    let out = dir.join("a.data");
    let err = datagen(
        &out,
        &[
            "--games",
            "2",
            "--nodes",
            "200",
            "--threads",
            "2",
            "--seed",
            "7",
        ],
    );
    assert!(err.contains("datagen: 2/2 games, "), "{err}");
    assert!(err.contains("average game "), "{err}");
    let (header, records) = data::read_file(&out).unwrap();
    assert_eq!(header, Header::new(Rule::Freestyle, 15, 15).unwrap());
    assert!(check_games(&header, &records) <= 2);
    assert!(records.iter().all(|r| r.game < 2));
    assert!(records.windows(2).all(|w| w[0].game <= w[1].game));
    let summary = format!("datagen: {} positions (72 bytes each)", records.len());
    assert!(err.contains(&summary), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_bytes_with_one_thread_or_two() {
    let dir = scratch("same");
    let file = |name: &str, threads: &str, seed: &str| {
        let out = dir.join(name);
        let args = ["--games", "3", "--nodes", "150", "--size", "11"];
        datagen(
            &out,
            &[&args[..], &["--threads", threads, "--seed", seed]].concat(),
        );
        std::fs::read(&out).unwrap()
    };
    let one = file("one.data", "1", "3");
    assert!(one.len() > data::HEADER_BYTES);
    assert_eq!(one, file("two.data", "2", "3"), "1 thread and 2 differ");
    assert_eq!(one, file("again.data", "2", "3"), "two runs differ");
    assert_ne!(
        one,
        file("other.data", "2", "4"),
        "another seed, the same games"
    );
    let (header, records) = data::read(&one[..]).unwrap();
    check_games(&header, &records);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_start_from_the_openings_file_in_turn() {
    let dir = scratch("openings");
    let openings = dir.join("o.pos.txt");
    // c-gomoku-cli pos lines: rows from 1 at the top (h4 is x 7, y 3).
    std::fs::write(&openings, "# two openings\nh4j5e4\nd15f14g12h10\n").unwrap();
    let out = dir.join("o.data");
    datagen(
        &out,
        &[
            "--games",
            "3",
            "--nodes",
            "100",
            "--threads",
            "2",
            "--random-plies",
            "0",
            "--rule",
            "renju",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    let (header, records) = data::read_file(&out).unwrap();
    assert_eq!(header.rule, Rule::Renju);
    let stones = |line: &[(usize, usize)]| -> Vec<(usize, Color)> {
        line.iter()
            .enumerate()
            .map(|(k, &(x, y))| {
                let c = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                (y * 15 + x, c)
            })
            .collect()
    };
    let lines = [
        stones(&[(7, 3), (9, 4), (4, 3)]),
        stones(&[(3, 14), (5, 13), (6, 11), (7, 9)]),
    ];
    for g in 0..3u32 {
        let first = records
            .iter()
            .find(|r| r.game == g)
            .expect("a position of each game");
        // With no random plies the search plays from the opening itself.
        let opening = &lines[g as usize % 2];
        assert_eq!(usize::from(first.ply), opening.len(), "game {g}");
        for &(i, c) in opening {
            assert_eq!(first.stones[i], Some(c), "game {g} square {i}");
        }
    }
    for r in &records {
        let mut b = r.to_board(&header).unwrap();
        assert!(rules::is_legal(&mut b, r.best_pos(&header)), "a renju foul");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_that_cannot_be_read_or_written_are_errors() {
    let dir = scratch("errors");
    for (args, msg) in [
        (
            vec![
                "datagen",
                "--out",
                "/nonexistent/dir/x.data",
                "--games",
                "1",
            ],
            "cannot create /nonexistent/dir/x.data",
        ),
        (
            vec![
                "datagen",
                "--out",
                "x.data",
                "--openings",
                "/nonexistent/o.txt",
            ],
            "cannot read /nonexistent/o.txt",
        ),
    ] {
        let Run { code, out, err } = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let bad = dir.join("bad.pos.txt");
    std::fs::write(&bad, "h8i9\nh8z99\n").unwrap();
    let Run { code, err, .. } = run(&[
        "datagen",
        "--out",
        dir.join("x.data").to_str().unwrap(),
        "--openings",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("line 2: 'h8z99'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `train/datagen-slots.sh`: every slot writes complete files of its rule and size until
/// the time is up, with the seeds its header documents, and leaves no partial file; the
/// options in `EXTRA` reach `datagen` (here `--side-positions 100`: off-path records).
#[test]
fn datagen_slots_fills_the_time_with_complete_files() {
    let dir = scratch("slots");
    let out = dir.join("gen");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("train/datagen-slots.sh");
    let run = std::process::Command::new("bash")
        .arg(&script)
        .args([out.to_str().unwrap(), "8", "1"])
        .env("FIVEFOLD_TOOLS", env!("CARGO_BIN_EXE_fivefold-tools"))
        .env("SLOTS", "f9 r9")
        .env("NODES", "200")
        .env("EXTRA", "--side-positions 100")
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("slot"))
        .collect();
    names.sort();
    assert!(names.iter().all(|n| n.ends_with(".data")), "{names:?}");
    for (prefix, rule, seed) in [
        ("freestyle-9-s", Rule::Freestyle, 5000),
        ("renju-9-s", Rule::Renju, 6000),
    ] {
        let first = format!("{prefix}{seed}.data");
        assert!(names.contains(&first), "{first} missing from {names:?}");
        for n in names.iter().filter(|n| n.starts_with(prefix)) {
            let (header, records) = data::read_file(&out.join(n)).unwrap();
            assert_eq!((header.rule, header.width), (rule, 9), "{n}");
            assert!(!records.is_empty(), "{n}");
            assert!(
                records.iter().any(|r| r.flags & data::flags::OFF_PATH != 0),
                "{n}: no off-path record, so EXTRA did not reach datagen"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train/datagen-slots.sh` with `OPENINGS`: the slots share the file, each game plays a
/// line of it no other game plays (slot i's n-th file the lines of block n*SLOTS+i), and
/// the slots stop when the file runs out, before the time is up.
#[test]
fn datagen_slots_share_an_openings_file_without_repeats() {
    let dir = scratch("slots-openings");
    let out = dir.join("gen");
    // Seven openings, two games a file, two slots: files (slot 0, file 0) lines 1-2,
    // (1, 0) 3-4, (0, 1) 5-6, (1, 1) line 7 alone; then the file has run out.
    let lines = ["e5", "d4f6", "c3", "g7e3", "e4d6", "f5", "c6g4e6"];
    let ops = dir.join("ops.txt");
    std::fs::write(&ops, lines.join("\n") + "\n").unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("train/datagen-slots.sh");
    let started = std::time::Instant::now();
    let run = std::process::Command::new("bash")
        .arg(&script)
        .args([out.to_str().unwrap(), "600", "2"])
        .env("FIVEFOLD_TOOLS", env!("CARGO_BIN_EXE_fivefold-tools"))
        .env("SLOTS", "f9 f9")
        .env("NODES", "200")
        .env("OPENINGS", &ops)
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(300),
        "the slots did not stop when the openings ran out"
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".data"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "freestyle-9-s5000.data",
            "freestyle-9-s5001.data",
            "freestyle-9-s6000.data",
            "freestyle-9-s6001.data"
        ]
    );
    // Each game's first record holds its opening's stones (and two random plies).
    let openings = fivefold::tools::datagen::read_openings(&ops, Rule::Freestyle, 9).unwrap();
    let opening_of = |name: &str, lines: std::ops::Range<usize>| {
        let (header, records) = data::read_file(&out.join(name)).unwrap();
        let mut games: Vec<Record> = Vec::new();
        for r in records {
            if games.last().is_none_or(|g| g.game != r.game) {
                games.push(r);
            }
        }
        assert_eq!(games.len(), lines.len(), "{name}: games with records");
        for (g, line) in games.iter().zip(lines) {
            let b = g.to_board(&header).unwrap();
            for (k, &p) in openings[line].iter().enumerate() {
                let colour = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                assert_eq!(
                    b.stone(p),
                    Some(colour),
                    "{name}: game {} misses line {}",
                    g.game,
                    line + 1
                );
            }
        }
    };
    opening_of("freestyle-9-s5000.data", 0..2);
    opening_of("freestyle-9-s6000.data", 2..4);
    opening_of("freestyle-9-s5001.data", 4..6);
    opening_of("freestyle-9-s6001.data", 6..7);
    let _ = std::fs::remove_dir_all(&dir);
}
