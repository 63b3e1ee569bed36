//! `INFO strength N` (0 to 100, as in Rapfi; 100, the default, is full strength): weaker
//! play that a person notices without it blundering at random.
//!
//! Below 100 the engine:
//!
//! - looks less deep: at most `depth_cap` plies (2 at 0, 14 at 99), so it misses the
//!   longer combinations a full search finds, and
//! - lists its `lines_for` best moves and picks among those within [`margin`] of the
//!   best score (300 evaluation units at 0, shrinking to 3 at 99), each scored as its
//!   value plus a random bonus of up to the margin: a move much worse than the best is
//!   never taken, moves nearly as good often are.
//!
//! Whatever the strength it never gives up a forced result: a position the search found
//! won or lost (a mate score) is played as found, moves found to lose are never picked
//! while another is not, a five of its own is always made, and the opponent's five is
//! always blocked ([`pick`]). The first move of a game is the full-strength one.
//!
//! At 100 none of this runs: the session searches as it always has.

use crate::analysis::multipv::{self, Line, Lines, Want};
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rng::{Rng, SplitMix64};
use crate::core::rules;
use crate::core::types::{is_mate, Color, Pos, Score};
use crate::engine::search::Limits;
use crate::engine::{Engine, StopToken};

/// Full strength: the default, and the engine's normal search.
pub const FULL: u8 = 100;

/// The deepest a search at `strength` looks (plies from the root).
fn depth_cap(strength: u8) -> i32 {
    2 + i32::from(strength.min(99)) / 8
}

/// How many root moves are weighed at `strength`.
fn lines_for(strength: u8) -> usize {
    2 + usize::from(FULL - strength.min(99)) / 20
}

/// How much worse than the best a move may score and still be picked at `strength`.
pub fn margin(strength: u8) -> Score {
    Score::from(FULL - strength.min(99)) * 3
}

/// Squares where `c` would make five now.
fn five_squares(b: &mut Board, c: Color) -> Vec<Pos> {
    let squares: Vec<Pos> = b
        .squares()
        .filter(|&p| b.is_empty(p) && b.threat(p, c) == Threat::Five)
        .collect();
    let side = b.side_to_move();
    b.set_side_to_move(c);
    let legal = squares
        .into_iter()
        .filter(|&p| rules::is_legal(b, p))
        .collect();
    b.set_side_to_move(side);
    legal
}

/// The move to play at `strength` from the analysed `lines` (best first) of `board`
/// (the side to move's), with random numbers from `rng`. `Pos::NONE` only when there are
/// no lines.
pub fn pick(board: &Board, lines: &[Line], strength: u8, rng: &mut impl Rng) -> Pos {
    let Some(best) = lines.first() else {
        return Pos::NONE;
    };
    let mut b = board.clone();
    let me = b.side_to_move();
    let wins = five_squares(&mut b, me);
    if !wins.is_empty() {
        // Our five: the search's move if it is one, else the first.
        return if wins.contains(&best.mv) {
            best.mv
        } else {
            wins[0]
        };
    }
    let blocks = five_squares(&mut b, me.opp());
    if strength >= FULL || is_mate(best.score) || board.move_count() == 0 {
        return best.mv;
    }
    let m = margin(strength);
    let allowed: Vec<&Line> = lines
        .iter()
        .filter(|l| !(is_mate(l.score) && l.score < 0))
        .filter(|l| best.score - l.score <= m)
        .filter(|l| blocks.is_empty() || blocks.contains(&l.mv))
        .collect();
    if allowed.is_empty() {
        return best.mv;
    }
    let bonus = |rng: &mut dyn FnMut() -> u64| -> Score { (rng() % (m as u64 + 1)) as Score };
    let mut next = || rng.next_u64();
    let mut choice = allowed[0];
    let mut top = Score::MIN;
    for l in allowed {
        let v = l.score + bonus(&mut next);
        if v > top {
            top = v;
            choice = l;
        }
    }
    choice.mv
}

