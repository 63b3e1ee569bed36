//! A test-side manager: starts the real `pbrain-fivefold` binary and talks to it.
//!
//! Every line the engine writes is checked to be a protocol line (a reply, `MESSAGE` or
//! `DEBUG`), whole, ending with a line feed, with no carriage return or other control
//! character inside.

#![allow(dead_code)]

use fivefold::core::rules::{self, reference::Grid};
use fivefold::{Board, Color, Pos, Rule};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest wait for a line before a test fails (searches in tests are short; this only
/// guards against a hung engine).
pub const WAIT: Duration = Duration::from_secs(60);

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub log: Vec<String>,
}

/// Whether a line is something the protocol allows the engine to write.
pub fn is_protocol_line(l: &str) -> bool {
    if l.chars().any(|c| c.is_control()) {
        return false;
    }
    l == "OK"
        || l == "SWAP"
        || l.starts_with("ERROR ")
        || l.starts_with("UNKNOWN ")
        || (l.starts_with("MESSAGE ") && yixin_board_reads(l))
        || l.starts_with("DEBUG ")
        || l.starts_with("INFO ")
        || l.starts_with("name=\"")
        || is_forbid_line(l)
        || (!l.is_empty() && l.split(' ').all(|m| parse_xy(m).is_some()))
}

/// Whether Yixin-Board reads a `MESSAGE` line as it is meant. It upper-cases each line and
/// takes any that starts `MESSAGE DATABASE` for one of its database records: a line of
/// another form there (a status message, say) makes it write a label at an unset square
/// and crash (seen under Xvfb; dhbloo/Yixin-Board main.c, the `MESSAGE DATABASE`
/// branch). The same for its realtime markers.
pub fn yixin_board_reads(l: &str) -> bool {
    let upper = l.to_ascii_uppercase();
    let ints = |s: &str, n: usize| {
        let w: Vec<&str> = s.split(' ').collect();
        w.len() >= n && w[..n].iter().all(|x| x.parse::<i64>().is_ok())
    };
    if let Some(rest) = upper.strip_prefix("MESSAGE DATABASE") {
        return match rest.strip_prefix(' ') {
            Some("REFRESH" | "DONE" | "LOAD DONE" | "SAVE DONE") => true,
            Some(r) if r.starts_with("LOAD START ") || r.starts_with("SAVE START ") => true,
            Some(r) if r.starts_with("TEXT \"") => true,
            Some(r) if r.starts_with("ONE ") => ints(&r[4..], 4),
            // A square's record: row, column, tag, value, depth, bound, has-text[, label].
            Some(r) => ints(r, 7),
            None => false,
        };
    }
    if let Some(rest) = upper.strip_prefix("MESSAGE REALTIME") {
        return match rest.strip_prefix(' ') {
            Some("REFRESH") => true,
            Some(r) => {
                let mut w = r.split(' ');
                matches!(w.next(), Some("BEST" | "POS" | "DONE" | "LOSE"))
                    && w.next().is_some_and(|m| parse_xy(m).is_some())
                    && w.next().is_none()
            }
            None => false,
        };
    }
    true
}

/// A line that is not a reply: `MESSAGE …`, `DEBUG …`, or an `INFO …` line for
/// Yixin-Board (`INFO show_detail` 2 or 3).
pub fn is_remark(l: &str) -> bool {
    l.starts_with("MESSAGE ") || l.starts_with("DEBUG ") || l.starts_with("INFO ")
}

/// `FORBID` followed by groups of four digits and a final `.`.
pub fn is_forbid_line(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("FORBID ").and_then(|r| r.strip_suffix('.')) else {
        return false;
    };
    rest.len() % 4 == 0 && rest.bytes().all(|b| b.is_ascii_digit())
}

/// The squares of a `FORBID` line.
pub fn forbid_squares(l: &str) -> Vec<(usize, usize)> {
    assert!(is_forbid_line(l), "not a FORBID line: {l}");
    let digits = &l["FORBID ".len()..l.len() - 1];
    digits
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let n = |a: u8, b: u8| ((a - b'0') * 10 + (b - b'0')) as usize;
            (n(c[0], c[1]), n(c[2], c[3]))
        })
        .collect()
}

