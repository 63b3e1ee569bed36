//! The `solve` subcommand, run as a process: answers, JSON, and clean errors.

use serde_json::Value;

mod common;

use common::Run;

fn solve(args: &[&str]) -> Run {
    common::run(&[&["solve"], args].concat())
}

fn stdout(o: &Run) -> String {
    o.out.clone()
}

fn stderr(o: &Run) -> String {
    o.err.clone()
}

/// The output as JSON: exactly one value on one line.
fn json(o: &Run) -> Value {
    let out = stdout(o);
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The `h8` names of a list of moves (`null`, "any move", as `any`).
fn names(moves: &Value) -> Vec<String> {
    moves
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m["name"].as_str().unwrap_or("any").to_string())
        .collect()
}

/// Black's four-three at f7 (see tests/threat.rs, FOUR_THREE), written to a file.
fn four_three_file(name: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("fivefold-solve-{}-{name}.txt", std::process::id()));
    let diagram = "\
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . O X X X . . . . .
 6 . . . . . . . . . .
 5 . . . . . X . . . .
 4 . . . . . X . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";
    std::fs::write(&path, diagram).unwrap();
    path
}

#[test]
fn solves_a_diagram() {
    let path = four_three_file("text");
    let o = solve(&["--file", path.to_str().unwrap(), "--tomove", "black"]);
    let out = stdout(&o);
    assert!(o.success(), "{}", stderr(&o));
    assert!(out.contains("VCF: yes"), "{out}");
    assert!(out.contains("sequence: f7 g7 f6 "), "{out}");
    assert!(out.contains("sequence (x,y): 5,3 6,3 5,4 "), "{out}");
    assert!(out.contains("nodes: ") && out.contains("time: "), "{out}");

    let o = solve(&[
        "--file",
        path.to_str().unwrap(),
        "--tomove",
        "white",
        "--json",
    ]);
    assert!(o.success());
    let j = json(&o);
    assert_eq!(j["command"], "solve");
    assert_eq!(j["position"]["side_to_move"], "white");
    assert_eq!(j["position"]["width"], 10);
    assert_eq!(j["position"]["file"], path.to_str().unwrap());
    // A diagram's stones come in reading order, each with its colour.
    let stones = j["position"]["moves"].as_array().unwrap();
    assert_eq!(stones.len(), 6);
    assert_eq!(stones[0]["name"], "b7");
    assert_eq!(stones[0]["color"], "white");
    assert_eq!(stones[1]["color"], "black");
    assert_eq!(j["forced_win"]["result"], "no");
    assert_eq!(j["forced_win"]["kind"], "vcf");
    assert_eq!(j["forced_win"]["line"], Value::Null);

    let o = solve(&[
        "--file",
        path.to_str().unwrap(),
        "--tomove",
        "black",
        "--json",
    ]);
    let j = json(&o);
    let f = &j["forced_win"];
    assert_eq!(f["result"], "yes");
    assert_eq!(f["winner"], "black");
    assert_eq!(f["source"], "solver");
    assert_eq!(names(&f["line"]["moves"])[..3], ["f7", "g7", "f6"]);
    assert_eq!(f["line"]["moves"][0]["x"], 5);
    assert_eq!(f["line"]["moves"][0]["y"], 3);
    assert_eq!(f["line"]["mate"], f["line"]["plies"]);
    assert_eq!(f["line"]["complete"], true);
    assert!(j["nodes"].as_u64().unwrap() > 0);

    let o = solve(&[
        "--file",
        path.to_str().unwrap(),
        "--tomove",
        "white",
        "--defend",
    ]);
    let out = stdout(&o);
    assert!(out.contains("defences (5): f8 f7 g7 f6 f3"), "{out}");
    let o = solve(&[
        "--file",
        path.to_str().unwrap(),
        "--tomove",
        "white",
        "--defend",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["opponent_vcf"], true);
    assert_eq!(names(&j["defences"]), ["f8", "f7", "g7", "f6", "f3"]);
    std::fs::remove_file(path).ok();
}

#[test]
fn solves_moves_in_both_notations() {
    // Black h8 h9 h10 (column h), white i8 i9: black's h11 or h7 is an open four.
    let answers: Vec<String> = ["h8 i8 h9 i9 h10 a1", "7,7 8,7 7,6 8,6 7,5 0,14"]
        .iter()
        .map(|moves| {
            let o = solve(&["--moves", moves]);
            assert!(o.success(), "{}", stderr(&o));
            stdout(&o)
                .lines()
                .filter(|l| !l.starts_with("time") && !l.starts_with("nodes/s"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert!(
        answers[0].contains("VCF: yes") && answers[0].contains("sequence: h11 h12 h7"),
        "{}",
        answers[0]
    );
    let o = solve(&["--moves", "h8 i8 h9 i9 h10", "--json"]);
    let j = json(&o);
    assert_eq!(j["forced_win"]["result"], "no", "white to move has no VCF");
    let o = solve(&["--moves", "h8 i8 h9 i9 h10 a1", "--json"]);
    let j = json(&o);
    assert_eq!(j["forced_win"]["result"], "yes", "black's open four");
    assert_eq!(j["forced_win"]["line"]["plies"], 3);
    assert_eq!(j["position"]["moves"][5]["name"], "a1");
    assert_eq!(j["position"]["moves"][5]["x"], 0);
    assert_eq!(j["position"]["moves"][5]["y"], 14);
    assert_eq!(j["position"]["file"], Value::Null);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for (args, message) in [
        (vec!["--moves", "h8 h8"], "occupied"),
        (vec!["--moves", "h8 z99"], "outside"),
        (vec!["--moves", "h8", "--rule", "chess"], "unknown rule"),
        (
            vec!["--moves", "h8", "--nodes", "many"],
            "invalid value 'many' for '--nodes <N>'",
        ),
        (vec!["--file", "/nonexistent/position.txt"], "cannot read"),
        (
            vec!["--moves", "h8 i8 h9 i9 h10 i10 h11 i11 h12"],
            "game is over",
        ),
        (
            vec!["--moves", "h8 i8 h9 i9 h10 i10 h11 i11 h12 i12 h13"],
            "already over",
        ),
        (vec!["--frobnicate"], "unexpected argument '--frobnicate'"),
        (vec![], "the following required arguments were not provided"),
        (
            vec!["--moves", "h8", "--suite", "p.txt"],
            "cannot be used with",
        ),
    ] {
        let o = solve(&args);
        let err = stderr(&o);
        assert!(!o.success(), "{args:?} succeeded");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn file_names_with_quotes_and_backslashes_are_escaped() {
    let plain = four_three_file("escape");
    let odd = plain.with_file_name(format!(
        "fivefold-solve-{}-\"odd\" \\name\u{1}.txt",
        std::process::id()
    ));
    std::fs::rename(&plain, &odd).unwrap();
    let name = odd.to_str().unwrap();
    let o = solve(&["--file", name, "--tomove", "black", "--json"]);
    assert!(o.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(r#"\"odd\" \\name\u0001.txt"#), "{out}");
    assert_eq!(json(&o)["position"]["file"], name);
    std::fs::remove_file(odd).ok();
}
