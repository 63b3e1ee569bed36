//! `fivefold-tools datagen`: training positions for a learned evaluation and move
//! policy (issue #42), from self-play with the engine's own search, written in the
//! format of [`data`] (`docs/data.md`).
//!
//! Each game starts from an opening, either the next line of an openings file
//! (c-gomoku-cli `pos` lines, used in turn: game `i` takes line `i mod n`) or random
//! stones: the first anywhere on the board, each next one within three squares of a
//! stone already placed, never a renju foul or a five, so the openings look like play
//! wherever they stand. Then `--random-plies` random moves follow, drawn from the
//! search's own move generator (a five when there is one, the blocks when the opponent
//! threatens five, else the squares near the stones), so games from one opening part
//! ways. From there the search plays both sides with a node limit per move
//! (`--nodes`), and each position it searched becomes a record: the stones, the side
//! to move, the score and best move of that search, and the game's result.
//!
//! Positions that are not written:
//! - those of the opening and of the random plies (no search chose their move);
//! - those where the side to move can make five at once (the move generator finds the
//!   five; nothing to learn);
//! - none after the end of the game (a five, a full board, no legal move), which ends
//!   the loop.
//!
//! Positions kept but marked ([`flags`]): the best move starts a forced win the threat
//! solver found before any tree search ([`flags::THREAT_WIN`]), or answers the
//! opponent's threat of five ([`flags::FORCED`]).
//!
//! Off-path positions (`--side-positions`): a search weighs the positions after every
//! move it considers, not only after the one it plays, but a game's records hold only
//! the latter. So for a share of the records, one of the move generator's other moves,
//! drawn at random, is played instead of the best, the position after it is searched
//! with the same node limit, and it is written right after its parent's record, marked
//! [`flags::OFF_PATH`] (its score is the value target; it has no result). The game then
//! goes on with the best move, as if nothing had happened (the searcher keeps what it
//! learnt from the side search: its table, killers and history).
//!
//! Reproducible: game `i` depends only on the options, `--seed` and `i` (its random
//! numbers are seeded from the seed and `i`; each game gets a new searcher and a cleared
//! table, and a single-threaded search with a node limit searches the same tree every
//! time), and the games are written in their order whatever thread finished them first.
//! So the same options and seed give the same file byte for byte, with any `--threads`.

use crate::cli::args;
use crate::cli::term::CLEAR_LINE;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::rng::{Rng, SplitMix64};
use crate::core::rules;
use crate::core::types::{Color, Pos, Rule, MATE_BOUND};
use crate::engine::evaluation::Networks;
use crate::engine::movegen;
use crate::engine::params::Params;
use crate::engine::search::{Limits, SearchResult, Searcher};
use crate::engine::tt::Tt;
use crate::engine::StopToken;
use crate::tools::data::{self, flags, GameResult, Header, Record, Writer};
use crate::tools::openings::{parse_pos_line, pos_line};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Bytes of each worker's transposition table (cleared before each game).
const TT_BYTES: usize = 16 << 20;
/// Each random-opening stone after the first lies within this many squares (each way)
/// of a stone already placed.
const OPENING_REACH: usize = 3;

/// What each game is made of.
#[derive(Clone, Debug)]
pub struct Spec {
    pub rule: Rule,
    /// Board size (square).
    pub size: usize,
    /// Search nodes per move.
    pub nodes: u64,
    /// Stones of a random opening (when no openings are given).
    pub stones: usize,
    /// Random moves after the opening.
    pub random_plies: usize,
    /// Percent of the records that get an off-path record after them (0 to 100).
    pub side_percent: u64,
    pub seed: u64,
    /// The search's parameters (`use_net=1`: the network plays).
    pub params: Params,
}

/// One finished game: its positions, ready to write, and how it ended.
#[derive(Clone, Debug)]
pub struct Game {
    pub records: Vec<Record>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Moves on the board at the end, the opening's included.
    pub plies: usize,
    /// The search answered with an illegal move (an engine bug; the mover lost).
    pub foul: bool,
}

