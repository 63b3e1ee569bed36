//! The transposition table: a fixed array of 64-byte buckets of four entries, shared by
//! every search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XOR the data. A reader
//! accepts an entry only if the key it recovers matches, so an entry torn by two threads
//! writing at once (one word from each) is detected and ignored, never trusted. All
//! accesses are atomic (relaxed), so there is no data race. The one `unsafe` is the
//! cache prefetch hint of [`Tt::prefetch`], which reads nothing the program can observe.
//!
//! Making and emptying a table cost nothing, whatever its size, so that no move waits
//! for memory (issue 102):
//! - the table is memory the system hands out zeroed ([`bytemuck::allocation::try_zeroed_slice_box`]:
//!   `calloc`, and for a large table fresh pages the kernel maps only when a search first
//!   writes to them), so a 4 GiB table is made in microseconds and takes resident memory
//!   only as it fills;
//! - every entry carries the table's *epoch*, and [`Tt::clear`] starts a new one: entries
//!   of an older epoch read as empty, so emptying writes nothing. Only when the 16-bit
//!   epoch wraps round (every 65,535th clear) is the memory written over.
//!
//! A table can be written to a file and read back ([`Tt::dump`], [`Tt::load_dump`];
//! `YXHASHDUMP` / `YXHASHLOAD`). The file, all numbers little-endian:
//!
//! | bytes        | what                                                              |
//! |--------------|-------------------------------------------------------------------|
//! | 8            | [`DUMP_MAGIC`]                                                    |
//! | 4            | [`DUMP_VERSION`]                                                  |
//! | 4            | the caller's context (rule and board size: entries of one rule mean nothing under another) |
//! | 8            | buckets of the table dumped (information only)                   |
//! | 8            | `n`, the number of entries                                        |
//! | `n` × 16     | each entry: its position key, then its packed data without age   |
//! | 8            | FNV-1a (64 bits) of every byte before it                          |
//!
//! A file is checked completely (length, magic, version, context, every entry,
//! checksum) before the table is touched, so a bad file leaves the table as it was.

use crate::core::types::Bound;
use crate::core::types::{Pos, Score, INF, MATE_BOUND, STRIDE};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// The first bytes of a table dump.
pub const DUMP_MAGIC: [u8; 8] = *b"FFTTDUMP";
/// The layout of the dump files this version writes and reads.
pub const DUMP_VERSION: u32 = 1;
/// Bytes before the entries.
pub const DUMP_HEADER_BYTES: usize = 32;
/// Bytes per entry.
pub const DUMP_ENTRY_BYTES: usize = 16;
/// Bytes of the checksum after the entries.
pub const DUMP_TRAILER_BYTES: usize = 8;

