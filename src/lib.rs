//! Fivefold: a Gomoku and Renju engine.
//!
//! The library holds everything; the binaries (`pbrain-fivefold`, and `fivefold-tools`
//! with the `tools` feature) only read their command line. The folders are the layers,
//! and imports only point down the list:
//!
//! - [`web`]: the engine as the browser page drives it (the WebAssembly module's exports
//!   with the `web` feature; the typed helpers they share, tested natively);
//! - [`tools`] (feature `tools`): what measures and trains: `selfplay`, `openings`,
//!   `tune`, `style`, `datagen` (and its data format), `import`, `train`, `average`;
//! - [`cli`]: the subcommands for people (`play`, `analyse`, `solve`, `puzzles`, `bench`)
//!   and what they share with the tools: clap options, positions read from the command
//!   line and files, output lines, JSON, board diagrams, the terminal;
//! - [`gomocup`]: the Gomocup protocol and Yixin-Board's extensions: lines to commands,
//!   the session that holds the game and the clock, pondering, table dumps;
//! - [`analysis`]: services over the engine that need no text: several best lines,
//!   Swap2, Soosorv, balanced openings, defence, weaker play;
//! - [`book`]: the position database and its files (RenLib, text), no search; the
//!   SQLite file behind the `sqlite` feature (on by default; off in the browser);
//! - [`engine`]: the search: the engine (threads, table, stop), the alpha-beta search, the
//!   threat solver, move generation, the transposition table, time and memory;
//! - [`nn`]: the learned evaluation and move policy: its features, weights and file
//!   format, and the evaluator the search keeps up to date;
//! - [`core`]: the game: squares and colours, the incremental board and its line
//!   patterns, the rules (renju fouls), the classical evaluation, the score scale, game
//!   records.
//!
//! Nothing in `core`, `nn`, `engine`, `analysis` or `book` reads stdin, writes stdout, or
//! knows about terminals or JSON (the files read there are a network named by
//! `FIVEFOLD_NET`, the database's, and the system's memory figures).
//! `docs/architecture.md` follows one move through these layers.

// `unsafe` is allowed, explicitly, in four places in a native build: the cache prefetch
// in `engine::tt::Tt::prefetch`, one call to the C library in
// `engine::memory::fit_allocator_to_address_space` (glibc's arenas under a `ulimit -v`),
// one to Windows in `engine::memory::physical_memory` (the machine's memory), and the
// call of the network's AVX2 copy in `nn::simd::Simd::run` (after run-time detection).
// The browser build adds the page's three imports in `core::host` (and `web`'s
// `no_mangle` exports, which the lint counts).
#![deny(unsafe_code)]

pub mod analysis;
pub mod book;
pub mod cli;
pub mod core;
pub mod engine;
pub mod gomocup;
pub mod nn;
#[cfg(feature = "tools")]
pub mod tools;
pub mod web;

pub use crate::core::board::Board;
pub use crate::core::types::{Color, Pos, Rule};
