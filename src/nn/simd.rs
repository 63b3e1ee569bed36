//! The one place where the network's inference picks the CPU's vector instructions.
//!
//! The evaluator's hot code (bringing the square vectors to a board, the head) is plain
//! Rust on fixed-size arrays that the compiler vectorises. A plain `cargo build
//! --release` targets the baseline of its architecture (SSE2 on x86-64), so that code
//! would run on 128-bit vectors whatever the CPU has. [`Simd::run`] runs a [`Kernel`]
//! compiled a second time inside a function that enables AVX2 (`#[target_feature]`):
//! the kernel's body and the `#[inline(always)]` helpers it calls are inlined there and
//! vectorised for those instructions. Which copy runs is decided by run-time detection
//! ([`Simd::detect`], once per evaluator).
//!
//! No AVX-512 copy: on the AMD EPYC (Zen 4) it was measured on, one made the bench
//! slower than AVX2's (the work is bound by the table rows' loads, not by the width of
//! the adds), and the Intel CPUs that have it lower their clock for 512-bit work.
//!
//! The copies compute the same results to the bit: integer lanes wrap the same way at
//! any width, and a floating-point sum keeps its order (the compiler vectorises across
//! outputs, never within one sum, and contracts no multiply and add into one).
//!
//! This module holds the network's one `unsafe` block: calling a `#[target_feature]`
//! function, sound only where the CPU has those features, which [`Simd`]'s one
//! constructor of the wider levels has checked.

/// The vector instructions [`Simd::run`] compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// The build's own target (SSE2 on x86-64, what `-C target-cpu` says, or none).
    Portable,
    /// AVX2 (256-bit integer vectors).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

/// A level of vector instructions the CPU running this process has. Only
/// [`Simd::detect`] (and [`Simd::available`], which checks the same way) makes one above
/// [`Simd::portable`], after asking the CPU; that is what makes [`Simd::run`] sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd(Level);

impl Simd {
    /// The build's own target, on any CPU.
    pub fn portable() -> Simd {
        Simd(Level::Portable)
    }

    /// The widest level this CPU has (asked once; the answer is cached by the standard
    /// library).
    pub fn detect() -> Simd {
        Simd::available()
            .last()
            .copied()
            .unwrap_or(Simd::portable())
    }

    /// Every level this CPU has, narrowest first ([`Simd::portable`] always).
    pub fn available() -> Vec<Simd> {
        #[allow(unused_mut)]
        let mut levels = vec![Simd::portable()];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(Simd(Level::Avx2));
            }
        }
        levels
    }

    /// The level's name, for diagnostics.
    pub fn name(self) -> &'static str {
        match self.0 {
            Level::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => "avx2",
        }
    }

    /// Runs kernel `k`, compiled for this level's instructions: its
    /// [`Kernel::run`] (`#[inline(always)]`) is inlined into the level's copy of this
    /// function, and with it what that calls `#[inline(always)]`.
    #[inline(always)]
    pub fn run<K: Kernel>(self, k: K) -> K::Out {
        #[cfg(target_arch = "x86_64")]
        {
            if self.0 == Level::Avx2 {
                // SAFETY: calling a `#[target_feature]` function is sound where the CPU
                // has the features it enables. `Level::Avx2` is made only in
                // `Simd::available`, after `is_x86_feature_detected!("avx2")` found
                // AVX2 on the CPU this process runs on; `Simd`'s field is private, so no
                // other code makes one. `with_avx2` does nothing but call `k.run()`,
                // which is safe code.
                #[allow(unsafe_code)]
                return unsafe { with_avx2(k) };
            }
        }
        k.run()
    }
}

/// A piece of hot code for [`Simd::run`]: a value holding its inputs, whose `run` is
/// `#[inline(always)]` (a closure would not be inlined into the three copies).
pub trait Kernel {
    type Out;
    /// The code. Implementations must be `#[inline(always)]`, as must what they call
    /// for it to be vectorised with the level's instructions.
    fn run(self) -> Self::Out;
}

/// `k`, compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn with_avx2<K: Kernel>(k: K) -> K::Out {
    k.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detected_level_is_the_widest_available_and_runs() {
        let all = Simd::available();
        assert_eq!(all[0], Simd::portable());
        assert_eq!(*all.last().unwrap(), Simd::detect());
        struct Squares(i32);
        impl Kernel for Squares {
            type Out = Vec<i32>;
            #[inline(always)]
            fn run(self) -> Vec<i32> {
                (0..self.0).map(|x| x * x).collect()
            }
        }
        for s in all {
            let v = s.run(Squares(100));
            assert_eq!(v.iter().sum::<i32>(), 328_350, "{}", s.name());
        }
    }
}
