//! Tactics: the engine must find the obvious and the forced, under a short time limit.

use fivefold::core::types::{is_mate, Pos, MATE_BOUND};
use fivefold::engine::evaluation::Networks;
use fivefold::engine::search::{search_position, Limits};
use fivefold::engine::time::Budget;
use fivefold::{Board, Rule};
use std::time::Duration;

fn think(diagram: &str, rule: Rule) -> (Pos, i32) {
    let b = Board::from_diagram(diagram, rule).unwrap();
    let limits = Limits {
        budget: Some(Budget {
            soft: Duration::from_millis(300),
            hard: Duration::from_millis(1500),
        }),
        ..Limits::default()
    };
    let r = search_position(&b, &limits, 16);
    (r.best, r.score)
}

fn sq(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

#[test]
fn wins_in_one() {
    let (m, s) = think(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . O O O O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X X X X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    );
    // Black to move (4 v 5 stones... black has 4, white 5: black to move) wins at once.
    assert!(m == sq(4, 7) || m == sq(9, 7), "played {m:?}");
    assert!(s >= MATE_BOUND);
}

#[test]
fn blocks_the_four() {
    let (m, _) = think(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . O X . . . . . . . .
        . . . . . . X O . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    );
    // White to move must block at g4 (6,3).
    assert_eq!(m, sq(6, 3));
}

#[test]
fn makes_the_open_four() {
    let (m, s) = think(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . O . . O . . . . . .
        . . . . . X X X . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    );
    // Black's open three becomes an open four on either side: a forced win.
    assert!(m == sq(4, 7) || m == sq(8, 7), "played {m:?}");
    assert!(s >= MATE_BOUND, "score {s}");
}

#[test]
fn stops_the_open_three() {
    let (m, s) = think(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . O O O . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    );
    // Black to move (2 v 3): white threatens an open four on row 8; black must take an end.
    assert!(m == sq(4, 7) || m == sq(8, 7), "played {m:?}");
    assert!(!is_mate(s) || s > 0, "score {s}");
}

/// White to move, from a 20x20 game against Rapfi: black's open three n17-o16-p15 can be
/// stopped at m18 or q14, but black also has a VCF from q14 (q14 r13 q17 q18 q13), so q14
/// is the only move that does not lose at once. The threat search narrows the root to
/// it; the engine used to answer at once with m18, the first move generated, and lost.
#[test]
fn the_only_defence_of_a_vcf_is_played_when_it_is_not_the_first_move_generated() {
    let (m, s) = think(
        "
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . O . . . . .
        . . . . . . . . . . . . X X O X . . . .
        . . . . . . . . . . . . O . X O X . . .
        . . . . . . . . . . . O . O . X X . . .
        . . . . . . . . . . . . . X X O . . . .
        . . . . . . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    );
    assert_eq!(m, sq(16, 6), "played {m:?}, score {s}");
}

/// Black to move: h7 (7,8) makes a four on the column (blocked above) and an open three
/// on the row.
const FOUR_THREE: &str = "
        . O . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";

#[test]
fn finds_the_four_three() {
    let (m, s) = think(FOUR_THREE, Rule::Freestyle);
    // h7 (7,8) makes a four on the column (blocked above) and an open three on the row.
    assert_eq!(m, sq(7, 8), "score {s}");
    assert!(s >= MATE_BOUND, "score {s}");
}

#[test]
fn renju_black_never_plays_a_foul() {
    // The double-three square e5 (4,4) would be black's most attractive move; it is forbidden.
    let b = Board::from_diagram(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . X X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Renju,
    )
    .unwrap();
    let mut b = b;
    b.set_side_to_move(fivefold::Color::Black);
    let r = search_position(
        &b,
        &Limits {
            max_depth: Some(4),
            ..Limits::default()
        },
        16,
    );
    assert_ne!(r.best, sq(4, 4));
    assert!(!fivefold::core::rules::is_forbidden(&mut b, r.best));
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let b = fivefold::cli::bench::position(&fivefold::cli::bench::POSITIONS[1]);
    let l = Limits {
        max_depth: Some(5),
        ..Limits::default()
    };
    let a = search_position(&b, &l, 16);
    let c = search_position(&b, &l, 16);
    assert_eq!((a.nodes, a.best, a.score), (c.nodes, c.best, c.score));
}

#[test]
fn two_threads_find_the_same_win_and_count_all_nodes() {
    use fivefold::engine::Engine;
    let b = Board::from_diagram(FOUR_THREE, Rule::Freestyle).unwrap();
    let mut e = Engine::new(8 << 20);
    e.set_threads(2);
    let stop = fivefold::engine::StopToken::new();
    let limits = Limits {
        budget: Some(Budget {
            soft: Duration::from_millis(300),
            hard: Duration::from_millis(1500),
        }),
        ..Limits::default()
    };
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert_eq!(r.best, sq(7, 8));
    assert!(r.score >= MATE_BOUND);
    // A quiet position searched to a fixed depth by two threads still answers sensibly.
    // The helpers are stopped through a token of their own when the main thread is done:
    // the caller's token is left as it was, so it can serve the next search.
    let q = fivefold::cli::bench::position(&fivefold::cli::bench::POSITIONS[0]);
    let r = e.think(
        &q,
        &Limits {
            max_depth: Some(5),
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!(q.is_empty(r.best));
    assert!(!stop.is_raised());
}

#[test]
fn search_beats_a_greedy_player() {
    use fivefold::tools::selfplay::{random_opening, run_match, Limit, Player};
    // Both colours from each opening; a depth-3 search must clearly outplay one ply.
    let openings: Vec<Vec<Pos>> = (0..4).map(|i| random_opening(11, 3, 100 + i)).collect();
    let t = run_match(
        Rule::Freestyle,
        11,
        &openings,
        &Player::new(Limit::Depth(3)),
        &Player::new(Limit::Greedy),
    );
    assert_eq!(t.fouls, 0);
    assert!(
        t.score() >= 0.75,
        "depth 3 vs greedy: +{} -{} ={}",
        t.wins,
        t.losses,
        t.draws
    );
}

/// Six stones on 23x23 where the VCT of the side to move is large (the solver gives up
/// only at its node limit): the position the protocol fuzz test hung on.
fn wide_vct_position() -> Board {
    let mut b = Board::new(23, 23, Rule::Freestyle).unwrap();
    for (x, y) in [(1, 8), (3, 8), (2, 3), (4, 7), (2, 5), (0, 7)] {
        b.make(sq(x, y));
    }
    b
}

#[test]
fn stop_interrupts_the_root_threat_search_without_a_clock() {
    // Infinite analysis (no clock, no depth, no node limit) ends only on STOP, and STOP
    // must reach the threat search too, not wait for the solver's node budget (thousands
    // of nodes here). With the flag already raised, the search does its minimum: the
    // solver's first check and a depth-1 search.
    let b = wide_vct_position();
    let stop = fivefold::engine::StopToken::new();
    stop.raise();
    let mut s = fivefold::engine::search::Searcher::new(
        std::sync::Arc::new(fivefold::engine::tt::Tt::new(1 << 20)),
        stop,
    );
    s.prepare_evaluation(&mut Networks::built_in(), &b);
    let r = s.search(&b, &Limits::default(), &mut |_| {});
    assert!(
        b.is_empty(r.best),
        "answered an occupied square {:?}",
        r.best
    );
    assert!(r.nodes < 2_000, "{} nodes searched after STOP", r.nodes);
}

/// Runs `search` on another thread; panics if it has not returned within 20 s (a stop
/// that was lost leaves a search without limits running for ever).
fn returns_in_time<T: Send + 'static>(
    what: &str,
    search: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(search());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what}: the stop was lost, the search runs on"))
}

#[test]
fn a_stop_raised_before_the_search_starts_stops_it() {
    // No limits at all: only the token ends these searches. Raised before `think` is
    // called, it stops every search that reads it, one thread or several, a single
    // search or a multi-line analysis, and stays raised for the next.
    use fivefold::engine::{Engine, StopToken};
    let b = fivefold::cli::bench::position(&fivefold::cli::bench::POSITIONS[0]);
    for threads in [1, 3] {
        let b = b.clone();
        returns_in_time("raised before", move || {
            let mut e = Engine::new(1 << 20);
            e.set_threads(threads);
            let stop = StopToken::new();
            stop.raise();
            for _ in 0..2 {
                let r = e.think(&b, &Limits::default(), &stop, &mut |_| {});
                assert!(b.is_empty(r.best), "{threads} threads: {:?}", r.best);
                assert!(stop.is_raised());
            }
            let want = fivefold::analysis::multipv::Want {
                n: 3,
                ..Default::default()
            };
            let lines = fivefold::analysis::multipv::best_lines(
                &mut e,
                &b,
                &want,
                &Limits::default(),
                &stop,
                &mut |_| {},
            );
            assert!(lines.lines.iter().all(|l| b.is_empty(l.mv)));
        });
    }
}

#[test]
fn a_stop_raised_while_the_search_starts_is_not_lost() {
    // The token is raised from another thread at moments spread over the start of the
    // search (before `think`, in the root threat search, in the first iterations):
    // wherever it lands, the search without limits ends with a legal move.
    use fivefold::engine::{Engine, StopToken};
    let b = wide_vct_position();
    let e = Engine::new(1 << 20);
    let e = std::sync::Arc::new(std::sync::Mutex::new(e));
    for i in 0..24u64 {
        let stop = StopToken::new();
        let raiser = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_micros(i * i * 10));
                stop.raise();
            })
        };
        let (e, board) = (e.clone(), b.clone());
        let r = returns_in_time(&format!("raised after {} us", i * i * 10), move || {
            let mut e = e.lock().unwrap();
            e.set_threads(1 + (i % 3) as usize);
            e.think(&board, &Limits::default(), &stop, &mut |_| {})
        });
        assert!(b.is_empty(r.best), "{:?}", r.best);
        raiser.join().unwrap();
    }
}

