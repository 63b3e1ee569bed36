//! The VCT: the attacker plays fours and threes (and, where the solver is told, quiet
//! moves that threaten a VCF), iteratively deepened, first trying a VCF at every node;
//! the defender answers with every move that might stop the threat.

use super::moves::{four_rank, last_moves, prox};
use super::sight::replay_counted;
use super::squares::{along, can_play, classes, fives, for_class, is_caro, kills, renju_black};
use super::squares::{DOUBLE_THREE, FOURS};
use super::table::{PosList, VCT_SALT};
use super::{ThreatSolver, MAX_PLIES};
use crate::core::board::Board;
use crate::core::pattern::{combine, key_weight, Pat, Threat};
use crate::core::rules;
use crate::core::types::{Color, Pos};

/// Plies of the defender's own VCF looked for at every VCT defence (two fours and the
/// five): a cheap refutation of the attacker's threat. Longer ones are found too, by
/// trying the defender's fours first, but this settles many positions without a VCT
/// quickly.
const DEFENDER_VCF_PLIES: u16 = 5;

impl ThreatSolver {
    /// The iterative deepening behind [`ThreatSolver::vct`] and [`ThreatSolver::has_vct`]:
    /// VCT searches of 3, 5, 7, … plies up to `max_plies`, until one wins, the node limit
    /// is spent, or the stop token or the deadline ends it. Returns the ply budget of the search that won.
    pub(super) fn vct_depth(
        &mut self,
        b: &mut Board,
        max_plies: usize,
        node_limit: u64,
    ) -> Option<u16> {
        self.start(node_limit);
        if b.winner().is_some() || b.is_full() {
            return None;
        }
        let max = max_plies.min(MAX_PLIES) as u16;
        let mut budget = max.min(3);
        loop {
            if self.vct_attack(b, budget).is_some() {
                return Some(budget);
            }
            if self.aborted || budget >= max {
                return None;
            }
            budget = (budget + 2).min(max);
        }
    }

