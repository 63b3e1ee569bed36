//! `fivefold-tools style`: what each player's moves make and what they take away, over
//! a file of recorded games (the SGF file c-gomoku-cli writes).
//!
//! Every move after the opening, up to a given number of stones on the board, is sorted
//! twice by the board's threat classes at its square before it is played: by what it
//! makes for the side that plays it (nothing, a two, two twos, a three, a four, a win)
//! and by what the opponent would have made there (so "takes nothing" is a move that
//! stands in the way of no shape of the opponent's). The shares are given per player and
//! colour, which is how two engines' styles on the same openings compare: for example
//! Fivefold's black moves against Rapfi's black moves in the same match.

use crate::cli::output::outln;
use crate::cli::position;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::record::{self, SgfGame};
use crate::core::types::{Color, Pos, Rule};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;

/// The groups of threat classes the report counts, in column order: nothing; a two
/// (an open two or a closed three); two twos (two open twos, or a closed three with an
/// open two or another closed three); a three (an open three, alone, with a lesser shape
/// or with a second open three); a four (alone or with a lesser shape); a win (a
/// four-three, an open four or a five).
pub const GROUPS: [&str; 6] = ["nothing", "two", "2x2", "three", "four", "win"];

/// The column of a threat class: what a stone there makes for the colour it is read for.
pub fn group(t: Threat) -> usize {
    match t {
        Threat::None | Threat::Forbidden => 0,
        Threat::OpenTwo | Threat::Three => 1,
        Threat::DoubleTwo | Threat::ThreeTwo => 2,
        Threat::OpenThree | Threat::OpenThreeTwo | Threat::DoubleThree => 3,
        Threat::Four | Threat::FourTwo => 4,
        Threat::FourThree | Threat::OpenFour | Threat::Five => 5,
    }
}

/// One player's moves with one colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub moves: u64,
    /// By what the move makes for its player, indexed like [`GROUPS`].
    pub makes: [u64; 6],
    /// By what the opponent would have made on the square.
    pub takes: [u64; 6],
}

/// Tallies per (player name, colour); players without a name are "black" and "white".
pub type Tallies = BTreeMap<(String, Color), Tally>;

/// Adds one game's moves after its opening, those played with fewer than `until` stones
/// on the board. Returns false (and adds nothing) if the game's moves are not legal
/// under `rule`.
fn add_game(t: &mut Tallies, g: &SgfGame, rule: Rule, until: usize) -> bool {
    let (w, h, ref squares) = g.record;
    let Ok(played) = position::board_from_moves(squares, w, h, rule) else {
        return false;
    };
    let Ok(mut b) = Board::new(w, h, rule) else {
        return false;
    };
    let moves: Vec<Pos> = played.history().iter().map(|m| m.pos).collect();
    for (i, &p) in moves.iter().enumerate() {
        let me = b.side_to_move();
        if i >= g.opening && i < until {
            let name = match me {
                Color::Black => g.black.clone().unwrap_or_else(|| "black".into()),
                Color::White => g.white.clone().unwrap_or_else(|| "white".into()),
            };
            let e = t.entry((name, me)).or_default();
            e.moves += 1;
            e.makes[group(b.threat(p, me))] += 1;
            e.takes[group(b.threat(p, me.opp()))] += 1;
        }
        b.make(p);
    }
    true
}

/// The report: a header and one line per player and colour, shares in percent.
pub fn report(t: &Tallies) -> String {
    let cols = GROUPS.map(|g| format!("{g:>8}")).join("");
    let mut out = format!(
        "{:<24} {:<6} {:>6}  makes{cols}  takes{cols}\n",
        "player", "colour", "moves"
    );
    for ((name, c), v) in t {
        let pct = |a: &[u64; 6]| {
            a.iter()
                .map(|&n| format!("{:>7.1}%", 100.0 * n as f64 / v.moves.max(1) as f64))
                .collect::<String>()
        };
        let colour = match c {
            Color::Black => "black",
            Color::White => "white",
        };
        out += &format!(
            "{name:<24} {colour:<6} {:>6}  {:5}{}  {:5}{}\n",
            v.moves,
            "",
            pct(&v.makes),
            "",
            pct(&v.takes)
        );
    }
    out
}

