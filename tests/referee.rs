//! Complete games between two `pbrain-fivefold` processes, refereed by the test with the
//! library's board: every move must be on the board and empty, black must never play a
//! renju foul, and the game ends when a move makes five (checked against the slow
//! reference rules as well) or the board is full.

mod common;

use common::{board_command, referee_move, Brain};
use fivefold::{Board, Pos, Rule};
use std::time::{Duration, Instant};

/// How the referee sends each move to the engine to play next.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Style {
    /// `BEGIN`, then `TURN x,y`.
    Turn,
    /// The whole position with `BOARD` every move (as c-gomoku-cli and Yixin-Board do),
    /// stones in move order, after `INFO time_left` from a match clock the referee keeps.
    Board,
}

fn play_game(rule_number: i64, rule: Rule, size: usize, style: Style, turn_ms: u64, match_ms: u64) {
    let mut engines = [Brain::start(), Brain::start()];
    for e in engines.iter_mut() {
        e.send(&format!("INFO rule {rule_number}"));
        assert_eq!(e.ask(&format!("START {size}")), "OK");
        e.send(&format!(
            "INFO timeout_turn {turn_ms}\nINFO timeout_match {match_ms}"
        ));
    }
    let mut left = [match_ms as i64; 2];
    // Each move's number, what the referee charged for it and what was left (ms), for
    // the message of a time loss.
    let mut charges: Vec<(usize, u128, i64)> = Vec::new();
    let mut board = Board::new(size, size, rule).unwrap();
    let mut last: Option<Pos> = None;
    loop {
        let side = board.side_to_move();
        let e = &mut engines[side.index()];
        let t = Instant::now();
        let reply = match (style, last) {
            (Style::Turn, None) => e.ask("BEGIN"),
            (Style::Turn, Some(p)) => e.ask(&format!("TURN {},{}", p.x(), p.y())),
            (Style::Board, _) => {
                e.send(&format!("INFO time_left {}", left[side.index()]));
                e.ask(&board_command(&board))
            }
        };
        let took = t.elapsed();
        if match_ms > 0 {
            left[side.index()] -= took.as_millis() as i64;
            charges.push((board.move_count() + 1, took.as_millis(), left[side.index()]));
            assert!(
                left[side.index()] > 0,
                "{side:?} ran out of match time; the last moves (number, ms, left): {:?}",
                &charges[charges.len().saturating_sub(30)..]
            );
        }
        assert!(
            took < Duration::from_millis(turn_ms + 500),
            "{side:?} took {took:?} for move {} (limit {turn_ms} ms)",
            board.move_count() + 1
        );
        let p = referee_move(&mut board, &reply);
        last = Some(p);
        if board.last_move_won() || board.is_full() {
            break;
        }
    }
    // Both engines are still talking, and leave cleanly.
    for e in engines.iter_mut() {
        e.expect_silence();
        e.send("END");
        assert!(e
            .wait_exit(Duration::from_secs(2))
            .expect("the engine exits")
            .success());
    }
}

#[test]
fn freestyle_game_with_turn() {
    play_game(0, Rule::Freestyle, 15, Style::Turn, 100, 0);
}

#[test]
fn renju_game_with_board_and_a_match_clock() {
    play_game(4, Rule::Renju, 15, Style::Board, 300, 10_000);
}

#[test]
fn caro_exact_game_on_a_small_board() {
    play_game(9, Rule::CaroExact, 10, Style::Turn, 100, 0);
}
