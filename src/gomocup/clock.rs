//! The session's move clock: the manager's time settings (`INFO timeout_turn`,
//! `timeout_match`, `time_left`), the thinking time our answers used since the manager
//! last said what is left, and what the manager charges for each move beyond the
//! thinking, learnt from its `time_left` reports ([`time::Overhead`]).
//!
//! [`MoveClock::budget`] plans the time of one search for an answer, counted from the
//! moment its command was read; [`MoveClock::answered`] charges it when the search has
//! answered, before the answer is written.

use crate::core::time::Instant;
use crate::engine::time::{self, Budget, Clock};

/// The clock of one search for an answer, as [`MoveClock::budget`] planned it: when its
/// command was read, what the manager's last `time_left` said (where it was sent since the
/// previous answer) and the hard limit allowed from that moment.
#[derive(Copy, Clone, Debug)]
struct MovePlan {
    received: Instant,
    left_ms: Option<u64>,
    hard_ms: u64,
}

/// The time the manager gives and what our answers have used of it.
#[derive(Clone, Debug, Default)]
pub struct MoveClock {
    /// The manager's limits, as `INFO` set them.
    pub clock: Clock,
    /// Thinking time used since the last `INFO time_left` (or since the game started if
    /// the manager sends none).
    pub spent_ms: u64,
    /// What the manager charges for each move beyond the engine's thinking.
    pub overhead: time::Overhead,
    /// The clock of the search now being set up or run.
    plan: Option<MovePlan>,
}

impl MoveClock {
    /// `INFO time_left`: what is left of the match limit; the thinking counted so far is
    /// in it.
    pub fn time_left(&mut self, left_ms: u64) {
        self.overhead.time_left(left_ms);
        log::debug!(
            "time_left {left_ms} ms; kept back for each move to come: {} ms",
            self.overhead.per_move_ms()
        );
        self.clock.left_ms = Some(left_ms);
        self.spent_ms = 0;
    }

    /// A new game: with no `time_left` from the manager, the game's thinking starts at 0.
    pub fn new_game(&mut self) {
        if self.clock.left_ms.is_none() {
            self.spent_ms = 0;
        }
    }

    /// The time of a search for an answer to a command read at `received`, on a board
    /// with `empty` squares left: from the clock, less the time since the command could
    /// be read.
    pub fn budget(&mut self, empty: usize, received: Instant) -> Budget {
        let left = match self.clock.left_ms {
            Some(l) => Some(l.saturating_sub(self.spent_ms)),
            None if self.clock.match_ms > 0 => {
                Some(self.clock.match_ms.saturating_sub(self.spent_ms))
            }
            None => None,
        };
        let clock = Clock {
            left_ms: left,
            ..self.clock
        };
        let mut budget = time::budget(&clock, empty, self.overhead.per_move_ms());
        self.plan = Some(MovePlan {
            received,
            left_ms: self.clock.left_ms.filter(|_| self.spent_ms == 0),
            hard_ms: budget.hard.as_millis() as u64,
        });
        let waited = received.elapsed();
        budget.soft = budget.soft.saturating_sub(waited);
        budget.hard = budget.hard.saturating_sub(waited);
        budget
    }

    /// A search answered (its answer is written next): one that started at `started` and
    /// counts against the clock (`timed`) adds its time to the game's thinking, and the
    /// manager's next `time_left` will show what the answer cost beyond the thinking
    /// allowed and used.
    pub fn answered(&mut self, timed: bool, started: Instant) {
        let plan = self.plan.take();
        if !timed {
            return;
        }
        self.spent_ms = self
            .spent_ms
            .saturating_add(started.elapsed().as_millis() as u64);
        match plan {
            Some(MovePlan {
                received,
                left_ms: Some(left),
                hard_ms,
            }) => {
                let took = received.elapsed().as_millis() as u64;
                log::debug!("answer {took} ms after the command (limit {hard_ms} ms)");
                self.overhead.moved(left, took.min(hard_ms));
            }
            _ => self.overhead.forget_move(),
        }
    }

    /// A move answered without a search (from the position database): nothing to learn
    /// about the manager's charge from it.
    pub fn forget_move(&mut self) {
        self.overhead.forget_move();
    }
}
