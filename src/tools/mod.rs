//! The tools that measure and train the engine: the fixed-depth benchmark and its node
//! signature ([`bench`](mod@bench)), games between search settings ([`selfplay`]), balanced openings
//! for match runners ([`openings`]), fitting the evaluation weights ([`tune`]), puzzle
//! suites ([`puzzles`]), what recorded players' moves make and block ([`style`]), and
//! training data for a learned evaluation: self-play positions ([`datagen`]) in a
//! binary format ([`data`]), and positions from another engine's games ([`import`](mod@import)), and the mean of
//! network files ([`average`](mod@average)).

pub mod average;
pub mod bench;
pub mod data;
pub mod datagen;
pub mod import;
pub mod openings;
pub mod puzzles;
pub mod selfplay;
pub mod style;
pub mod train;
pub mod tune;
