//! `pbrain-fivefold solve`: runs the threat-space solver on one position, or on a file of
//! puzzles for benchmark figures.
//!
//! ```text
//! pbrain-fivefold solve --moves "h8 i9 h9 ..." [--rule renju] [--size 15] [--vct] [--json]
//! pbrain-fivefold solve --moves "..." --vcf-threats  # a VCT whose quiet moves may threaten a VCF
//! pbrain-fivefold solve --file position.txt [--tomove black|white] ...
//! pbrain-fivefold solve --moves "..." --defend      # replies to the opponent's VCF
//! pbrain-fivefold solve --suite ../shared/puzzles/win.txt
//! ```
//!
//! Moves are given in game order, black first, as `h8` or `7,7`. A file holds a diagram
//! (see [`Board::from_diagram`]); its side to move follows from the stone counts unless
//! `--tomove` says otherwise.

use crate::cli::args;
use crate::cli::json;
use crate::cli::output::outln;
use crate::cli::position::PositionArgs;
use crate::core::board::Board;
use crate::core::notation::{square_name, xy};
use crate::core::time::Instant;
use crate::core::types::{Color, Pos};
use crate::engine::threat::{Stats, ThreatSolver};
use anyhow::{anyhow, bail, Context, Result};
use std::time::Duration;

/// Default ply limit of a VCF (the five included): no practical VCF is longer.
pub const VCF_PLIES: usize = 225;
/// Default ply limit of a VCT.
pub const VCT_PLIES: usize = 35;
/// Default node limits.
pub const VCF_NODES: u64 = 10_000_000;
pub const VCT_NODES: u64 = 2_000_000;

/// The command line of `solve`: one position (`--moves` or `--file`) or a puzzle file
/// (`--suite`).
#[derive(clap::Args, Clone, Debug)]
#[command(
    group(clap::ArgGroup::new("source").required(true).args(["moves", "file", "suite"])),
    mut_arg("file", |a| a.help("Read the position from a diagram file (X, O and . rows, row numbers allowed)")),
    after_help = "\
Examples:
  pbrain-fivefold solve --moves \"h8 i9 h9 i10 h10\" --vct
  pbrain-fivefold solve --file position.txt --tomove white --defend --json
  pbrain-fivefold solve --suite ../shared/puzzles/win.txt"
)]
pub struct Options {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Run the solver on every vcf/vct puzzle of a puzzle file and print benchmark figures
    #[arg(long, value_name = "FILE")]
    pub suite: Option<String>,
    /// Side to move, black or white [default: from the stone counts]
    #[arg(long, value_name = "COLOUR", value_parser = colour)]
    pub tomove: Option<Color>,
    /// Search a VCT (victory by continuous threats) instead of a VCF (by fours)
    #[arg(long)]
    pub vct: bool,
    /// A VCT whose quiet moves may also threaten a VCF (implies --vct)
    #[arg(long)]
    pub vcf_threats: bool,
    /// List the replies that stop the opponent's VCF
    #[arg(long)]
    pub defend: bool,
    /// Ply limit of the search [default: 225 for a VCF, 35 for a VCT]
    #[arg(long, value_name = "N", value_parser = |s: &str| args::number_in(s, 0, usize::MAX))]
    pub max_plies: Option<usize>,
    /// Node limit of the search [default: 10000000 for a VCF, 2000000 for a VCT]
    #[arg(long, value_name = "N", value_parser = args::count)]
    pub nodes: Option<u64>,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
}

fn colour(s: &str) -> std::result::Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err("expected black or white".to_string()),
    }
}

