//! The Gomocup (Piskvork) protocol's output: the engine's replies and messages as text,
//! and how squares, counts and sizes are named in them for the GUI in front ([`Names`]:
//! Yixin-Board's transposed squares).
//!
//! Everything here is pure: each function builds lines, and the session
//! ([`crate::gomocup::session`]) writes them.

use crate::analysis::{soosorv, swap2};
use crate::core::notation;
use crate::core::types::{format_score, is_mate, Pos, Score};
use crate::engine::search::Info;
use std::time::Duration;

/// Text quoted for Yixin-Board's `MESSAGE DATABASE TEXT` line: `"` and `\` escaped, line
/// breaks kept (Yixin-Board reads on to the closing quote).
pub fn quote_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text for one reply line: control characters (line breaks in an error's text, a path
/// with odd bytes) become `?`; nothing is cut, unlike [`crate::gomocup::command::clean`].
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// `1 position`, `3 positions`: a count and its word, for reply text.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Engine description for `ABOUT`. The optional fields are left out of the reply when
/// `None` rather than filled with a placeholder.
pub struct About {
    pub name: &'static str,
    pub version: &'static str,
    pub author: &'static str,
    pub country: Option<&'static str>,
    pub www: Option<&'static str>,
    pub email: Option<&'static str>,
}

/// What `ABOUT` reports. Change the values here only.
pub const ABOUT: About = About {
    name: "Fivefold",
    version: env!("CARGO_PKG_VERSION"),
    author: "Fivefold developers",
    country: None,
    www: None,
    email: None,
};

/// The `ABOUT` reply: `key="value"` pairs separated by `, `. Values never hold a comma, an
/// equals sign or a quote (managers split on them), so any such character is replaced.
pub fn about_line(a: &About) -> String {
    let v = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c == ',' || c == '=' || c == '"' || c.is_control() {
                    ' '
                } else {
                    c
                }
            })
            .collect()
    };
    let mut fields = vec![
        ("name", a.name),
        ("version", a.version),
        ("author", a.author),
    ];
    for (key, value) in [("country", a.country), ("www", a.www), ("email", a.email)] {
        if let Some(value) = value {
            fields.push((key, value));
        }
    }
    fields
        .iter()
        .map(|(key, value)| format!("{key}=\"{}\"", v(value)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A square as the protocol writes it: `x,y`.
pub fn move_line(p: Pos) -> String {
    notation::xy(p)
}

/// The `YXSHOWFORBID` reply: `FORBID` and two digits each for x and y of every forbidden
/// square, ending with `.` (`FORBID .` when there is none).
pub fn forbid_line(squares: &[Pos]) -> String {
    let mut s = String::from("FORBID ");
    for p in squares {
        s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
    }
    s.push('.');
    s
}

/// The lines Yixin-Board reads as the answer to its Swap2 step 1, 2 or 3 (squares as
/// `x y`, which it reads as its own row and column):
/// - step 1 (empty board): `MESSAGE SWAP2 MOVE1 x y`, `… MOVE2 x y`, `… MOVE3 x y`;
/// - step 2 (three stones): `MESSAGE SWAP2 SWAP1 YES` (we take black), `MESSAGE SWAP2
///   SWAP1 NO` (we stay white; the GUI then sends `BOARD` for the fourth stone), or
///   `MESSAGE SWAP2 MOVE4 x y` and `… MOVE5 x y` (two more stones; the GUI's player
///   chooses the colour);
/// - step 3 (five stones): `MESSAGE SWAP2 SWAP2 YES` (we take black) or `MESSAGE SWAP2
///   SWAP2 NO` (we take white; the GUI then sends `BOARD` for the sixth stone).
///
/// `None` for a decision that does not belong to the step.
pub fn swap2_step_lines(step: u8, reply: &swap2::Reply) -> Option<Vec<String>> {
    use swap2::Reply;
    let at = |k: u8, p: Pos| format!("MESSAGE SWAP2 MOVE{k} {} {}", p.x(), p.y());
    match (step, reply) {
        (1, Reply::Opening([a, b, c])) => Some(vec![at(1, *a), at(2, *b), at(3, *c)]),
        (2, Reply::Swap) => Some(vec!["MESSAGE SWAP2 SWAP1 YES".into()]),
        (2, Reply::Stone(_)) => Some(vec!["MESSAGE SWAP2 SWAP1 NO".into()]),
        (2, Reply::Two(a, b)) => Some(vec![at(4, *a), at(5, *b)]),
        (3, Reply::Swap) => Some(vec!["MESSAGE SWAP2 SWAP2 YES".into()]),
        (3, Reply::Stone(_)) => Some(vec!["MESSAGE SWAP2 SWAP2 NO".into()]),
        _ => None,
    }
}

/// The lines Yixin-Board reads as the answer to a Soosorv step (squares as `x y`, which
/// it reads as its own row and column):
/// - step 1: `MESSAGE SOOSORV MOVE1 x y`, `… MOVE2 x y`, `… MOVE3 x y`;
/// - step 2: `MESSAGE SOOSORV SWAP1 YES` or `… NO`; step 4: `MESSAGE SOOSORV SWAP2 YES` or
///   `… NO`;
/// - step 3: `MESSAGE SOOSORV MOVE4 x y n` (the fourth stone and the number of fifth moves);
/// - step 5: `MESSAGE SOOSORV MOVE5 REFRESH`, one `MESSAGE SOOSORV MOVE5 x y` per offered
///   fifth move, `MESSAGE SOOSORV MOVE5 DONE`;
/// - step 6: `MESSAGE SOOSORV MOVE5C x y` (the offer taken).
///
/// `None` for a decision that does not belong to the step.
pub fn soosorv_lines(step: u8, reply: &soosorv::Reply) -> Option<Vec<String>> {
    use soosorv::Reply;
    let xy = |p: Pos| format!("{} {}", p.x(), p.y());
    let yes = |b: bool| if b { "YES" } else { "NO" };
    match (step, reply) {
        (1, Reply::Opening(s)) => Some(
            s.iter()
                .enumerate()
                .map(|(k, &p)| format!("MESSAGE SOOSORV MOVE{} {}", k + 1, xy(p)))
                .collect(),
        ),
        (2, Reply::Swap(b)) => Some(vec![format!("MESSAGE SOOSORV SWAP1 {}", yes(*b))]),
        (4, Reply::Swap(b)) => Some(vec![format!("MESSAGE SOOSORV SWAP2 {}", yes(*b))]),
        (3, Reply::Fourth(p, n)) => Some(vec![format!("MESSAGE SOOSORV MOVE4 {} {n}", xy(*p))]),
        (5, Reply::Fifths(v)) => {
            let mut lines = vec!["MESSAGE SOOSORV MOVE5 REFRESH".to_string()];
            lines.extend(
                v.iter()
                    .map(|&p| format!("MESSAGE SOOSORV MOVE5 {}", xy(p))),
            );
            lines.push("MESSAGE SOOSORV MOVE5 DONE".into());
            Some(lines)
        }
        (6, Reply::Choose(p)) => Some(vec![format!("MESSAGE SOOSORV MOVE5C {}", xy(*p))]),
        _ => None,
    }
}

/// Counts as GUIs' log scrapers read them: `950`, `12K`, `1.2M`, `3.4G`.
fn fmt_count(n: u64) -> String {
    fn scaled(n: u64, unit: u64, suffix: &str) -> String {
        let v = n as f64 / unit as f64;
        if v < 10.0 {
            format!("{:.1}{suffix}", v)
        } else {
            format!("{:.0}{suffix}", v)
        }
    }
    if n < 10_000 {
        n.to_string()
    } else if n < 1_000_000 {
        scaled(n, 1_000, "K")
    } else if n < 1_000_000_000 {
        scaled(n, 1_000_000, "M")
    } else {
        scaled(n, 1_000_000_000, "G")
    }
}

/// How the human-readable output names squares (`h8`: a letter for the column, rows
/// counted up from the bottom), for a board of `width` x `height`.
///
/// Yixin-Board sends and reads every protocol square as `row,column` (its own `y,x`), so
/// the engine's `x,y` is the GUI's row and column: the stones land right, but a name made
/// from the engine's `x` as the column would name the mirrored square. With `transpose`
/// the names are those of the square the GUI means: the column letter from `y`, the row
/// number from `x`. Protocol replies (`x,y`) are never transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names {
    pub width: usize,
    pub height: usize,
    pub transpose: bool,
}

impl Names {
    /// Plain names (no transposition) on a `width` x `height` board.
    pub fn plain(width: usize, height: usize) -> Names {
        Names {
            width,
            height,
            transpose: false,
        }
    }

    /// The board's size as the GUI sees it, columns x rows (`20x15`): transposed, the
    /// engine's `x` (its width) counts the GUI's rows.
    pub fn size(&self) -> String {
        if self.transpose {
            format!("{}x{}", self.height, self.width)
        } else {
            format!("{}x{}", self.width, self.height)
        }
    }

    /// The name of a square.
    pub fn square(&self, p: Pos) -> String {
        if !self.transpose {
            return notation::square_name(p, self.height);
        }
        // The GUI's column is the engine's y, its row (from the top) the engine's x, and
        // it has as many rows as the engine's board is wide.
        let (col, row) = (p.y(), p.x());
        if col < 26 && row < self.width {
            format!("{}{}", (b'a' + col as u8) as char, self.width - row)
        } else {
            notation::xy(p)
        }
    }
}

/// A principal variation in `h8` notation, separated by spaces.
pub fn pv_text(pv: &[Pos], names: &Names) -> String {
    pv.iter()
        .map(|&p| names.square(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one progress message says: a depth's result, or one line of a multi-line analysis.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// 1-based line number for multi-line analysis (`None` for an ordinary search).
    pub multipv: Option<usize>,
    pub depth: i32,
    pub seldepth: i32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: &'a [Pos],
}

impl<'a> Progress<'a> {
    pub fn from_info(info: &'a Info) -> Progress<'a> {
        Progress {
            multipv: None,
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            elapsed: info.elapsed,
            pv: &info.pv,
        }
    }
    fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// The compact progress message log scrapers read:
/// `MESSAGE depth 9-14 ev 35 n 1.2M n/s 2.3M tm 800 pv h8 i9`
/// (`multipv 2` after `MESSAGE` for the second line of a multi-line analysis).
pub fn progress_line(p: &Progress, names: &Names) -> String {
    let mut s = String::from("MESSAGE ");
    if let Some(k) = p.multipv {
        s.push_str(&format!("multipv {k} "));
    }
    s.push_str(&format!(
        "depth {}-{} ev {} n {} n/s {} tm {} pv {}",
        p.depth,
        p.seldepth.max(p.depth),
        format_score(p.score),
        fmt_count(p.nodes),
        fmt_count(p.nps()),
        p.elapsed.as_millis(),
        pv_text(p.pv, names)
    ));
    s
}

/// The detail message for GUIs that show the engine's thinking (`INFO show_detail 1`):
/// `MESSAGE Depth 9-14 | Eval +M7 | Nodes 1.2M | Speed 2.3M | Time 800ms | PV h8 i9`.
pub fn detail_line(p: &Progress, names: &Names) -> String {
    let head = match p.multipv {
        Some(k) => format!("MESSAGE ({k}) "),
        None => "MESSAGE ".to_string(),
    };
    format!(
        "{head}Depth {}-{} | Eval {} | Nodes {} | Speed {}/s | Time {}ms | PV {}",
        p.depth,
        p.seldepth.max(p.depth),
        format_score(p.score),
        fmt_count(p.nodes),
        fmt_count(p.nps()),
        p.elapsed.as_millis(),
        pv_text(p.pv, names)
    )
}

/// Yixin-Board's realtime marker lines, squares as the protocol writes them (`x,y`,
/// which the GUI reads as its own row,column): `MESSAGE REALTIME BEST x,y` (the current
/// best move), `LOSE x,y` (a move proven to lose), `POS x,y` / `DONE x,y` (a move being
/// searched / searched: in a multi-line analysis per listed line, in a single search per
/// root move as the search enters and leaves it).
pub fn realtime_line(kind: Realtime, p: Pos) -> String {
    let word = match kind {
        Realtime::Best => "BEST",
        Realtime::Lose => "LOSE",
        Realtime::Pos => "POS",
        Realtime::Done => "DONE",
    };
    format!("MESSAGE REALTIME {word} {}", move_line(p))
}

/// The kinds of [`realtime_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    Best,
    Lose,
    Pos,
    Done,
}

/// `MESSAGE REALTIME REFRESH`: Yixin-Board forgets its searched-square markers.
pub const REALTIME_REFRESH: &str = "MESSAGE REALTIME REFRESH";

/// Yixin-Board's marker for the current best move: `MESSAGE REALTIME BEST x,y`.
pub fn realtime_best_line(p: Pos) -> String {
    realtime_line(Realtime::Best, p)
}

/// The estimated chance of winning for a score (for the side it is for), as the
/// classical evaluation's weights were fitted: `1 / (1 + e^(-score / 200))`
/// ([`crate::core::scale`]); 1 and 0 for a five found.
pub fn win_rate(score: Score) -> f64 {
    if is_mate(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    crate::core::scale::expected(score as f64)
}

/// The `INFO` lines Yixin-Board 3 reads for one line of analysis (`INFO show_detail` 2
/// or 3), from which it draws the evaluation or win-rate label on the line's first
/// square: `INFO PV k` (0-based), `INFO NUMPV n`, `INFO DEPTH d`, `INFO SELDEPTH s`,
/// `INFO NODES`, `INFO TOTALNODES`, `INFO TOTALTIME` (ms), `INFO SPEED` (nodes/s),
/// `INFO EVAL` (`+M7` / `-M7` for a five found, else the score), `INFO WINRATE`
/// (0 to 1), `INFO BESTLINE x,y x,y …` (protocol squares) and `INFO PV DONE`.
pub fn info_lines(index: usize, count: usize, p: &Progress) -> Vec<String> {
    let line =
        p.pv.iter()
            .map(|&q| move_line(q))
            .collect::<Vec<_>>()
            .join(" ");
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {count}"),
        format!("INFO DEPTH {}", p.depth),
        format!("INFO SELDEPTH {}", p.seldepth.max(p.depth)),
        format!("INFO NODES {}", p.nodes),
        format!("INFO TOTALNODES {}", p.nodes),
        format!("INFO TOTALTIME {}", p.elapsed.as_millis()),
        format!("INFO SPEED {}", p.nps()),
        format!("INFO EVAL {}", format_score(p.score)),
        format!("INFO WINRATE {:.4}", win_rate(p.score)),
        format!("INFO BESTLINE {line}"),
        "INFO PV DONE".to_string(),
    ]
}

/// A size in bytes as people read it: `512 KB`, `64 MB`, `2 GB`, `23.4 GB`.
pub fn fmt_bytes(bytes: usize) -> String {
    const KB: usize = 1 << 10;
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GB", bytes >> 30)
    } else if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{} KB", bytes.div_ceil(KB))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{mate_in, mated_in};
    use crate::gomocup::command::{parse, Command};

    #[test]
    fn about_has_no_separator_inside_values() {
        let a = About {
            name: "A,b",
            version: "1=2",
            author: "x\"y",
            country: Some("c"),
            www: None,
            email: Some("e"),
        };
        let line = about_line(&a);
        assert_eq!(
            line,
            "name=\"A b\", version=\"1 2\", author=\"x y\", country=\"c\", email=\"e\""
        );
        let line = about_line(&ABOUT);
        assert!(line.starts_with("name=\"Fivefold\", version=\""));
        assert!(!line.contains("\"-\""), "{line}");
    }

    #[test]
    fn formats() {
        assert_eq!(fmt_count(950), "950");
        assert_eq!(fmt_count(12_345), "12K");
        assert_eq!(fmt_count(1_234_567), "1.2M");
        assert_eq!(fmt_count(23_456_789), "23M");
        assert_eq!(fmt_count(3_400_000_000), "3.4G");
        assert_eq!(forbid_line(&[]), "FORBID .");
        assert_eq!(
            forbid_line(&[Pos::new(7, 3), Pos::new(10, 12)]),
            "FORBID 07031012."
        );
        let pv = [Pos::new(7, 7), Pos::new(8, 6)];
        let p = Progress {
            multipv: None,
            depth: 9,
            seldepth: 14,
            score: mate_in(7),
            nodes: 1_200_000,
            elapsed: Duration::from_millis(800),
            pv: &pv,
        };
        assert_eq!(
            progress_line(&p, &Names::plain(15, 15)),
            "MESSAGE depth 9-14 ev +M7 n 1.2M n/s 1.5M tm 800 pv h8 i9"
        );
        let q = Progress {
            multipv: Some(2),
            score: mated_in(4),
            ..p.clone()
        };
        assert_eq!(
            progress_line(&q, &Names::plain(15, 15)),
            "MESSAGE multipv 2 depth 9-14 ev -M4 n 1.2M n/s 1.5M tm 800 pv h8 i9"
        );
        assert_eq!(
            detail_line(&p, &Names::plain(15, 15)),
            "MESSAGE Depth 9-14 | Eval +M7 | Nodes 1.2M | Speed 1.5M/s | Time 800ms | PV h8 i9"
        );
        assert_eq!(
            realtime_best_line(Pos::new(7, 8)),
            "MESSAGE REALTIME BEST 7,8"
        );
    }

    #[test]
    fn transposed_names_are_the_squares_yixin_board_means() {
        // Yixin-Board sent `9,7` (its row 9 from the top, column 7): the stone stands on
        // H6 of its 15x15 board, which plain names call j8.
        let p = Pos::new(9, 7);
        assert_eq!(Names::plain(15, 15).square(p), "j8");
        let yx = Names {
            transpose: true,
            ..Names::plain(15, 15)
        };
        assert_eq!(yx.square(p), "h6");
        assert_eq!(yx.square(Pos::new(0, 0)), "a15");
        assert_eq!(yx.square(Pos::new(14, 0)), "a1");
        assert_eq!(pv_text(&[Pos::new(7, 7), p], &yx), "h8 h6");
        // Yixin-Board 2.1's 20 columns and 15 rows (`START 20 15`): 15 wide in the
        // engine's x (its rows), 20 tall in y (its columns, A to T).
        let rect = Names {
            width: 15,
            height: 20,
            transpose: true,
        };
        assert_eq!(rect.size(), "20x15");
        assert_eq!(rect.square(Pos::new(7, 19)), "t8");
        assert_eq!(rect.square(Pos::new(6, 10)), "k9");
        assert_eq!(Names::plain(20, 15).size(), "20x15");
    }

    #[test]
    fn yixin_board_realtime_and_info_lines() {
        assert_eq!(
            realtime_line(Realtime::Lose, Pos::new(3, 12)),
            "MESSAGE REALTIME LOSE 3,12"
        );
        assert_eq!(
            realtime_line(Realtime::Pos, Pos::new(1, 2)),
            "MESSAGE REALTIME POS 1,2"
        );
        assert_eq!(
            realtime_line(Realtime::Done, Pos::new(1, 2)),
            "MESSAGE REALTIME DONE 1,2"
        );
        let pv = [Pos::new(7, 7), Pos::new(8, 6)];
        let p = Progress {
            multipv: None,
            depth: 9,
            seldepth: 14,
            score: 0,
            nodes: 1_200_000,
            elapsed: Duration::from_millis(800),
            pv: &pv,
        };
        assert_eq!(
            info_lines(1, 3, &p),
            [
                "INFO PV 1",
                "INFO NUMPV 3",
                "INFO DEPTH 9",
                "INFO SELDEPTH 14",
                "INFO NODES 1200000",
                "INFO TOTALNODES 1200000",
                "INFO TOTALTIME 800",
                "INFO SPEED 1500000",
                "INFO EVAL 0",
                "INFO WINRATE 0.5000",
                "INFO BESTLINE 7,7 8,6",
                "INFO PV DONE",
            ]
        );
        assert!(win_rate(200) > 0.73 && win_rate(200) < 0.74);
        assert_eq!(win_rate(mate_in(3)), 1.0);
        assert_eq!(win_rate(mated_in(2)), 0.0);
    }

    #[test]
    fn yixin_board_analysis_and_opening_commands() {
        assert_eq!(parse("yxsearchdefend"), Command::SearchDefend);
        assert_eq!(parse("yxswap2step1"), Command::Swap2Step(1));
        assert_eq!(parse("yxswap2step2"), Command::Swap2Step(2));
        assert_eq!(parse("yxswap2step3"), Command::Swap2Step(3));
        assert_eq!(parse("yxshowhashusage"), Command::ShowHashUsage);
        assert_eq!(
            parse("yxbalanceone 0"),
            Command::Balance {
                two: false,
                bias: 0
            }
        );
        assert_eq!(
            parse("yxbalancetwo -30"),
            Command::Balance {
                two: true,
                bias: -30
            }
        );
        assert_eq!(
            parse("yxbalanceone"),
            Command::Balance {
                two: false,
                bias: 0
            }
        );
        assert!(matches!(parse("yxbalancetwo x"), Command::Malformed { .. }));
        assert_eq!(parse("yxsoosorvstep1"), Command::Soosorv { step: 1, n: 0 });
        assert_eq!(parse("yxsoosorvstep6"), Command::Soosorv { step: 6, n: 0 });
        assert_eq!(
            parse("yxsoosorvstep4 2"),
            Command::Soosorv { step: 4, n: 2 }
        );
        assert_eq!(
            parse("YXSOOSORVSTEP5 8"),
            Command::Soosorv { step: 5, n: 8 }
        );
        assert!(matches!(parse("yxsoosorvstep5"), Command::Malformed { .. }));
    }

    #[test]
    fn soosorv_answers_in_yixin_boards_form() {
        use soosorv::Reply;
        let p = Pos::new(6, 9);
        assert_eq!(
            soosorv_lines(3, &Reply::Fourth(p, 4)).unwrap(),
            ["MESSAGE SOOSORV MOVE4 6 9 4"]
        );
        assert_eq!(
            soosorv_lines(5, &Reply::Fifths(vec![p, Pos::new(1, 2)])).unwrap(),
            [
                "MESSAGE SOOSORV MOVE5 REFRESH",
                "MESSAGE SOOSORV MOVE5 6 9",
                "MESSAGE SOOSORV MOVE5 1 2",
                "MESSAGE SOOSORV MOVE5 DONE"
            ]
        );
        assert_eq!(
            soosorv_lines(6, &Reply::Choose(p)).unwrap(),
            ["MESSAGE SOOSORV MOVE5C 6 9"]
        );
        assert_eq!(
            soosorv_lines(2, &Reply::Swap(true)).unwrap(),
            ["MESSAGE SOOSORV SWAP1 YES"]
        );
        assert_eq!(
            soosorv_lines(4, &Reply::Swap(false)).unwrap(),
            ["MESSAGE SOOSORV SWAP2 NO"]
        );
        assert_eq!(soosorv_lines(4, &Reply::Choose(p)), None);
        assert_eq!(
            swap2_step_lines(2, &swap2::Reply::Two(p, Pos::new(1, 2))).unwrap(),
            ["MESSAGE SWAP2 MOVE4 6 9", "MESSAGE SWAP2 MOVE5 1 2"]
        );
        assert_eq!(swap2_step_lines(3, &swap2::Reply::Two(p, p)), None);
    }
}
