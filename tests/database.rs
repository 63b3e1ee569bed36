//! The position database through Yixin-Board's commands, with the lines the GUI sends
//! and the replies it parses, both from its source (dhbloo/Yixin-Board `main.c`):
//!
//! - every command that works on a position is followed by the moves from the empty
//!   board, one `%d,%d` line each (`movepath[i] / boardsize, movepath[i] % boardsize`),
//!   then `done` (`show_database`, `execute_command`: `dbval`, `dbtext`, `dbsetbestmove`,
//!   `dbclearbestmove`, `dbedittag`/`dbeditval`/`dbeditdep`, `dbdel one`, `dbdel all`);
//! - `yxeditlabeldatabase %d,%d %s` (an empty label deletes), `yxedittvddatabase 1 %hhd 0 0`,
//!   `yxedittvddatabase 2 -1 %d 0`, `yxedittvddatabase 4 -1 0 %d`;
//! - `yxedittextdatabase "…"` with `"` and `\` escaped and NO line break after the closing
//!   quote: the first move follows on the same line; the text keeps its line breaks;
//! - `yxsetdatabase` then the path on its own line; `yxsavedatabase`; `yxdbcheck`;
//!   `yxdbfix`;
//! - the file commands, each followed by the path on its own line: `yxlibtodb` (its
//!   `libtodb`, from a file dialog filtered to `*.lib`), `yxdbtotxt`, `yxdbtotxtall`,
//!   `yxtxttodb`, `yxdbtopos`, `yxdbmerge`, and `yxdbsplit` after `start N` and a
//!   `yxboard` of its position (fields 1 and 2 alternating, the last move 2); Rapfi's
//!   `YXDBTOLIB` the same way; it shows the `MESSAGE` lines they answer in its log;
//! - `yxdeletedatabaseall` with the filters of its menu: `nonwl`, `wlnostep`,
//!   `wlinstep %d`, `wl`, `w`, `l`, each also with `recursive` appended;
//! - it parses `MESSAGE DATABASE REFRESH`, `MESSAGE DATABASE DONE`,
//!   `MESSAGE DATABASE %d %d %d %*d %*d %*d %*d %6s` (row, column, tag, four numbers it
//!   skips, the label), `MESSAGE DATABASE ONE %d %d %d %d %79s` (tag, value, depth,
//!   bound 0 none 1 upper 2 lower 3 exact, label), `MESSAGE DATABASE TEXT "…"` (read on
//!   to the closing quote, across lines), `MESSAGE DATABASE LOAD START|DONE` and
//!   `MESSAGE DATABASE SAVE START|DONE`; it draws a square's label only where the tag is
//!   not 0 (-1 for none, as Rapfi sends it). Every other line that starts
//!   `MESSAGE DATABASE`, whatever its case, crashes it: `common::yixin_board_reads`
//!   checks every line every test reads.

mod common;

use common::*;
use fivefold::book::store::{Database, Key};
use fivefold::{Board, Color, Pos, Rule};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// 36 squares no two of which are images of each other under the board's symmetries
/// (row <= column <= 7), so one black stone on each is 36 different positions.
fn distinct_squares() -> Vec<(usize, usize)> {
    (0..8).flat_map(|c| (0..=c).map(move |r| (r, c))).collect()
}

/// `yixin.db` in a fresh folder of its own, which goes when this does (the test's end,
/// passed or failed; the engines it started, declared after it, have gone by then).
struct TempDb {
    dir: PathBuf,
    path: PathBuf,
}

