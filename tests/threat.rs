//! The threat-space solver: hand-made diagrams under every rule, the shared puzzle
//! sample, and cross-checks against slow exhaustive references.
//!
//! Diagrams: `X` black, `O` white, `.` empty, rows labelled as in game records (the top
//! row is the highest number), columns a, b, c, ... from the left; squares are named
//! that way (`f7`) in the expectations. The side to move is always given explicitly.

use fivefold::cli::puzzles::parse_puzzles;
use fivefold::core::notation::{parse_square, square_name};
use fivefold::core::pattern::Threat;
use fivefold::core::rng::{Rng, XorShift64};
use fivefold::core::rules::{self, reference::Grid};
use fivefold::engine::threat::ThreatSolver;
use fivefold::engine::StopToken;
use fivefold::{Board, Color, Pos, Rule};

fn pos(rule: Rule, side: Color, diagram: &str) -> Board {
    let mut b = Board::from_diagram(diagram, rule).expect("diagram parses");
    b.set_side_to_move(side);
    b
}

fn sq(b: &Board, name: &str) -> Pos {
    let (x, y) = parse_square(name, b.width(), b.height()).expect("square");
    Pos::new(x, y)
}

fn names(b: &Board, line: &[Pos]) -> Vec<String> {
    line.iter()
        .map(|&p| {
            if p.is_none() {
                "any".to_string()
            } else {
                square_name(p, b.height())
            }
        })
        .collect()
}

/// VCF of the side to move; checks that the board is left as it was.
fn vcf(b: &mut Board, plies: usize) -> Option<Vec<String>> {
    let before = (b.hash(), b.move_count(), b.side_to_move());
    let mut s = ThreatSolver::new();
    let line = s.vcf(b, plies, 10_000_000);
    assert_eq!(
        (b.hash(), b.move_count(), b.side_to_move()),
        before,
        "board not restored"
    );
    assert!(!s.stats().aborted);
    line.map(|l| {
        check_line(b, &l, false);
        names(b, &l)
    })
}

/// VCT of the side to move, as `vcf`.
fn vct(b: &mut Board, plies: usize) -> Option<Vec<String>> {
    let before = (b.hash(), b.move_count(), b.side_to_move());
    let mut s = ThreatSolver::new();
    let line = s.vct(b, plies, 2_000_000);
    assert_eq!(
        (b.hash(), b.move_count(), b.side_to_move()),
        before,
        "board not restored"
    );
    assert!(!s.stats().aborted);
    line.map(|l| {
        check_line(b, &l, true);
        names(b, &l)
    })
}

/// Checks a winning line with the slow reference rules, independently of the solver:
/// every move is on an empty square, the attacker's moves are legal (renju), in a VCF
/// each attacker move but the last leaves it a square to make five, the defender's
/// moves are legal, and the last move makes five. A defender move of `Pos::NONE` is
/// allowed only when the defender has no legal square that takes away the threat.
fn check_line(b: &Board, line: &[Pos], vct: bool) {
    let mut g = Grid::from_board(b);
    let a = b.side_to_move();
    let d = a.opp();
    let free = |g: &Grid| -> Vec<(i32, i32)> {
        (0..g.h)
            .flat_map(|y| (0..g.w).map(move |x| (x, y)))
            .filter(|&(x, y)| g.get(x, y) == Some(None))
            .collect()
    };
    let fives = |g: &Grid, c: Color| -> Vec<(i32, i32)> {
        free(g)
            .into_iter()
            .filter(|&(x, y)| g.makes_five(x, y, c))
            .collect()
    };
    assert!(!line.is_empty() && line.len() % 2 == 1, "line {line:?}");
    for (i, &p) in line.iter().enumerate() {
        let attacker = i % 2 == 0;
        let c = if attacker { a } else { d };
        if p.is_none() {
            assert!(!attacker, "attacker pass in {line:?}");
            // Every square that would stop the attacker is a foul for the defender.
            for (x, y) in free(&g) {
                let mut g2 = g.clone();
                g2.cells[(y * g2.w + x) as usize] = Some(d);
                let stops = fives(&g2, a).is_empty() && !g2.makes_five(x, y, d);
                if stops {
                    assert!(
                        g.rule == Rule::Renju && d == Color::Black && g.is_forbidden(x, y),
                        "defender could play {x},{y}: {line:?}"
                    );
                }
            }
            continue;
        }
        let (x, y) = (p.x() as i32, p.y() as i32);
        assert_eq!(
            g.get(x, y),
            Some(None),
            "move {i} on a non-empty square: {line:?}"
        );
        if c == Color::Black && g.rule == Rule::Renju {
            assert!(!g.is_forbidden(x, y), "move {i} is a renju foul: {line:?}");
        }
        if i == line.len() - 1 {
            assert!(
                g.makes_five(x, y, a),
                "the line does not end with a five: {line:?}"
            );
        }
        g.cells[(y * g.w + x) as usize] = Some(c);
        if attacker && !vct && i < line.len() - 1 {
            assert!(
                !fives(&g, a).is_empty(),
                "attacker move {i} is not a four: {line:?}"
            );
        }
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ------------------------------------------------------------------ VCF, every rule

/// A four-three: f7 makes a four on row 7 (g7 to complete, b7 is white) and the
/// split three f7 . f5 f4 on column f; after the forced g7, f6 is an open four.
/// The same under every rule. White, to move instead, has no VCF (one stone).
const FOUR_THREE: &str = "
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

#[test]
fn four_three_under_every_rule() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, FOUR_THREE);
        let line = vcf(&mut b, 225).unwrap_or_else(|| panic!("{rule:?}: no VCF"));
        assert_eq!(line[..3], strs(&["f7", "g7", "f6"]), "{rule:?}");
        assert_eq!(line.len(), 5, "{rule:?}");
        // Too short a budget: no VCF in three plies.
        assert_eq!(vcf(&mut b, 3), None, "{rule:?}");
        let mut w = pos(rule, Color::White, FOUR_THREE);
        assert_eq!(vcf(&mut w, 225), None, "{rule:?}");
    }
}

/// Win in one? Black b7 c7 d7 and f7 g7: e7 joins them into six in a row, a five in
/// freestyle and caro (the run is not blocked at both ends), an overline, so no win,
/// under exact five, renju and caro with exact five; and no other four exists.
const SIX: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . X X X . X X . . .
 6 . . . . . . . . . .
 5 . . . . . . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . O O .
 1 . . . . . . . . . .
";

#[test]
fn overline_wins_only_where_the_rule_says() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, SIX);
        let want = matches!(rule, Rule::Freestyle | Rule::Caro).then(|| strs(&["e7"]));
        assert_eq!(vcf(&mut b, 225), want, "{rule:?}");
    }
    let mut b = pos(Rule::Renju, Color::Black, SIX);
    assert!(
        {
            let p = sq(&b, "e7");
            rules::is_forbidden(&mut b, p)
        },
        "the overline is a renju foul"
    );
}

