//! The tools that measure and train the engine, built only with the `tools` feature and
//! shipped as their own binary, `fivefold-tools`, so the protocol engine carries none of
//! them: games between search settings ([`selfplay`]), balanced openings for match
//! runners ([`openings`]), fitting the evaluation weights ([`tune`]), what recorded
//! players' moves make and block ([`style`]), and training data for a learned
//! evaluation: self-play positions ([`datagen`]) in a binary format ([`data`]),
//! positions from another engine's games ([`import`](mod@import)), the trainer
//! ([`train`]) and the mean of network files ([`average`](mod@average)).

pub mod average;
pub mod data;
pub mod datagen;
pub mod import;
pub mod openings;
pub mod selfplay;
pub mod style;
pub mod train;
pub mod tune;