#[test]
fn multi_line_analysis_does_not_repeat_the_threat_search_per_line() {
    // best_lines searches every candidate's child to each depth; the root threat search
    // belongs to the position, not to each child, so it must not change their cost.
    let b = wide_vct_position();
    let lines_and_nodes = || {
        let mut engine = fivefold::engine::Engine::new(1 << 20);
        let mut nodes = 0;
        let want = fivefold::analysis::multipv::Want {
            n: 3,
            ..Default::default()
        };
        let lines = fivefold::analysis::multipv::best_lines(
            &mut engine,
            &b,
            &want,
            &Limits {
                max_depth: Some(2),
                ..Limits::default()
            },
            &fivefold::engine::StopToken::new(),
            &mut |l| nodes = l.nodes,
        )
        .lines;
        (
            lines.iter().map(|l| (l.mv, l.score)).collect::<Vec<_>>(),
            nodes,
        )
    };
    let (lines, nodes) = lines_and_nodes();
    assert_eq!(lines.len(), 3);
    // What the root threat search costs in this position at the same depth: the solver
    // gives up only at its node limit here, so it is thousands of nodes. All the lines'
    // searches together cost less than that once.
    let nodes_at_depth_2 = |skip_threats: bool| {
        let limits = Limits {
            max_depth: Some(2),
            skip_threats,
            ..Limits::default()
        };
        search_position(&b, &limits, 1).nodes
    };
    let threat_search = nodes_at_depth_2(false) - nodes_at_depth_2(true);
    assert!(
        nodes < threat_search,
        "{nodes} nodes for the lines; one threat search costs {threat_search}"
    );
}

