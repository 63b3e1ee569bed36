//! `pbrain-fivefold analyse` run as a real process: text for people, one JSON object for
//! scripts, and errors that say what is wrong.

use serde_json::Value;

mod common;

use common::Run;

fn analyse(args: &[&str]) -> Run {
    common::run(&[&["analyse"], args].concat())
}

/// The output as JSON: exactly one value on one line (serde_json is strict about it).
fn parse_json(text: &str) -> Value {
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The `h8` names of a list of moves.
fn names(moves: &Value) -> Vec<&str> {
    moves
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m["name"].as_str().expect("a name"))
        .collect()
}

const OPEN_THREE: &str = "h8 a1 i8 o1 j8 a15";

#[test]
fn best_moves_with_scores_and_a_forced_win() {
    let r = analyse(&[OPEN_THREE, "--depth", "3"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r
        .out
        .contains("Position: freestyle 15x15, 6 moves: h8 a1 i8 o1 j8 a15, black to move"));
    // The board is shown, with the last move framed.
    assert!(r.out.contains("15 [O]. . ."), "{}", r.out);
    assert!(r.out.contains("Best moves for black (depth 3"));
    let listed: Vec<&str> = r
        .out
        .lines()
        .filter(|l| l.starts_with("  1. ") || l.starts_with("  2. ") || l.starts_with("  3. "))
        .collect();
    assert_eq!(listed.len(), 3, "{}", r.out);
    let moves: Vec<&str> = listed
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert!(moves[0] == "g8" || moves[0] == "k8", "{moves:?}");
    assert!(moves[1] == "g8" || moves[1] == "k8", "{moves:?}");
    assert_ne!(moves[0], moves[1]);
    assert_ne!(moves[2], moves[0]);
    assert_ne!(moves[2], moves[1]);
    // Score, then the principal variation that starts with the move.
    let first: Vec<&str> = listed[0].split_whitespace().collect();
    assert_eq!(first[2], "+M3");
    assert_eq!(first[3], moves[0]);
    assert_eq!(first.len(), 6, "the line runs to the five: {}", listed[0]);
    assert!(r.out.contains("(+M3: black makes five in 3 plies)"));
    let forced = r
        .out
        .lines()
        .find(|l| l.starts_with("Forced win: "))
        .expect("forced win line");
    assert!(
        forced.starts_with("Forced win: black makes five in 3 plies (a VCF"),
        "{forced}"
    );
    // Progress went to stderr, one line per depth.
    assert!(r.err.contains("depth 2  best "), "{}", r.err);
    assert!(r.err.contains("depth 3  best "), "{}", r.err);
}

#[test]
fn json_is_one_object_a_script_can_read() {
    let r = analyse(&[
        "--moves", OPEN_THREE, "--depth", "3", "--nbest", "4", "--json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j["command"], "analyse");
    assert_eq!(j["schema"], 1);
    let pos = &j["position"];
    assert_eq!(pos["rule"], "freestyle");
    assert_eq!(pos["width"], 15);
    assert_eq!(pos["height"], 15);
    assert_eq!(pos["side_to_move"], "black");
    assert_eq!(pos["file"], Value::Null);
    assert_eq!(names(&pos["moves"]), ["h8", "a1", "i8", "o1", "j8", "a15"]);
    // Both notations: h8 is x 7, y 7 (rows counted from the top).
    assert_eq!(pos["moves"][0]["x"], 7);
    assert_eq!(pos["moves"][0]["y"], 7);
    assert_eq!(pos["moves"][0]["color"], "black");
    assert_eq!(pos["moves"][1]["color"], "white");
    assert_eq!(j["game_over"], Value::Null);
    assert_eq!(j["depth"], 3);
    assert!(j["nodes"].as_u64().unwrap() > 0);
    assert!(j["time_ms"].as_f64().unwrap() >= 0.0);
    let lines = j["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    let top = &lines[0];
    let first = &top["moves"][0];
    assert!(["g8", "k8"].contains(&first["name"].as_str().unwrap()));
    assert!([6, 10].contains(&first["x"].as_u64().unwrap()));
    assert_eq!(first["y"], 7);
    assert_eq!(top["score_text"], "+M3");
    assert_eq!(top["mate"], 3);
    assert_eq!(top["plies"], 3);
    assert_eq!(top["complete"], Value::Null);
    assert_eq!(lines[3]["depth"], 3);
    let f = &j["forced_win"];
    assert_eq!(f["result"], "yes");
    assert_eq!(f["winner"], "black");
    assert_eq!(f["kind"], "vcf");
    assert_eq!(f["line"]["mate"], 3);
    assert_eq!(f["line"]["plies"], 3);
    assert_eq!(f["line"]["complete"], true);
}

#[test]
fn quiet_positions_report_no_forced_win() {
    let r = analyse(&["--moves", "7,7 8,8", "--depth", "2", "--json", "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.err.is_empty(), "--quiet: {}", r.err);
    let j = parse_json(r.out.trim_end());
    // x,y squares are read like h8 ones.
    assert_eq!(names(&j["position"]["moves"]), ["h8", "i7"]);
    assert_eq!(j["lines"].as_array().unwrap().len(), 3);
    assert_eq!(j["lines"][0]["mate"], Value::Null);
    let f = &j["forced_win"];
    assert_eq!(f["result"], "unknown");
    assert_eq!(f["line"], Value::Null);
    assert_eq!(f["winner"], Value::Null);
    let r = analyse(&["--moves", "7,7 8,8", "--depth", "2", "--no-board"]);
    assert!(r
        .out
        .contains("Forced win (VCF/VCT): none found by the search to depth 2"));
    assert!(!r.out.contains(" a b c d "));
}

#[test]
fn a_finished_game_is_reported_as_such() {
    let r = analyse(&["h8 a1 i8 o1 j8 a15 k8 o15 l8", "--depth", "2"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out
            .contains("The game is over: black has five (h8 i8 j8 k8 l8)."),
        "{}",
        r.out
    );
    let r = analyse(&["h8 a1 i8 o1 j8 a15 k8 o15 l8", "--depth", "2", "--json"]);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j["game_over"]["winner"], "black");
    assert_eq!(j["game_over"]["reason"], "five");
    assert_eq!(
        names(&j["game_over"]["line"]),
        ["h8", "i8", "j8", "k8", "l8"]
    );
    assert_eq!(j["lines"].as_array().unwrap().len(), 0);
    assert_eq!(j["forced_win"], Value::Null);
}

#[test]
fn records_are_read_from_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyse-files");
    std::fs::create_dir_all(&dir).unwrap();
    let psq = dir.join("open-three.psq");
    // Piskvork squares are 1-based x,y: h8 is 8,8.
    std::fs::write(
        &psq,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,15,0\n9,8,0\n15,15,0\n10,8,0\n1,1,0\n-1\n",
    )
    .unwrap();
    let sgf = dir.join("open-three.sgf");
    std::fs::write(
        &sgf,
        "(;GM[4]FF[4]SZ[15];B[hh];W[ao];B[ih];W[oo];B[jh];W[aa])\n",
    )
    .unwrap();
    for file in [&psq, &sgf] {
        let r = analyse(&[
            file.to_str().unwrap(),
            "--depth",
            "2",
            "--nbest",
            "2",
            "--json",
        ]);
        assert_eq!(r.code, Some(0), "{}", r.err);
        let j = parse_json(r.out.trim_end());
        let pos = &j["position"];
        let moves = names(&pos["moves"]);
        assert_eq!(moves, ["h8", "a1", "i8", "o1", "j8", "a15"], "{file:?}");
        assert_eq!(pos["file"], file.to_str().unwrap());
        assert_eq!(j["lines"].as_array().unwrap().len(), 2);
        assert_eq!(j["lines"][0]["score_text"], "+M3");
    }
    // --file works the same way.
    let r = analyse(&[
        "--file",
        psq.to_str().unwrap(),
        "--depth",
        "2",
        "--nbest",
        "1",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("6 moves: h8 a1 i8 o1 j8 a15"));

    let bad = dir.join("bad.psq");
    std::fs::write(&bad, "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n").unwrap();
    let r = analyse(&[bad.to_str().unwrap()]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.err
            .contains("line 3: square 16,1 is outside the 15x15 board"),
        "{}",
        r.err
    );
}

#[test]
fn mistakes_are_explained() {
    for (args, msg) in [
        (vec!["h8 h8"], "error: move 2 (h8) is on an occupied square"),
        (vec!["h8 z99"], "error: 'z99' is outside the 15x15 board"),
        (vec!["h8 i9 x"], "error: 'x' is not a square"),
        (vec!["missing.sgf"], "error: cannot read missing.sgf"),
        (
            vec!["h8", "--nbest", "0"],
            "error: invalid value '0' for '--nbest <N>': expected a number from 1 to 100",
        ),
        (
            vec!["h8", "--depth", "deep"],
            "error: invalid value 'deep' for '--depth <PLIES>': expected a number from 1 to 100",
        ),
        (
            vec!["h8", "--deep", "3"],
            "error: unexpected argument '--deep' found",
        ),
        (
            vec!["h8", "--moves", "i9"],
            "error: the argument '[POSITION]...' cannot be used with '--moves <MOVES>'",
        ),
    ] {
        let r = analyse(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.out);
        assert!(r.err.contains(msg), "{args:?}: {}", r.err);
    }
}

#[test]
fn renju_fouls_are_shown_and_never_suggested() {
    let r = analyse(&[
        "--rule",
        "renju",
        "h9 a1 h10 o1 i8 a15 j8 o15",
        "--depth",
        "2",
        "--nbest",
        "5",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out.contains("Forbidden for black (marked !): h8"),
        "{}",
        r.out
    );
    let row8 = r.out.lines().find(|l| l.starts_with(" 8 ")).unwrap();
    assert_eq!(row8.chars().nth(4 + 2 * 7), Some('!'));
    let listed: Vec<&str> = r
        .out
        .lines()
        .filter(|l| {
            l.starts_with("  ")
                && l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(listed.len(), 5, "{}", r.out);
    assert!(listed
        .iter()
        .all(|l| l.split_whitespace().nth(1) != Some("h8")));
}

#[test]
fn a_time_limit_still_gives_an_answer() {
    let r = analyse(&["h8 i9", "--time", "0.2", "--json", "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j["lines"].as_array().unwrap().len(), 3);
    assert!(j["depth"].as_i64().unwrap() >= 2);
    // The empty board: the centre first, and as many moves as asked for.
    let r = analyse(&["--size", "9", "--depth", "2", "--json", "--quiet"]);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j["lines"][0]["moves"][0]["name"], "e5");
    assert_eq!(j["lines"].as_array().unwrap().len(), 3);
}

#[test]
fn the_threat_solver_finds_a_vct_the_shallow_search_cannot_see() {
    // Shared puzzle W003 (freestyle, black to move wins by a VCT in 7 plies). A depth-1
    // search sees no mate; the solver must, and its first move must be a winning one.
    let r = analyse(&[
        "--moves",
        "7,7 8,8 6,7 8,6 8,7 6,6 5,8 4,7 5,6 5,7",
        "--depth",
        "1",
        "--json",
        "--quiet",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    let j = parse_json(r.out.trim());
    let f = &j["forced_win"];
    assert_eq!(f["result"], "yes", "{}", r.out);
    assert_eq!(f["source"], "solver");
    assert_eq!(f["winner"], "black");
    let first = f["line"]["moves"][0]["name"]
        .as_str()
        .expect("a first move");
    let good = ["d5", "e6", "h9", "h7", "i10", "i6", "j8", "k8"];
    assert!(good.contains(&first), "{first} is not a winning first move");
}

#[test]
fn file_names_with_quotes_and_backslashes_are_escaped() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyse-escape");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a \"quoted\" back\\slash\tname.psq");
    std::fs::write(
        &file,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,15,0\n9,8,0\n15,15,0\n10,8,0\n1,1,0\n-1\n",
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let r = analyse(&["--file", name, "--depth", "2", "--json", "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out.contains(r#"\"quoted\" back\\slash\tname.psq"#),
        "{}",
        r.out
    );
    let j = parse_json(r.out.trim_end());
    assert_eq!(j["position"]["file"], name);
    // A move list with quotes or backslashes is no position: a plain error, no JSON.
    let r = analyse(&["--moves", "h8 \"i9\\", "--json"]);
    assert_eq!(r.code, Some(2));
    assert!(r.out.is_empty(), "{}", r.out);
    assert!(r.err.contains("is not a square"), "{}", r.err);
}
