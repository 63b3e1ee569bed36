//! `pbrain-fivefold analyse` (or `analyze`): the best few moves of a position with
//! their scores, depth and principal variations, and whether the side to move (or its
//! opponent) has a forced win.
//!
//! # N best moves
//!
//! The list comes from [`multipv::best_lines`], the engine's multi-line analysis that the
//! protocol's `YXNBEST` uses too: each candidate move is played and the position after it
//! searched (its score negated, mate distances counted from the analysed position), all
//! candidates depth by depth in lockstep, the weaker ones dropped from the race as it goes
//! deeper. Here the candidates are widened to as many moves as asked for when the move
//! generator offers fewer, the first depth is 2 plies (the listed move and a reply), and
//! with a time limit a depth cut short is dropped. Lines that end in a mate are spelled
//! out to the five.
//!
//! # Forced wins
//!
//! `forced_win_line` is the single place that says whether a forced win exists: the
//! threat-space solver's VCF, then VCT, for the side to move, else the search's mate
//! scores (which also see the opponent's wins).

use crate::analysis::multipv::{self, Lines, Want};
use crate::cli::args::{self, ThreadsArgs};
use crate::cli::display::{self, View};
use crate::cli::json;
use crate::cli::position::{self, PositionArgs};
use crate::cli::term::{self, AnsiArgs};
use crate::core::board::Board;
use crate::core::notation::square_name;
use crate::core::pattern::Threat;
use crate::core::rules::{self, GameEnd};
use crate::core::types::{format_score, is_mate, mate_plies, Color, Pos, MATE};
use crate::engine::search::{Limits, MAX_DEPTH};
use crate::engine::threat::ThreatSolver;
use crate::engine::time::Budget;
use crate::engine::{Engine, StopToken};
use anyhow::Result;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// How much to analyse.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How many moves to list.
    pub nbest: usize,
    /// Deepest depth (plies from the analysed position, at least 2).
    pub max_depth: Option<i32>,
    /// Time for the whole analysis.
    pub time: Option<Duration>,
}

/// Finds the `nbest` best moves of the side to move with [`multipv::best_lines`] (see
/// the module documentation). `progress` is called after each completed depth. Returns
/// no lines when the game is over or the side to move has no legal move.
fn best_moves(
    engine: &mut Engine,
    board: &Board,
    s: &Settings,
    progress: &mut dyn FnMut(&Lines),
) -> Lines {
    if rules::game_end(board).is_some() {
        return Lines::default();
    }
    let max_depth = s
        .max_depth
        .unwrap_or(if s.time.is_some() { MAX_DEPTH } else { 6 })
        .clamp(2, MAX_DEPTH);
    let limits = Limits {
        max_depth: Some(max_depth),
        max_nodes: None,
        budget: s.time.map(|t| Budget { soft: t, hard: t }),
        // The solver has already been asked (forced_win_line); the lines are compared
        // by the main search alone.
        skip_threats: true,
    };
    let want = Want {
        n: s.nbest.max(1),
        exclude: &[],
        widen: true,
    };
    let stop = StopToken::new();
    let mut result = multipv::best_lines(engine, board, &want, &limits, &stop, progress);
    // The search stops at a five it can see coming; spell out the rest of the line.
    for l in &mut result.lines {
        if is_mate(l.score) {
            let attacker = if l.score > 0 {
                board.side_to_move()
            } else {
                board.side_to_move().opp()
            };
            l.pv = complete_line(board, &l.pv, attacker);
        }
    }
    result
}

/// How a forced win goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WinKind {
    /// Every attacking move is a four (victory by continuous fours).
    Vcf,
    /// Every attacking move is a four or an open three (victory by continuous threats).
    Vct,
    /// Some attacking move is quieter than an open three.
    Other,
}

impl WinKind {
    pub fn name(self) -> &'static str {
        match self {
            WinKind::Vcf => "vcf",
            WinKind::Vct => "vct",
            WinKind::Other => "forced",
        }
    }
}

