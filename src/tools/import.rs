//! `fivefold-tools import`: training positions from another engine's games, read from
//! c-gomoku-cli's sample or SGF files and written in the format of
//! [`data`](crate::tools::data) (`docs/data.md`), so that `train` can learn from a
//! stronger engine's moves and results.
//!
//! c-gomoku-cli writes a sample for each move an engine played (`-sample format=csv`):
//! one line `POSITION,MOVE,RESULT`, where `POSITION` is the game so far in its `pos`
//! notation (`h8i9g10`, rows from 1 at the top, black first), `MOVE` the square the
//! engine chose in the same notation, and `RESULT` the game's result for the side to
//! move: 0 loss, 1 draw, 2 win. A game's samples are written together, in move order,
//! when it ends; the games of a time loss, crash or illegal move are left out by
//! c-gomoku-cli itself.
//!
//! Each line becomes one record: the stones, the side to move (black after an even
//! number of moves), the move as the best move and the result. There is no search score
//! in the file, so the record's score is 0 and it carries [`flags::NO_SCORE`]: the
//! trainer's value target is then the result alone. [`flags::FORCED`] is set as
//! `datagen` sets it (the opponent threatens five). As in `datagen`, a position where
//! the side to move can make five at once is not written.
//!
//! Games are told apart by their moves: a line continues the game of the line before
//! it when its position is that line's position followed by that line's move (or, with
//! a sampling rate below 1, by more moves from there); anything else starts a new game.
//! Game numbers run from 0 over all the files in the order given, so the trainer's
//! held-out split (by game) never puts one game on both sides.
//!
//! Every line is checked on the board (squares on it, empty, no renju foul, no move
//! after the end of the game, the results of one game agreeing), and a bad line is an
//! error that names the file and the line. The one exception is a last line without its
//! newline, which is what an interrupted c-gomoku-cli leaves: it is skipped, with a note.
//!
//! **SGF games with the teacher's scores.** c-gomoku-cli's `-sgf` file holds whole games
//! (the opening marked `C[opening move]`, the players' names, the result and how the game
//! ended) and its `-msg` file the engines' thinking lines, game by game in the same order.
//! `import_sgf` makes a record of every move after the opening, or only of the
//! teacher's moves (the player whose name contains `--teacher`), and gives it the score
//! the teacher last reported before that move ([`record::match_scores`]), converted from
//! the teacher's units (`--teacher-scale` per logit) to the engine's; a move without a
//! plain score (a mate announced, or no thinking line) keeps [`flags::NO_SCORE`]. Games
//! without a result or ended off the board are skipped; another rule or size, or an
//! illegal move, is an error naming the file and the game.
//!
//! `--games FROM-TO` reads only the games with those numbers (`GN[n]`) and
//! `--except-games FROM-TO` all the others, so one match splits into training and
//! held-out files by whole games, and with `-repeat` by whole opening pairs (games 2k-1
//! and 2k), without editing the match's files.

use crate::cli::args;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::record::{self, SgfGame};
use crate::core::scale::SCORE_PER_LOGIT;
use crate::core::types::{Color, Pos, Rule};
use crate::nn::eval::SCORE_LIMIT;
use crate::tools::data::{flags, GameResult, Header, Record, Writer};
use crate::tools::datagen::{play_checked, why_illegal};
use crate::tools::openings::{parse_pos_line, pos_line};
use crate::tools::tune::TEACHER_SCALE;
use anyhow::{anyhow, bail, ensure, Context, Result};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The command line of `import`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Reads c-gomoku-cli sample files (-sample format=csv: one 'position,move,result' line per
move an engine played) and writes one record per move to --out (format: docs/data.md),
with no search score (flag NO_SCORE), for train. A summary goes to stderr.

