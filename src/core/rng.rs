//! Small seedable random-number generators, the only ones in the project.
//!
//! Nothing here is for cryptography or statistics: the generators only have to be fast,
//! reproducible from a seed, and the same on every platform. Two algorithms, because
//! numbers already derived from each must not change:
//!
//! - [`SplitMix64`] makes the Zobrist hash keys of the board (and so the bench signature)
//!   and the random colour of `play`; every seed, zero included, is fine.
//! - [`XorShift64`] (Marsaglia's 13/7/17 shifts) makes the random openings of `selfplay`,
//!   `openings` and `tune`, and the random positions of the tests; its seed must not be
//!   zero (zero stays zero).
//!
//! Both implement [`Rng`], which adds [`Rng::below`], [`Rng::chance`] and
//! [`Rng::shuffle`] on top of `next_u64`.

/// A source of 64-bit random numbers and what is built on them.
pub trait Rng {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;

    /// A number in `0..n` (`n` must not be zero), as the remainder of [`Rng::next_u64`]:
    /// a bias of at most `n / 2^64`, nothing at the sizes used here.
    fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den` (`den` must not be zero).
    fn chance(&mut self, num: u64, den: u64) -> bool {
        assert!(den > 0, "chance with a zero denominator");
        self.next_u64() % den < num
    }

    /// Puts `items` in a random order (Fisher–Yates).
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood): the state steps by the golden-ratio constant
/// and each output is the state mixed by two multiply-xorshift rounds.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }
}

impl Rng for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Xorshift64 (Marsaglia): three shift-xor steps of the state, which is also the output.
#[derive(Clone, Debug)]
pub struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// A generator started at `seed`, which must not be zero (it would stay zero).
    pub const fn new(seed: u64) -> XorShift64 {
        XorShift64 { state: seed }
    }
}

impl Rng for XorShift64 {
    fn next_u64(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // The first outputs of SplitMix64 seeded with 0, as in the reference code.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn xorshift_steps_as_written() {
        let mut r = XorShift64::new(1);
        let mut s: u64 = 1;
        for _ in 0..100 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            assert_eq!(r.next_u64(), s);
        }
    }

    #[test]
    fn below_chance_and_shuffle_stay_in_range() {
        let mut r = XorShift64::new(0x5EED);
        assert!((0..1000).all(|_| r.below(7) < 7));
        assert!((0..100).all(|_| r.chance(1, 1)));
        assert!((0..100).all(|_| !r.chance(0, 3)));
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
