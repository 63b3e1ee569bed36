//! Yixin-Board's commands, with the exact lines the GUI sends and the replies it parses,
//! both taken from its source (dhbloo/Yixin-Board `main.c`, the GTK3 3.x GUI shipped
//! with Rapfi; accreator/Yixin-Board `main.c` for 2.x, which sends and parses the same
//! lines for these commands):
//!
//! - start-up (`init_engine`): `info show_detail 3` (2.x: `1`), `yxshowinfo`, `START 15`;
//! - a position (`send_board`): `start 15`, `board` or `yxboard`, one `row,column,field`
//!   line per stone in move order (field 1 the side to move's), `done`;
//! - `yxsearchdefend`, `yxbalanceone s` / `yxbalancetwo s`, `yxshowhashusage`,
//!   `yxswap2step1` (alone), `yxswap2step2` / `yxswap2step3` (after `yxboard`);
//! - it reads `MESSAGE SWAP2 MOVEk %d %d`, `MESSAGE SWAP2 SWAP1 YES|NO`,
//!   `MESSAGE SWAP2 SWAP2 YES|NO`, `MESSAGE REALTIME BEST|LOSE|POS|DONE %d,%d`,
//!   `INFO PV|NUMPV|DEPTH|EVAL|WINRATE|BESTLINE …` and moves as `%d,%d %d,%d`, every
//!   pair as its own (row, column);
//! - Yixin-Board 2.1 also plays on rectangles: `START w h` / `start w h` (columns, rows,
//!   sent with both sizes even for a square board), squares still `row,column`; it
//!   reads only `MESSAGE DATABASE REFRESH|DONE|ONE` and records, and crashes on the
//!   loading markers Yixin-Board 3 reads.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// `yxshowhashusage`'s answer: the share of the table in use, in percent.
fn hash_usage(b: &mut Brain) -> f64 {
    b.send("yxshowhashusage");
    let l = b.line();
    let rest = l
        .strip_prefix("MESSAGE Hash usage: ")
        .unwrap_or_else(|| panic!("{l}"));
    assert!(rest.ends_with(" (transposition table)"), "{l}");
    rest.split('%').next().unwrap().parse().unwrap()
}

/// What Yixin-Board 3 sends when it starts the engine (`init_engine`): `info
/// show_detail 3`, `yxshowinfo`, `START 15`, the custom level's time settings
/// (`set_level`), then caution factor, threads, hash size, pondering and `INFO
/// vcthread`.
fn yixin(turn_ms: u64) -> Brain {
    let mut b = Brain::start();
    b.send("info show_detail 3\nyxshowinfo");
    assert!(b.line().starts_with("MESSAGE Fivefold"));
    assert!(b.line().starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert!(b.line().starts_with("MESSAGE INFO MAX_HASH_SIZE "));
    assert_eq!(b.ask("START 15"), "OK");
    b.send(&format!(
        "INFO timeout_turn {turn_ms}\nINFO timeout_match 100000000\n\
         INFO time_left 100000000\nINFO max_node -1\nINFO max_depth 225\n\
         INFO time_increment 0\nINFO caution_factor 1\nINFO thread_num 1\n\
         INFO hash_size 65536\nINFO pondering 0\nINFO vcthread 0"
    ));
    b
}

/// `send_board`: `start 15` (answered `OK`), then the stones (row,column) in move order,
/// field 1 for the side to move; returns the board command to send after it.
fn position(b: &mut Brain, stones: &[(usize, usize)], think: bool) -> String {
    assert_eq!(b.ask("start 15"), "OK");
    let n = stones.len();
    let mut s = format!("{}\n", if think { "board" } else { "yxboard" });
    for (i, &(r, c)) in stones.iter().enumerate() {
        let field = if n % 2 == i % 2 { 1 } else { 2 };
        s.push_str(&format!("{r},{c},{field}\n"));
    }
    s.push_str("done");
    s
}

/// A square's name on Yixin-Board's board for the GUI's (row, column): column letter,
/// rows counted up from the bottom.
fn gui_name((row, col): (usize, usize)) -> String {
    format!("{}{}", (b'a' + col as u8) as char, 15 - row)
}

fn pair(s: &str) -> (usize, usize) {
    parse_xy(s).unwrap_or_else(|| panic!("not a square: {s}"))
}

// The engine (white, to move) faces black's open three on row 7, columns 7..9:
//
//        col: 0 1 2 3 4 5 6 7 8 9 10
//   row 7     . . . . . . . X X X .      X black, O white
//   row 8     . . . . . . . . O . .
//   row 9     . . . . . . . . . . O
//
// Black threatens g8/k8 (the GUI's names): only 7,6 and 7,10 stop the open four.
const THREE: [(usize, usize); 5] = [(7, 7), (8, 8), (7, 8), (9, 10), (7, 9)];

/// Four stones in the centre, nobody threatening anything.
const QUIET: [(usize, usize); 4] = [(7, 7), (8, 8), (8, 6), (6, 8)];

#[test]
fn thinking_names_the_squares_the_gui_means() {
    let mut b = yixin(300);
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    let mv = expect_move(lines.last().unwrap());
    assert!([(7, 6), (7, 10)].contains(&mv), "{lines:?}");
    // The PV starts with the move played, named as the GUI names that square.
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split("| PV ").nth(1))
        .expect("a thinking line");
    assert_eq!(pv.split(' ').next().unwrap(), gui_name(mv), "{lines:?}");
    // The realtime marker and BESTLINE are protocol squares, as the GUI reads them.
    assert!(lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)));
    let best = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("INFO BESTLINE "))
        .expect("INFO BESTLINE");
    assert_eq!(pair(best.split(' ').next().unwrap()), mv);

    // INFO square_names 0: plain names (x is the column), as for other GUIs.
    b.send("INFO square_names 0");
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    let mv = expect_move(lines.last().unwrap());
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split("| PV ").nth(1))
        .unwrap();
    assert_eq!(pv.split(' ').next().unwrap(), gui_name((mv.1, mv.0)));
    assert!(b
        .ask("INFO square_names 3\nABOUT")
        .starts_with("ERROR INFO square_names: 3"));
}

#[test]
fn other_managers_get_plain_names_unless_they_ask() {
    let mut b = Brain::start();
    b.new_game(15, 200);
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    let mv = expect_move(lines.last().unwrap());
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" pv ").nth(1))
        .unwrap();
    assert_eq!(pv.split(' ').next().unwrap(), gui_name((mv.1, mv.0)));
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("INFO ") || l.contains("REALTIME")));
    b.send("INFO square_names 1");
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    let mv = expect_move(lines.last().unwrap());
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" pv ").nth(1))
        .unwrap();
    assert_eq!(pv.split(' ').next().unwrap(), gui_name(mv));
}

/// Other tools send `YXSHOWINFO` too (to get Rapfi's GUI messages) with squares as
/// column,row; without Yixin-Board's `INFO vcthread` the names stay plain.
#[test]
fn yxshowinfo_alone_does_not_transpose_names() {
    let mut b = Brain::start();
    b.send("YXSHOWINFO\nINFO SHOW_DETAIL 2");
    for _ in 0..3 {
        assert!(b.line().starts_with("MESSAGE "));
    }
    b.new_game(15, 200);
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    let mv = expect_move(lines.last().unwrap());
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split("| PV ").nth(1))
        .unwrap();
    assert_eq!(pv.split(' ').next().unwrap(), gui_name((mv.1, mv.0)));
}

