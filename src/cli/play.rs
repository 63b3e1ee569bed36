//! `pbrain-fivefold play`: a person against the engine in the terminal.
//!
//! Commands are read line by line from standard input, so the same session works typed
//! at a terminal or piped from a script; when the input is not a terminal each command is
//! echoed after the prompt, so the output reads like a typed session. Nothing a person
//! types ends the session except `quit` and the end of the input: a bad move or command
//! gets a message saying what is wrong, and the game goes on.

use crate::cli::args::{self, ThreadsArgs};
use crate::cli::display::{self, View};
use crate::cli::position::{self, PositionArgs};
use crate::cli::term::{self, AnsiArgs};
use crate::core::board::Board;
use crate::core::notation::{parse_square, square_name};
use crate::core::record;
use crate::core::rng::{Rng, SplitMix64};
use crate::core::rules::{self, GameEnd};
use crate::core::types::{format_score, Color, Pos};
use crate::engine::search::{Info, Limits, SearchResult};
use crate::engine::time::{self, Clock};
use crate::engine::Engine;
use anyhow::Result;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

/// Which colour the person plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Fixed(Color),
    Random,
}

impl Choice {
    pub fn parse(s: &str) -> Option<Choice> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Some(Choice::Fixed(Color::Black)),
            "white" | "w" | "o" => Some(Choice::Fixed(Color::White)),
            "random" | "r" | "?" => Some(Choice::Random),
            _ => None,
        }
    }
}

/// Everything the command line decides, checked and resolved (defaults filled in, the
/// starting position read).
pub struct Settings {
    /// The starting position (empty unless `--moves` or `--file` gave one).
    pub start: Board,
    pub choice: Choice,
    pub seed: u64,
    /// Thinking time per engine move.
    pub time: Option<Duration>,
    /// Deepest search per engine move.
    pub depth: Option<i32>,
    pub hash_mb: usize,
    pub threads: usize,
    /// ANSI colours on the board.
    pub ansi: bool,
    /// Progress on one rewritten line (standard output is a terminal).
    pub live: bool,
    /// Echo each command after the prompt (standard input is not a terminal).
    pub echo: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Five(Color, Vec<Pos>),
    Resigned(Color),
    Full,
    NoLegalMove(Color),
}

/// The command line of `play`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Examples:
  pbrain-fivefold play --rule renju --time 5
  pbrain-fivefold play --color white --moves \"h8 i9\" --depth 6

Type moves (h8, or 7,7) and commands (undo, hint, resign, new, save FILE, board, help,
quit) at the prompt.")]
pub struct Options {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Your colour: black, white or random
    #[arg(long, visible_alias = "colour", value_name = "COLOUR", default_value = "black", value_parser = colour)]
    pub color: Choice,
    /// Seed for --color random (the same seed picks the same colour) [default: the clock]
    #[arg(long, value_name = "N", value_parser = args::count)]
    pub seed: Option<u64>,
    /// Engine's thinking time per move in seconds [default: 2 unless --depth is given]
    #[arg(long, value_name = "SECONDS", value_parser = args::seconds, allow_negative_numbers = true)]
    pub time: Option<Duration>,
    /// Engine's search depth limit in plies (no time limit unless --time is given)
    #[arg(long, value_name = "PLIES", value_parser = args::depth, allow_negative_numbers = true)]
    pub depth: Option<i32>,
    /// Transposition table size in megabytes
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = args::hash_mb)]
    pub hash: usize,
    #[command(flatten)]
    pub threads: ThreadsArgs,
    #[command(flatten)]
    pub ansi: AnsiArgs,
}

fn colour(s: &str) -> std::result::Result<Choice, String> {
    Choice::parse(s).ok_or_else(|| "expected black, white or random".to_string())
}

const HELP: &str = "\
Commands:
  h8  or  7,7     play a move: letter across and row number up, or x,y counted from the top left
  undo            take back your last move (and the engine's reply)
  hint            the engine's suggestion for you, with its score
  resign          give up this game
  new [COLOUR]    start again from the first position; COLOUR is black, white or random
  save FILE       save the game: FILE.psq (Piskvork) or FILE.sgf
  board           show the board again
  help            this list
  quit            leave (the end of the input does too)
Board: X black, O white, [ ] around the last move, ! a square forbidden for black (renju).
Scores are from the side named: +M5 means that side makes five in 5 plies, -M5 the opponent.
";

impl Options {
    /// The settings of a game: the starting position read, the defaults filled in.
    pub fn settings(&self) -> Result<Settings> {
        let start = position::position(&self.position)?;
        let seed = self.seed.unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ (std::process::id() as u64) << 32
        });
        let time = match self.time {
            Some(t) => Some(t),
            None if self.depth.is_none() => Some(Duration::from_secs(2)),
            None => None,
        };
        Ok(Settings {
            start,
            choice: self.color,
            seed,
            time,
            depth: self.depth,
            hash_mb: self.hash,
            threads: self.threads.threads,
            ansi: self.ansi.enabled(),
            live: std::io::stdout().is_terminal(),
            echo: !std::io::stdin().is_terminal(),
        })
    }
}

