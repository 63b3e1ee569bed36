//! Subcommand output on stdout that survives a closed pipe: [`write_line`] and the
//! `outln!` macro (`use crate::cli::output::outln;` inside the crate).

/// Writes one line of a subcommand's output to stdout. When the reader has gone away
/// (`pbrain-fivefold bench | head -1`), the process ends quietly with status 0 instead
/// of panicking as `println!` does; any other write error ends it with status 1.
pub fn write_line(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// `println!` for subcommand output, through [`write_line`].
macro_rules! outln {
    () => {
        $crate::cli::output::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::write_line(format_args!($($arg)*))
    };
}
pub(crate) use outln;
