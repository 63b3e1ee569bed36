//! `fivefold-tools openings`: balanced openings for matches, written in the Gomocup
//! offset format that c-gomoku-cli reads (`dx,dy` from the centre, comma separated:
//! `0,0, 1,1, -1,2`) or its `pos` format (`h8i9g10`, letter = column, number = row + 1
//! counted from the top).
//!
//! Openings are random stones within three squares of the centre (`--radius`), or with
//! `--near N` clusters that may stand anywhere: the first stone within `--radius` of the
//! centre, each next one within N squares of a stone already placed, as in the spread-out
//! sets of `../shared/openings/` (`--radius 7 --near 3` on 15x15). They are seeded, so the
//! file is reproducible, and kept only when a search to an even depth (6 by default) with the
//! classical evaluation (`use_net=0`, in every rule: the window below was chosen for it,
//! and a seed gives the same openings whatever the engine's default evaluation) scores the
//! position at most zero and at least -40 (`--max-eval`) for the side to move, so a
//! match measures play, not the luck of the draw. Why not a window around zero: the
//! evaluation gives the side to move a bonus for having the move, which an even-depth
//! search keeps; openings where white (to move after three stones) scored between 0 and
//! +40 were won by white far more often than those between -40 and 0 were by black. An opening that is a rotation or reflection of one
//! already kept (the same stones of the same colours) is skipped.
//!
//! How balanced these openings are, measured with another engine, is in
//! `docs/strength.md` ("Openings").

use crate::cli::args;
use crate::cli::output::outln;
use crate::core::types::{symmetries, Pos, Rule};
use crate::engine::search::{search_position_with, Limits, Params};
use crate::tools::selfplay::random_opening_near;
use anyhow::Result;

/// Formats an opening in the Gomocup offset format.
fn offset_line(opening: &[Pos], size: usize) -> String {
    let c = (size / 2) as i64;
    opening
        .iter()
        .map(|p| format!("{},{}", p.x() as i64 - c, p.y() as i64 - c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Formats an opening in c-gomoku-cli's `pos` format.
pub fn pos_line(opening: &[Pos]) -> String {
    opening
        .iter()
        .map(|p| format!("{}{}", (b'a' + p.x() as u8) as char, p.y() + 1))
        .collect()
}

/// Reads an opening in c-gomoku-cli's `pos` format, the inverse of [`pos_line`]: squares
/// run together, black's first, each a letter for the column (`a` is x 0) and the row
/// counted from 1 at the top (`a1` is the protocol square 0,0), as in `h4j5e4` or
/// `a3d5e6e8f6f10`. Spaces between squares are allowed; letters may be capitals. This is
/// not the `h8` notation of [`crate::core::notation`], whose rows count from the bottom.
/// Returns the squares as `(x, y)`, or what is wrong with the line.
pub fn parse_pos_line(
    line: &str,
    width: usize,
    height: usize,
) -> Result<Vec<(usize, usize)>, String> {
    let mut out = Vec::new();
    let mut chars = line
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_alphabetic() {
            return Err(format!("'{c}' where a column letter was expected"));
        }
        let x = (c.to_ascii_lowercase() as u8 - b'a') as usize;
        let mut digits = String::new();
        while let Some(d) = chars.next_if(char::is_ascii_digit) {
            digits.push(d);
        }
        let row: usize = match digits.parse() {
            Ok(r) if digits.len() <= 2 => r,
            _ => return Err(format!("column '{c}' is not followed by a row number")),
        };
        if x >= width || row == 0 || row > height {
            return Err(format!("'{c}{row}' is outside the {width}x{height} board"));
        }
        out.push((x, row - 1));
    }
    Ok(out)
}

/// The same stones under the eight symmetries of the square around the centre: the
/// smallest of the eight (black's stones sorted, then white's), so that symmetric openings compare equal.
fn canonical(opening: &[Pos], size: usize) -> Vec<(i64, i64)> {
    let c = (size / 2) as i64;
    symmetries()
        .iter()
        .map(|f| {
            let mut black: Vec<(i64, i64)> = Vec::new();
            let mut white: Vec<(i64, i64)> = Vec::new();
            for (k, p) in opening.iter().enumerate() {
                let q = f(p.x() as i64 - c, p.y() as i64 - c);
                if k % 2 == 0 {
                    black.push(q);
                } else {
                    white.push(q);
                }
            }
            black.sort();
            white.sort();
            // A separator no offset can equal, so black's and white's stones stay apart.
            black.push((i64::MAX, i64::MAX));
            black.extend(white);
            black
        })
        .min()
        .unwrap_or_default()
}

/// What [`balanced`] generates.
#[derive(Clone, Debug)]
pub struct Spec {
    pub rule: Rule,
    /// Board size (square).
    pub size: usize,
    /// Stones per opening, black first.
    pub stones: usize,
    /// Openings wanted (fewer come back when the tries run out).
    pub count: usize,
    pub seed: u64,
    /// The side to move may score from `-max_eval` to 0 (see the module text).
    pub max_eval: i32,
    /// Depth of the search that scores an opening.
    pub depth: i32,
    /// Stones lie within this many squares of the centre (with `near`, the first stone).
    pub radius: usize,
    /// When not 0, each stone after the first lies within this many squares of one
    /// already placed, anywhere on the board (see [`random_opening_near`]).
    pub near: usize,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            rule: Rule::Freestyle,
            size: 15,
            stones: 3,
            count: 50,
            seed: 1,
            max_eval: 40,
            depth: 6,
            radius: 3,
            near: 0,
        }
    }
}

