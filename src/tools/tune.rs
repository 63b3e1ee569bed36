//! `fivefold-tools tune`: fits the evaluation weights to game results.
//!
//! 1. Plays games between two copies of the current engine (a node limit per move, so
//!    the run is reproducible), from seeded random openings; or, with `--sgf`, reads
//!    recorded games (a file of SGF games with results, such as c-gomoku-cli's `-sgf`
//!    output of matches between any engines), every fifth of them held out.
//! 2. Keeps the quiet positions (nobody can make five or an open four at once: those
//!    are the search's business, not the evaluation's) with the game's result from the
//!    side to move's view (1 win, ½ draw, 0 loss). With `--teacher NAME` the target of a
//!    position an engine of the recorded games scored is that score as a probability
//!    instead, `σ(score / --teacher-scale)` (`--share` mixes in the result): the scores
//!    come from the c-gomoku-cli `messages.txt` of the match (`--messages`, the last score
//!    the engine reported before each of its moves, which also stands for the position
//!    after its move) or from the games' `V[]` values.
//! 3. Fits the weights by logistic regression: `P(win) = σ(eval / SCORE_PER_LOGIT)` (the
//!    one scale, [`crate::core::scale`]) with the evaluation linear in
//!    [`eval::features`], minimising the cross-entropy by Adam, starting from the
//!    current weights. Weights of shapes that are decided tactically
//!    (fours, fives) stay as they are. It also fits the line-shape and threat-class
//!    weights alone (without the "has at least one" and tempo terms) and reports that
//!    fit's loss, so a run shows what the extra terms add.
//! 4. Prints the new table of the rule (`WEIGHTS`, `EXACT_WEIGHTS`, or `RENJU_WEIGHTS`
//!    with a set per colour) to paste into `src/core/weights.rs`, with the loss before and after
//!    on the training positions and on held-out games.

use crate::cli::output::outln;
use crate::cli::position;
use crate::core::board::Board;
use crate::core::eval;
use crate::core::pattern::{Pat, Threat};
use crate::core::record::{self, RecordResult};
use crate::core::scale;
use crate::core::types::{Color, Pos, Rule};
use crate::core::weights::{self, FEATURES};
use crate::tools::selfplay::{self, Limit, Outcome, Player};
use anyhow::Result;

/// One training position: features of the side to move and of the other side, and the
/// result (or the teacher's target) from the side to move's view.
#[derive(Clone)]
pub struct Sample {
    /// The side to move.
    pub color: Color,
    pub me: [f32; FEATURES],
    pub opp: [f32; FEATURES],
    pub result: f32,
    /// Whether a teacher's score went into `result`.
    pub scored: bool,
}

/// Whether the position is quiet enough to teach the evaluation something.
fn is_quiet(b: &Board) -> bool {
    let me = b.side_to_move();
    let opp = me.opp();
    b.count(me, Threat::Five) == 0
        && b.count(opp, Threat::Five) == 0
        && b.count(me, Threat::OpenFour) == 0
        && b.count(me, Threat::FourThree) == 0
}

/// Plays `games` games and collects samples.
pub fn generate(
    rule: Rule,
    size: usize,
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
) -> Vec<Sample> {
    let per_thread = games.div_ceil(threads.max(1));
    let handles: Vec<_> = (0..threads.max(1))
        .map(|t| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                for g in 0..per_thread {
                    let i = t * per_thread + g;
                    if i >= games {
                        break;
                    }
                    let opening = selfplay::random_opening(
                        size,
                        2 + i % 3,
                        seed.wrapping_add(i as u64 * 7919),
                    );
                    let p = Player::new(Limit::Nodes(nodes));
                    let game = selfplay::play_game(rule, size, &opening, &p, &p);
                    out.extend(samples_of(rule, size, &game));
                }
                out
            })
        })
        .collect();
    handles
        .into_iter()
        .flat_map(|h| h.join().expect("generator thread"))
        .collect()
}

fn samples_of(rule: Rule, size: usize, game: &selfplay::Game) -> Vec<Sample> {
    let b = Board::square(size, rule).expect("size");
    samples_on(b, game, None)
}

/// Rapfi 0.43's (classical evaluation) score units per logit, measured as the scale at
/// which its reported scores best predict the results of its 1869 games against
/// Fivefold (15x15 freestyle, 15 s a game): 225.
pub const TEACHER_SCALE: f64 = 225.0;

