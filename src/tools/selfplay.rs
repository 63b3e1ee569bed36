//! In-process games between two players, refereed with the board: used to compare
//! search settings quickly, to check the search against a one-ply greedy player, and to
//! produce positions with game outcomes for tuning the evaluation.
//!
//! Matches against other engines go through the protocol and a real match runner
//! (see `scripts/`); this module only ever plays Fivefold against itself.

use crate::cli::output::outln;
use crate::core::board::Board;
use crate::core::eval;
use crate::core::rng::{Rng, XorShift64};
use crate::core::rules;
use crate::core::types::{Color, Pos, Rule};
use crate::engine::evaluation::Networks;
use crate::engine::movegen;
use crate::engine::search::{Limits, Params, Searcher};
use crate::engine::time::Budget;
use crate::engine::tt::Tt;
use crate::engine::StopToken;
use std::sync::Arc;
use std::time::Duration;

/// A player: how it limits its search, and its search settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub limit: Limit,
    pub params: Params,
}

/// How a player chooses its moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    /// Full search to a fixed depth.
    Depth(i32),
    /// Full search with a fixed time per move (milliseconds).
    Time(u64),
    /// Full search with a node limit per move.
    Nodes(u64),
    /// One ply: the legal move whose resulting position the evaluation likes best
    /// (a five if there is one).
    Greedy,
}

impl Player {
    pub fn new(limit: Limit) -> Player {
        Player {
            limit,
            params: Params::default(),
        }
    }

    /// Parses `depth=N`, `time=MS`, `nodes=N` or `greedy`, optionally followed by search
    /// parameters: `nodes=20000,rfp_margin=0` (see [`Params::apply`]).
    pub fn parse(s: &str) -> Option<Player> {
        let (head, rest) = s.split_once(',').unwrap_or((s, ""));
        let limit = if head == "greedy" {
            Limit::Greedy
        } else {
            let (k, v) = head.split_once('=')?;
            match k {
                "depth" => Limit::Depth(v.parse().ok()?),
                "time" => Limit::Time(v.parse().ok()?),
                "nodes" => Limit::Nodes(v.parse().ok()?),
                _ => return None,
            }
        };
        let mut params = Params::default();
        params.apply(rest).ok()?;
        Some(Player { limit, params })
    }
}

/// One side's engine state across a game.
struct Side {
    player: Player,
    searcher: Searcher,
    /// The networks its searcher may evaluate with, chosen for each search.
    networks: Networks,
}

impl Side {
    fn new(player: Player) -> Side {
        let tt = Arc::new(Tt::new(16 << 20));
        let mut searcher = Searcher::new(tt, StopToken::new());
        searcher.params = player.params.clone();
        Side {
            player,
            searcher,
            networks: Networks::built_in(),
        }
    }

    fn choose(&mut self, b: &Board) -> Pos {
        let limits = match self.player.limit {
            Limit::Greedy => return greedy_move(b),
            Limit::Depth(d) => Limits {
                max_depth: Some(d),
                ..Limits::default()
            },
            Limit::Time(ms) => Limits {
                budget: Some(Budget {
                    soft: Duration::from_millis(ms),
                    hard: Duration::from_millis(ms),
                }),
                ..Limits::default()
            },
            Limit::Nodes(n) => Limits {
                max_nodes: Some(n),
                ..Limits::default()
            },
        };
        self.searcher.prepare_evaluation(&mut self.networks, b);
        self.searcher.search(b, &limits, &mut |_| {}).best
    }
}

/// The one-ply greedy choice.
fn greedy_move(b: &Board) -> Pos {
    let mut b = b.clone();
    let mut moves = Vec::new();
    movegen::generate(&mut b, &mut moves);
    let mut best = (i32::MIN, Pos::NONE);
    for m in moves {
        b.make(m.pos);
        let score = if b.last_move_won() {
            i32::MAX
        } else {
            -eval::evaluate(&b)
        };
        b.unmake();
        if score > best.0 {
            best = (score, m.pos);
        }
    }
    best.1
}

