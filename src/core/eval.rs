//! Static evaluation from the board's incrementally kept shape values.
//!
//! Every empty square carries, for each colour, two values computed once per rule from
//! its four line shapes and its combined threat class ([`crate::core::weights::square_value`]): one for when
//! that colour is to move (its threats are the next move's), one for when it is not
//! (its threats must still be answered). The board keeps the sums up to date on every
//! move, so the evaluation is two subtractions:
//!
//! `eval = Σ value(side to move, as mover) − Σ value(opponent, as waiting side)`,
//!
//! plus, per colour and role, a weight for each threat class that colour has at least
//! one square of (read from the board's class counts: the first open-three square is
//! worth more than the fifth, since only one move is played at a time), and a constant
//! for the side to move (the tempo).
//!
//! The weights are fitted by `fivefold-tools tune` (logistic regression of game
//! results against these same features on the scale of [`crate::core::scale`]), per rule: freestyle and
//! caro share one set, exact five has its own, and renju one per colour. The freestyle
//! set is fitted to games a stronger engine (PentaZen) played against itself, recorded
//! with c-gomoku-cli; the others to Fivefold's own self-play.

use crate::core::board::Board;
use crate::core::pattern::{Pat, Threat};
use crate::core::types::{Color, Score};
use crate::core::weights::{weights, BIAS, FEATURES, HAS};

/// Static score of the position for the side to move.
#[inline]
pub fn evaluate(b: &Board) -> Score {
    let me = b.side_to_move();
    let opp = me.opp();
    let (wm, wo) = (&weights(b.rule(), me)[0], &weights(b.rule(), opp)[1]);
    let mut s = b.value_sum(me, 0) - b.value_sum(opp, 1) + wm[BIAS] as i32 - wo[BIAS] as i32;
    for t in 0..Threat::COUNT {
        let t8 = Threat::from_u8(t as u8);
        if b.count(me, t8) > 0 {
            s += wm[HAS + t] as i32;
        }
        if b.count(opp, t8) > 0 {
            s -= wo[HAS + t] as i32;
        }
    }
    s
}

/// The feature counts of one colour: how many (square, line) pairs have each shape and
/// how many squares have each threat class, over the empty squares. The evaluation is
/// linear in these: `eval = W[0]·features(me) − W[1]·features(opp)`.
pub fn features(b: &Board, c: Color) -> [f32; FEATURES] {
    let mut f = [0f32; FEATURES];
    for p in b.squares() {
        if !b.is_empty(p) {
            continue;
        }
        let t = b.threat(p, c);
        if t == Threat::Forbidden {
            continue;
        }
        for pat in b.pats(p, c) {
            f[pat as usize] += 1.0;
        }
        f[Pat::COUNT + t as usize] += 1.0;
        f[HAS + t as usize] = 1.0;
    }
    f[BIAS] = 1.0;
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;
    use crate::core::weights::WEIGHTS;

    #[test]
    fn evaluation_is_linear_in_the_features() {
        // A freestyle position (one weight set) and a renju one (a set per colour), each
        // with both sides to move.
        let positions = [
            (
                Rule::Freestyle,
                "7,7 8,7 9,7 9,8 5,5 7,6 6,5 8,8 10,8 8,6 8,5 7,5 9,6 6,6 5,7 7,4",
            ),
            (
                Rule::Renju,
                "7,7 8,8 9,8 7,8 6,7 9,7 5,8 4,9 4,7 5,7 6,9 7,10 6,5 6,10",
            ),
        ];
        for (rule, moves) in positions {
            let mut b = Board::square(15, rule).unwrap();
            for (x, y) in crate::core::notation::parse_moves(moves, 15, 15).unwrap() {
                b.make(crate::core::types::Pos::new(x, y));
            }
            for _ in 0..2 {
                let me = b.side_to_move();
                let (fm, fo) = (features(&b, me), features(&b, me.opp()));
                let (wm, wo) = (weights(b.rule(), me), weights(b.rule(), me.opp()));
                let lin: f32 = (0..FEATURES)
                    .map(|k| wm[0][k] as f32 * fm[k] - wo[1][k] as f32 * fo[k])
                    .sum();
                assert_eq!(lin as i32, evaluate(&b), "{:?}", b.rule());
                b.set_side_to_move(me.opp());
            }
        }
        // The empty board is worth the tempo alone.
        let empty = Board::square(15, Rule::Freestyle).unwrap();
        assert_eq!(
            evaluate(&empty),
            (WEIGHTS[0][BIAS] - WEIGHTS[1][BIAS]) as i32
        );
        assert!(evaluate(&empty) > 0);
    }
}
