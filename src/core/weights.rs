//! The classical evaluation's weights, fitted by `pbrain-fivefold tune`, and the value of
//! one empty square computed from them ([`square_value`]). The values are baked into the
//! combination table ([`crate::core::tables`]); [`crate::core::eval`] adds them up.

use crate::core::pattern::{Pat, Threat};
use crate::core::types::{Color, Rule};

/// Number of features per colour: one per line shape (how many (square, line) pairs
/// have it), one per threat class (how many squares), one per threat class for whether
/// the colour has at least one such square (the first square of a class is worth more
/// than the fifth: only one move is played at a time), and a constant.
pub const FEATURES: usize = Pat::COUNT + 2 * Threat::COUNT + 1;

/// Index of the first "has at least one square of this threat class" feature.
pub const HAS: usize = Pat::COUNT + Threat::COUNT;

/// Index of the constant feature (its weight for the side to move is the tempo).
pub const BIAS: usize = FEATURES - 1;

/// Weights of one colour per role (0 = side to move, 1 = the other side): first the
/// line shapes, indexed by [`Pat`], then the threat classes, indexed by [`Threat`], then
/// "has at least one" per threat class, then the constant.
pub type Weights = [[i16; FEATURES]; 2];

/// Weights for freestyle and caro, the same for both colours.
pub const WEIGHTS: Weights = [
    // tune --sgf: rule freestyle, 1821 recorded games of PentaZen 0.4.17 against itself
    // (c-gomoku-cli, 0.07 s/move, `openings --seed 101`), iterations 400
    // loss train 0.5727 -> 0.5566, held-out 0.5466 -> 0.5360
    [
        // line shapes: None Two OpenTwo Three OpenThree Four OpenFour DoubleFour Five Overline
        0, 0, 6, 6, 30, 42, 100, 100, 300, 0,
        // threats: None OpenTwo Three DoubleTwo ThreeTwo OpenThree OpenThreeTwo DoubleThree
        //          Four FourTwo FourThree OpenFour Five Forbidden
        0, 1, 0, 5, 14, 15, 26, 0, 0, 94, 120, 250, 400, 0,
        // at least one square of each threat class, then the constant
        0, 43, 40, 123, 33, 0, 106, 104, 71, 18, 0, 0, 0, 0, 15,
    ],
    [
        0, 0, 0, 3, 18, 16, 100, 100, 300, 0, //
        0, 6, 4, 20, 23, 14, 29, 0, 31, 100, 240, 250, 400, 0, //
        0, 0, 0, 21, 0, 29, 94, 44, 0, 0, 2, 0, 0, 0, 7,
    ],
];

/// Weights for exact five, the same for both colours.
pub const EXACT_WEIGHTS: Weights = [
    // tune: rule exact5 size 15 games 4000 nodes 3000 seed 4 iterations 400
    // loss train 0.5889 -> 0.5756, held-out 0.5857 -> 0.5711
    [
        0, 1, 3, 1, 26, 42, 100, 100, 300, 0, //
        0, 0, 5, 7, 16, 18, 27, 0, 1, 89, 120, 250, 400, 0, //
        0, 38, 60, 72, 27, 0, 83, 87, 19, 0, 0, 0, 0, 0, 24,
    ],
    [
        0, 1, 0, 0, 23, 3, 100, 100, 300, 0, //
        0, 0, 10, 16, 24, 9, 18, 0, 17, 103, 259, 250, 400, 0, //
        0, 0, 55, 24, 0, 7, 55, 61, 0, 0, 0, 0, 0, 0, 0,
    ],
];

/// Weights for renju, per colour (black, white): black's fouls make the same shape
/// worth different amounts to the two sides.
pub const RENJU_WEIGHTS: [Weights; 2] = [
    // tune: rule renju size 15 games 4000 nodes 3000 seed 4 iterations 400
    // loss train 0.5977 -> 0.5782, held-out 0.5870 -> 0.5774
    [
        // black
        [
            0, 0, 3, 7, 0, 45, 100, 100, 300, 0, //
            0, 0, 0, 4, 15, 41, 51, 0, 9, 89, 120, 250, 400, 0, //
            0, 52, 36, 53, 0, 0, 88, 20, 0, 0, 0, 0, 0, 0, 43,
        ],
        [
            0, 0, 1, 12, 0, 1, 100, 100, 300, 0, //
            0, 1, 0, 6, 6, 30, 36, 0, 14, 114, 338, 250, 400, 0, //
            0, 0, 14, 29, 0, 19, 65, 19, 0, 0, 0, 0, 0, 0, 0,
        ],
    ],
    [
        // white
        [
            0, 3, 1, 0, 0, 45, 100, 100, 300, 0, //
            0, 2, 12, 0, 8, 30, 42, 10, 1, 79, 120, 250, 400, 0, //
            0, 28, 66, 84, 61, 26, 115, 72, 8, 27, 0, 0, 0, 0, 18,
        ],
        [
            0, 2, 0, 0, 0, 0, 100, 100, 300, 0, //
            0, 0, 10, 0, 18, 22, 34, 0, 17, 106, 160, 250, 400, 0, //
            0, 0, 0, 47, 35, 73, 92, 16, 0, 0, 28, 0, 0, 0, 0,
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

#[cfg(test)]
mod tests {
    use super::*;

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
