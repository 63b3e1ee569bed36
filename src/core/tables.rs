//! The tables the board looks up on every move, built once per rule on first use: the
//! line table (a line key → the shape each colour would make, from [`pattern`]) and the
//! combination table (four line shapes → the square's threat class, and its values for
//! the classical evaluation, from [`weights`]).
//!
//! The evaluation values are baked into the combination table so that `make` reads a
//! square's threat class and both values with one lookup per colour.

use crate::core::pattern::{self, combine, Pat};
use crate::core::types::{Color, Rule};
use crate::core::weights;
use std::sync::OnceLock;

/// What a square's four line shapes add up to for one colour: its threat class and
/// its evaluation values as the side to move and as the other side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Combo {
    pub threat: u8,
    pub vals: [i16; 2],
}

/// Number of distinct four-shape combinations (each shape below ten).
pub const COMBOS: usize = 10_000;

const fn digit_table(scale: u16) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let (lo, hi) = ((i & 15) as u16, (i >> 4) as u16);
        if lo < 10 && hi < 10 {
            t[i] = (lo + 10 * hi) * scale;
        }
        i += 1;
    }
    t
}
const COMBO_LO: [u16; 256] = digit_table(1);
const COMBO_HI: [u16; 256] = digit_table(100);

/// The dense index (base ten) of four shapes packed four bits each. The combination
/// tables are indexed by it: 10 000 entries fit in the CPU's fast caches, where 65 536
/// would not.
#[inline]
fn combo_index(pats: u16) -> usize {
    (COMBO_LO[(pats & 255) as usize] + COMBO_HI[(pats >> 8) as usize]) as usize
}

/// All tables for one rule.
pub struct Tables {
    pub rule: Rule,
    /// Line key → black shape (low nibble) | white shape (high nibble).
    pub line: Vec<u8>,
    /// Per colour: `combo_index` of the four shapes → threat class and values.
    pub combo: [Vec<Combo>; 2],
}

impl Tables {
    fn build(rule: Rule) -> Tables {
        let line_table = pattern::line_table(rule);
        let mk = |c: Color| -> Vec<Combo> {
            let renju_black = rule == Rule::Renju && c == Color::Black;
            let w = weights::weights(rule, c);
            (0..COMBOS)
                .map(|i| {
                    let d = |k: u32| Pat::from_u8((i / 10usize.pow(k) % 10) as u8);
                    let pats = [d(0), d(1), d(2), d(3)];
                    let t = combine(pats, renju_black);
                    Combo {
                        threat: t as u8,
                        vals: [
                            weights::square_value(w, pats, t, 0),
                            weights::square_value(w, pats, t, 1),
                        ],
                    }
                })
                .collect()
        };
        let combo = [mk(Color::Black), mk(Color::White)];
        Tables {
            rule,
            line: line_table,
            combo,
        }
    }

    /// Threat class and values of four packed shapes for colour index `c`.
    #[inline]
    pub fn combo(&self, c: usize, pats: u16) -> Combo {
        self.combo[c][combo_index(pats)]
    }

    /// Shape for `color` at a square with line key `key`.
    #[inline]
    pub fn pat(&self, key: u32, color: Color) -> Pat {
        Pat::from_u8((self.line[key as usize] >> (4 * color as u8)) & 15)
    }
}

static TABLES: [OnceLock<Tables>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The tables of a rule, built on first use.
pub fn tables(rule: Rule) -> &'static Tables {
    TABLES[rule.index()].get_or_init(|| Tables::build(rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combo_index_is_dense_and_matches_the_shapes() {
        let pats = [Pat::Four, Pat::OpenThree, Pat::None, Pat::Overline];
        let packed = pats
            .iter()
            .enumerate()
            .fold(0u16, |a, (d, &p)| a | (p as u16) << (4 * d));
        assert_eq!(combo_index(packed), 5 + 4 * 10 + 9 * 1000);
        let t = tables(Rule::Freestyle);
        assert_eq!(t.combo(0, packed).threat, combine(pats, false) as u8);
    }
}