/// b8 d8 e8 g8 black, h8 white, and a two on column f. f8 makes d8-g8, whose only free
/// completion c8 gives six (b8..g8): a four in freestyle and caro, where f8 is then a
/// four-three; no four at all under exact five, renju and caro-exact, where no other
/// four leads anywhere. (Freestyle has a quicker way too: c8 makes b8-e8 with two
/// completions, a8 and f8.)
const OVERLINE_FOUR: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . X . X X . X O . .
 7 . . . . . X . . . .
 6 . . . . . X . . . .
 5 . . . . . . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";

#[test]
fn a_four_completed_only_by_an_overline_is_no_four_under_exact_rules() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, OVERLINE_FOUR);
        let found = vcf(&mut b, 225);
        match rule {
            Rule::Freestyle | Rule::Caro => assert!(found.is_some(), "{rule:?}"),
            _ => assert_eq!(found, None, "{rule:?}"),
        }
    }
    let b = pos(Rule::Exact, Color::Black, OVERLINE_FOUR);
    assert_ne!(b.threat(sq(&b, "c8"), Color::Black), Threat::Five);
    // Freestyle: f8 then the column is the designed line (c8 first is shorter: any
    // five-ply line must start with c8 or f8).
    let mut b = pos(Rule::Freestyle, Color::Black, OVERLINE_FOUR);
    let line = vcf(&mut b, 225).unwrap();
    assert!(line[0] == "c8" || line[0] == "f8", "{line:?}");
}

/// The counter-four. f10 makes a four on row 10 (b10 is white) that only g10 stops; g10
/// gives white the diagonal g10 h9 i8 j7, a four whose only free end is f11 (k6 is
/// black). So black must answer at f11 before anything else.
///
/// - `COUNTER_FOUR_NONE`: without j7 white's block makes no four and black wins with the
///   open four f9 (f7 f8 f9 f10).
/// - `COUNTER_FOUR`: with j7 the forced f11 is a four (f11 f10 . f8 f7) but white takes
///   f9 and nothing is left: no VCF. Black's only other four, g10, gives white f10 and
///   kills column f.
/// - `COUNTER_FOUR_BLOCK_WINS`: add g11 h11; the forced block f11 is now a four and an
///   open three (f11 g11 h11); after white's f9, e11 or i11 is an open four.
const COUNTER_FOUR_NONE: &str = "
12 . . . . . . . . . . . .
11 . . . . . . . . . . . .
10 . O X X X . . . . . . .
 9 . . . . . . . O . . . .
 8 . . . . . X . . O . . .
 7 . . . . . X . . . . . .
 6 . . . . . . . . . . X .
 5 . . . . . . . . . . . .
 4 . . . . . . . . . . . .
 3 . . . . . . . . . . . .
 2 . . . . . . . . . . . .
 1 . . . . . . . . . . . .
";
const COUNTER_FOUR: &str = "
12 . . . . . . . . . . . .
11 . . . . . . . . . . . .
10 . O X X X . . . . . . .
 9 . . . . . . . O . . . .
 8 . . . . . X . . O . . .
 7 . . . . . X . . . O . .
 6 . . . . . . . . . . X .
 5 . . . . . . . . . . . .
 4 . . . . . . . . . . . .
 3 . . . . . . . . . . . .
 2 . . . . . . . . . . . .
 1 . . . . . . . . . . . .
";
const COUNTER_FOUR_BLOCK_WINS: &str = "
12 . . . . . . . . . . . .
11 . . . . . . X X . . . .
10 . O X X X . . . . . . .
 9 . . . . . . . O . . . .
 8 . . . . . X . . O . . .
 7 . . . . . X . . . O . .
 6 . . . . . . . . . . X .
 5 . . . . . . . . . . . .
 4 . . . . . . . . . . . .
 3 . . . . . . . . . . . .
 2 . . . . . . . . . . . .
 1 . . . . . . . . . . . .
";

#[test]
fn counter_four_must_be_answered_by_a_four() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, COUNTER_FOUR_NONE);
        let line = vcf(&mut b, 225).unwrap_or_else(|| panic!("{rule:?}"));
        assert_eq!(line[..3], strs(&["f10", "g10", "f9"]), "{rule:?}");

        let mut b = pos(rule, Color::Black, COUNTER_FOUR);
        assert_eq!(vcf(&mut b, 225), None, "{rule:?}: the counter-four refutes");

        let mut b = pos(rule, Color::Black, COUNTER_FOUR_BLOCK_WINS);
        let line = vcf(&mut b, 225).unwrap_or_else(|| panic!("{rule:?}"));
        assert_eq!(line[..4], strs(&["f10", "g10", "f11", "f9"]), "{rule:?}");
        assert!(line[4] == "e11" || line[4] == "i11", "{rule:?} {line:?}");
        assert_eq!(line.len(), 7, "{rule:?}");
    }
}

/// White already threatens five. `THREAT_ON_KEY_SQUARE`: white's e6 g8 h9 i10 needs
/// f7, which is also black's four-three square: black blocks with it and wins as in
/// `FOUR_THREE`. `THREAT_ELSEWHERE`: white's a1-d1 needs e1, no four for black, so
/// black's four-three comes too late: no VCF.
const THREAT_ON_KEY_SQUARE: &str = "
10 . . . . . . . . O .
 9 . . . . . . . O . .
 8 . . . . . . O . . .
 7 . O X X X . . . . .
 6 . . . . O . . . . .
 5 . . . . . X . . . .
 4 . . . . . X . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";
const THREAT_ELSEWHERE: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . O X X X . . . . .
 6 . . . . . . . . . .
 5 . . . . . X . . . .
 4 . . . . . X . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 O O O O . . . . . .
";

#[test]
fn a_five_threat_of_the_defender_comes_first() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, THREAT_ON_KEY_SQUARE);
        let line = vcf(&mut b, 225).unwrap_or_else(|| panic!("{rule:?}"));
        assert_eq!(line[..3], strs(&["f7", "g7", "f6"]), "{rule:?}");
        let mut b = pos(rule, Color::Black, THREAT_ELSEWHERE);
        assert_eq!(vcf(&mut b, 225), None, "{rule:?}");
    }
}

/// f5 makes two fours (c5-f5 needs g5, b5 is white; f5-f8 needs f4, f9 is white): a win
/// everywhere but in renju, where the double four is a foul. Black's other fours (g5,
/// f4) are answered at f5.
const DOUBLE_FOUR: &str = "
10 . . . . . . . . . .
 9 . . . . . O . . . .
 8 . . . . . X . . . .
 7 . . . . . X . . . .
 6 . . . . . X . . . .
 5 . O X X X . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";

