//! The threat-space solver: hand-made diagrams under every rule, the shared puzzle
//! sample, and a cross-check of the VCF search against a slow exhaustive reference.

use fivefold::rules::reference::Grid;
use fivefold::threat::ThreatSolver;
use fivefold::pattern::Threat;
use fivefold::{Board, Color, Rule};

/// A tiny deterministic generator so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ------------------------------------------------------------------ reference VCF

/// Exhaustive VCF on a plain grid, straight from the definition: the attacker `a` plays
/// any legal move after which it can make five (a four) and which leaves the defender no
/// five; the defender may then play any legal move after which the attacker cannot make
/// five at once (every other move loses to the five). Wins within `budget` plies, the
/// five included.
fn ref_vcf(g: &mut Grid, a: Color, budget: u32) -> bool {
    let d = a.opp();
    let empties: Vec<(i32, i32)> =
        (0..g.h).flat_map(|y| (0..g.w).map(move |x| (x, y))).filter(|&(x, y)| g.get(x, y) == Some(None)).collect();
    let has_five = |g: &Grid, c: Color| empties.iter().any(|&(x, y)| g.get(x, y) == Some(None) && g.makes_five(x, y, c));
    if has_five(g, a) {
        return true;
    }
    if budget < 3 {
        return false;
    }
    let legal = |g: &mut Grid, x: i32, y: i32, c: Color| !(g.rule == Rule::Renju && c == Color::Black && g.is_forbidden(x, y));
    for &(x, y) in &empties {
        set(g, x, y, Some(a));
        let four = has_five(g, a) && !has_five(g, d);
        set(g, x, y, None);
        if !four || !legal(g, x, y, a) {
            continue;
        }
        set(g, x, y, Some(a));
        let mut wins = true;
        for &(rx, ry) in &empties {
            if g.get(rx, ry) != Some(None) {
                continue;
            }
            set(g, rx, ry, Some(d));
            let stops = !has_five(g, a);
            set(g, rx, ry, None);
            if !stops || !legal(g, rx, ry, d) {
                continue;
            }
            set(g, rx, ry, Some(d));
            let w = ref_vcf(g, a, budget - 2);
            set(g, rx, ry, None);
            if !w {
                wins = false;
                break;
            }
        }
        set(g, x, y, None);
        if wins {
            return true;
        }
    }
    false
}

fn set(g: &mut Grid, x: i32, y: i32, v: Option<Color>) {
    let w = g.w;
    g.cells[(y * w + x) as usize] = v;
}

/// Random stones (not a game), none of them making five.
fn random_position(rng: &mut Rng, rule: Rule, size: usize, density: usize) -> Board {
    let mut b = Board::square(size, rule).unwrap();
    for p in b.squares().collect::<Vec<_>>() {
        let r = rng.below(100);
        let c = if r < density / 2 {
            Color::Black
        } else if r < density {
            Color::White
        } else {
            continue;
        };
        if b.threat(p, c) != Threat::Five {
            b.make_color(p, c);
        }
    }
    b
}

#[test]
fn vcf_matches_exhaustive_reference() {
    let mut rng = Rng(0x7EA7_5EED);
    let mut solver = ThreatSolver::with_table_bits(12);
    let mut wins = [0usize; 5];
    let mut losses = [0usize; 5];
    // Wins that need at least two fours (not found with a smaller budget).
    let mut deep = [0usize; 5];
    for rule in Rule::ALL {
        for i in 0..80 {
            let size = 9 + rng.below(3);
            let mut b = random_position(&mut rng, rule, size, 22 + i % 14);
            for side in [Color::Black, Color::White] {
                b.set_side_to_move(side);
                if b.count(side, Threat::Five) > 0 {
                    continue; // trivial: five at once
                }
                let before = (b.hash(), b.move_count());
                let mut shallower = false;
                for budget in [3u32, 5, 7, 9] {
                    let fast = solver.has_vcf(&mut b, budget as usize, u64::MAX);
                    assert_eq!((b.hash(), b.move_count()), before, "board not restored");
                    let slow = ref_vcf(&mut Grid::from_board(&b), side, budget);
                    assert_eq!(fast, slow, "{rule:?} {side:?} budget {budget}\n{}", b.to_diagram());
                    if fast {
                        wins[rule.index()] += 1;
                        deep[rule.index()] += (budget >= 5 && !shallower) as usize;
                        shallower = true;
                        let line = solver.vcf(&mut b, budget as usize, u64::MAX).expect("line");
                        assert!(line.len() <= budget as usize && line.len() % 2 == 1, "{line:?}");
                    } else {
                        losses[rule.index()] += 1;
                    }
                }
            }
        }
    }
    eprintln!("wins {wins:?} losses {losses:?} deep {deep:?}");
    for r in 0..5 {
        assert!(wins[r] >= 20 && losses[r] >= 20 && deep[r] >= 5, "rule {r}: too few of one kind: {wins:?} {losses:?} {deep:?}");
    }
}