/// Black to move, with the better shapes on the left; white threatens a four-three at
/// k10 (10,5): a four on the k column and an open three on row 10.
const WHITE_FOUR_THREE_THREAT: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . X . . . .
        . . . . . . . . . X O . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . . . . O O . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X X . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";

#[test]
fn forward_pruning_does_not_ignore_a_four_three_threat() {
    // The shallow depths are where reverse futility pruning and move-count pruning act;
    // the threat search is off so that the main search alone must see the danger. The
    // position is lost: after each defence the full threat solver finds a white VCT, so
    // a search deep enough to see that (since 2d1630d, depth 4) scores a loss, and
    // must then be right.
    let b = Board::from_diagram(WHITE_FOUR_THREE_THREAT, Rule::Freestyle).unwrap();
    assert_eq!(b.side_to_move(), fivefold::core::types::Color::Black);
    let defences = [sq(10, 5), sq(10, 6), sq(9, 5), sq(13, 5)];
    for &d in &defences {
        let mut after = b.clone();
        after.make(d);
        assert!(
            fivefold::engine::threat::ThreatSolver::new().has_vct(&mut after, 31, 5_000_000),
            "{d:?} holds: white has no VCT after it"
        );
    }
    for depth in 2..=6 {
        let mut s = fivefold::engine::search::Searcher::new(
            std::sync::Arc::new(fivefold::engine::tt::Tt::new(1 << 20)),
            fivefold::engine::StopToken::new(),
        );
        let limits = Limits {
            max_depth: Some(depth),
            skip_threats: true,
            ..Limits::default()
        };
        s.prepare_evaluation(&mut Networks::built_in(), &b);
        let r = s.search(&b, &limits, &mut |_| {});
        assert!(
            defences.contains(&r.best),
            "depth {depth}: played {:?}, score {}",
            r.best,
            r.score
        );
        assert!(r.score < MATE_BOUND, "depth {depth}: score {}", r.score);
        if r.score <= -MATE_BOUND {
            let mut after = b.clone();
            after.make(r.best);
            assert!(
                fivefold::engine::threat::ThreatSolver::new().has_vct(&mut after, 31, 5_000_000),
                "depth {depth}: a loss claimed that is no white VCT, pv {:?}",
                r.pv
            );
        }
    }
}

