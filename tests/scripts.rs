//! The helper scripts in `scripts/` that read match logs, run on small logs written here.

use std::fs;
use std::path::Path;
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
        dir.join("match.out"),
        format!("Score of {me} vs {opp}: 1 - 1 - 0  [0.500] 2\n"),
    )
    .unwrap();
}

#[test]
fn pairs_compares_two_runs_opening_by_opening() {
    let tmp = std::env::temp_dir().join(format!("fivefold-pairs-{}", std::process::id()));
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    // Run A (engine "new"): opening 1 won twice, opening 2 split, opening 3's second game
    // an opening-only forfeit, so opening 3 is left out of the comparison.
    run_dir(
        &a,
        "new",
        "ref",
        &[
            (false, "W+1", false),
            (true, "B+1", false),
            (true, "W+1", false),
            (false, "W+1", false),
            (true, "B+1", false),
            (false, "B+1", true),
        ],
    );
    // Run B (engine "old"): opening 1 split, opening 2 two draws, opening 3 won twice.
    run_dir(
        &b,
        "old",
        "ref",
        &[
            (true, "B+1", false),
            (true, "W+1", false),
            (false, "0", false),
            (true, "0", false),
            (true, "B+1", false),
            (false, "W+1", false),
        ],
    );
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pairs.sh"))
        .args([&a, &b])
        .output()
        .expect("bash runs");
    fs::remove_dir_all(&tmp).ok();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pairs.sh"))
        .args([&tmp, &tmp])
        .output()
        .expect("bash runs");
    fs::remove_dir_all(&tmp).ok();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games.sgf"));
}

#[test]
fn pairs_scores_runs_by_colour_and_opening() {
    let tmp = std::env::temp_dir().join(format!("fivefold-score-{}", std::process::id()));
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    // Run A: opening 1 won with both colours; opening 2 won by white both times (one win,
    // one loss); opening 3 a draw and an opening-only forfeit, so it is left out.
    run_dir(
        &a,
        "new",
        "ref",
        &[
            (false, "W+1", false),
            (true, "B+1", false),
            (true, "W+1", false),
            (false, "W+1", false),
            (true, "0", false),
            (false, "B+1", true),
        ],
    );
    // Run B: one opening, won by black both times.
    run_dir(
        &b,
        "new",
        "ref",
        &[(true, "B+1", false), (false, "B+1", false)],
    );
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pairs.sh"))
        .arg("--score")
        .args([&a, &b])
        .output()
        .expect("bash runs");
    fs::remove_dir_all(&tmp).ok();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Three openings worth 2, 1 and 1 points: 4 of 6 = 66.7% (Elo +120), the interval
    // 1.96 x sqrt(var / 3) / 2 with var = (4 + 1 + 1) / 3 - (4 / 3)^2.
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "as black: 2-1-1  as white: 2-1-0",
            "pairs 3  score 66.7% +- 26.7  Elo +120 [-70, +459]",
            "one colour won both games in 2 of 3 openings",
        ],
        "{text}"
    );
}
