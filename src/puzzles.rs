//! Tactical puzzle sets in the format of `shared/puzzles/` (one puzzle per line,
//! `key=value` tokens; a list value runs until the next `key=`), and a runner that
//! checks the full engine's move against each puzzle's set of good answers.
//!
//! `pbrain-fivefold puzzles FILE… [--nodes N] [--ms T]` prints one line per puzzle and a
//! summary, so a search change can be judged on tactics before it is judged in games.

use crate::board::Board;
use crate::cli::{board_from_moves, Args};
use crate::engine::Engine;
use crate::search::Limits;
use crate::time::Budget;
use crate::types::{Pos, Rule};
use anyhow::{anyhow, Context, Result};
use std::collections::HashMap;
use std::time::Duration;

/// One puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub id: String,
    /// `win` or `defend`.
    pub category: String,
    pub rule: Rule,
    pub size: usize,
    /// `vcf` or `vct` for win puzzles.
    pub kind: String,
    pub moves: Vec<(usize, usize)>,
    pub good: Vec<(usize, usize)>,
}

impl Puzzle {
    /// The position with the stones played in order.
    pub fn board(&self) -> Result<Board> {
        board_from_moves(&self.moves, self.size, self.size, self.rule).with_context(|| format!("puzzle {}", self.id))
    }
}

fn squares(list: &[&str]) -> Result<Vec<(usize, usize)>> {
    list.iter()
        .map(|t| {
            let (x, y) = t.split_once(',').ok_or_else(|| anyhow!("bad square '{t}'"))?;
            Ok((x.parse()?, y.parse()?))
        })
        .collect()
}

/// Parses a puzzle file (comments start with `#`).
pub fn parse(text: &str) -> Result<Vec<Puzzle>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut current: Option<&str> = None;
        for tok in line.split_whitespace() {
            if let Some((k, v)) = tok.split_once('=') {
                if !k.contains(',') {
                    current = Some(k);
                    let e = fields.entry(k).or_default();
                    if !v.is_empty() {
                        e.push(v);
                    }
                    continue;
                }
            }
            if let Some(k) = current {
                fields.entry(k).or_default().push(tok);
            }
        }
        let one = |k: &str| fields.get(k).and_then(|v| v.first().copied()).unwrap_or("");
        let rule = Rule::from_info(one("rule").parse().unwrap_or(0)).ok_or_else(|| anyhow!("line {}: bad rule", n + 1))?;
        out.push(Puzzle {
            id: one("id").to_string(),
            category: one("cat").to_string(),
            rule,
            size: one("size").parse().map_err(|_| anyhow!("line {}: bad size", n + 1))?,
            kind: one("kind").to_string(),
            moves: squares(fields.get("moves").map_or(&[][..], |v| &v[..])).with_context(|| format!("line {}", n + 1))?,
            good: squares(fields.get("good").map_or(&[][..], |v| &v[..])).with_context(|| format!("line {}", n + 1))?,
        });
    }
    Ok(out)
}

/// The engine's answer to a puzzle and whether it is one of the good moves.
pub fn solve(engine: &mut Engine, p: &Puzzle, limits: &Limits) -> Result<(Pos, bool)> {
    let b = p.board()?;
    engine.clear_hash();
    let r = engine.think(&b, limits, &mut |_| {});
    let ok = p.good.iter().any(|&(x, y)| Pos::new(x, y) == r.best);
    Ok((r.best, ok))
}

/// `pbrain-fivefold puzzles FILE… [--nodes N | --ms T] [--params lmr=0,…] [--quiet]`
pub fn run(args: &[String]) -> Result<()> {
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    let opts = Args::new(args);
    let nodes: Option<u64> = opts.number("--nodes")?;
    let ms: Option<u64> = opts.number("--ms")?;
    let limits = Limits {
        max_nodes: nodes,
        budget: ms.map(|t| Budget { soft: Duration::from_millis(t), hard: Duration::from_millis(t) }),
        max_depth: if nodes.is_none() && ms.is_none() { Some(8) } else { None },
    };
    let mut engine = Engine::new(32 << 20);
    if let Some(spec) = opts.value("--params") {
        let mut params = crate::search::Params::default();
        params.apply(spec).map_err(|e| anyhow!(e))?;
        engine.set_params(params);
    }
    let (mut total, mut solved) = (0, 0);
    for f in files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        for p in parse(&text)? {
            let (m, ok) = solve(&mut engine, &p, &limits)?;
            total += 1;
            solved += ok as u32;
            if !opts.flag("--quiet") {
                println!("{} {:<6} {} {}", p.id, p.category, crate::notation::xy(m), if ok { "ok" } else { "MISS" });
            }
        }
    }
    println!("Solved: {solved}/{total}");
    Ok(())
}