/// How a game ended, from black's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins,
    WhiteWins,
    Draw,
}

/// A finished game: the opening and moves played, and the result.
#[derive(Clone, Debug)]
pub struct Game {
    pub moves: Vec<Pos>,
    pub opening_len: usize,
    pub outcome: Outcome,
    /// A move was illegal or a renju foul (the offender lost).
    pub foul: bool,
}

/// Plays one game from `opening` (stones in move order), `black` and `white` choosing.
pub fn play_game(rule: Rule, size: usize, opening: &[Pos], black: &Player, white: &Player) -> Game {
    let mut b = Board::square(size, rule).expect("valid size");
    for &p in opening {
        b.make(p);
    }
    let mut sides = [Side::new(black.clone()), Side::new(white.clone())];
    let mut moves = opening.to_vec();
    loop {
        if let Some(w) = b.winner() {
            let outcome = if w == Color::Black {
                Outcome::BlackWins
            } else {
                Outcome::WhiteWins
            };
            return Game {
                moves,
                opening_len: opening.len(),
                outcome,
                foul: false,
            };
        }
        if b.is_full() {
            return Game {
                moves,
                opening_len: opening.len(),
                outcome: Outcome::Draw,
                foul: false,
            };
        }
        let me = b.side_to_move();
        let p = sides[me.index()].choose(&b);
        if p.is_none() || !rules::is_legal(&mut b, p) {
            // No legal move (or an engine bug): the mover loses.
            let outcome = if me == Color::Black {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            };
            return Game {
                moves,
                opening_len: opening.len(),
                outcome,
                foul: true,
            };
        }
        b.make(p);
        moves.push(p);
    }
}

/// Deterministic openings: `n` stones placed at random within two squares of the centre,
/// from `seed`.
pub fn random_opening(size: usize, n: usize, seed: u64) -> Vec<Pos> {
    random_opening_within(size, n, seed, 2)
}

