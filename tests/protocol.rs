//! Conversations with the real `pbrain-fivefold` binary: every command, every error path,
//! timing (END and STOP in the middle of a search, time limits), and the extensions GUIs
//! and analysis scripts use. Complete refereed games are in `tests/referee.rs`.

mod common;

use common::{expect_move, forbid_squares, parse_xy, Brain};
use std::time::{Duration, Instant};

/// A position (as `BOARD` lines for the engine) where our stones have an open four on
/// row 7 (columns 3-6) and the opponent's are harmless: we win at 2,7 or 7,7.
const OPEN_FOUR: &str = "3,7,1\n4,7,1\n5,7,1\n6,7,1\n3,0,2\n5,0,2\n9,9,2\n12,2,2";
const WINS: [(usize, usize); 2] = [(2, 7), (7, 7)];
/// The same with the colours exchanged: the opponent wins, we can only block one end.
const THEIR_OPEN_FOUR: &str = "3,7,2\n4,7,2\n5,7,2\n6,7,2\n3,0,1\n5,0,1\n9,9,1\n12,2,1";

/// A renju position: our stones (black, as both have four) make a real double three at
/// 7,7; the opponent's are in the corners.
const DOUBLE_THREE: &str = "5,7,1\n6,7,1\n7,5,1\n7,6,1\n0,0,2\n0,14,2\n14,0,2\n14,14,2";

fn board(brain: &mut Brain, stones: &str) -> String {
    brain.ask(&format!("BOARD\n{stones}\nDONE"))
}

fn h8_to_xy(s: &str, height: usize) -> (usize, usize) {
    let x = (s.as_bytes()[0] - b'a') as usize;
    let row: usize = s[1..].parse().expect("row number");
    (x, height - row)
}

#[test]
fn about_is_one_line_of_key_value_pairs() {
    let mut b = Brain::start();
    let l = b.ask("ABOUT");
    let mut keys = Vec::new();
    for part in l.split(", ") {
        let (k, v) = part.split_once('=').expect("key=value");
        assert!(
            v.starts_with('"') && v.ends_with('"') && v.len() >= 2,
            "{part}"
        );
        let inner = &v[1..v.len() - 1];
        assert!(
            !inner.contains(',') && !inner.contains('=') && !inner.contains('"'),
            "{part}"
        );
        keys.push(k);
    }
    // Name, version and author always; no placeholder for what we do not have.
    assert_eq!(keys, ["name", "version", "author"]);
    assert!(l.starts_with("name=\"Fivefold\", version=\""));
}

#[test]
fn start_accepts_5_to_32_and_rejects_the_rest() {
    let mut b = Brain::start();
    for ok in [
        "START 5",
        "START 15",
        "START 20",
        "START 32",
        "RECTSTART 20,15",
        "RECTSTART 5,32",
        "start 15 15",
    ] {
        assert_eq!(b.ask(ok), "OK", "{ok}");
    }
    for bad in [
        "START 4",
        "START 33",
        "START -1",
        "START 0",
        "START abc",
        "START",
        "RECTSTART 20,40",
        "RECTSTART 20",
        "RECTSTART 4,4",
    ] {
        assert!(b.ask(bad).starts_with("ERROR "), "{bad}");
    }
    // The last good START still holds: a 5x5 game.
    assert_eq!(b.ask("START 5"), "OK");
    b.send("INFO timeout_turn 100");
    let (x, y) = expect_move(&b.ask("BEGIN"));
    assert!(x < 5 && y < 5);
    assert_eq!(b.ask("RESTART"), "OK");
    b.expect_silence();
}

#[test]
fn commands_before_start_are_errors() {
    let mut b = Brain::start();
    for cmd in [
        "BEGIN",
        "TURN 7,7",
        "PLAY 7,7",
        "TAKEBACK 7,7",
        "RESTART",
        "YXSHOWFORBID",
        "YXNBEST 2",
        "BOARD\n7,7,1\nDONE",
        "SWAP2BOARD\nDONE",
    ] {
        assert!(b.ask(cmd).starts_with("ERROR "), "{cmd}");
    }
    b.expect_silence();
}

