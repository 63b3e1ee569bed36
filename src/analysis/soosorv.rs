//! Soosorv opening decisions, as Yixin-Board asks for them (`YXSOOSORVSTEP1` to `6`).
//!
//! Soosorv (renju's opening rule): the tentative black puts one of the 26 standard
//! openings (black in the centre, white next to it, black within two of the centre); the
//! other player may swap. White plays the fourth stone and declares N, the number of
//! fifth moves black must offer; the other player may swap again. Black offers N fifth
//! moves, no two equal under a symmetry of the position, and white picks one of them and
//! plays the sixth.
//!
//! Each decision is made by searching:
//!
//! 1. the opening closest to even with white to move (the opponent may swap);
//! 2. swap (take black) when white's side of the three stones scores below 0;
//! 3. the fourth stone closest to even ([`crate::analysis::balance`]), and the N whose
//!    N-th best fifth move for black comes closest to even (white picks the worst of
//!    black's offers, so black's N-th best move is what black gets);
//! 4. swap (take white) when black's N-th best fifth move scores below 0;
//! 5. black's N best fifth moves, one of each symmetric set (fewer only where the board
//!    has fewer distinct moves);
//! 6. the offer best for white.

use crate::analysis::multipv::{self, deepen, effective_depth, Eval, Race, Want};
use crate::analysis::{balance, swap2};
use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::{symmetries, Pos};
use crate::engine::search::{Limits, MAX_DEPTH};
use crate::engine::{Engine, StopToken};

/// Most fifth moves white may ask for.
pub const MAX_FIFTHS: usize = 8;

/// A Soosorv decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Step 1: black, white, black.
    Opening([Pos; 3]),
    /// Steps 2 and 4: whether to swap.
    Swap(bool),
    /// Step 3: white's fourth stone and the number of fifth moves black must offer.
    Fourth(Pos, usize),
    /// Step 5: black's offered fifth moves.
    Fifths(Vec<Pos>),
    /// Step 6: the offered fifth move white takes.
    Choose(Pos),
}

/// Decides step `step` for `board` (its stones in move order, black first). Step 4 and
/// 5 take `n`, the number of fifth moves declared; step 6 takes the `offers`.
pub fn decide(
    engine: &mut Engine,
    step: u8,
    board: &Board,
    n: usize,
    offers: &[Pos],
    limits: &Limits,
    stop: &StopToken,
) -> Result<Reply, String> {
    let want = match step {
        1 => 0,
        2 | 3 => 3,
        _ => 4,
    };
    if board.move_count() != want {
        return Err(format!(
            "{} stones on the board; step {step} needs {want}",
            board.move_count()
        ));
    }
    let start = Instant::now();
    match step {
        1 => Ok(Reply::Opening(opening(engine, board, limits, stop))),
        2 => {
            let r = engine.think(board, limits, stop, &mut |_| {});
            Ok(Reply::Swap(r.score < 0))
        }
        3 => fourth(engine, board, limits, stop, start),
        4 => {
            let lines = best_fifths(engine, board, n.clamp(1, MAX_FIFTHS), limits, stop);
            let got = lines.last().map_or(0, |l| l.score);
            Ok(Reply::Swap(got < 0))
        }
        5 => {
            let lines = best_fifths(engine, board, n.clamp(1, MAX_FIFTHS), limits, stop);
            Ok(Reply::Fifths(lines.iter().map(|l| l.mv).collect()))
        }
        6 => choose(engine, board, offers, limits, stop),
        _ => Err(format!("there is no step {step}")),
    }
}

/// The index whose evaluation is closest to `aim` (`score` maps an evaluation to the
/// score compared), by the deepest comparable results; ties go to the first.
fn closest(evals: &[Eval], aim: i64, score: &dyn Fn(&Eval) -> i64) -> usize {
    let deepest = evals.iter().map(|e| e.depth).max().unwrap_or(0);
    (0..evals.len())
        .max_by_key(|&i| {
            (
                effective_depth(&evals[i], deepest),
                -(score(&evals[i]) - aim).abs(),
                std::cmp::Reverse(i),
            )
        })
        .unwrap_or(0)
}

