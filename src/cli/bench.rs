//! `pbrain-fivefold bench`: fixed positions searched to a fixed depth with one thread and
//! a fixed table. The node count is the functional signature of the search: a change
//! that alters it changes search behaviour. Also `bench --board`, the speed of the
//! board's incremental `make`/`unmake`.

use crate::cli::args::{self, ThreadsArgs};
use crate::cli::output::outln;
use crate::core::board::Board;
use crate::core::notation;
use crate::core::time::Instant;
use crate::core::types::{Pos, Rule};
use crate::engine::evaluation::Networks;
use crate::engine::params::Params;
use crate::engine::search::{Limits, Searcher};
use crate::engine::tt::Tt;
use crate::engine::StopToken;
use std::sync::Arc;

/// A bench position: rule, width, height, moves in `x,y` order from black's first.
pub struct BenchPosition {
    pub name: &'static str,
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub moves: &'static str,
}

/// The fixed bench set: every rule, several sizes, openings to late middlegames.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition { name: "free15-open", rule: Rule::Freestyle, width: 15, height: 15, moves: "7,7 8,8 8,6 6,8 9,7" },
    BenchPosition {
        name: "free15-mid",
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
        moves: "7,7 7,8 6,5 6,9 7,10 6,11 6,12 7,13 6,13 8,9 5,13 6,8 6,10",
    },
    BenchPosition {
        name: "free15-late",
        rule: Rule::Freestyle,
        width: 15,
        height: 15,
        moves: "7,7 8,7 9,7 9,8 5,5 7,6 6,5 8,8 10,8 8,6 8,5 7,5 9,6 6,6 5,7 7,4 10,9 8,4 10,7 10,6 11,7 11,8 9,9 8,10 8,9 11,9 9,3 7,9",
    },
    BenchPosition {
        name: "exact15-mid",
        rule: Rule::Exact,
        width: 15,
        height: 15,
        moves: "7,7 8,6 6,5 7,4 7,5 8,5 9,6 8,4 8,3 5,4 6,4 6,3 8,7 5,5",
    },
    BenchPosition {
        name: "renju15-open",
        rule: Rule::Renju,
        width: 15,
        height: 15,
        moves: "7,7 8,6 7,5 7,8 9,8 7,6 6,6 8,4",
    },
    BenchPosition {
        name: "renju15-mid",
        rule: Rule::Renju,
        width: 15,
        height: 15,
        moves: "7,7 8,8 9,8 7,8 6,7 9,7 5,8 4,9 4,7 5,7 6,9 7,10 6,5 6,10",
    },
    BenchPosition { name: "free20-open", rule: Rule::Freestyle, width: 20, height: 20, moves: "10,9 9,9 12,7 10,8 9,11 13,8 11,8" },
    BenchPosition { name: "caro12-mid", rule: Rule::Caro, width: 12, height: 12, moves: "6,6 5,5 6,5 6,4 7,5 5,6 5,4 7,7 8,4" },
    BenchPosition {
        name: "caroexact10",
        rule: Rule::CaroExact,
        width: 10,
        height: 10,
        moves: "5,5 4,4 5,4 5,3 6,4 4,5",
    },
    BenchPosition { name: "rect19x13", rule: Rule::Freestyle, width: 19, height: 13, moves: "9,6 10,7 8,6 10,6 10,5 9,7" },
];

/// Depth every bench position is searched to.
pub const BENCH_DEPTH: i32 = 8;
/// Table size for the bench (fixed so the node count is reproducible).
pub const BENCH_HASH_MB: usize = 16;

