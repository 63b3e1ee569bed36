//! Time management: how long to think about one move.
//!
//! Pure functions of the protocol's clock settings and the position; the clock itself
//! is read by the caller. The manager gives a *soft* target (iterative deepening stops
//! starting new iterations once it is spent, scaled by how stable the best move is) and a
//! *hard* limit that the search never passes; both already leave a safety margin for
//! process start-up, I/O and the manager's own overhead. Where only the turn limit binds
//! (no match clock, or one with room to spare), time a move does not use is lost, so the
//! soft target is the hard limit: thinking goes on to the end of the turn.

use std::time::Duration;

/// Clock settings as the protocol gives them, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// `INFO timeout_turn`: limit per move; `0` means "answer at once".
    pub turn_ms: u64,
    /// `INFO timeout_match`: limit for the whole game; `0` means no limit.
    pub match_ms: u64,
    /// `INFO time_left`: what is left of the match limit, if the manager sent it.
    pub left_ms: Option<u64>,
}

impl Default for Clock {
    fn default() -> Clock {
        // Piskvork's defaults when nothing is sent.
        Clock {
            turn_ms: 5_000,
            match_ms: 0,
            left_ms: None,
        }
    }
}

/// The time to spend on one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Target: stop deepening after this, scaled by stability (see [`scale_soft`]).
    pub soft: Duration,
    /// Never think longer than this.
    pub hard: Duration,
}

/// Fixed reserve for reading input, writing the answer and process scheduling (ms).
pub const RESERVE_MS: u64 = 30;

/// What a manager counts against the clock for each move beyond the engine's own
/// thinking (reading the command, scheduling, writing the answer), in milliseconds, at
/// least: [`Overhead`] learns more where a manager's `time_left` shows more.
/// c-gomoku-cli on the development machine counts 0 to 4 ms for a move answered at once.
/// Under a match clock this much is kept back for every move the side may still have
/// to play (half the empty squares), so a game that fills the board cannot be lost on
/// time once the clock is nearly spent: Fivefold lost one that way against Rapfi at 15 s
/// a game, 219 moves after the opening, with 25 ms left for its last 20 moves.
pub const MOVE_OVERHEAD_MS: u64 = 5;

/// The least [`Overhead`] keeps back for each move to come in a build with debug
/// assertions (ms), where a release build keeps [`MOVE_OVERHEAD_MS`]. Such a build checks
/// the board's invariants after every make and unmake, and a move it answers with no
/// time to think (setting up the position, the root threat search's least budget, the
/// first depth) still takes 15 to 45 ms on the development machine beside other work,
/// against under 5 for a release build. That is what every move costs once the clock is
/// nearly spent, and it is not learnt from `time_left`, which shows only what a move
/// costs beyond the engine's own time: kept back at 5 ms a move, the referee test's
/// renju game (two debug builds, 10 s a game) ran out of time in long games.
pub const DEBUG_MOVE_OVERHEAD_MS: u64 = 40;

/// The least overhead kept back for each move to come in this build:
/// [`MOVE_OVERHEAD_MS`], or [`DEBUG_MOVE_OVERHEAD_MS`] with debug assertions.
pub const fn least_overhead_ms() -> u64 {
    if cfg!(debug_assertions) {
        DEBUG_MOVE_OVERHEAD_MS
    } else {
        MOVE_OVERHEAD_MS
    }
}

/// The most one move's observed overhead counts for in [`Overhead`] (ms): a manager that
/// stalls once, or a `time_left` that does not follow the engine's own moves, must not
/// make the engine play at once for the rest of the game.
pub const MAX_OBSERVED_OVERHEAD_MS: u64 = 500;

/// How many more moves of its own the engine plans for under a match clock: games
/// against strong engines are short (a median of about 20 moves after the opening), so
/// planning for more leaves much of the clock unused. The measurements behind the
/// number are in `docs/strength.md` (the ladder's "match clock" row and the `MOVES_TO_GO` rows).
pub const MOVES_TO_GO: u64 = 20;