/// A forced win in the analysed position.
#[derive(Clone, Debug, PartialEq)]
pub struct ForcedWin {
    pub winner: Color,
    /// Plies from the analysed position to the five.
    pub plies: i32,
    pub kind: WinKind,
    /// The moves from the analysed position (the defender's replies included).
    pub line: Vec<Pos>,
    /// Whether `line` ends with the five.
    pub complete: bool,
    /// What found it: `"solver"` (the VCF/VCT solver) or `"search"` (a mate score of
    /// the main search).
    pub source: &'static str,
}

/// Node limit of the solver's VCF in `forced_win_line`.
pub const SOLVER_VCF_NODES: u64 = 1_000_000;
/// Node limit of the solver's VCT in `forced_win_line`.
pub const SOLVER_VCT_NODES: u64 = 1_000_000;

/// Whether the analysed position has a forced win, for either side, and its line.
///
/// First the threat-space solver looks for a VCF, then a VCT, of the side to move
/// (within [`SOLVER_VCF_NODES`] and [`SOLVER_VCT_NODES`] nodes). Failing that, the best
/// move's principal variation is used when the search found a mate score (for either
/// side), finished with the forced fives and blocks the search does not spell out; its
/// attacking moves decide whether it is a VCF (fours only) or a VCT (fours and open
/// threes). "None" means neither found a forced win within its limits, not that none
/// exists.
fn forced_win_line(board: &Board, analysis: &Lines) -> Option<ForcedWin> {
    if board.winner().is_none() && !board.is_full() {
        let mut b = board.clone();
        let mut solver = ThreatSolver::new();
        let me = b.side_to_move();
        let found = solver
            .vcf(&mut b, 225, SOLVER_VCF_NODES)
            .map(|l| (WinKind::Vcf, l))
            .or_else(|| {
                solver
                    .vct(&mut b, 35, SOLVER_VCT_NODES)
                    .map(|l| (WinKind::Vct, l))
            });
        if let Some((kind, line)) = found {
            let complete = !line.contains(&Pos::NONE);
            let line: Vec<Pos> = line.into_iter().take_while(|p| !p.is_none()).collect();
            let plies = line.len() as i32 + i32::from(!complete);
            return Some(ForcedWin {
                winner: me,
                plies,
                kind,
                line,
                complete,
                source: "solver",
            });
        }
    }
    let best = analysis.lines.first()?;
    if !is_mate(best.score) {
        return None;
    }
    let winner = if best.score > 0 {
        board.side_to_move()
    } else {
        board.side_to_move().opp()
    };
    let line = complete_line(board, &best.pv, winner);
    let (kind, complete) = classify(board, &line, winner);
    Some(ForcedWin {
        winner,
        plies: MATE - best.score.abs(),
        kind,
        line,
        complete,
        source: "search",
    })
}

/// Plays `pv` from `board` and continues while the next move is forced: the attacker's
/// five or open four, the defender's block of a five.
fn complete_line(board: &Board, pv: &[Pos], attacker: Color) -> Vec<Pos> {
    let mut b = board.clone();
    let mut line = Vec::new();
    for &p in pv {
        if b.last_move_won() || !b.is_empty(p) || !rules::is_legal(&mut b, p) {
            break;
        }
        b.make(p);
        line.push(p);
    }
    let find = |b: &mut Board, c: Color, t: Threat| {
        let squares: Vec<Pos> = b
            .area(4)
            .filter(|&p| b.is_empty(p) && b.threat(p, c) == t)
            .collect();
        squares.into_iter().find(|&p| rules::is_legal(b, p))
    };
    for _ in 0..8 {
        if b.last_move_won() || b.is_full() {
            break;
        }
        let defender = attacker.opp();
        let next = if b.side_to_move() == attacker {
            find(&mut b, attacker, Threat::Five).or_else(|| {
                if b.count(defender, Threat::Five) == 0 {
                    find(&mut b, attacker, Threat::OpenFour)
                } else {
                    None
                }
            })
        } else if b.count(defender, Threat::Five) == 0 {
            find(&mut b, attacker, Threat::Five)
        } else {
            None
        };
        match next {
            Some(p) => {
                b.make(p);
                line.push(p);
            }
            None => break,
        }
    }
    line
}

