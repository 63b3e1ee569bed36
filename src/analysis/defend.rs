//! Yixin-Board's "search defend" (`YXSEARCHDEFEND`): which moves of the side to move
//! stop the opponent's forced win, found by the threat solver, and then which of them is
//! best, found by a multi-line search of those moves only.
//!
//! - The opponent has a VCF (were it to move): the defences are the moves that leave it
//!   none ([`ThreatSolver::vcf_defences`]).
//! - Otherwise, the opponent has a VCT: the defences are the candidate moves after which
//!   the solver finds it none (a candidate whose check runs out of nodes or time is kept:
//!   not proven lost).
//! - Otherwise every candidate move is searched, as Rapfi does.
//!
//! The threat solving takes at most a third of the time the GUI gave; the search the rest
//! ([`search`] does both).

use crate::analysis::multipv;
use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::Pos;
use crate::engine::search::Limits;
use crate::engine::threat::ThreatSolver;
use crate::engine::time::Budget;
use crate::engine::{Engine, StopToken};
use std::time::Duration;

/// Plies and nodes for the opponent's VCF and for each defence's check.
const VCF_PLIES: usize = 61;
const VCF_NODES: u64 = 400_000;
/// Plies and nodes for the opponent's VCT, and for the check after each candidate.
const VCT_PLIES: usize = 21;
const VCT_NODES: u64 = 400_000;
const VCT_CHECK_NODES: u64 = 50_000;
/// Time for the threat solving when the GUI gave no time limit.
const UNTIMED_SOLVING: Duration = Duration::from_secs(10);

/// The opponent's threat the defences answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// A VCF: the opponent's winning line, were it to move.
    Vcf(Vec<Pos>),
    /// A VCT (and no VCF).
    Vct(Vec<Pos>),
    /// No forced win found.
    None,
}

/// The defences of the side to move: the opponent's threat and the moves that stop it
/// (every candidate move when there is no threat; empty when nothing stops it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defences {
    pub threat: Threat,
    pub moves: Vec<Pos>,
}

/// The deadline for the threat solving: a third of the hard time limit from `start`.
fn solving_deadline(limits: &Limits, start: Instant) -> Instant {
    let share = limits.budget.map_or(UNTIMED_SOLVING, |b| b.hard / 3);
    start + share
}

/// Finds the opponent's threat and the moves that stop it, leaving out `exclude`
/// (`YXBLOCK` squares, continuous-game marks), by `deadline` or until `stop`.
pub fn defences(board: &Board, exclude: &[Pos], deadline: Instant, stop: &StopToken) -> Defences {
    let mut b = board.clone();
    let me = b.side_to_move();
    let mut solver = ThreatSolver::new();
    solver.set_stop(Some(stop.clone()));
    solver.set_deadline(Some(deadline));
    let keep =
        |v: Vec<Pos>| -> Vec<Pos> { v.into_iter().filter(|p| !exclude.contains(p)).collect() };

    // The opponent's VCF, and the moves that refute it.
    b.set_side_to_move(me.opp());
    let vcf = solver.vcf(&mut b, VCF_PLIES, VCF_NODES);
    b.set_side_to_move(me);
    if let Some(line) = vcf {
        // Renju: the solver counts none of black's fouls as a defence.
        let moves = solver
            .vcf_defences(&mut b, VCF_PLIES, VCF_NODES)
            .unwrap_or_default();
        return Defences {
            threat: Threat::Vcf(line),
            moves: keep(moves),
        };
    }

    // The opponent's VCT, and the candidates after which it has none.
    b.set_side_to_move(me.opp());
    let vct = solver.vct(&mut b, VCT_PLIES, VCT_NODES);
    b.set_side_to_move(me);
    let candidates = multipv::candidates(&b, exclude);
    let Some(line) = vct else {
        return Defences {
            threat: Threat::None,
            moves: candidates,
        };
    };
    let mut moves = Vec::new();
    for p in candidates {
        if stop.is_raised() || Instant::now() >= deadline {
            // Out of time: the rest are not proven to lose.
            moves.push(p);
            continue;
        }
        b.make(p);
        let loses = b.winner().is_none() && solver.has_vct(&mut b, VCT_PLIES, VCT_CHECK_NODES);
        b.unmake();
        if !loses {
            moves.push(p);
        }
    }
    Defences {
        threat: Threat::Vct(line),
        moves,
    }
}