/// What the manager charges for a move beyond the time the engine allowed itself,
/// learnt from its `INFO time_left` reports, so that the reserve kept for the rest of a
/// game is what the moves really cost here.
///
/// A move's overhead is how much the manager's clock fell over the move (the `time_left`
/// before it less the one after it) beyond the thinking time the engine planned and
/// used: the pipes, process scheduling, a slow build's work outside the search and a
/// search that stops late all show up in it. A debug build on a loaded machine overruns
/// its limit by tens of milliseconds a move; a release build under c-gomoku-cli or
/// Piskvork costs a few.
///
/// The charges are uneven: a move that stops at its soft target between iterations
/// costs little beyond it, one that runs into its hard limit costs the search's late
/// stop as well, and once the clock is nearly spent every move runs into a limit of
/// (almost) nothing. So the estimate is kept near the dearer moves, not at their
/// average: it rises half of the way to an observation above it and falls an eighth of
/// the way to one below (both a quarter of the way until 2026-12-04: a debug build's
/// estimate then sat near 20 ms while its moves that ran to their limit cost 50 to 90
/// more). It is never below [`least_overhead_ms`] and is kept from game to game, since
/// it belongs to the manager and the machine. [`budget`] keeps it back for every move
/// still to come under a match clock, and twice it from the turn limit where that is
/// more than the turn's own reserve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overhead {
    /// The manager's `time_left` when the last move began and the thinking time the
    /// engine allowed itself and used for it, until the next `time_left` is read.
    pending: Option<(u64, u64)>,
    /// The learnt overhead per move (ms), before the floor.
    estimate_ms: u64,
    /// The least kept back for a move ([`least_overhead_ms`] unless a test sets it).
    floor_ms: u64,
}

impl Default for Overhead {
    fn default() -> Overhead {
        Overhead::with_floor(least_overhead_ms())
    }
}

impl Overhead {
    /// Nothing learnt yet, and never less than `floor_ms` kept back for a move (the
    /// engine's is [`Overhead::default`]; a test may model another build).
    fn with_floor(floor_ms: u64) -> Overhead {
        Overhead {
            pending: None,
            estimate_ms: 0,
            floor_ms,
        }
    }

    /// The overhead to keep back for each move still to come (ms).
    pub fn per_move_ms(&self) -> u64 {
        self.estimate_ms.max(self.floor_ms)
    }

    /// The engine answered a move that began with `left_ms` on the manager's clock (as
    /// its last `time_left` said) and thought for `used_ms` of the time it allowed
    /// itself (the smaller of the two).
    pub fn moved(&mut self, left_ms: u64, used_ms: u64) {
        self.pending = Some((left_ms, used_ms));
    }

    /// A move's charge cannot be told (the manager sent no `time_left` before it, or the
    /// engine moved twice without one in between): the next `time_left` teaches nothing.
    pub fn forget_move(&mut self) {
        self.pending = None;
    }

    /// The manager sent `time_left`: if it follows one of the engine's moves, what the
    /// clock fell by beyond the thinking time is one observation. A clock that rose (a
    /// new game, an increment) teaches nothing.
    pub fn time_left(&mut self, left_ms: u64) {
        if let Some((before, used)) = self.pending.take() {
            if left_ms <= before {
                let seen = (before - left_ms)
                    .saturating_sub(used)
                    .min(MAX_OBSERVED_OVERHEAD_MS);
                // Half of the way up to a dearer move, an eighth of the way down to a
                // cheaper one (see the type's notes), rounded away from the estimate
                // so that it does reach a steady observation.
                self.estimate_ms = if seen >= self.estimate_ms {
                    self.estimate_ms + (seen - self.estimate_ms).div_ceil(2)
                } else {
                    self.estimate_ms - (self.estimate_ms - seen).div_ceil(8)
                };
            }
        }
    }
}

