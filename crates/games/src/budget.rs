//! [`Budget`]: a limit on how long an engine may work for one caller, and a
//! way to stop it early (the server's client went away).
//!
//! **Why a thread-scoped budget.** The exact engines are long loops deep
//! inside plain functions (`cluedo::analyse`, `werewolf::Posterior::compute`
//! and what they call). Passing a budget parameter down every call chain
//! would change dozens of signatures that other callers (the table build,
//! the CLI, the lookup crate's fallbacks) use unbudgeted. Instead a caller
//! runs the engine *inside* a budget ([`Budget::run`]); the engine's loops
//! call [`tick`], which consults the budget of the running thread (none:
//! unlimited, so every existing caller keeps working unchanged). The
//! engines are single-threaded, so the thread is the right scope.
//!
//! A budget is a time limit ([`Budget::with_time`]), a step limit
//! ([`Budget::with_steps`]: deterministic, the same input stops at the same
//! step anywhere) or neither ([`Budget::unlimited`]), and always a cancel
//! flag that any clone can raise from another thread ([`Budget::cancel`]).
//!
//! **Cheap enough for inner loops.** [`tick`] reads one thread-local and
//! one atomic flag; only every [`CLOCK_EVERY`] ticks does it read the clock.
//! The server also sets the flag itself when the deadline passes (from its
//! own timer), so an engine whose ticks are far apart still stops at its
//! next tick.
//!
//! **Sticky.** Once a budget is exhausted, every later [`tick`] fails too.
//! A loop in a function that cannot return an error may therefore just
//! `break` on a failed tick and hand back a partial value: the caller's next
//! `tick()?` (or [`Budget::run`] itself) turns the run into
//! [`Error::Budget`], so a partial value never becomes an answer.
//!
//! ```
//! use std::time::Duration;
//! use gametab_games::budget::{self, Budget, Exceeded};
//! use gametab_games::Error;
//!
//! fn count_forever() -> gametab_games::Result<u64> {
//!     let mut n = 0u64;
//!     loop {
//!         budget::tick()?;
//!         n += 1;
//!     }
//! }
//! let budget = Budget::with_time(Duration::from_millis(20));
//! let result = budget.run(count_forever);
//! assert!(matches!(result, Err(Error::Budget(Exceeded::Time { limit_ms: 20 }))));
//!
//! // Outside a budget, a tick never fails.
//! assert!(budget::tick().is_ok());
//! ```

use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
pub use crate::error::Exceeded;

/// How many [`tick`]s pass between two looks at the clock.
pub const CLOCK_EVERY: u32 = 256;

const RUNNING: u8 = 0;
const CANCELLED: u8 = 1;
const TIMED_OUT: u8 = 2;
const OUT_OF_STEPS: u8 = 3;

#[derive(Debug)]
struct Inner {
    deadline: Option<Instant>,
    limit_ms: u64,
    steps: Option<u64>,
    state: AtomicU8,
}

impl Inner {
    fn exceeded(&self) -> Option<Exceeded> {
        match self.state.load(Ordering::Relaxed) {
            RUNNING => None,
            CANCELLED => Some(Exceeded::Cancelled),
            OUT_OF_STEPS => Some(Exceeded::Steps {
                limit: self.steps.unwrap_or(0),
            }),
            _ => Some(Exceeded::Time {
                limit_ms: self.limit_ms,
            }),
        }
    }

    /// Stop with `reason` unless already stopped (the first reason stays).
    fn stop(&self, reason: u8) {
        let _ = self
            .state
            .compare_exchange(RUNNING, reason, Ordering::Relaxed, Ordering::Relaxed);
    }

    fn look_at_clock(&self) {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop(TIMED_OUT);
        }
    }
}

/// A limit on one piece of engine work: an optional deadline and a cancel
/// flag shared by every clone (so another thread can stop the work).
#[derive(Debug, Clone)]
pub struct Budget {
    inner: Arc<Inner>,
}

impl Budget {
    /// No deadline; stops only when cancelled.
    pub fn unlimited() -> Budget {
        Budget::new(None, 0, None)
    }

    /// A deadline `limit` from now.
    pub fn with_time(limit: Duration) -> Budget {
        let limit_ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        Budget::new(Instant::now().checked_add(limit), limit_ms, None)
    }

    /// At most `limit` [`tick`]s in each [`Budget::run`] (no deadline): a
    /// bound that does not depend on the machine's speed or load.
    pub fn with_steps(limit: u64) -> Budget {
        Budget::new(None, 0, Some(limit))
    }

    fn new(deadline: Option<Instant>, limit_ms: u64, steps: Option<u64>) -> Budget {
        Budget {
            inner: Arc::new(Inner {
                deadline,
                limit_ms,
                steps,
                state: AtomicU8::new(RUNNING),
            }),
        }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.inner.deadline
    }

    /// Stop the work at its next [`tick`] (from any thread).
    pub fn cancel(&self) {
        self.inner.stop(CANCELLED);
    }

    /// Stop the work at its next [`tick`] as if its deadline had passed
    /// (for a caller that keeps its own timer).
    pub fn expire(&self) {
        self.inner.stop(TIMED_OUT);
    }