#[test]
fn a_game_with_begin_and_turn() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    let mut taken = vec![expect_move(&b.ask("BEGIN"))];
    assert_eq!(taken[0], (7, 7), "the first move is the centre");
    for their in [(8, 8), (6, 6), (9, 5), (5, 9)] {
        if taken.contains(&their) {
            continue;
        }
        taken.push(their);
        let ours = expect_move(&b.ask(&format!("TURN {},{}", their.0, their.1)));
        assert!(ours.0 < 15 && ours.1 < 15);
        assert!(!taken.contains(&ours), "{ours:?} is taken");
        taken.push(ours);
    }
    b.expect_silence();
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    let ours = expect_move(&b.ask("TURN 7,7"));
    let ours_cmd = format!("TURN {},{}", ours.0, ours.1);
    for bad in [
        "TURN 7,7",
        ours_cmd.as_str(),
        "TURN 15,3",
        "TURN 3,15",
        "TURN -1,3",
        "TURN 3",
        "TURN a,b",
        "TURN 1,2,3",
        "TURN 99999999999999999999999999,1",
        "TURN",
        "PLAY 7,7",
        "TAKEBACK 0,0",
        "TAKEBACK 20,20",
        "TAKEBACK x",
        "BOARD\n1,1,1\n2,2,5\nDONE",
        "BOARD\n1,1,1\n1,1,2\nDONE",
        "BOARD\n1,1,1\n99,1,2\nDONE",
        "BOARD\n1,1,1\nbanana\n2,2,2\nDONE",
        "BOARD\n1,1\nDONE",
        "BOARD\n1,1,1\n-3,2,2\nDONE",
        "SWAP2BOARD\n1,1\nDONE",
        "SWAP2BOARD\n1,1\n1,1\n2,2\nDONE",
        "YXBLOCK\n99,99\nDONE",
        "DONE",
        "START 33",
        "RECTSTART 3,3",
        "YXNBEST 0",
        "YXNBEST many",
    ] {
        let l = b.ask(bad);
        assert!(l.starts_with("ERROR "), "{bad:?} gave {l:?}");
    }
    for unknown in ["FROB", "frob 1 2", "7,7,1", "TURNX 1,1"] {
        let l = b.ask(unknown);
        assert!(l.starts_with("UNKNOWN "), "{unknown:?} gave {l:?}");
    }
    // Exactly one reply each.
    b.expect_silence();
    // The game is as it was: both stones are there, nothing from the failed BOARDs.
    assert!(b.ask("TURN 7,7").starts_with("ERROR "));
    assert!(b.ask(&ours_cmd).starts_with("ERROR "));
    assert!(b.ask("TAKEBACK 1,1").starts_with("ERROR "));
    assert!(b.ask("TAKEBACK 2,2").starts_with("ERROR "));
    // And it goes on.
    let next = expect_move(&b.ask("TURN 0,0"));
    assert!(next != (7, 7) && next != ours && next != (0, 0));
}

#[test]
fn info_errors_are_reported_at_the_next_other_command() {
    let mut b = Brain::start();
    // Good values and unknown keys: nothing to report.
    for good in [
        "INFO timeout_turn 1000",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO folder C:\\Program Files\\x",
        "INFO thread_num 2",
        "INFO evaluate 3,4",
        "INFO max_node -1",
        "INFO max_depth 0",
        "INFO hash_size 1024",
        "INFO show_detail 0",
        "INFO time_increment 0",
        "INFO some_future_key 17",
    ] {
        b.send(good);
    }
    b.expect_silence();
    let bad = [
        "INFO rule 12",
        "INFO timeout_turn abc",
        "INFO timeout_match -5",
        "INFO max_memory lots",
        "INFO thread_num 0",
        "INFO game_type 9",
        "INFO evaluate 3",
        "INFO max_depth x",
        "INFO show_detail -1",
        "INFO",
    ];
    for l in &bad[..bad.len() - 1] {
        b.send(l);
    }
    // INFO lines themselves get no reply...
    // ...the errors come before the reply to the next other command (here ABOUT).
    b.send("ABOUT");
    for l in &bad[..bad.len() - 1] {
        let got = b.line();
        assert!(got.starts_with("ERROR INFO "), "for {l}: {got}");
    }
    assert!(b.line().starts_with("name=\""));
    // A bare INFO is malformed right away.
    assert!(b.ask("INFO").starts_with("ERROR "));
    b.expect_silence();
}

#[test]
fn an_impossible_rule_leaves_the_rule_alone() {
    let mut b = Brain::start();
    b.send("INFO rule 4");
    assert_eq!(b.ask("START 15"), "OK");
    b.send(&format!("YXBOARD\n{DOUBLE_THREE}\nDONE"));
    b.send("INFO rule 12");
    b.send("YXSHOWFORBID");
    assert!(b.line().starts_with("ERROR INFO rule"));
    let forbid = b.line();
    assert!(forbid_squares(&forbid).contains(&(7, 7)), "{forbid}");
    // A real rule change applies to the game in progress.
    assert_eq!(b.ask("INFO rule 0\nYXSHOWFORBID"), "FORBID .");
    assert!(forbid_squares(&b.ask("INFO rule 2\nYXSHOWFORBID")).contains(&(7, 7)));
}