/// FNV-1a, 64 bits: the dump's checksum (it finds damage, it is no signature).
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The header of a dump, as [`read_dump_header`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DumpHeader {
    pub version: u32,
    pub context: u32,
    pub buckets: u64,
    pub entries: u64,
}

impl DumpHeader {
    /// The length of the whole file this header announces (`None` if it overflows).
    pub fn file_len(&self) -> Option<u64> {
        self.entries
            .checked_mul(DUMP_ENTRY_BYTES as u64)?
            .checked_add((DUMP_HEADER_BYTES + DUMP_TRAILER_BYTES) as u64)
    }
}

/// Reads a dump's header from its first [`DUMP_HEADER_BYTES`] bytes; checks the magic
/// and the version only.
pub fn read_dump_header(bytes: &[u8]) -> Result<DumpHeader, String> {
    if bytes.len() < DUMP_HEADER_BYTES {
        return Err(format!(
            "the file is too short for a table dump ({} bytes)",
            bytes.len()
        ));
    }
    if bytes[..8] != DUMP_MAGIC {
        return Err("not a Fivefold table dump (wrong magic)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let h = DumpHeader {
        version: u32_at(8),
        context: u32_at(12),
        buckets: u64_at(16),
        entries: u64_at(24),
    };
    if h.version != DUMP_VERSION {
        return Err(format!(
            "dump version {} is not supported (this engine reads version {DUMP_VERSION})",
            h.version
        ));
    }
    Ok(h)
}

/// Whether `d` is packed data [`Tt::store`] could have written (age left out).
fn plausible(d: u64) -> bool {
    let (e, age) = unpack(d);
    d != 0
        && d >> 48 == 0
        && age == 0
        && (d >> 40) & 3 != 0
        && (e.mv.0 as usize) < STRIDE * STRIDE
        && e.score.abs() <= INF
}

/// A decoded table entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Pos,
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

/// Entries in a bucket.
const BUCKET: usize = 4;
/// Words in a bucket: each entry's check word, then its data word.
const BUCKET_WORDS: usize = 2 * BUCKET;

/// Bytes taken by one bucket: one cache line.
pub const BUCKET_BYTES: usize = 64;

/// Where a data word keeps the epoch ([`Tt::clear`]); the bits below it hold the entry
/// and its age ([`pack`]).
const EPOCH_SHIFT: u32 = 48;
/// The bits of a data word below the epoch's.
const ENTRY_MASK: u64 = (1 << EPOCH_SHIFT) - 1;
/// The bits of a data word that hold the age.
const AGE_MASK: u64 = 63 << 42;
/// The memory page [`Tt::touch_pages`] writes one word of (the smallest page size of the
/// systems the engine runs on; with larger pages some writes are spare).
pub const PAGE_BYTES: usize = 4096;
const PAGE_WORDS: usize = PAGE_BYTES / 8;

pub struct Tt {
    /// The buckets' words, from `start` on: `start` is the first word on a cache line, so
    /// that a probe reads one line from memory, not two (the zeroed allocation is only
    /// 16-byte aligned, so `BUCKET_WORDS - 1` words more are allocated).
    words: Box<[AtomicU64]>,
    start: usize,
    buckets: usize,
    age: AtomicU8,
    /// Entries whose data word holds another epoch are empty; never 0, so that zeroed
    /// memory holds no entry.
    epoch: AtomicU64,
}

fn pack(mv: Pos, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    (mv.0 as u64)
        | ((score as i16 as u16 as u64) << 16)
        | (((depth.clamp(-64, 191) + 64) as u64) << 32)
        | ((bound as u64) << 40)
        | (((age & 63) as u64) << 42)
}

/// Zeroed memory for `words` words, or `None` if the system refuses it.
fn zeroed_words(words: usize) -> Option<Box<[AtomicU64]>> {
    bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(words).ok()
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
    /// A table using at most `bytes` bytes (at least one bucket). Where the system refuses
    /// that much memory, the table is halved until it is granted (the engine sizes its
    /// table so that this does not happen: [`crate::engine::memory::allocatable`]). Its
    /// memory is zeroed by the system, not written here: see the module's documentation.
    pub fn new(bytes: usize) -> Tt {
        let mut buckets = (bytes / BUCKET_BYTES).max(1);
        loop {
            let words = buckets
                .checked_mul(BUCKET_WORDS)
                .and_then(|w| w.checked_add(BUCKET_WORDS - 1))
                .and_then(zeroed_words);
            match words {
                Some(words) => {
                    // Words to skip to the first cache line (the allocation is 8-byte aligned
                    // at least, so a whole number of words).
                    let misalign = words.as_ptr() as usize % BUCKET_BYTES;
                    let start = (BUCKET_BYTES - misalign) % BUCKET_BYTES / 8;
                    return Tt {
                        words,
                        start,
                        buckets,
                        age: AtomicU8::new(0),
                        epoch: AtomicU64::new(1),
                    };
                }
                None if buckets > 1 => buckets /= 2,
                None => std::alloc::handle_alloc_error(
                    std::alloc::Layout::array::<AtomicU64>(2 * BUCKET_WORDS)
                        .expect("a small layout"),
                ),
            }
        }
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Empties the table: a new epoch starts, in which no entry written before is found.
    /// It writes nothing, so it costs nothing whatever the table's size, except when the
    /// epoch wraps round (once every 65,535 clears): then the entries of the epoch that
    /// starts again would come back, and the whole table is written over first.
    pub fn clear(&self) {
        let next = (self.epoch.load(Relaxed) + 1) & 0xFFFF;
        if next == 0 {
            for w in self.words.iter() {
                w.store(0, Relaxed);
            }
            self.epoch.store(1, Relaxed);
        } else {
            self.epoch.store(next, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// The current epoch, as a data word holds it (in its top bits).
    #[inline]
    fn epoch_bits(&self) -> u64 {
        self.epoch.load(Relaxed) << EPOCH_SHIFT
    }

    /// The check and data words of the bucket of `key`.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; BUCKET_WORDS] {
        let b = (((key as u128) * (self.buckets as u128)) >> 64) as usize;
        let at = self.start + b * BUCKET_WORDS;
        self.words[at..at + BUCKET_WORDS]
            .try_into()
            .expect("a bucket's words")
    }

    /// The table's memory in pages of [`PAGE_BYTES`] (rounded up).
    pub fn pages(&self) -> usize {
        self.words.len().div_ceil(PAGE_WORDS)
    }

    /// Writes to one word of each page from `first` on, `count` pages at most, so that
    /// the system maps them now ([`crate::engine::warm`]). The write is a compare-and-swap
    /// of zero by zero: it changes nothing, also while a search stores entries, but the
    /// processor makes it as a write, so the page is mapped for writing.
    pub fn touch_pages(&self, first: usize, count: usize) {
        let touch = |w: &AtomicU64| {
            let _ = w.compare_exchange(0, 0, Relaxed, Relaxed);
        };
        let end = first.saturating_add(count).min(self.pages());
        for page in first..end {
            touch(&self.words[page * PAGE_WORDS]);
        }
        // The allocation need not start on a page: its last word may be one page further.
        if end == self.pages() && first < end {
            touch(&self.words[self.words.len() - 1]);
        }
    }

    /// Every slot's check and data words, bucket by bucket.
    fn slots(&self) -> impl Iterator<Item = (&AtomicU64, &AtomicU64)> {
        self.words[self.start..self.start + self.buckets * BUCKET_WORDS]
            .chunks_exact(2)
            .map(|w| (&w[0], &w[1]))
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
            let p = self.bucket(key) as *const [AtomicU64; BUCKET_WORDS] as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch reads nothing
            // the program can observe and cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let epoch = self.epoch_bits();
        for s in self.bucket(key).chunks_exact(2) {
            let d = s[1].load(Relaxed);
            if d & !ENTRY_MASK == epoch && s[0].load(Relaxed) ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores a result. Keeps deeper and fresher entries: the victim is the same
    /// position if present, else the entry with the lowest depth after an age penalty.
    pub fn store(&self, key: u64, mv: Pos, score: Score, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed) & 63;
        let epoch = self.epoch_bits();
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in b.chunks_exact(2).enumerate() {
            let d = s[1].load(Relaxed);
            // Empty: never written, or written in an epoch before the last clear.
            if d & !ENTRY_MASK != epoch {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            let (e, eage) = unpack(d);
            if s[0].load(Relaxed) ^ d == key {
                // Same position: keep a deeper exact result over a shallow bound,
                // but always keep the best move if the new store has none.
                if bound != Bound::Exact && e.depth > depth + 2 && eage == age {
                    return;
                }
                let mv = if mv.is_none() { e.mv } else { mv };
                let nd = pack(mv, score, depth, bound, age) | epoch;
                s[1].store(nd, Relaxed);
                s[0].store(key ^ nd, Relaxed);
                return;
            }
            let stale = (age.wrapping_sub(eage) & 63) as i32;
            let worth = e.depth - 8 * stale;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let nd = pack(mv, score, depth, bound, age) | epoch;
        b[2 * victim + 1].store(nd, Relaxed);
        b[2 * victim].store(key ^ nd, Relaxed);
    }

    /// Writes the table's entries to `w` in the dump format (see the module's
    /// documentation) with `context` in the header; returns the number of entries.
    /// Entries written while this runs (no search should) may or may not be included.
    pub fn dump(&self, context: u32, w: &mut dyn Write) -> io::Result<u64> {
        let epoch = self.epoch_bits();
        let entries: Vec<(u64, u64)> = self
            .slots()
            .filter_map(|(check, data)| {
                let d = data.load(Relaxed);
                let key = check.load(Relaxed) ^ d;
                // Without the age and the epoch: they mean nothing in another table.
                let entry = d & ENTRY_MASK & !AGE_MASK;
                (d & !ENTRY_MASK == epoch && plausible(entry)).then_some((key, entry))
            })
            .collect();
        let mut sum = Fnv::new();
        let mut put = |w: &mut dyn Write, bytes: &[u8]| -> io::Result<()> {
            sum.update(bytes);
            w.write_all(bytes)
        };
        put(w, &DUMP_MAGIC)?;
        put(w, &DUMP_VERSION.to_le_bytes())?;
        put(w, &context.to_le_bytes())?;
        put(w, &(self.buckets as u64).to_le_bytes())?;
        put(w, &(entries.len() as u64).to_le_bytes())?;
        for &(key, d) in &entries {
            let mut e = [0u8; DUMP_ENTRY_BYTES];
            e[..8].copy_from_slice(&key.to_le_bytes());
            e[8..].copy_from_slice(&d.to_le_bytes());
            put(w, &e)?;
        }
        let total = sum.0;
        w.write_all(&total.to_le_bytes())?;
        w.flush()?;
        Ok(entries.len() as u64)
    }

    /// Replaces the table's contents with the entries of a dump (the whole file in
    /// `bytes`), whose context must be `context`; returns the number of entries read.
    /// The entries are stored as by a search, so a table smaller than the one dumped
    /// keeps the ones its replacement rule prefers. Any error (a short, long or damaged
    /// file, another version or context, an entry no search could have written) leaves
    /// the table as it was.
    pub fn load_dump(&self, context: u32, bytes: &[u8]) -> Result<u64, String> {
        let h = read_dump_header(bytes)?;
        if h.context != context {
            return Err(format!(
                "the dump is for another rule or board size (context {:#x}, here {context:#x})",
                h.context
            ));
        }
        match h.file_len() {
            Some(len) if len == bytes.len() as u64 => {}
            _ => {
                return Err(format!(
                "the file has {} bytes, but its header announces {} entries: truncated or damaged",
                bytes.len(),
                h.entries
            ))
            }
        }
        let body = bytes.len() - DUMP_TRAILER_BYTES;
        let mut sum = Fnv::new();
        sum.update(&bytes[..body]);
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if sum.0 != stored {
            return Err("the checksum does not match: the file is damaged".into());
        }
        let entries: Vec<(u64, u64)> = bytes[DUMP_HEADER_BYTES..body]
            .chunks_exact(DUMP_ENTRY_BYTES)
            .map(|c| {
                let key = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
                let d = u64::from_le_bytes(c[8..].try_into().expect("8 bytes"));
                (key, d)
            })
            .collect();
        if let Some(i) = entries.iter().position(|&(_, d)| !plausible(d)) {
            return Err(format!(
                "entry {i} is not a table entry: the file is damaged"
            ));
        }
        self.clear();
        for &(key, d) in &entries {
            let e = unpack(d).0;
            self.store(key, e.mv, e.score, e.depth, e.bound);
        }
        Ok(entries.len() as u64)
    }

    /// Permille of the first thousand buckets' entries that hold a position, from this
    /// search or an earlier one since the last clear (how full the table is).
    pub fn usage(&self) -> u32 {
        let epoch = self.epoch_bits();
        self.sample(|d| d & !ENTRY_MASK == epoch)
    }

    /// Permille of the first thousand buckets' entries whose data word `counts`.
    fn sample(&self, counts: impl Fn(u64) -> bool) -> u32 {
        let n = self.buckets.min(1000) * BUCKET;
        let used = self
            .slots()
            .take(n)
            .filter(|(_, data)| counts(data.load(Relaxed)))
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
    fn a_clear_forgets_every_entry_without_writing_them() {
        let tt = sample_table();
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(tt.usage() > 0);
        let words_before: Vec<u64> = tt.words.iter().map(|w| w.load(Relaxed)).collect();
        tt.clear();
        // Nothing was written, and nothing is found.
        assert!(tt
            .words
            .iter()
            .zip(&words_before)
            .all(|(w, &b)| w.load(Relaxed) == b));
        assert!((1..=300).all(|i| tt.probe(key(i)).is_none()));
        assert_eq!(tt.usage(), 0);
        assert_eq!(
            dump_bytes(&tt, 1).len(),
            DUMP_HEADER_BYTES + DUMP_TRAILER_BYTES
        );
        // The old entries' slots are free again, and new entries are found.
        tt.store(key(5), Pos(77), 11, 3, Bound::Lower);
        assert_eq!(
            tt.probe(key(5)).map(|e| (e.mv, e.score)),
            Some((Pos(77), 11))
        );
        // When the epoch wraps round, the table is written over: the entries of the
        // epoch that starts again do not come back.
        tt.epoch.store(1, Relaxed);
        tt.store(key(6), Pos(78), 12, 3, Bound::Upper);
        tt.epoch.store(0xFFFF, Relaxed);
        tt.clear();
        assert_eq!(tt.epoch.load(Relaxed), 1);
        assert!(tt.probe(key(6)).is_none());
        assert!(tt.words.iter().all(|w| w.load(Relaxed) == 0));
    }

    #[test]
    fn a_table_is_aligned_to_cache_lines_and_its_pages_can_be_touched() {
        for bytes in [BUCKET_BYTES, 1 << 16, 3 << 20] {
            let tt = Tt::new(bytes);
            assert_eq!(tt.size_bytes(), bytes);
            let first = &tt.words[tt.start] as *const AtomicU64 as usize;
            assert_eq!(first % BUCKET_BYTES, 0);
            tt.store(12345, Pos(300), -5, 7, Bound::Exact);
            tt.touch_pages(0, tt.pages());
            assert_eq!(tt.probe(12345).map(|e| e.score), Some(-5));
        }
    }

    fn sample_table() -> Tt {
        let tt = Tt::new(1 << 16);
        for i in 1..=300u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let bound = [Bound::Upper, Bound::Lower, Bound::Exact][(i % 3) as usize];
            tt.store(
                key,
                Pos(i as u16 + 40),
                i as Score * 7 - 1000,
                (i % 30) as i32,
                bound,
            );
        }
        tt.new_search();
        tt
    }

    fn dump_bytes(tt: &Tt, context: u32) -> Vec<u8> {
        let mut v = Vec::new();
        let n = tt.dump(context, &mut v).unwrap();
        assert_eq!(
            v.len(),
            DUMP_HEADER_BYTES + n as usize * 16 + DUMP_TRAILER_BYTES
        );
        v
    }

    #[test]
    fn a_dump_loads_back_into_a_cleared_table() {
        let tt = sample_table();
        let before: Vec<Option<Entry>> = (1..=300u64)
            .map(|i| tt.probe(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        let kept = before.iter().filter(|e| e.is_some()).count();
        assert!(kept > 250, "{kept}");
        let bytes = dump_bytes(&tt, 0x0102_0f0f);
        assert_eq!(read_dump_header(&bytes).unwrap().entries, kept as u64);
        tt.clear();
        assert!(tt.probe(0x9E37_79B9_7F4A_7C15).is_none());
        assert_eq!(tt.load_dump(0x0102_0f0f, &bytes), Ok(kept as u64));
        for (i, e) in (1..=300u64).zip(&before) {
            assert_eq!(tt.probe(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)), *e, "{i}");
        }
        // Into a bigger table too.
        let big = Tt::new(1 << 20);
        assert_eq!(big.load_dump(0x0102_0f0f, &bytes), Ok(kept as u64));
        for (i, e) in (1..=300u64).zip(&before) {
            assert_eq!(big.probe(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)), *e, "{i}");
        }
    }

    #[test]
    fn a_bad_dump_leaves_the_table_alone() {
        let tt = sample_table();
        let bytes = dump_bytes(&tt, 7);
        let other = Tt::new(1 << 12);
        other.store(99, Pos(50), 5, 5, Bound::Exact);
        let untouched = |t: &Tt| {
            t.probe(99)
                == Some(Entry {
                    mv: Pos(50),
                    score: 5,
                    depth: 5,
                    bound: Bound::Exact,
                })
        };
        let mut cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "too short"),
            (bytes[..20].to_vec(), "too short"),
            (bytes[..bytes.len() - 1].to_vec(), "truncated"),
            ([bytes.clone(), vec![0]].concat(), "truncated"),
            (b"not a table dump at all, nope....".to_vec(), "magic"),
        ];
        let mut flipped = bytes.clone();
        flipped[DUMP_HEADER_BYTES + 20] ^= 4;
        cases.push((flipped, "checksum"));
        let mut version = bytes.clone();
        version[8] = 9;
        cases.push((version, "version"));
        let mut huge = bytes.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        cases.push((huge, "truncated"));
        for (case, why) in &cases {
            let e = other.load_dump(7, case).unwrap_err();
            assert!(e.contains(why), "{why}: {e}");
            assert!(untouched(&other));
        }
        let e = other.load_dump(8, &bytes).unwrap_err();
        assert!(e.contains("another rule"), "{e}");
        assert!(untouched(&other));
        // An entry no search writes, with a checksum that matches.
        let mut forged = bytes.clone();
        let at = DUMP_HEADER_BYTES + 8;
        forged[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        let body = forged.len() - DUMP_TRAILER_BYTES;
        let mut sum = Fnv::new();
        sum.update(&forged[..body]);
        forged[body..].copy_from_slice(&sum.0.to_le_bytes());
        let e = other.load_dump(7, &forged).unwrap_err();
        assert!(e.contains("entry 0"), "{e}");
        assert!(untouched(&other));
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
