//! The command line: every subcommand's `--help`, mistakes that stop with exit status 2
//! and a message on stderr, and short real runs of the tools that have no other test of
//! their command line (selfplay, openings, tune, puzzles; `datagen` has its own suite).

mod common;

use common::{run, run_binary, Run, TOOLS};

/// The subcommands of `pbrain-fivefold` (and the `analyze` alias); those of
/// `fivefold-tools` are [`TOOLS`].
const SUBCOMMANDS: &[&str] = &[
    "protocol", "play", "analyse", "analyze", "solve", "bench", "puzzles",
];

const ENGINE: &str = env!("CARGO_BIN_EXE_pbrain-fivefold");
const TOOLS_BIN: &str = env!("CARGO_BIN_EXE_fivefold-tools");

/// Every subcommand of both binaries, each with the name of its binary.
fn every_subcommand() -> impl Iterator<Item = (&'static str, &'static str)> {
    let engine = SUBCOMMANDS.iter().map(|&c| ("pbrain-fivefold", c));
    engine.chain(TOOLS.iter().map(|&c| ("fivefold-tools", c)))
}

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    assert!(
        std::path::Path::new(&path).is_file(),
        "missing test file {path}"
    );
    path
}

/// A run that must stop on a command-line mistake: exit status 2, nothing on stdout, and
/// a message on stderr containing `msg`.
fn refused(args: &[&str], msg: &str) {
    let Run { code, out, err } = run(args);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} wrote to stdout: {out}");
    assert!(err.contains(msg), "{args:?}: expected '{msg}' in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn every_subcommand_has_help() {
    for (bin, cmd) in every_subcommand() {
        let usage = format!("Usage: {bin} ");
        for flag in ["--help", "-h"] {
            let Run { code, out, err } = run(&[cmd, flag]);
            assert_eq!(code, Some(0), "{cmd} {flag}: {err}");
            assert!(out.contains(&usage), "{cmd} {flag}: {out}");
            assert!(err.is_empty(), "{cmd} {flag}: {err}");
        }
        // `help COMMAND` says the same.
        let path = if bin == "fivefold-tools" {
            TOOLS_BIN
        } else {
            ENGINE
        };
        let Run { code, out, .. } = run_binary(path, &["help", cmd], "");
        assert_eq!(code, Some(0), "help {cmd}");
        assert!(out.contains(&usage), "help {cmd}: {out}");
    }
}

#[test]
fn the_top_level_help_lists_every_subcommand_of_its_binary() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let Run { code, out, .. } = run_binary(ENGINE, args, "");
        assert_eq!(code, Some(0), "{args:?}");
        assert!(out.contains("Usage: pbrain-fivefold [COMMAND]"), "{out}");
        for cmd in SUBCOMMANDS.iter().filter(|&&c| c != "analyze") {
            assert!(out.contains(&format!("  {cmd} ")), "{cmd} missing: {out}");
        }
        assert!(out.contains("alias: analyze"), "{out}");
        assert!(
            out.contains("fivefold-tools"),
            "the tools are not named: {out}"
        );
        for cmd in TOOLS {
            assert!(!out.contains(&format!("  {cmd} ")), "{cmd} listed: {out}");
        }
        let Run { code, out, .. } = run_binary(TOOLS_BIN, args, "");
        assert_eq!(code, Some(0), "{args:?}");
        assert!(out.contains("Usage: fivefold-tools <COMMAND>"), "{out}");
        for cmd in TOOLS {
            assert!(out.contains(&format!("  {cmd} ")), "{cmd} missing: {out}");
        }
    }
}