#[test]
fn realtime_lines_follow_show_detail() {
    let mut b = yixin(300);
    {
        let c = position(&mut b, &QUIET, false);
        b.send(&c)
    };
    let lines = b.ask_all("yxnbest 3");
    let mv = expect_move(lines.last().unwrap());
    // One INFO block per line of the last round: PV k, NUMPV 3, …, PV DONE.
    let start = lines
        .iter()
        .rposition(|l| l == "INFO PV 0")
        .expect("INFO PV 0");
    let block: Vec<&str> = lines[start..start + 12]
        .iter()
        .map(|s| s.as_str())
        .collect();
    let keys: Vec<&str> = block.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(
        keys,
        [
            "PV",
            "NUMPV",
            "DEPTH",
            "SELDEPTH",
            "NODES",
            "TOTALNODES",
            "TOTALTIME",
            "SPEED",
            "EVAL",
            "WINRATE",
            "BESTLINE",
            "PV"
        ]
    );
    assert_eq!(block[1], "INFO NUMPV 3");
    assert_eq!(block[11], "INFO PV DONE");
    let winrate: f64 = block[9]["INFO WINRATE ".len()..].parse().unwrap();
    assert!((0.0..=1.0).contains(&winrate));
    assert_eq!(
        pair(
            block[10]["INFO BESTLINE ".len()..]
                .split(' ')
                .next()
                .unwrap()
        ),
        mv
    );
    assert!(lines[start..].contains(&"INFO PV 2".to_string()));
    // The realtime markers: searched squares, then the best.
    assert!(lines.contains(&"MESSAGE REALTIME REFRESH".to_string()));
    assert!(lines.contains(&format!("MESSAGE REALTIME DONE {},{}", mv.0, mv.1)));
    assert!(lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)));
    // Facing black's open four (row 7, columns 3 to 6), both blocks lose: marked lost.
    let four = [(7, 3), (0, 0), (7, 4), (0, 14), (7, 5), (14, 0), (7, 6)];
    let lines = {
        let c = position(&mut b, &four, false);
        b.send(&c);
        b.ask_all("yxnbest 3")
    };
    for end in ["7,2", "7,7"] {
        assert!(
            lines.contains(&format!("MESSAGE REALTIME LOSE {end}")),
            "{lines:?}"
        );
    }

    // show_detail 1 (Yixin-Board 2.x): realtime markers, no INFO blocks.
    b.send("info show_detail 1");
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE REALTIME BEST ")));
    assert!(!lines.iter().any(|l| l.starts_with("INFO ")));
    b.send("info show_detail 0");
    let lines = {
        let c = position(&mut b, &THREE, true);
        b.ask_all(&c)
    };
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("INFO ") || l.contains("REALTIME")));
}

#[test]
fn search_defend_answers_a_defence_in_time() {
    let mut b = yixin(1000);
    b.send("info show_detail 0");
    {
        let c = position(&mut b, &THREE, false);
        b.send(&c)
    };
    let t = Instant::now();
    let lines = b.ask_all("yxsearchdefend");
    let took = t.elapsed();
    let mv = expect_move(lines.last().unwrap());
    assert!([(7, 6), (7, 10)].contains(&mv), "{lines:?}");
    // The defences, named as the GUI names them.
    let said = lines
        .iter()
        .find(|l| l.starts_with("MESSAGE defend: the opponent has a VCF: "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        said.ends_with(&format!(
            "; 2 defences: {} {}",
            gui_name((7, 6)),
            gui_name((7, 10))
        )) || said.ends_with(&format!(
            "; 2 defences: {} {}",
            gui_name((7, 10)),
            gui_name((7, 6))
        )),
        "{said}"
    );
    assert!(took < Duration::from_millis(2500), "{took:?}");
    // Both defences were searched, each as one line of the analysis.
    assert!(lines.iter().any(|l| l.starts_with("MESSAGE multipv 2 ")));

    // Renju, black to move: white's open three (5..7,7) with 8,7 a double three for
    // black, so white's split four through 8,7 cannot be stopped.
    b.send("INFO rule 2");
    let lost = [
        (8, 5),
        (5, 7),
        (8, 6),
        (6, 7),
        (9, 8),
        (7, 7),
        (10, 9),
        (14, 14),
    ];
    let lines = {
        let c = position(&mut b, &lost, false);
        b.send(&c);
        b.ask_all("yxsearchdefend")
    };
    assert!(
        lines.iter().any(
            |l| l.starts_with("MESSAGE defend: the opponent has a VCF: ")
                && l.ends_with("; no move stops it, every move searched")
        ),
        "{lines:?}"
    );
    let mv = expect_move(lines.last().unwrap());
    assert_ne!(mv, (8, 7), "a foul");
    b.send("INFO rule 0");

    // A quiet position: every candidate is searched, and the best one answered.
    {
        let c = position(&mut b, &[(7, 7), (8, 8)], false);
        b.send(&c)
    };
    let lines = b.ask_all("yxsearchdefend");
    expect_move(lines.last().unwrap());
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE defend: no forced win found for the opponent; ")));
    b.expect_silence();
}

#[test]
fn swap2_steps_answer_as_the_gui_reads_them() {
    let mut b = yixin(1000);
    b.send("INFO rule 1");
    // Step 1, sent alone on a new game: three stones, black, white, black.
    b.send("yxswap2step1");
    let mut stones = Vec::new();
    for k in 1..=3 {
        let l = b.line();
        let rest = l
            .strip_prefix(&format!("MESSAGE SWAP2 MOVE{k} "))
            .unwrap_or_else(|| panic!("{l}"));
        let v: Vec<usize> = rest.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(v.len(), 2);
        assert!(v[0] < 15 && v[1] < 15);
        stones.push((v[0], v[1]));
    }
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    b.expect_silence();

    // Step 2 after three stones of the human's: black has two together, white's stone
    // is in a corner. The engine takes black.
    {
        let c = position(&mut b, &[(7, 6), (0, 0), (7, 7)], false);
        b.send(&c)
    };
    b.send("yxswap2step2");
    assert_eq!(b.line(), "MESSAGE SWAP2 SWAP1 YES");
    b.expect_silence();
    // An even opening: any of the three answers, each in the GUI's form.
    {
        let c = position(&mut b, &[(7, 7), (7, 8), (9, 9)], false);
        b.send(&c)
    };
    b.send("yxswap2step2");
    let l = b.line();
    if let Some(rest) = l.strip_prefix("MESSAGE SWAP2 MOVE4 ") {
        let l5 = b.line();
        let rest5 = l5
            .strip_prefix("MESSAGE SWAP2 MOVE5 ")
            .expect("MOVE5 after MOVE4");
        assert_ne!(rest, rest5);
    } else {
        assert!(
            l == "MESSAGE SWAP2 SWAP1 YES" || l == "MESSAGE SWAP2 SWAP1 NO",
            "{l}"
        );
    }
    b.expect_silence();

    // Step 3 after five stones: black has an open three, so the engine takes black.
    {
        let c = position(&mut b, &[(7, 6), (0, 0), (7, 7), (14, 14), (7, 8)], false);
        b.send(&c)
    };
    b.send("yxswap2step3");
    assert_eq!(b.line(), "MESSAGE SWAP2 SWAP2 YES");
    // White's open three instead: the engine takes white, and then plays the sixth
    // stone when the GUI sends the board.
    {
        let c = position(&mut b, &[(0, 0), (7, 6), (14, 14), (7, 7), (0, 14)], false);
        b.send(&c)
    };
    b.send("yxswap2step3");
    assert_eq!(b.line(), "MESSAGE SWAP2 SWAP2 NO");
    let mv = expect_move(&{
        let c = position(&mut b, &[(0, 0), (7, 6), (14, 14), (7, 7), (0, 14)], true);
        b.ask(&c)
    });
    assert!(![(0, 0), (7, 6), (14, 14), (7, 7), (0, 14)].contains(&mv));
    // The wrong number of stones is an error, and the game goes on.
    {
        let c = position(&mut b, &[(7, 7)], false);
        b.send(&c)
    };
    assert!(b
        .ask("yxswap2step2")
        .starts_with("ERROR YXSWAP2STEP2: 1 stones"));
}

#[test]
fn balance_one_and_two_answer_moves_in_time() {
    let mut b = yixin(800);
    let stones = [(7, 7), (7, 8), (8, 9)];
    {
        let c = position(&mut b, &stones, false);
        b.send(&c)
    };
    let t = Instant::now();
    let lines = b.ask_all("yxbalanceone 0");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t.elapsed()
    );
    let m = expect_move(lines.last().unwrap());
    assert!(!stones.contains(&m));
    assert!(
        lines.iter().any(|l| l.starts_with("MESSAGE balance: ")),
        "{lines:?}"
    );
    {
        let c = position(&mut b, &stones, false);
        b.send(&c)
    };
    let t = Instant::now();
    let reply = b.ask("yxbalancetwo 0");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t.elapsed()
    );
    let two: Vec<(usize, usize)> = reply.split(' ').map(pair).collect();
    assert_eq!(two.len(), 2, "{reply}");
    assert!(two[0] != two[1] && two.iter().all(|p| !stones.contains(p)));
    assert!(b.ask("yxbalanceone x").starts_with("ERROR YXBALANCEONE: "));
}

