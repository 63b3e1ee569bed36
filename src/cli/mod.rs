//! The subcommands for people: a game in the terminal ([`play`]), the best lines and
//! forced wins of a position ([`analyse`]), the threat-space solver ([`solve`]), puzzle
//! suites ([`puzzles`]) and the fixed-depth benchmark with its node signature
//! ([`bench`](mod@bench)).
//!
//! And what they and the tools share for talking to people: the clap options and value
//! checks ([`args`]), a position read from the command line or a file ([`position`]),
//! output lines that survive a closed pipe ([`output`]), JSON ([`json`]), board diagrams
//! ([`display`]) and the terminal ([`term`]).

pub mod analyse;
pub mod args;
pub mod bench;
pub mod display;
pub mod json;
pub mod output;
pub mod play;
pub mod position;
pub mod puzzles;
pub mod solve;
pub mod term;

/// What both binaries do first, before any thread: the log on stderr (`RUST_LOG`, off
/// by default, so stdout carries nothing but the protocol or the output), and the
/// allocator fitted to an address-space limit
/// ([`crate::engine::memory::fit_allocator_to_address_space`]).
pub fn start_process() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    crate::engine::memory::fit_allocator_to_address_space();
}

/// The exit status of a subcommand: 0, or 2 with the error on stderr as one line a
/// person can act on.
pub fn exit_status(r: anyhow::Result<()>) -> std::process::ExitCode {
    match r {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
