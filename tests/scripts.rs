//! The helper scripts in `scripts/` that read match logs, run on small logs written here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One c-gomoku-cli SGF game record: `black`, `white`, result `re`, and whether only the
/// opening stones were played (an engine did not answer `START`).
fn game(gn: usize, black: &str, white: &str, re: &str, forfeit: bool) -> String {
    let opening = ";B[hh]C[opening move];W[hi]C[opening move];B[ih]C[opening move]";
    let (te, rest) = if forfeit {
        ("time forfeit", "")
    } else {
        (
            "Black win by five connection",
            "\n;W[jj]C[470ms];B[ii]C[471ms]",
        )
    };
    format!(
        "(;FF[4]GM[4]GN[{gn}]EV[{black} x {white}]RU[0]SZ[15]PB[{black}]PW[{white}]RE[{re}]TE[{te}]\n{opening}{rest})\n\n"
    )
}

/// A match directory as `scripts/match.sh` leaves it: `me` is the engine it scores, `opp`
/// the other one; `games` lists (black is me, result, forfeit) per game number from 1.
fn run_dir(dir: &Path, me: &str, opp: &str, games: &[(bool, &str, bool)]) {
    fs::create_dir_all(dir).unwrap();
    let mut sgf = String::new();
    for (i, &(me_black, re, forfeit)) in games.iter().enumerate() {
        let (b, w) = if me_black { (me, opp) } else { (opp, me) };
        sgf += &game(i + 1, b, w, re, forfeit);
    }
    fs::write(dir.join("games.sgf"), sgf).unwrap();
    fs::write(
        dir.join("openings.txt"),
        "0,0, 1,0, 0,1\n".repeat(games.len() / 2),
    )
    .unwrap();
    fs::write(
        dir.join("match.out"),
        format!("Score of {me} vs {opp}: 1 - 1 - 0  [0.500] 2\n"),
    )
    .unwrap();
}

/// Writes the shell script `body` to `path`, executable: a stand-in for a program a
/// script runs.
fn stand_in(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// A stand-in for c-gomoku-cli in `dir`: it leaves `games` (SGF records) as the match's
/// games.sgf, prints `score` as its score line, then runs `then` (shell). Returns its path.
fn cli_stand_in(dir: &Path, games: &str, score: &str, then: &str) -> PathBuf {
    let (sgf, cli) = (dir.join("games.sgf"), dir.join("cli"));
    fs::write(&sgf, games).unwrap();
    let body = format!("cp '{}' games.sgf\necho '{score}'\n{then}\n", sgf.display());
    stand_in(&cli, &body);
    cli
}

/// Runs `scripts/NAME` with `args`; returns its exit code, stdout and stderr.
fn run_script<S: AsRef<std::ffi::OsStr>>(name: &str, args: &[S]) -> (Option<i32>, String, String) {
    run_script_with(name, args, &[])
}

/// [`run_script`] with environment variables `envs` set for the script.
fn run_script_with<S: AsRef<std::ffi::OsStr>>(
    name: &str,
    args: &[S],
    envs: &[(&str, &std::ffi::OsStr)],
) -> (Option<i32>, String, String) {
    let out = Command::new("bash")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scripts")
                .join(name),
        )
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .expect("bash runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `scripts/pairs.sh` with `args`.
fn pairs(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    run_script("pairs.sh", args)
}

/// Runs `scripts/match.sh /bin/sh /bin/sh ARGS...` (`args` from GAMES on) with the
/// stand-in c-gomoku-cli `cli`, the openings file `openings`, logs in `out` and the
/// further variables `envs`; returns its exit code and its stdout and stderr together.
fn match_with_stand_in(
    cli: &Path,
    openings: &Path,
    out: &Path,
    args: &[&str],
    envs: &[(&str, &std::ffi::OsStr)],
) -> (Option<i32>, String) {
    let mut all = vec![
        ("CGOMOKU", cli.as_os_str()),
        ("OUT", out.as_os_str()),
        ("OPENINGS", openings.as_os_str()),
    ];
    all.extend_from_slice(envs);
    let mut argv = vec!["/bin/sh", "/bin/sh"];
    argv.extend_from_slice(args);
    let (code, out, err) = run_script_with("match.sh", &argv, &all);
    (code, out + &err)
}

/// Runs `SPRT=spec scripts/pairs.sh --score RUN...` on `runs` (log directories or
/// `--points` files).
fn score_runs(spec: &str, runs: &[&Path]) -> (Option<i32>, String, String) {
    let mut args: Vec<&std::ffi::OsStr> = vec!["--score".as_ref()];
    args.extend(runs.iter().map(|r| r.as_os_str()));
    run_script_with("pairs.sh", &args, &[("SPRT", spec.as_ref())])
}

/// Writes two runs (engine name and games, against "ref") into a fresh temporary
/// directory, runs `scripts/pairs.sh [flag] A B` on them, checks that it succeeded and
/// returns its output.
fn pairs_on_two_runs(
    tag: &str,
    flag: Option<&str>,
    a: (&str, &[(bool, &str, bool)]),
    b: (&str, &[(bool, &str, bool)]),
) -> String {
    let tmp = std::env::temp_dir().join(format!("fivefold-{tag}-{}", std::process::id()));
    let (da, db) = (tmp.join("a"), tmp.join("b"));
    run_dir(&da, a.0, "ref", a.1);
    run_dir(&db, b.0, "ref", b.1);
    let mut args: Vec<&std::ffi::OsStr> = flag.iter().map(|f| f.as_ref()).collect();
    args.extend([da.as_os_str(), db.as_os_str()]);
    let (code, text, err) = pairs(&args);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(0), "{text}{err}");
    text
}

/// A run of engine "new" against "ref" (black is "new", result, opening-only forfeit):
/// opening 1 won with both colours, opening 2 split (white won both games), opening 3's
/// second game an opening-only forfeit, so opening 3 is left out of the pairs.
const NEW_RUN: [(bool, &str, bool); 6] = [
    (false, "W+1", false),
    (true, "B+1", false),
    (true, "W+1", false),
    (false, "W+1", false),
    (true, "B+1", false),
    (false, "B+1", true),
];

/// Two runs of [`NEW_RUN`] in a fresh temporary directory: `a` scores engine "new", `b`
/// engine `b_name`. Returns the directory (to remove) and the two run directories.
fn new_run_twice(tag: &str, b_name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-{tag}-{}", std::process::id()));
    let (da, db) = (tmp.join("a"), tmp.join("b"));
    run_dir(&da, "new", "ref", &NEW_RUN);
    run_dir(&db, b_name, "ref", &NEW_RUN);
    (tmp, da, db)
}

#[test]
fn pairs_compares_two_runs_opening_by_opening() {
    // Run A (engine "new"): opening 3 is left out of the comparison. Run B (engine "old"):
    // opening 1 split, opening 2 two draws, opening 3 won twice.
    let old_run = [
        (true, "B+1", false),
        (true, "W+1", false),
        (false, "0", false),
        (true, "0", false),
        (true, "B+1", false),
        (false, "W+1", false),
    ];
    let text = pairs_on_two_runs("pairs", None, ("new", &NEW_RUN), ("old", &old_run));
    // Openings 1 and 2: A scored 2 and 1, B 1 and 1; differences +1 and 0.
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "run A: 3-1-0",
            "run B: 1-1-2",
            "pairs 2  A - B +1.0 points  standard error 0.7",
        ],
        "{text}"
    );
}