#[test]
fn hash_usage_is_the_tables_fill() {
    let mut b = yixin(300);
    // A table of 1 MB (the GUI's hash-size setting, in KB), so that one short search
    // fills a visible share of it even on a slow machine.
    b.send("INFO hash_size 1024");
    {
        let c = position(&mut b, &THREE, true);
        b.send(&c)
    };
    b.reply();
    assert!(hash_usage(&mut b) > 0.0);
    b.send("yxhashclear");
    assert_eq!(hash_usage(&mut b), 0.0);
    b.expect_silence();
}

/// The Soosorv steps: `yxsoosorvstep1` alone, the others followed by the stones
/// (row,column, in move order) and `done`, as `main.c` sends them; the answers as it
/// reads them (`MESSAGE SOOSORV …`, squares as `%d %d`).
#[test]
fn soosorv_steps_answer_as_the_gui_reads_them() {
    let mut b = yixin(1000);
    b.send("INFO rule 2");
    let square = |l: &str, prefix: &str| -> (usize, usize) {
        let rest = l.strip_prefix(prefix).unwrap_or_else(|| panic!("{l}"));
        let v: Vec<usize> = rest.split(' ').map(|n| n.parse().unwrap()).collect();
        (v[0], v[1])
    };
    // Step 1: one of the 26 standard openings.
    let t = Instant::now();
    b.send("yxsoosorvstep1");
    let s: Vec<(usize, usize)> = (1..=3)
        .map(|k| square(&b.line(), &format!("MESSAGE SOOSORV MOVE{k} ")))
        .collect();
    assert!(t.elapsed() < Duration::from_millis(2500));
    assert_eq!(s[0], (7, 7));
    assert!(s[1].0.abs_diff(7) <= 1 && s[1].1.abs_diff(7) <= 1 && s[1] != s[0]);
    assert!(s[2].0.abs_diff(7) <= 2 && s[2].1.abs_diff(7) <= 2 && !s[..2].contains(&s[2]));
    b.expect_silence();

    let three = "7,7\n7,8\n8,8\ndone";
    // Step 2: swap or not.
    b.send(&format!("yxsoosorvstep2\n{three}"));
    let l = b.line();
    assert!(
        l == "MESSAGE SOOSORV SWAP1 YES" || l == "MESSAGE SOOSORV SWAP1 NO",
        "{l}"
    );
    // Step 3: the fourth stone and N, `MOVE4 %d %d %d`.
    b.send(&format!("yxsoosorvstep3\n{three}"));
    let l = b.line();
    let v: Vec<usize> = l
        .strip_prefix("MESSAGE SOOSORV MOVE4 ")
        .unwrap_or_else(|| panic!("{l}"))
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(v.len(), 3);
    assert!(![(7, 7), (7, 8), (8, 8)].contains(&(v[0], v[1])));
    assert!((1..=8).contains(&v[2]));
    b.expect_silence();

    let four = "7,7\n7,8\n8,8\n6,6\ndone";
    // Step 4: swap or not, with N = 3.
    b.send(&format!("yxsoosorvstep4 3\n{four}"));
    let l = b.line();
    assert!(
        l == "MESSAGE SOOSORV SWAP2 YES" || l == "MESSAGE SOOSORV SWAP2 NO",
        "{l}"
    );
    // Step 5: REFRESH, three fifth moves, DONE.
    let t = Instant::now();
    b.send(&format!("yxsoosorvstep5 3\n{four}"));
    assert_eq!(b.line(), "MESSAGE SOOSORV MOVE5 REFRESH");
    let fifths: Vec<(usize, usize)> = (0..3)
        .map(|_| square(&b.line(), "MESSAGE SOOSORV MOVE5 "))
        .collect();
    assert_eq!(b.line(), "MESSAGE SOOSORV MOVE5 DONE");
    assert!(t.elapsed() < Duration::from_millis(2500));
    for (i, p) in fifths.iter().enumerate() {
        assert!(![(7, 7), (7, 8), (8, 8), (6, 6)].contains(p) && !fifths[..i].contains(p));
    }
    // Step 6: the four stones, then black's offers; white takes one of them.
    b.send("yxsoosorvstep6\n7,7\n7,8\n8,8\n6,6\n9,9\n5,9\n9,5\ndone");
    let taken = square(&b.line(), "MESSAGE SOOSORV MOVE5C ");
    assert!([(9, 9), (5, 9), (9, 5)].contains(&taken));
    b.expect_silence();
    // Wrong counts are errors.
    assert!(b
        .ask("yxsoosorvstep4 3\n7,7\ndone")
        .starts_with("ERROR YXSOOSORVSTEP4: 1 stones given"));
    assert!(b
        .ask(&format!("yxsoosorvstep5 9\n{four}"))
        .starts_with("ERROR YXSOOSORVSTEP5: 9"));
}

/// Yixin-Board's levels other than the custom one send `INFO timeout_turn 2000000` (no
/// time limit meant; `set_level`). It shows no thinking for Swap2 step 1 and the Soosorv
/// steps and offers no stop there, so these answer within 10 seconds then.
#[test]
fn opening_steps_answer_in_reasonable_time_under_untimed_levels() {
    let mut b = yixin(1000);
    b.send(
        "INFO max_node -1\nINFO timeout_match 100000000\nINFO time_left 100000000\n\
         INFO timeout_turn 2000000\nINFO max_depth 225\nINFO time_increment 0",
    );
    let t = Instant::now();
    b.send("yxswap2step1");
    for k in 1..=3 {
        assert!(b.line().starts_with(&format!("MESSAGE SWAP2 MOVE{k} ")));
    }
    let took = t.elapsed();
    assert!(took < Duration::from_secs(13), "{took:?}");
    b.expect_silence();
}