/// Searches `b` to `depth` with the root threat solver off (the search alone) and
/// asserts that the side to move is proven to win.
fn assert_search_alone_wins(b: &Board, depth: i32) {
    let tt = std::sync::Arc::new(fivefold::engine::tt::Tt::new(16 << 20));
    let stop = fivefold::engine::StopToken::new();
    let mut s = fivefold::engine::search::Searcher::new(tt, stop);
    let limits = Limits {
        max_depth: Some(depth),
        skip_threats: true,
        ..Limits::default()
    };
    s.prepare_evaluation(&mut Networks::built_in(), b);
    let r = s.search(b, &limits, &mut |_| {});
    assert!(
        r.score >= MATE_BOUND,
        "the win not seen: score {} at depth {}, pv {:?}",
        r.score,
        r.depth,
        r.pv
    );
}

#[test]
fn sees_a_long_threat_sequence_through_to_its_end() {
    // From a game PentaZen won as white against an earlier build (freestyle, 0.5 s a
    // move): after black's k7 (10,8) white has a 23-ply VCT, which PentaZen announced at
    // once and the earlier build's search did not see at depth 14. Here its first four
    // plies are played (h10 i10 g9 f8), leaving a 19-ply win. With the leaf VCF and the
    // width limit the search alone (root threat solver off) proves it at depth 9; the
    // earlier search needed depth 11.
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    let game = [(8, 8), (6, 9), (5, 5), (9, 9), (8, 7), (8, 10), (10, 8)];
    let vct_start = [(7, 9), (8, 9), (6, 8), (5, 7)];
    for (x, y) in game.into_iter().chain(vct_start) {
        b.make(sq(x, y));
    }
    assert_search_alone_wins(&b, 9);
}

#[test]
fn exact_five_win_found_by_the_search_alone() {
    // From a game PentaZen won as white (exact five, 0.5 s a move): after black's h8
    // (7,7) white wins with g4 (6,11) in 17 plies, a VCT that PentaZen announced at
    // once (f7, (5,8), wins too). The search alone (root threat solver off) proves a
    // win by depth 14, in about 450 000 nodes (before the fail-high reduction, which
    // takes one ply off moves in cut nodes, it did at depth 13 in about 420 000).
    let mut b = Board::new(15, 15, Rule::Exact).unwrap();
    for (x, y) in [(8, 4), (8, 9), (8, 8), (7, 10), (8, 7), (6, 9), (7, 7)] {
        b.make(sq(x, y));
    }
    assert_search_alone_wins(&b, 14);
}

/// Two four-threes for white far apart (f8 on the left: a four down the column and an
/// open three along the row; k10 on the right, the same), and black, to move, with
/// single stones only: no four to gain a tempo with, and one move cannot stop both.
const TWO_FOUR_THREES: &str = "
        X . . . . . . X . . . . . . X
        . . . . . . . . . . X . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . . . . O O . .
        . . . . . . . . . . . . . . .
        X . . . . . . . . . . . . . X
        . . . . O O . . . . . . . . .
        . . . O . . . . . . . . . . .
        . . . O . . . . . . . . . . .
        . . . O . . . . . . . . . . .
        . . . X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        X . . . . . . X . . . . . . X
        ";