/// The whole of "search defend": the defences ([`defences`], in a third of the time),
/// then the best of them by a multi-line search of those moves only (at most `most`
/// lines) in the time left. `found` hears the defences and the moves to be searched
/// (every candidate move when nothing stops the threat) before the search starts;
/// `report` hears the search's lines ([`multipv::best_lines_reported`]). Returns the best
/// move, or the first move to search when the search found none.
#[allow(clippy::too_many_arguments)]
pub fn search(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    exclude: &[Pos],
    most: usize,
    stop: &StopToken,
    found: &mut dyn FnMut(&Defences, &[Pos]),
    report: &mut dyn FnMut(&multipv::Lines),
) -> Pos {
    let start = Instant::now();
    let defences = defences(board, exclude, solving_deadline(limits, start), stop);
    let moves = if defences.moves.is_empty() {
        multipv::candidates(board, exclude)
    } else {
        defences.moves.clone()
    };
    found(&defences, &moves);
    // Everything else is left out of the search.
    let mut others: Vec<Pos> = board
        .squares()
        .filter(|&p| board.is_empty(p) && !moves.contains(&p))
        .collect();
    others.extend_from_slice(exclude);
    let want = multipv::Want {
        n: moves.len().clamp(1, most),
        exclude: &others,
        widen: true,
    };
    let rest = Limits {
        budget: limits.budget.map(|b| {
            let spent = start.elapsed();
            Budget {
                soft: b.soft.saturating_sub(spent),
                hard: b.hard.saturating_sub(spent),
            }
        }),
        ..limits.clone()
    };
    let lines = multipv::best_lines_reported(engine, board, &want, &rest, stop, report);
    lines
        .lines
        .first()
        .map_or_else(|| moves.first().copied().unwrap_or(Pos::NONE), |l| l.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn board(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn an_open_three_is_met_at_its_ends() {
        // Black: an open three h8 i8 j8 (7..9,7); white has two stones elsewhere and
        // moves. The defences are the three's ends and the squares beside them.
        let b = board(&[(7, 7), (3, 3), (8, 7), (3, 12), (9, 7)]);
        let d = defences(
            &b,
            &[],
            Instant::now() + Duration::from_secs(20),
            &StopToken::new(),
        );
        let (Threat::Vcf(_) | Threat::Vct(_)) = d.threat else {
            panic!("no threat found: {d:?}");
        };
        assert!(!d.moves.is_empty());
        for p in &d.moves {
            assert!(
                p.y() == 7 && (5..=11).contains(&p.x()),
                "{p:?} does not stop the three: {d:?}"
            );
        }
        assert!(d.moves.contains(&Pos::new(6, 7)) && d.moves.contains(&Pos::new(10, 7)));
    }

    #[test]
    fn a_renju_foul_is_no_defence() {
        // White's open three on row 7 (f8 g8 h8); black's stones make i8 (8,7) a double
        // three for black. White wins with j8 (9,7), a four whose only block is i8: so
        // black has no defence, and the foul is not offered as one.
        use crate::core::rules;
        use crate::core::types::Color;
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(5, 7), (6, 7), (7, 7)] {
            b.make_color(Pos::new(x, y), Color::White);
        }
        for (x, y) in [(8, 5), (8, 6), (9, 8), (10, 9)] {
            b.make_color(Pos::new(x, y), Color::Black);
        }
        b.set_side_to_move(Color::Black);
        assert!(rules::is_forbidden(&mut b, Pos::new(8, 7)));
        let d = defences(
            &b,
            &[],
            Instant::now() + Duration::from_secs(20),
            &StopToken::new(),
        );
        assert!(matches!(d.threat, Threat::Vcf(_)), "{d:?}");
        assert_eq!(d.moves, [], "{d:?}");
        // Under freestyle the same position has its two blocks.
        let mut f = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in b.history() {
            f.make_color(m.pos, m.color);
        }
        f.set_side_to_move(Color::Black);
        let d = defences(
            &f,
            &[],
            Instant::now() + Duration::from_secs(20),
            &StopToken::new(),
        );
        let mut moves = d.moves.clone();
        moves.sort_by_key(|p| p.idx());
        assert_eq!(moves, [Pos::new(4, 7), Pos::new(8, 7)], "{d:?}");
    }

    #[test]
    fn a_quiet_position_offers_every_candidate() {
        let b = board(&[(7, 7), (8, 8)]);
        let d = defences(
            &b,
            &[],
            Instant::now() + Duration::from_secs(20),
            &StopToken::new(),
        );
        assert_eq!(d.threat, Threat::None);
        assert_eq!(d.moves, multipv::candidates(&b, &[]));
    }
}
