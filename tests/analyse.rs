//! `pbrain-fivefold analyse` run as a real process: text for people, one JSON object for
//! scripts, and errors that say what is wrong.

use std::process::Command;

struct Run {
    out: String,
    err: String,
    code: Option<i32>,
}

fn analyse(args: &[&str]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_pbrain-fivefold"))
        .arg("analyse")
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("start pbrain-fivefold");
    Run {
        out: String::from_utf8(o.stdout).expect("utf-8 output"),
        err: String::from_utf8(o.stderr).expect("utf-8 errors"),
        code: o.status.code(),
    }
}

/// A small strict JSON reader, so the tests check that the output really is JSON.
#[derive(Debug, Clone, PartialEq)]
enum J {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn get(&self, key: &str) -> &J {
        match self {
            J::Obj(pairs) => pairs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {key}")),
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn at(&self, i: usize) -> &J {
        match self {
            J::Arr(v) => &v[i],
            _ => panic!("not an array"),
        }
    }
    fn len(&self) -> usize {
        match self {
            J::Arr(v) => v.len(),
            _ => panic!("not an array"),
        }
    }
    fn s(&self) -> &str {
        match self {
            J::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn n(&self) -> f64 {
        match self {
            J::Num(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(
            self.s.get(self.i),
            Some(&c),
            "expected '{}' at {}",
            c as char,
            self.i
        );
        self.i += 1;
    }
    fn value(&mut self) -> J {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut pairs = Vec::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return J::Obj(pairs);
                }
                loop {
                    self.ws();
                    let J::Str(k) = self.value() else {
                        panic!("key must be a string")
                    };
                    self.eat(b':');
                    pairs.push((k, self.value()));
                    self.ws();
                    self.i += 1;
                    match self.s[self.i - 1] {
                        b',' => continue,
                        b'}' => return J::Obj(pairs),
                        c => panic!("unexpected '{}'", c as char),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return J::Arr(items);
                }
                loop {
                    items.push(self.value());
                    self.ws();
                    self.i += 1;
                    match self.s[self.i - 1] {
                        b',' => continue,
                        b']' => return J::Arr(items),
                        c => panic!("unexpected '{}'", c as char),
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = self.s[self.i];
                    self.i += 1;
                    match c {
                        b'"' => return J::Str(out),
                        b'\\' => {
                            let e = self.s[self.i];
                            self.i += 1;
                            match e {
                                b'"' => out.push('"'),
                                b'\\' => out.push('\\'),
                                b'/' => out.push('/'),
                                b'n' => out.push('\n'),
                                b'r' => out.push('\r'),
                                b't' => out.push('\t'),
                                b'b' => out.push('\u{8}'),
                                b'f' => out.push('\u{c}'),
                                b'u' => {
                                    let hex =
                                        std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
                                    out.push(
                                        char::from_u32(u32::from_str_radix(hex, 16).unwrap())
                                            .unwrap(),
                                    );
                                    self.i += 4;
                                }
                                _ => panic!("bad escape"),
                            }
                        }
                        c if c < 0x20 => panic!("raw control character in a string"),
                        _ => {
                            // Copy the whole UTF-8 sequence.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            out.push_str(std::str::from_utf8(&self.s[start..end]).unwrap());
                            self.i = end;
                        }
                    }
                }
            }
            b't' => self.word("true", J::Bool(true)),
            b'f' => self.word("false", J::Bool(false)),
            b'n' => self.word("null", J::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"-+.eE0123456789".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                J::Num(
                    text.parse()
                        .unwrap_or_else(|_| panic!("bad number '{text}'")),
                )
            }
        }
    }
    fn word(&mut self, w: &str, v: J) -> J {
        assert!(self.s[self.i..].starts_with(w.as_bytes()));
        self.i += w.len();
        v
    }
}

fn parse_json(text: &str) -> J {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value();
    p.ws();
    assert_eq!(p.i, text.len(), "one JSON value and nothing after it");
    v
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
    assert_eq!(r.out.lines().count(), 1, "{}", r.out);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j.get("rule").s(), "freestyle");
    assert_eq!(j.get("width").n(), 15.0);
    assert_eq!(j.get("side_to_move").s(), "black");
    assert_eq!(j.get("moves").len(), 6);
    assert_eq!(j.get("moves").at(0).s(), "h8");
    assert_eq!(j.get("game_over"), &J::Null);
    assert_eq!(j.get("depth").n(), 3.0);
    let best = j.get("best");
    assert_eq!(best.len(), 4);
    let top = best.at(0);
    assert!(["g8", "k8"].contains(&top.get("move").s()));
    assert!(["6,7", "10,7"].contains(&top.get("xy").s()));
    assert_eq!(top.get("score_text").s(), "+M3");
    assert_eq!(top.get("mate").n(), 3.0);
    assert_eq!(top.get("pv").at(0).s(), top.get("move").s());
    assert_eq!(best.at(3).get("depth").n(), 3.0);
    let f = j.get("forced_win");
    assert_eq!(f.get("found"), &J::Bool(true));
    assert_eq!(f.get("winner").s(), "black");
    assert_eq!(f.get("plies").n(), 3.0);
    assert_eq!(f.get("kind").s(), "vcf");
    assert_eq!(f.get("line").len(), 3);
    assert_eq!(f.get("complete"), &J::Bool(true));
}

#[test]
fn quiet_positions_report_no_forced_win() {
    let r = analyse(&["--moves", "7,7 8,8", "--depth", "2", "--json", "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.err.is_empty(), "--quiet: {}", r.err);
    let j = parse_json(r.out.trim_end());
    // x,y squares are read like h8 ones.
    assert_eq!(j.get("moves").at(0).s(), "h8");
    assert_eq!(j.get("moves").at(1).s(), "i7");
    assert_eq!(j.get("best").len(), 3);
    assert_eq!(j.get("best").at(0).get("mate"), &J::Null);
    assert_eq!(j.get("forced_win").get("found"), &J::Bool(false));
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
    assert_eq!(j.get("game_over").get("winner").s(), "black");
    assert_eq!(j.get("game_over").get("line").len(), 5);
    assert_eq!(j.get("best").len(), 0);
    assert_eq!(j.get("forced_win"), &J::Null);
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
        let moves: Vec<&str> = (0..6).map(|i| j.get("moves").at(i).s()).collect();
        assert_eq!(moves, ["h8", "a1", "i8", "o1", "j8", "a15"], "{file:?}");
        assert_eq!(j.get("best").len(), 2);
        assert_eq!(j.get("best").at(0).get("score_text").s(), "+M3");
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
    assert_eq!(j.get("best").len(), 3);
    assert!(j.get("depth").n() >= 2.0);
    // The empty board: the centre first, and as many moves as asked for.
    let r = analyse(&["--size", "9", "--depth", "2", "--json", "--quiet"]);
    let j = parse_json(r.out.trim_end());
    assert_eq!(j.get("best").at(0).get("move").s(), "e5");
    assert_eq!(j.get("best").len(), 3);
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
    let f = j.get("forced_win");
    assert_eq!(f.get("found"), &J::Bool(true), "{}", r.out);
    assert_eq!(f.get("source"), &J::Str("solver".into()));
    assert_eq!(f.get("winner"), &J::Str("black".into()));
    let J::Arr(line) = f.get("line") else {
        panic!("line is a list: {}", r.out)
    };
    let good = ["d5", "e6", "h9", "h7", "i10", "i6", "j8", "k8"];
    let J::Str(first) = &line[0] else {
        panic!("{}", r.out)
    };
    assert!(
        good.contains(&first.as_str()),
        "{first} is not a winning first move"
    );
}