/// The random numbers of game `index`: from the seed and the index alone.
fn game_rng(seed: u64, index: u32) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed);
    SplitMix64::new(mix.next_u64() ^ u64::from(index).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Whether a search answered with a forced win of the root threat solver: a proven win
/// reported before any iteration of the tree search, which leaves `seldepth` at 0 (an
/// iteration always reaches ply 1). A five on hand is answered that way too; `datagen`
/// does not write those positions.
fn solved_by_threats(r: &SearchResult) -> bool {
    r.score >= MATE_BOUND && r.seldepth == 0
}

/// Plays random opening stones on `b` (see the module text), as many as fit up to
/// `stones`.
fn random_opening(b: &mut Board, stones: usize, rng: &mut impl Rng) {
    let (w, h) = (b.width(), b.height());
    for _ in 0..stones {
        let mut candidates = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let p = Pos::new(x, y);
                let near = b.move_count() == 0
                    || b.history().iter().any(|m| {
                        m.pos.x().abs_diff(x) <= OPENING_REACH
                            && m.pos.y().abs_diff(y) <= OPENING_REACH
                    });
                if !near || !rules::is_legal(b, p) {
                    continue;
                }
                b.make(p);
                let over = rules::game_end(b).is_some();
                b.unmake();
                if !over {
                    candidates.push(p);
                }
            }
        }
        if candidates.is_empty() {
            return;
        }
        b.make(candidates[rng.below(candidates.len())]);
    }
}