/// `style --sgf FILE[,FILE...] [--rule R] [--until N]`.
/// The command line of `style`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "\
Example:
  fivefold-tools style --sgf match/games.sgf --until 30")]
pub struct Options {
    /// SGF files of recorded games, separated by commas (c-gomoku-cli's -sgf output)
    #[arg(long, value_name = "FILE[,FILE...]", required = true)]
    pub sgf: String,
    /// Rule of every game [default: each game's own RU[], else freestyle]
    #[arg(long, value_name = "RULE", value_parser = crate::cli::args::rule)]
    pub rule: Option<Rule>,
    /// Count the moves up to this many stones on the board
    #[arg(long, value_name = "STONES", default_value_t = 20)]
    pub until: usize,
}

/// Runs `style`.
pub fn run(opts: &Options) -> Result<()> {
    let files = opts.sgf.as_str();
    let until = opts.until;
    let forced_rule = opts.rule;
    let mut t = Tallies::new();
    let (mut used, mut skipped) = (0, 0);
    for path in files.split(',') {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        for g in record::parse_sgf_games(&text) {
            let ok = g.is_ok_and(|g| {
                let rule = forced_rule.or(g.rule).unwrap_or(Rule::Freestyle);
                add_game(&mut t, &g, rule, until)
            });
            if ok {
                used += 1;
            } else {
                skipped += 1;
            }
        }
    }
    if used == 0 {
        bail!("no game could be read in {files} ({skipped} records found, none legal)");
    }
    outln!(
        "{used} games ({skipped} skipped); moves after the opening, up to {until} stones on the board"
    );
    for line in report(&t).lines() {
        outln!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black (A) opens with three stones in a row and white (B) answers: A's third stone
    /// makes an open three, B's blocks it.
    const GAME: &str = "(;FF[4]GM[4]SZ[15]RU[0]PB[A]PW[B]RE[B+1]\
        ;B[hh]C[opening move];W[ai]C[opening move]\
        ;B[ih];W[ao];B[jh];W[kh];B[oo])";

    fn tallies(text: &str, until: usize) -> Tallies {
        let mut t = Tallies::new();
        for g in record::parse_sgf_games(text) {
            assert!(add_game(&mut t, &g.unwrap(), Rule::Freestyle, until));
        }
        t
    }

    #[test]
    fn moves_are_sorted_by_what_they_make_and_take() {
        let t = tallies(GAME, 20);
        let a = &t[&("A".to_string(), Color::Black)];
        // i8 makes an open two, j8 an open three, o1 nothing; none takes anything.
        assert_eq!(a.moves, 3);
        assert_eq!(a.makes, [1, 1, 0, 1, 0, 0]);
        assert_eq!(a.takes, [3, 0, 0, 0, 0, 0]);
        let b = &t[&("B".to_string(), Color::White)];
        // a1 makes and takes nothing; k8 takes black's open four (a win).
        assert_eq!(b.moves, 2);
        assert_eq!(b.makes, [2, 0, 0, 0, 0, 0]);
        assert_eq!(b.takes, [1, 0, 0, 0, 0, 1]);
    }

    #[test]
    fn the_opening_and_late_moves_are_left_out() {
        // Up to 4 stones: only i8 (the 3rd stone) and a1 (the 4th) count.
        let t = tallies(GAME, 4);
        assert_eq!(t[&("A".to_string(), Color::Black)].moves, 1);
        assert_eq!(t[&("B".to_string(), Color::White)].moves, 1);
        let r = report(&t);
        assert!(r.lines().nth(1).unwrap().starts_with("A "), "{r}");
        assert!(r.contains("100.0%"), "{r}");
    }
}
