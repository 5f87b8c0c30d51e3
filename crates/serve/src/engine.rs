//! The engine pool: where the POSTed engine requests (Cluedo notebook and
//! advice, Werewolf posterior and roles) are computed, bounded in every
//! way a hostile but legal request could stretch them.
//!
//! - **Apart from the tables.** Engines run on a few threads of their own
//!   (`--engine-threads`, default half the cores, at least one), at a lower
//!   CPU priority (nice +10), never on the runtime's workers: a table query
//!   is answered on a worker at once whatever the engines are doing, and
//!   the kernel's scheduler lets a waking worker run before an engine
//!   thread.
//! - **A bounded queue.** At most `--engine-queue` requests wait for a
//!   thread; one more is answered 503 at once (with `Retry-After`). A
//!   waiting request whose client went away gives its place up at once.
//! - **A time budget.** Every engine request is answered within
//!   `--engine-ms` of its arrival, waiting included: at the deadline the
//!   handler answers 503 naming the budget, and the engine, which checks
//!   its [`Budget`] inside its loops, stops at its next step.
//! - **Cancellation.** When the client goes away hyper drops the request's
//!   future; its guard cancels the budget and the engine stops the same
//!   way, so an abandoned request costs at most one step.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use gametab_games::budget::{Budget, Exceeded};
use tokio::sync::oneshot;

use super::params::ApiError;

/// The engine pool's limits (`gametab serve` flags).
#[derive(Debug, Clone, Copy)]
pub struct EngineLimits {
    /// Threads computing engine requests.
    pub threads: usize,
    /// Requests that may wait for a thread.
    pub queue: usize,
    /// Time from arrival to answer of one engine request.
    pub time: Duration,
}

/// The CPU priority of the engine threads (a nice value: lower priority
/// than the runtime's workers at 0).
pub const ENGINE_NICE: i32 = 10;

type Work = Box<dyn FnOnce() -> Result<Bytes, ApiError> + Send>;

struct Job {
    budget: Budget,
    work: Work,
    reply: oneshot::Sender<Result<Bytes, ApiError>>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("budget", &self.budget).finish()
    }
}

/// The requests waiting for an engine thread.
#[derive(Debug)]
struct Queue {
    jobs: Mutex<VecDeque<Job>>,
    ready: Condvar,
    capacity: usize,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Job>> {
        // Pushes and pops are single calls: valid after a panic.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queue `job` unless the queue is full of requests still waited for.
    fn push(&self, job: Job) -> Result<(), Job> {
        let mut jobs = self.lock();
        jobs.retain(|j| !j.reply.is_closed());
        if jobs.len() >= self.capacity {
            return Err(job);
        }
        jobs.push_back(job);
        self.ready.notify_one();
        Ok(())
    }

    /// The next job, waiting for one.
    fn pop(&self) -> Job {
        let mut jobs = self.lock();
        loop {
            if let Some(job) = jobs.pop_front() {
                return job;
            }
            jobs = self.ready.wait(jobs).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The engine threads and their queue.
#[derive(Debug)]
pub struct Engines {
    queue: Arc<Queue>,
    limits: EngineLimits,
}

impl Engines {
    /// Start `limits.threads` engine threads.
    ///
    /// # Errors
    /// A thread that cannot be spawned.
    pub fn start(limits: EngineLimits) -> std::io::Result<Engines> {
        let queue = Arc::new(Queue {
            jobs: Mutex::default(),
            ready: Condvar::new(),
            capacity: limits.queue,
        });
        for i in 0..limits.threads.max(1) {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || engine_thread(&queue, limits))?;
        }
        Ok(Engines { queue, limits })
    }

    /// The limits the pool was started with.
    pub fn limits(&self) -> EngineLimits {
        self.limits
    }

    /// Compute `work` on an engine thread within the budget: its answer,
    /// or the 503 of a full queue or a spent budget. Dropping the returned
    /// future (the client went away) cancels the work.
    pub async fn run(
        &self,
        work: impl FnOnce() -> Result<Bytes, ApiError> + Send + 'static,
    ) -> Result<Bytes, ApiError> {
        let budget = Budget::with_time(self.limits.time);
        let (reply, answer) = oneshot::channel();
        let job = Job {
            budget: budget.clone(),
            work: Box::new(work),
            reply,
        };
        if self.queue.push(job).is_err() {
            return Err(ApiError {
                retry_after: Some(1),
                ..ApiError::status(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the engines are busy: {} requests already wait for the {} engine \
                         threads (--engine-queue, --engine-threads); try again",
                        self.limits.queue, self.limits.threads
                    ),
                )
            });
        }
        // Dropped with this future: an unanswered request stops its engine
        // (after an answer, cancelling changes nothing).
        let _cancel = CancelOnDrop(budget.clone());
        let deadline = budget
            .deadline()
            .map(tokio::time::Instant::from_std)
            .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(86_400));
        match tokio::time::timeout_at(deadline, answer).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(ApiError::status(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the engine failed on this input",
            )),
            Err(_) => {
                budget.expire();
                Err(budget_error(
                    Exceeded::Time {
                        limit_ms: u64::try_from(self.limits.time.as_millis()).unwrap_or(u64::MAX),
                    },
                    self.limits,
                ))
            }
        }
    }
}

/// Cancels the budget when the request's future is dropped unanswered.
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The answer to a request whose budget ran out: 503 naming the limit.
pub fn budget_error(exceeded: Exceeded, limits: EngineLimits) -> ApiError {
    let error = match exceeded {
        Exceeded::Time { .. } => format!(
            "the engine's time budget of {} ms (--engine-ms) ran out before the answer, \
             waiting for a thread included; the log may be too large to analyse on this server",
            limits.time.as_millis()
        ),
        other => format!("the engine stopped: {other}"),
    };
    ApiError::status(StatusCode::SERVICE_UNAVAILABLE, error)
}

fn engine_thread(queue: &Queue, limits: EngineLimits) {
    lower_priority();
    loop {
        let Job {
            budget,
            work,
            reply,
        } = queue.pop();
        if reply.is_closed() {
            continue;
        }
        let answer = match budget.exceeded() {
            Some(exceeded) => Err(budget_error(exceeded, limits)),
            None => {
                // A panic in an engine is a bug; it must not take the
                // thread (and the pool) with it.
                match std::panic::catch_unwind(AssertUnwindSafe(|| budget.run(work))) {
                    Ok(answer) => match budget.exceeded() {
                        Some(exceeded) => Err(budget_error(exceeded, limits)),
                        None => answer,
                    },
                    Err(_) => Err(ApiError::status(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "the engine failed on this input",
                    )),
                }
            }
        };
        let _ = reply.send(answer);
    }
}

/// Lower this thread's CPU priority to [`ENGINE_NICE`] (Linux: per thread).
fn lower_priority() {
    // SAFETY: gettid and setpriority take no pointers.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid, ENGINE_NICE);
    }
}