Or reads c-gomoku-cli SGF files (-sgf): every move after the opening becomes a record,
with --teacher NAME only the moves of the engine whose name contains NAME, and with
--messages (c-gomoku-cli's -msg file of the same games) that engine's reported score
(Rapfi's 'Eval', Fivefold's 'ev') becomes the record's score, converted at
--teacher-scale units per logit; moves without a plain score get NO_SCORE. Scores go to
games in order, so a messages file must hold as many games as its SGF file. Games that
ended off the board (time, crash, foul) or without a result are skipped and counted.
--games FROM-TO keeps only the games numbered so (c-gomoku-cli's GN[n], from 1; an
opening's two games with -repeat are 2k-1 and 2k), --except-games FROM-TO the others:
run import twice to split a match into training and held-out files.

Examples (Rapfi's games as a teacher; train/teacher-games.sh makes such files):
  c-gomoku-cli -engine cmd=pbrain-rapfi -engine cmd=pbrain-rapfi -each nodes=50000 \\
    -openings file=openings.txt type=pos -games 1000 -sample file=games.csv format=csv
  fivefold-tools import games.csv --out rapfi.data --rule freestyle --size 15
  fivefold-tools import --sgf match/games.sgf --messages match/messages.txt \\
    --teacher rapfi --out rapfi.data
  fivefold-tools import --sgf match/games.sgf --messages match/messages.txt \\
    --teacher rapfi --games 301-420 --out rapfi-val.data")]
pub struct Options {
    /// c-gomoku-cli sample files in CSV form, read in this order
    #[arg(value_name = "CSV", required_unless_present = "sgf")]
    pub csv: Vec<PathBuf>,
    /// A c-gomoku-cli SGF file of games (-sgf), read after the CSV files; repeat for more
    #[arg(long, value_name = "FILE")]
    pub sgf: Vec<PathBuf>,
    /// With --sgf: only the moves of the engine whose name contains NAME become records
    #[arg(long, value_name = "NAME", requires = "sgf")]
    pub teacher: Option<String>,
    /// c-gomoku-cli messages.txt of each --sgf file, in the same order: the teacher's scores
    #[arg(long, value_name = "FILE", requires = "teacher")]
    pub messages: Vec<PathBuf>,
    /// With --sgf: only the games numbered FROM to TO (the SGF property GN, from 1), e.g. held-out games
    #[arg(long, value_name = "FROM-TO", requires = "sgf", value_parser = GameRange::parse,
          conflicts_with = "except_games")]
    pub games: Option<GameRange>,
    /// With --sgf: every game but those numbered FROM to TO (the rest of such a split)
    #[arg(long, value_name = "FROM-TO", requires = "sgf", value_parser = GameRange::parse)]
    pub except_games: Option<GameRange>,
    /// The teacher's score units per logit (225 fits Rapfi 0.43's classical evaluation)
    #[arg(long, value_name = "UNITS", default_value_t = TEACHER_SCALE, value_parser = args::positive)]
    pub teacher_scale: f64,
    /// The file to write (replaced if it exists)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Rule the games were played under: freestyle, exact5, renju, caro, caro-exact5, or 0, 1, 4, 8, 9
    #[arg(long, value_name = "RULE", default_value = "freestyle", value_parser = args::rule)]
    pub rule: Rule,
    /// Board size (square)
    #[arg(long, value_name = "N", default_value_t = 15, value_parser = args::board_size)]
    pub size: usize,
}

impl Options {
    /// The games `--games` or `--except-games` pick.
    pub fn pick(&self) -> Pick {
        match (self.games, self.except_games) {
            (Some(r), _) => Pick::Only(r),
            (None, Some(r)) => Pick::Except(r),
            (None, None) => Pick::All,
        }
    }
}

/// Game numbers `FROM` to `TO`, both included (`GN[n]` of c-gomoku-cli's SGF files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRange {
    pub from: u64,
    pub to: u64,
}

impl GameRange {
    /// Reads `FROM-TO` (1 <= FROM <= TO) or a single number.
    pub fn parse(s: &str) -> std::result::Result<GameRange, String> {
        let number = |t: &str| t.trim().parse::<u64>().ok().filter(|&n| n >= 1);
        let (from, to) = match s.split_once('-') {
            Some((a, b)) => (number(a), number(b)),
            None => (number(s), number(s)),
        };
        match (from, to) {
            (Some(from), Some(to)) if from <= to => Ok(GameRange { from, to }),
            _ => {
                Err("expected FROM-TO, game numbers from 1 with FROM <= TO (or one number)".into())
            }
        }
    }

    pub fn contains(self, n: u64) -> bool {
        (self.from..=self.to).contains(&n)
    }
}

/// Which games of the SGF files `import_sgf` reads, by their numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pick {
    #[default]
    All,
    Only(GameRange),
    Except(GameRange),
}

impl Pick {
    /// Whether `game` is read; with a range, a game without a number is an error (it
    /// could belong on either side of the split).
    pub fn keeps(self, game: &SgfGame) -> Result<bool> {
        let (range, inside) = match self {
            Pick::All => return Ok(true),
            Pick::Only(r) => (r, true),
            Pick::Except(r) => (r, false),
        };
        let n = game.number.ok_or_else(|| {
            anyhow!("the game has no number (GN[n]) to pick it by --games or --except-games")
        })?;
        Ok(range.contains(n) == inside)
    }
}

