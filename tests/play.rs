//! `pbrain-fivefold play` driven as a real process: a script on stdin, and assertions on
//! the text a person would see.

mod common;

use common::Run;

fn play(args: &[&str], script: &str) -> Run {
    common::run_with_input(&[&["play"], args].concat(), script)
}

/// The boards printed, in order: each is its row lines, top row (15) first.
fn boards(out: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("a b c d")
            && i + 16 < lines.len()
            && lines[i + 1].starts_with("15 ")
        {
            found.push(lines[i + 1..i + 16].iter().map(|s| s.to_string()).collect());
            i += 17;
        } else {
            i += 1;
        }
    }
    found
}

/// What a 15x15 board shows at a square such as `h8`.
fn at(board: &[String], square: &str) -> char {
    let x = (square.as_bytes()[0] - b'a') as usize;
    let row: usize = square[1..].parse().unwrap();
    let line = &board[15 - row];
    assert!(
        line.starts_with(&format!("{row:>2} ")),
        "row {row} is labelled: {line}"
    );
    line.chars().nth(4 + 2 * x).unwrap()
}

fn count(board: &[String], c: char) -> usize {
    board
        .iter()
        .map(|l| l[3..l.len() - 3].chars().filter(|&ch| ch == c).count())
        .sum()
}

#[test]
fn a_move_and_the_reply_appear_on_the_board() {
    let r = play(&["--depth", "2", "--color", "black"], "h8\nquit\n");
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("You play black, Fivefold plays white"));
    assert!(
        r.out.contains("You (black)> h8\nYou play h8.\n"),
        "{}",
        r.out
    );
    assert!(r.out.contains("Fivefold (white) plays "));
    let b = boards(&r.out);
    assert_eq!(
        b.len(),
        2,
        "the empty board, then the board after the reply:\n{}",
        r.out
    );
    assert_eq!(count(&b[0], 'X') + count(&b[0], 'O'), 0);
    let last = &b[1];
    assert_eq!(at(last, "h8"), 'X');
    assert_eq!(count(last, 'X'), 1);
    assert_eq!(count(last, 'O'), 1);
    // The reply is the last move: framed in brackets, and named in the message.
    let framed: Vec<&String> = last.iter().filter(|l| l.contains("[O]")).collect();
    assert_eq!(framed.len(), 1, "{last:?}");
    let reply = r
        .out
        .split("Fivefold (white) plays ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(at(last, reply), 'O');
    assert!(r.out.trim_end().ends_with("Goodbye."));
}