/// [`random_opening`] with the stones within `radius` squares of the centre (at most
/// what the board allows, and never fewer squares than stones).
pub fn random_opening_within(size: usize, n: usize, seed: u64, radius: usize) -> Vec<Pos> {
    let mut rng = XorShift64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let c = size / 2;
    let mut r = radius.min(c).min(size - 1 - c);
    while (2 * r + 1) * (2 * r + 1) < n && r < c.min(size - 1 - c) {
        r += 1;
    }
    let side = 2 * r + 1;
    let n = n.min(side * side);
    let mut out: Vec<Pos> = Vec::new();
    while out.len() < n {
        let x = c + rng.below(side) - r;
        let y = c + rng.below(side) - r;
        let p = Pos::new(x, y);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Openings that look like play wherever they stand, as Gomocup's prepared openings and
/// the spread-out sets in `../shared/openings/` do: the first stone anywhere within
/// `radius` squares of the centre, each next one within `near` squares (both ways) of a
/// stone already placed, anywhere on the board. `near` 0 gives [`random_opening_within`].
pub fn random_opening_near(
    size: usize,
    n: usize,
    seed: u64,
    radius: usize,
    near: usize,
) -> Vec<Pos> {
    if near == 0 {
        return random_opening_within(size, n, seed, radius);
    }
    let mut out = random_opening_within(size, 1, seed, radius);
    let mut rng = XorShift64::new(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
    let n = n.min(size * size);
    let span = 2 * near + 1;
    // Ends: the squares next to the stones placed are never all taken while the board
    // has an empty square.
    while out.len() < n {
        let from = out[rng.below(out.len())];
        let x = from.x() + rng.below(span);
        let y = from.y() + rng.below(span);
        if x < near || y < near || x - near >= size || y - near >= size {
            continue;
        }
        let p = Pos::new(x - near, y - near);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Score of a match from player A's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub fouls: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
    /// Points per game for A (win 1, draw 1/2).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }
}

/// Plays each opening twice, A taking black then white.
pub fn run_match(rule: Rule, size: usize, openings: &[Vec<Pos>], a: &Player, b: &Player) -> Tally {
    let mut t = Tally::default();
    for o in openings {
        for a_black in [true, false] {
            let g = if a_black {
                play_game(rule, size, o, a, b)
            } else {
                play_game(rule, size, o, b, a)
            };
            t.fouls += g.foul as u32;
            match (g.outcome, a_black) {
                (Outcome::Draw, _) => t.draws += 1,
                (Outcome::BlackWins, true) | (Outcome::WhiteWins, false) => t.wins += 1,
                _ => t.losses += 1,
            }
        }
    }
    t
}

/// Elo difference for a score fraction, and its ~95% error bar from the game results.
pub fn elo(t: &Tally) -> (f64, f64) {
    let n = t.games().max(1) as f64;
    let score = t.score().clamp(0.001, 0.999);
    let to_elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let (w, d) = (t.wins as f64 / n, t.draws as f64 / n);
    let var =
        (w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + (1.0 - w - d) * score.powi(2)) / n;
    let sd = var.sqrt();
    let lo = to_elo((score - 1.96 * sd).clamp(0.001, 0.999));
    let hi = to_elo((score + 1.96 * sd).clamp(0.001, 0.999));
    (to_elo(score), (hi - lo) / 2.0)
}

/// The command line of `selfplay`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
A player is depth=N, time=MS, nodes=N or greedy, optionally followed by search parameters:
nodes=20000,lmr=0. Each opening is played twice, the players swapping colours.

Example:
  fivefold-tools selfplay --a depth=6 --b greedy --openings 20 --rule 0 --size 15 --seed 1")]
pub struct Options {
    /// The first player
    #[arg(long, value_name = "PLAYER", default_value = "depth=4", value_parser = player)]
    pub a: String,
    /// The second player
    #[arg(long, value_name = "PLAYER", default_value = "greedy", value_parser = player)]
    pub b: String,
    /// Random openings, each played twice (so twice as many games)
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub openings: usize,
    /// Stones in each random opening
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = |s: &str| crate::cli::args::number_in(s, 0usize, 20))]
    pub stones: usize,
    /// Seed of the first opening (the next ones count up from it)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::cli::args::count)]
    pub seed: u64,
    /// Rule: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = crate::cli::args::rule)]
    pub rule: Rule,
    /// Board size (square)
    #[arg(long, value_name = "N", default_value_t = 15, value_parser = crate::cli::args::board_size)]
    pub size: usize,
}

/// A player as `--a`/`--b` give it, checked.
fn player(s: &str) -> Result<String, String> {
    match Player::parse(s) {
        Some(_) => Ok(s.to_string()),
        None => Err("expected depth=N, time=MS, nodes=N or greedy, optionally followed by ,name=value parameters".to_string()),
    }
}

/// Runs `selfplay`: the match between the two players, and one line with its result.
pub fn run(opts: &Options) -> anyhow::Result<()> {
    let (rule, size) = (opts.rule, opts.size);
    let (pa, pb) = (&opts.a, &opts.b);
    let a = Player::parse(pa).expect("checked by the command line");
    let b = Player::parse(pb).expect("checked by the command line");
    let openings: Vec<Vec<Pos>> = (0..opts.openings as u64)
        .map(|i| random_opening(size, opts.stones, opts.seed.wrapping_add(i)))
        .collect();
    let t = run_match(rule, size, &openings, &a, &b);
    let (e, err) = elo(&t);
    outln!(
        "{pa} vs {pb}: {} games, +{} -{} ={} (fouls {}), score {:.1}%, Elo {:+.0} ± {:.0}",
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        t.fouls,
        100.0 * t.score(),
        e,
        err
    );
    Ok(())
}