/// Runs the `solve` subcommand.
pub fn run(opts: &Options) -> Result<()> {
    let mut o = opts.clone();
    o.vct |= o.vcf_threats;
    if let Some(path) = &o.suite {
        return run_suite(path, &o);
    }
    // A file holds a diagram (rows may carry their numbers), as solve has always read it.
    let mut b = match &o.position.file {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            Board::from_diagram(&text, o.position.rule).map_err(|e| anyhow!("{path}: {e}"))?
        }
        None => crate::cli::position::position(&o.position)?,
    };
    if let Some(c) = o.tomove {
        b.set_side_to_move(c);
    }
    if let Some(c) = b.winner() {
        bail!("the game is over: {} made five", c.name());
    }
    let me = b.side_to_move();
    let h = b.height();
    let mut solver = ThreatSolver::new();
    solver.set_vcf_threats(o.vcf_threats);
    if o.defend {
        let plies = o.max_plies.unwrap_or(VCF_PLIES);
        let nodes = o.nodes.unwrap_or(VCF_NODES);
        let t = Instant::now();
        let d = solver.vcf_defences(&mut b, plies, nodes);
        let elapsed = t.elapsed();
        let ms = elapsed.as_secs_f64() * 1000.0;
        let names = |v: &[Pos]| v.iter().map(|&p| square_name(p, h)).collect::<Vec<_>>();
        if o.json {
            let j = json::Defences {
                command: "solve",
                schema: json::SCHEMA_VERSION,
                position: json::Position::of(&b, o.position.file.as_deref()),
                opponent_vcf: d.is_some(),
                defences: d
                    .as_deref()
                    .map(|v| v.iter().filter_map(|&p| json::Move::of(p, h)).collect()),
                time_ms: json::millis(elapsed),
            };
            outln!("{}", json::to_line(&j));
        } else {
            outln!(
                "position: {}x{} {}, {} to move",
                b.width(),
                h,
                b.rule().name(),
                me.name()
            );
            match d {
                None => outln!("opponent VCF: no (nothing to defend against)"),
                Some(v) => {
                    outln!("opponent VCF: yes");
                    outln!("defences ({}): {}", v.len(), names(&v).join(" "));
                }
            }
            outln!("time: {ms:.1}ms");
        }
        return Ok(());
    }
    let kind = if o.vct { "VCT" } else { "VCF" };
    let t = Instant::now();
    let line = search(&mut solver, &mut b, o.vct, &o);
    let elapsed = t.elapsed();
    let stats = solver.stats();
    if o.json {
        let j = to_json(
            &b,
            kind,
            line.as_deref(),
            stats,
            elapsed,
            o.position.file.as_deref(),
        );
        outln!("{}", json::to_line(&j));
    } else {
        print_result(&b, kind, line.as_deref(), stats, elapsed);
    }
    Ok(())
}

/// A VCT (`vct`) or VCF for the side to move, within the plies and nodes the options
/// give (the solver's defaults otherwise): the winning line, or `None`.
fn search(solver: &mut ThreatSolver, b: &mut Board, vct: bool, o: &Options) -> Option<Vec<Pos>> {
    if vct {
        let plies = o.max_plies.unwrap_or(VCT_PLIES);
        solver.vct(b, plies, o.nodes.unwrap_or(VCT_NODES))
    } else {
        let plies = o.max_plies.unwrap_or(VCF_PLIES);
        solver.vcf(b, plies, o.nodes.unwrap_or(VCF_NODES))
    }
}

fn move_name(p: Pos, h: usize) -> String {
    if p.is_none() {
        "any".into()
    } else {
        square_name(p, h)
    }
}

fn move_xy(p: Pos) -> String {
    if p.is_none() {
        "any".into()
    } else {
        xy(p)
    }
}

/// `yes` (a win found), `no` (the solver searched everything and found none) or
/// `unknown` (it stopped at its node limit).
fn verdict(line: Option<&[Pos]>, stats: Stats) -> &'static str {
    match (line.is_some(), stats.aborted) {
        (true, _) => "yes",
        (false, false) => "no",
        (false, true) => "unknown",
    }
}

/// The solver's answer as the JSON schema's [`json::Solution`]. The side to move is the
/// attacker; a solver line always ends with the five.
pub fn to_json(
    b: &Board,
    kind: &str,
    line: Option<&[Pos]>,
    stats: Stats,
    elapsed: Duration,
    file: Option<&str>,
) -> json::Solution {
    let me = b.side_to_move();
    let found = line.map(|l| json::Line::of_win(l, b.height(), me, me, l.len() as i32, true));
    json::Solution {
        command: "solve",
        schema: json::SCHEMA_VERSION,
        position: json::Position::of(b, file),
        forced_win: json::ForcedWin {
            result: verdict(line, stats),
            kind: Some(if kind == "VCT" { "vct" } else { "vcf" }),
            winner: line.map(|_| me.name()),
            line: found,
            source: Some("solver"),
        },
        nodes: stats.nodes,
        time_ms: json::millis(elapsed),
    }
}

