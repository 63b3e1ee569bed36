//! The one scale between the search's scores and expected results.
//!
//! A score of `s` for the side to move means an expected result (a win 1, a draw ½, a
//! loss 0) of `1 / (1 + e^(-s / SCORE_PER_LOGIT))`: [`SCORE_PER_LOGIT`] score units are
//! one logit. The classical evaluation's weights were fitted on this scale
//! (`fivefold-tools tune`), the networks are trained on it and give their value on it
//! (`nn::eval::score_of`), and the protocol's win rates are read from it, so a margin in
//! the search means the same whichever evaluation made the score.

/// Score units per logit of the expected result.
pub const SCORE_PER_LOGIT: f64 = 200.0;

/// The logistic function, `1 / (1 + e^-x)`.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// [`logistic`] in single precision, for the trainer's sums.
pub fn logistic_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The expected result of a score for the side it is for.
pub fn expected(score: f64) -> f64 {
    logistic(score / SCORE_PER_LOGIT)
}

/// [`expected`] in single precision.
pub fn expected_f32(score: f32) -> f32 {
    logistic_f32(score / SCORE_PER_LOGIT as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logit_is_two_hundred_units() {
        assert_eq!(expected(0.0), 0.5);
        assert!((expected(SCORE_PER_LOGIT) - 0.731_058_578_630_004_9).abs() < 1e-15);
        assert!((expected(-SCORE_PER_LOGIT) + expected(SCORE_PER_LOGIT) - 1.0).abs() < 1e-15);
        assert_eq!(expected_f32(200.0), logistic_f32(1.0));
        assert!(expected(4000.0) > 0.999_999_99 && expected(-4000.0) < 1e-8);
    }
}