/// What `import_sgf` read and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgfCounts {
    /// Games read, of those the pick kept.
    pub games: u64,
    /// Of those, games without a result or ended off the board.
    pub skipped: u64,
    /// Games left out by the pick (`--games`, `--except-games`).
    pub not_picked: u64,
    /// Records written.
    pub written: u64,
    /// Of those, records with the teacher's score.
    pub scored: u64,
}

/// One sample line, read but not yet checked on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The moves so far, black's first.
    pub moves: Vec<Pos>,
    /// The move the engine played.
    pub played: Pos,
    /// The game's result for the side to move.
    pub result: GameResult,
}

/// Reads one `POSITION,MOVE,RESULT` line on a `size` x `size` board.
fn parse_line(line: &str, size: usize) -> Result<Sample> {
    let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
    let [position, played, result] = fields[..] else {
        bail!("{} fields where 'position,move,result' has 3", fields.len());
    };
    let squares = |s: &str| -> Result<Vec<Pos>> {
        Ok(parse_pos_line(s, size, size)
            .map_err(|e| anyhow!(e))?
            .into_iter()
            .map(|(x, y)| Pos::new(x, y))
            .collect())
    };
    let moves = squares(position)?;
    let played = match squares(played)?[..] {
        [p] => p,
        _ => bail!("the move '{played}' is not one square"),
    };
    let result = match result {
        "0" => GameResult::Loss,
        "1" => GameResult::Draw,
        "2" => GameResult::Win,
        _ => bail!("result '{result}' is not 0 (loss), 1 (draw) or 2 (win)"),
    };
    Ok(Sample {
        moves,
        played,
        result,
    })
}

/// Turns samples into records, numbering games and checking each sample on the board.
pub struct Importer {
    rule: Rule,
    size: usize,
    /// The game number of the next new game.
    next_game: u32,
    /// The last sample's game: its number, the moves up to and with the move played,
    /// and black's result.
    last: Option<(u32, Vec<Pos>, GameResult)>,
    /// The last sample's position (without the move played): a line that continues
    /// the game is played on from here instead of from the empty board.
    board: Board,
    /// Samples whose side to move could make five (not written).
    pub fives_skipped: u64,
}

/// The result for the other side.
fn flip(r: GameResult) -> GameResult {
    match r {
        GameResult::Win => GameResult::Loss,
        GameResult::Draw => GameResult::Draw,
        GameResult::Loss => GameResult::Win,
    }
}

impl Importer {
    pub fn new(rule: Rule, size: usize) -> Result<Importer> {
        Ok(Importer {
            rule,
            size,
            next_game: 0,
            last: None,
            board: Board::square(size, rule).map_err(|e| anyhow!(e))?,
            fives_skipped: 0,
        })
    }

    /// Games begun so far.
    pub fn games(&self) -> u32 {
        self.next_game
    }

    /// The record of a sample, or `None` when the side to move could make five.
    pub fn record(&mut self, s: &Sample) -> Result<Option<Record>> {
        // Taken, so that a line that fails leaves nothing for the next to continue.
        let last = self.last.take();
        let same_game = matches!(&last, Some((_, line, _)) if s.moves.starts_with(line));
        if !same_game {
            self.board = Board::square(self.size, self.rule).map_err(|e| anyhow!(e))?;
        }
        let b = &mut self.board;
        play_checked(b, &s.moves[b.move_count()..])?;
        if let Some(why) = why_illegal(b, s.played) {
            bail!("the move {} {why}", pos_line(&[s.played]));
        }
        let me = b.side_to_move();
        let black_result = if me == Color::Black {
            s.result
        } else {
            flip(s.result)
        };
        let game = match last {
            Some((g, _, r)) if same_game => {
                ensure!(
                    r == black_result,
                    "the result disagrees with the game's earlier lines"
                );
                g
            }
            _ => {
                self.next_game += 1;
                self.next_game - 1
            }
        };
        let mut line = s.moves.clone();
        line.push(s.played);
        self.last = Some((game, line, black_result));
        let r = position_record(b, game, s.played, s.result, None);
        self.fives_skipped += u64::from(r.is_none());
        Ok(r)
    }

