//! `fivefold-tools`: the tools that measure and train Fivefold, kept out of the protocol
//! engine `pbrain-fivefold` (built with the `tools` feature, on by default).
//!
//! The command line is read by `clap` from [`Cli`]: one subcommand, each with its options
//! struct defined in its module under `fivefold::tools`.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use fivefold::cli::exit_status;
use fivefold::tools::{average, datagen, import, openings, selfplay, style, train, tune};
use std::process::ExitCode;

/// The tools that measure and train Fivefold: games, openings, training data, the trainer.
#[derive(Parser)]
#[command(
    name = "fivefold-tools",
    version,
    after_help = "The engine itself, and play, analyse, solve, bench and puzzles, are \
                  pbrain-fivefold.\n\nSee 'fivefold-tools COMMAND --help' for a command's options."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// In-process games between search settings
    Selfplay(selfplay::Options),
    /// Balanced openings for match runners
    Openings(openings::Options),
    /// Fit the evaluation weights to self-play or recorded results
    Tune(tune::Options),
    /// What each player's moves make and block, over recorded games
    Style(style::Options),
    /// Self-play training positions for a learned evaluation, in a binary file
    Datagen(datagen::Options),
    /// Training positions from another engine's games (c-gomoku-cli samples or SGF games)
    Import(import::Options),
    /// Train the learned evaluation and policy on datagen files
    Train(train::Options),
    /// The weighted mean of network files, weight by weight (a weight soup)
    Average(average::Options),
}

fn main() -> ExitCode {
    fivefold::cli::start_process();
    exit_status(match Cli::parse().command {
        Command::Selfplay(o) => selfplay::run(&o),
        Command::Openings(o) => openings::run(&o),
        Command::Tune(o) => tune::run(&o),
        Command::Style(o) => style::run(&o),
        Command::Datagen(o) => datagen::run(&o),
        Command::Import(o) => import::run(&o),
        Command::Train(o) => train::run(&o),
        Command::Average(o) => average::run(&o),
    })
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
            &["x", "selfplay"][..],
            &["x", "openings"],
            &["x", "tune"],
            &["x", "style", "--sgf", "g.sgf"],
            &["x", "datagen", "--out", "d.data"],
            &["x", "import", "g.csv", "--out", "d.data"],
            &["x", "average", "--out", "o.fnet", "a.fnet"],
        ] {
            if let Err(e) = Cli::try_parse_from(args) {
                panic!("{args:?}: {e}");
            }
        }
    }

    #[test]
    fn options_parse_into_their_subcommands() {
        let cli =
            Cli::try_parse_from(["x", "average", "a", "b", "--out", "o", "--weights", "3,0.5"])
                .unwrap();
        let Command::Average(o) = cli.command else {
            panic!("not average")
        };
        assert_eq!((o.nets.len(), o.weights), (2, vec![3.0, 0.5]));
        for bad in [
            &["x"][..],
            &["x", "bench"],
            &["x", "average", "--out", "o"],
            &["x", "average", "a", "b", "--out", "o", "--weights", "1,x"],
            &["x", "average", "a", "b", "--out", "o", "--weights"],
        ] {
            let e = Cli::try_parse_from(bad).err().expect("an error");
            assert_eq!(e.exit_code(), 2, "{bad:?}");
        }
    }
}
