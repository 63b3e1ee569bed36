//! Small helpers for the terminal subcommands (`play`, `analyse`): checking the
//! command line for mistakes a person can fix, and deciding on colours.

use anyhow::{bail, Result};
use std::io::IsTerminal;

/// Erases the current terminal line (carriage return, then "erase line").
pub const CLEAR_LINE: &str = "\r\x1b[2K";

/// Checks the arguments after the subcommand name: every `--option` must be one of
/// `with_value` (followed by its value, or written `--option=value`) or `flags`.
/// Returns the remaining (positional) arguments in order.
pub fn check_options(
    args: &[String],
    with_value: &[&str],
    flags: &[&str],
    command: &str,
) -> Result<Vec<String>> {
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a.starts_with("--") {
            let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
            if with_value.contains(&name) {
                if name == a && i + 1 >= args.len() {
                    bail!("{name} needs a value (see pbrain-fivefold {command} --help)");
                }
                if name == a {
                    i += 1;
                }
            } else if !flags.contains(&a.as_str()) {
                bail!("unknown option '{a}' (see pbrain-fivefold {command} --help)");
            }
        } else {
            positional.push(a.clone());
        }
        i += 1;
    }
    Ok(positional)
}

/// Whether to colour the output: `--ansi` forces colours, `--no-ansi` or the
/// `NO_COLOR` environment variable turns them off, otherwise only when standard output
/// is a terminal.
pub fn use_ansi(args: &crate::io::position::Args) -> bool {
    if args.flag("--ansi") {
        return true;
    }
    if args.flag("--no-ansi") || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    std::io::stdout().is_terminal()
}

/// Search threads from `--threads` (1 by default).
pub fn threads(args: &crate::io::position::Args) -> Result<usize> {
    let n: usize = args.number("--threads")?.unwrap_or(1);
    let max = crate::engine::MAX_THREADS;
    if !(1..=max).contains(&n) {
        bail!("--threads expects a number from 1 to {max}, got {n}");
    }
    Ok(n)
}

/// Seconds from a command-line value, rejecting what `Duration` cannot hold.
pub fn seconds(name: &str, v: f64) -> Result<std::time::Duration> {
    if !(0.0..=86_400.0).contains(&v) {
        bail!("{name} expects seconds between 0 and 86400, got '{v}'");
    }
    Ok(std::time::Duration::from_secs_f64(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_are_checked() {
        let ok = check_options(
            &strings(&["--depth", "3", "h8", "--json", "--rule=renju", "i9"]),
            &["--depth", "--rule"],
            &["--json"],
            "x",
        );
        assert_eq!(ok.unwrap(), strings(&["h8", "i9"]));
        let err = check_options(&strings(&["--dpeth", "3"]), &["--depth"], &[], "x").unwrap_err();
        assert!(err.to_string().contains("unknown option '--dpeth'"));
        let err = check_options(&strings(&["--depth"]), &["--depth"], &[], "x").unwrap_err();
        assert!(err.to_string().contains("--depth needs a value"));
        assert!(seconds("--time", -1.0).is_err());
        assert!(seconds("--time", f64::NAN).is_err());
        assert_eq!(seconds("--time", 0.5).unwrap().as_millis(), 500);
    }
}