    /// The records of one SGF game (see the module text), or `None` for a game that
    /// says nothing about its positions: no result, or an end off the board (time,
    /// crash, foul). With `teacher`, only the moves of the player whose name contains
    /// it; `scores` are that player's reported scores, `(move number, score)` as
    /// [`record::match_scores`] gives them, at `scale` units per logit. A game of
    /// another size or rule, or with an illegal move, is an error.
    fn sgf_game(
        &mut self,
        g: &SgfGame,
        teacher: Option<&str>,
        scores: &[(usize, f64)],
        scale: f64,
    ) -> Result<Option<Vec<Record>>> {
        self.last = None;
        let (w, h, squares) = &g.record;
        ensure!(
            (*w, *h) == (self.size, self.size),
            "a {w}x{h} game, where --size is {}",
            self.size
        );
        if let Some(r) = g.rule {
            ensure!(
                r == self.rule,
                "a game of {}, where --rule is {}",
                r.name(),
                self.rule.name()
            );
        }
        let Some(result) = g.result.filter(|_| g.decided_on_board) else {
            return Ok(None);
        };
        let moves: Vec<Pos> = squares.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        let opening = g.opening.min(moves.len());
        let mut b = Board::square(self.size, self.rule).map_err(|e| anyhow!(e))?;
        play_checked(&mut b, &moves[..opening])?;
        let game = self.next_game;
        self.next_game += 1;
        // The scores by move number (1-based), so each move finds its own at once.
        let mut reported = vec![None; moves.len() + 1];
        for &(n, v) in scores {
            if let Some(s) = reported.get_mut(n) {
                *s = Some(v);
            }
        }
        let mut out = Vec::new();
        for (i, &p) in moves.iter().enumerate().skip(opening) {
            let me = b.side_to_move();
            let player = match me {
                Color::Black => g.black.as_deref(),
                Color::White => g.white.as_deref(),
            };
            if teacher.is_none_or(|t| player.is_some_and(|n| n.contains(t))) {
                let mine = GameResult::for_side(result.winner(), me);
                // The score reported while thinking about move i + 1.
                let score = reported.get(i + 1).copied().flatten().map(|v| {
                    let s = (v / scale * SCORE_PER_LOGIT).round();
                    s.clamp(-f64::from(SCORE_LIMIT), f64::from(SCORE_LIMIT)) as i16
                });
                match position_record(&b, game, p, mine, score) {
                    Some(r) => out.push(r),
                    None => self.fives_skipped += 1,
                }
            }
            play_checked(&mut b, &[p])?;
        }
        Ok(Some(out))
    }
}

/// The record of `b` with `played` as its move and `result` for the side to move, or
/// `None` when the side to move could make five. Without a score it carries
/// [`flags::NO_SCORE`].
fn position_record(
    b: &Board,
    game: u32,
    played: Pos,
    result: GameResult,
    score: Option<i16>,
) -> Option<Record> {
    let me = b.side_to_move();
    if b.count(me, Threat::Five) > 0 {
        return None;
    }
    let mut f = if score.is_none() { flags::NO_SCORE } else { 0 };
    if b.count(me.opp(), Threat::Five) > 0 {
        f |= flags::FORCED;
    }
    Some(Record {
        game,
        ply: b.move_count() as u16,
        best: Record::index_of(played, b.width()),
        score: score.unwrap_or(0),
        side_to_move: me,
        result,
        flags: f,
        stones: Record::stones_of(b),
    })
}

/// Reads the sample files into `writer`; returns the lines read and the records
/// written.
pub fn import<W: Write>(
    files: &[PathBuf],
    importer: &mut Importer,
    writer: &mut Writer<W>,
) -> Result<(u64, u64)> {
    let (mut lines, mut written) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let cut_off = !text.is_empty() && !text.ends_with('\n');
        let all: Vec<&str> = text.lines().collect();
        for (n, line) in all.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            if cut_off && n + 1 == all.len() {
                eprintln!(
                    "import: {} line {}: no newline at the end, a cut-off write; skipped",
                    path.display(),
                    n + 1
                );
                continue;
            }
            lines += 1;
            let at = || format!("{} line {}: '{}'", path.display(), n + 1, line.trim());
            let sample = parse_line(line, importer.size).with_context(at)?;
            if let Some(r) = importer.record(&sample).with_context(at)? {
                writer
                    .write(&r)
                    .with_context(|| "cannot write the output")?;
                written += 1;
            }
        }
    }
    Ok((lines, written))
}