/// f5 makes a four (b5 white, c5 d5 e5) and two open threes (f6 f7 on column f, g6 h7
/// on the diagonal): a four-three-three, winning in freestyle, a foul in renju. With f5
/// forbidden black's only four, g5, is answered at f5.
const FOUR_THREE_THREE: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . . . . . X . X . .
 6 . . . . . X X . . .
 5 . O X X X . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";

#[test]
fn renju_black_cannot_win_with_a_forbidden_four() {
    for rule in Rule::ALL {
        for diagram in [DOUBLE_FOUR, FOUR_THREE_THREE] {
            let mut b = pos(rule, Color::Black, diagram);
            let found = vcf(&mut b, 225);
            if rule == Rule::Renju {
                assert_eq!(found, None);
                assert!({
                    let p = sq(&b, "f5");
                    rules::is_forbidden(&mut b, p)
                });
            } else {
                assert_eq!(found.expect("VCF")[0], "f5", "{rule:?}");
            }
        }
    }
}

/// White's c4 d4 e4 (b4 black) becomes a four with f4, completed only at g4; g4 is a
/// double three for black (e6 f5 and i6 h5 with g4). In renju black may not block
/// there and white wins; elsewhere black blocks and white has nothing.
const FORBIDDEN_BLOCK: &str = "
11 . . . . . . . . . . .
10 . . . . . . . . . . .
 9 . . . . . . . . . . .
 8 . . . . . . . . . . .
 7 . . . . . . . . . . .
 6 . . . . X . . . X . .
 5 . . . . . X . X . . .
 4 . X O O O . . . . . .
 3 . . . . . . . . . . .
 2 . . . . . . . . . . .
 1 . . . . . . . . . . .
";

#[test]
fn renju_white_wins_where_black_may_not_block() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::White, FORBIDDEN_BLOCK);
        let found = vcf(&mut b, 225);
        if rule == Rule::Renju {
            assert_eq!(found, Some(strs(&["f4", "any", "g4"])));
            let f4 = sq(&b, "f4");
            b.make(f4);
            assert!({
                let p = sq(&b, "g4");
                rules::is_forbidden(&mut b, p)
            });
        } else {
            assert_eq!(found, None, "{rule:?}");
        }
    }
}

/// Caro: a five needs a free end. `CARO_DEAD_FIVE`: b6-e6 between a6 and g6: f6 makes a
/// five blocked at both ends. `CARO_DEAD_OPEN_FOUR`: f6 makes c6-f6 between a6 and h6,
/// an open four elsewhere, but white's b6 (or g6) leaves the other five blocked at
/// both ends.
const CARO_DEAD_FIVE: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . . . . . . . . . .
 6 O X X X X . O . . .
 5 . . . . . . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . O .
 1 . . . . . . . . . .
";
const CARO_DEAD_OPEN_FOUR: &str = "
10 . . . . . . . . . .
 9 . . . . . . . . . .
 8 . . . . . . . . . .
 7 . . . . . . . . . .
 6 O . X X X . . O . .
 5 . . . . . . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";

#[test]
fn caro_blocked_fives_are_no_threat() {
    for rule in Rule::ALL {
        let caro = matches!(rule, Rule::Caro | Rule::CaroExact);
        let mut b = pos(rule, Color::Black, CARO_DEAD_FIVE);
        assert_eq!(vcf(&mut b, 225), (!caro).then(|| strs(&["f6"])), "{rule:?}");
        let mut b = pos(rule, Color::Black, CARO_DEAD_OPEN_FOUR);
        let found = vcf(&mut b, 225);
        if caro {
            assert_eq!(found, None, "{rule:?}");
        } else {
            assert_eq!(found.expect("VCF")[0], "f6", "{rule:?}");
        }
    }
}

// ------------------------------------------------------------------ reference VCF

/// Exhaustive VCF on a plain grid, straight from the definition: the attacker `a` plays
/// any legal move after which it can make five (a four) and which leaves the defender no
/// five; the defender may then play any legal move after which the attacker cannot make
/// five at once (every other move loses to the five). Wins within `budget` plies, the
/// five included.
fn ref_vcf(g: &mut Grid, a: Color, budget: u32) -> bool {
    let d = a.opp();
    let empties: Vec<(i32, i32)> = (0..g.h)
        .flat_map(|y| (0..g.w).map(move |x| (x, y)))
        .filter(|&(x, y)| g.get(x, y) == Some(None))
        .collect();
    let has_five = |g: &Grid, c: Color| {
        empties
            .iter()
            .any(|&(x, y)| g.get(x, y) == Some(None) && g.makes_five(x, y, c))
    };
    if has_five(g, a) {
        return true;
    }
    if budget < 3 {
        return false;
    }
    let legal = |g: &mut Grid, x: i32, y: i32, c: Color| {
        !(g.rule == Rule::Renju && c == Color::Black && g.is_forbidden(x, y))
    };
    for &(x, y) in &empties {
        set(g, x, y, Some(a));
        let four = has_five(g, a) && !has_five(g, d);
        set(g, x, y, None);
        if !four || !legal(g, x, y, a) {
            continue;
        }
        set(g, x, y, Some(a));
        let mut wins = true;
        for &(rx, ry) in &empties {
            if g.get(rx, ry) != Some(None) {
                continue;
            }
            set(g, rx, ry, Some(d));
            let stops = !has_five(g, a);
            set(g, rx, ry, None);
            if !stops || !legal(g, rx, ry, d) {
                continue;
            }
            set(g, rx, ry, Some(d));
            let w = ref_vcf(g, a, budget - 2);
            set(g, rx, ry, None);
            if !w {
                wins = false;
                break;
            }
        }
        set(g, x, y, None);
        if wins {
            return true;
        }
    }
    false
}

fn set(g: &mut Grid, x: i32, y: i32, v: Option<Color>) {
    let w = g.w;
    g.cells[(y * w + x) as usize] = v;
}

/// Random stones (not a game), none of them making five.
fn random_position(rng: &mut XorShift64, rule: Rule, size: usize, density: usize) -> Board {
    let mut b = Board::square(size, rule).unwrap();
    for p in b.squares().collect::<Vec<_>>() {
        let r = rng.below(100);
        let c = if r < density / 2 {
            Color::Black
        } else if r < density {
            Color::White
        } else {
            continue;
        };
        if b.threat(p, c) != Threat::Five {
            b.make_color(p, c);
        }
    }
    b
}