/// `yxhashdump` / `yxhashload` as Yixin-Board's command box sends them ("hash dump
/// path"): the command, then the path on its own line. A dump survives `yxhashclear` and a
/// new game; a file that is not a dump, or is cut short, is an error that leaves the
/// table as it was.
#[test]
fn hash_dump_and_load_round_trip() {
    let dir = std::env::temp_dir().join(format!("fivefold-yixin-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("table dump.bin");
    let mut b = yixin(300);
    b.send("INFO hash_size 1024");
    let c = position(&mut b, &THREE, true);
    b.send(&c);
    b.reply();
    let full = hash_usage(&mut b);
    assert!(full > 0.0);
    b.send(&format!("yxhashdump\n{}", path.display()));
    let l = b.line();
    assert!(l.starts_with("MESSAGE Transposition table dumped: "), "{l}");
    assert!(path.is_file());
    b.send("yxhashclear");
    assert_eq!(hash_usage(&mut b), 0.0);
    assert_eq!(b.ask("start 15"), "OK");
    b.send(&format!("yxhashload\n{}", path.display()));
    let l = b.line();
    assert!(
        l.starts_with("MESSAGE Transposition table loaded from "),
        "{l}"
    );
    assert_eq!(hash_usage(&mut b), full);
    // Damaged files: errors, the table as it was.
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"hello, this is not a table dump of any kind").unwrap();
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x10;
    let bad = dir.join("flipped.bin");
    std::fs::write(&bad, &flipped).unwrap();
    for f in [&cut, &junk, &bad, &dir.join("missing.bin")] {
        let l = b.ask(&format!("YXHASHLOAD {}", f.display()));
        assert!(l.starts_with("ERROR YXHASHLOAD: "), "{l}");
        assert!(l.ends_with("; the table is unchanged"), "{l}");
        assert_eq!(hash_usage(&mut b), full);
    }
    // Another rule: refused.
    b.send("INFO rule 4");
    let l = b.ask(&format!("YXHASHLOAD {}", path.display()));
    assert!(l.contains("another rule"), "{l}");
    b.send("INFO rule 0");
    // A dump into a folder that does not exist.
    let l = b.ask(&format!(
        "yxhashdump {}",
        dir.join("no/such/dir/x").display()
    ));
    assert!(l.starts_with("ERROR YXHASHDUMP: "), "{l}");
    // A block path set since the last search rules moves out of the next search, not
    // out of the table: the dump holds what the table holds.
    let l = block_path(&mut b, false, &[(7, 7), (8, 8)]);
    assert!(l.starts_with("MESSAGE blockpath: 1 path blocked"), "{l}");
    assert_eq!(hash_usage(&mut b), full);
    let kept = dir.join("kept.bin");
    b.send(&format!("YXHASHDUMP {}", kept.display()));
    let l = b.line();
    assert!(l.starts_with("MESSAGE Transposition table dumped: "), "{l}");
    assert_eq!(hash_usage(&mut b), full);
    assert_eq!(std::fs::read(&kept).unwrap().len(), bytes.len());
    b.expect_silence();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `INFO pondering 1`, as Yixin-Board's *Pondering* setting sends it (`set_pondering`):
/// after each move the engine thinks on, printing nothing, and the opponent's move is
/// answered in its normal time, the pondering search stopped the moment it arrives.
#[test]
fn pondering_is_silent_and_yields_to_the_next_move() {
    let mut b = yixin(500);
    b.send("INFO pondering 1");
    let c = position(&mut b, &QUIET, true);
    b.send(&c);
    let mut taken: Vec<(usize, usize)> = QUIET.to_vec();
    taken.push(pair(&b.reply()));
    let far = [(0, 0), (0, 14), (14, 0), (14, 14), (0, 7), (14, 7), (7, 0)];
    for round in 0..3 {
        // Thinking on the opponent's time, silently.
        std::thread::sleep(Duration::from_millis(1200));
        let their = *far.iter().find(|s| !taken.contains(s)).unwrap();
        taken.push(their);
        let asked = Instant::now();
        b.send(&format!("TURN {},{}", their.0, their.1));
        let l = b.reply();
        let took = asked.elapsed();
        taken.push(pair(&l));
        // 500 ms to think; the bound only says that pondering did not hold it up (an
        // unstopped pondering search has no limit at all).
        assert!(took < Duration::from_secs(6), "round {round}: {took:?}");
    }
    std::thread::sleep(Duration::from_millis(500));
    b.expect_silence();
    // Off again: nothing runs after the move.
    b.send("INFO pondering 0");
    let their = *far.iter().find(|s| !taken.contains(s)).unwrap();
    b.send(&format!("TURN {},{}", their.0, their.1));
    pair(&b.reply());
    b.expect_silence();
}

/// Yixin-Board 3 sends `INFO time_left` and, with *Use Database* on (its default), a
/// database query while the engine thinks, and another query right after its move. Those
/// lines wait in the queue when the move is made; pondering must still start once they
/// are answered (it did not: seen under Xvfb, 0 CPU on the person's turn). The table
/// (1 MB, after a search of 3,000 nodes) fills only if it does.
#[test]
fn pondering_starts_after_the_lines_that_came_during_the_search() {
    let usage = |ponder: bool| -> String {
        let mut b = yixin(300);
        b.send(&format!(
            "INFO hash_size 1024\nINFO max_node 3000\nINFO pondering {}",
            u8::from(ponder)
        ));
        let c = position(&mut b, &QUIET, true);
        let mut query = String::from("yxquerydatabaseallt\n");
        for &(r, col) in &QUIET {
            query.push_str(&format!("{r},{col}\n"));
        }
        query.push_str("done");
        // The position, then at once what the GUI sends while the engine thinks.
        b.send(&format!("{c}\nINFO time_left 99000000\n{query}"));
        let mv = pair(&b.reply());
        // What it sends after the move.
        let mut after = query.replace("done", &format!("{},{}\ndone", mv.0, mv.1));
        after.push_str("\nINFO time_left 98000000");
        b.send(&after);
        std::thread::sleep(Duration::from_millis(1500));
        b.send("YXSHOWHASHUSAGE");
        loop {
            let l = b.line();
            if l.starts_with("MESSAGE Hash usage") {
                b.send("END");
                return l;
            }
        }
    };
    let permille = |l: &str| -> u32 {
        let pct = l
            .strip_prefix("MESSAGE Hash usage: ")
            .and_then(|r| r.split('%').next())
            .unwrap_or_else(|| panic!("{l}"));
        let (a, b) = pct.split_once('.').unwrap_or((pct, "0"));
        a.parse::<u32>().unwrap() * 10 + b.parse::<u32>().unwrap()
    };
    let off = permille(&usage(false));
    let on = permille(&usage(true));
    assert!(on > off, "pondering on: {on} permille, off: {off}");
}

/// `INFO strength` (Rapfi's setting, 0 to 100): below 100 the engine still answers a
/// legal move in time and still blocks a four; 100 is full strength; other values are
/// refused and leave the strength as it was.
#[test]
fn strength_plays_weaker_but_legal_moves() {
    let mut b = yixin(300);
    b.send("INFO strength 101");
    assert!(b
        .ask("ABOUT")
        .starts_with("ERROR INFO strength: 101 is not a strength"));
    assert!(b.reply().starts_with("name=\"Fivefold\""));
    b.send("INFO strength x");
    assert!(b.ask("ABOUT").starts_with("ERROR INFO strength: "));
    assert!(b.reply().starts_with("name=\"Fivefold\""));
    b.send("INFO strength 0");
    // Black (rows 7) has four in a row on row 7, columns 5..8: white must block.
    let four = [(7, 5), (3, 3), (7, 6), (3, 11), (7, 7), (11, 3), (7, 8)];
    for _ in 0..3 {
        let c = position(&mut b, &four, true);
        b.send(&c);
        let mv = pair(&b.reply());
        assert!(mv == (7, 4) || mv == (7, 9), "{mv:?}");
    }
    let c = position(&mut b, &QUIET, true);
    b.send(&c);
    let mv = pair(&b.reply());
    assert!(!QUIET.contains(&mv));
    b.send("INFO strength 100");
    let c = position(&mut b, &THREE, true);
    b.send(&c);
    let mv = pair(&b.reply());
    assert!(mv == (7, 6) || mv == (7, 10), "{mv:?}");
    b.expect_silence();
}

// Block paths and forbidden points (`blockpath …` and `forbid …` in Yixin-Board's command
// box, main.c ~3606-3750 and ~3870-3912). The GUI sends the whole path from the empty
// board: the game's moves (`movepath`, each `row,column`), then the moves typed, then
// `done`; and `yxforbid add|del row column side`.

// Black (the engine, to move) has an open four on row 7, columns 3..6; white's stones are
// in the corners. Black wins at 7,2 or 7,7:
//
//        col: 0 1 2 3 4 5 6 7 8
//   row 7     . . . X X X X . .
const OPEN_FOUR: [(usize, usize); 8] = [
    (7, 3),
    (0, 0),
    (7, 4),
    (0, 14),
    (7, 5),
    (14, 0),
    (7, 6),
    (14, 14),
];
const FIVES: [(usize, usize); 2] = [(7, 2), (7, 7)];

/// `yxblockpath` (or `yxblockpathundo`) as the GUI sends it: the moves, then `done`;
/// returns the engine's confirmation.
fn block_path(b: &mut Brain, undo: bool, path: &[(usize, usize)]) -> String {
    let mut s = String::from(if undo {
        "yxblockpathundo\n"
    } else {
        "yxblockpath\n"
    });
    for &(r, c) in path {
        s.push_str(&format!("{r},{c}\n"));
    }
    s.push_str("done");
    b.send(&s);
    b.line()
}

/// The path from the empty board through `game`, then `more`.
fn path(game: &[(usize, usize)], more: &[(usize, usize)]) -> Vec<(usize, usize)> {
    game.iter().chain(more).copied().collect()
}

/// The engine's move in the position of `game` (sent as the GUI sends a position).
fn move_in(b: &mut Brain, game: &[(usize, usize)]) -> (usize, usize) {
    let c = position(b, game, true);
    b.send(&c);
    pair(&b.reply())
}

#[test]
fn block_path_avoids_the_blocked_move_until_undone_or_reset() {
    let mut b = yixin(300);
    assert!(FIVES.contains(&move_in(&mut b, &OPEN_FOUR)));
    // blockpath h8 … : one of the two fives blocked, the engine takes the other.
    assert_eq!(
        block_path(&mut b, false, &path(&OPEN_FOUR, &[(7, 7)])),
        "MESSAGE blockpath: 1 path blocked (1 in all)"
    );
    assert_eq!(move_in(&mut b, &OPEN_FOUR), (7, 2));
    assert_eq!(
        block_path(&mut b, false, &path(&OPEN_FOUR, &[(7, 7)])),
        "MESSAGE blockpath: 0 paths blocked, already blocked (1 in all)"
    );
    // Both blocked: a legal move elsewhere.
    assert_eq!(
        block_path(&mut b, false, &path(&OPEN_FOUR, &[(7, 2)])),
        "MESSAGE blockpath: 1 path blocked (2 in all)"
    );
    let mv = move_in(&mut b, &OPEN_FOUR);
    assert!(!FIVES.contains(&mv) && !OPEN_FOUR.contains(&mv), "{mv:?}");
    // The block is of that position only: with another white stone placed elsewhere,
    // the fives are open again.
    let mut other = OPEN_FOUR.to_vec();
    other.extend([(0, 7), (14, 7)]);
    assert!(FIVES.contains(&move_in(&mut b, &other)));
    // blockpath undo: 7,2 is allowed again.
    assert_eq!(
        block_path(&mut b, true, &path(&OPEN_FOUR, &[(7, 2)])),
        "MESSAGE blockpath: 1 path removed (1 in all)"
    );
    assert_eq!(move_in(&mut b, &OPEN_FOUR), (7, 2));
    assert_eq!(
        block_path(&mut b, true, &path(&OPEN_FOUR, &[(7, 2)])),
        "MESSAGE blockpath: 0 paths removed, not blocked (1 in all)"
    );
    // blockpath reset (and Yixin-Board's autoreset after each engine move).
    b.send("yxblockpathreset");
    assert_eq!(b.line(), "MESSAGE blockpath: 1 path removed (0 in all)");
    assert!(FIVES.contains(&move_in(&mut b, &OPEN_FOUR)));
    b.expect_silence();
}

#[test]
fn block_path_on_the_only_block_still_answers_a_legal_move() {
    let mut b = yixin(300);
    // White (rows 3) has four on row 3, columns 3..6, closed at 3,2 by black: black, to
    // move, must block at 3,7.
    let four = [
        (3, 2),
        (3, 3),
        (0, 0),
        (3, 4),
        (0, 14),
        (3, 5),
        (14, 14),
        (3, 6),
    ];
    assert_eq!(move_in(&mut b, &four), (3, 7));
    assert_eq!(
        block_path(&mut b, false, &path(&four, &[(3, 7)])),
        "MESSAGE blockpath: 1 path blocked (1 in all)"
    );
    let mv = move_in(&mut b, &four);
    assert!(mv != (3, 7) && !four.contains(&mv), "{mv:?}");
    b.send("yxblockpathreset");
    assert_eq!(b.line(), "MESSAGE blockpath: 1 path removed (0 in all)");
    assert_eq!(move_in(&mut b, &four), (3, 7));
}

/// The last `INFO BESTLINE` of a search (protocol squares, as the GUI reads them) and the
/// move played.
fn best_line(b: &mut Brain, game: &[(usize, usize)]) -> (Vec<(usize, usize)>, (usize, usize)) {
    let c = position(b, game, true);
    let lines = b.ask_all(&c);
    let line = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("INFO BESTLINE "))
        .unwrap_or_else(|| panic!("no INFO BESTLINE: {lines:?}"));
    let pv = line.split(' ').map(pair).collect();
    (pv, pair(lines.last().unwrap()))
}

#[test]
fn block_path_deeper_in_the_line_changes_the_searched_line() {
    let mut b = yixin(100_000);
    // A fixed depth on one thread: the same search every time from an empty table.
    b.send("INFO max_depth 5\nyxhashclear");
    let (pv, _) = best_line(&mut b, &QUIET);
    assert!(pv.len() >= 3, "{pv:?}");
    // blockpath with two moves of the line and the third: in the position after the
    // game and the line's first two moves, its third is blocked.
    let deep = path(&QUIET, &pv[..3]);
    assert_eq!(
        block_path(&mut b, false, &deep),
        "MESSAGE blockpath: 1 path blocked (1 in all)"
    );
    let (blocked, _) = best_line(&mut b, &QUIET);
    assert!(
        blocked.len() < 3 || blocked[..3] != pv[..3],
        "{pv:?} is still the line: {blocked:?}"
    );
    assert_eq!(
        block_path(&mut b, true, &deep),
        "MESSAGE blockpath: 1 path removed (0 in all)"
    );
    b.send("yxhashclear");
    let (again, _) = best_line(&mut b, &QUIET);
    assert_eq!(again, pv);
}

#[test]
fn blockpath_except_leaves_one_square() {
    let mut b = yixin(300);
    // `blockpath except c13` (row 2, column 2): Yixin-Board sends one yxblockpath for
    // every square of its largest board (22x22) but that one, squares off this board and
    // taken squares included.
    let keep = (2, 2);
    let mut s = String::new();
    let mut n = 0;
    for r in 0..22 {
        for c in 0..22 {
            if (r, c) == keep {
                continue;
            }
            s.push_str("yxblockpath\n");
            for &(gr, gc) in &QUIET {
                s.push_str(&format!("{gr},{gc}\n"));
            }
            s.push_str(&format!("{r},{c}\ndone\n"));
            n += 1;
        }
    }
    b.send(s.trim_end());
    let mut blocked = 0;
    for _ in 0..n {
        let l = b.line();
        assert!(l.starts_with("MESSAGE blockpath: "), "{l}");
        if l.starts_with("MESSAGE blockpath: 1 path blocked") {
            blocked += 1;
        }
    }
    // Every empty square of the 15x15 board but one.
    assert_eq!(blocked, 15 * 15 - QUIET.len() - 1);
    assert_eq!(move_in(&mut b, &QUIET), keep);
    b.send("yxblockpathreset");
    assert_eq!(
        b.line(),
        format!("MESSAGE blockpath: {blocked} paths removed (0 in all)")
    );
    b.expect_silence();
}

#[test]
fn forbid_keeps_a_colour_off_a_square_until_deleted() {
    let mut b = yixin(300);
    // `forbid 0 h8`: black may not play 7,7 (the GUI's row 7, column 7).
    b.send("yxforbid add 7 7 0");
    assert_eq!(
        b.line(),
        "MESSAGE forbid: h8 forbidden for black (1 in all)"
    );
    assert_eq!(move_in(&mut b, &OPEN_FOUR), (7, 2));
    // Forbidden for white only: black still plays there.
    b.send("yxforbid add 7 2 1");
    assert_eq!(
        b.line(),
        "MESSAGE forbid: c8 forbidden for white (2 in all)"
    );
    assert_eq!(move_in(&mut b, &OPEN_FOUR), (7, 2));
    b.send("yxforbid add 7 2 0");
    assert_eq!(
        b.line(),
        "MESSAGE forbid: c8 forbidden for black (3 in all)"
    );
    let mv = move_in(&mut b, &OPEN_FOUR);
    assert!(!FIVES.contains(&mv), "{mv:?}");
    // `forbid undo 0 c8`.
    b.send("yxforbid del 7 2 0");
    assert_eq!(
        b.line(),
        "MESSAGE forbid: c8 no longer forbidden for black (2 in all)"
    );
    assert_eq!(move_in(&mut b, &OPEN_FOUR), (7, 2));
    b.send("yxforbid del 7 7 0\nyxforbid del 7 2 1");
    assert_eq!(
        b.line(),
        "MESSAGE forbid: h8 no longer forbidden for black (1 in all)"
    );
    assert_eq!(
        b.line(),
        "MESSAGE forbid: c8 no longer forbidden for white (0 in all)"
    );
    assert!(FIVES.contains(&move_in(&mut b, &OPEN_FOUR)));
    // Bad input: an error, nothing changed.
    for (cmd, err) in [
        ("yxforbid add 7 7 2", "ERROR YXFORBID: '2' is not a side"),
        (
            "yxforbid add 15 7 0",
            "ERROR YXFORBID: 15,7 is outside the 15x15 board",
        ),
        (
            "yxforbid put 7 7 0",
            "ERROR YXFORBID: 'put' is not add or del",
        ),
        ("yxforbid add 7 7", "ERROR YXFORBID: '"),
    ] {
        let l = b.ask(cmd);
        assert!(l.starts_with(err), "{cmd}: {l}");
    }
    for (cmd, err) in [
        (
            "yxblockpath\n7,7\n7,7\n8,8\ndone",
            "ERROR YXBLOCKPATH: 7,7 is given twice; nothing changed",
        ),
        (
            "yxblockpath\n7,7\n15,3\n8,8\ndone",
            "ERROR YXBLOCKPATH: 15,3 is outside the 15x15 board; nothing changed",
        ),
        ("yxblockpathundo\ndone", "ERROR YXBLOCKPATHUNDO: no moves"),
        (
            "yxblockpath\n7,7\nbanana\ndone",
            "ERROR YXBLOCKPATH: 'banana' is not a square",
        ),
    ] {
        let l = b.ask(cmd);
        assert!(l.starts_with(err), "{cmd}: {l}");
    }
    assert!(FIVES.contains(&move_in(&mut b, &OPEN_FOUR)));
    b.expect_silence();
}

/// The stones of a diagram (`X` black, `O` white, `.` empty; row r, column c sent as
/// Yixin-Board sends them, `r,c`), after `start n`, as a `yxboard` block with field 1 for
/// `ours`.
fn diagram(b: &mut Brain, rows: &[&str], ours: char) -> String {
    assert_eq!(b.ask(&format!("start {}", rows.len())), "OK");
    let mut s = String::from("yxboard\n");
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch != '.' {
                let field = if ch == ours { 1 } else { 2 };
                s.push_str(&format!("{r},{c},{field}\n"));
            }
        }
    }
    s.push_str("done");
    s
}