/// How a teacher's scores of positions enter the targets (`tune --teacher`).
#[derive(Clone, Copy, Debug)]
pub struct Teacher {
    /// The teacher's score units per logit: its score `v` means a win probability of
    /// `σ(v / scale)` for the side it favours.
    pub scale: f64,
    /// The share of the target taken from the teacher's score; the rest is the game's
    /// result. Positions the teacher did not score keep the result alone.
    pub share: f64,
}

/// The samples of `game` played out on the empty board `b`. With a teacher, `values`
/// holds its score of the position after each move (black's view, see
/// [`record::SgfGame::values`]).
fn samples_on(
    mut b: Board,
    game: &selfplay::Game,
    teacher: Option<(Teacher, &[Option<f64>])>,
) -> Vec<Sample> {
    let mut out = Vec::new();
    for (i, &p) in game.moves.iter().enumerate() {
        if i >= game.opening_len && is_quiet(&b) {
            let me = b.side_to_move();
            let mut result = match (game.outcome, me) {
                (Outcome::Draw, _) => 0.5,
                (Outcome::BlackWins, Color::Black) | (Outcome::WhiteWins, Color::White) => 1.0,
                _ => 0.0,
            };
            let score = teacher.and_then(|(t, v)| Some((t, v.get(i.checked_sub(1)?).copied()??)));
            if let Some((t, v)) = score {
                let v = if me == Color::Black { v } else { -v };
                let p = scale::logistic(v / t.scale);
                result = (t.share * p + (1.0 - t.share) * f64::from(result)) as f32;
            }
            out.push(Sample {
                color: me,
                me: eval::features(&b, me),
                opp: eval::features(&b, me.opp()),
                result,
                scored: score.is_some(),
            });
        }
        b.make(p);
    }
    out
}

/// Samples from recorded games (a file of SGF games, such as c-gomoku-cli's `-sgf`
/// output), split into training and held-out games (every fifth game is held out).
/// Games of another rule (by `RU`), without a result, ended off the board (on time, by a
/// crash or a foul: see [`record::SgfGame::decided_on_board`]), or that do not parse are
/// skipped and counted, and so is a game with an illegal move.
fn samples_from_sgf(
    rule: Rule,
    text: &str,
    teacher: Option<Teacher>,
    scores: Option<&[Vec<(usize, f64)>]>,
) -> (Vec<Sample>, Vec<Sample>, usize, usize) {
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let (mut used, mut skipped) = (0, 0);
    for (i, g) in record::parse_sgf_games(text).into_iter().enumerate() {
        let Ok(mut g) = g else {
            skipped += 1;
            continue;
        };
        let outcome = match g.result {
            Some(RecordResult::BlackWins) => Outcome::BlackWins,
            Some(RecordResult::WhiteWins) => Outcome::WhiteWins,
            Some(RecordResult::Draw) => Outcome::Draw,
            None => {
                skipped += 1;
                continue;
            }
        };
        if g.rule.is_some_and(|r| r != rule) || !g.decided_on_board {
            skipped += 1;
            continue;
        }
        if let Some(s) = scores.and_then(|s| s.get(i)) {
            record::put_scores(&mut g, s);
        }
        let (w, h, squares) = g.record;
        let Ok(played) = position::board_from_moves(&squares, w, h, rule) else {
            skipped += 1;
            continue;
        };
        let Ok(empty) = Board::new(w, h, rule) else {
            skipped += 1;
            continue;
        };
        let moves: Vec<Pos> = played.history().iter().map(|m| m.pos).collect();
        let game = selfplay::Game {
            moves,
            opening_len: g.opening,
            outcome,
            foul: false,
        };
        // Scores only count if there is one slot per move read.
        let values = (g.values.len() == game.moves.len()).then_some(&g.values[..]);
        let samples = samples_on(empty, &game, teacher.zip(values));
        if used % 5 == 4 {
            test.extend(samples);
        } else {
            train.extend(samples);
        }
        used += 1;
    }
    (train, test, used, skipped)
}

/// Which weights the fit may change: shapes short of an open four, and threat classes
/// short of an open four (the search resolves open fours and fives exactly).
fn trainable(k: usize, extra: bool) -> bool {
    if k >= weights::HAS && !extra {
        false
    } else if k < Pat::COUNT {
        k > Pat::None as usize && k < Pat::OpenFour as usize
    } else if k == weights::BIAS {
        true
    } else {
        let t = if k < weights::HAS {
            k - Pat::COUNT
        } else {
            k - weights::HAS
        };
        t > Threat::None as usize && t < Threat::OpenFour as usize
    }
}

/// Weights being fitted, per colour (black, white) and role. Colour-blind rules keep
/// both colours equal.
pub type Fitted = [[[f64; FEATURES]; 2]; 2];