/// Calls `f` on `per_rule` random positions of every rule (9 to 8 + `sizes` squares a
/// side), once with each colour to move, skipping a side that has a five at once.
fn each_random_position(
    rng: &mut XorShift64,
    per_rule: usize,
    sizes: usize,
    mut f: impl FnMut(Rule, &mut Board, Color),
) {
    for rule in Rule::ALL {
        for i in 0..per_rule {
            let size = 9 + rng.below(sizes);
            let mut b = random_position(rng, rule, size, 22 + i % 14);
            for side in [Color::Black, Color::White] {
                b.set_side_to_move(side);
                if b.count(side, Threat::Five) == 0 {
                    f(rule, &mut b, side);
                }
            }
        }
    }
}

#[test]
fn vcf_matches_exhaustive_reference() {
    let mut rng = XorShift64::new(0x7EA7_5EED);
    let mut solver = ThreatSolver::with_table_bits(12);
    let mut wins = [0usize; 5];
    let mut losses = [0usize; 5];
    // Wins that need at least two fours (not found with a smaller budget).
    let mut deep = [0usize; 5];
    each_random_position(&mut rng, 80, 3, |rule, b, side| {
        let before = (b.hash(), b.move_count());
        let mut shallower = false;
        for budget in [3u32, 5, 7, 9] {
            let fast = solver.has_vcf(b, budget as usize, u64::MAX);
            assert_eq!((b.hash(), b.move_count()), before, "board not restored");
            let slow = ref_vcf(&mut Grid::from_board(b), side, budget);
            assert_eq!(
                fast,
                slow,
                "{rule:?} {side:?} budget {budget}\n{}",
                b.to_diagram()
            );
            if fast {
                wins[rule.index()] += 1;
                deep[rule.index()] += (budget >= 5 && !shallower) as usize;
                shallower = true;
                let line = solver.vcf(b, budget as usize, u64::MAX).expect("line");
                assert!(
                    line.len() <= budget as usize && line.len() % 2 == 1,
                    "{line:?}"
                );
            } else {
                losses[rule.index()] += 1;
            }
        }
    });
    eprintln!("wins {wins:?} losses {losses:?} deep {deep:?}");
    for r in 0..5 {
        assert!(
            wins[r] >= 20 && losses[r] >= 20 && deep[r] >= 5,
            "rule {r}: too few of one kind: {wins:?} {losses:?} {deep:?}"
        );
    }
}

/// The narrow VCF the search runs at its leaves (`has_narrow_vcf`) tries only fours that
/// also make a three or a two, near the last one after the first, and counts a four-three
/// or a double three against a defender with no four (`threat::quick_win`) as a win where
/// its fours lead to one. Every win it reports must be real: a VCF the full search finds
/// within the same plies, or else a VCT the full threat search finds. It must find the
/// simple ones (a four-three), some that are no VCF at all (fours, then a double three),
/// and it does miss some VCFs (else it would be the full search under another name).
#[test]
fn narrow_vcf_wins_are_real() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, FOUR_THREE);
        assert!(
            ThreatSolver::new().has_narrow_vcf(&mut b, 225, 1_000),
            "{rule:?}: four-three"
        );
        let mut w = pos(rule, Color::White, FOUR_THREE);
        assert!(
            !ThreatSolver::new().has_narrow_vcf(&mut w, 225, 1_000),
            "{rule:?}"
        );
    }
    let mut rng = XorShift64::new(0x0A22_0BEE);
    let mut narrow = ThreatSolver::with_table_bits(12);
    let mut full = ThreatSolver::with_table_bits(12);
    let (mut found, mut missed, mut beyond_vcf) = (0, 0, 0);
    each_random_position(&mut rng, 60, 5, |rule, b, side| {
        let before = (b.hash(), b.move_count());
        for budget in [7usize, 31] {
            let n = narrow.has_narrow_vcf(b, budget, 1_000);
            assert_eq!((b.hash(), b.move_count()), before, "board not restored");
            let f = full.has_vcf(b, budget, u64::MAX);
            if n && !f {
                assert!(
                    full.has_vct(b, budget, u64::MAX),
                    "{rule:?} {side:?} budget {budget}: narrow win that is no VCF and no VCT\n{}",
                    b.to_diagram()
                );
                beyond_vcf += 1;
            }
            found += usize::from(n);
            missed += usize::from(f && !n);
        }
    });
    eprintln!("narrow VCF: {found} found ({beyond_vcf} no VCF), {missed} missed");
    assert!(
        found >= 50 && missed >= 1 && beyond_vcf >= 1,
        "found {found}, missed {missed}, beyond a VCF {beyond_vcf}"
    );
}

// ------------------------------------------------------------------ deep VCF

/// Sixteen fours before the five (33 plies), built as a chain: each four uses the stone
/// of the previous one, so they must come in order, and the last is an open four. No
/// VCF is shorter, and g6 is the only first move of a 33-ply VCF (every other four at
/// the start, j6, leaves none: checked with the solver when the position was made).
const DEEP_FREESTYLE: &str = "
15 . . O . X . X . O . . O . X .
14 . . . X . . X . . . . X X . .
13 . . . . . O . X O . . . . . .
12 . . . X X . . . . . . X . . .
11 . O . . . O . . . . X . . O .
10 . X X O X . . . O . O . . X .
 9 . . O X . . . . . . . O X X .
 8 . X . . O . . . . . . . . . .
 7 . . X . . X . . . . . . . . O
 6 . . X . O X . X X . O . . . .
 5 . O . . . . . X . . . . X O .
 4 . X . . . . . O . . X . X O .
 3 X . O . . . . . . . . . . . .
 2 . . . . . . . . . X O . . . .
 1 . . . . . . . . O . . . . . .
";

/// The same construction under renju (made and checked with renju's fouls): sixteen
/// fours, i11 first.
const DEEP_RENJU: &str = "
15 . . . . . . . X . O . . . . .
14 . . . . . . . X . . . O . . .
13 . O . . . . . . X . . . . . .
12 . X . . . . X . O . X . . . .
11 . . . . . X . . . O . . X . X
10 . . X X . O . X . . . O O . .
 9 O X O O . . X . X . . . . . .
 8 . . X . . O . . X . . . . . .
 7 . O . . . . . . X . . . . . .
 6 . . . X O . O . O . O . . . .
 5 . . . . X . . . . . . X . . X
 4 . . X . . . . . . . X . . . .
 3 . . O . . X O X . . X . . . .
 2 . . X . . . X O . . . X X O .
 1 . X . . . . . O . X . . . . .
";

