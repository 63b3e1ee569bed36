//! `pbrain-fivefold`: the Gomocup protocol engine and its subcommands.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("solve") {
        if let Err(e) = fivefold::solve::run(&args[2..]) {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
    }
}