/// The engine carries no tool: `pbrain-fivefold train` is an unknown command, refused
/// with status 2 and nothing written to stdout.
#[test]
fn the_engine_carries_no_tool() {
    for cmd in TOOLS {
        let Run { code, out, err } = run_binary(ENGINE, &[cmd, "--help"], "");
        assert_eq!(code, Some(2), "{cmd}: {out}{err}");
        assert!(out.is_empty(), "{cmd}: {out}");
        assert!(
            err.contains(&format!("unrecognized subcommand '{cmd}'")),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn version() {
    for (path, name) in [(ENGINE, "pbrain-fivefold"), (TOOLS_BIN, "fivefold-tools")] {
        for flag in ["--version", "-V"] {
            let Run { code, out, .. } = run_binary(path, &[flag], "");
            assert_eq!(code, Some(0));
            assert_eq!(out.trim(), format!("{name} {}", env!("CARGO_PKG_VERSION")));
        }
    }
}

#[test]
fn unknown_options_are_refused_by_every_subcommand() {
    for (_, cmd) in every_subcommand() {
        refused(&[cmd, "--bogus"], "unexpected argument '--bogus' found");
    }
    // A near miss gets a suggestion.
    refused(
        &["bench", "--dpeth", "3"],
        "a similar argument exists: '--depth'",
    );
}

#[test]
fn unknown_subcommands_are_refused() {
    refused(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
    refused(&["benhc"], "a similar subcommand exists: 'bench'");
}

#[test]
fn bad_values_are_refused() {
    for (args, msg) in [
        (
            &["bench", "--depth", "x"][..],
            "invalid value 'x' for '--depth <PLIES>'",
        ),
        (
            &["bench", "--depth", "0"],
            "expected a number from 1 to 100",
        ),
        (
            &["bench", "--depth"],
            "a value is required for '--depth <PLIES>'",
        ),
        (
            &["bench", "--threads", "0"],
            "invalid value '0' for '--threads <N>'",
        ),
        (
            &["analyse", "--threads", "0"],
            "expected a number from 1 to 256",
        ),
        (
            &["analyse", "h8", "--threads=999"],
            "expected a number from 1 to 256",
        ),
        (
            &["analyse", "h8", "--nbest", "101"],
            "expected a number from 1 to 100",
        ),
        (
            &["analyse", "h8", "--time", "-1"],
            "expected seconds from 0 to 86400",
        ),
        (
            &["analyse", "h8", "--time", "1e9"],
            "expected seconds from 0 to 86400",
        ),
        (
            &["analyse", "h8", "--hash", "0"],
            "invalid value '0' for '--hash <MB>'",
        ),
        (
            &["analyse", "--moves", "h8", "--file", "x.psq"],
            "cannot be used with",
        ),
        (&["play", "--rule", "nonsense"], "unknown rule 'nonsense'"),
        (
            &["play", "--color", "green"],
            "expected black, white or random",
        ),
        (
            &["play", "--depth", "-3"],
            "invalid value '-3' for '--depth <PLIES>'",
        ),
        (
            &["play", "--seed", "x"],
            "invalid value 'x' for '--seed <N>'",
        ),
        (
            &["solve", "--moves", "h8", "--tomove", "green"],
            "expected black or white",
        ),
        (
            &["solve", "--moves", "h8", "--max-plies", "x"],
            "invalid value 'x'",
        ),
        (
            &["solve"],
            "the following required arguments were not provided",
        ),
        (
            &["puzzles"],
            "the following required arguments were not provided",
        ),
        (
            &["puzzles", "p.txt", "--nodes", "x"],
            "invalid value 'x' for '--nodes <N>'",
        ),
        (
            &["puzzles", "p.txt", "--params", "lmr"],
            "'lmr' is not name=value",
        ),
        (
            &["selfplay", "--a", "depth=x"],
            "invalid value 'depth=x' for '--a <PLAYER>'",
        ),
        (
            &["selfplay", "--b", "smart"],
            "expected depth=N, time=MS, nodes=N or greedy",
        ),
        (
            &["selfplay", "--size", "40"],
            "expected a number from 5 to 32",
        ),
        (&["selfplay", "--rule", "9x"], "unknown rule '9x'"),
        (
            &["openings", "--format", "json"],
            "invalid value 'json' for '--format <FORMAT>'",
        ),
        (
            &["openings", "--depth", "0"],
            "expected a number from 1 to 20",
        ),
        (
            &["openings", "--stones", "0"],
            "expected a number from 1 to 20",
        ),
        (
            &["openings", "--near", "21"],
            "expected a number from 0 to 20",
        ),
        (
            &["openings", "--count", "many"],
            "invalid value 'many' for '--count <N>'",
        ),
        (
            &["tune", "--threads", "0"],
            "invalid value '0' for '--threads <N>'",
        ),
        (&["tune", "--share", "2"], "expected a number from 0 to 1"),
        (
            &["tune", "--teacher-scale", "0"],
            "expected a number above 0",
        ),
        (
            &["tune", "--messages", "m.txt"],
            "required arguments were not provided",
        ),
        (&["tune", "--iterations", "-1"], "unexpected argument '-1'"),
        (
            &["style"],
            "the following required arguments were not provided",
        ),
        (
            &["style", "--sgf", "g.sgf", "--until", "x"],
            "invalid value 'x' for '--until",
        ),
        (
            &["style", "--sgf", "g.sgf", "--rule", "chess"],
            "unknown rule 'chess'",
        ),
        (
            &["datagen"],
            "the following required arguments were not provided",
        ),
        (
            &["datagen", "--out", "x.data", "--nodes", "0"],
            "expected a number from 1 to 1000000000",
        ),
        (
            &["datagen", "--out", "x.data", "--games", "0"],
            "expected a number from 1 to 100000000",
        ),
        (
            &["datagen", "--out", "x.data", "--threads", "0"],
            "expected a number from 1 to 256",
        ),
        (
            &["datagen", "--out", "x.data", "--size", "33"],
            "expected a number from 5 to 32",
        ),
        (
            &["datagen", "--out", "x.data", "--random-plies", "-1"],
            "unexpected argument '-1'",
        ),
        (
            &["datagen", "--out", "x.data", "--stones", "21"],
            "expected a number from 0 to 20",
        ),
        (
            &["datagen", "--out", "x.data", "--rule", "go"],
            "unknown rule 'go'",
        ),
    ] {
        refused(args, msg);
    }
}

#[test]
fn no_arguments_or_protocol_speak_the_gomocup_protocol() {
    for args in [&[][..], &["protocol"]] {
        let mut b = common::Brain::with_args(args);
        assert!(b.ask("ABOUT").starts_with("name=\"Fivefold\""), "{args:?}");
        assert_eq!(b.ask("START 15"), "OK");
    }
}

#[test]
fn an_unknown_leading_option_falls_back_to_the_protocol_with_a_warning() {
    // Some managers start engines with options of their own.
    let o = common::run_with_input(&["-manager-option", "1"], "START 15\nEND\n");
    assert!(o.success());
    assert_eq!(o.out.lines().next(), Some("OK"));
    assert!(o
        .err
        .contains("ignoring unknown option '-manager-option'; speaking the Gomocup protocol"));
}

#[test]
fn bench_takes_name_equals_value_and_keeps_its_totals() {
    let Run { code, out, err } = run(&["bench", "--depth=1", "--threads=1"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n > 3, "{out}");
    assert!(lines[n - 3].starts_with("Nodes: "), "{out}");
    assert!(lines[n - 2].starts_with("Nodes/s: "), "{out}");
    assert!(lines[n - 1].starts_with("Signature: "), "{out}");
    assert_eq!(lines[n - 1].len(), "Signature: ".len() + 16, "{out}");
}

#[test]
fn selfplay_plays_each_opening_twice() {
    let Run { code, out, err } = run(&[
        "selfplay",
        "--a",
        "depth=1",
        "--b=greedy",
        "--openings",
        "1",
        "--size",
        "7",
        "--seed",
        "3",
        "--stones",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("depth=1 vs greedy: 2 games, +"),
        "{out}"
    );
    assert!(
        lines[0].contains("score ") && lines[0].contains("Elo "),
        "{out}"
    );
}

#[test]
fn openings_are_written_in_both_formats() {
    for (format, squares) in [("offset", 3), ("pos", 1)] {
        let Run { code, out, err } = run(&[
            "openings", "--count", "2", "--size", "9", "--depth", "1", "--rule", "renju", "--seed",
            "5", "--format", format,
        ]);
        assert_eq!(code, Some(0), "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(!lines.is_empty() && lines.len() <= 2, "{out}");
        for l in &lines {
            if format == "offset" {
                // Three stones as "dx,dy" pairs separated by ", ".
                assert_eq!(l.split(", ").count(), squares, "{l}");
            } else {
                // Three squares run together: letter, row number.
                let letters = l.chars().filter(|c| c.is_ascii_lowercase()).count();
                assert_eq!(letters, 3, "{l}");
            }
        }
        if lines.len() < 2 {
            assert!(err.contains("openings: only"), "{err}");
        }
    }
}

#[test]
fn tune_fits_a_table_from_a_few_tiny_games() {
    let Run { code, out, err } = run(&[
        "tune",
        "--games",
        "1",
        "--nodes",
        "50",
        "--iterations",
        "2",
        "--threads",
        "1",
        "--size",
        "7",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with(
            "// tune: rule freestyle size 7 games 1 nodes 50 seed 1 iterations 2\n// loss train "
        ),
        "{out}"
    );
    assert!(out.contains("pub const WEIGHTS: Weights = ["), "{out}");
    assert!(err.contains("self-play games"), "{err}");
}

#[test]
fn tune_without_positions_says_what_to_give() {
    let Run { code, err, .. } = run(&["tune", "--games", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no training positions"), "{err}");
}

#[test]
fn puzzles_prints_a_line_per_puzzle_and_a_summary() {
    let file = data("vcf_chains.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    let count = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    assert!(count > 0);
    let Run { code, out, err } = run(&["puzzles", &file, "--nodes", "3000"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), count + 1, "{out}");
    for l in &lines[..count] {
        assert!(l.ends_with(" ok") || l.ends_with(" MISS"), "{l}");
    }
    let summary = lines[count];
    let (solved, total) = summary
        .strip_prefix("Solved: ")
        .and_then(|s| s.split_once('/'))
        .unwrap_or_else(|| panic!("no summary: {summary}"));
    assert_eq!(total, count.to_string());
    assert!(solved.parse::<usize>().unwrap() <= count);

    // --quiet: the summary alone, the same count.
    let Run {
        code, out: quiet, ..
    } = run(&["puzzles", &file, "--nodes=3000", "--quiet"]);
    assert_eq!(code, Some(0));
    assert_eq!(quiet.trim(), summary);
}

#[test]
fn puzzles_reports_a_missing_file() {
    refused(
        &["puzzles", "/nonexistent/puzzles.txt", "--nodes", "10"],
        "cannot read /nonexistent/puzzles.txt",
    );
}

#[test]
fn docs_cli_shows_each_subcommands_options_as_help_does() {
    let doc = std::fs::read_to_string(format!("{}/docs/cli.md", env!("CARGO_MANIFEST_DIR")))
        .expect("docs/cli.md");
    for (_, cmd) in every_subcommand().filter(|&(_, c)| c != "analyze" && c != "protocol") {
        let Run { out: help, .. } = run(&[cmd, "--help"]);
        let start = help.find("Usage:").expect("usage");
        let end = help.find("Print help").expect("help line") + "Print help".len();
        assert!(
            doc.contains(&help[start..end]),
            "docs/cli.md does not show `{cmd} --help`'s options as they are now:\n{}",
            &help[start..end]
        );
    }
}

#[test]
fn a_mistyped_subcommand_is_an_error_with_usage() {
    let Run { code, out, err } = run(&["analyze-this"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unrecognized subcommand 'analyze-this'") && err.contains("Usage:"),
        "{err}"
    );
    assert!(out.is_empty());
}

#[test]
fn a_subcommand_whose_reader_has_gone_ends_quietly() {
    // `fivefold-tools openings | head -0`: the reader closes the pipe before the first
    // line is written. The tool must stop without a panic message and with status 0.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fivefold-tools"))
        .args(["openings", "--count", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run openings");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("exit");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "status {:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn protocol_and_bench_take_search_parameters() {
    let Run { code, out, err } = common::run_with_input(
        &["protocol", "--params", "use_net=2,policy_weight=300"],
        "START 9\nINFO timeout_turn 200\nBEGIN\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(lines[0], "OK", "{out}");
    assert!(lines[1].split(',').count() == 2, "{out}");
    refused(&["protocol", "--params", "use_net=7"], "outside its range");
    refused(
        &["protocol", "--params", "nonsense=1"],
        "unknown search parameter",
    );
    refused(&["bench", "--params", "use_net"], "is not name=value");
}

#[test]
fn train_refuses_what_it_cannot_train_on() {
    refused(&["train", "--out", "x.fnet"], "--data");
    refused(
        &["train", "--data", "no-such-file.data", "--out", "x.fnet"],
        "no-such-file.data",
    );
    refused(
        &[
            "train",
            "--data",
            &data("shared_win.txt"),
            "--out",
            "x.fnet",
        ],
        "FIVEDATA",
    );
}

#[test]
fn import_reads_sample_files_that_train_then_learns_from() {
    let dir = std::env::temp_dir().join(format!("fivefold-cli-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    // Two games as c-gomoku-cli writes them: black wins the first on row 8, the second
    // is a draw (cut short here; the result is what the file says).
    std::fs::write(
        path("games.csv"),
        "h8i9,i8,2\nh8i9i8,j9,0\nh8i9i8j9,j8,2\nh8i9i8j9j8,k9,0\nh8i9i8j9j8k9,k8,2\n\
         h8i9i8j9j8k9k8,l9,0\nh8i9i8j9j8k9k8l9,g8,2\nd4e5,f6,1\nd4e5f6,c3,1\n",
    )
    .unwrap();
    let Run { code, out, err } = run(&["import", &path("games.csv"), "--out", &path("g.data")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("import: 9 samples of 2 games, 8 positions written"),
        "{err}"
    );
    let Run { code, err, .. } = run(&[
        "train",
        "--data",
        &path("g.data"),
        "--out",
        &path("g.fnet"),
        "--epochs",
        "1",
    ]);
    assert_eq!(code, Some(0), "{err}");
    // The 8 positions, split between training and held out by game.
    assert!(err.contains("train: freestyle network, "), "{err}");
    assert!(std::fs::metadata(path("g.fnet")).is_ok(), "{err}");
    std::fs::write(path("bad.csv"), "h8i9,i8,2\nh8i9i8,h8,0\n").unwrap();
    refused(
        &["import", &path("bad.csv"), "--out", &path("b.data")],
        "bad.csv line 2: 'h8i9i8,h8,0': the move h8 is on an occupied square",
    );
    refused(
        &["import", &path("none.csv"), "--out", &path("b.data")],
        "none.csv",
    );
    // An SGF game and the teacher's thinking lines (c-gomoku-cli's -sgf and -msg), after
    // the CSV file: white's (rapfi's) two moves, each with its score.
    std::fs::write(
        path("games.sgf"),
        "(;FF[4]GM[4]RU[0]SZ[15]PB[ff]PW[rapfi]RE[B+1]TE[Black win by five connection]\n\
         ;B[hh]C[opening move];W[ih]C[opening move];B[hg]C[opening move]\n\
         ;W[ig];B[hf];W[if];B[he];W[jj];B[hd])\n",
    )
    .unwrap();
    std::fs::write(
        path("messages.txt"),
        "Game ID: 1\n4) rapfi: Depth 5-5 | Eval 45\n6) rapfi: Depth 5-5 | Eval -450\n",
    )
    .unwrap();
    let (sgf, messages) = (path("games.sgf"), path("messages.txt"));
    let Run { code, err, .. } = run(&[
        "import",
        &path("games.csv"),
        "--sgf",
        &sgf,
        "--messages",
        &messages,
        "--teacher",
        "rapfi",
        "--out",
        &path("s.data"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("import: 9 samples of 2 games and 1 SGF games (0 skipped: no result, or ended off the board; 2 positions with the teacher's score), 11 positions written"),
        "{err}"
    );
    refused(
        &[
            "import",
            "--sgf",
            &sgf,
            "--messages",
            &messages,
            "--out",
            &path("b.data"),
        ],
        "--teacher",
    );
    // Two numbered games (c-gomoku-cli's GN): --games and --except-games split them.
    let game = std::fs::read_to_string(&sgf).unwrap();
    let numbered = format!(
        "{}{}",
        game.replacen("(;", "(;GN[1]", 1),
        game.replacen("(;", "(;GN[2]", 1)
    );
    std::fs::write(path("two.sgf"), numbered).unwrap();
    let two = path("two.sgf");
    let import = |pick: &str, range: &str, out: &str| {
        run(&["import", "--sgf", &two, pick, range, "--out", &path(out)])
    };
    let Run { code, err, .. } = import("--games", "2", "v.data");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("1 SGF games numbered 2-2 (0 skipped")
            && err.contains("1 other games left out, 5 positions written"),
        "{err}"
    );
    let Run { code, err, .. } = import("--except-games", "2-9", "t.data");
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 SGF games not numbered 2-9"), "{err}");
    // A range that picks nothing fails and leaves no file.
    let Run { code, err, .. } = import("--games", "3-4", "none.data");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("left none of the 2 games"), "{err}");
    assert!(!std::path::Path::new(&path("none.data")).exists());
    refused(
        &[
            "import",
            "--sgf",
            &two,
            "--games",
            "4-3",
            "--out",
            &path("b.data"),
        ],
        "FROM-TO",
    );
    refused(
        &[
            "import",
            "--sgf",
            &two,
            "--games",
            "1",
            "--except-games",
            "2",
            "--out",
            &path("b.data"),
        ],
        "cannot be used with",
    );
    std::fs::remove_dir_all(&dir).ok();
}
