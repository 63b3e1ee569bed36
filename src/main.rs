//! `pbrain-fivefold`: the Gomocup protocol engine and the subcommands for people.
//!
//! The command line is read by `clap` from [`Cli`]: one subcommand, each with its
//! options struct defined in the subcommand's own module. With no arguments (as
//! tournament managers start engines) the engine speaks the Gomocup protocol. The tools
//! that measure and train the engine are another binary, `fivefold-tools`.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use fivefold::cli::{analyse, bench, exit_status, play, puzzles, solve};
use std::process::ExitCode;

/// Fivefold, a Gomoku and Renju engine. With no command it speaks the Gomocup (Piskvork)
/// protocol on stdin/stdout.
#[derive(Parser)]
#[command(
    name = "pbrain-fivefold",
    version,
    after_help = "\
Positions for play, analyse and solve: --moves \"h8 i9 ...\" (or x,y squares), --file F
(a diagram, .psq or .sgf), --rule freestyle|exact5|renju|caro|caro-exact5 (or 0/1/4/8/9),
--size N or --width W --height H.

See 'pbrain-fivefold COMMAND --help' for a command's options. The tools that measure
and train the engine (selfplay, openings, tune, style, datagen, import, train, average)
are another binary, fivefold-tools."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Gomocup protocol on stdin/stdout (the same as no command)
    Protocol(ProtocolOptions),
    /// Play against the engine in the terminal
    Play(play::Options),
    /// Best moves, scores and forced wins of a position
    #[command(visible_alias = "analyze")]
    Analyse(analyse::Options),
    /// VCF/VCT threat-space solver for a position or a puzzle file
    Solve(solve::Options),
    /// Fixed-depth search benchmark (or --board: make/unmake speed)
    Bench(bench::Options),
    /// Run the engine on puzzle files and count good answers
    Puzzles(puzzles::Options),
}

fn main() -> ExitCode {
    fivefold::cli::start_process();
    // Tournament managers start the engine with no arguments, and some add options of
    // their own that mean nothing to us. So a first argument that looks like an option
    // but is not one of ours (help and version) is not an error: the engine says on
    // stderr that it ignores it and speaks the protocol. This is decided here, before
    // clap, which would reject the option with exit status 2. Unknown command words are
    // still errors (clap's, exit status 2).
    if let Some(first) = std::env::args_os().nth(1) {
        let first = first.to_string_lossy();
        if first.starts_with('-') && !["-h", "--help", "-V", "--version"].contains(&&*first) {
            eprintln!(
                "pbrain-fivefold: ignoring unknown option '{first}'; speaking the Gomocup protocol"
            );
            return protocol();
        }
    }
    let cli = Cli::parse();
    match cli.command {
        None => protocol(),
        Some(Command::Protocol(o)) => match parse_params(&o.params) {
            Ok(p) => exit_status(fivefold::gomocup::run::run_stdio_with(p)),
            Err(e) => exit_status(Err(e)),
        },
        Some(Command::Play(o)) => exit_status(play::run(&o)),
        Some(Command::Analyse(o)) => exit_status(analyse::run(&o)),
        Some(Command::Solve(o)) => exit_status(solve::run(&o)),
        Some(Command::Bench(o)) => exit_status(bench::run(&o)),
        Some(Command::Puzzles(o)) => exit_status(puzzles::run(&o)),
    }
}

/// Options of the `protocol` subcommand.
#[derive(clap::Args)]
#[command(after_help = "\
Search parameters set here hold from the start; INFO NAME VALUE still changes them.
For match runners that start the engine with arguments, e.g. to test the network:
  pbrain-fivefold protocol --params use_net=1")]
struct ProtocolOptions {
    /// Search parameters, name=value separated by commas
    #[arg(long, value_name = "SPEC", default_value = "")]
    params: String,
}

fn parse_params(spec: &str) -> anyhow::Result<fivefold::engine::params::Params> {
    let mut p = fivefold::engine::params::Params::default();
    p.apply(spec).map_err(|e| anyhow::anyhow!(e))?;
    Ok(p)
}

fn protocol() -> ExitCode {
    match fivefold::gomocup::run::run_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-fivefold: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every subcommand parses with its defaults: each option's value parser gives the
    /// type its field has (a mismatch only shows when the options are read).
    #[test]
    fn every_subcommand_parses_with_its_defaults() {
        for args in [
            &["x"][..],
            &["x", "protocol"],
            &["x", "play"],
            &["x", "analyse"],
            &["x", "analyze", "h8"],
            &["x", "solve", "--moves", "h8"],
            &["x", "bench"],
            &["x", "puzzles", "p.txt"],
        ] {
            if let Err(e) = Cli::try_parse_from(args) {
                panic!("{args:?}: {e}");
            }
        }
    }

    #[test]
    fn options_parse_into_their_subcommands() {
        let cli = Cli::try_parse_from(["x", "bench", "--depth=5", "--threads", "2"]).unwrap();
        let Some(Command::Bench(o)) = cli.command else {
            panic!("not bench")
        };
        assert_eq!((o.depth, o.threads.threads), (5, 2));
        let cli = Cli::try_parse_from(["x", "analyze", "h8", "i9", "--rule=renju"]).unwrap();
        let Some(Command::Analyse(o)) = cli.command else {
            panic!("not analyse")
        };
        assert_eq!(o.given, ["h8", "i9"]);
        assert_eq!(o.position.rule, fivefold::Rule::Renju);
        for bad in [
            &["x", "bench", "--depth", "x"][..],
            &["x", "analyse", "--threads", "0"],
            &["x", "play", "--rule", "nonsense"],
            &["x", "solve"],
            &["x", "frob"],
            &["x", "train"],
        ] {
            let e = Cli::try_parse_from(bad).err().expect("an error");
            assert_eq!(e.exit_code(), 2, "{bad:?}");
        }
    }
}