#[test]
fn deep_vcf_of_sixteen_fours() {
    for (rule, diagram, first) in [
        (Rule::Freestyle, DEEP_FREESTYLE, "g6"),
        (Rule::Renju, DEEP_RENJU, "i11"),
    ] {
        let mut b = pos(rule, Color::Black, diagram);
        let line = vcf(&mut b, 225).unwrap_or_else(|| panic!("{rule:?}: no VCF"));
        assert_eq!(line.len(), 33, "{rule:?} {line:?}");
        assert_eq!(line[0], first, "{rule:?}");
        assert_eq!(vcf(&mut b, 31), None, "{rule:?}: nothing shorter");

        // A small node limit stops the search: "not found", flagged as cut short.
        let mut s = ThreatSolver::new();
        assert!(!s.has_vcf(&mut b, 225, 20));
        assert!(
            s.stats().aborted && s.stats().nodes <= 21,
            "{:?}",
            s.stats()
        );
        // The table keeps what was proven: a second search is cheaper, and clear()
        // forgets it.
        assert!(s.has_vcf(&mut b, 225, 1_000_000));
        let first_nodes = s.stats().nodes;
        assert!(s.has_vcf(&mut b, 225, 1_000_000));
        assert!(
            s.stats().nodes < first_nodes,
            "{} vs {first_nodes}",
            s.stats().nodes
        );
        s.clear();
        let mut fresh = ThreatSolver::new();
        assert!(s.has_vcf(&mut b, 225, 1_000_000) && fresh.has_vcf(&mut b, 225, 1_000_000));
        assert_eq!(
            s.stats().nodes,
            fresh.stats().nodes,
            "clear() empties the table"
        );
    }
}

// ------------------------------------------------------------------ defence

/// Every move of the side to move after which the opponent has no VCF within `plies`,
/// by the exhaustive reference.
fn reference_defences(b: &mut Board, plies: u32) -> Vec<String> {
    let me = b.side_to_move();
    let mut out = Vec::new();
    for p in b.squares().collect::<Vec<_>>() {
        if !b.is_empty(p) || (me == Color::Black && rules::is_forbidden(b, p)) {
            continue;
        }
        let wins_now = b.threat(p, me) == Threat::Five;
        b.make(p);
        if wins_now || !ref_vcf(&mut Grid::from_board(b), me.opp(), plies) {
            out.push(square_name(p, b.height()));
        }
        b.unmake();
    }
    out
}

#[test]
fn defences_against_a_vcf_match_the_reference() {
    for rule in Rule::ALL {
        // White to move in FOUR_THREE: black threatens f7 (four-three).
        let mut b = pos(rule, Color::White, FOUR_THREE);
        let mut s = ThreatSolver::new();
        let before = b.hash();
        let got: Vec<String> = s
            .vcf_defences(&mut b, 7, 1_000_000)
            .expect("black has a VCF")
            .iter()
            .map(|&p| square_name(p, 10))
            .collect();
        assert_eq!(b.hash(), before);
        let mut got_sorted = got.clone();
        got_sorted.sort();
        let mut want = reference_defences(&mut b, 7);
        want.sort();
        assert_eq!(got_sorted, want, "{rule:?}");
        // By hand: take f7, g7 (the four's completion), f6 (the three's middle), or f8 /
        // f3 (then f6 makes only a closed four). In caro also f9 / f2 (a five at f8 or
        // f3 would be blocked at both ends) and h7 (the same for g7).
        let mut by_hand = strs(&["f3", "f6", "f7", "f8", "g7"]);
        if matches!(rule, Rule::Caro | Rule::CaroExact) {
            by_hand.extend(strs(&["f2", "f9", "h7"]));
        }
        by_hand.sort();
        assert_eq!(got_sorted, by_hand, "{rule:?}");
        // Black to move: white has no VCF, nothing to defend.
        let mut b = pos(rule, Color::Black, FOUR_THREE);
        assert_eq!(s.vcf_defences(&mut b, 7, 1_000_000), None);
    }
    // White to move with its own four on the board: its five (f7) is among the
    // defences, with the same blocks as before (white's four stays a threat, so black's
    // f7 then is a forced block).
    let mut b = pos(Rule::Freestyle, Color::White, THREAT_ON_KEY_SQUARE);
    let mut s = ThreatSolver::new();
    let got = s
        .vcf_defences(&mut b, 7, 1_000_000)
        .expect("black has a VCF");
    let mut got = names(&b, &got);
    got.sort();
    let mut want = reference_defences(&mut b, 7);
    want.sort();
    assert_eq!(got, want);
    assert!(got.contains(&"f7".to_string()));
}

// ------------------------------------------------------------------ VCT

/// Two open twos crossing at f5 (d5 e5, f7 f6): f5 makes two open threes, and white
/// cannot stop both open fours. That is the only way to win in five plies: there is no
/// four to play, and any other move makes at most one three (c5, g5, f8, f4, e6 with d5
/// f7, ...); white blocks it and black has no open four to follow.
const DOUBLE_THREE: &str = "
10 . . . . . . . . . .
 9 . O . . . . . . . .
 8 . . . . . . . . . .
 7 . . . . . X . . . .
 6 . . . . . X . . . .
 5 . . . X X . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . O .
 1 . . . . . . . . . .
";

/// The same crossing on a 7x7 board, where there is little else to play: f2 is the
/// double three. In renju it is black's foul: no VCT at all; white may play it.
const SMALL_DOUBLE_THREE: &str = "
 7 O . . . . . .
 6 . O . . . . .
 5 . . . . . . .
 4 . . . . . X .
 3 . . . . . X .
 2 . . . X X . .
 1 . . . . . . .
";

/// `DOUBLE_THREE` plus white g8 h8 i8 (j8 black): after the double three f5, white's f8
/// is a four (f8-i8, completed only at e8) that also closes column f. Black must take
/// e8, white then blocks row 5: the double three no longer wins in five plies.
/// `DOUBLE_THREE_NO_COUNTER`: white g8 h8 only (no four): it still does.
const DOUBLE_THREE_COUNTER: &str = "
10 . . . . . . . . . .
 9 . O . . . . . . . .
 8 . . . . . . O O O X
 7 . . . . . X . . . .
 6 . . . . . X . . . .
 5 . . . X X . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";
const DOUBLE_THREE_NO_COUNTER: &str = "
10 . . . . . . . . . .
 9 . O . . . . . . . .
 8 . . . . . . O O . .
 7 . . . . . X . . . .
 6 . . . . . X . . . .
 5 . . . X X . . . . .
 4 . . . . . . . . . .
 3 . . . . . . . . . .
 2 . . . . . . . . . .
 1 . . . . . . . . . .
";

fn swap_colours(diagram: &str) -> String {
    diagram
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect()
}