#[test]
fn a_four_three_against_no_four_is_a_win_without_searching_it() {
    // One ply is enough: after any black move white, to move, has a four-three and black
    // has no four to answer with, which the search scores as a win on sight (before it
    // would ask the leaf VCF). The root threat solver is off.
    let b = Board::from_diagram(TWO_FOUR_THREES, Rule::Freestyle).unwrap();
    assert_eq!(b.side_to_move(), fivefold::core::types::Color::Black);
    let mut s = fivefold::engine::search::Searcher::new(
        std::sync::Arc::new(fivefold::engine::tt::Tt::new(1 << 20)),
        fivefold::engine::StopToken::new(),
    );
    let limits = Limits {
        max_depth: Some(1),
        skip_threats: true,
        ..Limits::default()
    };
    let mut networks = Networks::built_in();
    s.prepare_evaluation(&mut networks, &b);
    let r = s.search(&b, &limits, &mut |_| {});
    assert!(r.score <= -MATE_BOUND, "score {} pv {:?}", r.score, r.pv);
    // The same under renju with white to win: white's four-three is not a foul.
    let b = Board::from_diagram(TWO_FOUR_THREES, Rule::Renju).unwrap();
    s.prepare_evaluation(&mut networks, &b);
    let r = s.search(&b, &limits, &mut |_| {});
    assert!(
        r.score <= -MATE_BOUND,
        "renju: score {} pv {:?}",
        r.score,
        r.pv
    );
}

#[test]
fn renju_black_and_caro_threes_are_not_wins_on_sight() {
    use fivefold::core::pattern::Threat;
    use fivefold::core::types::Color;
    use fivefold::engine::threat::quick_win;
    // The colours swapped: black, to move, has the two four-threes.
    let swapped: String = TWO_FOUR_THREES
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect();
    let on_sight = |rule| {
        let mut b = Board::from_diagram(&swapped, rule).unwrap();
        b.set_side_to_move(Color::Black);
        quick_win(&b)
    };
    assert_eq!(on_sight(Rule::Freestyle), Some((5, Threat::FourThree)));
    assert_eq!(on_sight(Rule::Exact), Some((5, Threat::FourThree)));
    // Renju black's three may end in a foul, and a caro five may be spoiled from outside:
    // the search plays those out instead.
    assert_eq!(on_sight(Rule::Renju), None);
    assert_eq!(on_sight(Rule::Caro), None);
    assert_eq!(on_sight(Rule::CaroExact), None);
}

/// Black (to move) has two double threes to make, one in each corner region, but no win
/// on sight while white has a three that can become a four (h8 i8 j8, blocked at g8).
/// Blocking it (k8 or l8) leaves white, with no four, facing two double threes it cannot
/// both stop; so does either double three (white's one four comes to nothing).
const BLOCK_THEN_TWO_DOUBLE_THREES: &str = "
        O . . . . . . O . . . . . . O
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . X X . . .
        . . . . . . . . . . . . X . .
        . . . . . . . . . . . . X . .
        . . . . . . . . . . . . . . .
        . . . . . . X O O O . . . . .
        . . . . . . . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . X X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . . . . . . O . . . . . . O
        ";

#[test]
fn a_leaf_where_the_opponent_wins_on_sight_is_searched_on() {
    // One ply, without the root threat solver: after the block (or a double three), white
    // is to move at a leaf where black would win on sight. Scored as it stands, that leaf
    // is just a good position (no VCF of white's changes that); searched on, every white
    // move loses.
    let b = Board::from_diagram(BLOCK_THEN_TWO_DOUBLE_THREES, Rule::Freestyle).unwrap();
    assert_eq!(b.side_to_move(), fivefold::core::types::Color::Black);
    assert_eq!(fivefold::engine::threat::quick_win(&b), None);
    let limits = Limits {
        max_depth: Some(1),
        skip_threats: true,
        ..Limits::default()
    };
    let r = search_position(&b, &limits, 1);
    assert!(r.score >= MATE_BOUND, "score {} pv {:?}", r.score, r.pv);
    // The leaves after the blocks, scored as they stand, are no loss for white.
    for block in [sq(10, 7), sq(11, 7)] {
        let mut after = b.clone();
        after.make(block);
        let static_score = fivefold::core::eval::evaluate(&after);
        assert!(
            static_score > -MATE_BOUND,
            "{block:?}: static score {static_score}"
        );
    }
}

#[test]
fn a_leaf_searched_on_one_ply_past_the_horizon_is_searched_cleanly() {
    // Renju, black to move. Two plies deep, some leaves are searched on at depth -1 (the
    // opponent wins on sight there); the move-count limit once turned that depth into an
    // overflowing count of moves (a panic in debug builds, no limit at all in release).
    const POSITION: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . X . . . .
        . . . . . X . . O . . . . . .
        . . . . . . . X . . X . . . .
        . . . . . . X . . . O . . . .
        . . . . . . . . . . O . . . .
        . . . . . . . . O . O . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";
    for rule in [Rule::Renju, Rule::Freestyle] {
        let b = Board::from_diagram(POSITION, rule).unwrap();
        for depth in 1..=4 {
            let limits = Limits {
                max_depth: Some(depth),
                ..Limits::default()
            };
            let mut s = fivefold::engine::search::Searcher::new(
                std::sync::Arc::new(fivefold::engine::tt::Tt::new(1 << 16)),
                fivefold::engine::StopToken::new(),
            );
            s.prepare_evaluation(&mut Networks::built_in(), &b);
            let r = s.search(&b, &limits, &mut |_| {});
            assert!(b.is_empty(r.best), "{rule:?} depth {depth}: {:?}", r.best);
            assert_eq!(r.depth, depth, "{rule:?}: search stopped early");
            assert!(!is_mate(r.score), "{rule:?} depth {depth}: {}", r.score);
        }
    }
}