impl std::ops::Deref for TempDb {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDb {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp_db(name: &str) -> TempDb {
    let dir = scratch("dbtest", name);
    TempDb {
        path: dir.join("yixin.db"),
        dir,
    }
}

/// An engine as Yixin-Board starts it, with the database at `path` open.
fn with_db(path: &std::path::Path) -> Brain {
    let mut b = Brain::start();
    assert_eq!(b.ask("START 15"), "OK");
    b.send(&format!("yxsetdatabase\n{}", path.display()));
    assert_eq!(
        b.line(),
        format!("MESSAGE DATABASE LOAD START {}", path.display())
    );
    assert_eq!(b.line(), "MESSAGE DATABASE LOAD DONE");
    assert!(b
        .line()
        .starts_with(&format!("MESSAGE db {}: ", path.display())));
    b
}

/// The moves as Yixin-Board sends them after a database command.
fn moves(list: &[(usize, usize)]) -> String {
    let mut s = String::new();
    for (r, c) in list {
        s.push_str(&format!("{r},{c}\n"));
    }
    s.push_str("done");
    s
}

/// Sends a command, its moves, and `ABOUT`; returns the lines before ABOUT's answer
/// (so a command that answers nothing gives an empty list, and its write is done).
fn exchange(b: &mut Brain, cmd: &str, list: &[(usize, usize)]) -> Vec<String> {
    b.send(&format!("{cmd}\n{}\nABOUT", moves(list)));
    let mut out = Vec::new();
    loop {
        let l = b.line();
        if l.starts_with("name=\"Fivefold\"") {
            return out;
        }
        out.push(l);
    }
}

/// The position the tests annotate, C (black to move first; rows and columns as
/// Yixin-Board sends them), and its parent P without the last move. P has no symmetry,
/// so each of its moves is shown on one square only:
///
/// ```text
///        col 5 6 7 8 9
///   row 5    . . . O .      P: 7,7 black, 5,8 white
///   row 6    . . . . .      C: P and 8,8 black
///   row 7    . . X . .
///   row 8    . . . X .
/// ```
const C: [(usize, usize); 3] = [(7, 7), (5, 8), (8, 8)];
const P: [(usize, usize); 2] = [(7, 7), (5, 8)];
/// C turned half round the centre (r,c -> 14-r,14-c): the same position.
const C_TURNED: [(usize, usize); 3] = [(7, 7), (9, 6), (6, 6)];

#[test]
fn edits_and_queries_with_yixin_boards_lines() {
    let path = temp_db("edits");
    let mut b = with_db(&path);
    // dbeditval / dbeditdep / dbedittag on C.
    // Each answers with the record as it now is (Rapfi's reply, shown in the GUI's log).
    assert_eq!(
        exchange(&mut b, "yxedittvddatabase 2 -1 -35 0", &C),
        ["MESSAGE DATABASE ONE 0 -35 0 3"]
    );
    assert_eq!(
        exchange(&mut b, "yxedittvddatabase 4 -1 0 17", &C),
        ["MESSAGE DATABASE ONE 0 -35 17 3"]
    );
    assert_eq!(
        exchange(&mut b, "yxedittvddatabase 1 97 0 0", &C),
        ["MESSAGE DATABASE ONE 97 -35 17 3"]
    );
    // dbval: tag 'a' (97), value -35 (for white, to move in C), depth 17, exact.
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &C),
        ["MESSAGE DATABASE ONE 97 -35 17 3"]
    );
    // P shows the move 8,8 with the value turned round (35 for black, who plays it).
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &P),
        [
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE 8 8 97 35 17 3 0",
            "MESSAGE DATABASE DONE"
        ]
    );
    // Removing the tag (dbedittag with nothing: -1) shows the value as the tag: "35".
    assert_eq!(
        exchange(&mut b, "yxedittvddatabase 1 -1 0 0", &C),
        ["MESSAGE DATABASE ONE 0 -35 17 3"]
    );
    let tag35 = i64::from(b'3') * 256 + i64::from(b'5');
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &P)[1],
        format!("MESSAGE DATABASE 8 8 {tag35} 35 17 3 0")
    );
    // Labels (the board-text dialog) on 6,6 and on the move 8,8 of P.
    assert!(exchange(&mut b, "yxeditlabeldatabase 6,6 A1", &P).is_empty());
    assert!(exchange(&mut b, "yxeditlabeldatabase 8,8 B2", &P).is_empty());
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &P),
        [
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE 6 6 -1 0 0 0 0 A1",
            format!("MESSAGE DATABASE 8 8 {tag35} 35 17 3 0 B2").as_str(),
            "MESSAGE DATABASE DONE"
        ]
    );
    // dbval on C turned half round: the same record, with the label of the last move's
    // square (6,6 there is 8,8 here).
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &C_TURNED),
        ["MESSAGE DATABASE ONE 0 -35 17 3 B2"]
    );
    // An empty label deletes.
    assert!(exchange(&mut b, "yxeditlabeldatabase 6,6 ", &P).is_empty());
    assert!(exchange(&mut b, "yxeditlabeldatabase 8,8", &P).is_empty());
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &P),
        [
            "MESSAGE DATABASE REFRESH",
            format!("MESSAGE DATABASE 8 8 {tag35} 35 17 3 0").as_str(),
            "MESSAGE DATABASE DONE"
        ]
    );
    // dbdel one.
    assert!(exchange(&mut b, "yxdeletedatabaseone", &C_TURNED).is_empty());
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &C),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &P),
        ["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"]
    );
}

