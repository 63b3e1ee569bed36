//! Fivefold: a Gomoku and Renju engine.
//!
//! The library holds everything; the `pbrain-fivefold` binary is a thin front end.
//! See `ARCHITECTURE.md`-style notes in each module's documentation.

// One `unsafe` block is allowed, explicitly: the cache prefetch in `tt::Tt::prefetch`.
#![deny(unsafe_code)]

pub mod analyse;
pub mod bench;
pub mod board;
pub mod cli;
pub mod display;
pub mod engine;
pub mod eval;
pub mod json;
pub mod movegen;
pub mod multipv;
pub mod notation;
pub mod openings;
pub mod pattern;
pub mod play;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod session;
pub mod solve;
pub mod style;
pub mod swap2;
pub mod term;
pub mod threat;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;

pub use board::Board;
pub use types::{Color, Pos, Rule};