#[test]
fn pairs_refuses_a_directory_without_logs() {
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-empty-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    let (code, _, err) = pairs(&[tmp.as_os_str(), tmp.as_os_str()]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(2));
    assert!(err.contains("no games.sgf"), "{err}");
}

#[test]
fn pairs_refuses_a_score_line_that_names_neither_player() {
    // A match stopped before c-gomoku-cli printed a score line, given one by hand with the
    // wrong names: every game would count for the other side, so it is refused (of the
    // six games the forfeit, which never counts, is not among them), for
    // --points and --score alike, before anything is printed.
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-names-{}", std::process::id()));
    let run = tmp.join("run");
    run_dir(&run, "new", "ref", &NEW_RUN);
    fs::write(run.join("match.out"), "Score of A vs B: 0 - 0 - 0\n").unwrap();
    let (points_code, points_out, points_err) = pairs(&["--points".as_ref(), run.as_os_str()]);
    let (score_code, score_out, score_err) = score_runs("elo0=0 elo1=20", &[&run]);
    fs::remove_dir_all(&tmp).ok();
    for (code, out, err) in [
        (points_code, points_out, points_err),
        (score_code, score_out, score_err),
    ] {
        assert_eq!(code, Some(2), "{out}{err}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains("names A, who did not play 5 of its 5 games"),
            "{err}"
        );
    }
}

#[test]
fn pairs_refuses_runs_played_on_different_openings() {
    // Openings generated by two different builds differ: game 1 of one run and game 1 of
    // the other are not the same opening, and pairing them measures nothing.
    let (tmp, da, db) = new_run_twice("open", "old");
    fs::write(db.join("openings.txt"), "0,0, 1,1, 0,1\n".repeat(3)).unwrap();
    let (code, text, err) = pairs(&[da.as_os_str(), db.as_os_str()]);
    let (score_code, score_text, _) = pairs(&["--score".as_ref(), da.as_os_str(), db.as_os_str()]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(2), "{text}");
    assert!(err.contains("played different openings"), "{err}");
    // Scoring runs separately does not pair them: still allowed.
    assert_eq!(score_code, Some(0), "{score_text}");
}

#[test]
fn pairs_scores_runs_by_colour_and_opening() {
    // Run A: opening 2 was won by white both times; opening 3 is left out. Run B: one
    // opening, won by black both times.
    let second = [(true, "B+1", false), (false, "B+1", false)];
    let text = pairs_on_two_runs(
        "score",
        Some("--score"),
        ("new", &NEW_RUN),
        ("new", &second),
    );
    // Three openings worth 2, 1 and 1 points: 4 of 6 = 66.7% (Elo +120), the interval
    // 1.96 x sqrt(var / 3) / 2 with var = (4 + 1 + 1) / 3 - (4 / 3)^2.
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "as black: 3-1-0  as white: 2-1-0",
            "pairs 3  score 66.7% +- 26.7  Elo +120 [-70, +459]",
            "one colour won both games in 2 of 3 openings",
        ],
        "{text}"
    );
}