#[test]
fn text_is_quoted_escaped_and_may_span_lines() {
    let path = temp_db("text");
    let mut b = with_db(&path);
    // As Yixin-Board sends it: no line break after the closing quote.
    b.send("yxedittextdatabase \"say \\\"hi\\\" C:\\\\x\"7,7\n8,8\ndone\nABOUT");
    assert!(b.line().starts_with("name="));
    assert_eq!(
        exchange(&mut b, "yxquerydatabasetext", &[(7, 7), (8, 8)]),
        ["MESSAGE DATABASE TEXT \"say \\\"hi\\\" C:\\\\x\""]
    );
    // With no moves the position is the empty board: `done` follows the quote.
    b.send("yxedittextdatabase \"empty board\"done\nABOUT");
    assert!(b.line().starts_with("name="));
    let all = exchange(&mut b, "yxquerydatabaseallt", &[]);
    assert_eq!(all[0], "MESSAGE DATABASE REFRESH");
    assert!(all.contains(&"MESSAGE DATABASE TEXT \"empty board\"".to_string()));
    assert_eq!(all.last().unwrap(), "MESSAGE DATABASE DONE");
    drop(b);
    // Line breaks in the text are kept and sent back as they are: Yixin-Board reads on
    // to the closing quote (its only way to show them).
    let input = format!(
        "START 15\nyxsetdatabase\n{}\nyxedittextdatabase \"one\ntwo\"7,7\ndone\nyxquerydatabasetext\n7,7\ndone\nEND\n",
        path.display()
    );
    let run = run_with_input(&[], &input);
    assert!(
        run.out.contains("MESSAGE DATABASE TEXT \"one\ntwo\"\n"),
        "{}",
        run.out
    );
}

#[test]
fn best_move_is_set_cleared_and_played_as_a_book_move() {
    let path = temp_db("book");
    let mut b = with_db(&path);
    // dbsetbestmove with 7,7 0,0 on the board: 0,0 is the best answer to 7,7.
    assert!(exchange(&mut b, "yxsetbestmovedatabase", &[(7, 7), (0, 0)]).is_empty());
    // The search would never play a corner; the database's move is played.
    assert_eq!(b.ask("TURN 7,7"), "0,0");
    // The same position reached in a new game: the same move.
    assert_eq!(b.ask("RESTART"), "OK");
    assert_eq!(b.ask("TURN 7,7"), "0,0");
    // A mirror image: 0,0 is best after 7,7 8,8; asked after 7,7 6,6 (the image under
    // the half turn), the answer is the image of 0,0.
    assert!(exchange(&mut b, "yxsetbestmovedatabase", &[(7, 7), (8, 8), (0, 0)]).is_empty());
    assert_eq!(b.ask("BOARD\n7,7,1\n6,6,2\nDONE"), "14,14");
    // Clear it: the engine searches again (and never answers with the corner).
    assert!(exchange(&mut b, "yxclearbestmovedatabase", &[(7, 7), (0, 0)]).is_empty());
    assert_eq!(b.ask("RESTART"), "OK");
    b.send("INFO timeout_turn 100");
    let mv = expect_move(&b.ask("TURN 7,7"));
    assert_ne!(mv, (0, 0));
    // INFO usedatabase 0: the stored move is not used.
    assert!(exchange(&mut b, "yxsetbestmovedatabase", &[(7, 7), (0, 0)]).is_empty());
    b.send("INFO usedatabase 0");
    assert_eq!(b.ask("RESTART"), "OK");
    assert_ne!(expect_move(&b.ask("TURN 7,7")), (0, 0));
}

#[test]
fn a_game_stores_its_searched_moves() {
    let path = temp_db("game");
    let mut b = with_db(&path);
    b.send("INFO max_depth 4");
    let mv = expect_move(&b.ask("TURN 7,7"));
    drop(b);
    // The file, read directly: the position after black's 7,7 holds white's move.
    let db = Database::open(&path).unwrap();
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    board.make_color(Pos::new(7, 7), Color::Black);
    let rec = db
        .get(&Key::of(&board, Color::White))
        .unwrap()
        .expect("stored");
    assert_eq!(rec.best, Some(Pos::new(mv.0, mv.1)));
    assert!(rec.depth >= 1 && rec.score.is_some() && !rec.by_user);
    // INFO database_readonly 1: nothing is written, edits are refused.
    let mut b = with_db(&path);
    b.send("INFO database_readonly 1");
    let e = exchange(&mut b, "yxedittvddatabase 2 -1 5 0", &[]);
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("ERROR YXEDITTVDDATABASE: the database is read-only"));
}

