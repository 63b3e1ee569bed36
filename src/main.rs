//! `pbrain-fivefold`: the Gomocup protocol engine and its subcommands.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("bench") => {
            let rest = &args[2..];
            let lines = if rest.iter().any(|a| a == "--board") {
                fivefold::bench::run_board(3000)
            } else {
                let depth = rest
                    .iter()
                    .position(|a| a == "--depth")
                    .and_then(|i| rest.get(i + 1))
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(fivefold::bench::BENCH_DEPTH);
                fivefold::bench::run_search(depth)
            };
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Some("selfplay") => finish(fivefold::selfplay::run(&args[2..])),
        Some("openings") => finish(fivefold::openings::run(&args[2..])),
        Some("puzzles") => finish(fivefold::puzzles::run(&args[2..])),
        Some("tune") => finish(fivefold::tune::run(&args[2..])),
        Some("play") => finish(fivefold::play::run(&args[2..])),
        Some("analyse") | Some("analyze") => finish(fivefold::analyse::run(&args[2..])),
        _ => ExitCode::SUCCESS,
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