#[test]
fn vct_double_three() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, DOUBLE_THREE);
        assert_eq!(vcf(&mut b, 225), None, "{rule:?}: no VCF, only threes");
        assert_eq!(vct(&mut b, 3), None, "{rule:?}");
        if rule == Rule::Renju {
            // Black's double three is a foul.
            assert_eq!(vct(&mut b, 5), None);
            continue;
        }
        let line = vct(&mut b, 5).unwrap_or_else(|| panic!("{rule:?}"));
        assert_eq!(
            (line[0].as_str(), line.len()),
            ("f5", 5),
            "{rule:?} {line:?}"
        );
    }
}

#[test]
fn vct_renju_double_three_is_forbidden_for_black_only() {
    for rule in Rule::ALL {
        let mut b = pos(rule, Color::Black, SMALL_DOUBLE_THREE);
        let found = vct(&mut b, 35);
        if rule == Rule::Renju {
            assert_eq!(found, None);
            assert!({
                let p = sq(&b, "f2");
                rules::is_forbidden(&mut b, p)
            });
        } else {
            assert_eq!(found.expect("VCT")[0], "f2", "{rule:?}");
        }
        let mut w = pos(rule, Color::White, &swap_colours(SMALL_DOUBLE_THREE));
        assert_eq!(vct(&mut w, 35).expect("white's VCT")[0], "f2", "{rule:?}");
    }
}

#[test]
fn vct_counter_four_refutes_the_double_three() {
    // Not renju: there the double three is black's foul anyway.
    for rule in [Rule::Freestyle, Rule::Exact, Rule::Caro, Rule::CaroExact] {
        let mut b = pos(rule, Color::Black, DOUBLE_THREE_NO_COUNTER);
        assert_eq!(vct(&mut b, 5).expect("VCT")[0], "f5", "{rule:?}");
        let mut b = pos(rule, Color::Black, DOUBLE_THREE_COUNTER);
        assert_eq!(vct(&mut b, 5), None, "{rule:?}");
    }
}

#[test]
fn vct_stops_on_the_flag_and_the_node_limit() {
    let text = std::fs::read_to_string(puzzle_file()).unwrap();
    let pz = parse_puzzles(&text)
        .unwrap()
        .into_iter()
        .find(|p| p.id == "W040")
        .expect("W040");
    let mut b = pz.board().unwrap();
    let before = (b.hash(), b.move_count(), b.side_to_move());
    let mut s = ThreatSolver::new();
    let stop = StopToken::new();
    stop.raise();
    s.set_stop(Some(stop));
    assert_eq!(s.vct(&mut b, 35, u64::MAX), None);
    assert!(
        s.stats().aborted && s.stats().nodes <= 1100,
        "{:?}",
        s.stats()
    );
    s.set_stop(None);
    // The limit is checked at the attacker's nodes: it may be passed by a few moves.
    assert_eq!(s.vct(&mut b, 35, 3000), None);
    assert!(
        s.stats().aborted && s.stats().nodes <= 3016,
        "{:?}",
        s.stats()
    );
    assert_eq!((b.hash(), b.move_count(), b.side_to_move()), before);
}

#[test]
fn a_deadline_stops_every_search_of_the_solver() {
    // The main search bounds its root threat search by a deadline (a share of the move's
    // time): once it has passed, the solver gives up at its next check, as at its node
    // limit; without it the same search runs on.
    let text = std::fs::read_to_string(puzzle_file()).unwrap();
    let pz = parse_puzzles(&text)
        .unwrap()
        .into_iter()
        .find(|p| p.id == "W040")
        .expect("W040");
    let mut b = pz.board().unwrap();
    let before = (b.hash(), b.move_count(), b.side_to_move());
    let mut s = ThreatSolver::new();
    s.set_deadline(Some(std::time::Instant::now()));
    assert_eq!(s.vct(&mut b, 35, u64::MAX), None);
    assert!(
        s.stats().aborted && s.stats().nodes <= 1100,
        "{:?}",
        s.stats()
    );
    assert_eq!(s.vcf(&mut b, 61, u64::MAX), None);
    assert!(s.stats().aborted && s.stats().nodes <= 1100);
    assert_eq!((b.hash(), b.move_count(), b.side_to_move()), before);
    // A deadline far ahead changes nothing: the node limit still applies alone.
    s.set_deadline(Some(
        std::time::Instant::now() + std::time::Duration::from_secs(3600),
    ));
    assert_eq!(s.vct(&mut b, 35, 3000), None);
    assert!(s.stats().aborted && s.stats().nodes > 1100 && s.stats().nodes <= 3016);
    s.set_deadline(None);
    assert_eq!((b.hash(), b.move_count(), b.side_to_move()), before);
}

/// Soundness of the defender's replies: on random positions, after the first move of
/// every VCT found, each legal reply of the defender (every empty square, not only the
/// solver's candidates) still leaves the attacker a five or a VCT two plies shorter.
/// Both with threes only and with VCF threats.
#[test]
fn vct_defender_replies_are_complete() {
    let mut checked = 0;
    for threats in [false, true] {
        let mut rng = XorShift64::new(0x5EC0_7A11);
        let mut s = ThreatSolver::with_table_bits(14);
        s.set_vcf_threats(threats);
        // VCF threats make every check much dearer: fewer positions.
        let enough = if threats { 1 } else { 3 };
        for rule in Rule::ALL {
            let mut found = 0;
            for i in 0..60 {
                if found >= enough {
                    break;
                }
                let mut b = random_position(&mut rng, rule, 9, 18 + i % 10);
                let a = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                b.set_side_to_move(a);
                if b.count(a, Threat::Five) > 0 || b.count(a.opp(), Threat::Five) > 0 {
                    continue;
                }
                let Some(line) = s.vct(&mut b, 7, 20_000) else {
                    continue;
                };
                if line.len() < 5 {
                    continue;
                }
                found += 1;
                checked += all_replies_lose(&mut s, &mut b, &line);
            }
            assert!(
                found >= enough.min(2),
                "{rule:?}: only {found} VCTs in the sample"
            );
        }
    }
    assert!(checked > 500);
}

/// Plays the line's first move and checks every legal reply (returns how many).
fn all_replies_lose(s: &mut ThreatSolver, b: &mut Board, line: &[Pos]) -> usize {
    let a = b.side_to_move();
    let d = a.opp();
    let mut checked = 0;
    b.make(line[0]);
    for r in b.squares().collect::<Vec<_>>() {
        if !b.is_empty(r)
            || (d == Color::Black && b.rule() == Rule::Renju && rules::is_forbidden(b, r))
        {
            continue;
        }
        assert_ne!(
            b.threat(r, d),
            Threat::Five,
            "the defender can make five\n{}",
            b.to_diagram()
        );
        b.make(r);
        let wins = b.count(a, Threat::Five) > 0 || s.has_vct(b, line.len() - 2, 200_000);
        assert!(
            wins,
            "{:?}: reply {r:?} refutes {line:?}\n{}",
            b.rule(),
            b.to_diagram()
        );
        b.unmake();
        checked += 1;
    }
    b.unmake();
    checked
}