/// The kind of a winning line and whether it ends with the five.
fn classify(board: &Board, line: &[Pos], attacker: Color) -> (WinKind, bool) {
    let mut b = board.clone();
    let (mut fours, mut threats) = (true, true);
    for &p in line {
        if b.side_to_move() == attacker {
            let t = rules::real_threat(&mut b, p, attacker);
            if !t.is_four_or_better() {
                fours = false;
                if !t.is_three_class() {
                    threats = false;
                }
            }
        }
        b.make(p);
    }
    let complete = b.winner() == Some(attacker);
    let kind = if fours {
        WinKind::Vcf
    } else if threats {
        WinKind::Vct
    } else {
        WinKind::Other
    };
    (kind, complete)
}

/// The command line of `analyse`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
POSITION is a move list (\"h8 i9 j10\", or h8 i9 j10, or \"7,7 8,6\"), or a file: a Piskvork
.psq record, an SGF record or a diagram (X, O and . rows). The same with --moves or --file.

Examples:
  pbrain-fivefold analyse h8 i9 j10 --nbest 5 --time 10
  pbrain-fivefold analyse game.sgf --rule renju --depth 12 --json")]
pub struct Options {
    /// The position: moves, or one file (instead of --moves or --file)
    #[arg(value_name = "POSITION", conflicts_with_all = ["moves", "file"])]
    pub given: Vec<String>,
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many moves to list
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = |s: &str| args::number_in(s, 1usize, 100))]
    pub nbest: usize,
    /// Search depth in plies, the listed move included (at least 2 to see a reply)
    #[arg(long, value_name = "PLIES", value_parser = args::depth, allow_negative_numbers = true)]
    pub depth: Option<i32>,
    /// Seconds for the whole analysis [default: 3 unless --depth is given]
    #[arg(long, value_name = "SECONDS", value_parser = args::seconds, allow_negative_numbers = true)]
    pub time: Option<Duration>,
    /// Transposition table size in megabytes
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = args::hash_mb)]
    pub hash: usize,
    #[command(flatten)]
    pub threads: ThreadsArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Do not print the board
    #[arg(long)]
    pub no_board: bool,
    /// No progress lines on stderr
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub ansi: AnsiArgs,
}

impl Options {
    /// The position options, with a position given as arguments turned into `--file`
    /// (one argument that names a file or looks like one) or `--moves`.
    fn position_args(&self) -> PositionArgs {
        let mut p = self.position.clone();
        if self.given.is_empty() {
            return p;
        }
        let first = &self.given[0];
        let looks_like_file = self.given.len() == 1 && {
            let lower = first.to_ascii_lowercase();
            std::path::Path::new(first).is_file()
                || [".psq", ".sgf", ".txt"].iter().any(|e| lower.ends_with(e))
                || lower.contains('/')
                || lower.contains('\\')
        };
        if looks_like_file {
            p.file = Some(first.clone());
        } else {
            p.moves = Some(self.given.join(" "));
        }
        p
    }
}

