//! Fivefold: a Gomoku and Renju engine.
//!
//! The library holds everything; the `pbrain-fivefold` binary is a thin front end.
//! See `ARCHITECTURE.md`-style notes in each module's documentation.

pub mod board;
pub mod eval;
pub mod notation;
pub mod pattern;
pub mod rules;
pub mod solve;
pub mod threat;
pub mod types;

pub use board::Board;
pub use types::{Color, Pos, Rule};