/// Runs `play` on standard input and output.
pub fn run(opts: &Options) -> Result<()> {
    let settings = opts.settings()?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut session = Session::new(settings, std::io::stdout().lock());
    session.run(&mut input)
}

/// A game session writing to `out`.
pub struct Session<W: Write> {
    out: W,
    board: Board,
    start: Board,
    human: Color,
    choice: Choice,
    rng: SplitMix64,
    engine: Engine,
    time: Option<Duration>,
    depth: Option<i32>,
    resigned: Option<Color>,
    ansi: bool,
    live: bool,
    echo: bool,
}

enum Flow {
    Continue,
    Quit,
}

impl<W: Write> Session<W> {
    pub fn new(opts: Settings, out: W) -> Session<W> {
        let mut engine = Engine::new(opts.hash_mb << 20);
        engine.set_threads(opts.threads);
        let mut s = Session {
            out,
            board: opts.start.clone(),
            start: opts.start,
            human: Color::Black,
            choice: opts.choice,
            rng: SplitMix64::new(opts.seed),
            engine,
            time: opts.time,
            depth: opts.depth,
            resigned: None,
            ansi: opts.ansi,
            live: opts.live,
            echo: opts.echo,
        };
        s.human = s.pick(s.choice);
        s
    }

    fn pick(&mut self, choice: Choice) -> Color {
        match choice {
            Choice::Fixed(c) => c,
            Choice::Random => {
                if self.rng.next_u64() & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            }
        }
    }

    /// The colour the person plays.
    pub fn human(&self) -> Color {
        self.human
    }

