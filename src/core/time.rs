//! The clock: [`Instant`], which is `std::time::Instant` everywhere but in a browser,
//! where the standard library has no clock (its `Instant::now` panics on
//! `wasm32-unknown-unknown`) and the page's `performance.now()` is read instead
//! (`core::host`); and a seed for the random choices of weaker play.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use page::Instant;

/// A number that differs from run to run: the wall clock and the process id where there
/// are such, the page's clock in a browser.
pub fn seed() -> u64 {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32)
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        (crate::core::host::now_ms() * 1e6) as u64
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod page {
    use std::ops::{Add, AddAssign, Sub};
    use std::time::Duration;

    /// A point on the page's monotonic clock, in nanoseconds: what this crate uses of
    /// `std::time::Instant`, with the same meaning.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(u64);

    impl Instant {
        pub fn now() -> Instant {
            Instant((crate::core::host::now_ms().max(0.0) * 1e6) as u64)
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_nanos(self.0.saturating_sub(earlier.0))
        }

        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0).map(Duration::from_nanos)
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            u64::try_from(d.as_nanos())
                .ok()
                .and_then(|n| self.0.checked_add(n))
                .map(Instant)
        }

        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            u64::try_from(d.as_nanos())
                .ok()
                .and_then(|n| self.0.checked_sub(n))
                .map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            self.checked_add(d)
                .expect("overflow when adding a duration to an instant")
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            *self = *self + d;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            self.checked_sub(d)
                .expect("overflow when subtracting a duration from an instant")
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