#[test]
fn other_commands_save_check_and_delete_all() {
    let path = temp_db("misc");
    let mut b = with_db(&path);
    assert_eq!(
        exchange(&mut b, "yxedittvddatabase 4 -1 0 9", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 9 0"]
    );
    b.send("yxsavedatabase");
    assert_eq!(
        b.line(),
        format!("MESSAGE DATABASE SAVE START {}", path.display())
    );
    assert_eq!(b.line(), "MESSAGE DATABASE SAVE DONE");
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 1 position");
    // A filter Yixin-Board does not send is refused whole.
    let e = exchange(&mut b, "yxdeletedatabaseall wlx", &[(7, 7)]);
    assert!(
        e[0].starts_with("ERROR YXDELETEDATABASEALL: 'WLX' is not a filter"),
        "{e:?}"
    );
    // dbdel all after a move: only the positions after it go (none here).
    for cmd in ["yxdeletedatabaseall wl", "yxdeletedatabaseall"] {
        assert_eq!(
            exchange(&mut b, cmd, &[(7, 7)]),
            [
                "MESSAGE db: deleted 0 positions after this one",
                "MESSAGE DATABASE REFRESH",
                "MESSAGE DATABASE DONE"
            ]
        );
    }
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 9 0"]
    );
    // From the empty board: everything of this rule and size, and the (now empty) marks.
    assert_eq!(
        exchange(&mut b, "yxdeletedatabaseall", &[]),
        ["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"]
    );
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 0 positions");
    // Bad input: a square off the board, a malformed edit; the game goes on.
    let e = exchange(&mut b, "yxquerydatabaseone", &[(7, 7), (15, 3)]);
    assert!(e[0].starts_with("ERROR YXQUERYDATABASEONE: "), "{e:?}");
    assert!(b.ask("yxedittvddatabase 2 x").starts_with("ERROR "));
    b.send("INFO timeout_turn 100");
    expect_move(&b.ask("BEGIN"));
}

/// kill -9 while writing, over and over: every write the engine had finished (it
/// answered the `ABOUT` sent after it) is in the file after the kill, and the file
/// passes SQLite's integrity check.
#[test]
fn killed_while_writing_loses_no_committed_entry() {
    let path = temp_db("kill");
    // (row, column, the confirmed value, the value the write in flight may have left).
    let mut expected: Vec<(usize, usize, i64, i64)> = Vec::new();
    let squares = distinct_squares();
    for round in 0..6_i64 {
        let mut b = with_db(&path);
        // A burst of writes, confirmed; then a second burst with other values, in
        // flight at the kill (each write is a few milliseconds with its fsync, so the
        // kill lands inside the burst: a trial run left 0, 0, 3 and 5 of its 36 writes
        // after 0, 5, 10 and 20 ms).
        let burst = |base: i64| {
            let mut s = String::new();
            for (i, &(r, c)) in squares.iter().enumerate() {
                s.push_str(&format!(
                    "yxedittvddatabase 2 -1 {} 0\n{r},{c}\ndone\n",
                    base + i as i64
                ));
            }
            s
        };
        b.send(&format!(
            "{}ABOUT\n{}",
            burst(round * 100),
            burst(round * 100 + 50)
        ));
        while !b.line().starts_with("name=") {}
        expected.clear();
        for (i, &(r, c)) in squares.iter().enumerate() {
            let v = round * 100 + i as i64;
            expected.push((r, c, v, v + 50));
        }
        std::thread::sleep(Duration::from_millis(5 * round as u64));
        drop(b); // SIGKILL, mid-burst
    }
    let db = Database::open(&path).expect("opens after the kills");
    assert_eq!(db.integrity_check().unwrap(), ["ok"]);
    for &(r, c, confirmed, in_flight) in &expected {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        board.make_color(Pos::new(r, c), Color::Black);
        let rec = db.get(&Key::of(&board, Color::White)).unwrap().unwrap();
        let v = i64::from(rec.score.expect("a value"));
        assert!(
            v == confirmed || v == in_flight,
            "{r},{c}: {v}, expected {confirmed} (or {in_flight} if written before the kill)"
        );
    }
}

