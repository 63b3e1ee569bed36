//! Yixin-Board's `yxprintfeature` (*print features* in its command box): the evaluation's
//! view of a position as a handful of `MESSAGE features: …` lines, which the GUI shows in
//! its log.
//!
//! - the position: rule, size, stones, the side to move;
//! - the classical static evaluation for the side to move ([`crate::core::eval`]);
//! - where a network plays the rule ([`crate::nn::net::available`]), its value for the
//!   side to move (score, win, draw and loss) and its five most likely moves with their
//!   share of the policy over the legal squares, and whether the search uses it
//!   (`INFO use_net`);
//! - per colour, the squares where a move makes a five (that colour has a four on the
//!   board), an open four (it has an open three), a four-three, or a four, as the board's
//!   threat classes give them (renju black's fouls left out);
//! - under renju, black's forbidden squares ([`crate::core::rules::forbidden_squares`]).
//!
//! Squares are named as the session names them for the GUI ([`Names`]).

use crate::core::board::Board;
use crate::core::eval;
use crate::core::pattern::Threat;
use crate::core::rules;
use crate::core::types::{format_score, Color, Pos, Rule};
use crate::engine::search::Params;
use crate::gomocup::reply::{pv_text, Names};
use crate::nn::Evaluator;

/// Most policy moves listed.
const POLICY_MOVES: usize = 5;

/// The threat classes listed per colour, strongest first, with what a move there makes.
const LISTED: [(&str, &[Threat]); 4] = [
    ("five", &[Threat::Five]),
    ("open four", &[Threat::OpenFour]),
    ("four-three", &[Threat::FourThree]),
    ("four", &[Threat::Four, Threat::FourTwo]),
];

