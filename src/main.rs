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
        // No argument (as managers start engines) or anything else: the protocol on
        // stdin/stdout.
        other => {
            if let Some(arg) = other {
                log::warn!("unknown argument '{arg}' ignored; speaking the Gomocup protocol");
            }
            match fivefold::session::run_stdio() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("pbrain-fivefold: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