#[test]
fn case_crlf_and_blank_lines() {
    let mut b = Brain::start();
    b.send_bytes(b"start 15\r\n");
    assert_eq!(b.reply(), "OK");
    b.send_bytes(b"\r\n\n   \r\ninfo TIMEOUT_TURN 100\r\nBeGiN\r\n");
    assert_eq!(expect_move(&b.reply()), (7, 7));
    b.send_bytes(b"tUrN 8,8\r\n");
    expect_move(&b.reply());
    b.expect_silence();
}

#[test]
fn invalid_utf8_and_overlong_lines_are_survived() {
    let mut b = Brain::start();
    b.send_bytes(b"\xff\xfe\xfd garbage\n");
    assert!(b.reply().starts_with("UNKNOWN "));
    b.send_bytes(b"START 15\n");
    assert_eq!(b.reply(), "OK");
    b.send_bytes(b"TURN \xff,3\n");
    assert!(b.reply().starts_with("ERROR "));
    b.send_bytes(b"INFO timeout_turn 100\nINFO folder \xc3\x28\n");
    let mut long = vec![b'X'; 200_000];
    long.push(b'\n');
    b.send_bytes(&long);
    assert!(b.reply().starts_with("UNKNOWN "));
    b.expect_silence();
    expect_move(&b.ask("BEGIN"));
}

#[test]
fn board_colours_follow_the_stone_counts() {
    let mut b = Brain::start();
    b.send("INFO rule 4");
    assert_eq!(b.ask("START 15"), "OK");
    // As many stones each: we are black, so our double three is forbidden.
    b.send(&format!("YXBOARD\n{DOUBLE_THREE}\nDONE"));
    assert!(forbid_squares(&b.ask("YXSHOWFORBID")).contains(&(7, 7)));
    // The opponent has one more: it is black and our stones are white.
    b.send(&format!("YXBOARD\n{DOUBLE_THREE}\n14,7,2\nDONE"));
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    // Any order is accepted.
    let reversed: Vec<&str> = DOUBLE_THREE.lines().rev().collect();
    b.send(&format!("YXBOARD\n{}\nDONE", reversed.join("\n")));
    assert!(forbid_squares(&b.ask("YXSHOWFORBID")).contains(&(7, 7)));
    b.expect_silence();
}

#[test]
fn black_never_plays_a_forbidden_square() {
    let mut b = Brain::start();
    b.send("INFO rule 4");
    b.new_game(15, 200);
    let m = expect_move(&board(&mut b, DOUBLE_THREE));
    assert_ne!(m, (7, 7), "7,7 is a foul for black");
    // Freestyle: the same square is allowed and wins (two open threes at once).
    b.send("INFO rule 0");
    b.new_game(15, 200);
    assert_eq!(expect_move(&board(&mut b, DOUBLE_THREE)), (7, 7));
}

#[test]
fn continuous_game_marks_are_never_played() {
    let mut b = Brain::start();
    b.new_game(15, 200);
    assert!(WINS.contains(&expect_move(&board(&mut b, OPEN_FOUR))));
    // 7,7 is marked (field 3): the only five left is 2,7.
    assert_eq!(
        expect_move(&board(&mut b, &format!("{OPEN_FOUR}\n7,7,3"))),
        (2, 7)
    );
    // Both marked: any other empty square.
    let m = expect_move(&board(&mut b, &format!("{OPEN_FOUR}\n7,7,3\n2,7,3")));
    assert!(!WINS.contains(&m));
    // A mark is not empty.
    assert!(b.ask("TURN 7,7").starts_with("ERROR "));
}

#[test]
fn takeback_and_play() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    assert_eq!(b.ask("PLAY 7,7"), "7,7");
    let ours = expect_move(&b.ask("TURN 8,8"));
    assert_eq!(b.ask(&format!("TAKEBACK {},{}", ours.0, ours.1)), "OK");
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    assert!(b.ask("TAKEBACK 7,7").starts_with("ERROR "));
    // The board is empty again: the engine opens in the centre.
    assert_eq!(b.ask("BEGIN"), "7,7");
    // Taking back a stone that is not the last one.
    let ours = expect_move(&b.ask("TURN 0,0"));
    assert_eq!(b.ask("TAKEBACK 0,0"), "OK");
    let again = expect_move(&b.ask("TURN 0,0"));
    assert!(again != ours && again != (7, 7) && again != (0, 0));
    // PLAY on an occupied square is refused.
    assert!(b.ask("PLAY 7,7").starts_with("ERROR "));
    assert_eq!(b.ask("RESTART"), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7");
}