/// The command line of `bench`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
The last lines are the totals: Nodes (the functional signature of the search with one
thread), Nodes/s and Signature (a hash of every position's nodes, move and score).

Examples:
  pbrain-fivefold bench
  pbrain-fivefold bench --depth 13 --threads 4
  pbrain-fivefold bench --board")]
pub struct Options {
    /// Depth every bench position is searched to
    #[arg(long, value_name = "PLIES", default_value_t = BENCH_DEPTH, value_parser = args::depth, allow_negative_numbers = true)]
    pub depth: i32,
    #[command(flatten)]
    pub threads: ThreadsArgs,
    /// Measure the board's make/unmake speed instead of the search (about 3 seconds)
    #[arg(long)]
    pub board: bool,
    /// Search parameters, name=value separated by commas (use_net=1: the network)
    #[arg(long, value_name = "SPEC", default_value = "")]
    pub params: String,
}

/// Runs `bench`: the search bench, or with `--board` the make/unmake bench, printing
/// its lines.
pub fn run(opts: &Options) -> anyhow::Result<()> {
    let lines = if opts.board {
        run_board(3000)
    } else {
        let mut params = Params::default();
        params.apply(&opts.params).map_err(|e| anyhow::anyhow!(e))?;
        run_search_with(opts.depth, opts.threads.threads, &params)
    };
    for l in lines {
        outln!("{l}");
    }
    Ok(())
}

/// Sets up a bench position.
pub fn position(p: &BenchPosition) -> Board {
    let mut b = Board::new(p.width, p.height, p.rule).expect("bench board size");
    for (x, y) in notation::parse_moves(p.moves, p.width, p.height).expect("bench moves parse") {
        b.make(Pos::new(x, y));
    }
    b
}

/// Runs the search bench with one thread and returns its output lines.
pub fn run_search(depth: i32) -> Vec<String> {
    run_search_threads(depth, 1)
}

/// Runs the search bench with `threads` search threads (lazy SMP). With more than one
/// thread the node count varies from run to run: use it for time to depth and speed.
fn run_search_threads(depth: i32, threads: usize) -> Vec<String> {
    run_search_with(depth, threads, &Params::default())
}

/// The search bench with `threads` search threads (see `run_search_threads`) and search
/// parameters.
pub fn run_search_with(depth: i32, threads: usize, params: &Params) -> Vec<String> {
    let mut out = Vec::new();
    let mut total_nodes = 0u64;
    let mut signature = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |v: u64| {
        for byte in v.to_le_bytes() {
            signature ^= byte as u64;
            signature = signature.wrapping_mul(0x100_0000_01b3);
        }
    };
    let start = Instant::now();
    for p in POSITIONS {
        let board = position(p);
        let limits = Limits {
            max_depth: Some(depth),
            ..Limits::default()
        };
        let r = if threads <= 1 {
            let tt = Arc::new(Tt::new(BENCH_HASH_MB << 20));
            let mut s = Searcher::new(tt, StopToken::new());
            s.params = params.clone();
            s.prepare_evaluation(&mut Networks::built_in(), &board);
            s.search(&board, &limits, &mut |_| {})
        } else {
            let mut e = crate::engine::Engine::new(BENCH_HASH_MB << 20);
            e.set_threads(threads);
            e.set_params(params.clone());
            e.think(&board, &limits, &StopToken::new(), &mut |_| {})
        };
        total_nodes += r.nodes;
        mix(r.nodes);
        mix(r.best.0 as u64);
        mix(r.score as i64 as u64);
        out.push(format!(
            "{:<14} {:>10} nodes  best {:<6} score {:>7}  {:>6} ms",
            p.name,
            r.nodes,
            notation::xy(r.best),
            crate::core::types::format_score(r.score),
            r.elapsed.as_millis()
        ));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    out.push(format!("Nodes: {total_nodes}"));
    out.push(format!("Nodes/s: {}", total_nodes * 1000 / ms));
    out.push(format!("Signature: {signature:016x}"));
    out
}

/// Make+unmake pairs per second on the bench middlegames: every empty square near the
/// stones is played and taken back, over and over, for about `millis` milliseconds.
fn run_board(millis: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut boards: Vec<(Board, Vec<Pos>)> = POSITIONS
        .iter()
        .map(|p| {
            let b = position(p);
            let sq: Vec<Pos> = b.area(2).filter(|&q| b.is_empty(q)).collect();
            (b, sq)
        })
        .collect();
    let start = Instant::now();
    let mut pairs = 0u64;
    while start.elapsed().as_millis() < millis as u128 {
        for (b, squares) in boards.iter_mut() {
            for &q in squares.iter() {
                b.make(q);
                b.unmake();
            }
            pairs += squares.len() as u64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    out.push(format!("Make+unmake pairs: {pairs}"));
    out.push(format!("Pairs/s: {}", (pairs as f64 / secs) as u64));
    out
}
