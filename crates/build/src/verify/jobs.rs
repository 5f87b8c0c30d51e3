//! Jobs of a verifier run on the thread pool by a few workers, heavy ones
//! one at a time: [`in_parallel`]. The Liar's Dice endgame check runs one
//! job per stored game with it, so that at most a few games' strategies
//! are alive at once and never two of the largest.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

/// The places [`in_parallel`] has left to hand out.
struct Queue {
    /// Places of the light jobs, in the order to take them.
    light: VecDeque<usize>,
    /// Places of the heavy jobs, in the order to take them.
    heavy: VecDeque<usize>,
    /// Whether a heavy job is running.
    heavy_running: bool,
}

/// Marks the heavy job done when dropped (also when the job panics, so
/// that no worker waits for it forever).
struct HeavyDone<'a>(&'a (Mutex<Queue>, Condvar));

impl Drop for HeavyDone<'_> {
    fn drop(&mut self) {
        let (queue, wake) = self.0;
        queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .heavy_running = false;
        wake.notify_all();
    }
}

/// `work` of every place `0..order.len()`, taken in `order` by as many
/// workers as the thread pool has threads (each takes the next place when
/// it is done with one), the results by place. The places `heavy` names
/// run one at a time, each as soon as no other heavy one runs, the others
/// meanwhile: the games stored by their support have the largest working
/// sets, and two at once would double the peak of the check.
///
/// The results do not depend on the thread count or the order the jobs
/// ran in, only on `work`.
pub fn in_parallel<T: Send>(
    order: &[usize],
    heavy: impl Fn(usize) -> bool,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let (heavy, light) = order.iter().partition(|&&place| heavy(place));
    let queue = (
        Mutex::new(Queue {
            light,
            heavy,
            heavy_running: false,
        }),
        Condvar::new(),
    );
    let done: Vec<Mutex<Option<T>>> = order.iter().map(|_| Mutex::new(None)).collect();
    let next = || -> Option<(usize, bool)> {
        let (lock, wake) = &queue;
        let mut q = lock.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if !q.heavy_running {
                if let Some(place) = q.heavy.pop_front() {
                    q.heavy_running = true;
                    return Some((place, true));
                }
            }
            if let Some(place) = q.light.pop_front() {
                return Some((place, false));
            }
            if q.heavy.is_empty() {
                return None;
            }
            // Only heavy places are left, and one runs.
            q = wake.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    };
    rayon::scope(|scope| {
        for _ in 0..rayon::current_num_threads().min(order.len()) {
            scope.spawn(|_| {
                while let Some((place, is_heavy)) = next() {
                    let _done = is_heavy.then(|| HeavyDone(&queue));
                    let result = work(place);
                    *done[place].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    done.into_iter()
        .filter_map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}
