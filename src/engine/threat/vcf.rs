//! The VCF: the attacker plays only fours, the defender only the moves that stop the
//! five, and every attacker node is settled in the table. Also the defences against the
//! opponent's VCF ([`ThreatSolver::vcf_defences`]), and the two steps the VCT shares with
//! the VCF: trying the attacker's moves in order and answering a five.

use super::line::line_has_double_three;
use super::moves::four_rank;
use super::quick_win;
use super::sight::replay_wins;
use super::squares::{can_play, classes, fives, for_class, is_caro, kills, renju_black};
use super::squares::{DOUBLE_THREE, FOURS};
use super::table::{PosList, NARROW_VCF_SALT, VCF_SALT};
use super::ThreatSolver;
use crate::core::board::Board;
use crate::core::pattern::Threat;
use crate::core::types::Pos;

impl ThreatSolver {
    /// Attacker (side to move) node of the VCF: plies to the five, if won within `budget`.
    pub(super) fn vcf_attack(&mut self, b: &mut Board, budget: u16) -> Option<u16> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(a, Threat::Five) > 0 {
            return Some(1);
        }
        if budget < 3 {
            return None;
        }
        // The narrow search's fours may end in a four-three or a double three against a
        // defender with no four: a win (see [`quick_win`]), though not a VCF.
        if self.narrow && budget >= 5 && quick_win(b).is_some_and(|(plies, _)| plies == 5) {
            return Some(5);
        }
        let defender_fives = b.count(d, Threat::Five);
        if defender_fives == 0
            && b.count_at_least(a, Threat::Four) == 0
            && !(renju_black(b, a) && b.count(a, Threat::DoubleThree) > 0)
        {
            return None; // no four anywhere
        }
        let caro = is_caro(b.rule());
        if defender_fives == 0 && !caro && b.count(a, Threat::OpenFour) > 0 {
            return Some(3);
        }
        let key = b.hash()
            ^ if self.narrow {
                NARROW_VCF_SALT
            } else {
                VCF_SALT
            };
        if let Some(settled) = self.tt.settled(key, budget) {
            return settled;
        }
        if self.out_of_budget() {
            return None;
        }
        let mut result = None;
        let mut best = Pos::NONE;
        let mut always = false;
        if defender_fives > 0 {
            // The defender threatens five: stop it, and with a four.
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            always = true;
            for &q in kills(b, d, &f).as_slice() {
                if four_rank(b, q, a).is_some() {
                    always = false;
                    if let Some(l) = self.vcf_play(b, q, budget) {
                        result = Some(l);
                        best = q;
                        break;
                    }
                    if self.aborted {
                        break;
                    }
                }
            }
        } else {
            let start = self.moves.len();
            self.gen_fours(b, a);
            if self.narrow {
                self.narrow_fours(b, a, start, budget == self.root_budget);
            }
            (result, best) = self.first_win(b, start, budget, false);
        }
        self.tt
            .store_result(key, result, best, always, budget, self.aborted);
        result
    }

    /// Tries the attacker moves pushed on the move stack from `start`, in order, until one
    /// wins (VCF or VCT play as `vct` says); pops them. Returns its plies and square.
    pub(super) fn first_win(
        &mut self,
        b: &mut Board,
        start: usize,
        budget: u16,
        vct: bool,
    ) -> (Option<u16>, Pos) {
        let mut found = (None, Pos::NONE);
        for i in start..self.moves.len() {
            let m = self.moves[i].1;
            let r = if vct {
                self.vct_play(b, m, budget)
            } else {
                self.vcf_play(b, m, budget)
            };
            if let Some(l) = r {
                found = (Some(l), m);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.moves.truncate(start);
        found
    }

    /// The attacker plays the four `m`; plies to the five from before `m`.
    fn vcf_play(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        self.make(b, m);
        let r = self.vcf_reply(b, m, budget - 1);
        b.unmake();
        r.map(|l| l + 1)
    }

    /// Defender node after the attacker's four `m`: every block must lose.
    fn vcf_reply(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        let d = b.side_to_move();
        let a = d.opp();
        if b.count(d, Threat::Five) > 0 {
            return None; // an unanswered five threat of the defender
        }
        let f = fives(b, a, m);
        self.blocks(b, &f, budget, false)
    }

    /// The defender must stop the attacker's five squares `f`: plies to the five if every
    /// way to do so loses (`vct` selects the attacker search that follows).
    pub(super) fn blocks(
        &mut self,
        b: &mut Board,
        f: &PosList,
        budget: u16,
        vct: bool,
    ) -> Option<u16> {
        if f.len() == 0 {
            return None;
        }
        let k = kills(b, b.side_to_move().opp(), f);
        if k.len() == 0 {
            return Some(2); // two fives, or the only block is a renju foul
        }
        let mut worst = 0;
        for &s in k.as_slice() {
            self.make(b, s);
            let r = if vct {
                self.vct_attack(b, budget - 1)
            } else {
                self.vcf_attack(b, budget - 1)
            };
            b.unmake();
            worst = worst.max(r? + 1);
        }
        Some(worst)
    }

    /// Defence against the opponent's VCF. If the opponent (not the side to move) would
    /// have a VCF were it to move, returns every move of the side to move that leaves it
    /// without one within `max_plies` (own fives and fours included; empty if nothing
    /// helps). Returns `None` when the opponent has no VCF, so nothing needs restricting.
    ///
    /// Every candidate is first checked by replaying the opponent's winning line after
    /// it; only moves that break the line get a full VCF search (each with `node_limit`
    /// nodes). A candidate whose search hits the node limit is kept (not proven lost), and
    /// [`ThreatSolver::stats`] then says `aborted`; `None` with `aborted` means the
    /// opponent's VCF was not found within the limit.
    pub fn vcf_defences(
        &mut self,
        b: &mut Board,
        max_plies: usize,
        node_limit: u64,
    ) -> Option<Vec<Pos>> {
        let me = b.side_to_move();
        let opp = me.opp();
        if b.winner().is_some() || b.is_full() {
            return None;
        }
        b.set_side_to_move(opp);
        let line = self.vcf(b, max_plies, node_limit);
        b.set_side_to_move(me);
        let line = line?;
        let mut total = self.nodes;

        // Candidates: own fives and legal fours anywhere, and every empty square within
        // five steps along a line of any square of the opponent's winning line.
        let mut cands: Vec<Pos> = Vec::new();
        let stamp = self.next_generation();
        let mut add = |s: &mut Self, p: Pos| {
            if s.marks[p.idx()] >> 8 != stamp {
                s.marks[p.idx()] = stamp << 8;
                cands.push(p);
            }
        };
        let mut fours = Vec::new();
        let set = FOURS | DOUBLE_THREE | classes(&[Threat::Five]);
        for_class(b, me, set, 2, |p, _| fours.push(p));
        for p in fours {
            if b.threat(p, me) == Threat::Five || four_rank(b, p, me).is_some() {
                add(self, p);
            }
        }
        let caro = is_caro(b.rule());
        for &s in line.iter().filter(|s| !s.is_none()) {
            add(self, s);
            for d in 0..4 {
                for k in 1..=5isize {
                    for sgn in [-1isize, 1] {
                        let q = s.step(d, sgn * k);
                        if b.is_empty(q) {
                            add(self, q);
                        }
                    }
                }
                if caro {
                    // A long run's far end can block a caro five beyond five steps.
                    for sgn in [-1isize, 1] {
                        let mut k = 1;
                        loop {
                            let q = s.step(d, sgn * k);
                            if b.stone(q) != Some(opp) {
                                if b.is_empty(q) {
                                    add(self, q);
                                }
                                break;
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
        // Renju: a white stone can make a black double three real, so a black move of the
        // line that is a double three could turn into a foul from afar: try everything.
        b.set_side_to_move(opp);
        let risky = renju_black(b, opp) && line_has_double_three(b, &line);
        b.set_side_to_move(me);
        if risky {
            for p in b.squares().collect::<Vec<_>>() {
                if b.is_empty(p) {
                    add(self, p);
                }
            }
        }
        cands.sort();

        let mut out = Vec::new();
        let mut cut_short = false;
        for r in cands {
            if !can_play(b, r, me) {
                continue;
            }
            if b.threat(r, me) == Threat::Five {
                out.push(r);
                continue;
            }
            b.make(r);
            total += 1;
            let refutes = if replay_wins(b, &line) {
                false
            } else {
                let found = self.has_vcf(b, max_plies, node_limit);
                total += self.nodes;
                cut_short |= self.aborted;
                !found
            };
            b.unmake();
            if refutes {
                out.push(r);
            }
        }
        self.nodes = total;
        self.aborted = cut_short;
        Some(out)
    }
}