/// One random move from the move generator's choice (legal; a five if there is one,
/// a block if the opponent threatens five), other than `except`.
fn random_move(b: &mut Board, rng: &mut impl Rng, except: Option<Pos>) -> Option<Pos> {
    let mut moves = Vec::new();
    movegen::generate(b, &mut moves);
    let legal: Vec<Pos> = moves
        .iter()
        .map(|m| m.pos)
        .filter(|&p| Some(p) != except && rules::is_legal(b, p))
        .collect();
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// The record of game `index`'s position `b`, searched with result `r`: the flags
/// `extra` and those the search gives ([`flags::THREAT_WIN`], [`flags::FORCED`]); the
/// result is filled in when the game ends.
fn record_of(b: &Board, r: &SearchResult, index: u32, extra: u8) -> Record {
    let me = b.side_to_move();
    let mut f = extra;
    if solved_by_threats(r) {
        f |= flags::THREAT_WIN;
    }
    if b.count(me.opp(), Threat::Five) > 0 {
        f |= flags::FORCED;
    }
    Record {
        game: index,
        ply: b.move_count() as u16,
        best: Record::index_of(r.best, b.width()),
        score: data::encode_score(r.score),
        side_to_move: me,
        result: GameResult::Draw,
        flags: f,
        stones: Record::stones_of(b),
    }
}

/// The off-path record of a position whose search chose `best` (see the module text):
/// a random other move of the move generator's, legal, and a search of the position
/// after it. `None` when there is no other move, when it ends the game or leaves a five
/// to make (no search needed). The board is left as it was.
fn off_path(
    searcher: &mut Searcher,
    b: &mut Board,
    best: Pos,
    index: u32,
    limits: &Limits,
    rng: &mut impl Rng,
) -> Option<Record> {
    let p = random_move(b, rng, Some(best))?;
    b.make(p);
    let me = b.side_to_move();
    let record = if rules::game_end(b).is_some() || b.count(me, Threat::Five) > 0 {
        None
    } else {
        let r = searcher.search(b, limits, &mut |_| {});
        rules::is_legal(b, r.best).then(|| record_of(b, &r, index, flags::OFF_PATH))
    };
    b.unmake();
    record
}

/// A game-playing thread's state: its table, kept between games (cleared for each).
pub struct Worker {
    tt: Arc<Tt>,
    stop: StopToken,
}

impl Worker {
    /// A worker whose searches stop when `stop` is raised.
    pub fn new(stop: StopToken) -> Worker {
        Worker {
            tt: Arc::new(Tt::new(TT_BYTES)),
            stop,
        }
    }

    /// Plays game `index` from `opening` (squares in move order; `None`: a random
    /// opening). A game cut short by the stop token comes back unfinished.
    pub fn play(&mut self, spec: &Spec, index: u32, opening: Option<&[Pos]>) -> Game {
        let mut rng = game_rng(spec.seed, index);
        let mut b = Board::square(spec.size, spec.rule).expect("a checked board size");
        match opening {
            Some(o) => o.iter().for_each(|&p| b.make(p)),
            None => random_opening(&mut b, spec.stones, &mut rng),
        }
        for _ in 0..spec.random_plies {
            if rules::game_end(&b).is_some() {
                break;
            }
            match random_move(&mut b, &mut rng, None) {
                Some(p) => b.make(p),
                None => break,
            }
        }
        // A fresh searcher (killers, history and the threat solver's table) and an
        // empty table, so the game does not depend on the games before it.
        self.tt.clear();
        let mut searcher = Searcher::new(self.tt.clone(), self.stop.clone());
        searcher.params = spec.params.clone();
        // The game keeps its rule and board, so the evaluation chosen for it here is the
        // one for every search of it (on the game's path and off it).
        searcher.prepare_evaluation(&mut Networks::built_in(), &b);
        let limits = Limits {
            max_nodes: Some(spec.nodes),
            ..Limits::default()
        };
        // Positions waiting for the game's result (off-path ones have none).
        let mut kept: Vec<Record> = Vec::new();
        let mut foul = false;
        let winner = loop {
            if let Some(end) = rules::game_end(&b) {
                break end.winner();
            }
            if self.stop.is_raised() {
                break None;
            }
            let me = b.side_to_move();
            let r = searcher.search(&b, &limits, &mut |_| {});
            if !rules::is_legal(&mut b, r.best) {
                foul = true;
                break Some(me.opp());
            }
            if b.count(me, Threat::Five) == 0 {
                kept.push(record_of(&b, &r, index, 0));
                // Drawn only when asked for, so that without it the games stay as
                // they were.
                if spec.side_percent > 0 && rng.chance(spec.side_percent, 100) {
                    if let Some(side) =
                        off_path(&mut searcher, &mut b, r.best, index, &limits, &mut rng)
                    {
                        kept.push(side);
                    }
                }
            }
            b.make(r.best);
        };
        let records = kept
            .into_iter()
            .map(|mut r| {
                if r.flags & flags::OFF_PATH == 0 {
                    r.result = GameResult::for_side(winner, r.side_to_move);
                }
                r
            })
            .collect();
        Game {
            records,
            winner,
            plies: b.move_count(),
            foul,
        }
    }
}

/// What [`generate`] hands its caller, on the calling thread.
pub enum Event {
    /// Game `i` is finished; the games come in their order, 0 first.
    Game(u32, Game),
    /// No game finished in the last quarter of a second.
    Tick,
}

/// Plays `games` games on `threads` worker threads, each taking the next game number
/// when it is free, and hands them to `sink` in game order. An error from `sink` stops
/// the workers (their searches at once) and is returned.
pub fn generate(
    spec: &Spec,
    openings: Option<&[Vec<Pos>]>,
    games: u32,
    threads: usize,
    sink: &mut dyn FnMut(Event) -> Result<()>,
) -> Result<()> {
    let stop = StopToken::new();
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel::<(u32, Game)>();
    std::thread::scope(|scope| {
        for t in 0..threads.max(1) {
            let (tx, stop, next) = (tx.clone(), stop.clone(), &next);
            std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut worker = Worker::new(stop.clone());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= games || stop.is_raised() {
                            return;
                        }
                        let opening = openings.map(|o| o[i as usize % o.len()].as_slice());
                        let game = worker.play(spec, i, opening);
                        if stop.is_raised() || tx.send((i, game)).is_err() {
                            return;
                        }
                    }
                })
                .expect("start a datagen thread");
        }
        drop(tx);
        let mut pending: BTreeMap<u32, Game> = BTreeMap::new();
        let mut due = 0u32;
        let result = loop {
            let event = match rx.recv_timeout(Duration::from_millis(250)) {
                Ok((i, g)) => {
                    pending.insert(i, g);
                    None
                }
                Err(mpsc::RecvTimeoutError::Timeout) => Some(Event::Tick),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            };
            let mut r = match event {
                Some(e) => sink(e),
                None => Ok(()),
            };
            while r.is_ok() {
                let Some(g) = pending.remove(&due) else { break };
                r = sink(Event::Game(due, g));
                due += 1;
            }
            if r.is_err() {
                break r;
            }
        };
        if result.is_err() {
            stop.raise();
        }
        result
    })
}