/// Black's four scattered stones: no VCT of threes within eleven plies, but a quiet
/// move that threatens a VCF starts one (found with VCF threats on, then every white
/// reply to its first move is checked to lose).
const VCF_THREAT: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . O X . . .
 6 . . X . . . . . .
 5 . . O . . . . . .
 4 . . O . . . X . .
 3 . . . . . X . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
";

#[test]
fn vct_with_vcf_threats() {
    let mut b = pos(Rule::Freestyle, Color::Black, VCF_THREAT);
    assert_eq!(vct(&mut b, 11), None);
    let mut s = ThreatSolver::new();
    s.set_vcf_threats(true);
    let line = s.vct(&mut b, 11, 1_000_000).expect("VCT with VCF threats");
    check_line(&b, &line, true);
    assert!(line.len() <= 11);
    // Some attacker move of the line is neither a four nor a three.
    let mut quiet = 0;
    for (i, &p) in line.iter().enumerate() {
        if i % 2 == 0 && i + 1 < line.len() && b.threat(p, Color::Black) < Threat::OpenThree {
            quiet += 1;
        }
        if p.is_none() {
            let side = b.side_to_move();
            b.set_side_to_move(side.opp());
        } else {
            b.make(p);
        }
    }
    for _ in line.iter().filter(|p| !p.is_none()) {
        b.unmake();
    }
    b.set_side_to_move(Color::Black);
    assert!(quiet >= 1, "{:?}", names(&b, &line));
    assert!(all_replies_lose(&mut s, &mut b, &line) > 40);
}

// ------------------------------------------------------------------ shared puzzles

/// `shared/puzzles/win.txt` beside the repository (the workspace layout), or beside an
/// ancestor directory (a git worktree in a subdirectory); otherwise the copy committed in
/// `tests/data/shared_win.txt`, so a clone on its own runs the same puzzles.
fn puzzle_file() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    dir.ancestors()
        .skip(1)
        .take(3)
        .map(|a| a.join("shared/puzzles/win.txt"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| dir.join("tests/data/shared_win.txt"))
}

/// Node limit per VCT puzzle in this (debug) test.
const PUZZLE_VCT_NODES: u64 = 5_000;
/// VCT puzzles solved within that limit, first move in good= (measured; 35 in the file).
const PUZZLE_VCT_FLOOR: usize = 10;

#[test]
fn shared_puzzles() {
    let text = std::fs::read_to_string(puzzle_file()).unwrap();
    let puzzles = parse_puzzles(&text).unwrap();
    let mut s = ThreatSolver::new();
    let (mut vcf_n, mut vct_n, mut vct_solved) = (0, 0, 0);
    for pz in &puzzles {
        let mut b = pz.board().unwrap();
        s.clear();
        match pz.kind.as_str() {
            "vcf" => {
                vcf_n += 1;
                let line = s
                    .vcf(&mut b, 225, 1_000_000)
                    .unwrap_or_else(|| panic!("{}: no VCF", pz.id));
                check_line(&b, &line, false);
                assert!(pz.is_good(line[0]), "{}: {:?} not in good=", pz.id, line[0]);
            }
            "vct" => {
                vct_n += 1;
                if let Some(line) = s.vct(&mut b, 35, PUZZLE_VCT_NODES) {
                    check_line(&b, &line, true);
                    assert!(pz.is_good(line[0]), "{}: {:?} not in good=", pz.id, line[0]);
                    vct_solved += 1;
                }
            }
            k => panic!("{}: unknown kind {k}", pz.id),
        }
    }
    eprintln!("VCF puzzles {vcf_n}, VCT puzzles {vct_n}, VCT solved {vct_solved}");
    assert!(
        vcf_n >= 5 && vct_n >= 30,
        "the sample shrank: {vcf_n} {vct_n}"
    );
    assert!(
        vct_solved >= PUZZLE_VCT_FLOOR,
        "only {vct_solved} VCT puzzles solved"
    );
}

/// The generated VCF chains of `tests/data/vcf_chains.txt` (the VCF benchmark of
/// `docs/strength.md`): every one is found, with a first move from good=, no shorter than mate=.
#[test]
fn generated_vcf_chains() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vcf_chains.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let puzzles = parse_puzzles(&text).unwrap();
    assert!(puzzles.len() >= 15);
    let mut s = ThreatSolver::new();
    for pz in &puzzles {
        let mut b = pz.board().unwrap();
        let mate: usize = text
            .lines()
            .find(|l| l.contains(&format!("id={} ", pz.id)))
            .and_then(|l| l.split("mate=").nth(1))
            .and_then(|m| m.split(' ').next())
            .and_then(|m| m.parse().ok())
            .expect("mate=");
        let line = s
            .vcf(&mut b, 225, 1_000_000)
            .unwrap_or_else(|| panic!("{}: no VCF", pz.id));
        check_line(&b, &line, false);
        assert!(pz.is_good(line[0]), "{}: {:?} not in good=", pz.id, line[0]);
        assert!(
            line.len() >= mate,
            "{}: {} plies, shorter than {mate}",
            pz.id,
            line.len()
        );
        assert!(
            !s.has_vcf(&mut b, mate - 2, 1_000_000),
            "{}: a VCF shorter than {mate}",
            pz.id
        );
    }
}

// ------------------------------------------------------------- wins seen on sight

/// Whether attacker `a`, to move on `g`, makes five within `plies` (3 or 5) by one of
/// the moves `first`, against every defence: the definition, tried move by move. After
/// the attacker's last move but one the defender, with no five of its own, can stop
/// only one square (the rules here are not caro, where a stone can spoil a five from
/// outside it), or none that is a renju foul for it.
fn ref_wins_from(g: &mut Grid, a: Color, first: &[(i32, i32)], plies: u32) -> bool {
    let legal = |g: &mut Grid, x: i32, y: i32, c: Color| {
        !(g.rule == Rule::Renju && c == Color::Black && g.is_forbidden(x, y))
    };
    fn empties(g: &Grid) -> Vec<(i32, i32)> {
        (0..g.h)
            .flat_map(|y| (0..g.w).map(move |x| (x, y)))
            .filter(|&(x, y)| g.get(x, y) == Some(None))
            .collect()
    }
    // The defender to move after the attacker's move; `left` plies to the five.
    fn defender_loses(
        g: &mut Grid,
        a: Color,
        left: u32,
        legal: &dyn Fn(&mut Grid, i32, i32, Color) -> bool,
    ) -> bool {
        let d = a.opp();
        let e = empties(g);
        if e.iter().any(|&(x, y)| g.makes_five(x, y, d)) {
            return false;
        }
        let fives: Vec<_> = e
            .iter()
            .copied()
            .filter(|&(x, y)| g.makes_five(x, y, a))
            .collect();
        if left == 2 {
            return fives.len() >= 2 || (fives.len() == 1 && !legal(g, fives[0].0, fives[0].1, d));
        }
        e.iter().all(|&(rx, ry)| {
            if !legal(g, rx, ry, d) {
                return true;
            }
            set(g, rx, ry, Some(d));
            let won = empties(g).into_iter().any(|(x, y)| {
                if g.makes_five(x, y, a) {
                    return true;
                }
                if !legal(g, x, y, a) {
                    return false;
                }
                set(g, x, y, Some(a));
                let w = defender_loses(g, a, left - 2, legal);
                set(g, x, y, None);
                w
            });
            set(g, rx, ry, None);
            won
        })
    }
    first.iter().any(|&(x, y)| {
        if !legal(g, x, y, a) {
            return false;
        }
        set(g, x, y, Some(a));
        let w = defender_loses(g, a, plies - 1, &legal);
        set(g, x, y, None);
        w
    })
}