/// The `MESSAGE features: …` lines for `board` (the side to move as the board has it);
/// `walls` are squares nobody may play (continuous-game marks), `params` the search's
/// (for `INFO use_net`).
pub fn lines(board: &Board, walls: &[Pos], names: &Names, params: &Params) -> Vec<String> {
    let mut b = board.clone();
    let side = b.side_to_move();
    let mut out = Vec::new();
    let say = |s: String| format!("MESSAGE features: {s}");
    out.push(say(format!(
        "{} {}x{}, {} stones, {} to move",
        b.rule().name(),
        b.width(),
        b.height(),
        b.move_count(),
        side.name()
    )));
    out.push(say(format!(
        "classical evaluation {} for {}",
        format_score(eval::evaluate(&b)),
        side.name()
    )));
    let free: Vec<Pos> = b
        .squares()
        .filter(|&p| b.is_empty(p) && !walls.contains(&p))
        .collect();
    let legal: Vec<Pos> = free
        .iter()
        .copied()
        .filter(|&p| rules::is_legal(&mut b, p))
        .collect();
    let net = crate::nn::net::pick(crate::nn::net::available(), b.rule(), b.width(), b.height());
    match net {
        Some(net) => {
            let mut e = Evaluator::new(net.clone());
            let v = e.evaluate(&b);
            e.prepare_policy(&b);
            let logits: Vec<(Pos, f32)> = legal
                .iter()
                .filter_map(|&p| e.policy(&b, p).map(|l| (p, l)))
                .collect();
            let top = logits.iter().map(|x| x.1).fold(f32::NEG_INFINITY, f32::max);
            let total: f32 = logits.iter().map(|x| (x.1 - top).exp()).sum();
            let mut ranked: Vec<(Pos, f32)> = logits
                .iter()
                .map(|&(p, l)| (p, (l - top).exp() / total))
                .collect();
            // Highest share first, ties by square index.
            ranked.sort_by(|a, c| c.1.total_cmp(&a.1).then(a.0.idx().cmp(&c.0.idx())));
            let policy = ranked
                .iter()
                .take(POLICY_MOVES)
                .map(|(p, s)| format!("{} {:.0}%", names.square(*p), s * 100.0))
                .collect::<Vec<_>>()
                .join(", ");
            out.push(say(format!(
                "network value {} for {} (win {:.1}%, draw {:.1}%, loss {:.1}%), {} by the search (INFO use_net {})",
                format_score(v.score),
                side.name(),
                v.wdl[0] * 100.0,
                v.wdl[1] * 100.0,
                v.wdl[2] * 100.0,
                match params.net_mode(b.rule(), b.width(), b.height()) {
                    0 => "not used",
                    1 => "used",
                    _ => "its policy used",
                },
                params.use_net
            )));
            out.push(say(format!(
                "network policy: {}",
                if policy.is_empty() {
                    "no legal move"
                } else {
                    &policy
                }
            )));
        }
        None => out.push(say(format!("no network for {}", b.rule().name()))),
    }
    for c in [side, side.opp()] {
        let mut parts = Vec::new();
        for (what, classes) in LISTED {
            let mut squares: Vec<Pos> = free
                .iter()
                .copied()
                .filter(|&p| classes.contains(&b.threat(p, c)))
                .collect();
            if c == Color::Black {
                squares.retain(|&p| !rules::is_forbidden(&mut b, p));
            }
            if !squares.is_empty() {
                parts.push(format!("{what} at {}", pv_text(&squares, names)));
            }
        }
        let text = if parts.is_empty() {
            "no four or open three to make".to_string()
        } else {
            parts.join("; ")
        };
        out.push(say(format!("{} threats: {text}", c.name())));
    }
    if b.rule() == Rule::Renju {
        let forbidden: Vec<Pos> = rules::forbidden_squares(&mut b)
            .into_iter()
            .filter(|p| !walls.contains(p))
            .collect();
        out.push(say(if forbidden.is_empty() {
            "forbidden for black: none".to_string()
        } else {
            format!("forbidden for black: {}", pv_text(&forbidden, names))
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_three_and_a_foul() {
        // Black's open three on row 7 (x 7..9 at y 7), white to move.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (3, 3), (8, 7), (3, 11), (9, 7)] {
            b.make(Pos::new(x, y));
        }
        let names = Names::plain(15, 15);
        let l = lines(&b, &[], &names, &Params::classical());
        assert_eq!(
            l[0],
            "MESSAGE features: freestyle 15x15, 5 stones, white to move"
        );
        assert!(
            l[1].starts_with("MESSAGE features: classical evaluation -"),
            "{l:?}"
        );
        assert!(
            l[2].contains("not used by the search (INFO use_net 0)"),
            "{l:?}"
        );
        // By default the search uses the network on 15x15 (here freestyle).
        let d = lines(&b, &[], &names, &Params::default());
        assert!(
            d[2].ends_with(", used by the search (INFO use_net -1)"),
            "{d:?}"
        );
        assert!(
            l[3].starts_with("MESSAGE features: network policy: "),
            "{l:?}"
        );
        assert_eq!(
            l[4],
            "MESSAGE features: white threats: no four or open three to make"
        );
        assert_eq!(
            l[5],
            "MESSAGE features: black threats: open four at g8 k8; four at f8 l8"
        );
        assert_eq!(l.len(), 6);
        // Caro has no network; renju lists black's fouls.
        let mut c = Board::new(15, 15, Rule::Caro).unwrap();
        c.make(Pos::new(7, 7));
        assert!(lines(&c, &[], &names, &Params::default())
            .contains(&"MESSAGE features: no network for caro".to_string()));
        let mut r = Board::new(15, 15, Rule::Renju).unwrap();
        // Black at 6,7 7,7 and 8,6 8,5: 8,7 makes two open threes (h8 row and column).
        for (x, y) in [
            (6, 7),
            (0, 0),
            (7, 7),
            (0, 14),
            (8, 6),
            (14, 0),
            (8, 5),
            (14, 14),
        ] {
            r.make(Pos::new(x, y));
        }
        let l = lines(&r, &[], &names, &Params::default());
        let last = l.last().unwrap();
        assert!(
            last.starts_with("MESSAGE features: forbidden for black: "),
            "{l:?}"
        );
        assert!(last.contains(&names.square(Pos::new(8, 7))), "{l:?}");
    }
}
