//! The tools that measure and train the engine: the fixed-depth benchmark and its node
//! signature ([`bench`](mod@bench)), games between search settings ([`selfplay`]), balanced openings
//! for match runners ([`openings`]), fitting the evaluation weights ([`tune`]), puzzle
//! suites ([`puzzles`]), what recorded players' moves make and block ([`style`]), and
//! the binary format of training positions for a learned evaluation ([`data`]).

pub mod bench;
pub mod data;
pub mod openings;
pub mod puzzles;
pub mod selfplay;
pub mod style;
pub mod tune;