/// The one line a command answers with, a `MESSAGE` included.
fn said(b: &mut Brain, cmd: &str) -> String {
    b.send(cmd);
    b.line()
}

/// `yxprintfeature`'s lines (it has no reply line: `ABOUT` marks their end).
fn features(b: &mut Brain) -> Vec<String> {
    b.send("yxprintfeature\nABOUT");
    let mut lines = Vec::new();
    loop {
        let l = b.line();
        if l.starts_with("name=\"Fivefold\"") {
            return lines;
        }
        assert!(l.starts_with("MESSAGE features: "), "{l}");
        lines.push(l);
    }
}

/// `draw` in Yixin-Board's command box sends the bare line `yxdraw`; the GUI prints the
/// `MESSAGE` that comes back. The engine accepts where its side stands no better than
/// level, declines where it stands better, whoever is to move, and accepts at once when
/// no move is left; the game is unchanged.
#[test]
fn draw_offers_are_decided_for_the_engines_side() {
    let mut b = yixin(1000);
    b.send("info show_detail 0");
    // 5x5, white to move (the engine), two empty squares, no line where anyone can
    // still make five: the search proves the draw.
    let dead = ["XOXOX", "XOXOX", "OXOXO", "XOXOX", "XO.O."];
    let c = diagram(&mut b, &dead, 'O');
    b.send(&c);
    let l = said(&mut b, "yxdraw");
    assert!(
        l.starts_with("MESSAGE draw: accepted (score 0 for the engine, depth "),
        "{l}"
    );
    // The game is as it was.
    assert_eq!(
        features(&mut b)[0],
        "MESSAGE features: freestyle 5x5, 23 stones, white to move"
    );
    // A full board: accepted at once.
    let full = ["XOXOX", "XOXOX", "OXOXO", "XOXOX", "XOXOO"];
    let c = diagram(&mut b, &full, 'X');
    b.send(&c);
    assert_eq!(
        said(&mut b, "yxdraw"),
        "MESSAGE draw: accepted (no move is left to play)"
    );

    // The engine (black, to move) has an open three: it wins, and declines.
    let mut won = THREE.to_vec();
    won.push((0, 0));
    let c = position(&mut b, &won, false);
    b.send(&c);
    let l = said(&mut b, "yxdraw");
    assert!(l.starts_with("MESSAGE draw: declined (score +M"), "{l}");
    // It plays its open four; the person (white) is to move and offers a draw: the
    // score is still the engine's, and it still declines.
    let c = position(&mut b, &won, true);
    let mv = expect_move(&b.ask(&c));
    assert!([(7, 6), (7, 10)].contains(&mv), "{mv:?}");
    let l = said(&mut b, "yxdraw");
    assert!(l.starts_with("MESSAGE draw: declined (score +M"), "{l}");
    // Nothing changed: the person blocks one end, the engine makes five at the other.
    let block = if mv == (7, 6) { (7, 10) } else { (7, 6) };
    let five = if mv == (7, 6) { (7, 5) } else { (7, 11) };
    assert_eq!(
        expect_move(&b.ask(&format!("TURN {},{}", block.0, block.1))),
        five
    );
    // Under Yixin-Board's untimed levels (`INFO timeout_turn 2000000`) the decision
    // still takes at most about a second.
    b.send("INFO timeout_turn 2000000");
    let c = position(&mut b, &QUIET, false);
    b.send(&c);
    let t = Instant::now();
    let l = said(&mut b, "yxdraw");
    assert!(l.starts_with("MESSAGE draw: "), "{l}");
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "{:?}",
        t.elapsed()
    );
    // No game: an error.
    let mut fresh = Brain::start();
    assert!(fresh.ask("yxdraw").starts_with("ERROR YXDRAW: no game"));
    b.expect_silence();
}