#[test]
fn illegal_moves_are_explained_and_the_session_goes_on() {
    let r = play(
        &["--depth", "2"],
        "h8\nh8\np1\n3,-1\nh\nfly away\na1\nquit\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let after = r
        .out
        .split("You (black)> h8\nYou play h8.")
        .nth(1)
        .expect("first move played");
    assert!(
        after.contains("Illegal move: h8 is already taken by a black stone."),
        "{after}"
    );
    assert!(after.contains("Illegal move: 'p1' is outside the 15x15 board."));
    assert!(after.contains("Illegal move: '3,-1' is outside the 15x15 board."));
    assert!(after.contains("Unknown command 'h'."));
    assert!(after.contains("Unknown command 'fly away'."));
    // The session went on: the next good move is played and answered.
    assert!(after.contains("You play a1."));
    let b = boards(&r.out);
    let last = b.last().unwrap();
    assert_eq!(at(last, "a1"), 'X');
    assert_eq!(count(last, 'X'), 2);
    assert_eq!(count(last, 'O'), 2);
}

#[test]
fn renju_fouls_are_shown_and_refused() {
    // Black h9 h10 i8 j8: h8 would make two open threes.
    let r = play(
        &[
            "--rule",
            "renju",
            "--moves",
            "h9 a1 h10 o1 i8 a15 j8 o15",
            "--color",
            "black",
            "--depth",
            "2",
        ],
        "h8\nh7\nquit\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let b = boards(&r.out);
    assert_eq!(
        at(&b[0], "h8"),
        '!',
        "the foul is marked before black moves:\n{}",
        r.out
    );
    assert!(r.out.contains("Forbidden for black (marked !): h8"));
    assert!(r
        .out
        .contains("Illegal move: h8 is forbidden for black under renju (double three)."));
    assert!(r.out.contains("You play h7."));
    let last = b.last().unwrap();
    assert_eq!(at(last, "h7"), 'X');
    assert_ne!(at(last, "h8"), 'X');
}

#[test]
fn hint_suggests_an_empty_square_with_a_score() {
    let r = play(&["--depth", "2"], "h8\nhint\nquit\n");
    assert_eq!(r.code, Some(0), "{}", r.err);
    let line = r
        .out
        .lines()
        .find(|l| l.contains("Hint: "))
        .expect("a hint line");
    let rest = line.split("Hint: ").nth(1).unwrap();
    let square = rest.split_whitespace().next().unwrap();
    assert!(
        rest.contains("(eval ") && rest.contains(" for black, depth 2)"),
        "{line}"
    );
    let last = boards(&r.out).pop().unwrap();
    assert_eq!(
        at(&last, square),
        '.',
        "the hint {square} is an empty square"
    );
    // Progress as the hint search deepens: depth and best move for each depth.
    assert!(r.out.contains("Looking for a hint: 1:"), "{}", r.out);
}

#[test]
fn the_winner_is_announced_with_the_winning_line() {
    // Black has an open three h8 i8 j8; k8 makes an open four, white can block one end.
    let r = play(
        &["--moves", "h8 a1 i8 o1 j8 a15", "--depth", "2"],
        "k8\ng8\nl8\nhint\nquit\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let won = r
        .out
        .lines()
        .find(|l| l.starts_with("Black wins with five in a row: "))
        .expect("winner line");
    assert!(
        won == "Black wins with five in a row: g8 h8 i8 j8 k8. You win!"
            || won == "Black wins with five in a row: h8 i8 j8 k8 l8. You win!",
        "{won}"
    );
    // Once the game is over, moves and hints are refused with a way forward.
    assert!(r.out.contains("The game is over. Type new"));
    assert!(r.out.contains("Game over> "));
}

#[test]
fn the_engine_wins_undo_resign_and_new_game() {
    // The person plays white and ignores black's open four.
    let r = play(
        &[
            "--moves",
            "h8 a1 i8 o1 j8 a15 k8",
            "--color",
            "white",
            "--depth",
            "2",
        ],
        "a2\nundo\nresign\nnew black\nquit\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let won = r
        .out
        .lines()
        .find(|l| l.starts_with("Black wins with five in a row: "))
        .expect("winner line");
    assert!(won.ends_with("Fivefold wins."), "{won}");
    assert!(won.contains("h8 i8 j8 k8"));
    assert!(r.out.contains("Took back a2 "), "{}", r.out);
    assert!(r.out.contains("You resign. Black wins."));
    assert!(r.out.contains("New game."));
    let b = boards(&r.out);
    // After undo: the start position again (7 stones); after `new black`: the same
    // starting position with the person as black... which is white's turn, so the
    // engine (white) moves first.
    let after_undo = &b[b.len() - 2];
    assert_eq!(count(after_undo, 'X') + count(after_undo, 'O'), 7);
    assert!(r.out.contains("You play black, Fivefold plays white"));
    assert!(r.out.contains("Fivefold (white) plays "));
}

#[test]
fn games_are_saved_as_psq_and_sgf() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-save");
    std::fs::create_dir_all(&dir).unwrap();
    let psq = dir.join("game.psq");
    let sgf = dir.join("game.sgf");
    let script = format!(
        "h8\nsave {}\nsave {}\nsave {}\nsave /no/such/dir/x.psq\nquit\n",
        psq.display(),
        sgf.display(),
        dir.join("game.txt").display()
    );
    let r = play(&["--depth", "2"], &script);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r
        .out
        .contains(&format!("Saved the game (2 moves) to {}.", psq.display())));
    assert!(r
        .out
        .contains("save: give a file name ending in .psq (Piskvork) or .sgf"));
    assert!(r.out.contains("Could not save to /no/such/dir/x.psq"));
    let (w, h, moves) =
        fivefold::core::record::parse_psq(&std::fs::read_to_string(&psq).unwrap()).unwrap();
    assert_eq!((w, h, moves.len(), moves[0]), (15, 15, 2, (7, 7)));
    let (_, _, sgf_moves) =
        fivefold::core::record::parse_sgf(&std::fs::read_to_string(&sgf).unwrap()).unwrap();
    assert_eq!(sgf_moves, moves);
}

#[test]
fn the_engine_opens_when_the_person_is_white_and_input_may_end_any_time() {
    let r = play(&["--color", "white", "--depth", "2"], "");
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("Fivefold (black) plays h8"));
    let b = boards(&r.out);
    assert_eq!(b.len(), 1);
    assert_eq!(at(&b[0], "h8"), 'X');
    assert!(r.out.contains("You (white)> \nGoodbye."));
}

#[test]
fn random_colour_is_reproducible_with_a_seed() {
    let colour = |seed: &str| {
        let r = play(
            &["--color", "random", "--seed", seed, "--depth", "1"],
            "quit\n",
        );
        assert_eq!(r.code, Some(0), "{}", r.err);
        assert!(r.out.contains("(drawn at random)"));
        if r.out.contains("You play black") {
            "black"
        } else {
            "white"
        }
    };
    let first = colour("7");
    assert_eq!(colour("7"), first);
    let seen: Vec<&str> = (1..=8).map(|s| colour(&s.to_string())).collect();
    assert!(
        seen.contains(&"black") && seen.contains(&"white"),
        "{seen:?}"
    );
}

#[test]
fn bad_options_stop_with_a_clear_error() {
    for (args, msg) in [
        (
            vec!["--color", "purple"],
            "error: invalid value 'purple' for '--color <COLOUR>': expected black, white or random",
        ),
        (
            vec!["--size", "99"],
            "error: board size 99x99 is outside 5..32",
        ),
        (
            vec!["--time", "-2"],
            "error: invalid value '-2' for '--time <SECONDS>': expected seconds",
        ),
        (
            vec!["--rule", "chess"],
            "error: invalid value 'chess' for '--rule <RULE>': unknown rule 'chess'",
        ),
        (
            vec!["--moves", "h8 h8"],
            "error: move 2 (h8) is on an occupied square",
        ),
        (
            vec!["--colr", "black"],
            "error: unexpected argument '--colr' found",
        ),
    ] {
        let r = play(&args, "quit\n");
        assert_eq!(r.code, Some(2), "{args:?}");
        assert!(r.err.contains(msg), "{args:?}: {}", r.err);
    }
}

#[test]
fn a_small_board_and_x_y_squares() {
    let r = play(&["--size", "9", "--depth", "2"], "4,4\nquit\n");
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("freestyle on 9x9"));
    assert!(r.out.contains("You play e5."));
    let last = r.out.lines().rev().find(|l| l.starts_with(" 5 ")).unwrap();
    assert_eq!(last.chars().nth(4 + 2 * 4), Some('X'));
}