/// Generates up to `count` balanced openings: the classical search to `depth` scores each
/// between `-max_eval` and 0 for the side to move. At most 200 tries per opening wanted.
pub fn balanced(spec: &Spec) -> Vec<Vec<Pos>> {
    let classical = Params::classical();
    let Spec {
        rule,
        size,
        stones,
        count,
        seed,
        max_eval,
        depth,
        radius,
        near,
    } = *spec;
    let mut out: Vec<Vec<Pos>> = Vec::new();
    let mut seen: Vec<Vec<(i64, i64)>> = Vec::new();
    let mut i = 0u64;
    while out.len() < count && i < count as u64 * 200 {
        let o = random_opening_near(
            size,
            stones,
            seed.wrapping_mul(1_000_003).wrapping_add(i),
            radius,
            near,
        );
        i += 1;
        let key = canonical(&o, size);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let mut b = crate::core::board::Board::square(size, rule).expect("size");
        let mut legal = true;
        for &p in &o {
            if !crate::core::rules::is_legal(&mut b, p) {
                legal = false;
                break;
            }
            b.make(p);
        }
        if !legal {
            continue;
        }
        let r = search_position_with(
            &b,
            &Limits {
                max_depth: Some(depth),
                ..Limits::default()
            },
            8,
            &classical,
        );
        if (-max_eval..=0).contains(&r.score) {
            out.push(o);
        }
    }
    out
}

/// How `openings` writes an opening.
#[derive(clap::ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    // (Plain comments: a help text on a value would turn the whole --help into the long form.)
    // The Gomocup offset format, see [`offset_line`].
    Offset,
    // c-gomoku-cli's `pos` format, see [`pos_line`].
    Pos,
}

/// The command line of `openings`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Prints one opening a line; fewer than --count when the tries run out (a note on stderr says so).

Example:
  fivefold-tools openings --count 100 --size 15 --rule 0 --stones 3 --seed 1 --format offset")]
pub struct Options {
    /// Openings wanted
    #[arg(long, value_name = "N", default_value_t = Spec::default().count)]
    pub count: usize,
    /// Rule: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = args::rule)]
    pub rule: Rule,
    /// Board size (square)
    #[arg(long, value_name = "N", default_value_t = Spec::default().size, value_parser = args::board_size)]
    pub size: usize,
    /// Stones per opening, black first
    #[arg(long, value_name = "N", default_value_t = Spec::default().stones, value_parser = |s: &str| args::number_in(s, 1usize, 20))]
    pub stones: usize,
    /// Seed of the random openings
    #[arg(long, value_name = "N", default_value_t = Spec::default().seed, value_parser = args::count)]
    pub seed: u64,
    /// The side to move may score from -SCORE to 0 at --depth
    #[arg(long, value_name = "SCORE", default_value_t = Spec::default().max_eval, value_parser = |s: &str| args::number_in(s, 0, 30_000))]
    pub max_eval: i32,
    /// Depth of the search that scores an opening
    #[arg(long, value_name = "PLIES", default_value_t = Spec::default().depth, value_parser = |s: &str| args::number_in(s, 1, 20), allow_negative_numbers = true)]
    pub depth: i32,
    /// Stones lie within this many squares of the centre (with --near, the first stone)
    #[arg(long, value_name = "N", default_value_t = Spec::default().radius)]
    pub radius: usize,
    /// Each stone after the first within N squares of one already placed, anywhere on the board (0: off)
    #[arg(long, value_name = "N", default_value_t = Spec::default().near, value_parser = |s: &str| args::number_in(s, 0usize, 20))]
    pub near: usize,
    /// How each opening is written: offset (dx,dy from the centre: "0,0, 1,1, -1,2") or pos ("h8i9g10")
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = Format::Offset)]
    pub format: Format,
}