/// Two engines on one file at once: each writes its own positions and reads the
/// other's; nothing fails and nothing is lost.
#[test]
fn two_engines_share_one_file() {
    let path = temp_db("two");
    let mut a = with_db(&path);
    let mut b = with_db(&path);
    let squares = distinct_squares();
    let mut batch_a = String::new();
    let mut batch_b = String::new();
    for (i, &(r, c)) in squares.iter().enumerate() {
        batch_a.push_str(&format!("yxedittvddatabase 2 -1 {i} 0\n{r},{c}\ndone\n"));
        batch_b.push_str(&format!(
            "yxeditlabeldatabase {r},{c} L{i}\ndone\nyxquerydatabaseone\n{r},{c}\ndone\n"
        ));
    }
    a.send(&format!("{batch_a}ABOUT"));
    b.send(&format!("{batch_b}ABOUT"));
    for (name, e) in [("a", &mut a), ("b", &mut b)] {
        loop {
            let l = e.line();
            assert!(!l.starts_with("ERROR"), "engine {name}: {l}");
            if l.starts_with("name=") {
                break;
            }
        }
    }
    // Each engine sees everything both wrote.
    for e in [&mut a, &mut b] {
        let all = exchange(e, "yxquerydatabaseall", &[]);
        for (i, &(r, c)) in squares.iter().enumerate() {
            let tag = fivefold::book::store::tag_of(Some(-(i as i32)));
            let line = format!("MESSAGE DATABASE {r} {c} {tag} {} 0 3 0 L{i}", -(i as i64));
            assert!(all.contains(&line), "{line} in {all:?}");
        }
    }
}

/// A damaged file: a clear error (an `ERROR` line and stderr), no crash, and the engine
/// plays on without a database.
#[test]
fn a_damaged_file_is_an_error_not_a_crash() {
    let path = temp_db("damaged");
    {
        let mut b = with_db(&path);
        assert_eq!(
            exchange(&mut b, "yxedittvddatabase 2 -1 7 0", &[(7, 7)]),
            ["MESSAGE DATABASE ONE 0 7 0 3"]
        );
        b.send("yxsavedatabase");
        b.line();
        b.line();
    }
    // Overwrite the middle of the file (its pages) with junk, then also try a file that
    // is not a database at all.
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    for x in &mut bytes[16..n] {
        *x = 0xA5;
    }
    let _ = std::fs::remove_file(path.with_extension("db-wal"));
    std::fs::write(&path, &bytes).unwrap();
    let junk = path.with_file_name("junk.db");
    std::fs::write(&junk, b"this is not a database\n".repeat(300)).unwrap();
    for p in [&*path, &*junk] {
        let input = format!("START 15\nyxsetdatabase\n{}\nEND\n", p.display());
        let run = run_with_input(&[], &input);
        assert!(run.success(), "{}", run.err);
        let error = run
            .out
            .lines()
            .find(|l| l.starts_with("ERROR YXSETDATABASE: "))
            .unwrap_or_else(|| panic!("no error: {}", run.out));
        assert!(
            error.contains(&p.display().to_string())
                && error.contains("not a usable database")
                && error.ends_with("; playing without a database"),
            "{error}"
        );
        assert!(
            run.err.contains("YXSETDATABASE") && run.err.contains("not a usable database"),
            "stderr: {}",
            run.err
        );
        // The engine plays on, without the database.
        let mut b = Brain::start();
        assert_eq!(b.ask("START 15"), "OK");
        b.send(&format!("yxsetdatabase\n{}", p.display()));
        assert!(b
            .ask("INFO timeout_turn 100\nBEGIN")
            .starts_with("ERROR YXSETDATABASE: "));
        expect_move(&b.reply());
        assert_eq!(
            exchange(&mut b, "yxquerydatabaseone", &[(7, 7)])[0],
            "ERROR YXQUERYDATABASEONE: no database; send YXSETDATABASE first"
        );
    }
}

/// RenLib's 20-byte header.
fn lib_header() -> Vec<u8> {
    let mut h = vec![0xff];
    h.extend_from_slice(b"RenLib");
    h.extend_from_slice(&[0xff, 3, 0]);
    h.extend_from_slice(&[0xff; 10]);
    h
}

/// A small library, written byte by byte (square `row << 4 | column + 1`, then flags:
/// 0x80 a sibling follows, 0x40 no child, 0x08 a comment, 0x01 a board text):
///
/// ```text
///   h8 (7,7)                      the centre
///   ├── i8 (8,7)  comment "direct", board text "D"
///   └── i9 (8,6)  comment "indirect"
///       └── h9 (7,6)
///
///        col 6 7 8
///   row 6    . 3 2       2 = i9, 3 = h9
///   row 7    . 1 D       1 = h8, D = i8
/// ```
fn small_lib() -> Vec<u8> {
    let mut b = lib_header();
    b.extend_from_slice(&[0x78, 0x00]); // h8, has a child
    b.extend_from_slice(&[0x79, 0x80 | 0x40 | 0x08 | 0x01, 0x00, 0x01]); // i8
    b.extend_from_slice(b"direct\0\0D\0"); // comment (even length: two zeros), text
    b.extend_from_slice(&[0x69, 0x08]); // i9, a child, no sibling
    b.extend_from_slice(b"indirect\0\0");
    b.extend_from_slice(&[0x68, 0x40]); // h9, last
    b
}