/// Reads an openings file: c-gomoku-cli `pos` lines (`h4j5e4`, rows from 1 at the
/// top), blank lines and `#` comments skipped. Each opening is checked on the board: on
/// it, no stone on another, no renju foul, no move after a five, no finished game.
pub fn read_openings(path: &Path, rule: Rule, size: usize) -> Result<Vec<Vec<Pos>>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = opening_from_pos_line(line, rule, size)
            .with_context(|| format!("{} line {}: '{line}'", path.display(), n + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        bail!("no openings in {}", path.display());
    }
    Ok(out)
}

/// One `pos` line played out on an empty board and checked (see [`read_openings`]);
/// squares are named in the line's own notation.
fn opening_from_pos_line(line: &str, rule: Rule, size: usize) -> Result<Vec<Pos>> {
    let squares: Vec<Pos> = parse_pos_line(line, size, size)
        .map_err(|e| anyhow!(e))?
        .into_iter()
        .map(|(x, y)| Pos::new(x, y))
        .collect();
    let mut b = Board::square(size, rule).map_err(|e| anyhow!(e))?;
    play_checked(&mut b, &squares)?;
    if rules::game_end(&b).is_some() {
        bail!("the game is over after this opening");
    }
    Ok(b.history().iter().map(|m| m.pos).collect())
}

/// Why `p` cannot be the next move on `b` (it comes after the end of the game, is on an
/// occupied square, or is a renju foul for black), or `None` when it can: the checks of
/// [`play_checked`], for callers that name the move their own way.
pub(crate) fn why_illegal(b: &mut Board, p: Pos) -> Option<&'static str> {
    if rules::game_end(b).is_some() {
        Some("comes after the end of the game")
    } else if !b.is_empty(p) {
        Some("is on an occupied square")
    } else if !rules::is_legal(b, p) {
        Some("is a forbidden move for black")
    } else {
        None
    }
}

/// Plays `moves` on `b`, checking each first ([`why_illegal`]). Moves are numbered in the
/// errors from the board's move count, and named in `pos` notation. On an error, `b`
/// holds the moves before the bad one.
pub(crate) fn play_checked(b: &mut Board, moves: &[Pos]) -> Result<()> {
    for &p in moves {
        if let Some(why) = why_illegal(b, p) {
            bail!("move {} ({}) {why}", b.move_count() + 1, pos_line(&[p]));
        }
        b.make(p);
    }
    Ok(())
}

/// The command line of `datagen`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Writes one record per searched position to --out (format: docs/data.md); progress and a
summary go to stderr. The same options and --seed give the same file with any --threads.

Example:
  fivefold-tools datagen --out freestyle.data --games 1000 --nodes 20000 --seed 1
  fivefold-tools datagen --out renju.data --rule renju --openings spread_renju_15x15.pos.txt")]