/// `resign` sends `yxresign`: the engine names the winner (its own side) and keeps the
/// board, so that the game can go on (the person may take moves back).
#[test]
fn resign_names_the_winner_and_keeps_the_board() {
    let mut b = yixin(300);
    b.send("info show_detail 0");
    let c = position(&mut b, &QUIET, true);
    let mv = expect_move(&b.ask(&c));
    // The engine is black (four stones before its move, black first).
    assert_eq!(
        said(&mut b, "yxresign"),
        "MESSAGE resign: white resigns, black (Fivefold) wins"
    );
    b.expect_silence();
    // The board is kept: the engine's stone is still there, and the game goes on.
    assert!(b
        .ask(&format!("TURN {},{}", mv.0, mv.1))
        .starts_with("ERROR TURN: "));
    let next = expect_move(&b.ask("TURN 0,0"));
    assert!(!QUIET.contains(&next) && next != mv && next != (0, 0));
    // A new board after it works as always.
    let c = position(&mut b, &THREE, true);
    let mv = expect_move(&b.ask(&c));
    assert!([(7, 6), (7, 10)].contains(&mv), "{mv:?}");
    let mut fresh = Brain::start();
    assert!(fresh.ask("yxresign").starts_with("ERROR YXRESIGN: no game"));
}