/// Sends a file command as Yixin-Board does (the command, then the path on its own
/// line) and `ABOUT`; returns the lines before ABOUT's answer.
fn file_command(b: &mut Brain, cmd: &str, path: &std::path::Path) -> Vec<String> {
    b.send(&format!("{cmd}\n{}\nABOUT", path.display()));
    let mut out = Vec::new();
    loop {
        let l = b.line();
        if l.starts_with("name=\"Fivefold\"") {
            return out;
        }
        out.push(l);
    }
}

#[test]
fn a_hand_made_lib_imports_to_its_positions() {
    let path = temp_db("libimport");
    let dir = path.parent().unwrap().to_path_buf();
    let lib = dir.join("small.lib");
    std::fs::write(&lib, small_lib()).unwrap();
    let mut b = with_db(&path);
    assert_eq!(
        file_command(&mut b, "yxlibtodb", &lib),
        [format!(
            "MESSAGE db: imported 4 positions from {}: 4 new, 2 texts, 1 label",
            lib.display()
        )]
    );
    // i8's comment is the text of h8 i8 (and of its mirror image h8 g8).
    assert_eq!(
        exchange(&mut b, "yxquerydatabasetext", &[(7, 7), (8, 7)]),
        ["MESSAGE DATABASE TEXT \"direct\""]
    );
    assert_eq!(
        exchange(&mut b, "yxquerydatabasetext", &[(7, 7), (6, 7)]),
        ["MESSAGE DATABASE TEXT \"direct\""]
    );
    // From h8 the GUI sees both answers on each of their four images, i8's board text
    // on its own square; the seventh number says that the position after has a text.
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &[(7, 7)]),
        [
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE 6 6 -1 0 0 0 1",
            "MESSAGE DATABASE 7 6 -1 0 0 0 1",
            "MESSAGE DATABASE 8 6 -1 0 0 0 1",
            "MESSAGE DATABASE 6 7 -1 0 0 0 1",
            "MESSAGE DATABASE 8 7 -1 0 0 0 1 D",
            "MESSAGE DATABASE 6 8 -1 0 0 0 1",
            "MESSAGE DATABASE 7 8 -1 0 0 0 1",
            "MESSAGE DATABASE 8 8 -1 0 0 0 1",
            "MESSAGE DATABASE DONE"
        ]
    );
    // h9 after i9: a position with an empty record.
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseall", &[(7, 7), (8, 6)]),
        [
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE 7 6 -1 0 0 0 0",
            "MESSAGE DATABASE 8 7 -1 0 0 0 0",
            "MESSAGE DATABASE DONE"
        ]
    );
    // Importing again adds nothing new and does not repeat the texts.
    assert_eq!(
        file_command(&mut b, "yxlibtodb", &lib),
        [format!(
            "MESSAGE db: imported 4 positions from {}: 0 new, 0 texts, 1 label",
            lib.display()
        )]
    );
    // The positions as move lists (dbtopos): one a line.
    let pos = dir.join("positions.txt");
    assert_eq!(
        file_command(&mut b, "yxdbtopos", &pos),
        [format!(
            "MESSAGE db: wrote 4 positions to {}",
            pos.display()
        )]
    );
    let text = std::fs::read_to_string(&pos).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines.contains(&"h8"), "{text}");
    assert_eq!(
        lines.iter().filter(|l| l.split(' ').count() == 3).count(),
        1
    );
}