    /// Attacker node of the VCT.
    pub(super) fn vct_attack(&mut self, b: &mut Board, budget: u16) -> Option<u16> {
        let a = b.side_to_move();
        let d = a.opp();
        if b.count(a, Threat::Five) > 0 {
            return Some(1);
        }
        if budget < 3 {
            return None;
        }
        let defender_fives = b.count(d, Threat::Five);
        let caro = is_caro(b.rule());
        if defender_fives == 0 && !caro && b.count(a, Threat::OpenFour) > 0 {
            return Some(3);
        }
        let key = b.hash() ^ VCT_SALT;
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
            let f = fives(b, d, b.last_move().unwrap_or(Pos::NONE));
            let k = kills(b, d, &f);
            always = k.len() == 0;
            for &q in k.as_slice() {
                if let Some(l) = self.vct_play(b, q, budget) {
                    result = Some(l);
                    best = q;
                    break;
                }
                if self.aborted {
                    break;
                }
            }
        } else if let Some(l) = self.vcf_attack(b, budget) {
            result = Some(l);
        } else if !self.aborted && budget >= 5 {
            let start = self.moves.len();
            self.gen_threats(b, a);
            (result, best) = self.first_win(b, start, budget, true);
        }
        self.tt
            .store_result(key, result, best, always, budget, self.aborted);
        result
    }

    pub(super) fn vct_play(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        self.make(b, m);
        let r = self.vct_reply(b, m, budget - 1);
        b.unmake();
        r.map(|l| l + 1)
    }

    /// Defender node of the VCT, after the attacker's move `m`.
    fn vct_reply(&mut self, b: &mut Board, m: Pos, budget: u16) -> Option<u16> {
        let d = b.side_to_move();
        let a = d.opp();
        if b.count(d, Threat::Five) > 0 {
            return None;
        }
        if b.count(a, Threat::Five) > 0 {
            let f = fives(b, a, m);
            return self.blocks(b, &f, budget, true);
        }
        if budget < 4 {
            return None;
        }
        let start = self.moves.len();
        let Some(free_len) = self.defence_candidates(b, a, budget) else {
            return None; // no threat: the defender is free
        };
        let end = self.moves.len();
        // A short VCF of the defender beats any threat short of a four: it forces every
        // attacker move until its five.
        if b.count_at_least(d, Threat::Four) > 0 && self.vcf_attack(b, DEFENDER_VCF_PLIES).is_some()
        {
            self.moves.truncate(start);
            return None;
        }
        if start == end {
            // No legal move stops the threat (a double three, say): the defender's move
            // does not matter.
            return Some(free_len);
        }
        let mut worst = 0;
        let mut ok = true;
        for i in start..end {
            let r = self.moves[i].1;
            self.make(b, r);
            let res = self.vct_attack(b, budget - 1);
            b.unmake();
            match res {
                Some(l) => worst = worst.max(l + 1),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        self.moves.truncate(start);
        ok.then_some(worst)
    }

    /// The attacker's open-four squares: where it could play a four with two ways to five
    /// that the defender cannot both stop.
    pub(super) fn open_four_squares(&mut self, b: &mut Board, a: Color) -> PosList {
        let mut out = PosList::new();
        let rb = renju_black(b, a);
        if b.count(a, Threat::OpenFour) == 0 && !(rb && b.count(a, Threat::DoubleThree) > 0) {
            return out;
        }
        let mut found = PosList::new();
        let set = classes(&[Threat::OpenFour]) | if rb { DOUBLE_THREE } else { 0 };
        for_class(b, a, set, 2, |p, t| {
            if t == Threat::OpenFour || b.pats(p, a).contains(&Pat::OpenFour) {
                found.push(p);
            }
        });
        let caro = is_caro(b.rule());
        for &p in found.as_slice() {
            if b.threat(p, a) == Threat::DoubleThree && rules::is_forbidden(b, p) {
                continue;
            }
            if caro && !caro_open_four_wins(b, p, a) {
                continue;
            }
            out.push(p);
        }
        out
    }

    /// Pushes the defender's replies to the attacker's threat, the defender to move with
    /// `budget` plies left. A *three* (the attacker has open-four squares): the squares
    /// that destroy every open-four square, and the defender's fours. A *VCF threat* (the
    /// attacker would have a VCF if it moved again): every move after which the
    /// attacker's VCF line no longer works (checked by replaying it), fours included.
    /// Returns `None` (pushing nothing) if the attacker threatens nothing, else the plies
    /// to the five if the defender's move does not matter.
    pub(super) fn defence_candidates(
        &mut self,
        b: &mut Board,
        a: Color,
        budget: u16,
    ) -> Option<u16> {
        let d = a.opp();
        let w = self.open_four_squares(b, a);
        if w.len() == 0 {
            return self.vcf_threat_candidates(b, a, budget);
        }
        let stamp = self.next_generation();
        let need = w.len() as u32;
        let mut touched: Vec<Pos> = Vec::with_capacity(48);
        let marks = &mut self.marks;
        let mut bump = |q: Pos| {
            let m = &mut marks[q.idx()];
            if *m >> 8 != stamp {
                *m = stamp << 8;
                touched.push(q);
            }
            *m += 1;
        };
        // A stone changes an open-four square's shapes only within five steps on its
        // lines. In caro it can also block a five at the end of its run: the run through
        // a five square of the open four holds the four and at most three more stones
        // beyond the five square (four would already give the attacker a five square,
        // and it has none here), so its ends are within five steps too.
        let reach = 5;
        for &p in w.as_slice() {
            bump(p);
            for dir in 0..4 {
                for k in 1..=reach {
                    for sgn in [-1isize, 1] {
                        match along(b, p, dir, sgn * k) {
                            Some(q) if b.is_empty(q) => bump(q),
                            _ => {}
                        }
                    }
                }
            }
        }
        let start = self.moves.len();
        let (l1, _) = last_moves(b, a);
        let prefilter = !is_caro(b.rule());
        for &q in &touched {
            if self.marks[q.idx()] & 0xFF != need || !can_play(b, q, d) {
                continue;
            }
            self.marks[q.idx()] |= 0x80; // listed (a four of the defender is pushed once)
            let four = b.threat(q, d).is_four_or_better();
            if prefilter && !four && w.as_slice().iter().any(|&p| open_four_survives(b, p, q, a)) {
                continue; // the attacker still has an open four: refuted at once
            }
            let score = if four {
                100 // counter-fours first: the likeliest refutations
            } else {
                (if w.contains(q) { 8 } else { 0 }) + prox(q, l1)
            };
            self.moves.push((score, q));
        }
        // Counter-fours anywhere.
        let mut fours = std::mem::take(&mut self.scratch);
        fours.clear();
        let set = FOURS | if renju_black(b, d) { DOUBLE_THREE } else { 0 };
        for_class(b, d, set, 2, |p, _| fours.push(p));
        for &p in &fours {
            let listed = self.marks[p.idx()] >> 8 == stamp && self.marks[p.idx()] & 0x80 != 0;
            if !listed && four_rank(b, p, d).is_some() {
                self.moves.push((100, p));
            }
        }
        self.scratch = fours;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        Some(4)
    }

    /// The VCF-threat half of [`ThreatSolver::defence_candidates`].
    fn vcf_threat_candidates(&mut self, b: &mut Board, a: Color, budget: u16) -> Option<u16> {
        let d = a.opp();
        if !self.vcf_threats || budget < 4 {
            return None;
        }
        // The attacker's VCF, as if it were to move, short enough to follow one reply.
        b.set_side_to_move(a);
        let found = self.vcf_attack(b, budget - 1).is_some();
        let traced = if found {
            self.vcf_line_tt(b, budget - 1)
        } else {
            None
        };
        b.set_side_to_move(d);
        let (line, seen) = traced?;

        // Squares that might break the line: its own squares, every five square of the
        // attacker along it, squares near the defender's replies (a counter-four made
        // with them), near the five squares in caro (a stone beyond a five blocks it),
        // and the defender's fours. Each is tried by replaying the line after it.
        let stamp = self.next_generation();
        let mut cands = std::mem::take(&mut self.scratch);
        cands.clear();
        let marks = &mut self.marks;
        let mut add = |q: Pos| {
            if b.is_empty(q) && marks[q.idx()] >> 8 != stamp {
                marks[q.idx()] = stamp << 8;
                cands.push(q);
            }
        };
        let caro = is_caro(b.rule());
        for (i, &p) in line.iter().enumerate() {
            if p.is_none() {
                continue;
            }
            add(p);
            if i % 2 == 1 {
                for dir in 0..4 {
                    for k in 1..=4isize {
                        add(p.step(dir, k));
                        add(p.step(dir, -k));
                    }
                }
            }
        }
        for &p in &seen {
            add(p);
            if caro {
                for dir in 0..4 {
                    for k in 1..=5isize {
                        add(p.step(dir, k));
                        add(p.step(dir, -k));
                    }
                }
            }
        }
        let set = FOURS | if renju_black(b, d) { DOUBLE_THREE } else { 0 };
        for_class(b, d, set, 2, |p, _| add(p));
        let start = self.moves.len();
        for (i, &r) in cands.iter().enumerate() {
            if !can_play(b, r, d) {
                continue;
            }
            self.make(b, r);
            let breaks = !replay_counted(b, &line, &mut self.nodes);
            b.unmake();
            if breaks {
                let on_line = line.contains(&r) as i32;
                self.moves.push((on_line * 1000 - i as i32, r));
            }
        }
        self.scratch = cands;
        self.moves[start..].sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        Some(1 + line.len() as u16)
    }
}

/// Whether `a`'s open-four square `w` (class `OpenFour`) certainly stays one when the
/// defender plays at `q` (not caro, where blocked fives make this a board question). Only
/// `w`'s line through `q` changes: its new shape comes from the line table.
fn open_four_survives(b: &Board, w: Pos, q: Pos, a: Color) -> bool {
    if w == q || b.threat(w, a) != Threat::OpenFour {
        return false;
    }
    let (dx, dy) = (
        q.x() as isize - w.x() as isize,
        q.y() as isize - w.y() as isize,
    );
    let (dir, k) = match (dx, dy) {
        (0, k) => (1, k),
        (k, 0) => (0, k),
        (x, y) if x == y => (2, x),
        (x, y) if x == -y => (3, -x),
        _ => return true, // not on a line through w
    };
    if k.abs() > 5 {
        return true;
    }
    debug_assert_eq!(w.step(dir, k), q);
    let key = b.key(w, dir) + a.opp().cell() as u32 * key_weight(k);
    let mut pats = b.pats(w, a);
    pats[dir] = b.tables().pat(key, a);
    combine(pats, renju_black(b, a)) == Threat::OpenFour
}

/// Caro: whether `a` playing `p` (a square of class `OpenFour`) makes two fives the
/// defender cannot both stop, i.e. after every block a five remains. Leaves the board
/// and the side to move as they were.
fn caro_open_four_wins(b: &mut Board, p: Pos, a: Color) -> bool {
    let side = b.side_to_move();
    b.make_color(p, a);
    let f = fives(b, a, p);
    let wins = f.len() >= 2 && kills(b, a, &f).len() == 0;
    b.unmake();
    b.set_side_to_move(side);
    wins
}