pub struct Options {
    /// The file to write (replaced if it exists)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = |s: &str| args::number_in(s, 1u32, 100_000_000))]
    pub games: u32,
    /// Search nodes per move
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = |s: &str| args::number_in(s, 1u64, 1_000_000_000))]
    pub nodes: u64,
    /// Openings file: c-gomoku-cli pos lines ("h4j5e4", rows from 1 at the top), used in turn [default: random openings]
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Stones in each random opening (without --openings)
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = |s: &str| args::number_in(s, 0usize, 20))]
    pub stones: usize,
    /// Random moves after each opening, before the search plays
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = |s: &str| args::number_in(s, 0usize, 100))]
    pub random_plies: usize,
    /// Rule: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = args::rule)]
    pub rule: Rule,
    /// Board size (square)
    #[arg(long, value_name = "N", default_value_t = 15, value_parser = args::board_size)]
    pub size: usize,
    /// Worker threads, each playing whole games [default: the number of cores]
    #[arg(long, value_name = "N", value_parser = args::threads)]
    pub threads: Option<usize>,
    /// Percent of the searched positions that also give an off-path record: a random other
    /// move of the move generator's is played instead of the best and the position after
    /// it searched (the same nodes); its score is its value target (docs/data.md)
    #[arg(long, value_name = "PERCENT", default_value_t = 0, value_parser = |s: &str| args::number_in(s, 0u64, 100))]
    pub side_positions: u64,
    /// Seed of the openings and random moves
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = args::count)]
    pub seed: u64,
    /// Search parameters, name=value separated by commas (use_net=1: the network plays,
    /// for the next generation's data)
    #[arg(long, value_name = "SPEC", default_value = "")]
    pub params: String,
}

/// The tallies of a run so far.
#[derive(Default)]
struct Totals {
    games: u32,
    positions: u64,
    /// Of the positions, those off the games' paths (`--side-positions`).
    off_path: u64,
    /// Black's wins, draws, losses.
    black: [u32; 3],
    fouls: u32,
    plies: u64,
}