#[test]
fn export_then_import_gives_the_same_records() {
    let path = temp_db("libround");
    let dir = path.parent().unwrap().to_path_buf();
    let lib = dir.join("small.lib");
    std::fs::write(&lib, small_lib()).unwrap();
    let mut b = with_db(&path);
    file_command(&mut b, "yxlibtodb", &lib);
    // A search result and a text of our own on top of the library's.
    exchange(&mut b, "yxedittvddatabase 2 -1 40 0", &[(7, 7), (8, 7)]);
    let exported = dir.join("out.lib");
    assert_eq!(
        file_command(&mut b, "yxdbtolib", &exported),
        [format!(
            "MESSAGE db: exported 4 nodes to {}",
            exported.display()
        )]
    );
    let txt1 = dir.join("one.txt");
    assert_eq!(
        file_command(&mut b, "yxdbtotxt", &txt1),
        [format!(
            "MESSAGE db: wrote 4 positions and 1 label (freestyle 15x15) to {}",
            txt1.display()
        )]
    );
    drop(b);
    // Into a fresh database: the .lib brings the tree, texts and labels back (not the
    // value, which the format has no place for); the text form brings everything.
    let path2 = dir.join("two.db");
    let mut b = with_db(&path2);
    file_command(&mut b, "yxlibtodb", &exported);
    let txt2 = dir.join("two.txt");
    file_command(&mut b, "yxdbtotxtall", &txt2);
    let strip_value = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split('\t').collect();
                if f[0] == "position" {
                    f[4] = "";
                    f[6] = "0";
                }
                f.join("\t")
            })
            .collect()
    };
    let (t1, t2) = (
        std::fs::read_to_string(&txt1).unwrap(),
        std::fs::read_to_string(&txt2).unwrap(),
    );
    assert_eq!(strip_value(&t1), strip_value(&t2));
    assert_ne!(t1, t2);
    // The text form read back: the same records, value included.
    assert_eq!(
        file_command(&mut b, "yxtxttodb", &txt1),
        [format!(
            "MESSAGE db: read 4 positions and 1 label from {}",
            txt1.display()
        )]
    );
    file_command(&mut b, "yxdbtotxtall", &txt2);
    assert_eq!(std::fs::read_to_string(&txt2).unwrap(), t1);
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &[(7, 7), (8, 7)]),
        ["MESSAGE DATABASE ONE 0 40 0 3 D"]
    );
    // dbfix on a sound file.
    b.send("yxdbfix");
    for want in [
        "MESSAGE db fix: integrity check: ok",
        "MESSAGE db fix: indexes rebuilt",
        "MESSAGE db fix: 0 unreadable records removed",
        "MESSAGE db fix: file compacted, 4 positions",
    ] {
        assert_eq!(b.line(), want);
    }
}

#[test]
fn bad_files_are_errors_and_the_game_goes_on() {
    let path = temp_db("libbad");
    let dir = path.parent().unwrap().to_path_buf();
    let mut b = Brain::start();
    assert_eq!(b.ask("START 15"), "OK");
    // No database yet.
    let e = file_command(&mut b, "yxlibtodb", &dir.join("x.lib"));
    assert_eq!(
        e,
        ["ERROR YXLIBTODB: no database; send YXSETDATABASE first"]
    );
    assert_eq!(
        b.ask("yxdbfix"),
        "ERROR YXDBFIX: no database; send YXSETDATABASE first"
    );
    drop(b);
    let mut b = with_db(&path);
    let lib = dir.join("small.lib");
    std::fs::write(&lib, small_lib()).unwrap();
    file_command(&mut b, "yxlibtodb", &lib);
    // Truncated: every cut of the file inside its tree is refused, nothing imported.
    let full = small_lib();
    let cut = dir.join("cut.lib");
    for n in [0, 5, 19, 21, 24, full.len() - 1] {
        std::fs::write(&cut, &full[..n]).unwrap();
        let e = file_command(&mut b, "yxlibtodb", &cut);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with(&format!(
                "ERROR YXLIBTODB: {}: nothing was imported: ",
                cut.display()
            )) && e[0].contains("truncated"),
            "{n}: {e:?}"
        );
    }
    // The header alone is an empty library.
    std::fs::write(&cut, &full[..20]).unwrap();
    assert_eq!(
        file_command(&mut b, "yxlibtodb", &cut),
        [format!(
            "MESSAGE db: imported 0 positions from {}: 0 new, 0 texts, 0 labels",
            cut.display()
        )]
    );
    // Missing, not a library, an unwritable path, a text with a bad line.
    let e = file_command(&mut b, "yxlibtodb", &dir.join("missing.lib"));
    assert!(e[0].starts_with("ERROR YXLIBTODB: cannot read "), "{e:?}");
    std::fs::write(&cut, vec![7u8; 100]).unwrap();
    let e = file_command(&mut b, "yxlibtodb", &cut);
    assert!(e[0].contains("not a RenLib library"), "{e:?}");
    let nowhere = dir.join("no-such-dir").join("out.lib");
    let e = file_command(&mut b, "yxdbtolib", &nowhere);
    assert!(e[0].starts_with("ERROR YXDBTOLIB: cannot write "), "{e:?}");
    let e = file_command(&mut b, "yxdbtotxt", &nowhere);
    assert!(e[0].starts_with("ERROR YXDBTOTXT: cannot write "), "{e:?}");
    let txt = dir.join("bad.txt");
    std::fs::write(&txt, "position\tnot-a-key\t\t0\t\t0\t0\t0\t\n").unwrap();
    let e = file_command(&mut b, "yxtxttodb", &txt);
    assert!(
        e[0].starts_with(&format!(
            "ERROR YXTXTTODB: {}: nothing was read: line 1: ",
            txt.display()
        )),
        "{e:?}"
    );
    // The database is as the good import left it, and the engine plays.
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 4 positions");
    b.send("INFO timeout_turn 100");
    expect_move(&b.ask("BEGIN"));
}