#[test]
fn messages_show_depth_score_nodes_speed_time_and_pv() {
    let mut b = Brain::start();
    b.new_game(15, 300);
    let lines = b.ask_all(&format!("BOARD\n{OPEN_FOUR}\nDONE"));
    let mv = expect_move(lines.last().unwrap());
    assert!(WINS.contains(&mv));
    let msg = lines
        .iter()
        .find(|l| l.starts_with("MESSAGE depth "))
        .expect("a depth message");
    let words: Vec<&str> = msg.split(' ').collect();
    assert_eq!(words[1], "depth");
    assert!(words[2].contains('-'));
    assert_eq!((words[3], words[4]), ("ev", "+M1"));
    assert_eq!(
        (words[5], words[7], words[9], words[11]),
        ("n", "n/s", "tm", "pv")
    );
    assert_eq!(h8_to_xy(words[12], 15), mv);
    // Detail mode for GUIs that display the engine's thinking.
    b.send("INFO show_detail 1");
    let lines = b.ask_all(&format!("BOARD\n{OPEN_FOUR}\nDONE"));
    let mv = expect_move(lines.last().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("MESSAGE Depth 1-1 | Eval +M1 | Nodes ") && l.contains("| PV ")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)),
        "{lines:?}"
    );
    // Losing: the opponent has the open four and we cannot stop both ends.
    b.send("INFO show_detail 0");
    let lines = b.ask_all(&format!("BOARD\n{THEIR_OPEN_FOUR}\nDONE"));
    assert!(lines.iter().any(|l| l.contains(" ev -M")), "{lines:?}");
    assert!(
        WINS.contains(&expect_move(lines.last().unwrap())),
        "blocks one end"
    );
}

#[test]
fn end_in_the_middle_of_a_long_search_exits_within_200ms() {
    let mut b = Brain::start();
    b.new_game(15, 60_000);
    b.send("BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE");
    // Wait until the search is under way (its first depth is reported).
    assert!(b.line().starts_with("MESSAGE "));
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    b.send("END");
    let status = b
        .wait_exit(Duration::from_secs(5))
        .expect("the engine exits");
    let took = t.elapsed();
    assert!(status.success());
    assert!(took < Duration::from_millis(200), "END took {took:?}");
}

#[test]
fn stop_answers_with_the_best_move_so_far() {
    for stop in ["STOP", "YXSTOP", "yxstop"] {
        let mut b = Brain::start();
        b.new_game(15, 60_000);
        b.send("BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE");
        assert!(b.line().starts_with("MESSAGE "));
        let t = Instant::now();
        b.send(stop);
        let (x, y) = expect_move(&b.reply());
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{stop} took {:?}",
            t.elapsed()
        );
        assert!(![(7, 7), (8, 8), (8, 6)].contains(&(x, y)));
        // Nothing running now: a stop has nothing to answer.
        b.send(stop);
        b.expect_silence();
    }
}

#[test]
fn commands_during_a_search_wait_for_the_answer() {
    let mut b = Brain::start();
    b.new_game(15, 60_000);
    b.send("BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE");
    assert!(b.line().starts_with("MESSAGE "));
    b.send("ABOUT\nINFO timeout_turn 100\nYXSTOP");
    let mv = b.reply();
    expect_move(&mv);
    assert!(
        b.reply().starts_with("name=\""),
        "ABOUT is answered after the move"
    );
    // The INFO sent during the search applies to the next one.
    let t = Instant::now();
    expect_move(&b.ask("TURN 0,0"));
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn end_of_input_finishes_the_search_and_exits_0() {
    let mut b = Brain::start();
    b.send("START 15\nINFO timeout_turn 200\nBEGIN");
    b.close_input();
    assert_eq!(b.reply(), "OK");
    assert_eq!(b.reply(), "7,7");
    let status = b
        .wait_exit(Duration::from_secs(5))
        .expect("exits at end of input");
    assert!(status.success());
    // Idle at end of input.
    let mut b = Brain::start();
    b.close_input();
    assert!(b
        .wait_exit(Duration::from_secs(5))
        .expect("exits")
        .success());
}

#[test]
fn end_exits_0_even_inside_a_board_block() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    b.send("BOARD\n7,7,1\nEND");
    assert!(b
        .wait_exit(Duration::from_secs(5))
        .expect("exits")
        .success());
}

