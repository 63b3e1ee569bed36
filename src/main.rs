//! `pbrain-fivefold`: the Gomocup protocol engine and its subcommands.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
}
