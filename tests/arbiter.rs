//! Renju fouls judged as Gomocup judges them. Gomocup's manager (Piskvork) decides fouls
//! with its own checker; the PyPI package `renju` is a port of it. These tests compare
//! Fivefold's fast path and its slow reference with that port on thousands of
//! positions, square by square, foul type included.
//!
//! The comparison needs `python3` with the package (`python3 -m pip install
//! renju==0.1.0`; `.ci/run` installs it where PyPI can be reached). Where it is missing
//! the test says so on stderr and passes: the pinned diagrams below run everywhere.

mod common;

use fivefold::core::rng::{Rng, XorShift64};
use fivefold::core::rules::{self, reference::Grid};
use fivefold::{Board, Color, Pos, Rule};
use std::io::Write;
use std::process::{Command, Stdio};

/// Fivefold's judgement of black at every square: `-` stone, `0` legal, `1` double
/// three, `2` double four, `3` overline (the arbiter's codes). Checks that the fast
/// path and the reference agree on whether each square is a foul.
fn judge(b: &mut Board) -> String {
    let mut grid = Grid::from_board(b);
    let mut out = String::new();
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Pos::new(x, y);
            if !b.is_empty(p) {
                out.push('-');
                continue;
            }
            let fast = rules::is_forbidden(b, p);
            let slow = grid.is_forbidden(x as i32, y as i32);
            assert_eq!(
                fast,
                slow,
                "fast path and reference disagree at {x},{y}:\n{}",
                b.to_diagram()
            );
            out.push(match rules::foul(b, p) {
                None => '0',
                Some("double three") => '1',
                Some("double four") => '2',
                Some("overline") => '3',
                Some(other) => panic!("unknown foul {other}"),
            });
        }
    }
    out
}

fn board(n: usize, cells: &str) -> Board {
    let mut b = Board::new(n, n, Rule::Renju).unwrap();
    for (i, c) in cells.bytes().enumerate() {
        let p = Pos::new(i % n, i / n);
        match c {
            b'x' => b.make_color(p, Color::Black),
            b'o' => b.make_color(p, Color::White),
            _ => {}
        }
    }
    b
}

/// Random renju positions rich in black shapes: some spread over the whole board, some
/// packed into a small window where threes and fours cross.
fn positions(seed: u64, count: usize) -> Vec<(usize, String)> {
    let mut rng = XorShift64::new(seed);
    (0..count)
        .map(|i| {
            let n = if i % 4 == 3 { 7 + rng.below(14) } else { 15 };
            let packed = i % 2 == 1;
            let (cx, cy) = (rng.below(n), rng.below(n));
            let half = 2 + rng.below(3);
            let density = if packed {
                35 + rng.below(40)
            } else {
                10 + rng.below(35)
            };
            let black = 50 + rng.below(25);
            let mut cells = String::with_capacity(n * n);
            for y in 0..n {
                for x in 0..n {
                    let inside = !packed || (x.abs_diff(cx) <= half && y.abs_diff(cy) <= half);
                    let c = if inside && rng.below(100) < density {
                        if rng.below(100) < black {
                            'x'
                        } else {
                            'o'
                        }
                    } else {
                        '.'
                    };
                    cells.push(c);
                }
            }
            (n, cells)
        })
        .collect()
}

/// The arbiter's answers for `positions`, or why it could not be asked.
fn arbiter(positions: &[(usize, String)]) -> Result<Vec<String>, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/renju_arbiter.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start python3: {e}"))?;
    let mut input = String::new();
    for (n, cells) in positions {
        input.push_str(&format!("{n} {cells}\n"));
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    if lines.len() != positions.len() {
        return Err(format!(
            "arbiter answered {} of {} positions",
            lines.len(),
            positions.len()
        ));
    }
    Ok(lines)
}

fn diagram(n: usize, cells: &str, mark: usize) -> String {
    let mut s = String::new();
    for y in 0..n {
        for x in 0..n {
            let i = y * n + x;
            s.push(if i == mark {
                '*'
            } else {
                cells.as_bytes()[i] as char
            });
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

#[test]
fn fouls_agree_with_gomocups_arbiter() {
    let count = std::env::var("ARBITER_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let positions = positions(0xA4B1_7E45, count);
    let theirs = match arbiter(&positions) {
        Ok(lines) => lines,
        Err(why) => {
            common::say_skipped(
                "fouls_agree_with_gomocups_arbiter",
                &why,
                "python3 -m pip install renju==0.1.0",
            );
            return;
        }
    };
    let mut fouls = 0;
    let mut checked = 0;
    for ((n, cells), theirs) in positions.iter().zip(&theirs) {
        let mut b = board(*n, cells);
        let ours = judge(&mut b);
        for (i, (a, t)) in ours.bytes().zip(theirs.bytes()).enumerate() {
            if a == b'-' {
                continue;
            }
            checked += 1;
            fouls += (t != b'0') as usize;
            assert_eq!(
                a as char,
                t as char,
                "foul type at {},{} (Fivefold {}, arbiter {}):\n{}",
                i % n,
                i / n,
                a as char,
                t as char,
                diagram(*n, cells, i)
            );
        }
    }
    eprintln!("{count} positions, {checked} empty squares, {fouls} fouls: all agree");
    assert!(fouls > count / 4, "too few fouls to mean anything: {fouls}");
}

/// Black at f6 (5,5) makes two threes: an ordinary one up the f file, and f6-h8-i9 on
/// the diagonal, whose only straight-four square g7 (6,6) would complete the five
/// d7-h7. Black would win at g7, so the diagonal three never becomes a straight four;
/// Piskvork does not count it, and neither does Fivefold: f6 is not a double three.
#[test]
fn a_three_whose_four_square_makes_five_does_not_count() {
    const DIAGRAM: &str = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . X X X . X . . .
        . . . . . X . X . . .
        . . . . . . . . X . .
        . . . . . . . . . . .
        . . . . . . . . . . .";
    let mut b = Board::from_diagram(DIAGRAM, Rule::Renju).unwrap();
    let f6 = Pos::new(5, 5);
    assert!(!rules::is_forbidden(&mut b, f6));
    assert!(!Grid::from_board(&b).is_forbidden(5, 5));
    // Without the five on row 7 (d7 and h7 gone) the diagonal three is real, and f6 a
    // double three.
    let no_five = DIAGRAM.replacen("X X X . X", ". X X . .", 1);
    let mut b = Board::from_diagram(&no_five, Rule::Renju).unwrap();
    assert_eq!(rules::foul(&mut b, f6), Some("double three"));
    assert!(Grid::from_board(&b).is_forbidden(5, 5));
}