fn eval_of(w: &Fitted, s: &Sample) -> f64 {
    let (wm, wo) = (&w[s.color.index()][0], &w[s.color.opp().index()][1]);
    (0..FEATURES)
        .map(|k| wm[k] * s.me[k] as f64 - wo[k] * s.opp[k] as f64)
        .sum()
}

/// Mean cross-entropy of the model on `data`.
pub fn loss(w: &Fitted, data: &[Sample]) -> f64 {
    let mut l = 0.0;
    for s in data {
        let p = scale::expected(eval_of(w, s));
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        let y = s.result as f64;
        l -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    l / data.len().max(1) as f64
}

/// Fits the weights of `rule` with Adam, starting from the current ones; returns the
/// fitted weights. Under renju each colour gets its own; otherwise the gradients of
/// both colours go to one shared set.
pub fn fit(rule: Rule, data: &[Sample], iterations: usize, extra: bool) -> Fitted {
    let per_colour = rule == Rule::Renju;
    let mut w = [[[0f64; FEATURES]; 2]; 2];
    for c in [Color::Black, Color::White] {
        let cur = weights::weights(rule, c);
        for r in 0..2 {
            for k in 0..FEATURES {
                w[c.index()][r][k] = cur[r][k] as f64;
            }
        }
    }
    let (mut m, mut v) = ([[[0f64; FEATURES]; 2]; 2], [[[0f64; FEATURES]; 2]; 2]);
    let (lr, b1, b2) = (0.5, 0.9, 0.999);
    let slot = |c: Color| if per_colour { c.index() } else { 0 };
    for it in 1..=iterations {
        let mut g = [[[0f64; FEATURES]; 2]; 2];
        for s in data {
            let p = scale::expected(eval_of(&w, s));
            let e = (p - s.result as f64) / scale::SCORE_PER_LOGIT;
            let (cm, co) = (slot(s.color), slot(s.color.opp()));
            for (k, (&me, &opp)) in s.me.iter().zip(&s.opp).enumerate() {
                g[cm][0][k] += e * me as f64;
                g[co][1][k] -= e * opp as f64;
            }
        }
        let n = data.len().max(1) as f64;
        let colours = if per_colour { 2 } else { 1 };
        for c in 0..colours {
            for r in 0..2 {
                for k in 0..FEATURES {
                    if !trainable(k, extra) {
                        continue;
                    }
                    let gk = g[c][r][k] / n;
                    m[c][r][k] = b1 * m[c][r][k] + (1.0 - b1) * gk;
                    v[c][r][k] = b2 * v[c][r][k] + (1.0 - b2) * gk * gk;
                    let mh = m[c][r][k] / (1.0 - b1.powi(it as i32));
                    let vh = v[c][r][k] / (1.0 - b2.powi(it as i32));
                    w[c][r][k] = (w[c][r][k] - lr * mh / (vh.sqrt() + 1e-12)).max(0.0);
                }
            }
        }
        if !per_colour {
            w[1] = w[0];
        }
    }
    w
}

/// `fivefold-tools tune --games 400 --nodes 4000 --rule 0 --size 15 --seed 1 --iterations 300`,
/// or `tune --sgf games.sgf[,more.sgf] --rule 0` to fit to recorded games instead (add
/// `--games N` to mix in N self-play games), and `--messages m.txt[,more.txt] --teacher
/// NAME [--teacher-scale 225] [--share 1]` to fit to an engine's scores of their positions.
/// The command line of `tune`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Prints the fitted weight table of the rule (to paste into src/core/weights.rs); progress and
losses go to stderr.

Examples:
  fivefold-tools tune --games 400 --nodes 4000 --threads 8
  fivefold-tools tune --sgf match/games.sgf --teacher Rapfi --messages match/messages.txt")]
pub struct Options {
    /// Rule: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = crate::cli::args::rule)]
    pub rule: Rule,
    /// Board size of the self-play games (square)
    #[arg(long, value_name = "N", default_value_t = 15, value_parser = crate::cli::args::board_size)]
    pub size: usize,
    /// Self-play games to learn from (a quarter as many more are held out) [default: 400, or 0 with --sgf]
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Nodes per move in the self-play games
    #[arg(long, value_name = "N", default_value_t = 4000, value_parser = crate::cli::args::count)]
    pub nodes: u64,
    /// Seed of the self-play openings
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::cli::args::count)]
    pub seed: u64,
    /// Optimiser iterations
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub iterations: usize,
    /// Threads playing the self-play games
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = crate::cli::args::threads)]
    pub threads: usize,
    /// Recorded games to learn from: SGF files with results, separated by commas
    #[arg(long, value_name = "FILE[,FILE...]")]
    pub sgf: Option<String>,
    /// The engine of the recorded games whose scores are the targets
    #[arg(long, value_name = "NAME", requires = "sgf")]
    pub teacher: Option<String>,
    /// c-gomoku-cli messages.txt files with the teacher's scores, one per --sgf file [default: the games' V[] values]
    #[arg(long, value_name = "FILE[,FILE...]", requires = "teacher")]
    pub messages: Option<String>,
    /// The teacher's score units per logit
    #[arg(long, value_name = "UNITS", default_value_t = TEACHER_SCALE, value_parser = crate::cli::args::positive)]
    pub teacher_scale: f64,
    /// Share of the teacher's score in a target, the rest from the game's result
    #[arg(long, value_name = "SHARE", default_value_t = 1.0, value_parser = |s: &str| crate::cli::args::number_in(s, 0.0, 1.0))]
    pub share: f64,
}