/// Time for one move given the clock, the number of empty squares left (the game cannot
/// last longer than that) and what the manager charges for each move beyond the
/// engine's thinking ([`MOVE_OVERHEAD_MS`], or more as [`Overhead`] learns it).
pub fn budget(clock: &Clock, empty_squares: usize, move_overhead_ms: u64) -> Budget {
    // Per-move cap: the turn limit minus a reserve that grows with the limit (3%, at
    // least RESERVE_MS) and with the manager's overhead (twice it, since what is learnt
    // is an average; the least overhead stays under RESERVE_MS).
    let turn_cap = if clock.turn_ms == 0 {
        0
    } else {
        let reserve = RESERVE_MS
            .max(clock.turn_ms / 100 * 3)
            .max(move_overhead_ms.saturating_mul(2));
        clock.turn_ms.saturating_sub(reserve)
    };
    let mut hard = turn_cap;
    let mut soft = turn_cap;
    // Match clock: what is left, or the whole match if the manager sent no time_left.
    let left = match (clock.left_ms, clock.match_ms) {
        (Some(l), _) => Some(l),
        (None, 0) => None,
        (None, m) => Some(m),
    };
    if let Some(left) = left {
        // Keep a reserve for the rest of the game (a fixed part, a fiftieth of what is
        // left, and the overhead of every move that may still come) and share what is
        // usable over [`MOVES_TO_GO`] more moves (fewer when the board has room for
        // fewer). What a move takes comes off the clock, so the next share is smaller: a
        // game ends with time left over, the more of it the longer the horizon.
        let moves_left = (empty_squares as u64).div_ceil(2);
        let reserve = RESERVE_MS
            .saturating_add(left / 50)
            .saturating_add(moves_left.saturating_mul(move_overhead_ms));
        let usable = left.saturating_sub(reserve);
        let moves_to_go = moves_left.clamp(8, MOVES_TO_GO);
        let share = usable / moves_to_go;
        // Allow one move to take up to a quarter of what is usable when it needs to.
        let cap = usable / 4;
        soft = soft.min(share);
        hard = hard.min(cap.max(share));
    }
    if soft < turn_cap || clock.turn_ms == 0 {
        // The match clock binds: what this move does not use is left for later ones.
        // Target a fraction of the hard limit: deepening one more ply costs several
        // times the last one, so starting one near the limit rarely finishes.
        soft = soft.min(hard).min(hard / 10 * 6 + 1);
    } else {
        // Only the turn limit binds: time this move does not use is lost, so the search
        // goes on to the hard limit (a deeper iteration cut short still counts where its
        // first moves were searched to the end; see `Searcher::search`).
        soft = hard;
    }
    Budget {
        soft: Duration::from_millis(soft),
        hard: Duration::from_millis(hard),
    }
}

