//! The solver's own table and the short lists of squares its nodes pass around.
//!
//! The table keeps, per position, what a search found there: *proven* (the attacker to
//! move wins, with the length of the win and its first move) or *disproven* (no win
//! within the ply budget that was searched, or within any). The VCF, the narrow VCF and
//! the VCT each salt the position's hash with a key of their own, so their results never
//! mix. It is a fixed-size table of two-entry buckets, one table per solver.

use crate::core::types::Pos;

/// The salts of the position hash that keep the results of the VCF, the VCT and the narrow
/// VCF apart in the table.
pub(super) const VCF_SALT: u64 = 0;
pub(super) const VCT_SALT: u64 = 0x6A09_E667_F3BC_C908;
pub(super) const NARROW_VCF_SALT: u64 = 0xBB67_AE85_84CA_A73B;

/// What an entry says: nothing (an empty slot), a win, no win.
const EMPTY: u8 = 0;
pub(super) const PROVEN: u8 = 1;
const DISPROVEN: u8 = 2;
/// Budget stored with a disproof that holds whatever the budget (no fours at all, an
/// unstoppable double five threat of the defender, ...).
const ALWAYS: u16 = u16::MAX;

#[derive(Copy, Clone, Default)]
pub(super) struct Entry {
    key: u64,
    pub(super) mv: Pos,
    /// Proven: plies to the five. Disproven: the budget that was searched.
    pub(super) len: u16,
    pub(super) flag: u8,
}

/// Two-entry buckets: the first keeps the more valuable result, the second always takes
/// the newest.
pub(super) struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 30);
        let n = 1usize << bits;
        Table {
            slots: vec![Entry::default(); n],
            mask: (n / 2) - 1,
        }
    }
    pub(super) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|e| *e = Entry::default());
    }
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 17) as usize & self.mask) * 2
    }
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.bucket(key);
        let s = &self.slots[i..i + 2];
        if s[0].flag != EMPTY && s[0].key == key {
            Some(s[0])
        } else if s[1].flag != EMPTY && s[1].key == key {
            Some(s[1])
        } else {
            None
        }
    }
    #[inline]
    fn value(e: &Entry) -> u32 {
        match e.flag {
            EMPTY => 0,
            PROVEN => 100_000,
            _ if e.len == ALWAYS => 1,
            _ => e.len as u32 + 2,
        }
    }
    fn store(&mut self, key: u64, flag: u8, len: u16, mv: Pos) {
        let i = self.bucket(key);
        let new = Entry { key, mv, len, flag };
        let s = &mut self.slots[i..i + 2];
        if s[0].key == key && s[0].flag != EMPTY {
            // A disproof with a bigger budget is not overwritten by a smaller one.
            if !(s[0].flag == DISPROVEN && flag == DISPROVEN && s[0].len > len) {
                s[0] = new;
            }
        } else if s[1].key == key && s[1].flag != EMPTY {
            if Table::value(&new) >= Table::value(&s[0]) {
                s[1] = s[0];
                s[0] = new;
            } else {
                s[1] = new;
            }
        } else if Table::value(&new) >= Table::value(&s[0]) {
            s[1] = s[0];
            s[0] = new;
        } else {
            s[1] = new;
        }
    }
}

/// A short list of squares on the stack.
#[derive(Copy, Clone)]
pub(super) struct PosList {
    n: usize,
    items: [Pos; 16],
}

impl PosList {
    pub(super) fn new() -> PosList {
        PosList {
            n: 0,
            items: [Pos::NONE; 16],
        }
    }
    #[inline]
    pub(super) fn push(&mut self, p: Pos) {
        if self.n < self.items.len() && !self.contains(p) {
            self.items[self.n] = p;
            self.n += 1;
        }
    }
    #[inline]
    pub(super) fn contains(&self, p: Pos) -> bool {
        self.items[..self.n].contains(&p)
    }
    #[inline]
    pub(super) fn as_slice(&self) -> &[Pos] {
        &self.items[..self.n]
    }
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.n
    }
}

impl Table {
    /// The table's verdict on `key` for `budget` plies, if it settles the question:
    /// `Some(Some(len))` proven within the budget, `Some(None)` disproven for it.
    pub(super) fn settled(&self, key: u64, budget: u16) -> Option<Option<u16>> {
        let e = self.probe(key)?;
        if e.flag == PROVEN && e.len <= budget {
            Some(Some(e.len))
        } else if e.flag == DISPROVEN && e.len >= budget {
            Some(None)
        } else {
            None
        }
    }

    /// Stores an attacker node's outcome: proven with its best move, or (unless the
    /// search was `cut_short`) disproven for this budget or, with `always`, for any.
    pub(super) fn store_result(
        &mut self,
        key: u64,
        result: Option<u16>,
        best: Pos,
        always: bool,
        budget: u16,
        cut_short: bool,
    ) {
        if let Some(l) = result {
            self.store(key, PROVEN, l, best);
        } else if !cut_short {
            self.store(
                key,
                DISPROVEN,
                if always { ALWAYS } else { budget },
                Pos::NONE,
            );
        }
    }
}