/// Reads SGF files of games into `writer`, with the teacher's scores from the
/// `messages` file of each (if given), only the games `pick` keeps; says what it read
/// and wrote. A game's scores are the messages file's game in the same place, whether
/// or not the game is picked.
fn import_sgf<W: Write>(
    files: &[PathBuf],
    messages: &[PathBuf],
    teacher: Option<&str>,
    scale: f64,
    pick: Pick,
    importer: &mut Importer,
    writer: &mut Writer<W>,
) -> Result<SgfCounts> {
    ensure!(
        messages.is_empty() || messages.len() == files.len(),
        "{} --messages files for {} --sgf files: give one for each, in the same order",
        messages.len(),
        files.len()
    );
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    };
    let mut n = SgfCounts::default();
    for (k, path) in files.iter().enumerate() {
        let text = read(path)?;
        let parsed = record::parse_sgf_games(&text);
        let scores = match (messages.get(k), teacher) {
            (Some(m), Some(t)) => {
                let scores = record::match_scores(&read(m)?, t);
                // Scores are matched to games by their order: with another count they
                // would land on the wrong games.
                ensure!(
                    scores.len() == parsed.len(),
                    "{} has {} games, its messages file {} has {}: not the same match",
                    path.display(),
                    parsed.len(),
                    m.display(),
                    scores.len()
                );
                scores
            }
            _ => Vec::new(),
        };
        for (i, g) in parsed.into_iter().enumerate() {
            let at = || format!("{} game {}", path.display(), i + 1);
            let g = g.with_context(at)?;
            if !pick.keeps(&g).with_context(at)? {
                n.not_picked += 1;
                continue;
            }
            let s = scores.get(i).map_or(&[][..], |s| &s[..]);
            n.games += 1;
            let Some(records) = importer.sgf_game(&g, teacher, s, scale).with_context(at)? else {
                n.skipped += 1;
                continue;
            };
            for r in records {
                n.scored += u64::from(r.flags & flags::NO_SCORE == 0);
                writer
                    .write(&r)
                    .with_context(|| "cannot write the output")?;
                n.written += 1;
            }
        }
    }
    Ok(n)
}

