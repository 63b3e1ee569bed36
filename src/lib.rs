//! Fivefold: a Gomoku and Renju engine.
//!
//! The library holds everything; the `pbrain-fivefold` binary is a thin front end.
//! The folders are the layers, and imports only point down the list:
//!
//! - [`front`]: what talks to managers and people: the Gomocup protocol session, `play`,
//!   `analyse`, `solve`;
//! - [`tools`]: what measures and trains: `bench`, `selfplay`, `openings`, `tune`,
//!   `puzzles`, `style`, `datagen` (and its data format), `import`, `train`;
//! - [`io`]: what the front ends and tools share for the outside world: positions read
//!   from the command line and files, output lines, JSON, board diagrams, the terminal;
//! - [`engine`]: the search: the engine (threads, table, stop), the alpha-beta search, the
//!   threat solver, move generation, the transposition table, time management;
//! - [`nn`]: the learned evaluation and move policy: its features, weights and file
//!   format, and the evaluator the search keeps up to date;
//! - [`core`]: the game: squares and colours, the incremental board and its line
//!   patterns, the rules (renju fouls), the classical evaluation, game records.
//!
//! Nothing in `core`, `nn` or `engine` reads stdin, writes stdout, or knows about
//! terminals or JSON (the one file read there is a network named by `FIVEFOLD_NET`). `docs/architecture.md` follows one move through these layers.

// `unsafe` is allowed, explicitly, in three places: the cache prefetch in
// `engine::tt::Tt::prefetch`, one call to the C library in
// `io::process::fit_allocator_to_address_space` (glibc's arenas under a `ulimit -v`), and
// one to Windows in `engine::memory::physical_memory` (the machine's memory).
#![deny(unsafe_code)]

pub mod core;
pub mod engine;
pub mod front;
pub mod io;
pub mod nn;
pub mod tools;

pub use crate::core::board::Board;
pub use crate::core::types::{Color, Pos, Rule};
