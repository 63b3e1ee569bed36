//! Winning lines: a proven win built into its line by following the table (with the
//! defender's most stubborn reply where it has several), and the attacker's VCF line
//! read from the table alone.

use super::squares::{can_play, classes, fives, for_class, is_caro, kills, renju_black};
use super::table::{PROVEN, VCF_SALT, VCT_SALT};
use super::ThreatSolver;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::types::Pos;

impl ThreatSolver {
    /// Builds the winning line of a proven root by following the table (searching again
    /// where an entry was overwritten, with at most as many nodes again as the call's
    /// limit). Leaves the board as it was.
    pub(super) fn walk(&mut self, b: &mut Board, budget: u16, vct: bool) -> Option<Vec<Pos>> {
        self.aborted = false;
        self.node_limit = self.nodes.saturating_add(self.node_limit);
        let mut line = Vec::new();
        let mut made = 0;
        let mut budget = budget;
        let ok = loop {
            let a = b.side_to_move();
            let d = a.opp();
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, b.last_move().unwrap_or(Pos::NONE));
                line.push(f.as_slice()[0]);
                break true;
            }
            let Some(m) = self.attack_move(b, budget, vct) else {
                break false;
            };
            line.push(m);
            self.make(b, m);
            made += 1;
            budget = budget.saturating_sub(1);
            // The defender's reply.
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, m);
                let k = kills(b, a, &f);
                if k.len() == 0 {
                    // Nothing stops every five. Show a block if there is a legal one (the
                    // five comes elsewhere), else the defender's move does not matter.
                    if let Some(&s) = f.as_slice().iter().find(|&&s| can_play(b, s, d)) {
                        line.push(s);
                        self.make(b, s);
                        made += 1;
                        budget = budget.saturating_sub(1);
                        continue;
                    }
                    line.push(Pos::NONE);
                    line.push(f.as_slice()[0]);
                    break true;
                }
                let r = if k.len() == 1 {
                    k.as_slice()[0]
                } else {
                    // Stopped (the clock, a stop command, the node limit): give up the
                    // line, but through the unmakes below, never straight out.
                    let Some(r) = self.stubborn(b, k.as_slice().to_vec(), budget, vct) else {
                        break false;
                    };
                    r
                };
                line.push(r);
                self.make(b, r);
                made += 1;
            } else {
                let start = self.moves.len();
                if self.defence_candidates(b, a, budget).is_none() {
                    self.moves.truncate(start);
                    break false;
                }
                let cands: Vec<Pos> = self.moves[start..].iter().map(|x| x.1).collect();
                self.moves.truncate(start);
                if cands.is_empty() {
                    // Nothing stops every open four (a double three, say). Show the block
                    // of one open-four square if the defender may play there; otherwise
                    // the defender's move does not matter. (The side to move is put right
                    // by the unmakes at the end: each restores the colour of the move it
                    // takes back, the first one the attacker.)
                    let w = self.open_four_squares(b, a);
                    if let Some(&r) = w.as_slice().iter().find(|&&r| can_play(b, r, d)) {
                        line.push(r);
                        self.make(b, r);
                        made += 1;
                    } else {
                        line.push(Pos::NONE);
                        b.set_side_to_move(a);
                    }
                } else {
                    let Some(r) = self.stubborn(b, cands, budget, vct) else {
                        break false;
                    };
                    line.push(r);
                    self.make(b, r);
                    made += 1;
                }
            }
            budget = budget.saturating_sub(1);
        };
        for _ in 0..made {
            b.unmake();
        }
        ok.then_some(line)
    }

    /// The attacker's move at a proven node of the line.
    fn attack_move(&mut self, b: &mut Board, budget: u16, vct: bool) -> Option<Pos> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(d, Threat::Five) > 0 {
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            let k = kills(b, d, &f);
            if k.len() == 1 {
                return Some(k.as_slice()[0]);
            }
        } else if !is_caro(b.rule()) && b.count(a, Threat::OpenFour) > 0 {
            let mut out = Pos::NONE;
            for_class(b, a, classes(&[Threat::OpenFour]), 2, |p, _| {
                if out.is_none() {
                    out = p;
                }
            });
            return Some(out).filter(|p| !p.is_none());
        }
        for attempt in 0..2 {
            for salt in [VCF_SALT, VCT_SALT] {
                if salt == VCT_SALT && !vct {
                    continue;
                }
                if let Some(e) = self.tt.probe(b.hash() ^ salt) {
                    if e.flag == PROVEN && e.len <= budget && !e.mv.is_none() && b.is_empty(e.mv) {
                        return Some(e.mv);
                    }
                }
            }
            if attempt == 0 {
                // Overwritten: prove this node again (its entry is stored anew).
                let found = if vct {
                    self.vct_attack(b, budget)
                } else {
                    self.vcf_attack(b, budget)
                };
                found?;
            }
        }
        None
    }

    /// Of the defender's replies (all proven lost), the one with the longest win.
    fn stubborn(&mut self, b: &mut Board, cands: Vec<Pos>, budget: u16, vct: bool) -> Option<Pos> {
        let mut best: Option<(u16, Pos)> = None;
        for r in cands {
            self.make(b, r);
            let l = if vct {
                self.vct_attack(b, budget.saturating_sub(1))
            } else {
                self.vcf_attack(b, budget.saturating_sub(1))
            };
            b.unmake();
            let l = l?;
            if best.is_none_or(|(bl, _)| l > bl) {
                best = Some((l, r));
            }
        }
        best.map(|x| x.1)
    }

    /// The attacker's (side to move) VCF line from the table, without searching: `None`
    /// if an entry is missing, if a defender's reply is not unique (caro), or if a renju
    /// black move of the line is a double three (whose legality other stones could
    /// change). Also returns every five square of the attacker met along the line. The
    /// board is left as it was.
    pub(super) fn vcf_line_tt(
        &mut self,
        b: &mut Board,
        budget: u16,
    ) -> Option<(Vec<Pos>, Vec<Pos>)> {
        let mut line = Vec::new();
        let mut seen = Vec::new();
        let mut made = 0;
        let mut budget = budget;
        let ok = loop {
            let a = b.side_to_move();
            let d = a.opp();
            if b.count(a, Threat::Five) > 0 {
                let f = fives(b, a, b.last_move().unwrap_or(Pos::NONE));
                line.push(f.as_slice()[0]);
                seen.extend_from_slice(f.as_slice());
                break true;
            }
            let m = if b.count(d, Threat::Five) > 0 {
                let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
                let k = kills(b, d, &f);
                if k.len() != 1 {
                    break false;
                }
                k.as_slice()[0]
            } else {
                match self.tt.probe(b.hash() ^ VCF_SALT) {
                    Some(e)
                        if e.flag == PROVEN
                            && e.len <= budget
                            && !e.mv.is_none()
                            && b.is_empty(e.mv) =>
                    {
                        e.mv
                    }
                    _ if !is_caro(b.rule()) && b.count(a, Threat::OpenFour) > 0 => {
                        let mut out = Pos::NONE;
                        for_class(b, a, classes(&[Threat::OpenFour]), 2, |p, _| {
                            if out.is_none() {
                                out = p;
                            }
                        });
                        out
                    }
                    _ => break false,
                }
            };
            if m.is_none()
                || !b.is_empty(m)
                || (renju_black(b, a) && b.threat(m, a) == Threat::DoubleThree)
            {
                break false;
            }
            line.push(m);
            b.make(m);
            made += 1;
            budget = budget.saturating_sub(2);
            let f = fives(b, a, m);
            if f.len() == 0 {
                break false;
            }
            seen.extend_from_slice(f.as_slice());
            let k = kills(b, a, &f);
            match k.len() {
                0 => {
                    line.push(Pos::NONE);
                    line.push(f.as_slice()[0]);
                    break true;
                }
                1 => {
                    let r = k.as_slice()[0];
                    line.push(r);
                    b.make(r);
                    made += 1;
                }
                _ => break false,
            }
        };
        for _ in 0..made {
            b.unmake();
        }
        ok.then_some((line, seen))
    }
}

/// Whether some move of the side to move in `line` (a VCF line) is a double three when
/// it is played (renju black: legal only because a three is false).
pub(super) fn line_has_double_three(b: &mut Board, line: &[Pos]) -> bool {
    let a = b.side_to_move();
    let mut made = 0;
    let mut found = false;
    for (i, &p) in line.iter().enumerate() {
        if p.is_none() || !b.is_empty(p) {
            break;
        }
        if i % 2 == 0 && b.threat(p, a) == Threat::DoubleThree {
            found = true;
            break;
        }
        b.make(p);
        made += 1;
    }
    for _ in 0..made {
        b.unmake();
    }
    found
}