#[test]
fn pairs_decides_a_sequential_test_on_all_the_runs_games() {
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-sprt-{}", std::process::id()));
    let (da, db, dc) = (tmp.join("a"), tmp.join("b"), tmp.join("c"));
    // Run A is NEW_RUN (its opening-only forfeit left out: 4-1-0), run B one opening won
    // by black twice (1-1-0); run C 27 wins and 3 losses, run D the reverse.
    run_dir(&da, "new", "ref", &NEW_RUN);
    run_dir(
        &db,
        "new",
        "ref",
        &[(true, "B+1", false), (false, "B+1", false)],
    );
    // Game i: "new" has black in the even games, and wins or loses.
    let won = |i: usize, win: bool| {
        let black = i.is_multiple_of(2);
        (black, if black == win { "B+1" } else { "W+1" }, false)
    };
    let c: Vec<_> = (0..30).map(|i| won(i, i >= 3)).collect();
    run_dir(&dc, "new", "ref", &c);
    let dd = tmp.join("d");
    let d: Vec<_> = (0..30).map(|i| won(i, i < 3)).collect();
    run_dir(&dd, "new", "ref", &d);
    // The line of c-gomoku-cli's test on the games, and the line of the test on the pairs.
    let line = |out: &(Option<i32>, String, String), prefix: &str| {
        assert_eq!(out.0, Some(0), "{}{}", out.1, out.2);
        let mut found = out.1.lines().filter(|l| l.starts_with(prefix));
        found.next_back().unwrap_or_default().to_string()
    };
    let last = |out: &(Option<i32>, String, String)| line(out, "SPRT elo0");
    let on_pairs = |out: &(Option<i32>, String, String)| line(out, "SPRT on the pairs");
    // LLR = (s1 - s0)(2s - s0 - s1) / (2 var / n), s0 = 0.5, s1 = 1 / (1 + 10^(-20/400)),
    // s the score and var the variance of one game's points; bounds ln(beta / (1 - alpha))
    // and ln((1 - beta) / alpha).
    let two = score_runs("elo0=0 elo1=20 alpha=0.05 beta=0.05", &[&da, &db]);
    let bounds = "[-2.944, 2.944]";
    assert_eq!(
        last(&two),
        format!("SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: 5-2-0, LLR 0.197 {bounds}, undecided")
    );
    // On the pairs: points 2, 1 and 1 of 2, so s = 2/3 and the variance of the halved
    // points (1, 1/2, 1/2) is 1/2 - 4/9 = 1/18; LLR = (s1 - s0)(2s - s0 - s1) / (2 v / 3).
    assert_eq!(
        on_pairs(&two),
        format!("SPRT on the pairs: 3 pairs, LLR 0.236 {bounds}, undecided")
    );
    // alpha and beta default to 0.05.
    let won_most = score_runs("elo0=0 elo1=20", &[&dc]);
    assert_eq!(
        last(&won_most),
        format!(
            "SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: 27-3-0, LLR 3.696 {bounds}, H1 accepted"
        )
    );
    let lost_most = score_runs("elo1=20 elo0=0", &[&dd]);
    assert_eq!(
        last(&lost_most),
        format!(
            "SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: 3-27-0, LLR -3.971 {bounds}, H0 accepted"
        )
    );
    // The runs together: 35-32-0.
    let all = score_runs("elo0=0 elo1=20 beta=0.1", &[&da, &db, &dc, &dd]);
    assert!(
        last(&all).ends_with(": 35-32-0, LLR 0.062 [-2.251, 2.890], undecided"),
        "{}",
        all.1
    );
    // The pairs of run C: 0, 1, then 13 times 2 points; the games were won and lost
    // apart from the colours, so the pairs vary more than the games and decide later.
    assert_eq!(
        on_pairs(&won_most),
        format!("SPRT on the pairs: 15 pairs, LLR 2.268 {bounds}, undecided")
    );
    for bad in [
        "elo0=0",
        "elo0=20 elo1=0",
        "elo0=0 elo1=20 alpha=1",
        "elo=3 elo1=20",
        "elo0=a elo1=5",
    ] {
        let (code, text, err) = score_runs(bad, &[&da]);
        assert_eq!(code, Some(2), "{bad}: {text}");
        assert!(err.contains("SPRT"), "{bad}: {err}");
        assert!(text.is_empty(), "{bad}: {text}");
    }
    // Only --score reads SPRT (two runs compared opening by opening are no test).
    let (code, _, err) = run_script_with(
        "pairs.sh",
        &[da.as_os_str(), db.as_os_str()],
        &[("SPRT", "elo0=0 elo1=20".as_ref())],
    );
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(2));
    assert!(err.contains("only with --score"), "{err}");
}

#[test]
fn pairs_test_on_the_pairs_sees_through_openings_one_colour_wins() {
    // 40 openings won by black in both games and 10 won by "new" with both colours: 60-40
    // in games. Counted game by game (variance 0.24 a game) that is LLR 1.026, undecided;
    // the pairs score 1/2 forty times and 1 ten times (variance 0.04 a pair), and only the
    // ten say anything about the engines: LLR 3.077, H1.
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-penta-{}", std::process::id()));
    let dir = tmp.join("a");
    let mut games = Vec::new();
    for k in 0..50 {
        let white_result = if k % 5 == 4 { "W+1" } else { "B+1" };
        games.extend([(true, "B+1", false), (false, white_result, false)]);
    }
    run_dir(&dir, "new", "ref", &games);
    let (code, text, err) = score_runs("elo0=0 elo1=20", &[&dir]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(0), "{text}{err}");
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: 60-40-0, LLR 1.026 [-2.944, 2.944], undecided",
            "SPRT on the pairs: 50 pairs, LLR 3.077 [-2.944, 2.944], H1 accepted",
        ],
        "{text}"
    );
}