/// The 26 standard openings (one of each symmetric pair) on this board, as positions.
fn standard_openings(board: &Board) -> Vec<([Pos; 3], Board)> {
    // White touches the centre straight (1,0) or diagonally (1,1); black's second stone
    // is anywhere within two of the centre.
    swap2::centre_openings(board, &[(1, 0), (1, 1)])
}

/// Step 1: the standard opening closest to even, white to move.
fn opening(engine: &mut Engine, board: &Board, limits: &Limits, stop: &StopToken) -> [Pos; 3] {
    let mut openings = standard_openings(board);
    // The static evaluation picks which ones to search.
    openings.sort_by_key(|(_, b)| multipv::static_eval(b).score.abs());
    openings.truncate(8);
    let boards: Vec<Board> = openings.iter().map(|(_, b)| b.clone()).collect();
    let race = Race {
        max_depth: limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        keep: 4,
        rank: &|e: &Eval| -(e.score.abs() as i64),
    };
    let (evals, _) = deepen(engine, &boards, &race, limits, stop, &mut |_| {});
    openings[closest(&evals, 0, &|e| i64::from(e.score))].0
}

/// Black's `n` best fifth moves on `board` (black to move), one of each set of squares
/// equal under a symmetry of the position, best first; their scores are black's.
fn best_fifths(
    engine: &mut Engine,
    board: &Board,
    n: usize,
    limits: &Limits,
    stop: &StopToken,
) -> Vec<multipv::Line> {
    let maps = position_symmetries(board);
    let mut twins: Vec<Pos> = Vec::new();
    let mut kept: Vec<Pos> = Vec::new();
    for p in multipv::candidates_at_least(board, &[], n + 16) {
        if twins.contains(&p) {
            continue;
        }
        kept.push(p);
        twins.extend(maps.iter().filter_map(|f| f(p)).filter(|&q| q != p));
    }
    // Everything that is not kept is left out of the analysis.
    let others: Vec<Pos> = board
        .squares()
        .filter(|&p| board.is_empty(p) && !kept.contains(&p))
        .collect();
    let want = Want {
        n,
        exclude: &others,
        widen: true,
    };
    multipv::best_lines(engine, board, &want, limits, stop, &mut |_| {}).lines
}

/// The symmetries of the square that map the position onto itself (stone for stone, in
/// colour), each as a map of squares; empty on a board that is not square.
fn position_symmetries(board: &Board) -> Vec<Box<dyn Fn(Pos) -> Option<Pos> + '_>> {
    if board.width() != board.height() {
        return Vec::new();
    }
    let c = board.center();
    let (cx, cy) = (c.x() as i64, c.y() as i64);
    let mut out: Vec<Box<dyn Fn(Pos) -> Option<Pos> + '_>> = Vec::new();
    for f in symmetries() {
        let map = move |p: Pos| {
            let (dx, dy) = f(p.x() as i64 - cx, p.y() as i64 - cy);
            board.pos(cx + dx, cy + dy)
        };
        let keeps = board
            .history()
            .iter()
            .all(|m| map(m.pos).is_some_and(|q| board.stone(q) == Some(m.color)));
        if keeps {
            out.push(Box::new(map));
        }
    }
    out
}

/// Step 3: white's fourth stone, closest to even for the rest of the game, and the N
/// whose N-th best fifth move for black comes closest to even.
fn fourth(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    stop: &StopToken,
    start: Instant,
) -> Result<Reply, String> {
    let first = swap2::share(limits, start, 0.5);
    let b = balance::balance(engine, board, false, 0, &[], &first, stop)
        .ok_or("no legal fourth move")?;
    let p = b.moves[0];
    let mut after = board.clone();
    after.make(p);
    let rest = swap2::share(limits, start, 1.0);
    let lines = best_fifths(engine, &after, MAX_FIFTHS, &rest, stop);
    let n = (0..lines.len())
        .min_by_key(|&k| (lines[k].score.abs(), k))
        .map_or(1, |k| k + 1);
    Ok(Reply::Fourth(p, n))
}

