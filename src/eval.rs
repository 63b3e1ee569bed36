//! Static evaluation from the board's incrementally kept shape values.
//!
//! Every empty square carries, for each colour, a value computed once per rule from its
//! four line shapes and its combined threat class ([`square_value`]); the board keeps the
//! sums up to date on every move. The evaluation is the side to move's sum minus the
//! opponent's, so it needs no scan of the board.

use crate::board::Board;
use crate::pattern::{Pat, Threat};
use crate::types::Score;

/// Weight of a single line shape, indexed by [`Pat`].
pub const LINE_WEIGHT: [i16; Pat::COUNT] = [
    0,   // None
    2,   // Two
    6,   // OpenTwo
    8,   // Three
    24,  // OpenThree
    26,  // Four
    100, // OpenFour
    100, // DoubleFour
    300, // Five
    0,   // Overline
];

/// Extra weight of a square's combined threat class, indexed by [`Threat`].
pub const THREAT_WEIGHT: [i16; Threat::COUNT] = [
    0,   // None
    0,   // OpenTwo
    0,   // Three
    8,   // DoubleTwo
    8,   // ThreeTwo
    0,   // OpenThree
    16,  // OpenThreeTwo
    60,  // DoubleThree
    0,   // Four
    20,  // FourTwo
    120, // FourThree
    250, // OpenFour
    400, // Five
    0,   // Forbidden
];

/// Value of an empty square for one colour, from its line shapes and threat class.
pub fn square_value(pats: [Pat; 4], threat: Threat) -> i16 {
    if threat == Threat::Forbidden {
        return 0;
    }
    let lines: i16 = pats.iter().map(|&p| LINE_WEIGHT[p as usize]).sum();
    lines + THREAT_WEIGHT[threat as usize]
}

/// Static score of the position for the side to move.
#[inline]
pub fn evaluate(b: &Board) -> Score {
    let me = b.side_to_move();
    b.value_sum(me) - b.value_sum(me.opp())
}
