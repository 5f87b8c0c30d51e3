//! The registry of open connections: each one's state (idle, receiving a
//! body, working, closing) and since when, the cap with its choice of whom
//! to close, and the reaper's timeouts. The accept loop and the per
//! connection I/O that keep it up to date are in the parent module.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::Limits;

const IDLE: u8 = 0;
const RECEIVING: u8 = 1;
const WORKING: u8 = 2;
const CLOSING: u8 = 3;

/// Milliseconds since the server started (the registry's clock).
#[derive(Debug, Clone, Copy)]
struct Clock(Instant);

impl Clock {
    fn now(self) -> u64 {
        u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// One open connection as the registry sees it.
#[derive(Debug)]
pub struct Conn {
    pub(super) id: u64,
    clock: Clock,
    state: AtomicU8,
    /// When the connection entered its state (ms of [`Clock`]).
    since: AtomicU64,
    /// When the first byte of the request head now arriving came (ms + 1;
    /// 0 while no head is arriving).
    head_started: AtomicU64,
    pub(super) close: Notify,
}

impl Conn {
    fn enter(&self, state: u8) {
        // A connection being closed stays closing.
        let _ = self
            .state
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |now| {
                (now != CLOSING).then_some(state)
            });
        self.since.store(self.clock.now(), Ordering::Release);
    }

    /// A request's head has arrived: a handler works on it.
    pub(super) fn begin_request(&self) {
        self.head_started.store(0, Ordering::Relaxed);
        self.enter(WORKING);
    }

    /// The handler is done (its answer is being written).
    pub(super) fn end_request(&self) {
        self.enter(IDLE);
    }

    /// The handler reads the request body now.
    pub fn receiving(&self) {
        self.enter(RECEIVING);
    }

    /// The handler has the whole body and computes.
    pub fn working(&self) {
        self.enter(WORKING);
    }

    /// Bytes came in: the first of an Idle connection starts a head.
    pub(super) fn saw_bytes(&self) {
        if self.state.load(Ordering::Relaxed) == IDLE
            && self.head_started.load(Ordering::Relaxed) == 0
        {
            self.head_started
                .store(self.clock.now() + 1, Ordering::Relaxed);
        }
    }

    /// Mark for closing and wake its task, which drops the connection.
    fn shut(&self) {
        self.state.store(CLOSING, Ordering::Release);
        self.close.notify_one();
    }
}

/// The connection a request arrived on, in the request's extensions.
#[derive(Debug, Clone)]
pub struct ConnHandle(pub Arc<Conn>);

/// Every open connection.
#[derive(Debug)]
pub struct Registry {
    limits: Limits,
    clock: Clock,
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    /// Connections closed for each reason, for the log.
    closed: Counters,
}

#[derive(Debug, Default)]
struct Counters {
    evicted: AtomicU64,
    header_timeouts: AtomicU64,
    idle_timeouts: AtomicU64,
    refused: AtomicU64,
}

/// What the registry says to a new connection.
pub(super) enum Admission {
    /// Serve it (another may have been closed to make room).
    Serve(Arc<Conn>),
    /// Every connection is working: refuse it.
    Full,
}

impl Registry {
    /// An empty registry with these limits.
    pub fn new(limits: Limits) -> Registry {
        Registry {
            limits,
            clock: Clock(Instant::now()),
            next_id: AtomicU64::new(0),
            open: Mutex::default(),
            closed: Counters::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        // Every update is a single insert or remove: valid after a panic.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Connections open now (closing ones included).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn admit(&self) -> Admission {
        let mut open = self.lock();
        if open.len() >= self.limits.max_connections {
            let live = open
                .values()
                .filter(|c| c.state.load(Ordering::Acquire) != CLOSING)
                .count();
            if live >= self.limits.max_connections {
                match Self::victim(&open) {
                    Some(victim) => {
                        victim.shut();
                        self.closed.evicted.fetch_add(1, Ordering::Relaxed);
                    }
                    None => {
                        self.closed.refused.fetch_add(1, Ordering::Relaxed);
                        return Admission::Full;
                    }
                }
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            clock: self.clock,
            state: AtomicU8::new(IDLE),
            since: AtomicU64::new(self.clock.now()),
            head_started: AtomicU64::new(0),
            close: Notify::new(),
        });
        open.insert(id, Arc::clone(&conn));
        Admission::Serve(conn)
    }

    /// The connection to close for a new one: the oldest Idle, else the
    /// oldest Receiving.
    fn victim(open: &HashMap<u64, Arc<Conn>>) -> Option<&Arc<Conn>> {
        let oldest = |state: u8| {
            open.values()
                .filter(|c| c.state.load(Ordering::Acquire) == state)
                .min_by_key(|c| c.since.load(Ordering::Acquire))
        };
        oldest(IDLE).or_else(|| oldest(RECEIVING))
    }

    /// Close the oldest idle connection now (out of descriptors).
    pub(super) fn evict_one(&self) -> bool {
        let open = self.lock();
        match Self::victim(&open) {
            Some(victim) => {
                victim.shut();
                self.closed.evicted.fetch_add(1, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    pub(super) fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Close every connection past its timeout.
    pub(super) fn reap(&self) {
        self.reap_at(self.clock.now());
    }

    /// [`Registry::reap`] at time `now` (ms of the registry's clock).
    fn reap_at(&self, now: u64) {
        let header = duration_ms(self.limits.header_timeout);
        let idle = duration_ms(self.limits.idle_timeout);
        let open = self.lock();
        for conn in open.values() {
            let state = conn.state.load(Ordering::Acquire);
            let since = conn.since.load(Ordering::Acquire);
            let head = conn.head_started.load(Ordering::Relaxed);
            let expired = match state {
                IDLE if head != 0 && now.saturating_sub(head - 1) > header => {
                    &self.closed.header_timeouts
                }
                IDLE if head == 0 && now.saturating_sub(since) > idle => &self.closed.idle_timeouts,
                // The body reader answers 408 at the timeout; this only
                // catches a handler that never got to answer.
                RECEIVING if now.saturating_sub(since) > 2 * header + 1000 => {
                    &self.closed.header_timeouts
                }
                _ => continue,
            };
            conn.shut();
            expired.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Connections closed by the server so far: (evicted at the cap,
    /// header or body timeouts, idle timeouts, refused with 503).
    pub fn closed(&self) -> (u64, u64, u64, u64) {
        let c = &self.closed;
        (
            c.evicted.load(Ordering::Relaxed),
            c.header_timeouts.load(Ordering::Relaxed),
            c.idle_timeouts.load(Ordering::Relaxed),
            c.refused.load(Ordering::Relaxed),
        )
    }
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max: usize) -> Limits {
        Limits {
            max_connections: max,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
        }
    }

    fn admitted(registry: &Registry) -> Arc<Conn> {
        match registry.admit() {
            Admission::Serve(conn) => conn,
            Admission::Full => panic!("refused"),
        }
    }

    #[test]
    fn at_the_cap_the_oldest_idle_connection_makes_room_and_working_ones_never_do() {
        let registry = Registry::new(limits(3));
        let a = admitted(&registry);
        let b = admitted(&registry);
        let c = admitted(&registry);
        a.begin_request();
        // b became idle before c: b is the oldest idle one.
        c.since
            .store(b.since.load(Ordering::Relaxed) + 5, Ordering::Relaxed);
        let d = admitted(&registry);
        assert_eq!(b.state.load(Ordering::Relaxed), CLOSING);
        assert_eq!(c.state.load(Ordering::Relaxed), IDLE);
        registry.remove(b.id);
        // All working or receiving: the receiving one goes first, then refusal.
        c.receiving();
        d.begin_request();
        let e = admitted(&registry);
        assert_eq!(c.state.load(Ordering::Relaxed), CLOSING);
        registry.remove(c.id);
        e.begin_request();
        assert!(matches!(registry.admit(), Admission::Full));
        assert_eq!(registry.closed(), (2, 0, 0, 1));
        assert_eq!(a.state.load(Ordering::Relaxed), WORKING);
    }

    #[test]
    fn the_reaper_closes_slow_heads_and_idle_connections_only() {
        let registry = Registry::new(Limits {
            max_connections: 10,
            header_timeout: Duration::from_millis(1000),
            idle_timeout: Duration::from_millis(5000),
        });
        let slow_head = admitted(&registry);
        let idle = admitted(&registry);
        let fresh = admitted(&registry);
        let working = admitted(&registry);
        // At 6 s: a head started at 4.5 s (past its 1 s), a connection idle
        // since 0 (past its 5 s), one idle since 5.9 s, one working since 0.
        slow_head.since.store(5_900, Ordering::Relaxed);
        slow_head.head_started.store(4_500 + 1, Ordering::Relaxed);
        idle.since.store(0, Ordering::Relaxed);
        fresh.since.store(5_900, Ordering::Relaxed);
        working.begin_request();
        working.since.store(0, Ordering::Relaxed);
        registry.reap_at(6_000);
        assert_eq!(slow_head.state.load(Ordering::Relaxed), CLOSING);
        assert_eq!(idle.state.load(Ordering::Relaxed), CLOSING);
        assert_eq!(fresh.state.load(Ordering::Relaxed), IDLE);
        assert_eq!(working.state.load(Ordering::Relaxed), WORKING);
        let (_, header, idle_count, _) = registry.closed();
        assert_eq!((header, idle_count), (1, 1));
    }
}