#[test]
fn a_command_inside_a_block_cuts_it_short() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    b.send("BOARD\n7,7,1\n8,8,2\nBEGIN");
    assert!(b.reply().starts_with("ERROR BOARD"));
    // BEGIN still runs, on the old (empty) board.
    assert_eq!(b.reply(), "7,7");
}

#[test]
fn unknown_startup_options_still_speak_the_protocol() {
    let mut b = Brain::with_args(&["--whatever"]);
    assert_eq!(b.ask("START 15"), "OK");
}

#[test]
fn time_limits_are_kept() {
    let mut b = Brain::start();
    // Per move.
    b.new_game(15, 300);
    let t = Instant::now();
    expect_move(&board(&mut b, "7,7,1\n8,8,2\n8,6,1"));
    assert!(
        t.elapsed() < Duration::from_millis(600),
        "{:?}",
        t.elapsed()
    );
    // Match time: little left, though the per-move limit is long.
    b.send("INFO timeout_turn 60000\nINFO timeout_match 100000\nINFO time_left 1000");
    let t = Instant::now();
    expect_move(&board(&mut b, "7,7,1\n8,8,2\n8,6,1"));
    assert!(
        t.elapsed() < Duration::from_millis(700),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn depth_and_node_limits_stop_the_search() {
    let mut b = Brain::start();
    b.new_game(15, 60_000);
    b.send("INFO max_depth 2");
    let t = Instant::now();
    let lines = b.ask_all("BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE");
    expect_move(lines.last().unwrap());
    assert!(t.elapsed() < Duration::from_secs(10));
    for l in &lines[..lines.len() - 1] {
        let d: i32 = l
            .split(' ')
            .nth(2)
            .unwrap()
            .split('-')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(d <= 2, "{l}");
    }
    b.send("INFO max_depth 0\nINFO max_node 2000");
    let t = Instant::now();
    expect_move(&board(&mut b, "7,7,1\n8,8,2\n8,6,1"));
    assert!(t.elapsed() < Duration::from_secs(10));
}

#[test]
fn extreme_numbers_are_survived() {
    let mut b = Brain::start();
    b.new_game(15, 100);
    let huge = "18446744073709551615";
    for key in [
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "hash_size",
        "max_node",
        "max_depth",
        "thread_num",
    ] {
        b.send(&format!("INFO {key} {huge}"));
    }
    b.send("INFO max_memory 0\nINFO hash_size 0\nINFO thread_num 1\nINFO max_depth 0");
    // The memory settings beyond the machine are said, before the next reply; nothing
    // else is.
    let lines = b.ask_all("ABOUT");
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, key) in lines.iter().zip(["max_memory", "hash_size"]) {
        assert!(
            line.starts_with(&format!(
                "MESSAGE INFO {key} {huge}: more than this machine has"
            )),
            "{lines:?}"
        );
    }
    assert!(lines[2].starts_with("name=\"Fivefold\""), "{lines:?}");
    // No time limit to speak of: the opening move needs no search, the next is stopped.
    assert_eq!(b.ask("BEGIN"), "7,7");
    b.send("TURN 8,8");
    assert!(b.line().starts_with("MESSAGE "));
    expect_move(&b.ask("YXSTOP"));
    b.send("INFO timeout_turn 100\nINFO timeout_match 0");
    expect_move(&b.ask("TURN 0,0"));
    // As many lines as there are candidates; a count beyond 64-bit integers is malformed.
    expect_move(&b.ask("YXNBEST 9223372036854775807"));
    assert!(b.ask(&format!("YXNBEST {huge}")).starts_with("ERROR "));
    // A number too long for any integer type is not a number.
    b.send(&format!("INFO time_left {}", "9".repeat(50)));
    assert!(b.ask("ABOUT").starts_with("ERROR INFO time_left"));
}

#[test]
fn memory_and_thread_settings_are_accepted() {
    let mut b = Brain::start();
    for setting in [
        "INFO max_memory 20000000",
        "INFO max_memory 1000",
        "INFO hash_size 4096",
        "INFO max_memory 0",
        "INFO thread_num 4",
    ] {
        b.send(setting);
        b.new_game(15, 100);
        expect_move(&b.ask("BEGIN"));
    }
    b.expect_silence();
}

#[test]
fn swap2_openings_and_choices() {
    let mut b = Brain::start();
    b.send("INFO rule 1");
    b.new_game(15, 300);
    // Three stones of our own.
    let l = b.ask("SWAP2BOARD\nDONE");
    let stones: Vec<(usize, usize)> = l
        .split(' ')
        .map(|s| parse_xy(s).expect("a square"))
        .collect();
    assert_eq!(stones.len(), 3, "{l}");
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    assert!(stones.iter().all(|&(x, y)| x < 15 && y < 15));
    // Given three: SWAP, the fourth stone, or the fourth and fifth.
    let given = [(7, 7), (8, 7), (9, 9)];
    let l = b.ask("SWAP2BOARD\n7,7\n8,7\n9,9\nDONE");
    if l != "SWAP" {
        let ours: Vec<(usize, usize)> = l
            .split(' ')
            .map(|s| parse_xy(s).expect("a square"))
            .collect();
        assert!(ours.len() == 1 || ours.len() == 2, "{l}");
        assert!(ours
            .iter()
            .all(|p| !given.contains(p) && p.0 < 15 && p.1 < 15));
        if ours.len() == 2 {
            assert_ne!(ours[0], ours[1]);
        }
    }
    // Given five: SWAP or the sixth stone.
    let given = [(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)];
    let l = b.ask("SWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE");
    if l != "SWAP" {
        let p = expect_move(&l);
        assert!(!given.contains(&p));
    }
    // Black has an open three and white's stones are far away: take black.
    assert_eq!(b.ask("SWAP2BOARD\n6,7\n0,0\n7,7\n14,14\n8,7\nDONE"), "SWAP");
    // Other stone counts are errors.
    assert!(b.ask("SWAP2BOARD\n7,7\nDONE").starts_with("ERROR "));
    assert!(b
        .ask("SWAP2BOARD\n7,7\n8,8\n7,7\nDONE")
        .starts_with("ERROR "));
    b.expect_silence();
}

#[test]
fn yixin_board_conversation() {
    let mut b = Brain::start();
    b.send("info show_detail 1\nyxshowinfo");
    assert!(b.line().starts_with("MESSAGE Fivefold"));
    assert!(b.line().starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert!(b.line().starts_with("MESSAGE INFO MAX_HASH_SIZE "));
    assert_eq!(b.ask("start 15 15"), "OK");
    b.send("INFO rule 2\nINFO timeout_turn 300\nINFO timeout_match 100000\nINFO time_left 100000\nINFO hash_size 8192\nINFO vcthread 0");
    // yxboard sets the position without a reply.
    b.send(&format!("yxboard\n{DOUBLE_THREE}\ndone"));
    assert!(forbid_squares(&b.ask("yxshowforbid")).contains(&(7, 7)));
    // A database query block is answered once, not line by line: with no database
    // open, an empty board of database marks.
    b.send("yxquerydatabaseall\n5,7\n6,7\n7,5\n7,6\n0,0\ndone");
    assert_eq!(b.line(), "MESSAGE DATABASE REFRESH");
    assert_eq!(b.line(), "MESSAGE DATABASE DONE");
    b.expect_silence();
    // A path that cannot be a database: an error, and the engine goes on without one.
    // No loading markers: this is Yixin-Board 2 (`start 15 15`), which crashes on them.
    b.send("yxsetdatabase\n/nonexistent-dir/sub/db");
    assert!(b.line().starts_with("ERROR YXSETDATABASE: "));
    b.expect_silence();
    b.send("yxhashclear");
    b.expect_silence();
    // The best three moves, then the best as the answer.
    let lines = b.ask_all("yxnbest 3");
    let mv = expect_move(lines.last().unwrap());
    assert_ne!(mv, (7, 7), "never a foul for black");
    let last_round: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE ("))
        .collect();
    assert!(last_round.len() >= 3, "{lines:?}");
    let tail = &last_round[last_round.len() - 3..];
    for (k, l) in tail.iter().enumerate() {
        assert!(l.starts_with(&format!("MESSAGE ({}) Depth ", k + 1)), "{l}");
    }
    let firsts: Vec<(usize, usize)> = tail
        .iter()
        .map(|l| {
            h8_to_xy(
                l.split("| PV ").nth(1).unwrap().split(' ').next().unwrap(),
                15,
            )
        })
        .collect();
    // Yixin-Board (it sent yxshowinfo and INFO vcthread) means row,column: the names
    // are transposed.
    assert_eq!(firsts[0], (mv.1, mv.0));
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)));
}