/// Runs `tune`.
pub fn run(opts: &Options) -> Result<()> {
    let (rule, size, nodes, seed, iterations, threads) = (
        opts.rule,
        opts.size,
        opts.nodes,
        opts.seed,
        opts.iterations,
        opts.threads,
    );
    let sgf = opts.sgf.as_deref();
    let games = opts.games.unwrap_or(if sgf.is_some() { 0 } else { 400 });
    // `--teacher NAME`: the engine of the recorded games whose scores are targets, read
    // from `--messages` (c-gomoku-cli's messages.txt, one per --sgf file, in order) or,
    // without it, from the games' own V[] values.
    let teacher_name = opts.teacher.clone();
    let messages: Vec<&str> = opts
        .messages
        .as_deref()
        .map(|s| s.split(',').collect())
        .unwrap_or_default();
    if !messages.is_empty() {
        let files = sgf.map_or(0, |s| s.split(',').count());
        if teacher_name.is_none() || messages.len() != files {
            anyhow::bail!(
                "--messages needs --teacher NAME and one messages file per --sgf file ({} for {files})",
                messages.len()
            );
        }
    }
    let mut messages = messages.into_iter();
    let teacher = teacher_name.as_ref().map(|_| Teacher {
        scale: opts.teacher_scale,
        share: opts.share,
    });
    let start = std::time::Instant::now();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    if games > 0 {
        train = generate(rule, size, games, nodes, seed, threads);
        test = generate(
            rule,
            size,
            (games / 4).max(1),
            nodes,
            seed ^ 0xABCDEF,
            threads,
        );
        eprintln!(
            "{} training and {} held-out positions from {} + {} self-play games in {:.1}s",
            train.len(),
            test.len(),
            games,
            (games / 4).max(1),
            start.elapsed().as_secs_f64()
        );
    }
    let mut recorded = 0;
    for file in sgf.into_iter().flat_map(|s| s.split(',')) {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?;
        let scores = match (&teacher_name, messages.next()) {
            (Some(name), Some(m)) => {
                let text = std::fs::read_to_string(m)
                    .map_err(|e| anyhow::anyhow!("cannot read {m}: {e}"))?;
                Some(record::match_scores(&text, name))
            }
            _ => None,
        };
        let (tr, te, used, skipped) = samples_from_sgf(rule, &text, teacher, scores.as_deref());
        eprintln!(
            "{file}: {used} games ({} training and {} held-out positions), {skipped} skipped",
            tr.len(),
            te.len()
        );
        if let Some(name) = &teacher_name {
            let scored = tr.iter().chain(&te).filter(|s| s.scored).count();
            eprintln!(
                "{file}: {scored} of the {} positions carry a score of {name}'s",
                tr.len() + te.len()
            );
        }
        recorded += used;
        train.extend(tr);
        test.extend(te);
    }
    if train.is_empty() {
        anyhow::bail!(
            "no training positions: give --games N or --sgf FILE with games of this rule"
        );
    }
    let w0 = fit(rule, &train, 0, true);
    let wb = fit(rule, &train, iterations, false);
    eprintln!(
        "base features only: loss train {:.4}, held-out {:.4}",
        loss(&wb, &train),
        loss(&wb, &test)
    );
    let w = fit(rule, &train, iterations, true);
    if sgf.is_some() {
        outln!(
            "// tune: rule {} recorded games {recorded} ({}) self-play games {games} nodes {nodes} seed {seed} iterations {iterations}",
            rule.name(),
            sgf.unwrap_or_default()
        );
    } else {
        outln!("// tune: rule {} size {size} games {games} nodes {nodes} seed {seed} iterations {iterations}", rule.name());
    }
    outln!(
        "// loss train {:.4} -> {:.4}, held-out {:.4} -> {:.4}",
        loss(&w0, &train),
        loss(&w, &train),
        loss(&w0, &test),
        loss(&w, &test)
    );
    let row = |r: &[f64; FEATURES]| {
        let vals: Vec<String> = r.iter().map(|x| format!("{}", x.round() as i64)).collect();
        format!("[{}]", vals.join(", "))
    };
    if rule == Rule::Renju {
        outln!("pub const RENJU_WEIGHTS: [Weights; 2] = [");
        for (c, name) in w.iter().zip(["black", "white"]) {
            outln!("    // {name}");
            outln!("    [{}, {}],", row(&c[0]), row(&c[1]));
        }
    } else {
        let name = if rule == Rule::Exact {
            "EXACT_WEIGHTS"
        } else {
            "WEIGHTS"
        };
        outln!("pub const {name}: Weights = [");
        for r in &w[0] {
            outln!("    {},", row(r));
        }
    }
    outln!("];");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_games_teach_their_results_from_the_side_to_move() {
        // Five freestyle games: three opening moves (not sampled), then two moves, so
        // two positions each, white to move and then black. Then a renju game, one
        // without a result and one lost on time, which a freestyle fit must skip.
        let game = |re: &str, ru: u8| {
            format!(
                "(;FF[4]GM[4]RU[{ru}]SZ[15]RE[{re}];B[hh]C[opening move];W[ih]C[opening move]\
                 ;B[hg]C[opening move];W[ig]C[9ms];B[hf]C[9ms])\n"
            )
        };
        let mut text = String::new();
        for re in ["B+1", "W+1", "0", "B+1", "W+1"] {
            text += &game(re, 0);
        }
        text += &game("B+1", 4);
        text += &game("?", 0);
        text += &game("W+1", 0).replace("RE[W+1]", "RE[W+1]TE[White win by time forfeit]");
        let (train, test, used, skipped) = samples_from_sgf(Rule::Freestyle, &text, None, None);
        assert_eq!((used, skipped), (5, 3));
        assert_eq!((train.len(), test.len()), (8, 2));
        let results: Vec<(Color, f32)> = train.iter().map(|s| (s.color, s.result)).collect();
        use Color::{Black, White};
        assert_eq!(
            results,
            [
                (White, 0.0),
                (Black, 1.0),
                (White, 1.0),
                (Black, 0.0),
                (White, 0.5),
                (Black, 0.5),
                (White, 0.0),
                (Black, 1.0)
            ]
        );
        // The fifth game is the held-out one: a white win.
        assert_eq!((test[0].color, test[0].result), (White, 1.0));
        // The features are those of the position reached: black has three stones.
        let b =
            position::board_from_moves(&[(7, 7), (8, 7), (7, 6)], 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(train[0].me, eval::features(&b, White));
        assert_eq!(train[0].opp, eval::features(&b, Black));
    }

    #[test]
    fn a_teachers_scores_become_targets_from_the_side_to_move() {
        // One game won by black; the teacher scores the position after move 3 at +225
        // for black (one logit at the default scale) and the one after move 4 not at
        // all. Positions are sampled after the opening's three moves.
        let text = "(;FF[4]GM[4]RU[0]SZ[15]RE[B+1];B[hh]C[opening move];W[ih]C[opening move]\
                    ;B[hg]C[opening move]V[225];W[ig]C[9ms];B[hf]C[9ms])\n";
        let sigma = scale::logistic(1.0);
        for share in [1.0, 0.5] {
            let t = Teacher {
                scale: TEACHER_SCALE,
                share,
            };
            let (train, _, used, _) = samples_from_sgf(Rule::Freestyle, text, Some(t), None);
            assert_eq!((used, train.len()), (1, 2));
            // White to move after three stones: the teacher's view turned to white's,
            // blended with white's loss.
            let want = share * (1.0 - sigma);
            assert!((f64::from(train[0].result) - want).abs() < 1e-4, "{share}");
            assert_eq!(train[0].color, Color::White);
            assert!(train[0].scored);
            // No score after move 4: black's win alone.
            assert_eq!(train[1].result, 1.0);
            assert!(!train[1].scored);
        }
        // Without a teacher the results alone.
        let (train, ..) = samples_from_sgf(Rule::Freestyle, text, None, None);
        assert_eq!(train[0].result, 0.0);
    }
}
