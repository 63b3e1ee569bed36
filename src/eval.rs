//! Static evaluation from the board's incrementally kept shape values.
//!
//! Every empty square carries, for each colour, two values computed once per rule from
//! its four line shapes and its combined threat class ([`square_value`]): one for when
//! that colour is to move (its threats are the next move's), one for when it is not
//! (its threats must still be answered). The board keeps the sums up to date on every
//! move, so the evaluation is two subtractions:
//!
//! `eval = Σ value(side to move, as mover) − Σ value(opponent, as waiting side)`.
//!
//! The weights are fitted by `pbrain-fivefold tune` (logistic regression of self-play
//! results against these same features, see [`crate::tune`]), per rule: freestyle and
//! caro share one set, exact five has its own, and renju one per colour.

use crate::board::Board;
use crate::pattern::{Pat, Threat};
use crate::types::{Color, Rule, Score};

/// Number of features per colour: one per line shape and one per threat class.
pub const FEATURES: usize = Pat::COUNT + Threat::COUNT;

/// Weights of one colour per role (0 = side to move, 1 = the other side): first the
/// line shapes, indexed by [`Pat`], then the threat classes, indexed by [`Threat`].
pub type Weights = [[i16; FEATURES]; 2];

/// Weights for freestyle and caro, the same for both colours.
pub const WEIGHTS: Weights = [
    // tune: rule freestyle size 15 games 4000 nodes 3000 seed 2 iterations 400
    // loss train 0.5772 -> 0.5668, held-out 0.5715 -> 0.5630
    [
        // line shapes: None Two OpenTwo Three OpenThree Four OpenFour DoubleFour Five Overline
        0, 1, 8, 0, 36, 49, 100, 100, 300, 0,
        // threats: None OpenTwo Three DoubleTwo ThreeTwo OpenThree OpenThreeTwo DoubleThree
        //          Four FourTwo FourThree OpenFour Five Forbidden
        0, 0, 8, 3, 9, 14, 39, 6, 2, 84, 120, 250, 400, 0,
    ],
    [
        0, 0, 2, 0, 30, 11, 100, 100, 300, 0, //
        0, 0, 8, 13, 22, 4, 31, 8, 2, 100, 259, 250, 400, 0,
    ],
];

/// Weights for exact five, the same for both colours.
pub const EXACT_WEIGHTS: Weights = [
    // tune: rule exact5 size 15 games 4000 nodes 3000 seed 2 iterations 400
    // loss train 0.6400 -> 0.6263, held-out 0.6256 -> 0.6137
    [
        0, 1, 3, 1, 29, 42, 100, 100, 300, 0, //
        0, 3, 5, 8, 13, 14, 35, 54, 0, 92, 120, 250, 400, 0,
    ],
    [
        0, 0, 0, 1, 26, 5, 100, 100, 300, 0, //
        0, 1, 8, 10, 19, 0, 22, 22, 9, 87, 269, 250, 400, 0,
    ],
];

/// Weights for renju, per colour (black, white): black's fouls make the same shape
/// worth different amounts to the two sides.
pub const RENJU_WEIGHTS: [Weights; 2] = [
    // tune: rule renju size 15 games 4000 nodes 3000 seed 3 iterations 400
    // loss train 0.5878 -> 0.5754, held-out 0.5578 -> 0.5415
    // (second round: the games were played with the first round's renju weights)
    [
        // black
        [
            0, 0, 4, 7, 10, 48, 100, 100, 300, 0, //
            0, 2, 0, 5, 5, 45, 64, 0, 0, 112, 120, 250, 400, 0,
        ],
        [
            0, 0, 1, 3, 2, 0, 100, 100, 300, 0, //
            0, 2, 6, 8, 11, 36, 50, 0, 0, 136, 345, 250, 400, 0,
        ],
    ],
    [
        // white
        [
            0, 5, 3, 0, 0, 56, 100, 100, 300, 0, //
            0, 3, 2, 0, 16, 48, 54, 0, 8, 87, 120, 250, 400, 0,
        ],
        [
            0, 3, 0, 0, 3, 0, 100, 100, 300, 0, //
            0, 0, 5, 6, 29, 31, 43, 0, 18, 101, 205, 250, 400, 0,
        ],
    ],
];

/// The weights colour `c` is evaluated with under `rule`.
pub fn weights(rule: Rule, c: Color) -> &'static Weights {
    match rule {
        Rule::Renju => &RENJU_WEIGHTS[c.index()],
        Rule::Exact => &EXACT_WEIGHTS,
        _ => &WEIGHTS,
    }
}

/// Value of an empty square for one colour in `role` (0 = to move, 1 = waiting), from
/// its line shapes and threat class, with that colour's weights.
pub fn square_value(w: &Weights, pats: [Pat; 4], threat: Threat, role: usize) -> i16 {
    if threat == Threat::Forbidden {
        return 0;
    }
    let w = &w[role];
    let lines: i32 = pats.iter().map(|&p| w[p as usize] as i32).sum();
    (lines + w[Pat::COUNT + threat as usize] as i32).clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// Static score of the position for the side to move.
#[inline]
pub fn evaluate(b: &Board) -> Score {
    let me = b.side_to_move();
    b.value_sum(me, 0) - b.value_sum(me.opp(), 1)
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
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_is_linear_in_the_features() {
        // A freestyle position (one weight set) and a renju one (a set per colour), each
        // with both sides to move.
        for i in [2, 5] {
            let mut b = crate::bench::position(&crate::bench::POSITIONS[i]);
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
        let empty = Board::square(15, Rule::Freestyle).unwrap();
        assert_eq!(evaluate(&empty), 0);
    }

    #[test]
    fn renju_colours_have_their_own_weights() {
        assert_ne!(
            weights(Rule::Renju, Color::Black),
            weights(Rule::Renju, Color::White)
        );
        assert_eq!(
            weights(Rule::Exact, Color::Black),
            weights(Rule::Exact, Color::White)
        );
    }
}