/// `m:ss`, or `h:mm:ss` from an hour.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Runs `datagen`: plays the games, writes the file, shows progress on stderr (on a
/// terminal a line rewritten every second, otherwise a line every ten seconds) and a
/// summary at the end. Nothing goes to stdout.
pub fn run(opts: &Options) -> Result<()> {
    let spec = Spec {
        rule: opts.rule,
        size: opts.size,
        nodes: opts.nodes,
        stones: opts.stones,
        random_plies: opts.random_plies,
        side_percent: opts.side_positions,
        seed: opts.seed,
        params: {
            let mut p = Params::default();
            p.apply(&opts.params).map_err(|e| anyhow::anyhow!(e))?;
            p
        },
    };
    let openings = match &opts.openings {
        Some(path) => Some(read_openings(path, spec.rule, spec.size)?),
        None => None,
    };
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, opts.games as usize);
    let header = Header::new(spec.rule, spec.size, spec.size)?;
    let out = &opts.out;
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut writer = Writer::new(BufWriter::new(file), header)
        .with_context(|| format!("cannot write {}", out.display()))?;

    let terminal = std::io::stderr().is_terminal();
    let every = Duration::from_secs(if terminal { 1 } else { 10 });
    let start = Instant::now();
    let mut last = start;
    let mut totals = Totals::default();
    let progress = |t: &Totals| {
        let elapsed = start.elapsed();
        format!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s, {} elapsed",
            t.games,
            opts.games,
            t.positions,
            t.positions as f64 / elapsed.as_secs_f64().max(1e-3),
            clock(elapsed)
        )
    };
    eprintln!(
        "datagen: {} games of {} {}x{} at {} nodes a move on {} thread{}, into {}",
        opts.games,
        spec.rule.name(),
        spec.size,
        spec.size,
        spec.nodes,
        threads,
        if threads == 1 { "" } else { "s" },
        out.display()
    );
    generate(
        &spec,
        openings.as_deref(),
        opts.games,
        threads,
        &mut |event| {
            if let Event::Game(_, g) = event {
                for r in &g.records {
                    writer
                        .write(r)
                        .with_context(|| format!("cannot write {}", out.display()))?;
                }
                totals.games += 1;
                totals.positions += g.records.len() as u64;
                totals.off_path += g
                    .records
                    .iter()
                    .filter(|r| r.flags & flags::OFF_PATH != 0)
                    .count() as u64;
                totals.black[match g.winner {
                    Some(Color::Black) => 0,
                    None => 1,
                    Some(Color::White) => 2,
                }] += 1;
                totals.fouls += u32::from(g.foul);
                totals.plies += g.plies as u64;
            }
            if last.elapsed() >= every {
                last = Instant::now();
                if terminal {
                    eprint!("{CLEAR_LINE}{}", progress(&totals));
                } else {
                    eprintln!("{}", progress(&totals));
                }
            }
            Ok(())
        },
    )?;
    writer
        .finish()
        .with_context(|| format!("cannot write {}", out.display()))?;
    if terminal {
        eprint!("{CLEAR_LINE}");
    }
    let t = &totals;
    eprintln!("{}", progress(t));
    eprintln!(
        "datagen: {} positions{} ({} bytes each) in {}; black +{} ={} -{}{}, average game {:.1} plies",
        t.positions,
        if spec.side_percent > 0 {
            format!(", {} of them off the games' paths", t.off_path)
        } else {
            String::new()
        },
        header.record_bytes(),
        out.display(),
        t.black[0],
        t.black[1],
        t.black[2],
        if t.fouls > 0 {
            format!(" ({} fouls)", t.fouls)
        } else {
            String::new()
        },
        t.plies as f64 / f64::from(t.games.max(1))
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::position::board_from_moves;
    use crate::core::rng::XorShift64;

    fn spec(rule: Rule, size: usize) -> Spec {
        Spec {
            rule,
            size,
            nodes: 300,
            stones: 3,
            random_plies: 2,
            side_percent: 0,
            seed: 5,
            params: Params::default(),
        }
    }

    #[test]
    fn a_threat_solver_win_is_told_from_a_searched_move() {
        // Black has an open three (h8 i8 j8) far from white's stones: the root VCF wins.
        let moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4)];
        let b = board_from_moves(&moves, 15, 15, Rule::Freestyle).unwrap();
        let r = crate::engine::search::search_position(
            &b,
            &Limits {
                max_nodes: Some(2000),
                ..Limits::default()
            },
            1,
        );
        assert!(solved_by_threats(&r), "{r:?}");
        // A quiet position is searched.
        let b = board_from_moves(&moves[..2], 15, 15, Rule::Freestyle).unwrap();
        let r = crate::engine::search::search_position(
            &b,
            &Limits {
                max_nodes: Some(2000),
                ..Limits::default()
            },
            1,
        );
        assert!(!solved_by_threats(&r), "{r:?}");
    }

    #[test]
    fn random_openings_are_legal_connected_and_unfinished() {
        for rule in Rule::ALL {
            for seed in 0..20 {
                let mut rng = XorShift64::new(seed + 1);
                let mut b = Board::square(9, rule).unwrap();
                random_opening(&mut b, 6, &mut rng);
                assert_eq!(b.move_count(), 6);
                assert!(rules::game_end(&b).is_none());
                let h = b.history();
                for (k, m) in h.iter().enumerate().skip(1) {
                    assert!(h[..k].iter().any(|n| n.pos.x().abs_diff(m.pos.x()) <= 3
                        && n.pos.y().abs_diff(m.pos.y()) <= 3));
                }
            }
        }
        // More stones than fit: as many as fit, and no five.
        let mut b = Board::square(5, Rule::Freestyle).unwrap();
        random_opening(&mut b, 20, &mut XorShift64::new(3));
        assert!(b.move_count() <= 20 && rules::game_end(&b).is_none());
    }

    #[test]
    fn a_game_is_the_same_whatever_the_worker_played_before() {
        let s = spec(Rule::Renju, 11);
        let mut fresh = Worker::new(StopToken::new());
        let g3 = fresh.play(&s, 3, None);
        let mut used = Worker::new(StopToken::new());
        used.play(&s, 1, None);
        let again = used.play(&s, 3, None);
        assert_eq!(g3.records, again.records);
        assert!(!g3.records.is_empty());
        // Another game number is another game.
        assert_ne!(g3.records, used.play(&s, 4, None).records);
    }

    #[test]
    fn off_path_records_follow_their_parents_one_other_move_later() {
        let mut s = spec(Rule::Renju, 11);
        let plain = Worker::new(StopToken::new()).play(&s, 2, None);
        assert!(plain.records.iter().all(|r| r.flags & flags::OFF_PATH == 0));
        s.side_percent = 100;
        let g = Worker::new(StopToken::new()).play(&s, 2, None);
        let h = Header::new(s.rule, s.size, s.size).unwrap();
        let (mut side, mut on_path) = (0, 0);
        for (k, r) in g.records.iter().enumerate() {
            if r.flags & flags::OFF_PATH == 0 {
                on_path += 1;
                assert_eq!(r.result, GameResult::for_side(g.winner, r.side_to_move));
                continue;
            }
            side += 1;
            assert_eq!(r.result, GameResult::Draw);
            // The record before is its parent, on the game's path: the same stones and
            // one more of the parent's side to move, not on the parent's best square.
            let parent = &g.records[k - 1];
            assert_eq!(parent.flags & flags::OFF_PATH, 0);
            assert_eq!((parent.game, parent.ply + 1), (r.game, r.ply));
            let added: Vec<usize> = (0..r.stones.len())
                .filter(|&i| r.stones[i] != parent.stones[i])
                .collect();
            assert_eq!(added.len(), 1);
            assert_eq!(parent.stones[added[0]], None);
            assert_eq!(r.stones[added[0]], Some(parent.side_to_move));
            assert_ne!(added[0], usize::from(parent.best));
            let b = r.to_board(&h).unwrap();
            assert!(rules::game_end(&b).is_none());
            assert_eq!(b.count(b.side_to_move(), Threat::Five), 0);
        }
        // Nearly every position has another move to try.
        assert!(
            side * 4 >= on_path * 3,
            "{side} off-path records for {on_path}"
        );
        // Every record reads back from a file.
        let mut bytes = Vec::new();
        data::write(&mut bytes, h, &g.records).unwrap();
        assert_eq!(data::read(&bytes[..]).unwrap().1, g.records);
    }

    #[test]
    fn games_come_to_the_sink_in_order_with_any_thread_count() {
        let s = spec(Rule::Freestyle, 9);
        let collect = |threads| {
            let mut seen = Vec::new();
            generate(&s, None, 5, threads, &mut |e| {
                if let Event::Game(i, g) = e {
                    seen.push((i, g.records));
                }
                Ok(())
            })
            .unwrap();
            seen
        };
        let one = collect(1);
        assert_eq!(one.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert_eq!(one, collect(3));
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let s = spec(Rule::Freestyle, 9);
        let mut calls = 0;
        let e = generate(&s, None, 50, 2, &mut |e| {
            if let Event::Game(..) = e {
                calls += 1;
                anyhow::bail!("disk full");
            }
            Ok(())
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(calls, 1);
    }

    #[test]
    fn openings_files_are_read_and_checked() {
        let dir = std::env::temp_dir().join(format!("fivefold-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        let good = file("good.txt", "# spread\nh4j5e4\n\na1o15\n");
        let o = read_openings(&good, Rule::Freestyle, 15).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0], [Pos::new(7, 3), Pos::new(9, 4), Pos::new(4, 3)]);
        assert_eq!(o[1], [Pos::new(0, 0), Pos::new(14, 14)]);
        for (name, text, rule, msg) in [
            (
                "off.txt",
                "h4\nz9\n",
                Rule::Freestyle,
                "line 2: 'z9': 'z9' is outside",
            ),
            (
                "twice.txt",
                "h8i9a1h8\n",
                Rule::Freestyle,
                "move 4 (h8) is on an occupied square",
            ),
            (
                "empty.txt",
                "# nothing\n",
                Rule::Freestyle,
                "no openings in",
            ),
            // Black's double three at h8 (two open threes), a foul in renju only.
            (
                "foul.txt",
                "f8a1g8a3h6a5h7a7h8\n",
                Rule::Renju,
                "move 9 (h8) is a forbidden move for black",
            ),
            (
                "won.txt",
                "a1b1a2b2a3b3a4b4a5\n",
                Rule::Freestyle,
                "the game is over",
            ),
        ] {
            let e = read_openings(&file(name, text), rule, 15).unwrap_err();
            assert!(format!("{e:#}").contains(msg), "{name}: {e:#}");
        }
        let e = read_openings(&dir.join("missing.txt"), Rule::Freestyle, 15).unwrap_err();
        assert!(format!("{e:#}").contains("cannot read"), "{e:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