/// `dbdel all w`, `nonwl`, `wl recursive` from Yixin-Board's menu, on the small library.
#[test]
fn delete_all_filters_walk_the_positions_after_one() {
    let path = temp_db("delfilter");
    let dir = path.parent().unwrap().to_path_buf();
    let lib = dir.join("small.lib");
    std::fs::write(&lib, small_lib()).unwrap();
    let mut b = with_db(&path);
    file_command(&mut b, "yxlibtodb", &lib);
    // i8 is marked a win ('w' = 119) for black, who plays it.
    exchange(&mut b, "yxedittvddatabase 1 119 0 0", &[(7, 7), (8, 7)]);
    // wl recursive from the empty board: h8 is neither, so the walk stops there.
    assert_eq!(
        exchange(&mut b, "yxdeletedatabaseall wlrecursive", &[])[0],
        "MESSAGE db: deleted 0 positions after this one"
    );
    assert_eq!(
        exchange(&mut b, "yxdeletedatabaseall w", &[(7, 7)])[0],
        "MESSAGE db: deleted 1 position after this one"
    );
    assert_eq!(
        exchange(&mut b, "yxquerydatabasetext", &[(7, 7), (8, 7)]),
        ["MESSAGE DATABASE TEXT \"\""]
    );
    // nonwl: i9 and h9 after it.
    assert_eq!(
        exchange(&mut b, "yxdeletedatabaseall nonwl", &[(7, 7)])[0],
        "MESSAGE db: deleted 2 positions after this one"
    );
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 1 position");
}

/// `dbsplit` (after Yixin-Board's `yxboard` of its position) and `dbmerge`.
#[test]
fn split_and_merge_files() {
    let path = temp_db("split");
    let dir = path.parent().unwrap().to_path_buf();
    let lib = dir.join("small.lib");
    std::fs::write(&lib, small_lib()).unwrap();
    let mut b = with_db(&path);
    file_command(&mut b, "yxlibtodb", &lib);
    // The board: h8 then i9, the engine (black) to move.
    b.send("start 15\nyxboard\n7,7,1\n8,6,2\ndone");
    assert_eq!(b.line(), "OK");
    let part = dir.join("part.db");
    assert_eq!(
        file_command(&mut b, "yxdbsplit", &part),
        [format!(
            "MESSAGE db: wrote 3 positions (this position, the way to it and what follows it) to {}",
            part.display()
        )]
    );
    let e = file_command(&mut b, "yxdbsplit", &path);
    assert!(e[0].contains("is the database itself"), "{e:?}");
    drop(b);
    let mut b = with_db(&part);
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 3 positions");
    assert_eq!(
        file_command(&mut b, "yxdbmerge", &path),
        [format!(
            "MESSAGE db: merged 1 of 4 positions from {}",
            path.display()
        )]
    );
    let e = file_command(&mut b, "yxdbmerge", &dir.join("missing.db"));
    assert!(e[0].starts_with("ERROR YXDBMERGE: "), "{e:?}");
    b.send("yxdbcheck");
    assert_eq!(b.line(), "MESSAGE db check: ok, 4 positions");
    assert_eq!(
        exchange(&mut b, "yxquerydatabaseone", &[(7, 7), (8, 7)]),
        ["MESSAGE DATABASE ONE 0 0 0 0 D"]
    );
    // Read-only: what would change this database is refused; exports still work.
    b.send("INFO database_readonly 1");
    let e = file_command(&mut b, "yxdbmerge", &path);
    assert_eq!(
        e,
        ["ERROR YXDBMERGE: the database is read-only (INFO database_readonly 1); nothing changed"]
    );
    assert!(b
        .ask("yxdbfix")
        .starts_with("ERROR YXDBFIX: the database is read-only"));
    let txt = dir.join("ro.txt");
    assert_eq!(
        file_command(&mut b, "yxdbtotxt", &txt),
        [format!(
            "MESSAGE db: wrote 4 positions and 1 label (freestyle 15x15) to {}",
            txt.display()
        )]
    );
}
