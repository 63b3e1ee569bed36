//! The wins the solver sees without a search: an open four to make, a four-three or a
//! double three against an opponent with no four (as [`quick_win`] defines them), and
//! renju black's four-threes, played out two moves deep ([`renju_four_three_win`]). The
//! main search asks about them at every node, so they only read the board's threat
//! counts, and scan it only where a renju four-three must be played out. Also a line
//! found earlier played again on another position, to see whether it still wins
//! ([`replay_wins`]).

use super::squares::{can_play, fives, for_empty, kills};
use super::table::PosList;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::types::{Color, Pos, Rule};

/// A win the side to move has on sight, where the opponent has no five to make: its
/// length in plies (the last makes five) and the threat class of the first move's square.
///
/// - An open four to make (or a double four): 3 plies.
/// - A four-three, or a double three, while the opponent has no four to make: 5 plies.
///   The four must be blocked on its own line, and one stone stops only one of two open
///   threes; the other three becomes an open four. Without a four of its own the
///   opponent cannot gain a tempo: a four made later, from a three it builds meanwhile,
///   comes after the open four, one move too late.
///
/// Not for renju black's threes (the open four they lead to may be a foul; its double
/// three is one: [`renju_four_three_win`] plays black's four-threes out) nor under caro
/// (whose threes may not lead to a win), where the search finds those wins by playing
/// them out.
pub fn quick_win(b: &Board) -> Option<(i32, Threat)> {
    quick_win_for(b, b.side_to_move())
}

/// [`quick_win`] for colour `me` as if it were to move: what the side to move must
/// answer (or get in first) when `me` is its opponent.
pub fn quick_win_for(b: &Board, me: Color) -> Option<(i32, Threat)> {
    let opp = me.opp();
    if b.count(opp, Threat::Five) > 0 {
        return None;
    }
    if b.count(me, Threat::OpenFour) > 0 {
        return Some((3, Threat::OpenFour));
    }
    let threes_may_fail = match b.rule() {
        Rule::Renju => me == Color::Black,
        Rule::Caro | Rule::CaroExact => true,
        Rule::Freestyle | Rule::Exact => false,
    };
    if threes_may_fail || b.count_at_least(opp, Threat::Four) > 0 {
        return None;
    }
    [Threat::FourThree, Threat::DoubleThree]
        .into_iter()
        .find(|&t| b.count(me, t) > 0)
        .map(|t| (5, t))
}

/// Renju black's four-three that wins on sight, where [`quick_win`] cannot tell: the
/// square of a four-three after which white, having blocked the four (its only move:
/// white has no four to make, so no five either), faces an open four that is no foul.
/// Both moves are played out on `b` and taken back, so the fouls and white's block are
/// the board's own; 5 plies. `None` for every other side and rule.
pub fn renju_four_three_win(b: &mut Board) -> Option<Pos> {
    let (me, opp) = (Color::Black, Color::White);
    if b.rule() != Rule::Renju
        || b.side_to_move() != me
        || b.count(me, Threat::FourThree) == 0
        || b.count(opp, Threat::Five) > 0
        || b.count_at_least(opp, Threat::Four) > 0
    {
        return None;
    }
    // A four-three square has a stone of its four within two squares of it.
    let mut candidates = PosList::new();
    for_empty(b, 2, |p| {
        if b.threat(p, me) == Threat::FourThree {
            candidates.push(p);
        }
    });
    candidates.as_slice().iter().copied().find(|&p| {
        b.make(p);
        let block = fives(b, me, p);
        let wins = block.len() == 1 && {
            b.make(block.as_slice()[0]);
            let open_four = b.count(me, Threat::OpenFour) > 0 && b.count(opp, Threat::Five) == 0;
            b.unmake();
            open_four
        };
        b.unmake();
        wins
    })
}

/// Whether the attacker (side to move) still wins by playing `line` (a VCF line found
/// earlier, defender replies included) in this position: every attacker move is legal and
/// a four (or the five), every threat of the defender is answered, and the defender's
/// forced replies are the ones in the line (or the attacker wins sooner). The board is
/// left as it was.
pub fn replay_wins(b: &mut Board, line: &[Pos]) -> bool {
    let mut nodes = 0;
    replay_counted(b, line, &mut nodes)
}

/// [`replay_wins`], counting the moves it makes.
pub(super) fn replay_counted(b: &mut Board, line: &[Pos], nodes: &mut u64) -> bool {
    let a = b.side_to_move();
    let d = a.opp();
    let mut made = 0;
    let mut i = 0;
    let won = loop {
        if b.count(a, Threat::Five) > 0 {
            break true;
        }
        let Some(&m) = line.get(i) else { break false };
        if m.is_none() || !can_play(b, m, a) {
            break false;
        }
        b.make(m);
        *nodes += 1;
        made += 1;
        if b.count(d, Threat::Five) > 0 {
            break false; // the defender's five threat was not stopped
        }
        let f = fives(b, a, m);
        if f.len() == 0 {
            break false;
        }
        let k = kills(b, a, &f);
        if k.len() == 0 {
            break true;
        }
        let reply = line.get(i + 1).copied().unwrap_or(Pos::NONE);
        if k.len() != 1 || k.as_slice()[0] != reply {
            // Several ways to stop it (caro), or another forced reply: not the same line.
            break false;
        }
        b.make(reply);
        *nodes += 1;
        made += 1;
        i += 2;
    };
    for _ in 0..made {
        b.unmake();
    }
    won
}
