//! The transposition table: a fixed array of 64-byte buckets of four entries, shared by
//! every search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR the data. A reader
//! accepts an entry only if the key it recovers matches, so an entry torn by two threads
//! writing at once (one word from each) is detected and ignored, never trusted. All
//! accesses are atomic (relaxed), so there is no data race. The one `unsafe` is the
//! cache prefetch hint of [`Tt::prefetch`], which reads nothing the program can observe.

use crate::core::types::{Pos, Score, MATE_BOUND};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

/// A decoded table entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Pos,
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// Bytes taken by one bucket.
pub const BUCKET_BYTES: usize = 64;

/// The slots one position may use, on one cache line: a probe reads one line from
/// memory, not two (a plain allocation is only 16-byte aligned).
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

pub struct Tt {
    table: Vec<Bucket>,
    age: AtomicU8,
}

fn pack(mv: Pos, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | (((depth.clamp(-64, 191) + 64) as u64) << 32)
        | ((bound as u64) << 40)
        | (((age & 63) as u64) << 42)
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        Entry {
            mv: Pos((d & 0xFFFF) as u16),
            score: ((d >> 16) & 0xFFFF) as u16 as i16 as Score,
            depth: ((d >> 32) & 0xFF) as i32 - 64,
            bound,
        },
        ((d >> 42) & 63) as u8,
    )
}

/// Mate scores are stored relative to the node, not the root.
pub fn score_to_tt(s: Score, ply: i32) -> Score {
    if s >= MATE_BOUND {
        s + ply
    } else if s <= -MATE_BOUND {
        s - ply
    } else {
        s
    }
}

pub fn score_from_tt(s: Score, ply: i32) -> Score {
    if s >= MATE_BOUND {
        s - ply
    } else if s <= -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

impl Tt {
    /// A table using at most `bytes` bytes (at least one bucket).
    pub fn new(bytes: usize) -> Tt {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let table = (0..buckets)
            .map(|_| {
                Bucket(std::array::from_fn(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                }))
            })
            .collect();
        Tt {
            table,
            age: AtomicU8::new(0),
        }
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.table.len() * BUCKET_BYTES
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.table.iter().flat_map(|b| &b.0) {
            s.check.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.table[(((key as u128) * (self.table.len() as u128)) >> 64) as usize].0
    }

    /// Asks the processor to start loading the bucket of `key` into the cache, so a
    /// probe issued a little later (after the move is made) need not wait for memory.
    /// A hint only: it changes no result.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const [Slot; BUCKET] as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch reads nothing
            // the program can observe and cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.bucket(key) {
            let d = s.data.load(Relaxed);
            if d != 0 && s.check.load(Relaxed) ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores a result. Keeps deeper and fresher entries: the victim is the same
    /// position if present, else the entry with the lowest depth after an age penalty.
    pub fn store(&self, key: u64, mv: Pos, score: Score, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed) & 63;
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.iter().enumerate() {
            let d = s.data.load(Relaxed);
            if d == 0 {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            let (e, eage) = unpack(d);
            if s.check.load(Relaxed) ^ d == key {
                // Same position: keep a deeper exact result over a shallow bound,
                // but always keep the best move if the new store has none.
                if bound != Bound::Exact && e.depth > depth + 2 && eage == age {
                    return;
                }
                let mv = if mv.is_none() { e.mv } else { mv };
                let nd = pack(mv, score, depth, bound, age);
                s.data.store(nd, Relaxed);
                s.check.store(key ^ nd, Relaxed);
                return;
            }
            let stale = (age.wrapping_sub(eage) & 63) as i32;
            let worth = e.depth - 8 * stale;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let nd = pack(mv, score, depth, bound, age);
        let s = &b[victim];
        s.data.store(nd, Relaxed);
        s.check.store(key ^ nd, Relaxed);
    }

    /// Permille of the first thousand buckets' entries that hold a position, from this
    /// search or an earlier one (how full the table is; [`Tt::hashfull`] counts only the
    /// current search's).
    pub fn usage(&self) -> u32 {
        let n = self.table.len().min(1000);
        let used = self.table[..n]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| s.data.load(Relaxed) != 0)
            .count();
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & 63;
        let n = self.table.len().min(1000) * BUCKET;
        let used = self.table[..n / BUCKET]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1 << 16);
        tt.store(12345, Pos(300), -1234, 7, Bound::Lower);
        let e = tt.probe(12345).unwrap();
        assert_eq!(
            e,
            Entry {
                mv: Pos(300),
                score: -1234,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(54321).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let s = crate::core::types::mate_in(9);
        assert_eq!(score_from_tt(score_to_tt(s, 4), 4), s);
        assert_eq!(score_from_tt(score_to_tt(s, 4), 2), s + 2);
    }

    #[test]
    fn concurrent_writers_never_yield_a_torn_entry() {
        use std::sync::Arc;
        // Many threads write entries whose fields all derive from the key into a tiny
        // table; every entry read back must be self-consistent.
        let tt = Arc::new(Tt::new(BUCKET_BYTES * 4));
        let handles: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    let mut bad = 0;
                    for i in 0..200_000u64 {
                        let key = (i * 4 + t).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        let depth = (key % 50) as i32;
                        let score = (key % 20000) as i32 - 10000;
                        tt.store(key, Pos((key % 1700) as u16), score, depth, Bound::Exact);
                        let probe_key = ((i / 2) * 4 + t).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        if let Some(e) = tt.probe(probe_key) {
                            if e.depth != (probe_key % 50) as i32
                                || e.score != (probe_key % 20000) as i32 - 10000
                                || e.mv != Pos((probe_key % 1700) as u16)
                            {
                                bad += 1;
                            }
                        }
                    }
                    bad
                })
            })
            .collect();
        let bad: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(bad, 0);
    }
}