#[test]
fn blocked_squares_are_avoided_until_reset() {
    let mut b = Brain::start();
    b.new_game(15, 200);
    b.send("yxblock\n2,7\n7,7\ndone");
    b.expect_silence();
    let m = expect_move(&board(&mut b, OPEN_FOUR));
    assert!(!WINS.contains(&m), "{m:?} is blocked");
    b.send("yxblockundo\n2,7\ndone");
    assert_eq!(expect_move(&board(&mut b, OPEN_FOUR)), (2, 7));
    b.send("yxblockreset");
    assert!(WINS.contains(&expect_move(&board(&mut b, OPEN_FOUR))));
}

#[test]
fn nbest_reports_distinct_lines_best_first() {
    let mut b = Brain::start();
    b.new_game(15, 400);
    b.send("YXBOARD\n7,7,1\n8,8,2\n8,6,1\n6,8,2\nDONE");
    let lines = b.ask_all("YXNBEST 4");
    let mv = expect_move(lines.last().unwrap());
    let multi: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE multipv "))
        .collect();
    assert!(multi.len() >= 4, "{lines:?}");
    let last = &multi[multi.len() - 4..];
    let mut seen = Vec::new();
    let mut prev_score = i64::MAX;
    for (k, l) in last.iter().enumerate() {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w[2], (k + 1).to_string(), "{l}");
        let score: i64 = w[6].parse().expect("a plain score");
        assert!(score <= prev_score, "{last:?}");
        prev_score = score;
        let first = h8_to_xy(w[14], 15);
        assert!(!seen.contains(&first));
        seen.push(first);
    }
    assert_eq!(seen[0], mv);
    // The answer was played: the square is taken now.
    assert!(b
        .ask(&format!("TURN {},{}", mv.0, mv.1))
        .starts_with("ERROR "));
}

