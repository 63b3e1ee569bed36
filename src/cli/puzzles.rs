//! Tactical puzzle sets in the format of `shared/puzzles/` (one puzzle per line,
//! `key=value` tokens; a list value runs until the next `key=`), and a runner that
//! checks the full engine's move against each puzzle's set of good answers.
//!
//! `pbrain-fivefold puzzles FILE… [--nodes N] [--ms T]` prints one line per puzzle and a
//! summary, so a search change can be judged on tactics before it is judged in games.

use crate::cli::output::outln;
use crate::cli::position::board_from_moves;
use crate::core::board::Board;
use crate::core::notation::parse_moves;
use crate::core::types::{Color, Pos, Rule};
use crate::engine::search::Limits;
use crate::engine::time::Budget;
use crate::engine::Engine;
use anyhow::{anyhow, bail, Context, Result};
use std::time::Duration;

/// One puzzle of the shared puzzle format (`key=value` tokens; a list value runs on to
/// the next `key=`).
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub id: String,
    /// `win` or `defend`.
    pub category: String,
    pub rule: Rule,
    pub size: usize,
    pub tomove: Color,
    pub kind: String,
    pub moves: Vec<(usize, usize)>,
    pub good: Vec<(usize, usize)>,
}

/// Parses a puzzle file. Comment lines start with `#`.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        for tok in line.split_whitespace() {
            if let Some((k, v)) = tok.split_once('=') {
                fields.push((k.to_string(), v.to_string()));
            } else if let Some(last) = fields.last_mut() {
                last.1.push(' ');
                last.1.push_str(tok);
            } else {
                bail!("line {}: '{tok}' is not key=value", n + 1);
            }
        }
        let get = |k: &str| fields.iter().find(|f| f.0 == k).map(|f| f.1.as_str());
        let need = |k: &str| get(k).ok_or_else(|| anyhow!("line {}: no {k}=", n + 1));
        let size: usize = need("size")?
            .parse()
            .map_err(|_| anyhow!("line {}: bad size", n + 1))?;
        let rule = Rule::parse(need("rule")?).ok_or_else(|| anyhow!("line {}: bad rule", n + 1))?;
        let tomove = match need("tomove")? {
            "black" => Color::Black,
            "white" => Color::White,
            t => bail!("line {}: bad tomove '{t}'", n + 1),
        };
        let moves =
            parse_moves(need("moves")?, size, size).map_err(|e| anyhow!("line {}: {e}", n + 1))?;
        let good = parse_moves(get("good").unwrap_or(""), size, size)
            .map_err(|e| anyhow!("line {}: {e}", n + 1))?;
        out.push(Puzzle {
            id: get("id").unwrap_or("?").to_string(),
            category: get("cat").unwrap_or("").to_string(),
            rule,
            size,
            tomove,
            kind: get("kind").unwrap_or("").to_string(),
            moves,
            good,
        });
    }
    Ok(out)
}

impl Puzzle {
    /// The puzzle's position, with its side to move.
    pub fn board(&self) -> Result<Board> {
        let mut b = board_from_moves(&self.moves, self.size, self.size, self.rule)
            .with_context(|| format!("puzzle {}", self.id))?;
        b.set_side_to_move(self.tomove);
        Ok(b)
    }
    pub fn is_good(&self, p: Pos) -> bool {
        self.good.contains(&(p.x(), p.y()))
    }
}

/// The engine's answer to a puzzle and whether it is one of the good moves.
pub fn solve(engine: &mut Engine, p: &Puzzle, limits: &Limits) -> Result<(Pos, bool)> {
    let b = p.board()?;
    engine.clear_hash();
    let r = engine.think(&b, limits, &crate::engine::StopToken::new(), &mut |_| {});
    let ok = p.is_good(r.best);
    Ok((r.best, ok))
}

/// The command line of `puzzles`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Without --nodes or --ms each puzzle is searched to depth 8. Prints one line a puzzle (id,
category, the engine's move, ok or MISS) and a summary line \"Solved: N/M\".

Example:
  pbrain-fivefold puzzles ../shared/puzzles/win.txt ../shared/puzzles/defend.txt --nodes 200000")]
pub struct Options {
    /// Puzzle files (one puzzle a line, key=value tokens; see shared/puzzles/README.md)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Node limit per puzzle
    #[arg(long, value_name = "N", value_parser = crate::cli::args::count)]
    pub nodes: Option<u64>,
    /// Time limit per puzzle in milliseconds
    #[arg(long, value_name = "MS", value_parser = crate::cli::args::count)]
    pub ms: Option<u64>,
    /// Search parameters: name=value,... (as selfplay's players take them)
    #[arg(long, value_name = "LIST", value_parser = params)]
    pub params: Option<String>,
    /// Only the summary line
    #[arg(long)]
    pub quiet: bool,
}

/// Search parameters as `--params` gives them, checked.
fn params(s: &str) -> std::result::Result<String, String> {
    crate::engine::search::Params::default().apply(s)?;
    Ok(s.to_string())
}

/// Runs `puzzles`.
pub fn run(opts: &Options) -> Result<()> {
    let (nodes, ms) = (opts.nodes, opts.ms);
    let limits = Limits {
        skip_threats: false,
        max_nodes: nodes,
        budget: ms.map(|t| Budget {
            soft: Duration::from_millis(t),
            hard: Duration::from_millis(t),
        }),
        max_depth: if nodes.is_none() && ms.is_none() {
            Some(8)
        } else {
            None
        },
    };
    let mut engine = Engine::new(32 << 20);
    if let Some(spec) = &opts.params {
        let mut params = crate::engine::search::Params::default();
        params.apply(spec).map_err(|e| anyhow!(e))?;
        engine.set_params(params);
    }
    let (mut total, mut solved) = (0, 0);
    for f in &opts.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        for p in parse_puzzles(&text)? {
            let (m, ok) = solve(&mut engine, &p, &limits)?;
            total += 1;
            solved += ok as u32;
            if !opts.quiet {
                outln!(
                    "{} {:<6} {} {}",
                    p.id,
                    p.category,
                    crate::core::notation::xy(m),
                    if ok { "ok" } else { "MISS" }
                );
            }
        }
    }
    outln!("Solved: {solved}/{total}");
    Ok(())
}