/// The search scores an open four, and a four-three or double three against no four, as
/// a win without playing it out (`threat::quick_win`). Every such claim on random
/// positions must be a real win of that length, checked move by move.
#[test]
fn wins_seen_on_sight_are_real() {
    let mut rng = XorShift64::new(0x0051_6447);
    let mut claims = std::collections::BTreeMap::new();
    for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
        for i in 0..400 {
            let size = 9 + rng.below(2);
            let mut b = random_position(&mut rng, rule, size, 14 + i % 10);
            for side in [Color::Black, Color::White] {
                b.set_side_to_move(side);
                if b.count(side, Threat::Five) > 0 {
                    continue;
                }
                let Some((plies, class)) = fivefold::engine::threat::quick_win(&b) else {
                    continue;
                };
                let first: Vec<(i32, i32)> = b
                    .squares()
                    .filter(|&p| b.is_empty(p) && b.threat(p, side) == class)
                    .map(|p| (p.x() as i32, p.y() as i32))
                    .collect();
                let mut g = Grid::from_board(&b);
                assert!(
                    ref_wins_from(&mut g, side, &first, plies as u32),
                    "{rule:?} {side:?} {class:?} in {plies} at {first:?} is no win\n{}",
                    b.to_diagram()
                );
                *claims.entry((rule.index(), class as u8)).or_insert(0) += 1;
            }
        }
    }
    eprintln!("claims (rule, class) -> count: {claims:?}");
    // Each kind of claim is checked under every rule: 7 to 23 of each with 400 positions a
    // rule (with 4000 a rule, 54 to 264 of each, all real too).
    for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
        for class in [Threat::DoubleThree, Threat::FourThree, Threat::OpenFour] {
            let n = claims
                .get(&(rule.index(), class as u8))
                .copied()
                .unwrap_or(0);
            assert!(n >= 5, "{rule:?} {class:?}: only {n} claims checked");
        }
    }
}

/// Renju black's four-three is a win on sight only when the board, played out, says so
/// (`threat::renju_four_three_win`): every such claim on random positions must be a real
/// win in 5 plies from the square it names, checked move by move with the fouls.
#[test]
fn renju_black_four_threes_seen_on_sight_are_real() {
    let mut rng = XorShift64::new(0x4E45_0043);
    let mut claims = 0;
    for i in 0..700 {
        let size = 9 + rng.below(2);
        let mut b = random_position(&mut rng, Rule::Renju, size, 14 + i % 10);
        b.set_side_to_move(Color::Black);
        if b.count(Color::Black, Threat::Five) > 0 || b.count(Color::White, Threat::Five) > 0 {
            continue;
        }
        let before = (b.hash(), b.move_count());
        let claim = fivefold::engine::threat::renju_four_three_win(&mut b);
        assert_eq!((b.hash(), b.move_count()), before, "board not restored");
        let Some(p) = claim else { continue };
        assert_eq!(b.threat(p, Color::Black), Threat::FourThree);
        let mut g = Grid::from_board(&b);
        assert!(
            ref_wins_from(&mut g, Color::Black, &[(p.x() as i32, p.y() as i32)], 5),
            "black's four-three at {p:?} is no win\n{}",
            b.to_diagram()
        );
        claims += 1;
    }
    eprintln!("renju black four-threes claimed: {claims}");
    assert!(claims >= 5, "only {claims} claims checked");
}

/// Black has two four-threes (g5 and j5) and white no four, but each three's open four
/// (g5's at j5, j5's at g5; d5 and l5 close the other ends) would also make a four on
/// its column: a double four, a foul. Freestyle's rule of thumb rightly calls it a win;
/// renju's play-out does not, and the move-by-move reference agrees. (Black has a longer
/// VCF here, which the search finds by playing it.)
const RENJU_FOUR_THREES_INTO_FOULS: &str = "
12 O . . . . . . . . . . O
11 . . . . . . . . . . . .
10 . . . . . . . . . . . .
 9 . . . . . . O . . O . .
 8 . . . . . O X . . X O .
 7 . . . . . . X . . X . .
 6 . . . . . . X . . X . .
 5 . . . . O . . X X . . O
 4 . . . . . . . . . . . .
 3 . . . . . . . . . . . .
 2 . . . . . . . . . . . .
 1 O . . . . . . . . . . O
";

#[test]
fn renju_black_four_threes_into_a_foul_are_not_wins_on_sight() {
    let free = pos(Rule::Freestyle, Color::Black, RENJU_FOUR_THREES_INTO_FOULS);
    assert_eq!(
        fivefold::engine::threat::quick_win(&free),
        Some((5, Threat::FourThree))
    );
    let mut b = pos(Rule::Renju, Color::Black, RENJU_FOUR_THREES_INTO_FOULS);
    let four_threes: Vec<Pos> = b
        .squares()
        .filter(|&p| b.is_empty(p) && b.threat(p, Color::Black) == Threat::FourThree)
        .collect();
    assert_eq!(four_threes, vec![sq(&b, "g5"), sq(&b, "j5")]);
    assert_eq!(b.count_at_least(Color::White, Threat::Four), 0);
    assert_eq!(fivefold::engine::threat::quick_win(&b), None);
    assert_eq!(fivefold::engine::threat::renju_four_three_win(&mut b), None);
    let first: Vec<(i32, i32)> = four_threes
        .iter()
        .map(|p| (p.x() as i32, p.y() as i32))
        .collect();
    assert!(!ref_wins_from(
        &mut Grid::from_board(&b),
        Color::Black,
        &first,
        5
    ));
}