/// Runs `analyse`.
pub fn run(opts: &Options) -> Result<()> {
    let board = position::position(&opts.position_args())?;
    let nbest = opts.nbest;
    let max_depth = opts.depth;
    let time = match opts.time {
        Some(t) => Some(t),
        None if max_depth.is_none() => Some(Duration::from_secs(3)),
        None => None,
    };
    let hash_mb = opts.hash;
    let json = opts.json;
    let quiet = opts.quiet;
    let ansi = !json && opts.ansi.enabled();

    let mut engine = Engine::new(hash_mb << 20);
    engine.set_threads(opts.threads.threads);
    let settings = Settings {
        nbest,
        max_depth,
        time,
    };
    let live = std::io::stderr().is_terminal();
    let height = board.height();
    let mut progress = |a: &Lines| {
        if quiet {
            return;
        }
        let Some(best) = a.lines.first() else {
            return;
        };
        let text = format!(
            "depth {}  best {} {}  ({} moves, {:.1} s)",
            a.depth,
            square_name(best.mv, height),
            format_score(best.score),
            a.considered,
            a.elapsed.as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        let _ = if live {
            write!(err, "{}{text}", term::CLEAR_LINE)
        } else {
            writeln!(err, "{text}")
        };
        let _ = err.flush();
    };
    let analysis = best_moves(&mut engine, &board, &settings, &mut progress);
    if live && !quiet {
        eprint!("{}", term::CLEAR_LINE);
    }
    let forced = forced_win_line(&board, &analysis);
    let mut out = std::io::stdout().lock();
    if json {
        let file = opts.position_args().file;
        let j = to_json(&board, &analysis, forced.as_ref(), file.as_deref());
        writeln!(out, "{}", json::to_line(&j))?;
    } else {
        write!(
            out,
            "{}",
            to_text(&board, &analysis, forced.as_ref(), !opts.no_board, ansi)
        )?;
    }
    out.flush()?;
    Ok(())
}

fn names(b: &Board, squares: &[Pos]) -> Vec<String> {
    squares
        .iter()
        .map(|&p| display::name(p, b.height()))
        .collect()
}

/// The analysis as text for a person.
pub fn to_text(
    b: &Board,
    a: &Lines,
    forced: Option<&ForcedWin>,
    board: bool,
    ansi: bool,
) -> String {
    let mut s = String::new();
    let moves = names(b, &b.history().iter().map(|m| m.pos).collect::<Vec<_>>());
    s.push_str(&format!(
        "Position: {} {}x{}, {} move{}{}{}, {} to move\n",
        b.rule().name(),
        b.width(),
        b.height(),
        moves.len(),
        if moves.len() == 1 { "" } else { "s" },
        if moves.is_empty() { "" } else { ": " },
        moves.join(" "),
        b.side_to_move().name()
    ));
    if board {
        s.push_str(&display::render(b, &View::of(b, ansi)));
        if b.rule().has_forbidden() && b.side_to_move() == Color::Black {
            let fouls = View::of(b, false).forbidden;
            if !fouls.is_empty() {
                s.push_str(&format!(
                    "Forbidden for black (marked {}): {}\n",
                    display::FORBIDDEN,
                    display::names(b, &fouls)
                ));
            }
        }
    }
    if let Some((c, line)) = rules::winning_line(b) {
        s.push_str(&format!(
            "The game is over: {} has five ({}).\n",
            c.name(),
            display::names(b, &line)
        ));
        return s;
    }
    match rules::game_end(b) {
        Some(GameEnd::Full) => {
            s.push_str("The game is over: the board is full (draw).\n");
            return s;
        }
        Some(GameEnd::NoLegalMove(c)) => {
            s.push_str(&format!(
                "The game is over: {} has no legal move (draw).\n",
                c.name()
            ));
            return s;
        }
        _ => {}
    }
    s.push_str(&format!(
        "Best moves for {} (depth {}, {} moves considered, {} nodes, {:.2} s):\n",
        b.side_to_move().name(),
        a.depth,
        a.considered,
        a.nodes,
        a.elapsed.as_secs_f64()
    ));
    for (i, c) in a.lines.iter().enumerate() {
        s.push_str(&format!(
            "  {}. {:<5} {:>6}   {}\n",
            i + 1,
            square_name(c.mv, b.height()),
            format_score(c.score),
            names(b, &c.pv).join(" ")
        ));
    }
    if let Some(c) = a.lines.iter().find(|c| is_mate(c.score)) {
        let (who, plies) = match mate_plies(c.score) {
            Some(n) if n > 0 => (b.side_to_move(), n),
            Some(n) => (b.side_to_move().opp(), -n),
            None => (b.side_to_move(), 0),
        };
        s.push_str(&format!(
            "  ({}: {} makes five in {plies} plies)\n",
            format_score(c.score),
            who.name()
        ));
    }
    match forced {
        Some(f) => {
            let kind = match f.kind {
                WinKind::Vcf => "a VCF, victory by continuous fours",
                WinKind::Vct => "a VCT, victory by continuous threats",
                WinKind::Other => "not a pure threat sequence",
            };
            s.push_str(&format!(
                "Forced win: {} makes five in {} plies ({kind}; found by the {}): {}{}\n",
                f.winner.name(),
                f.plies,
                f.source,
                names(b, &f.line).join(" "),
                if f.complete { "" } else { " ..." }
            ));
        }
        None => s.push_str(&format!(
            "Forced win (VCF/VCT): none found by the search to depth {}\n",
            a.depth
        )),
    }
    s
}

/// The analysis as the JSON schema's [`json::Analysis`]; `file` is where the position
/// was read from, if it was.
pub fn to_json(
    b: &Board,
    a: &Lines,
    forced: Option<&ForcedWin>,
    file: Option<&str>,
) -> json::Analysis {
    let h = b.height();
    let game_over = rules::game_end(b).map(|end| json::GameOver::of(&end, h));
    let forced_win = match forced {
        _ if game_over.is_some() => None,
        Some(f) => Some(json::ForcedWin {
            result: "yes",
            kind: Some(f.kind.name()),
            winner: Some(f.winner.name()),
            line: Some(json::Line::of_win(
                &f.line,
                h,
                f.winner,
                b.side_to_move(),
                f.plies,
                f.complete,
            )),
            source: Some(f.source),
        }),
        None => Some(json::ForcedWin {
            result: "unknown",
            kind: None,
            winner: None,
            line: None,
            source: None,
        }),
    };
    json::Analysis {
        command: "analyse",
        schema: json::SCHEMA_VERSION,
        position: json::Position::of(b, file),
        game_over,
        lines: a
            .lines
            .iter()
            .map(|l| json::Line::of_search(l, h))
            .collect(),
        considered: a.considered,
        depth: a.depth,
        nodes: a.nodes,
        time_ms: json::millis(a.elapsed),
        forced_win,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn board(rule: Rule, moves: &str) -> Board {
        let list = crate::core::notation::parse_moves(moves, 15, 15).unwrap();
        position::board_from_moves(&list, 15, 15, rule).unwrap()
    }

    #[test]
    fn open_three_is_a_vcf_win_and_listed_distinct() {
        // Black h8 i8 j8 with both sides open: g8 or k8 makes an open four.
        let b = board(Rule::Freestyle, "h8 a1 i8 o1 j8 a15");
        let mut e = Engine::new(1 << 20);
        let s = Settings {
            nbest: 3,
            max_depth: Some(4),
            time: None,
        };
        let a = best_moves(&mut e, &b, &s, &mut |_| {});
        assert_eq!(a.lines.len(), 3);
        let mut moves: Vec<Pos> = a.lines.iter().map(|c| c.mv).collect();
        moves.dedup();
        assert_eq!(moves.len(), 3);
        assert_eq!(format_score(a.lines[0].score), "+M3");
        let f = forced_win_line(&b, &a).expect("a forced win");
        assert_eq!(f.winner, Color::Black);
        assert_eq!(f.plies, 3);
        assert!(f.complete);
        assert_eq!(f.kind, WinKind::Vcf);
        assert_eq!(f.line.len(), 3);
    }

    #[test]
    fn no_candidates_when_the_game_is_over() {
        let b = board(Rule::Freestyle, "h8 a1 i8 o1 j8 a15 k8 o15 l8");
        let mut e = Engine::new(1 << 20);
        let a = best_moves(
            &mut e,
            &b,
            &Settings {
                nbest: 3,
                max_depth: Some(3),
                time: None,
            },
            &mut |_| {},
        );
        assert!(a.lines.is_empty());
        assert!(to_text(&b, &a, None, false, false).contains("black has five (h8 i8 j8 k8 l8)"));
    }
}