/// Restrictions (`fivefold::engine::restrict`): a forbidden point and a block path keep the
/// search off a move at the root and deeper; a restricted set empties the table; with
/// every move ruled out the search still answers an empty square.
#[test]
fn restrictions_rule_out_moves_at_every_depth() {
    use fivefold::engine::restrict::Restrictions;
    use fivefold::engine::{Engine, StopToken};
    use fivefold::Color;
    // Black to move has an open four on row 7 (wins at 4,7 and 9,7); white has none.
    let b = Board::from_diagram(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . O . O . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X X X X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
    )
    .unwrap();
    let limits = Limits {
        max_depth: Some(4),
        ..Limits::default()
    };
    let mut e = Engine::new(1 << 20);
    e.set_threads(1);
    let stop = StopToken::new();
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert!([sq(4, 7), sq(9, 7)].contains(&r.best) && r.score >= MATE_BOUND);
    assert!(e.probe_hash(b.hash()).is_some() || r.depth == 1);

    // Both fives forbidden for black: no win in one, and the table was emptied.
    let mut rs = Restrictions::default();
    rs.set_forbidden(Color::Black, sq(4, 7), true);
    rs.set_forbidden(Color::Black, sq(9, 7), true);
    let mut after = b.clone();
    after.make(sq(10, 10));
    e.set_restrictions(&rs);
    assert!(e.probe_hash(b.hash()).is_none());
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert!(![sq(4, 7), sq(9, 7)].contains(&r.best), "{:?}", r.best);
    assert!(r.score < MATE_BOUND, "{}", r.score);
    // One ply deeper (black has played elsewhere, white to move): black's fives are
    // still forbidden, so white is not lost.
    let r = e.think(&after, &limits, &stop, &mut |_| {});
    assert!(r.score > -MATE_BOUND, "{}", r.score);

    // A block path on the root position: the other five.
    let mut rs = Restrictions::default();
    rs.block_path(b.hash(), sq(4, 7));
    e.set_restrictions(&rs);
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert_eq!(r.best, sq(9, 7));

    // Every empty square ruled out for black: still an empty square.
    let mut rs = Restrictions::default();
    for p in b.squares().filter(|&p| b.is_empty(p)) {
        rs.set_forbidden(Color::Black, p, true);
    }
    e.set_restrictions(&rs);
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert!(b.is_empty(r.best));

    // No restrictions: the search of before, with its win.
    e.set_restrictions(&Restrictions::default());
    let r = e.think(&b, &limits, &stop, &mut |_| {});
    assert!([sq(4, 7), sq(9, 7)].contains(&r.best) && r.score >= MATE_BOUND);
}

/// A search that runs out of nodes partway through an iteration may play that
/// iteration's new best move; the last progress report names it then, so that a GUI's
/// last line of thinking is the move played (seen under Xvfb: Yixin-Board's last
/// `INFO BESTLINE` began with another move than the answer).
#[test]
fn the_last_report_names_the_move_played() {
    use fivefold::cli::bench::{position, POSITIONS};
    use fivefold::engine::search::Searcher;
    use fivefold::engine::stop::StopToken;
    use fivefold::engine::tt::Tt;
    use std::sync::Arc;
    let mut checked = 0;
    for p in POSITIONS {
        let board = position(p);
        for max_nodes in (300..3_000).step_by(400) {
            let mut s = Searcher::new(Arc::new(Tt::new(1 << 20)), StopToken::new());
            let limits = Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            };
            let mut last: Option<Pos> = None;
            s.prepare_evaluation(&mut Networks::built_in(), &board);
            let r = s.search(&board, &limits, &mut |i| last = i.pv.first().copied());
            if let Some(m) = last {
                assert_eq!(m, r.best, "{}, {max_nodes} nodes", p.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 3 * POSITIONS.len(), "{checked}");
}