#[test]
fn pairs_keeps_a_runs_points_in_a_file_that_scores_as_the_run() {
    let (tmp, da, db) = new_run_twice("points", "new");
    let (code, points, err) = pairs(&["--points".as_ref(), da.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    // NEW_RUN: game numbers in order, "new"'s points and whether it had black; the
    // opening-only forfeit (game 6) is left out, as --score leaves it out.
    let lines: Vec<_> = points.lines().collect();
    assert!(lines[0].starts_with("# points of new in "), "{points}");
    assert_eq!(lines[1..], ["1 1 0", "2 1 1", "3 0 1", "4 1 0", "5 1 1"]);
    let file = tmp.join("a.points");
    fs::write(&file, &points).unwrap();
    let score = |runs: &[&Path]| score_runs("elo0=0 elo1=20", runs);
    let (from_dirs, from_file) = (score(&[&da, &db]), score(&[&file, &db]));
    let bad = tmp.join("bad.points");
    fs::write(&bad, "1 1 0\n2 2 1\n").unwrap();
    let refused = score(&[&bad]);
    let (usage, _, _) = pairs(&["--points".as_ref(), da.as_os_str(), db.as_os_str()]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(from_dirs.0, Some(0), "{}", from_dirs.2);
    assert!(
        from_dirs.1.contains("SPRT on the pairs: 4 pairs"),
        "{}",
        from_dirs.1
    );
    assert_eq!(from_file, from_dirs);
    assert_eq!(refused.0, Some(2), "{}", refused.1);
    assert!(
        refused.2.contains("not a pairs.sh --points file"),
        "{}",
        refused.2
    );
    assert_eq!(usage, Some(2));
}

#[test]
fn pairs_reads_a_match_that_is_still_being_written() {
    // While c-gomoku-cli runs, the last line of match.out may stop in the middle of a
    // score line. The scored engine is named by the first complete one; a log with none
    // yet is refused instead of being scored as nobody's games.
    let (tmp, da, db) = new_run_twice("live", "new");
    let complete = fs::read_to_string(db.join("match.out")).unwrap();
    fs::write(db.join("match.out"), format!("{complete}Score of ")).unwrap();
    let (code, text, err) = pairs(&[da.as_os_str(), db.as_os_str()]);
    assert_eq!(code, Some(0), "{text}{err}");
    assert!(text.contains("run B: 3-1-0"), "{text}");
    fs::write(db.join("match.out"), "Started game 1 of 6\nScore of ").unwrap();
    let (code, text, err) = pairs(&[da.as_os_str(), db.as_os_str()]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(2), "{text}");
    assert!(err.contains("no score line yet"), "{err}");
}

#[cfg(unix)]
#[test]
fn match_reports_the_test_on_the_pairs_with_sprt() {
    let tmp = std::env::temp_dir().join(format!("fivefold-match-sprt-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    // A stand-in for c-gomoku-cli that leaves two openings' games in its directory: "a"
    // won both games of the first and lost both of the second.
    let games = [
        game(1, "a", "b", "B+1", false),
        game(2, "b", "a", "W+1", false),
        game(3, "a", "b", "W+1", false),
        game(4, "b", "a", "B+1", false),
    ];
    let cli = cli_stand_in(
        &tmp,
        &games.concat(),
        "Score of a vs b: 2 - 2 - 0  [0.500] 4",
        "",
    );
    let openings = tmp.join("openings.pos.txt");
    fs::write(&openings, "h8i9j7\nh8i9j8\n").unwrap();
    let run = |sprt: Option<&str>, out: &Path| {
        let envs: Vec<_> = sprt.map(|s| ("SPRT", s.as_ref())).into_iter().collect();
        match_with_stand_in(&cli, &openings, out, &["4"], &envs)
    };
    let (code, text) = run(Some("elo0=0 elo1=20"), &tmp.join("with"));
    let (plain_code, plain) = run(None, &tmp.join("without"));
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(0), "{text}");
    // Pairs worth 1 and 0 (halved points): s = 1/2, variance 1/4, LLR
    // (s1 - s0)(1 - s0 - s1) / (2 (1/4) / 2) = -0.0033.
    assert!(
        text.contains("SPRT on the pairs: 2 pairs, LLR -0.003 [-2.944, 2.944], undecided"),
        "{text}"
    );
    assert_eq!(plain_code, Some(0), "{plain}");
    assert!(!plain.contains("SPRT"), "{plain}");
}

#[cfg(unix)]
#[test]
fn match_stops_when_the_test_on_the_pairs_decides() {
    let tmp = std::env::temp_dir().join(format!("fivefold-match-stop-{}", std::process::id()));
    let modest_dir = tmp.join("modest");
    fs::create_dir_all(&modest_dir).unwrap();
    // 30 openings: "a" won both games of the first `won`, black won both of the others.
    let run_of = |won: usize| {
        let mut sgf = String::new();
        for k in 0..30 {
            let (gn, second) = (2 * k + 1, if k < won { "W+1" } else { "B+1" });
            sgf += &game(gn, "a", "b", "B+1", false);
            sgf += &game(gn + 1, "b", "a", second, false);
        }
        sgf
    };
    // Stand-ins for c-gomoku-cli: the games at once, then a wait of WAIT seconds that the
    // watcher cuts short (SIGTERM); a run that waits to its end leaves "ran-out".
    // Won 25: on the pairs s = 11/12, variance 7/8 - (11/12)^2, LLR about 10: H1 (on the
    // games, 55-5-0, it is 7.4). Won 8: 38-22-0, LLR 2.099 on the pairs, undecided.
    let then = "sleep $WAIT && touch ran-out";
    let strong = cli_stand_in(
        &tmp,
        &run_of(25),
        "Score of a vs b: 55 - 5 - 0  [0.917] 60",
        then,
    );
    let modest = cli_stand_in(
        &modest_dir,
        &run_of(8),
        "Score of a vs b: 38 - 22 - 0  [0.633] 60",
        then,
    );
    // An earlier run of the same test, lost both games of 4 openings and black won both of
    // 26: LLR -2.420 on the pairs, undecided; pooled with the modest run, 0.669...
    let earlier = tmp.join("earlier");
    let mut lost = Vec::new();
    for k in 0..30 {
        lost.extend([
            (true, if k < 4 { "W+1" } else { "B+1" }, false),
            (false, "B+1", false),
        ]);
    }
    run_dir(&earlier, "a", "b", &lost);
    // ... kept as a --points file, as a run under test is kept between sessions.
    let kept = tmp.join("earlier.points");
    let (_, points, _) = pairs(&["--points".as_ref(), earlier.as_os_str()]);
    fs::write(&kept, points).unwrap();
    let openings = tmp.join("openings.pos.txt");
    fs::write(&openings, "h8i9j7\n".repeat(30)).unwrap();
    // SPRT "" is a match without the test.
    let run = |cli: &Path, out: &Path, pool: Option<&Path>, wait: &str, sprt: &str| {
        let mut envs = vec![
            ("WAIT", wait.as_ref()),
            ("SPRT", sprt.as_ref()),
            ("SPRT_POLL", "1".as_ref()),
        ];
        envs.extend(pool.map(|p| ("SPRT_POOL", p.as_os_str())));
        match_with_stand_in(cli, &openings, out, &["60"], &envs)
    };
    let test = "elo0=0 elo1=20";
    let alone = tmp.join("alone");
    let start = std::time::Instant::now();
    let (code, text) = run(&strong, &alone, None, "30", test);
    let took = start.elapsed();
    let stopped = fs::read_to_string(alone.join("stopped.txt")).unwrap_or_default();
    let cut_short = !alone.join("ran-out").exists() && took.as_secs() < 25;
    let (pooled_code, pooled) = run(&modest, &tmp.join("pooled"), Some(&kept), "3", test);
    let ran_out = tmp.join("pooled/ran-out").exists();
    let (bad_code, bad) = run(
        &strong,
        &tmp.join("bad"),
        Some(&tmp.join("nothing")),
        "0",
        test,
    );
    // A pool that has decided already (the first run, H1): nothing is played on.
    let (done_code, done) = run(&strong, &tmp.join("done"), Some(&alone), "0", test);
    let done_played = tmp.join("done/games.sgf").exists();
    // SPRT_POOL pools runs into the SPRT: without SPRT it is refused.
    let (unset_code, unset) = run(&strong, &tmp.join("unset"), Some(&kept), "0", "");
    let unset_played = tmp.join("unset/games.sgf").exists();
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("stopped by the test on the pairs"), "{text}");
    assert!(
        text.contains("SPRT on the pairs: 30 pairs, LLR 9.993 [-2.944, 2.944], H1 accepted"),
        "{text}"
    );
    assert!(stopped.contains("H1 accepted"), "{stopped}");
    assert!(
        cut_short,
        "the match went on after the test decided ({took:?})"
    );
    // Pooled with the earlier run: 60 pairs, undecided; the match ran to its end. The
    // pool's test so far is printed first.
    assert_eq!(pooled_code, Some(0), "{pooled}");
    assert!(!pooled.contains("stopped") && ran_out, "{pooled}");
    assert!(
        pooled.contains("SPRT_POOL so far: 30 pairs, LLR -2.420 [-2.944, 2.944], undecided"),
        "{pooled}"
    );
    assert!(
        pooled.contains("SPRT on the pairs: 60 pairs, LLR 0.669 [-2.944, 2.944], undecided"),
        "{pooled}"
    );
    assert_eq!(bad_code, Some(2), "{bad}");
    assert!(bad.contains("SPRT_POOL"), "{bad}");
    assert_eq!(done_code, Some(0), "{done}");
    assert!(
        done.contains("SPRT_POOL so far: 30 pairs, LLR 9.993 [-2.944, 2.944], H1 accepted"),
        "{done}"
    );
    assert!(
        done.contains("has decided already") && !done_played,
        "{done}"
    );
    assert_eq!(unset_code, Some(2), "{unset}");
    assert!(unset.contains("set SPRT too") && !unset_played, "{unset}");
}

/// `scripts/speed.sh OLD NEW` with three runs each and `envs`: its status and its
/// output and errors together.
fn run_speed(old: &Path, new: &Path, envs: &[(&str, &std::ffi::OsStr)]) -> (Option<i32>, String) {
    let mut env = vec![("RUNS", "3".as_ref())];
    env.extend_from_slice(envs);
    let (code, out, err) = run_script_with("speed.sh", &[old, new], &env);
    (code, out + &err)
}

/// A stand-in for `pbrain-fivefold` whose `bench` prints two positions taking `ms`
/// milliseconds each and the given signature, the lines `scripts/speed.sh` reads.
fn fake_bench(path: &Path, ms: u32, signature: &str) {
    let body = format!(
        "echo 'pos-a  100 nodes  best 7,7  score 0  {ms} ms'\n\
         echo 'pos-b  100 nodes  best 7,7  score 0  {ms} ms'\n\
         echo 'Nodes: 200'\necho 'Nodes/s: 1000'\necho 'Signature: {signature}'\n"
    );
    stand_in(path, &body);
}

#[cfg(unix)]
#[test]
fn speed_compares_time_to_depth_and_refuses_different_trees() {
    let tmp = std::env::temp_dir().join(format!("fivefold-speed-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    let (old, new, other) = (tmp.join("old"), tmp.join("new"), tmp.join("other"));
    fake_bench(&old, 150, "abc");
    fake_bench(&new, 100, "abc");
    fake_bench(&other, 100, "def");
    let speed = |a: &Path, b: &Path| run_speed(a, b, &[]);
    // 300 ms against 200 ms to depth: 1.5 times as fast.
    let (code, text) = speed(&old, &new);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("speed-up 1.500"), "{text}");
    assert!(text.contains("   old            300"), "{text}");
    let (code, text) = speed(&old, &other);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("different trees"), "{text}");
}

/// A stand-in for `pbrain-fivefold` whose `analyse` prints the JSON line of a search of
/// `nodes` nodes in `ms` milliseconds, whatever the position.
fn fake_analyse(path: &Path, ms: u32, nodes: u32) {
    let body = format!(
        "echo '{{\"lines\":[],\"considered\":9,\"depth\":10,\"nodes\":{nodes},\"time_ms\":{ms}.5,\"forced_win\":null}}'\n"
    );
    stand_in(path, &body);
}

#[cfg(unix)]
#[test]
fn speed_times_openings_to_depth_and_refuses_different_trees() {
    let tmp = std::env::temp_dir().join(format!("fivefold-speed-open-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    let (old, new, other) = (tmp.join("old"), tmp.join("new"), tmp.join("other"));
    fake_analyse(&old, 150, 1000);
    fake_analyse(&new, 100, 1000);
    fake_analyse(&other, 100, 999);
    let openings = tmp.join("openings.txt");
    fs::write(&openings, "h8i9j10\nh4j5e4\nd15f14g12h10\n").unwrap();
    let env = [("COUNT", "2".as_ref()), ("OPENINGS", openings.as_os_str())];
    let speed = |a: &Path, b: &Path| run_speed(a, b, &env);
    // Two openings (COUNT), 301 ms against 201 ms to depth.
    let (code, text) = speed(&old, &new);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("speed-up 1.498"), "{text}");
    assert!(text.contains("Nodes: 2000 Signature: 1000,1000,"), "{text}");
    assert!(text.contains("2 openings of"), "{text}");
    let (code, text) = speed(&old, &other);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("different trees"), "{text}");
}

/// The Windows, release and Piskvork scripts read their options before they look for
/// packages or build anything: `--help` prints the usage, anything else is refused with
/// status 2.
#[test]
fn windows_dist_and_piskvork_scripts_answer_help_and_refuse_unknown_options() {
    for (script, usage) in [
        (
            "windows.sh",
            "Usage: scripts/windows.sh [--install] [--wine] [--test]",
        ),
        ("dist.sh", "Usage: scripts/dist.sh [--install] [--no-test]"),
        (
            "piskvork.sh",
            "Usage: scripts/piskvork.sh [--source DIR] [--install] [options]",
        ),
    ] {
        let (code, out, _) = run_script(script, &["--help"]);
        assert_eq!(code, Some(0), "{script} --help");
        assert!(out.contains(usage), "{script} --help:\n{out}");
        let (code, _, err) = run_script(script, &["--bogus"]);
        assert_eq!(code, Some(2), "{script} --bogus");
        assert!(err.contains("unknown option '--bogus'"), "{script}: {err}");
    }
    let (_, out, _) = run_script("windows.sh", &["--help"]);
    assert!(out.starts_with("Builds pbrain-fivefold.exe"), "{out}");
}

/// `SHIFT=N` moves every `pos` opening N squares right and N up before c-gomoku-cli gets
/// the file (the 15x15 spread-out openings in the middle of a 20x20 board), and refuses
/// an opening the move would take off the board.
#[cfg(unix)]
#[test]
fn match_shifts_pos_openings_onto_a_larger_board() {
    let tmp = std::env::temp_dir().join(format!("fivefold-match-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    // A stand-in for c-gomoku-cli: a score line, as the real one prints at the end.
    let cli = tmp.join("cli");
    stand_in(&cli, "echo 'Score of a vs b: 1 - 1 - 0  [0.500] 2'\n");
    let openings = tmp.join("openings.pos.txt");
    fs::write(&openings, "h8i9j7\n\na1o15\n").unwrap();
    let run = |size: &str, out: &Path| {
        let envs = [("SHIFT", "2".as_ref())];
        match_with_stand_in(&cli, &openings, out, &["4", "0/0.5", "0", size], &envs)
    };
    let (code, text) = run("20", &tmp.join("big"));
    let moved = fs::read_to_string(tmp.join("big/openings.txt")).unwrap_or_default();
    let (code15, text15) = run("15", &tmp.join("small"));
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(moved, "j10k11l9\nc3q17\n");
    assert!(text.contains("games 2  score 50.0%"), "{text}");
    assert_eq!(code15, Some(2), "{text15}");
    assert!(
        text15.contains("opening 2 leaves the 15x15 board when moved by 2"),
        "{text15}"
    );
}

/// `TC_A` / `TC_B` give one engine its own time control (time odds); without them both
/// engines get `TC`. The stand-in c-gomoku-cli writes its arguments, one a line.
#[cfg(unix)]
#[test]
fn match_gives_each_engine_its_time_control() {
    let tmp = std::env::temp_dir().join(format!("fivefold-odds-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    let cli = tmp.join("cli");
    stand_in(
        &cli,
        "printf '%s\\n' \"$@\" > args.txt\necho 'Score of a vs b: 1 - 1 - 0  [0.500] 2'\n",
    );
    let openings = tmp.join("openings.pos.txt");
    fs::write(&openings, "h8i9j7\n").unwrap();
    let run = |name: &str, envs: &[(&str, &std::ffi::OsStr)]| {
        let out = tmp.join(name);
        let (code, text) =
            match_with_stand_in(&cli, &openings, &out, &["2", "0/0.5", "0", "15"], envs);
        assert_eq!(code, Some(0), "{text}");
        let args = fs::read_to_string(out.join("args.txt")).unwrap_or_default();
        // The time controls in order, and whether `-each` was given one.
        let tcs: Vec<String> = args
            .lines()
            .filter(|a| a.starts_with("tc="))
            .map(String::from)
            .collect();
        (tcs, args.lines().any(|a| a == "-each"))
    };
    let even = run("even", &[]);
    let odds = run("odds", &[("TC_A", "0/1.0".as_ref())]);
    let odds_b = run("odds-b", &[("TC_B", "0/0.25".as_ref())]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(even, (vec!["tc=0/0.5".into(), "tc=0/0.5".into()], false));
    assert_eq!(odds, (vec!["tc=0/1.0".into(), "tc=0/0.5".into()], false));
    assert_eq!(odds_b, (vec!["tc=0/0.5".into(), "tc=0/0.25".into()], false));
}

/// `scripts/referee-openings.py` with a stand-in referee that reports a mate, a lopsided
/// score or a level one by the first stone's column, and refuses a position whose stones
/// are not marked for the side to move: only level openings are kept, each stone near an
/// earlier one, none an image of another under the board's symmetries; the same seed gives
/// the same file, and `--exclude` leaves out a kept opening and its images.
#[cfg(unix)]
#[test]
fn referee_openings_keeps_what_the_referee_calls_level() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no python3 on this machine");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("fivefold-referee-{}", std::process::id()));
    fs::create_dir_all(&tmp).unwrap();
    let referee = tmp.join("referee.py");
    fs::write(
        &referee,
        r#"import sys
stones, nodes = [], False
for line in sys.stdin:
    w = line.strip().split()
    if not w:
        continue
    if w[0] == "START":
        print("OK", flush=True)
    elif w == ["INFO", "max_node", "5000"]:
        nodes = True
    elif w[0] == "BOARD":
        stones = []
    elif w[0] == "DONE":
        own = sum(1 for s in stones if s[2] == 1)
        if not nodes or own != len(stones) // 2 or len(stones) - own != (len(stones) + 1) // 2:
            print("ERROR stones marked for the wrong side", flush=True)
            continue
        x = stones[0][0]
        ev = "+M7" if x < 4 else ("-900" if x < 8 else "25")
        print(f"MESSAGE Depth 9-12 | Eval {ev} | Node 5000", flush=True)
        print(f"{x},{stones[0][1]}", flush=True)
    elif w[0] == "END":
        break
    elif "," in w[0]:
        stones.append(tuple(int(v) for v in w[0].split(",")))
"#,
    )
    .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/referee-openings.py");
    let cmd = format!("python3 '{}'", referee.display());
    let run = |seed: &str, extra: &[&str]| {
        let o = Command::new("python3")
            .arg(&script)
            .args(["--referee", &cmd, "--size", "15", "--count", "6"])
            .args([
                "--nodes", "5000", "--stones", "3-5", "--seed", seed, "--jobs", "2",
            ])
            .args(extra)
            .output()
            .expect("python3 runs");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        (String::from_utf8_lossy(&o.stdout).into_owned(), err)
    };
    let (out, err) = run("4", &[]);
    let (again, _) = run("4", &[]);
    let kept: Vec<&str> = out.lines().collect();
    let first = tmp.join("first.txt");
    // The first kept opening turned half round: excluding it drops the original.
    let turned: String = parse_pos(kept[0])
        .iter()
        .map(|&(x, y)| format!("{}{}", (b'a' + (14 - x) as u8) as char, 15 - y))
        .collect();
    fs::write(&first, format!("{turned}\n")).unwrap();
    let (without, _) = run("4", &["--exclude", first.to_str().unwrap()]);
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(kept.len(), 6, "{err}");
    assert_eq!(out, again, "the same seed, a different file");
    assert!(err.contains(": +M7;") && err.contains(": -900;"), "{err}");
    let mut seen = Vec::new();
    for line in &kept {
        let st = parse_pos(line);
        assert!((3..=5).contains(&st.len()), "{line}");
        assert!(st[0].0 >= 8, "{line}: the referee did not call it level");
        for (i, &(x, y)) in st.iter().enumerate() {
            assert!(x < 15 && y < 15, "{line}");
            assert!(!st[..i].contains(&(x, y)), "{line}: a square twice");
            if i > 0 {
                let near = st[..i]
                    .iter()
                    .any(|&(a, b)| (a - x).abs() <= 3 && (b - y).abs() <= 3);
                assert!(near, "{line}: stone {i} far from the others");
            }
        }
        let images: Vec<Vec<(i32, i32)>> = (0..8)
            .map(|k| {
                let mut v: Vec<(i32, i32)> = st
                    .iter()
                    .enumerate()
                    .map(|(i, &(x, y))| {
                        let (mut a, mut b) = if k & 4 != 0 { (y, x) } else { (x, y) };
                        if k & 1 != 0 {
                            a = 14 - a;
                        }
                        if k & 2 != 0 {
                            b = 14 - b;
                        }
                        (a * 2 + (i as i32 % 2), b)
                    })
                    .collect();
                v.sort();
                v
            })
            .collect();
        let canon = images.into_iter().min().unwrap();
        assert!(
            !seen.contains(&canon),
            "{line}: an image of an earlier opening"
        );
        seen.push(canon);
    }
    let left: Vec<&str> = without.lines().collect();
    assert!(!left.contains(&kept[0]), "{without}");
    assert_eq!(left[..5], kept[1..], "{without}");
}

/// Squares of a c-gomoku-cli `pos` line ("h8i9g10") on the 15x15 board, 0-based, as
/// signed numbers for the test's arithmetic.
fn parse_pos(line: &str) -> Vec<(i32, i32)> {
    fivefold::tools::openings::parse_pos_line(line, 15, 15)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .into_iter()
        .map(|(x, y)| (x as i32, y as i32))
        .collect()
}

/// `scripts/where-lost.py` on a run of four games written here: results by length, who
/// saw the end first, and how each side's verdicts held, by colour.
#[cfg(unix)]
#[test]
fn where_lost_reads_lengths_mates_and_verdicts() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no python3 on this machine");
        return;
    }
    let dir = std::env::temp_dir().join(format!("fivefold-where-lost-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let (me, opp) = ("ff", "rapfi");
    // Per game: black is me, result, stones at the end, reports (ply, mine, text).
    type Report<'a> = (u32, bool, &'a str);
    let games: [(bool, &str, usize, &[Report]); 4] = [
        (
            true,
            "1-0",
            30,
            &[
                (20, true, "ev 350"),
                (24, true, "ev +M5"),
                (25, false, "Eval -M4"),
            ],
        ),
        (
            false,
            "1-0",
            90,
            &[
                (30, true, "ev 400"),
                (41, false, "Eval M9"),
                (44, true, "ev -M5"),
            ],
        ),
        (
            false,
            "0.5-0.5",
            100,
            &[(21, false, "Eval 320"), (22, true, "ev -310")],
        ),
        (
            false,
            "0-1",
            60,
            &[
                (30, false, "Eval -M10"),
                (33, true, "ev +M7"),
                (35, true, "ev 90"),
            ],
        ),
    ];
    let (mut sgf, mut out, mut msg) = (String::new(), String::new(), String::new());
    for (i, (me_black, re, stones, reports)) in games.iter().enumerate() {
        let gn = i + 1;
        let (b, w) = if *me_black { (me, opp) } else { (opp, me) };
        let moves: String = (0..*stones)
            .map(|k| {
                format!(
                    ";{}[{}{}]C[1ms]",
                    ["B", "W"][k % 2],
                    (b'a' + (k % 15) as u8) as char,
                    (b'a' + (k / 15) as u8) as char
                )
            })
            .collect();
        sgf += &format!("(;FF[4]GM[4]GN[{gn}]PB[{b}]PW[{w}]RE[x]\n{moves})\n\n");
        out += &format!("[1] Finished game {gn} ({b} vs {w}): {re} {{}}\n");
        msg += &format!("------------------------------\nGame ID: {gn}\nEngines: {b} x {w}\n");
        for (ply, mine, text) in reports.iter() {
            let name = if *mine { me } else { opp };
            let line = if *mine {
                format!("depth 10-12 {text} n 1K n/s 1K tm 400 pv h8")
            } else {
                format!("Depth 14-20 | {text} | Time 400ms | H8")
            };
            msg += &format!("{ply}) {name}: {line}\n");
        }
    }
    out += &format!("Score of {me} vs {opp}: 2 - 1 - 1  [0.625] 4\n");
    fs::write(dir.join("games.sgf"), sgf).unwrap();
    fs::write(dir.join("match.out"), out).unwrap();
    fs::write(dir.join("messages.txt"), msg).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/where-lost.py");
    let run = Command::new("python3")
        .arg(&script)
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for want in [
        "<=40: 1-0-0",
        "41-80: 1-0-0",
        ">80: 0-1-1",
        "we won: 2 games, median gap -1, loser saw it first in 1, winner's first mate at ply 28.5",
        "we lost: 1 games, median gap +3, loser saw it first in 0, winner's first mate at ply 41",
        "us as black thinks it is winning: 1 moves, won 1, drew 0, lost 0; wrong 0%",
        "us as white thinks it is winning: 1 moves, won 0, drew 0, lost 1; wrong 100%",
        "us as white thinks it is losing: 1 moves, won 0, drew 1, lost 0; wrong 0%",
        "them as black thinks it is winning: 1 moves, won 0, drew 1, lost 0; wrong 0%",
        "them as white thinks it is winning: 0 moves",
    ] {
        assert!(text.contains(want), "no {want:?} in:\n{text}");
    }
    let _ = fs::remove_dir_all(&dir);
}