/// Our move at `strength` (below [`FULL`]): the lines of a search held to the strength's
/// depth (`report` gets them as they come), then [`pick`] with a generator seeded by
/// `seed`.
#[allow(clippy::too_many_arguments)]
pub fn play(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    exclude: &[Pos],
    strength: u8,
    seed: u64,
    stop: &StopToken,
    report: &mut dyn FnMut(&Lines),
) -> Pos {
    let cap = depth_cap(strength);
    let limits = Limits {
        max_depth: Some(limits.max_depth.map_or(cap, |d| d.min(cap))),
        ..limits.clone()
    };
    let want = Want {
        n: lines_for(strength),
        exclude,
        widen: false,
    };
    let lines = multipv::best_lines(engine, board, &want, &limits, stop, report);
    let mut rng = SplitMix64::new(seed);
    pick(board, &lines.lines, strength, &mut rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::XorShift64;
    use crate::core::types::Rule;

    /// Short searches: the tests check what is picked, not how well.
    fn quick() -> Limits {
        Limits {
            max_nodes: Some(30_000),
            ..Limits::default()
        }
    }

    fn full(engine: &mut Engine, b: &Board) -> Pos {
        let limits = Limits {
            max_depth: Some(3),
            ..quick()
        };
        engine
            .think(b, &limits, &StopToken::new(), &mut |_| {})
            .best
    }

    fn weak(engine: &mut Engine, b: &Board, strength: u8, seed: u64) -> Pos {
        play(
            engine,
            b,
            &quick(),
            &[],
            strength,
            seed,
            &StopToken::new(),
            &mut |_| {},
        )
    }

    /// A position with a four of `four`'s in a random place and direction (both ends
    /// open) and as many stones of the other colour scattered around it; `to_move` is to
    /// move.
    fn with_four(rng: &mut XorShift64, rule: Rule, four: Color, to_move: Color) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        let dirs = [(1i64, 0i64), (0, 1), (1, 1), (1, -1)];
        let (dx, dy) = dirs[rng.below(4)];
        let (x0, y0) = (4 + rng.below(4) as i64, 5 + rng.below(4) as i64);
        let line: Vec<Pos> = (-1..5)
            .map(|i| b.pos(x0 + i * dx, y0 + i * dy).unwrap())
            .collect();
        for &p in &line[1..5] {
            b.make_color(p, four);
        }
        let mut placed = 0;
        while placed < 4 {
            let p = b
                .pos(2 + rng.below(11) as i64, 2 + rng.below(11) as i64)
                .unwrap();
            if b.is_empty(p) && !line.contains(&p) {
                b.make_color(p, four.opp());
                placed += 1;
            }
        }
        b.set_side_to_move(to_move);
        b
    }

    #[test]
    fn the_settings_grow_weaker_with_the_number() {
        assert_eq!(depth_cap(0), 2);
        assert!(depth_cap(99) > depth_cap(50) && depth_cap(50) > depth_cap(0));
        assert!(lines_for(0) > lines_for(99) && lines_for(99) >= 2);
        assert!(margin(0) > margin(50) && margin(99) > 0);
    }

    #[test]
    fn weak_play_never_misses_a_five_or_a_block() {
        let mut engine = Engine::new(4 << 20);
        let mut rng = XorShift64::new(0x5eed_f00d);
        for i in 0..24u64 {
            let rule = [Rule::Freestyle, Rule::Renju][i as usize % 2];
            let four = [Color::Black, Color::White][(i / 2) as usize % 2];
            for to_move in [four, four.opp()] {
                let b = with_four(&mut rng, rule, four, to_move);
                let mut c = b.clone();
                let fives = five_squares(&mut c, four);
                assert!(!fives.is_empty(), "{i}\n{}", b.to_diagram());
                for strength in [0, 20, 60] {
                    let p = weak(&mut engine, &b, strength, i * 31 + u64::from(strength));
                    let what = if to_move == four { "five" } else { "block" };
                    assert!(
                        fives.contains(&p)
                            || (to_move != four && !five_squares(&mut c, to_move).is_empty()),
                        "{i}, strength {strength}: {p:?} is no {what}\n{}",
                        b.to_diagram()
                    );
                }
            }
        }
    }

    #[test]
    fn weak_play_differs_from_full_strength_now_and_then() {
        let mut engine = Engine::new(4 << 20);
        let mut rng = XorShift64::new(0xbeef);
        let mut differ = 0;
        for i in 0..16u64 {
            // A quiet opening: a few stones around the centre.
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            b.make(b.center());
            for _ in 0..3 + rng.below(4) {
                let near: Vec<Pos> = b.area(1).filter(|&p| b.is_empty(p)).collect();
                b.make(near[rng.below(near.len())]);
            }
            let strong = full(&mut engine, &b);
            let p = weak(&mut engine, &b, 0, i + 1);
            assert!(b.is_empty(p));
            differ += usize::from(p != strong);
        }
        assert!(
            differ > 0,
            "strength 0 always played the full-strength move"
        );
    }

    #[test]
    fn full_strength_and_decided_positions_take_the_best_line() {
        let b = {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            b.make(b.center());
            b
        };
        let line = |x, y, score| Line {
            mv: Pos::new(x, y),
            score,
            depth: 4,
            seldepth: 4,
            pv: vec![Pos::new(x, y)],
        };
        let lines = [line(8, 8, 40), line(6, 6, 39), line(8, 6, 38)];
        let mut rng = XorShift64::new(9);
        for _ in 0..20 {
            assert_eq!(pick(&b, &lines, FULL, &mut rng), Pos::new(8, 8));
        }
        // At 0, close moves are taken now and then; a move far worse never.
        let far = [line(8, 8, 40), line(6, 6, 39), line(0, 0, -2000)];
        let picks: Vec<Pos> = (0..60).map(|_| pick(&b, &far, 0, &mut rng)).collect();
        assert!(picks.contains(&Pos::new(6, 6)) && picks.contains(&Pos::new(8, 8)));
        assert!(!picks.contains(&Pos::new(0, 0)));
        // A found win, or a found loss, is played as found.
        let won = [line(8, 8, 29_990), line(6, 6, 100)];
        let lost = [line(8, 8, -29_990), line(6, 6, -29_992)];
        for _ in 0..20 {
            assert_eq!(pick(&b, &won, 0, &mut rng), Pos::new(8, 8));
            assert_eq!(pick(&b, &lost, 0, &mut rng), Pos::new(8, 8));
        }
        // A move found to lose is not picked while another is not.
        let one_loses = [line(8, 8, 10), line(6, 6, -29_980)];
        for _ in 0..20 {
            assert_eq!(pick(&b, &one_loses, 0, &mut rng), Pos::new(8, 8));
        }
    }
}