/// `print features` sends `yxprintfeature`: the evaluation's view of the position, in
/// squares as the GUI names them.
#[test]
fn print_features_names_the_threats() {
    let mut b = yixin(300);
    let c = position(&mut b, &THREE, false);
    b.send(&c);
    let lines = features(&mut b);
    assert_eq!(
        lines[0],
        "MESSAGE features: freestyle 15x15, 5 stones, white to move"
    );
    assert!(lines[1].starts_with("MESSAGE features: classical evaluation -"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE features: network value ")));
    assert!(lines
        .contains(&"MESSAGE features: white threats: no four or open three to make".to_string()));
    // Black's open three on row 7: open fours at columns 6 and 10, fours beyond.
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "MESSAGE features: black threats: open four at {} {}; four at {} {}",
            gui_name((7, 6)),
            gui_name((7, 10)),
            gui_name((7, 5)),
            gui_name((7, 11))
        )
    );
    // Renju: black's double three at row 7, column 8 is forbidden.
    b.send("INFO rule 2");
    let foul = [
        (7, 6),
        (0, 0),
        (7, 7),
        (0, 14),
        (5, 8),
        (14, 0),
        (6, 8),
        (14, 14),
    ];
    let c = position(&mut b, &foul, false);
    b.send(&c);
    let lines = features(&mut b);
    let forbidden = lines
        .last()
        .unwrap()
        .strip_prefix("MESSAGE features: forbidden for black: ")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        forbidden.split(' ').any(|s| s == gui_name((7, 8))),
        "{forbidden}"
    );
    b.expect_silence();
    let mut fresh = Brain::start();
    assert!(fresh
        .ask("yxprintfeature")
        .starts_with("ERROR YXPRINTFEATURE: no game"));
}

/// With the realtime bit of `INFO show_detail` on, a single search marks the root move
/// it is searching (`MESSAGE REALTIME POS x,y`, then `DONE x,y` when it is done), as Rapfi
/// does, once it has run for 200 ms; with the bit off, nothing of the kind.
#[test]
fn a_long_search_marks_the_root_moves_it_searches() {
    let mut b = yixin(1500);
    for detail in [1, 3] {
        b.send(&format!("info show_detail {detail}"));
        let c = position(&mut b, &QUIET, true);
        let lines = b.ask_all(&c);
        let mv = expect_move(lines.last().unwrap());
        let mut open: Option<(usize, usize)> = None;
        let (mut pos, mut done) = (0, 0);
        for l in &lines {
            if let Some(s) = l.strip_prefix("MESSAGE REALTIME POS ") {
                assert_eq!(open, None, "a POS before the last one's DONE: {lines:?}");
                let sq = pair(s);
                assert!(sq.0 < 15 && sq.1 < 15 && !QUIET.contains(&sq), "{l}");
                open = Some(sq);
                pos += 1;
            } else if let Some(s) = l.strip_prefix("MESSAGE REALTIME DONE ") {
                assert_eq!(open, Some(pair(s)), "a DONE without its POS: {lines:?}");
                open = None;
                done += 1;
            } else if l == "MESSAGE REALTIME REFRESH" {
                assert_eq!(open, None, "{lines:?}");
            }
        }
        assert!(pos >= 2 && done >= 1, "show_detail {detail}: {lines:?}");
        assert!(lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)));
    }
    // Without the realtime bit: none of them.
    for detail in [0, 2] {
        b.send(&format!("info show_detail {detail}"));
        let c = position(&mut b, &QUIET, true);
        let lines = b.ask_all(&c);
        assert!(
            !lines.iter().any(|l| l.contains("REALTIME")),
            "show_detail {detail}: {lines:?}"
        );
    }
}

/// What Yixin-Board 2.1 (accreator/Yixin-Board) sends when it starts the engine on its
/// custom level with a board of 15 rows and 20 columns (conv-yb2.log of the GUI test,
/// its `init_engine` and `send_board`): `info show_detail 1`, `yxshowinfo`, `START 20 15`
/// (columns, rows: `START %d %d` of `boardsizew`, `boardsizeh`), its settings with `INFO
/// vcthread` among them, then its empty position as `start 20 15`, `yxboard`, `done`,
/// `yxshowforbid` and a database query. `INFO vcthread` comes after the first `START`:
/// the engine learns only then that squares are `row,column`.
fn yixin_board_2(columns: usize, rows: usize) -> Brain {
    let mut b = Brain::start();
    b.send("info show_detail 1\nyxshowinfo");
    assert!(b.line().starts_with("MESSAGE Fivefold"));
    assert!(b.line().starts_with("MESSAGE INFO MAX_THREAD_NUM "));
    assert!(b.line().starts_with("MESSAGE INFO MAX_HASH_SIZE "));
    assert_eq!(b.ask(&format!("START {columns} {rows}")), "OK");
    b.send(
        "INFO timeout_turn 300\nINFO timeout_match 600000\nINFO time_left 600000\n\
         INFO max_node 1000000000\nINFO max_depth 300\nINFO time_increment 0\n\
         INFO caution_factor 1\nINFO thread_num 1\nINFO hash_size 65536\n\
         INFO pondering 0\nINFO vcthread 0\nINFO rule 0",
    );
    assert_eq!(b.ask(&format!("start {columns} {rows}")), "OK");
    assert_eq!(b.ask("yxboard\ndone\nyxshowforbid"), "FORBID .");
    b.send("yxquerydatabaseall\ndone\ninfo usedatabase 1");
    assert_eq!(b.line(), "MESSAGE DATABASE REFRESH");
    assert_eq!(b.line(), "MESSAGE DATABASE DONE");
    b
}

/// Yixin-Board 2.1's name of its (row, column) on a board of `rows` rows.
fn gui_name_rows((row, col): (usize, usize), rows: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, rows - row)
}