/// Scales the soft target by how the search is going: `stable_iterations` is how many
/// completed depths in a row kept the same best move, `score_drop` how much the score
/// fell since the previous depth (positive = worse). Returns the target to compare the
/// elapsed time with (never above `hard`).
pub fn scale_soft(b: &Budget, stable_iterations: u32, score_drop: i32) -> Duration {
    if b.soft >= b.hard {
        // The whole turn is to be used (see `budget`).
        return b.hard;
    }
    let mut f = match stable_iterations {
        0 => 1.4,
        1 => 1.1,
        2 => 0.9,
        3 => 0.7,
        _ => 0.5,
    };
    if score_drop > 30 {
        f *= 1.5;
    }
    if score_drop > 100 {
        f *= 1.3;
    }
    b.soft.mul_f64(f).min(b.hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn per_move_only() {
        let b = budget(
            &Clock {
                turn_ms: 1000,
                match_ms: 0,
                left_ms: None,
            },
            200,
            MOVE_OVERHEAD_MS,
        );
        assert!(ms(b.hard) <= 1000 - RESERVE_MS && ms(b.hard) >= 900);
        // Nothing to save time for: the whole turn is used, however stable the move.
        assert_eq!(b.soft, b.hard);
        assert_eq!(scale_soft(&b, 5, 0), b.hard);
        // A match clock with room for many such moves changes nothing.
        let roomy = Clock {
            turn_ms: 1000,
            match_ms: 1_000_000,
            left_ms: Some(1_000_000),
        };
        assert_eq!(budget(&roomy, 200, MOVE_OVERHEAD_MS), b);
    }

    #[test]
    fn instant_answer() {
        let b = budget(
            &Clock {
                turn_ms: 0,
                match_ms: 0,
                left_ms: None,
            },
            200,
            MOVE_OVERHEAD_MS,
        );
        assert_eq!(ms(b.hard), 0);
    }

    #[test]
    fn a_short_game_uses_most_of_the_match_clock() {
        // Fifteen seconds a game, three a move, and a game of twenty moves of our own in
        // which each move takes its planned share: most of the clock goes into the game
        // instead of being left over at its end, and no move may overrun it.
        let mut left = 15_000u64;
        for m in 0..20 {
            let clock = Clock {
                turn_ms: 3_000,
                match_ms: 15_000,
                left_ms: Some(left),
            };
            let b = budget(&clock, 220 - 2 * m, MOVE_OVERHEAD_MS);
            assert!(ms(b.hard) < left && b.soft <= b.hard);
            left -= ms(b.soft);
        }
        assert!(left < 15_000 * 45 / 100, "{left} ms of 15 000 left");
        assert!(left > 15_000 / 5, "{left} ms of 15 000 left");
    }

    #[test]
    fn a_game_that_fills_the_board_is_not_lost_on_time() {
        // Fifteen seconds a game, three a move, on 15x15 with three stones of an opening
        // on the board: each move takes all of its hard limit, and the manager counts
        // 4 ms more for it. The clock lasts to the last square.
        let mut left = 15_000i64;
        let mut empty = 222usize;
        while empty > 0 {
            let clock = Clock {
                turn_ms: 3_000,
                match_ms: 15_000,
                left_ms: Some(left as u64),
            };
            let b = budget(&clock, empty, MOVE_OVERHEAD_MS);
            left -= ms(b.hard) as i64 + 4;
            assert!(left >= 0, "out of time with {empty} empty squares");
            empty = empty.saturating_sub(2);
        }
    }

    #[test]
    fn match_clock_is_shared_over_the_game() {
        let b = budget(
            &Clock {
                turn_ms: 30_000,
                match_ms: 60_000,
                left_ms: Some(60_000),
            },
            225,
            MOVE_OVERHEAD_MS,
        );
        assert!(ms(b.soft) <= 60_000 / 8);
        assert!(ms(b.hard) <= 60_000 / 4);
        // Where the match clock binds, a stable move stops early to save time for later.
        assert!(b.soft < b.hard);
        assert!(scale_soft(&b, 5, 0) < scale_soft(&b, 0, 0));
        // Nearly out of time: tiny but never past what is left.
        let b = budget(
            &Clock {
                turn_ms: 30_000,
                match_ms: 60_000,
                left_ms: Some(100),
            },
            100,
            MOVE_OVERHEAD_MS,
        );
        assert!(ms(b.hard) < 100);
        let b = budget(
            &Clock {
                turn_ms: 30_000,
                match_ms: 60_000,
                left_ms: Some(10),
            },
            100,
            MOVE_OVERHEAD_MS,
        );
        assert_eq!(ms(b.hard), 0);
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let b = budget(
            &Clock {
                turn_ms: u64::MAX,
                match_ms: u64::MAX,
                left_ms: Some(u64::MAX),
            },
            1000,
            MOVE_OVERHEAD_MS,
        );
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn the_overhead_is_learnt_from_time_left() {
        let mut o = Overhead::with_floor(MOVE_OVERHEAD_MS);
        assert_eq!(o.per_move_ms(), MOVE_OVERHEAD_MS);
        // Every move charged 60 ms more than the 200 ms thought: the estimate gets there.
        let mut left = 100_000;
        for _ in 0..20 {
            o.time_left(left);
            o.moved(left, 200);
            left -= 260;
        }
        o.time_left(left);
        assert_eq!(o.per_move_ms(), 60);
        // A clock that rose (a new game) teaches nothing, nor does a time_left after a
        // move whose start the manager did not report.
        o.moved(5_000, 100);
        o.time_left(10_000);
        o.forget_move();
        o.time_left(1_000);
        assert_eq!(o.per_move_ms(), 60);
        // One stall counts for at most MAX_OBSERVED_OVERHEAD_MS, raises the estimate
        // half of the way to it, and is forgotten within a game's length.
        o.moved(100_000, 0);
        o.time_left(40_000);
        let after_stall = o.per_move_ms();
        assert_eq!(
            after_stall,
            60 + (MAX_OBSERVED_OVERHEAD_MS - 60).div_ceil(2)
        );
        let mut left = 90_000;
        for _ in 0..10 {
            o.moved(left, 100);
            left -= 102;
            o.time_left(left);
        }
        assert!(o.per_move_ms() < after_stall / 2, "{o:?}");
        for _ in 0..30 {
            o.moved(left, 100);
            left -= 102;
            o.time_left(left);
        }
        // A fast manager brings it back down, never below the floor.
        assert_eq!(o.per_move_ms(), MOVE_OVERHEAD_MS);
    }

    #[test]
    fn a_slow_manager_shortens_the_turn_too() {
        let clock = Clock {
            turn_ms: 300,
            match_ms: 0,
            left_ms: None,
        };
        assert_eq!(
            ms(budget(&clock, 200, MOVE_OVERHEAD_MS).hard),
            300 - RESERVE_MS
        );
        // Moves charged 40 ms beyond the thinking: twice that is kept back.
        assert_eq!(ms(budget(&clock, 200, 40).hard), 300 - 80);
    }

    /// Plays a game of `moves` moves of our own under a match clock, each charged
    /// `overrun_ms` more than its hard limit, the overhead learnt from `time_left` when
    /// `learn` is set; the smallest time left before a move.
    fn lowest_clock(
        turn_ms: u64,
        match_ms: u64,
        overrun_ms: u64,
        moves: usize,
        learn: bool,
    ) -> i64 {
        lowest_clock_uneven(turn_ms, match_ms, &[Some(overrun_ms)], moves, learn)
    }

    /// [`lowest_clock`] with moves of two kinds, in the order of `pattern` over and
    /// over: `None` stops at its soft target and costs nothing more, `Some(o)` runs to its
    /// hard limit and is charged `o` ms beyond it.
    fn lowest_clock_uneven(
        turn_ms: u64,
        match_ms: u64,
        pattern: &[Option<u64>],
        moves: usize,
        learn: bool,
    ) -> i64 {
        // A release build's floor, whatever build runs the test.
        let mut o = Overhead::with_floor(MOVE_OVERHEAD_MS);
        let mut left = match_ms as i64;
        let mut lowest = left;
        for m in 0..moves {
            o.time_left(left as u64);
            let clock = Clock {
                turn_ms,
                match_ms,
                left_ms: Some(left as u64),
            };
            let overhead = if learn {
                o.per_move_ms()
            } else {
                MOVE_OVERHEAD_MS
            };
            let b = budget(&clock, 224 - 2 * m, overhead);
            let (used, charged) = match pattern[m % pattern.len()] {
                None => (ms(b.soft), ms(b.soft)),
                Some(overrun_ms) => (ms(b.hard), ms(b.hard) + overrun_ms),
            };
            o.moved(left as u64, used);
            left -= charged as i64;
            lowest = lowest.min(left);
        }
        lowest
    }

    #[test]
    fn a_slow_manager_does_not_make_the_engine_lose_on_time() {
        // Ten seconds a game, 300 ms a move (the referee test's renju game), every move
        // charged 40 ms beyond its hard limit (a debug build overrunning on a loaded
        // machine), and a game of 100 moves of our own: with 5 ms kept back a move the
        // clock runs out; learning the overhead from time_left keeps it.
        assert!(lowest_clock(300, 10_000, 40, 100, false) < 0);
        assert!(lowest_clock(300, 10_000, 40, 100, true) > 0);
        // The same with a release build's few milliseconds: nothing changes.
        assert_eq!(
            lowest_clock(300, 10_000, 3, 100, true),
            lowest_clock(300, 10_000, 3, 100, false)
        );
    }

    #[test]
    fn moves_that_overrun_now_and_then_do_not_make_the_engine_lose_on_time() {
        // The referee test's renju game again, on a loaded machine: most moves stop at
        // their soft target, but every third one runs into its hard limit and is
        // charged 70 ms beyond it (the debug build's late stop). The average overhead,
        // about 23 ms, is not enough to keep back for the moves that run to a limit of
        // nothing at the end; keeping near the dearer moves is.
        let pattern = [None, None, Some(70)];
        assert!(lowest_clock_uneven(300, 10_000, &pattern, 100, true) > 200);
        assert!(lowest_clock_uneven(300, 10_000, &pattern, 110, true) > 200);
        // Moves that stop at their target and cost nothing more use the clock as before.
        assert!(lowest_clock_uneven(300, 10_000, &[None], 110, true) > 0);
    }

    #[test]
    fn stability_scales_target() {
        let b = Budget {
            soft: Duration::from_millis(1000),
            hard: Duration::from_millis(2000),
        };
        assert!(scale_soft(&b, 5, 0) < scale_soft(&b, 0, 0));
        assert!(scale_soft(&b, 0, 200) <= b.hard);
        assert!(scale_soft(&b, 1, 200) > scale_soft(&b, 1, 0));
    }
}
