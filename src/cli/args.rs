//! What the subcommands' command lines share: the value parsers that check a value as it
//! is read (so a mistake stops the command with a message and exit status 2 instead of
//! quietly becoming a default), and the `--threads` option group. The position options
//! are [`PositionArgs`](crate::cli::position::PositionArgs), the colour switches
//! [`AnsiArgs`](crate::cli::term::AnsiArgs).

use crate::core::types::{Rule, MAX_SIZE, MIN_SIZE};
use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

/// The rules `--rule` accepts, for help texts and messages.
pub const RULES: &str = "freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9";

/// A rule by name or protocol number (see [`Rule::parse`]).
pub fn rule(s: &str) -> Result<Rule, String> {
    Rule::parse(s).ok_or_else(|| format!("unknown rule '{s}' (use {RULES})"))
}

/// A number from `lo` to `hi`, both included.
pub fn number_in<T>(s: &str, lo: T, hi: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    match s.trim().parse::<T>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from {lo} to {hi}")),
    }
}

/// A whole number of any size (`u64`), with the same message style as [`number_in`].
pub fn count(s: &str) -> Result<u64, String> {
    number_in(s, 0, u64::MAX)
}

/// A finite number above 0.
pub fn positive(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err("expected a number above 0".to_string()),
    }
}

/// Seconds, from 0 to a day (what `Duration` can hold and a person may mean).
pub fn seconds(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=86_400.0).contains(&v) => Ok(Duration::from_secs_f64(v)),
        _ => Err("expected seconds from 0 to 86400".to_string()),
    }
}

/// Search threads: 1 to [`MAX_THREADS`](crate::engine::memory::MAX_THREADS).
pub fn threads(s: &str) -> Result<usize, String> {
    number_in(s, 1, crate::engine::memory::MAX_THREADS)
}

/// A search depth in plies: 1 to [`MAX_DEPTH`](crate::engine::search::MAX_DEPTH).
pub fn depth(s: &str) -> Result<i32, String> {
    number_in(s, 1, crate::engine::search::MAX_DEPTH)
}

/// A transposition table size in megabytes: 1 to 65536.
pub fn hash_mb(s: &str) -> Result<usize, String> {
    number_in(s, 1, 65_536)
}

/// A square board's side for the tools that make their own openings: the sizes a
/// [`Board`](crate::core::board::Board) takes, [`MIN_SIZE`] to [`MAX_SIZE`] (5 to 32).
pub fn board_size(s: &str) -> Result<usize, String> {
    number_in(s, MIN_SIZE, MAX_SIZE)
}

/// `--threads N`: search threads, 1 by default.
#[derive(clap::Args, Clone, Debug)]
pub struct ThreadsArgs {
    /// Search threads (more is faster but not reproducible)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads)]
    pub threads: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(rule("renju"), Ok(Rule::Renju));
        assert_eq!(rule("4"), Ok(Rule::Renju));
        assert!(rule("chess").unwrap_err().contains("unknown rule 'chess'"));
        assert_eq!(threads("4"), Ok(4));
        assert!(threads("0").is_err());
        assert!(threads("x").is_err());
        assert!(depth("0").is_err());
        assert_eq!(depth("8"), Ok(8));
        assert!(seconds("-1").is_err());
        assert!(seconds("NaN").is_err());
        assert!(seconds("1e9").is_err());
        assert_eq!(seconds("0.5").unwrap().as_millis(), 500);
        assert_eq!(number_in("0.5", 0.0, 1.0), Ok(0.5));
        assert!(number_in("nan", 0.0, 1.0).is_err());
        assert!(count("-1").is_err());
        assert!(positive("0").is_err());
        assert!(positive("inf").is_err());
        assert_eq!(positive("225"), Ok(225.0));
    }
}