/// Runs `import`.
pub fn run(opts: &Options) -> Result<()> {
    let header = Header::new(opts.rule, opts.size, opts.size)?;
    let out: &Path = &opts.out;
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut writer = Writer::new(BufWriter::new(file), header)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let mut importer = Importer::new(opts.rule, opts.size)?;
    let (lines, written) = import(&opts.csv, &mut importer, &mut writer)?;
    let csv_games = importer.games();
    let sgf = import_sgf(
        &opts.sgf,
        &opts.messages,
        opts.teacher.as_deref(),
        opts.teacher_scale,
        opts.pick(),
        &mut importer,
        &mut writer,
    )?;
    // A range that picks nothing is a mistake (another match, a typo), not an empty set:
    // no file is left behind for train to read as one.
    if let Pick::Only(r) | Pick::Except(r) = opts.pick() {
        if sgf.games == 0 {
            drop(writer);
            std::fs::remove_file(out).ok();
            bail!(
                "--games or --except-games {}-{} left none of the {} games in the SGF files",
                r.from,
                r.to,
                sgf.not_picked
            );
        }
    }
    writer
        .finish()
        .and_then(|mut w| w.flush())
        .with_context(|| format!("cannot write {}", out.display()))?;
    let mut read = Vec::new();
    if !opts.csv.is_empty() {
        read.push(format!("{lines} samples of {csv_games} games"));
    }
    if !opts.sgf.is_empty() {
        let SgfCounts {
            games,
            skipped,
            not_picked,
            scored,
            ..
        } = sgf;
        let picked = match opts.pick() {
            Pick::All => String::new(),
            Pick::Only(r) => format!(" numbered {}-{}", r.from, r.to),
            Pick::Except(r) => format!(" not numbered {}-{}", r.from, r.to),
        };
        read.push(format!(
            "{games} SGF games{picked} ({skipped} skipped: no result, or ended off the board; {scored} positions with the teacher's score)"
        ));
        if opts.pick() != Pick::All {
            read.push(format!("{not_picked} other games left out"));
        }
    }
    eprintln!(
        "import: {}, {} positions written to {} ({} where the side to move could make five left out)",
        read.join(" and "),
        written + sgf.written,
        out.display(),
        importer.fives_skipped
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data;

    #[test]
    fn a_line_reads_as_moves_a_move_and_a_result() {
        let s = parse_line("h8i9g10,j5,2", 15).unwrap();
        assert_eq!(s.moves, [Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 9)]);
        assert_eq!(s.played, Pos::new(9, 4));
        assert_eq!(s.result, GameResult::Win);
        assert_eq!(
            parse_line("a1,o15,0\n", 15).unwrap().result,
            GameResult::Loss
        );
        for bad in [
            "h8,i9",
            "h8,i9,3",
            "h8,i9j9,1",
            "h8,p1,1",
            "h8,i9,1,x",
            "h8x,i9,1",
        ] {
            assert!(parse_line(bad, 15).is_err(), "{bad}");
        }
    }

    /// A short freestyle game as c-gomoku-cli writes it: black (h8 ...) makes five on
    /// row 8 while white plays row 9.
    const GAME: &str = "\
h8i9,i8,2
h8i9i8,j9,0
h8i9i8j9,j8,2
h8i9i8j9j8,k9,0
h8i9i8j9j8k9,k8,2
h8i9i8j9j8k9k8,l9,0
h8i9i8j9j8k9k8l9,g8,2
";

    fn import_text(texts: &[&str], rule: Rule) -> Result<(Vec<Record>, Importer)> {
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("fivefold-import-{}-{run}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let files: Vec<PathBuf> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let f = dir.join(format!("{i}.csv"));
                std::fs::write(&f, t).unwrap();
                f
            })
            .collect();
        let mut importer = Importer::new(rule, 15)?;
        let mut w = Writer::new(Vec::new(), Header::new(rule, 15, 15)?)?;
        let result = import(&files, &mut importer, &mut w);
        std::fs::remove_dir_all(&dir).ok();
        result?;
        let bytes = w.finish()?;
        let (_, records) = data::read(&bytes[..])?;
        Ok((records, importer))
    }

    #[test]
    fn games_become_records_with_their_results_and_flags() {
        let (records, imp) = import_text(&[GAME], Rule::Freestyle).unwrap();
        // The last line's black can make five at once (g8 or l8): not written.
        assert_eq!(records.len(), 6);
        assert_eq!(imp.fives_skipped, 1);
        assert_eq!(imp.games(), 1);
        let first = &records[0];
        assert_eq!((first.game, first.ply), (0, 2));
        assert_eq!(first.side_to_move, Color::Black);
        assert_eq!(first.result, GameResult::Win);
        assert_eq!(first.best, Record::index_of(Pos::new(8, 7), 15));
        assert_eq!(
            first.stones[Record::index_of(Pos::new(7, 7), 15) as usize],
            Some(Color::Black)
        );
        assert_eq!(
            first.stones[Record::index_of(Pos::new(8, 8), 15) as usize],
            Some(Color::White)
        );
        let second = &records[1];
        assert_eq!(
            (second.side_to_move, second.result),
            (Color::White, GameResult::Loss)
        );
        for r in &records {
            assert_eq!(r.score, 0);
            assert!(r.flags & flags::NO_SCORE != 0);
        }
        // White's reply to black's open four (h8 i8 j8 k8) is forced.
        let forced: Vec<u16> = records
            .iter()
            .filter(|r| r.flags & flags::FORCED != 0)
            .map(|r| r.ply)
            .collect();
        assert_eq!(forced, [7]);
    }

    #[test]
    fn games_are_told_apart_by_their_moves_across_files() {
        let other = "h8h9,j8,1\nh8h9j8,g9,1\n";
        // A sampled game (every other move) continues its game too.
        let sampled = "h8i9,i8,2\nh8i9i8j9j8,k9,0\n";
        let (records, imp) = import_text(&[GAME, other, GAME, sampled], Rule::Freestyle).unwrap();
        assert_eq!(imp.games(), 4);
        let games: Vec<u32> = records.iter().map(|r| r.game).collect();
        assert_eq!(
            games,
            [0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3],
            "{games:?}"
        );
        assert_eq!(records[6].result, GameResult::Draw);
    }

    #[test]
    fn bad_lines_are_errors_that_name_the_line() {
        for (text, want) in [
            ("h8i9,h8,2\n", "occupied"),
            ("h8i9,i8,2\nh8i9i8,j9,2\n", "disagrees"),
            ("h8i9i8j9j8k9k8l9g8,a1,0\n", "after the end of the game"),
            ("h8,i9,x\n", "result"),
        ] {
            let e = import_text(&[text], Rule::Freestyle).err().expect(text);
            let msg = format!("{e:#}");
            assert!(msg.contains("line") && msg.contains(want), "{text}: {msg}");
        }
        // Renju: h8 would make black two open threes (h7 h8 h9 and g8 h8 i8), forbidden.
        let foul = "h7a1h9c1g8e1i8g1,h8,0\n";
        let e = import_text(&[foul], Rule::Renju).err().expect("a foul");
        assert!(format!("{e:#}").contains("forbidden"), "{e:#}");
        assert!(import_text(&[foul], Rule::Freestyle).is_ok());
    }

    #[test]
    fn a_cut_off_last_line_is_skipped() {
        let text = "h8i9,i8,2\nh8i9i8,j9,0\nh8i9i8j9,j";
        let (records, _) = import_text(&[text], Rule::Freestyle).unwrap();
        assert_eq!(records.len(), 2);
    }

    /// Three games as c-gomoku-cli writes them (SGF squares are column then row letters,
    /// from a1 = aa at the top left): in the first, black (ff) makes five down column h
    /// while white (rapfi) builds column i; the second ended on time; the third is renju.
    const SGF: &str = "\
(;FF[4]GM[4]RU[0]SZ[15]PB[ff]PW[rapfi]RE[B+1]TE[Black win by five connection]
;B[hh]C[opening move];W[ih]C[opening move];B[hg]C[opening move]
;W[ig]C[5ms];B[hf]C[5ms];W[if]C[5ms];B[he]C[5ms];W[ie]C[5ms];B[hd]C[5ms])
(;FF[4]GM[4]RU[0]SZ[15]PB[rapfi]PW[ff]RE[W+1]TE[Black lose by time forfeit]
;B[hh]C[opening move];W[ih]C[opening move];B[hg])
(;FF[4]GM[4]RU[4]SZ[15]PB[rapfi]PW[ff]RE[W+1];B[hh];W[ih])
";

    /// The teacher's lines of the three games, all in the first: a score before moves 4
    /// and 6, a mate (no plain score) before move 8, and the other engine's line in between.
    const MESSAGES: &str = "\
Game ID: 1
Engines: ff x rapfi
4) rapfi: Speed 1K | Depth 5-5 | Eval 45 | Node 1K | Time 1ms
5) ff: depth 3-3 ev 300 n 500 pv h12
6) rapfi: Depth 4-4 | Eval 120 | Time 1ms
6) rapfi: Depth 5-5 | Eval -450 | Time 2ms
8) rapfi: Depth 3-3 | Eval -M3 | Time 0ms
Game ID: 2
Game ID: 3
";

    #[test]
    fn sgf_games_give_the_teachers_moves_with_its_scores() {
        let games = record::parse_sgf_games(SGF);
        let scores = record::match_scores(MESSAGES, "rapfi");
        let mut imp = Importer::new(Rule::Freestyle, 15).unwrap();
        let g = games[0].as_ref().unwrap();
        let records = imp
            .sgf_game(g, Some("rapfi"), &scores[0], TEACHER_SCALE)
            .unwrap()
            .unwrap();
        // White's moves 4, 6 and 8 (i7, i6, i5), after the three opening stones.
        let got: Vec<_> = records
            .iter()
            .map(|r| (r.game, r.ply, r.best, r.score, r.flags))
            .collect();
        let at = |y| Record::index_of(Pos::new(8, y), 15);
        assert_eq!(
            got,
            [
                (0, 3, at(6), 40, 0),
                (0, 5, at(5), -400, 0),
                // Black's open four h8-h5 forces the reply; the mate is no plain score.
                (0, 7, at(4), 0, flags::NO_SCORE | flags::FORCED),
            ]
        );
        for r in &records {
            assert_eq!((r.side_to_move, r.result), (Color::White, GameResult::Loss));
        }
        // Without a teacher, every move after the opening but black's five, unscored.
        let all = imp.sgf_game(g, None, &[], TEACHER_SCALE).unwrap().unwrap();
        assert_eq!(all.len(), 5);
        assert_eq!(imp.fives_skipped, 1);
        assert!(all
            .iter()
            .all(|r| r.game == 1 && r.flags & flags::NO_SCORE != 0));
        let black: Vec<_> = all
            .iter()
            .filter(|r| r.side_to_move == Color::Black)
            .collect();
        assert_eq!(black.len(), 2);
        assert!(black.iter().all(|r| r.result == GameResult::Win));
        // A game lost on time says nothing about its positions: skipped, no number.
        let lost = games[1].as_ref().unwrap();
        assert!(imp.sgf_game(lost, None, &[], 225.0).unwrap().is_none());
        assert_eq!(imp.games(), 2);
        // Another rule or size is an error, not a silent misreading.
        let renju = games[2].as_ref().unwrap();
        let e = imp.sgf_game(renju, None, &[], 225.0).unwrap_err();
        assert!(e.to_string().contains("renju"), "{e}");
        let mut imp20 = Importer::new(Rule::Freestyle, 20).unwrap();
        let e = imp20.sgf_game(g, None, &[], 225.0).unwrap_err();
        assert!(e.to_string().contains("15x15"), "{e}");
    }

    #[test]
    fn sgf_files_need_one_messages_file_each_and_legal_moves() {
        let dir = std::env::temp_dir().join(format!("fivefold-import-sgf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let f = dir.join(name);
            std::fs::write(&f, text).unwrap();
            f
        };
        let (sgf, msg) = (file("a.sgf", SGF), file("a.txt", MESSAGES));
        let bad = file("b.sgf", "(;FF[4]RU[0]SZ[15]RE[B+1];B[hh];W[hh])");
        let run = |files: &[PathBuf], messages: &[PathBuf]| {
            let mut imp = Importer::new(Rule::Freestyle, 15).unwrap();
            let mut w =
                Writer::new(Vec::new(), Header::new(Rule::Freestyle, 15, 15).unwrap()).unwrap();
            import_sgf(
                files,
                messages,
                Some("rapfi"),
                TEACHER_SCALE,
                Pick::All,
                &mut imp,
                &mut w,
            )
        };
        let renju = run(std::slice::from_ref(&sgf), std::slice::from_ref(&msg));
        let two = run(&[sgf.clone(), sgf.clone()], &[msg]);
        let occupied = run(std::slice::from_ref(&bad), &[]);
        let short = run(std::slice::from_ref(&sgf), &[file("c.txt", "Game ID: 1\n")]);
        std::fs::remove_dir_all(&dir).ok();
        // The first file's renju game stops the import, after the first game's records.
        let e = renju.unwrap_err();
        assert!(format!("{e:#}").contains("a.sgf game 3"), "{e:#}");
        assert!(format!("{:#}", two.unwrap_err()).contains("1 --messages files for 2"));
        let e = format!("{:#}", occupied.unwrap_err());
        assert!(e.contains("b.sgf game 1") && e.contains("occupied"), "{e}");
        // Scores for one game cannot be spread over three.
        let e = format!("{:#}", short.unwrap_err());
        assert!(
            e.contains("a.sgf has 3 games") && e.contains("c.txt has 1"),
            "{e}"
        );
    }

    #[test]
    fn games_are_picked_by_their_numbers_and_keep_their_scores() {
        let range = |from, to| GameRange { from, to };
        assert_eq!(GameRange::parse("301-420"), Ok(range(301, 420)));
        assert_eq!(GameRange::parse(" 7 "), Ok(range(7, 7)));
        for bad in ["0-3", "5-4", "a-b", "", "3-", "-3", "1-2-3"] {
            assert!(GameRange::parse(bad).is_err(), "'{bad}'");
        }
        // Four numbered games, the same moves; only game 3 has a score of the teacher's
        // (white, rapfi), before move 2.
        let game = |n: u64| {
            format!(
                "(;FF[4]GM[4]GN[{n}]RU[0]SZ[15]PB[ff]PW[rapfi]RE[B+1]\
                 ;B[hh]C[opening move];W[ih];B[hg];W[ig];B[hf])\n"
            )
        };
        let sgf: String = (1..=4).map(game).collect();
        let msg = "Game ID: 1\nGame ID: 2\nGame ID: 3\n2) rapfi: Depth 3-3 | Eval 45 | Time 1ms\nGame ID: 4\n";
        let dir = std::env::temp_dir().join(format!("fivefold-import-pick-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let f = dir.join(name);
            std::fs::write(&f, text).unwrap();
            f
        };
        let (sgf, msg) = (file("a.sgf", &sgf), file("a.txt", msg));
        let unnumbered = file("b.sgf", &game(1).replace("GN[1]", ""));
        let run = |sgf: &PathBuf, pick: Pick| {
            let mut imp = Importer::new(Rule::Freestyle, 15).unwrap();
            let mut w =
                Writer::new(Vec::new(), Header::new(Rule::Freestyle, 15, 15).unwrap()).unwrap();
            let messages = if sgf.ends_with("a.sgf") {
                vec![msg.clone()]
            } else {
                Vec::new()
            };
            import_sgf(
                std::slice::from_ref(sgf),
                &messages,
                Some("rapfi"),
                TEACHER_SCALE,
                pick,
                &mut imp,
                &mut w,
            )
        };
        let all = run(&sgf, Pick::All).unwrap();
        let only = run(&sgf, Pick::Only(range(3, 3))).unwrap();
        let except = run(&sgf, Pick::Except(range(3, 3))).unwrap();
        let wide = run(&sgf, Pick::Except(range(1, 9))).unwrap();
        let no_number = run(&unnumbered, Pick::Only(range(1, 2)));
        let no_number_all = run(&unnumbered, Pick::All).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        let counts = |games, not_picked, written, scored| SgfCounts {
            games,
            skipped: 0,
            not_picked,
            written,
            scored,
        };
        // White's two moves a game; game 3's score stays with game 3 however the games
        // are picked.
        assert_eq!(all, counts(4, 0, 8, 1));
        assert_eq!(only, counts(1, 3, 2, 1));
        assert_eq!(except, counts(3, 1, 6, 0));
        assert_eq!(wide, counts(0, 4, 0, 0));
        let e = format!("{:#}", no_number.unwrap_err());
        assert!(e.contains("b.sgf game 1") && e.contains("no number"), "{e}");
        assert_eq!(no_number_all, counts(1, 0, 2, 0));
    }
}