#[test]
fn a_script_may_send_everything_at_once() {
    let mut b = Brain::start();
    // The TURN arrives while the BOARD search runs; its own time starts after that answer.
    b.send("START 15\nINFO timeout_turn 600\nBOARD\n7,7,1\n8,8,2\n8,6,1\nDONE\nTURN 9,9");
    assert_eq!(b.reply(), "OK");
    expect_move(&b.reply());
    let mut turn = Vec::new();
    loop {
        let l = b.line();
        let done = !l.starts_with("MESSAGE ");
        turn.push(l);
        if done {
            break;
        }
    }
    expect_move(turn.last().unwrap());
    // Depth 2 or more: a completed iteration, or a threat-space win reported with its
    // length as the depth.
    let deepest = turn
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE depth "))
        .filter_map(|l| l.split('-').next()?.parse::<u32>().ok())
        .max();
    assert!(
        deepest >= Some(2),
        "the queued TURN searched deeper than one ply: {turn:?}"
    );
}

/// A depth-6 search with one thread of a fixed position after the given `INFO` lines:
/// the other lines before the move (errors and notices about the settings), the
/// progress lines without their timing (`n/s`, `tm`), and the move.
fn search_after(infos: &[&str]) -> (Vec<String>, Vec<String>, String) {
    let mut b = Brain::start();
    b.send("INFO thread_num 1");
    b.new_game(15, 60_000);
    b.send("INFO max_depth 6");
    for l in infos {
        b.send(l);
    }
    b.send("BOARD\n7,7,1\n8,8,2\n8,6,1\n6,8,2\nDONE");
    let mut lines = Vec::new();
    let mv = loop {
        let l = b.line();
        if parse_xy(&l).is_some() {
            break l;
        }
        lines.push(l);
    };
    let (progress, other): (Vec<String>, Vec<String>) = lines
        .into_iter()
        .partition(|l| l.starts_with("MESSAGE depth "));
    let progress = progress
        .iter()
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if words[i] == "n/s" || words[i] == "tm" {
                    i += 2;
                } else {
                    kept.push(words[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        })
        .collect();
    b.expect_silence();
    (other, progress, mv)
}

#[test]
fn search_parameters_are_set_by_info() {
    let default = search_after(&[]);
    assert!(default.0.is_empty(), "{:?}", default.0);
    assert_eq!(default.1.len(), 6, "{:?}", default.1);
    // Setting the default changes nothing; any other value is the search's from then on
    // (the key in any case, as every INFO key).
    assert_eq!(search_after(&["INFO rfp_margin 60"]), default);
    let off = search_after(&["INFO rfp_margin 0", "INFO Razor_Margin 0"]);
    assert!(off.0.is_empty(), "{:?}", off.0);
    assert_ne!(off.1, default.1, "the same search without the pruning");
    assert_eq!(
        search_after(&["INFO razor_margin 0", "INFO rfp_margin 0"]),
        off
    );
    let no_move_count = search_after(&["INFO move_count 0"]);
    assert_ne!(no_move_count.1, default.1);
    // The last setting counts.
    assert_eq!(
        search_after(&["INFO move_count 0", "INFO move_count 4"]),
        default
    );
}

#[test]
fn a_bad_search_parameter_value_leaves_the_session_working() {
    let default = search_after(&[]);
    // Not a number: an error before the next reply, and the parameter keeps its value.
    let (other, progress, mv) = search_after(&["INFO rfp_margin abc"]);
    assert_eq!(other.len(), 1, "{other:?}");
    assert!(other[0].starts_with("ERROR INFO rfp_margin"), "{other:?}");
    assert_eq!((progress, mv), (default.1.clone(), default.2.clone()));
    // Out of range: held to the range, with a message before the next reply.
    let top = search_after(&["INFO rfp_margin 1000"]);
    let (other, progress, mv) = search_after(&["INFO rfp_margin 99999"]);
    assert_eq!(
        other,
        ["MESSAGE INFO rfp_margin: 99999 is outside 0..1000, set to 1000"]
    );
    assert_eq!((progress, mv), (top.1.clone(), top.2.clone()));
    let (other, progress, _) = search_after(&["INFO rfp_margin 18446744073709551615000"]);
    assert_eq!(other.len(), 1, "{other:?}");
    assert_eq!(progress, top.1);
    let zero = search_after(&["INFO rfp_margin 0"]);
    let (other, progress, _) = search_after(&["INFO rfp_margin -5"]);
    assert!(other[0].ends_with("set to 0"), "{other:?}");
    assert_eq!(progress, zero.1);
    // A name that is no parameter (here the old short key) is ignored, as any unknown
    // INFO key: no reply, no effect.
    assert_eq!(search_after(&["INFO rfp 0", "INFO nmp_depth 4"]), default);
}

#[test]
fn block_paths_and_forbidden_points_check_their_input() {
    let mut b = Brain::start();
    // Before any game.
    assert!(b
        .ask("yxblockpath\n7,7\n8,8\ndone")
        .starts_with("ERROR YXBLOCKPATH: no game; send START first"));
    assert!(b
        .ask("yxforbid add 7 7 0")
        .starts_with("ERROR YXFORBID: no game; send START first"));
    b.new_game(15, 200);
    // A path through a renju foul is not a game.
    b.send("INFO rule 4");
    let foul = "yxblockpath\n5,7\n0,0\n6,7\n0,14\n7,5\n14,0\n7,6\n14,14\n7,7\n13,13\n1,1\ndone";
    assert_eq!(
        b.ask(foul),
        "ERROR YXBLOCKPATH: 7,7 is a foul for black; nothing changed"
    );
    // The same path's last move may be a foul: blocking it changes nothing in play.
    b.send("yxblockpath\n5,7\n0,0\n6,7\n0,14\n7,5\n14,0\n7,6\n14,14\n7,7\ndone");
    assert_eq!(b.line(), "MESSAGE blockpath: 1 path blocked (1 in all)");
    b.send("INFO rule 0");
    // A path that goes on after a five.
    let five = "yxblockpath\n0,0\n0,5\n1,0\n1,5\n2,0\n2,5\n3,0\n3,5\n4,0\n4,5\n9,9\ndone";
    assert_eq!(
        b.ask(five),
        "ERROR YXBLOCKPATH: 4,5 follows a five; nothing changed"
    );
    // A block line that is not a square, a command before done.
    assert!(b
        .ask("yxblockpath\n7,7\n8,8,x\ndone")
        .starts_with("ERROR YXBLOCKPATH: '8,8,x' is not a square"));
    let l = b.ask("yxblockpath\n7,7\nABOUT");
    assert!(
        l.starts_with("ERROR YXBLOCKPATH ended by 'ABOUT' before DONE"),
        "{l}"
    );
    assert!(b.reply().starts_with("name=\"Fivefold\""));
    // The game is intact: the engine still wins with its open four.
    assert!(WINS.contains(&expect_move(&board(&mut b, OPEN_FOUR))));
    b.send("yxblockpathreset");
    assert_eq!(b.line(), "MESSAGE blockpath: 1 path removed (0 in all)");
    b.expect_silence();
}
