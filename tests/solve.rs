//! The `solve` subcommand, run as a process: answers, JSON, and clean errors.

use std::process::{Command, Output};

fn solve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-fivefold"))
        .arg("solve")
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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
    assert!(o.status.success(), "{}", stderr(&o));
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
    let out = stdout(&o);
    assert!(o.status.success());
    assert!(
        out.starts_with('{')
            && out.contains("\"result\":\"no\"")
            && out.contains("\"kind\":\"vcf\""),
        "{out}"
    );

    let o = solve(&[
        "--file",
        path.to_str().unwrap(),
        "--tomove",
        "white",
        "--defend",
    ]);
    let out = stdout(&o);
    assert!(out.contains("defences (5): f8 f7 g7 f6 f3"), "{out}");
    std::fs::remove_file(path).ok();
}

#[test]
fn solves_moves_in_both_notations() {
    // Black h8 h9 h10 (column h), white i8 i9: black's h11 or h7 is an open four.
    let answers: Vec<String> = ["h8 i8 h9 i9 h10 a1", "7,7 8,7 7,6 8,6 7,5 0,14"]
        .iter()
        .map(|moves| {
            let o = solve(&["--moves", moves]);
            assert!(o.status.success(), "{}", stderr(&o));
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
    let out = stdout(&o);
    assert!(
        out.contains("\"result\":\"no\""),
        "white to move has no VCF: {out}"
    );
    let o = solve(&["--moves", "h8 i8 h9 i9 h10 a1", "--json"]);
    let out = stdout(&o);
    assert!(
        out.contains("\"result\":\"yes\"") && out.contains("\"plies\":3"),
        "black's open four: {out}"
    );
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
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
