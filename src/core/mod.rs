//! The game itself: squares and colours ([`types`]), square names ([`notation`]), line
//! patterns and threat classes ([`pattern`]), the incremental board ([`board`]), the rules
//! that need more than a pattern lookup ([`rules`]: renju fouls, legality), the classical
//! evaluation ([`eval`]), game records ([`record`]: Piskvork `.psq` and SGF text) and
//! the seedable random-number generators ([`rng`]).
//!
//! Nothing here searches, reads or writes: every function is pure or works on a `Board`.

pub mod board;
pub mod eval;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod host;
pub mod notation;
pub mod pattern;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scale;
pub mod tables;
pub mod time;
pub mod types;
pub mod weights;