/// Runs `openings`.
pub fn run(opts: &Options) -> Result<()> {
    let spec = Spec {
        rule: opts.rule,
        size: opts.size,
        stones: opts.stones,
        count: opts.count,
        seed: opts.seed,
        max_eval: opts.max_eval,
        depth: opts.depth,
        radius: opts.radius,
        near: opts.near,
    };
    let found = balanced(&spec);
    if found.len() < spec.count {
        eprintln!(
            "openings: only {} of {} found scoring -{} to 0 at depth {} (try another --seed, a larger --radius or --max-eval)",
            found.len(),
            spec.count,
            spec.max_eval,
            spec.depth
        );
    }
    for o in found {
        match opts.format {
            Format::Offset => outln!("{}", offset_line(&o, spec.size)),
            Format::Pos => outln!("{}", pos_line(&o)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn pos_lines_read_back_as_written() {
        assert_eq!(
            parse_pos_line("a3d5e6e8f6f10", 15, 15),
            Ok(vec![(0, 2), (3, 4), (4, 5), (4, 7), (5, 5), (5, 9)])
        );
        assert_eq!(parse_pos_line(" H8 i9 ", 15, 15), Ok(vec![(7, 7), (8, 8)]));
        assert_eq!(parse_pos_line("", 15, 15), Ok(vec![]));
        let o = [p(7, 7), p(0, 0), p(14, 14), p(3, 11)];
        let xy: Vec<_> = o.iter().map(|q| (q.x(), q.y())).collect();
        assert_eq!(parse_pos_line(&pos_line(&o), 15, 15), Ok(xy));
        // Rows count from 1 at the top: a1 is 0,0 and o15 the opposite corner.
        assert_eq!(pos_line(&[p(0, 0), p(14, 14)]), "a1o15");
        for (bad, msg) in [
            ("h", "not followed by a row number"),
            ("h0", "outside the 15x15 board"),
            ("h16", "outside the 15x15 board"),
            ("p1", "outside the 15x15 board"),
            ("h8,i9", "',' where a column letter"),
            ("8h", "'8' where a column letter"),
            ("h123", "not followed by a row number"),
        ] {
            let e = parse_pos_line(bad, 15, 15).unwrap_err();
            assert!(e.contains(msg), "{bad}: {e}");
        }
    }

    #[test]
    fn near_openings_are_clusters_anywhere_on_the_board() {
        let spec = Spec {
            count: 6,
            depth: 2,
            seed: 9,
            stones: 5,
            radius: 7,
            near: 2,
            ..Spec::default()
        };
        let out = balanced(&spec);
        assert_eq!(out.len(), 6);
        for o in &out {
            assert_eq!(o.len(), 5);
            for (k, q) in o.iter().enumerate().skip(1) {
                assert!(
                    o[..k]
                        .iter()
                        .any(|r| r.x().abs_diff(q.x()) <= 2 && r.y().abs_diff(q.y()) <= 2),
                    "{o:?}: stone {k} is not within 2 of an earlier one"
                );
            }
        }
        // Not all near the centre: over many seeds some cluster starts near an edge.
        let edge = (0..200u64)
            .map(|s| random_opening_near(15, 3, s, 7, 3))
            .filter(|o| o[0].x().abs_diff(7) >= 6 || o[0].y().abs_diff(7) >= 6)
            .count();
        assert!(edge > 20, "{edge} of 200 start near an edge");
        // near 0 is the old generator, stone for stone.
        assert_eq!(
            random_opening_near(15, 4, 3, 3, 0),
            crate::tools::selfplay::random_opening_within(15, 4, 3, 3)
        );
    }

    #[test]
    fn rotations_and_reflections_are_one_opening() {
        // Black h8 and j8, white i9 (x,y) on 15x15; the same turned a quarter and mirrored.
        let a = [p(7, 7), p(8, 8), p(9, 7)];
        let turned = [p(7, 7), p(6, 8), p(7, 9)];
        let mirrored = [p(7, 7), p(8, 6), p(9, 7)];
        assert_eq!(canonical(&a, 15), canonical(&turned, 15));
        assert_eq!(canonical(&a, 15), canonical(&mirrored, 15));
        // The same squares with the colours swapped are another opening.
        let swapped = [p(8, 8), p(7, 7), p(9, 7)];
        assert_ne!(canonical(&a, 15), canonical(&swapped, 15));
    }

    #[test]
    fn openings_are_distinct_near_the_centre_and_within_the_window() {
        let spec = Spec {
            count: 4,
            depth: 2,
            seed: 5,
            ..Spec::default()
        };
        let out = balanced(&spec);
        assert_eq!(out.len(), 4);
        let keys: Vec<_> = out.iter().map(|o| canonical(o, 15)).collect();
        for (i, k) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(k), "opening {i} repeats an earlier one");
        }
        for o in &out {
            assert_eq!(o.len(), 3);
            assert!(o
                .iter()
                .all(|q| q.x().abs_diff(7) <= 3 && q.y().abs_diff(7) <= 3));
            let mut b = crate::core::board::Board::square(15, Rule::Freestyle).expect("size");
            for &q in o {
                b.make(q);
            }
            let r = search_position_with(
                &b,
                &Limits {
                    max_depth: Some(2),
                    ..Limits::default()
                },
                8,
                &Params::classical(),
            );
            assert!((-40..=0).contains(&r.score), "{o:?} scores {}", r.score);
        }
    }
}