    /// The game's end, if it has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(c) = self.resigned {
            return Some(Outcome::Resigned(c));
        }
        rules::game_end(&self.board).map(|end| match end {
            GameEnd::Five(c, line) => Outcome::Five(c, line),
            GameEnd::Full => Outcome::Full,
            GameEnd::NoLegalMove(c) => Outcome::NoLegalMove(c),
        })
    }

    /// Reads and carries out commands until `quit` or the end of the input, letting the
    /// engine move whenever it is its turn.
    pub fn run(&mut self, input: &mut dyn BufRead) -> Result<()> {
        self.intro()?;
        if self.board.side_to_move() == self.human || self.outcome().is_some() {
            self.show_board()?;
            if self.outcome().is_some() {
                self.announce()?;
            }
        }
        let mut line = Vec::new();
        loop {
            if self.outcome().is_none() && self.board.side_to_move() != self.human {
                self.engine_move()?;
                continue;
            }
            let prompt = if self.outcome().is_some() {
                "Game over> ".to_string()
            } else {
                format!("You ({})> ", self.human.name())
            };
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                writeln!(self.out)?;
                break;
            }
            let text = String::from_utf8_lossy(&line).trim().to_string();
            if self.echo {
                writeln!(self.out, "{text}")?;
            }
            if let Flow::Quit = self.command(&text)? {
                break;
            }
        }
        writeln!(self.out, "Goodbye.")?;
        self.out.flush()?;
        Ok(())
    }

    fn command(&mut self, text: &str) -> Result<Flow> {
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(Flow::Quit),
            "help" | "?" => write!(self.out, "{HELP}")?,
            "board" | "show" => self.show_board()?,
            "undo" | "u" => self.undo()?,
            "hint" => self.hint()?,
            "resign" => self.resign()?,
            "new" => self.new_game(rest)?,
            "save" => self.save(rest)?,
            w if looks_like_square(w) && rest.is_empty() => self.human_move(w)?,
            _ => writeln!(
                self.out,
                "Unknown command '{text}'. Type a move such as h8 or 7,7, or help for the commands."
            )?,
        }
        Ok(Flow::Continue)
    }

    fn intro(&mut self) -> Result<()> {
        let b = &self.board;
        let limit = match (self.time, self.depth) {
            (Some(t), Some(d)) => format!("{} s or depth {d} per move", trim_secs(t)),
            (Some(t), None) => format!("{} s per move", trim_secs(t)),
            (None, Some(d)) => format!("depth {d} per move"),
            (None, None) => "no limit".into(),
        };
        writeln!(
            self.out,
            "Fivefold {}: {} on {}x{}. You play {}{}, Fivefold plays {} ({limit}).",
            env!("CARGO_PKG_VERSION"),
            b.rule().name(),
            b.width(),
            b.height(),
            self.human.name(),
            if self.choice == Choice::Random {
                " (drawn at random)"
            } else {
                ""
            },
            self.human.opp().name(),
        )?;
        writeln!(
            self.out,
            "Enter moves as h8 or x,y. Type help for the commands."
        )?;
        Ok(())
    }

    fn show_board(&mut self) -> Result<()> {
        let view = View::of(&self.board, self.ansi);
        write!(self.out, "{}", display::render(&self.board, &view))?;
        if !view.forbidden.is_empty() {
            writeln!(
                self.out,
                "Forbidden for black (marked {}): {}",
                display::FORBIDDEN,
                display::names(&self.board, &view.forbidden)
            )?;
        }
        Ok(())
    }

    fn announce(&mut self) -> Result<()> {
        let Some(outcome) = self.outcome() else {
            return Ok(());
        };
        let text = match outcome {
            Outcome::Five(c, line) => format!(
                "{} wins with five in a row: {}. {}",
                display::title(c),
                display::names(&self.board, &line),
                if c == self.human {
                    "You win!"
                } else {
                    "Fivefold wins."
                }
            ),
            Outcome::Resigned(c) if c == self.human => {
                format!("You resign. {} wins.", display::title(c.opp()))
            }
            Outcome::Resigned(c) => format!("Fivefold resigns. {} wins.", display::title(c.opp())),
            Outcome::Full => "The board is full: the game is a draw.".into(),
            Outcome::NoLegalMove(c) => {
                format!(
                    "{} has no legal move left (every empty square is a foul): the game is a draw.",
                    display::title(c)
                )
            }
        };
        writeln!(self.out, "{text}")?;
        writeln!(
            self.out,
            "Type new for another game, undo to take back, save FILE to keep the game, or quit."
        )?;
        Ok(())
    }

    fn limits(&self) -> Limits {
        let empties = self.board.width() * self.board.height() - self.board.move_count();
        let budget = self.time.map(|t| {
            let clock = Clock {
                turn_ms: t.as_millis().min(u64::MAX as u128) as u64,
                match_ms: 0,
                left_ms: None,
            };
            time::budget(&clock, empties, time::MOVE_OVERHEAD_MS)
        });
        Limits {
            max_depth: self.depth,
            max_nodes: None,
            budget,
            skip_threats: false,
        }
    }

    /// Searches the current position, showing the depth and best move as it deepens: on
    /// one rewritten line at a terminal, otherwise as `depth:move` steps on one line.
    fn think(&mut self, label: &str) -> Result<SearchResult> {
        let limits = self.limits();
        let (live, height) = (self.live, self.board.height());
        if !live {
            write!(self.out, "{label}:")?;
            self.out.flush()?;
        }
        let out = &mut self.out;
        let r = self.engine.think(
            &self.board,
            &limits,
            &crate::engine::StopToken::new(),
            &mut |i: &Info| {
                let best =
                    i.pv.first()
                        .map_or("-".to_string(), |&p| display::name(p, height));
                let _ = if live {
                    write!(
                        out,
                        "{}{label}: depth {}  best {}  score {}  {} nodes  {:.1} s",
                        term::CLEAR_LINE,
                        i.depth,
                        best,
                        format_score(i.score),
                        i.nodes,
                        i.elapsed.as_secs_f64()
                    )
                } else {
                    write!(out, " {}:{}", i.depth, best)
                };
                let _ = out.flush();
            },
        );
        if live {
            write!(self.out, "{}", term::CLEAR_LINE)?;
        } else {
            writeln!(self.out)?;
        }
        Ok(r)
    }

    /// A legal move from a search result: its best move, or any legal square if the
    /// search had none (renju black left with only fouls near the stones).
    fn legal_choice(&mut self, r: &SearchResult) -> Option<Pos> {
        if !r.best.is_none() && rules::is_legal(&mut self.board, r.best) {
            return Some(r.best);
        }
        let squares: Vec<Pos> = self.board.squares().collect();
        squares
            .into_iter()
            .find(|&p| rules::is_legal(&mut self.board, p))
    }

    fn engine_move(&mut self) -> Result<()> {
        let c = self.board.side_to_move();
        let r = self.think("Fivefold thinks")?;
        let Some(mv) = self.legal_choice(&r) else {
            // `outcome` says the side to move has a legal move, so this cannot happen;
            // resigning keeps the session consistent if it ever does.
            self.resigned = Some(c);
            return self.announce();
        };
        self.board.make(mv);
        writeln!(
            self.out,
            "Fivefold ({}) plays {}   [depth {}, eval {}, {:.1} s]",
            c.name(),
            square_name(mv, self.board.height()),
            r.depth,
            format_score(r.score),
            r.elapsed.as_secs_f64()
        )?;
        self.show_board()?;
        self.announce()
    }

    fn game_over_note(&mut self) -> Result<()> {
        writeln!(
            self.out,
            "The game is over. Type new for another game, undo to take back, save FILE, or quit."
        )?;
        Ok(())
    }

    fn human_move(&mut self, text: &str) -> Result<()> {
        if self.outcome().is_some() {
            return self.game_over_note();
        }
        let (w, h) = (self.board.width(), self.board.height());
        let p = match parse_square(text, w, h) {
            Ok((x, y)) => Pos::new(x, y),
            Err(e) => {
                writeln!(self.out, "Illegal move: {e}.")?;
                return Ok(());
            }
        };
        let name = square_name(p, h);
        if let Some(c) = self.board.stone(p) {
            writeln!(
                self.out,
                "Illegal move: {name} is already taken by a {} stone.",
                c.name()
            )?;
            return Ok(());
        }
        if self.board.side_to_move() == Color::Black {
            if let Some(reason) = rules::foul(&mut self.board, p) {
                writeln!(
                    self.out,
                    "Illegal move: {name} is forbidden for black under renju ({reason})."
                )?;
                return Ok(());
            }
        }
        self.board.make(p);
        writeln!(self.out, "You play {name}.")?;
        if self.outcome().is_some() {
            self.show_board()?;
            self.announce()?;
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<()> {
        let human = self.human;
        if !self.board.history().iter().any(|m| m.color == human) {
            writeln!(self.out, "Nothing to undo: you have not moved yet.")?;
            return Ok(());
        }
        let mut taken = Vec::new();
        while let Some(m) = self.board.history().last().copied() {
            self.board.unmake();
            taken.push(m.pos);
            if m.color == human {
                break;
            }
        }
        self.resigned = None;
        taken.reverse();
        writeln!(
            self.out,
            "Took back {}.",
            display::names(&self.board, &taken)
        )?;
        self.show_board()
    }

    fn hint(&mut self) -> Result<()> {
        if self.outcome().is_some() {
            return self.game_over_note();
        }
        let r = self.think("Looking for a hint")?;
        let Some(mv) = self.legal_choice(&r) else {
            return Ok(());
        };
        let h = self.board.height();
        let line: Vec<String> = r.pv.iter().map(|&p| display::name(p, h)).collect();
        writeln!(
            self.out,
            "Hint: {} (eval {} for {}, depth {}). Line: {}",
            square_name(mv, h),
            format_score(r.score),
            self.human.name(),
            r.depth,
            if r.best == mv {
                line.join(" ")
            } else {
                square_name(mv, h)
            }
        )?;
        Ok(())
    }

    fn resign(&mut self) -> Result<()> {
        if self.outcome().is_some() {
            return self.game_over_note();
        }
        self.resigned = Some(self.human);
        self.announce()
    }

    fn new_game(&mut self, rest: &str) -> Result<()> {
        let choice = if rest.is_empty() {
            self.choice
        } else {
            match Choice::parse(rest) {
                Some(c) => c,
                None => {
                    writeln!(
                        self.out,
                        "new: expected black, white or random, got '{rest}'."
                    )?;
                    return Ok(());
                }
            }
        };
        self.choice = choice;
        self.human = self.pick(choice);
        self.board = self.start.clone();
        self.resigned = None;
        self.engine.clear_hash();
        writeln!(self.out, "New game.")?;
        self.intro()?;
        if self.board.side_to_move() == self.human {
            self.show_board()?;
        }
        Ok(())
    }

    fn save(&mut self, path: &str) -> Result<()> {
        let lower = path.to_ascii_lowercase();
        let text = if lower.ends_with(".psq") {
            record::write_psq(&self.board)
        } else if lower.ends_with(".sgf") {
            let result = match self.outcome() {
                Some(Outcome::Five(c, _)) => Some(if c == Color::Black { "B+" } else { "W+" }),
                Some(Outcome::Resigned(c)) => Some(if c == Color::Black { "W+R" } else { "B+R" }),
                Some(Outcome::Full | Outcome::NoLegalMove(_)) => Some("Draw"),
                None => None,
            };
            record::write_sgf(&self.board, result)
        } else {
            writeln!(
                self.out,
                "save: give a file name ending in .psq (Piskvork) or .sgf, e.g. save game.psq"
            )?;
            return Ok(());
        };
        match std::fs::write(path, text) {
            Ok(()) => writeln!(
                self.out,
                "Saved the game ({} moves) to {path}.",
                self.board.move_count()
            )?,
            Err(e) => writeln!(self.out, "Could not save to {path}: {e}.")?,
        }
        Ok(())
    }
}

/// Whether a word is meant as a square: `x,y`, or a letter followed by a number.
fn looks_like_square(w: &str) -> bool {
    if w.contains(',') {
        return true;
    }
    let mut chars = w.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && !chars.as_str().is_empty()
        && chars
            .as_str()
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-')
}

fn trim_secs(t: Duration) -> String {
    let s = format!("{:.2}", t.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::Rule;

    fn session(moves: &str, rule: Rule, choice: Choice) -> Session<Vec<u8>> {
        let list = crate::core::notation::parse_moves(moves, 15, 15).unwrap();
        let start = position::board_from_moves(&list, 15, 15, rule).unwrap();
        let opts = Settings {
            start,
            choice,
            seed: 1,
            time: None,
            depth: Some(2),
            hash_mb: 1,
            threads: 1,
            ansi: false,
            live: false,
            echo: true,
        };
        Session::new(opts, Vec::new())
    }

    fn play(s: &mut Session<Vec<u8>>, script: &str) -> String {
        s.run(&mut script.as_bytes()).unwrap();
        String::from_utf8(std::mem::take(&mut s.out)).unwrap()
    }

    #[test]
    fn squares_and_commands_are_told_apart() {
        assert!(looks_like_square("h8"));
        assert!(looks_like_square("7,7"));
        assert!(looks_like_square("z99"));
        assert!(!looks_like_square("hello"));
        assert!(!looks_like_square("h"));
        assert_eq!(trim_secs(Duration::from_millis(2000)), "2");
        assert_eq!(trim_secs(Duration::from_millis(250)), "0.25");
    }

    #[test]
    fn random_colour_follows_the_seed() {
        let a: Vec<Color> = (0..8)
            .map(|_| session("", Rule::Freestyle, Choice::Random).human())
            .collect();
        assert!(a.iter().all(|&c| c == a[0]));
        let mut s = session("", Rule::Freestyle, Choice::Random);
        let both = (0..16).map(|_| s.pick(Choice::Random)).collect::<Vec<_>>();
        assert!(both.contains(&Color::Black) && both.contains(&Color::White));
    }

    #[test]
    fn undo_takes_back_to_the_persons_turn() {
        let mut s = session("", Rule::Freestyle, Choice::Fixed(Color::Black));
        let text = play(&mut s, "h8\nundo\nundo\n");
        assert!(text.contains("You play h8."));
        assert!(text.contains("Took back "));
        assert!(text.contains("Nothing to undo"));
        assert_eq!(s.board.move_count(), 0);
    }

    #[test]
    fn invalid_utf8_and_garbage_do_not_stop_the_session() {
        let mut s = session("", Rule::Freestyle, Choice::Fixed(Color::Black));
        s.run(&mut &b"\xff\xfe\nfoo bar\n,\n99,99\nh8\n"[..])
            .unwrap();
        let text = String::from_utf8(std::mem::take(&mut s.out)).unwrap();
        assert!(text.contains("Unknown command"));
        assert!(text.contains("Illegal move: ',' is not a square"));
        assert!(text.contains("Illegal move: '99,99' is outside the 15x15 board."));
        assert!(text.contains("You play h8."));
        assert!(text.trim_end().ends_with("Goodbye."));
    }

    #[test]
    fn sgf_result_after_resigning() {
        let dir = std::env::temp_dir().join(format!("fivefold-play-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.sgf");
        let mut s = session("", Rule::Freestyle, Choice::Fixed(Color::Black));
        let text = play(
            &mut s,
            &format!("h8\nresign\nh9\nsave {}\n", path.display()),
        );
        assert!(text.contains("You resign. White wins."));
        assert!(text.contains("The game is over."));
        let sgf = std::fs::read_to_string(&path).unwrap();
        assert!(sgf.contains("RE[W+R]"));
        let (_, _, moves) = record::parse_sgf(&sgf).unwrap();
        assert_eq!(moves.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
