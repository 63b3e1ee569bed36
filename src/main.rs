//! `pbrain-fivefold`: the Gomocup protocol engine and its subcommands.

#![forbid(unsafe_code)]

use std::process::ExitCode;

const USAGE: &str = "\
Usage: pbrain-fivefold [COMMAND] [OPTIONS]

With no command, speaks the Gomocup (Piskvork) protocol on stdin/stdout.

Commands:
  play        play against the engine in the terminal
  analyse     best moves, scores and forced wins of a position (also: analyze)
  solve       VCF/VCT threat-space solver for a position
  bench       fixed-depth search benchmark (--depth N, --threads N; --board: make/unmake speed)
  puzzles     run the engine on puzzle files and count good answers
  selfplay    in-process games between search settings
  openings    balanced openings for match runners
  tune        fit the evaluation weights to self-play or recorded results
  style       what each player's moves make and block, over recorded games (--sgf)
  help        this text

Positions for play/analyse/solve: --moves \"h8 i9 ...\" (or x,y squares), --file F
(diagram, .psq or .sgf), --rule freestyle|exact5|renju|caro|caro-exact5, --size N.";

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("bench") => {
            let rest = &args[2..];
            let lines = if rest.iter().any(|a| a == "--board") {
                fivefold::tools::bench::run_board(3000)
            } else {
                let depth = rest
                    .iter()
                    .position(|a| a == "--depth")
                    .and_then(|i| rest.get(i + 1))
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(fivefold::tools::bench::BENCH_DEPTH);
                let threads = rest
                    .iter()
                    .position(|a| a == "--threads")
                    .and_then(|i| rest.get(i + 1))
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(1);
                fivefold::tools::bench::run_search_threads(depth, threads)
            };
            for l in lines {
                fivefold::outln!("{l}");
            }
            ExitCode::SUCCESS
        }
        Some("solve") => finish(fivefold::front::solve::run(&args[2..])),
        Some("selfplay") => finish(fivefold::tools::selfplay::run(&args[2..])),
        Some("openings") => finish(fivefold::tools::openings::run(&args[2..])),
        Some("puzzles") => finish(fivefold::tools::puzzles::run(&args[2..])),
        Some("tune") => finish(fivefold::tools::tune::run(&args[2..])),
        Some("style") => finish(fivefold::tools::style::run(&args[2..])),
        Some("play") => finish(fivefold::front::play::run(&args[2..])),
        Some("analyse") | Some("analyze") => finish(fivefold::front::analyse::run(&args[2..])),
        Some("help") | Some("--help") | Some("-h") => {
            fivefold::outln!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version") | Some("-V") => {
            fivefold::outln!("pbrain-fivefold {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        // No argument (as managers start engines), or an option we do not know (a manager
        // may pass its own): the protocol on stdin/stdout.
        None | Some("protocol") => protocol(),
        Some(flag) if flag.starts_with('-') => {
            eprintln!(
                "pbrain-fivefold: ignoring unknown option '{flag}'; speaking the Gomocup protocol"
            );
            protocol()
        }
        Some(other) => {
            eprintln!("error: unknown command '{other}'\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn protocol() -> ExitCode {
    match fivefold::front::session::run_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-fivefold: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Exit status of a subcommand: errors go to stderr as one line a person can act on.
fn finish(r: anyhow::Result<()>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