    /// Why the budget stopped the work, if it did (looks at the clock).
    pub fn exceeded(&self) -> Option<Exceeded> {
        self.inner.look_at_clock();
        self.inner.exceeded()
    }

    /// Run `work` on this thread under the budget: every [`tick`] inside
    /// it checks this budget. When the budget ran out during the run the
    /// answer is [`Error::Budget`], whatever `work` returned (a loop may
    /// have stopped early with a partial value).
    ///
    /// # Errors
    /// [`Error::Budget`], or `work`'s own error.
    pub fn run<T, E: From<Error>>(&self, work: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        if let Some(exceeded) = self.exceeded() {
            return Err(Error::Budget(exceeded).into());
        }
        let previous = CURRENT.with(|current| {
            current.replace(Some(Current {
                inner: Arc::clone(&self.inner),
                countdown: CLOCK_EVERY,
                steps_left: self.inner.steps,
            }))
        });
        // Restores the outer budget even if `work` panics.
        struct Restore(Option<Current>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|current| *current.borrow_mut() = previous);
            }
        }
        let restore = Restore(previous);
        let result = work();
        drop(restore);
        match self.inner.exceeded() {
            Some(exceeded) => Err(Error::Budget(exceeded).into()),
            None => result,
        }
    }
}

/// The budget of the running thread, its clock countdown and the steps it
/// has left.
struct Current {
    inner: Arc<Inner>,
    countdown: u32,
    steps_left: Option<u64>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// One step of engine work: `Err` when the running thread's budget is
/// exhausted (out of time or steps, or cancelled), `Ok` otherwise and
/// always outside [`Budget::run`].
///
/// # Errors
/// [`Error::Budget`] naming why.
#[inline]
pub fn tick() -> Result<(), Error> {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        let Some(current) = current.as_mut() else {
            return Ok(());
        };
        if let Some(left) = current.steps_left.as_mut() {
            match left.checked_sub(1) {
                Some(rest) => *left = rest,
                None => current.inner.stop(OUT_OF_STEPS),
            }
        }
        current.countdown -= 1;
        if current.countdown == 0 {
            current.countdown = CLOCK_EVERY;
            current.inner.look_at_clock();
        }
        match current.inner.exceeded() {
            None => Ok(()),
            Some(exceeded) => Err(Error::Budget(exceeded)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_budget_stops_the_work_and_names_why() {
        let budget = Budget::unlimited();
        let other = budget.clone();
        let mut steps = 0u64;
        let result: Result<(), Error> = budget.run(|| loop {
            tick()?;
            steps += 1;
            if steps == 1000 {
                other.cancel();
            }
        });
        assert_eq!(result, Err(Error::Budget(Exceeded::Cancelled)));
        assert_eq!(steps, 1000, "stopped at the first tick after the cancel");
        // The first reason stays.
        budget.expire();
        assert_eq!(budget.exceeded(), Some(Exceeded::Cancelled));
    }

    #[test]
    fn a_partial_value_never_escapes_a_run() {
        let budget = Budget::unlimited();
        let inner = budget.clone();
        // A loop that cannot return an error breaks and returns its partial
        // count; the run still answers the budget error.
        let result: Result<u32, Error> = budget.run(|| {
            let mut n = 0;
            for i in 0..10_000 {
                if i == 10 {
                    inner.expire();
                }
                if tick().is_err() {
                    break;
                }
                n += 1;
            }
            Ok(n)
        });
        assert_eq!(
            result,
            Err(Error::Budget(Exceeded::Time { limit_ms: 0 })),
            "not the partial 10"
        );
    }

    #[test]
    fn ticks_outside_a_run_and_after_it_never_fail() {
        assert!(tick().is_ok());
        let budget = Budget::with_time(Duration::ZERO);
        let result: Result<(), Error> = budget.run(|| Ok(()));
        assert!(result.is_err(), "an expired budget runs nothing");
        let fresh = Budget::with_time(Duration::from_secs(3600));
        let result: Result<u32, Error> = fresh.run(|| {
            let inner: Result<(), Error> = Budget::unlimited().run(tick);
            inner?;
            tick()?;
            Ok(7)
        });
        assert_eq!(result, Ok(7), "a nested run restores the outer budget");
        assert!(tick().is_ok());
    }

    #[test]
    fn a_step_budget_allows_exactly_its_steps() {
        let budget = Budget::with_steps(3);
        let mut done = 0;
        let result: Result<(), Error> = budget.run(|| loop {
            tick()?;
            done += 1;
        });
        assert_eq!(result, Err(Error::Budget(Exceeded::Steps { limit: 3 })));
        assert_eq!(done, 3);
        let enough: Result<u32, Error> = Budget::with_steps(3).run(|| {
            for _ in 0..3 {
                tick()?;
            }
            Ok(3)
        });
        assert_eq!(enough, Ok(3));
    }

    #[test]
    fn the_deadline_is_seen_through_the_clock() {
        let budget = Budget::with_time(Duration::from_millis(5));
        let started = Instant::now();
        let result: Result<(), Error> = budget.run(|| loop {
            tick()?;
        });
        assert_eq!(result, Err(Error::Budget(Exceeded::Time { limit_ms: 5 })));
        assert!(started.elapsed() >= Duration::from_millis(5));
    }
}
