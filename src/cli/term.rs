//! Small helpers for the terminal subcommands (`play`, `analyse`): the colour switches
//! and the line-erasing escape for progress lines.

use std::io::IsTerminal;

/// Erases the current terminal line (carriage return, then "erase line").
pub const CLEAR_LINE: &str = "\r\x1b[2K";

/// `--ansi` / `--no-ansi`: whether to colour the output.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AnsiArgs {
    /// Force colours on (default: on when the output is a terminal and NO_COLOR is unset)
    #[arg(long, overrides_with = "no_ansi")]
    pub ansi: bool,
    /// Force colours off
    #[arg(long, overrides_with = "ansi")]
    pub no_ansi: bool,
}

impl AnsiArgs {
    /// Whether to colour the output: `--ansi` forces colours, `--no-ansi` or the
    /// `NO_COLOR` environment variable turns them off, otherwise only when standard
    /// output is a terminal.
    pub fn enabled(&self) -> bool {
        if self.ansi {
            return true;
        }
        if self.no_ansi || std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return false;
        }
        std::io::stdout().is_terminal()
    }
}