/// `x,y` with plain non-negative numbers.
pub fn parse_xy(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once(',')?;
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !ok(a) || !ok(b) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The `BOARD` command for `b` (stones in move order, `1` the side to move's, `2` the
/// other side's), ending with `DONE`.
pub fn board_command(b: &Board) -> String {
    let side = b.side_to_move();
    let mut cmd = String::from("BOARD\n");
    for m in b.history() {
        let field = if m.color == side { 1 } else { 2 };
        cmd.push_str(&format!("{},{},{field}\n", m.pos.x(), m.pos.y()));
    }
    cmd.push_str("DONE");
    cmd
}

/// Checks a move reply as a referee would (on the board, on an empty square, never a
/// renju foul for black, five detection agreeing with the slow reference rules) and
/// plays it on `b`.
pub fn referee_move(b: &mut Board, reply: &str) -> Pos {
    let (x, y) = expect_move(reply);
    let side = b.side_to_move();
    let p = b
        .pos(x as i64, y as i64)
        .unwrap_or_else(|| panic!("{x},{y} is off the board"));
    assert!(
        b.is_empty(p),
        "{side:?} played on the occupied {x},{y}\n{}",
        b.to_diagram()
    );
    if side == Color::Black && b.rule() == Rule::Renju {
        assert!(
            !rules::is_forbidden(b, p),
            "black played the foul {x},{y}\n{}",
            b.to_diagram()
        );
    }
    let five = Grid::from_board(b).makes_five(x as i32, y as i32, side);
    b.make(p);
    assert_eq!(
        b.last_move_won(),
        five,
        "five detection disagrees at {x},{y}\n{}",
        b.to_diagram()
    );
    p
}

/// A field in kilobytes of a `/proc` file (`/proc/<pid>/status`, `/proc/meminfo`), such as
/// `VmHWM:` or `MemTotal:`, in bytes; a test failure if the file or the field is missing.
pub fn proc_kb_field(path: &str, name: &str) -> u64 {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let kb: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {path}: {text}"));
    kb * 1024
}

/// A move reply, or a test failure saying what came instead.
pub fn expect_move(l: &str) -> (usize, usize) {
    parse_xy(l).unwrap_or_else(|| panic!("expected a move, got '{l}'"))
}

impl Brain {
    pub fn start() -> Brain {
        Brain::with_args(&[])
    }

    pub fn with_args(args: &[&str]) -> Brain {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-fivefold"));
        cmd.args(args);
        Brain::with_command(cmd)
    }

    /// Starts the engine with a command of the caller's (a wrapper that sets limits).
    pub fn with_command(mut cmd: Command) -> Brain {
        let mut child = cmd
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-fivefold");
        let stdout = child.stdout.take().expect("engine stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = match String::from_utf8(buf.clone()) {
                            Ok(t) => t,
                            Err(_) => format!("<invalid UTF-8: {:?}>", buf),
                        };
                        if tx.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Brain {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends text (one or more lines); a line feed is added at the end.
    pub fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// Sends bytes as they are; false if the engine's input is closed (it has exited).
    pub fn try_send_bytes(&mut self, bytes: &[u8]) -> bool {
        match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()).is_ok(),
            None => false,
        }
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `wait`.
    pub fn try_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(raw) => {
                let line = raw
                    .strip_suffix('\n')
                    .unwrap_or_else(|| panic!("line without line end: {raw:?}"));
                assert!(is_protocol_line(line), "not a protocol line: {line:?}");
                self.log.push(line.to_string());
                Some(line.to_string())
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line of any kind.
    pub fn line(&mut self) -> String {
        self.try_line(WAIT)
            .unwrap_or_else(|| panic!("no line from the engine; so far: {:?}", self.log))
    }

    /// The next reply, skipping `MESSAGE`, `DEBUG` and (Yixin-Board's) `INFO` lines.
    pub fn reply(&mut self) -> String {
        loop {
            let l = self.line();
            if !is_remark(&l) {
                return l;
            }
        }
    }

    /// Sends a command and returns its reply.
    pub fn ask(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.reply()
    }

    /// Sends a command and returns every line up to and including its reply.
    pub fn ask_all(&mut self, cmd: &str) -> Vec<String> {
        self.send(cmd);
        let mut v = Vec::new();
        loop {
            let l = self.line();
            let done = !is_remark(&l);
            v.push(l);
            if done {
                return v;
            }
        }
    }

    /// Checks that nothing was written since the last reply: sends `ABOUT` and expects
    /// its answer as the very next line.
    pub fn expect_silence(&mut self) {
        self.send("ABOUT");
        let l = self.line();
        assert!(
            l.starts_with("name=\"Fivefold\""),
            "expected no output before the ABOUT reply, got {l:?}"
        );
    }

    /// `START n` with a short time per move; expects `OK`.
    pub fn new_game(&mut self, size: usize, turn_ms: u64) {
        assert_eq!(self.ask(&format!("START {size}")), "OK");
        self.send(&format!("INFO timeout_turn {turn_ms}"));
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < within {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a finished run of `pbrain-fivefold` ended and what it printed.
pub struct Run {
    /// The exit status (`None` if a signal ended it).
    pub code: Option<i32>,
    pub out: String,
    pub err: String,
}

impl Run {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `pbrain-fivefold` with `args` and no input, to its end. The environment's
/// `RUST_LOG` and `NO_COLOR` are removed, so a test sees what a plain terminal user sees.
pub fn run(args: &[&str]) -> Run {
    run_with_input(args, "")
}

/// The subcommands of `fivefold-tools`; every other subcommand is `pbrain-fivefold`'s.
pub const TOOLS: &[&str] = &[
    "selfplay", "openings", "tune", "style", "datagen", "import", "train", "average",
];

/// The binary that carries the subcommand `args` start with: `fivefold-tools` for the
/// tools, `pbrain-fivefold` for everything else (the protocol, play, analyse, ...).
pub fn binary_for(args: &[&str]) -> &'static str {
    match args.first() {
        Some(first) if TOOLS.contains(first) => env!("CARGO_BIN_EXE_fivefold-tools"),
        _ => env!("CARGO_BIN_EXE_pbrain-fivefold"),
    }
}

/// Runs the binary of the subcommand in `args` ([`binary_for`]), writes `input` to its
/// stdin and closes it, and waits for its end. A process that stops before reading (a bad
/// option) is fine: the broken pipe is ignored.
pub fn run_with_input(args: &[&str], input: &str) -> Run {
    run_binary(binary_for(args), args, input)
}

/// Runs `binary` with `args`, as [`run_with_input`] does.
pub fn run_binary(binary: &str, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(binary)
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-fivefold");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let o = child.wait_with_output().expect("wait for pbrain-fivefold");
    Run {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Says on the test process's own stderr that a test is skipped and why. The test
/// harness captures `eprintln!` and shows it only for failing tests; a skip must be
/// seen in an ordinary `cargo test` run, so this writes past the capture.
pub fn say_skipped(test: &str, why: &str, setup: &str) {
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {why}\n    (to run it: {setup})"
    );
}

/// A fresh, empty folder for one test's files: `fivefold-SUITE-PID-TEST` in the system's
/// temporary folder.
pub fn scratch(suite: &str, test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fivefold-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}