/// The first square of the last thinking line's PV.
fn first_pv_name(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| l.split("| PV ").nth(1))
        .unwrap_or_else(|| panic!("a thinking line: {lines:?}"))
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

/// Yixin-Board 2.1 on 15 rows and 20 columns (`START 20 15`) sends every square as
/// `row,column`: the engine plays on the board the GUI means, with squares in columns P
/// to T, and answers in the GUI's row,column.
#[test]
fn yixin_board_2_rectangle_is_the_guis_board() {
    let mut b = yixin_board_2(20, 15);
    // The GUI's click on S8 (row 7 from the top, column 18): once refused as outside the
    // board, and the GUI waited for a move for ever.
    b.send("INFO time_left 600000");
    assert_eq!(b.ask("start 20 15"), "OK");
    let lines = b.ask_all("board\n7,18,2\ndone");
    let mv = expect_move(lines.last().unwrap());
    assert!(mv.0 < 15 && mv.1 < 20 && mv != (7, 18), "{lines:?}");
    assert!(
        mv.0.abs_diff(7) <= 3 && mv.1.abs_diff(18) <= 3,
        "a move near S8: {lines:?}"
    );
    assert_eq!(first_pv_name(&lines), gui_name_rows(mv, 15), "{lines:?}");
    assert!(lines.contains(&format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)));
    b.send("yxquerydatabaseall\n7,18\ndone");
    assert_eq!(b.line(), "MESSAGE DATABASE REFRESH");
    assert_eq!(b.line(), "MESSAGE DATABASE DONE");

    // Black's four S8..P8 (row 7, columns 15 to 18), O8 white's: the only defence is
    // T8, row 7 column 19, a square the engine's old 20-wide, 15-tall board lacked.
    let stones = [(7, 15), (7, 14), (7, 16), (0, 0), (7, 17), (14, 0), (7, 18)];
    assert_eq!(b.ask("start 20 15"), "OK");
    let mut cmd = String::from("board\n");
    for (i, (r, c)) in stones.iter().enumerate() {
        let field = if i % 2 == 1 { 1 } else { 2 };
        cmd.push_str(&format!("{r},{c},{field}\n"));
    }
    cmd.push_str("done");
    let lines = b.ask_all(&cmd);
    assert_eq!(lines.last().unwrap(), "7,19", "{lines:?}");
    assert_eq!(first_pv_name(&lines), "t8", "{lines:?}");
    assert!(lines.contains(&"MESSAGE REALTIME BEST 7,19".to_string()));

    // Rows past the GUI's 15 are off its board, in the GUI's words (columns x rows).
    assert_eq!(b.ask("start 20 15"), "OK");
    assert_eq!(
        b.ask("board\n15,3,2\ndone"),
        "ERROR BOARD: 15,3 is outside the 20x15 board; nothing changed"
    );
    // Forbidden squares come as the GUI's row,column too (renju, black to move): black's
    // Q13 R13 (row 2, columns 16 and 17) and S12 S11 (rows 3 and 4, column 18) make S13
    // (row 2, column 18) a double three.
    b.send("INFO rule 2");
    assert_eq!(b.ask("start 20 15"), "OK");
    let mut cmd = String::from("yxboard\n");
    let order = [
        (2, 16),
        (14, 0),
        (2, 17),
        (14, 2),
        (3, 18),
        (14, 4),
        (4, 18),
        (12, 0),
    ];
    for (i, (r, c)) in order.iter().enumerate() {
        cmd.push_str(&format!("{r},{c},{}\n", 1 + i % 2));
    }
    cmd.push_str("done\nyxshowforbid");
    let l = b.ask(&cmd);
    assert!(forbid_squares(&l).contains(&(2, 18)), "{l}");
}

/// Piskvork-style managers (no `YXSHOWINFO` and `INFO vcthread`) keep the plain meaning
/// of `START w h`: w is the x range.
#[test]
fn start_w_h_stays_plain_for_other_managers() {
    let mut b = Brain::start();
    assert_eq!(b.ask("START 20 15"), "OK");
    b.send("INFO timeout_turn 200");
    let m = expect_move(&b.ask("BOARD\n18,7,2\nDONE"));
    assert!(m.0 < 20 && m.1 < 15 && m != (18, 7), "{m:?}");
    assert!(b
        .ask("BOARD\n7,18,2\nDONE")
        .starts_with("ERROR BOARD: 7,18 is outside the 20x15 board"));
    assert_eq!(b.ask("RECTSTART 20,15"), "OK");
    let m = expect_move(&b.ask("TURN 19,14"));
    assert!(m.0 < 20 && m.1 < 15, "{m:?}");
}

/// Yixin-Board 2.1 takes `MESSAGE DATABASE LOAD …` and `SAVE …` for a square's record and
/// crashes (it knows only REFRESH, DONE and ONE): it gets none; Yixin-Board 3 does.
#[test]
fn yixin_board_2_gets_no_database_loading_markers() {
    let dir = std::env::temp_dir().join(format!("fivefold-yixin2-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gui-test-yb2.db");
    let mut b = yixin_board_2(15, 15);
    b.send(&format!("yxsetdatabase\n{}", path.display()));
    let l = b.line();
    assert!(l.starts_with("MESSAGE db "), "{l}");
    b.expect_silence();
    // A move, stored, then the GUI's query after it: records it reads.
    b.send("INFO time_left 600000");
    assert_eq!(b.ask("start 15 15"), "OK");
    let lines = b.ask_all("board\n7,7,2\ndone");
    let mv = expect_move(lines.last().unwrap());
    b.send(&format!("yxquerydatabaseall\n7,7\n{},{}\ndone", mv.0, mv.1));
    assert_eq!(b.line(), "MESSAGE DATABASE REFRESH");
    loop {
        let l = b.line();
        assert!(!l.contains("LOAD") && !l.contains("SAVE"), "{l}");
        if l == "MESSAGE DATABASE DONE" {
            break;
        }
    }
    b.send("yxsavedatabase");
    b.expect_silence();
    let all = b.log.clone();
    assert!(
        !all.iter()
            .any(|l| l.starts_with("MESSAGE DATABASE LOAD")
                || l.starts_with("MESSAGE DATABASE SAVE")),
        "{all:?}"
    );
    drop(b);

    // Yixin-Board 3 (START n) keeps its loading dialog.
    let mut b = yixin(300);
    b.send(&format!("yxsetdatabase\n{}", path.display()));
    assert_eq!(
        b.line(),
        format!("MESSAGE DATABASE LOAD START {}", path.display())
    );
    assert_eq!(b.line(), "MESSAGE DATABASE LOAD DONE");
    drop(b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Squares become `row,column` only at `INFO vcthread`, after Yixin-Board's first `START
/// w h`: the rectangle in play turns round then, without waiting for the next `start`.
#[test]
fn rectangle_turns_round_when_yixin_board_shows_itself() {
    let mut b = Brain::start();
    b.send("info show_detail 1\nyxshowinfo");
    for _ in 0..3 {
        assert!(b.line().starts_with("MESSAGE "));
    }
    assert_eq!(b.ask("START 20 15"), "OK");
    b.send("INFO timeout_turn 200\nINFO thread_num 1\nINFO vcthread 0");
    let m = expect_move(&b.ask("board\n7,18,2\ndone"));
    assert!(m.0 < 15 && m.1 < 20 && m != (7, 18), "{m:?}");
    // INFO square_names 0 turns it back: x is the column again.
    b.send("INFO square_names 0");
    let m = expect_move(&b.ask("board\n18,7,2\ndone"));
    assert!(m.0 < 20 && m.1 < 15 && m != (18, 7), "{m:?}");
}
