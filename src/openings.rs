//! `pbrain-fivefold openings`: balanced openings for matches, written in the Gomocup
//! offset format that c-gomoku-cli reads (`dx,dy` from the centre, comma separated:
//! `0,0, 1,1, -1,2`) or its `pos` format (`h8i9g10`, letter = column, number = row + 1
//! counted from the top).
//!
//! Openings are random stones within two squares of the centre (seeded, so the file is
//! reproducible), kept only when a short search finds the position balanced for the
//! side to move, so a match measures play, not the luck of the draw.

use crate::cli::Args;
use crate::search::{search_position, Limits};
use crate::selfplay::random_opening;
use crate::types::{Pos, Rule};
use anyhow::{bail, Result};

/// Formats an opening in the Gomocup offset format.
pub fn offset_line(opening: &[Pos], size: usize) -> String {
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

/// Generates `count` balanced openings of `stones` stones.
pub fn balanced(
    rule: Rule,
    size: usize,
    stones: usize,
    count: usize,
    seed: u64,
    max_eval: i32,
) -> Vec<Vec<Pos>> {
    let mut out: Vec<Vec<Pos>> = Vec::new();
    let mut i = 0u64;
    while out.len() < count && i < count as u64 * 50 {
        let o = random_opening(size, stones, seed.wrapping_mul(1_000_003).wrapping_add(i));
        i += 1;
        let mut sorted = o.clone();
        sorted.sort();
        if out.iter().any(|x| {
            let mut s = x.clone();
            s.sort();
            s == sorted
        }) {
            continue;
        }
        let mut b = crate::board::Board::square(size, rule).expect("size");
        let mut legal = true;
        for &p in &o {
            if !crate::rules::is_legal(&mut b, p) {
                legal = false;
                break;
            }
            b.make(p);
        }
        if !legal {
            continue;
        }
        let r = search_position(
            &b,
            &Limits {
                max_depth: Some(5),
                ..Limits::default()
            },
            8,
        );
        if r.score.abs() <= max_eval {
            out.push(o);
        }
    }
    out
}

/// `pbrain-fivefold openings --count 100 --size 15 --rule 0 --stones 3 --seed 1 [--format offset|pos] [--max-eval 150]`
pub fn run(args: &[String]) -> Result<()> {
    let args = Args::new(args);
    let rule = args.rule()?;
    let size: usize = args.number("--size")?.unwrap_or(15);
    let stones: usize = args.number("--stones")?.unwrap_or(3);
    let count: usize = args.number("--count")?.unwrap_or(50);
    let seed: u64 = args.number("--seed")?.unwrap_or(1);
    let max_eval: i32 = args.number("--max-eval")?.unwrap_or(150);
    if !(5..=32).contains(&size) || stones == 0 || stones > 20 {
        bail!("need 5 <= size <= 32 and 1 <= stones <= 20");
    }
    let format = args.value("--format").unwrap_or("offset");
    for o in balanced(rule, size, stones, count, seed, max_eval) {
        match format {
            "offset" => crate::outln!("{}", offset_line(&o, size)),
            "pos" => crate::outln!("{}", pos_line(&o)),
            f => bail!("unknown format '{f}' (offset or pos)"),
        }
    }
    Ok(())
}