fn print_result(b: &Board, kind: &str, line: Option<&[Pos]>, stats: Stats, elapsed: Duration) {
    let h = b.height();
    let ms = elapsed.as_secs_f64() * 1000.0;
    let verdict = verdict(line, stats);
    let names: Vec<String> = line
        .unwrap_or_default()
        .iter()
        .map(|&p| move_name(p, h))
        .collect();
    let xys: Vec<String> = line
        .unwrap_or_default()
        .iter()
        .map(|&p| move_xy(p))
        .collect();
    outln!(
        "position: {}x{} {}, {} to move",
        b.width(),
        h,
        b.rule().name(),
        b.side_to_move().name()
    );
    match verdict {
        "unknown" => outln!("{kind}: unknown (node limit reached)"),
        v => outln!("{kind}: {v}"),
    }
    if line.is_some() {
        outln!("sequence: {}", names.join(" "));
        outln!("sequence (x,y): {}", xys.join(" "));
        outln!("plies: {}", names.len());
    }
    outln!("nodes: {}", stats.nodes);
    outln!("time: {ms:.1}ms");
    if stats.nodes > 0 && ms > 0.0 {
        outln!("nodes/s: {:.0}", stats.nodes as f64 / elapsed.as_secs_f64());
    }
}

use crate::cli::puzzles::parse_puzzles;

#[derive(Default)]
struct Tally {
    total: usize,
    solved: usize,
    wrong: usize,
    time: Duration,
    nodes: u64,
}

fn run_suite(path: &str, o: &Options) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let puzzles = parse_puzzles(&text)?;
    let mut solver = ThreatSolver::new();
    solver.set_vcf_threats(o.vcf_threats);
    let (mut vcf, mut vct, mut leaf) = (Tally::default(), Tally::default(), Tally::default());
    for pz in &puzzles {
        let is_vct = match pz.kind.as_str() {
            "vcf" => false,
            "vct" => true,
            _ => continue,
        };
        let mut b = pz.board()?;
        // Each puzzle starts from an empty table, so times do not depend on the order.
        solver.clear();
        let t = Instant::now();
        let line = search(&mut solver, &mut b, is_vct, o);
        let el = t.elapsed();
        let st = solver.stats();
        let tally = if is_vct { &mut vct } else { &mut vcf };
        tally.total += 1;
        tally.time += el;
        tally.nodes += st.nodes;
        let h = b.height();
        let verdict = match &line {
            Some(l) if pz.is_good(l[0]) => {
                tally.solved += 1;
                format!("solved {} ({} plies)", square_name(l[0], h), l.len())
            }
            Some(l) => {
                tally.wrong += 1;
                format!("WRONG first move {} (not in good=)", square_name(l[0], h))
            }
            None if st.aborted => "not found (limit)".to_string(),
            None => "not found (searched out)".to_string(),
        };
        outln!(
            "{:<6} {} {:<11} {:>9} nodes {:>9.1}ms  {verdict}",
            pz.id,
            pz.kind,
            pz.rule.name(),
            st.nodes,
            el.as_secs_f64() * 1000.0
        );
        if is_vct {
            // A VCF search that finds nothing explores every four: the throughput of the
            // VCF as the main search would call it at a leaf.
            solver.clear();
            let t = Instant::now();
            let found = solver.has_vcf(&mut b, o.max_plies.unwrap_or(VCF_PLIES), VCF_NODES);
            leaf.time += t.elapsed();
            leaf.nodes += solver.stats().nodes;
            leaf.total += 1;
            leaf.solved += found as usize;
        }
    }
    for (name, t) in [("VCF", &vcf), ("VCT", &vct)] {
        if t.total == 0 {
            continue;
        }
        let secs = t.time.as_secs_f64();
        outln!(
            "{name}: solved {}/{} ({:.0}%), wrong {}, mean time {:.1}ms, mean nodes {:.0}, {:.2} M nodes/s",
            t.solved,
            t.total,
            100.0 * t.solved as f64 / t.total as f64,
            t.wrong,
            1000.0 * secs / t.total as f64,
            t.nodes as f64 / t.total as f64,
            if secs > 0.0 { t.nodes as f64 / secs / 1e6 } else { 0.0 }
        );
    }
    if leaf.total > 0 {
        let secs = leaf.time.as_secs_f64();
        outln!(
            "VCF search on the VCT puzzles: {} found of {}, mean time {:.2}ms, mean nodes {:.0}, {:.2} M nodes/s",
            leaf.solved,
            leaf.total,
            1000.0 * secs / leaf.total as f64,
            leaf.nodes as f64 / leaf.total as f64,
            if secs > 0.0 { leaf.nodes as f64 / secs / 1e6 } else { 0.0 }
        );
    }
    Ok(())
}