/// Step 6: the offered fifth move after which white (to move) stands best.
fn choose(
    engine: &mut Engine,
    board: &Board,
    offers: &[Pos],
    limits: &Limits,
    stop: &StopToken,
) -> Result<Reply, String> {
    let offers: Vec<Pos> = offers
        .iter()
        .copied()
        .filter(|&p| board.is_empty(p))
        .collect();
    if offers.is_empty() {
        return Err("no fifth move offered".into());
    }
    let boards: Vec<Board> = offers
        .iter()
        .map(|&p| {
            let mut b = board.clone();
            b.make(p);
            b
        })
        .collect();
    let race = Race {
        max_depth: limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) - 1,
        keep: offers.len(),
        rank: &|e: &Eval| i64::from(e.score),
    };
    let (evals, _) = deepen(engine, &boards, &race, limits, stop, &mut |_| {});
    let deepest = evals.iter().map(|e| e.depth).max().unwrap_or(0);
    let best = (0..evals.len())
        .max_by_key(|&i| {
            (
                effective_depth(&evals[i], deepest),
                evals[i].score,
                std::cmp::Reverse(i),
            )
        })
        .unwrap_or(0);
    Ok(Reply::Choose(offers[best]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn limits() -> Limits {
        Limits {
            max_depth: Some(3),
            ..Limits::default()
        }
    }

    fn board(stones: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for &(x, y) in stones {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn there_are_26_standard_openings() {
        let openings = standard_openings(&board(&[]));
        assert_eq!(openings.len(), 26);
        for (s, _) in &openings {
            assert_eq!(s[0], Pos::new(7, 7));
            assert!(s[1].x().abs_diff(7) <= 1 && s[1].y().abs_diff(7) <= 1);
            assert!(s[2].x().abs_diff(7) <= 2 && s[2].y().abs_diff(7) <= 2);
        }
    }

    #[test]
    fn every_step_answers_legally() {
        let mut e = Engine::new(1 << 20);
        let stop = StopToken::new();
        let r = decide(&mut e, 1, &board(&[]), 0, &[], &limits(), &stop).unwrap();
        assert!(matches!(r, Reply::Opening(_)), "{r:?}");
        let three = board(&[(7, 7), (8, 7), (8, 8)]);
        let r = decide(&mut e, 2, &three, 0, &[], &limits(), &stop).unwrap();
        assert!(matches!(r, Reply::Swap(_)));
        let Reply::Fourth(p, n) = decide(&mut e, 3, &three, 0, &[], &limits(), &stop).unwrap()
        else {
            panic!("no fourth move");
        };
        assert!(three.is_empty(p) && (1..=MAX_FIFTHS).contains(&n));
        let four = board(&[(7, 7), (8, 7), (8, 8), (6, 6)]);
        let r = decide(&mut e, 4, &four, 3, &[], &limits(), &stop).unwrap();
        assert!(matches!(r, Reply::Swap(_)));
        let Reply::Fifths(v) = decide(&mut e, 5, &four, 3, &[], &limits(), &stop).unwrap() else {
            panic!("no fifths");
        };
        assert_eq!(v.len(), 3);
        assert!(v.iter().all(|&p| four.is_empty(p)));
        let offers = [Pos::new(9, 9), Pos::new(5, 9)];
        let r = decide(&mut e, 6, &four, 0, &offers, &limits(), &stop).unwrap();
        assert!(
            matches!(r, Reply::Choose(p) if offers.contains(&p)),
            "{r:?}"
        );
        // The wrong number of stones is an error.
        assert!(decide(&mut e, 4, &three, 2, &[], &limits(), &stop).is_err());
    }

    #[test]
    fn symmetric_fifths_are_offered_once() {
        // Every stone on the diagonal through the centre (black h8 and g9, white i7 and
        // j6): the mirror along that diagonal maps the position onto itself, so a fifth
        // move and its mirror image are one offer.
        let b = board(&[(7, 7), (8, 8), (6, 6), (9, 9)]);
        assert!(position_symmetries(&b).len() >= 2);
        let mut e = Engine::new(1 << 20);
        let lines = best_fifths(&mut e, &b, 6, &limits(), &StopToken::new());
        let maps = position_symmetries(&b);
        for (i, a) in lines.iter().enumerate() {
            for c in &lines[i + 1..] {
                assert!(
                    maps.iter().all(|f| f(a.mv) != Some(c.mv)),
                    "{:?} and {:?} are symmetric",
                    a.mv,
                    c.mv
                );
            }
        }
    }
}
