//! The connections of `gametab serve`: its own accept loop over hyper's
//! HTTP/1 server, so that every connection is bounded in number and time.
//!
//! `axum::serve` accepts every connection and keeps it as long as the
//! client likes: slowloris, idle keep-alive and slow-body clients held
//! descriptors until the process ran out of them, and then nobody was
//! answered. Here every connection is registered ([`Registry`]) with its
//! state, which the request path keeps up to date at almost no cost (an
//! atomic store when a request starts and ends, one when the first byte of
//! a head arrives):
//!
//! - **Idle**: between requests, or receiving a request head. A reaper
//!   closes it when the head has not arrived within `header_timeout` of its
//!   first byte, or when no byte came within `idle_timeout` of the previous
//!   answer (or of the connect).
//! - **Receiving**: a handler is reading the request body (the handler's
//!   body reader answers 408 when it takes over `header_timeout`).
//! - **Working**: a handler is computing the answer. Table answers take
//!   microseconds; engine answers are bounded by the engine pool's budget
//!   and queue (`engine.rs`), so only a bounded number can be Working.
//!
//! **The cap.** At most `max_connections` are open (by default the
//! descriptor limit minus a reserve, so the process never runs out of
//! descriptors). At the cap the server keeps accepting: the new connection
//! takes the place of the oldest Idle one (or, if none, the oldest
//! Receiving one), which is closed. An attacker holding idle sockets thus
//! only ever holds the oldest slots, and a real client's request (sent
//! right after its connect) is answered. Only when every connection is
//! Working is the new one refused, with a JSON 503.
//!
//! **Every error is JSON.** hyper answers a request it cannot parse (400),
//! a URI too long (414) or a head too large (431) itself, with an empty
//! body, before any handler runs. The connection's writer recognises that
//! automatic answer (a 4xx head with `content-length: 0`, which no handler
//! of ours ever produces) and writes the JSON error document instead.
//!
//! **Closing.** A connection the server closes after an answer (a 413 from
//! the declared length, a parse error) is shut down for writing first and
//! drained for a moment (at most [`LINGER`] and [`LINGER_BYTES`]), so that a
//! client still sending its body reads the answer instead of a reset.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};

use axum::http::{Request, StatusCode};
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};

/// Descriptors kept free of connections for everything else the process
/// opens (standard streams, the runtime's epoll and wakers, the listener,
/// the table files a reload reads one at a time).
pub const RESERVED_FDS: u64 = 64;

/// Longest a closing connection is drained after its last answer.
pub const LINGER: Duration = Duration::from_secs(2);

/// Most bytes a closing connection drains before it is closed anyway.
pub const LINGER_BYTES: usize = 64 << 20;

/// Largest request head (request line and headers) in bytes; hyper's own
/// minimum is 8 KiB. A larger head is answered 431, a longer URI 414.
pub const MAX_HEAD: usize = 16 << 10;

/// How often the reaper looks for connections past their timeouts.
const REAP_EVERY: Duration = Duration::from_millis(100);

/// The connection limits (`gametab serve` flags).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most connections open at once.
    pub max_connections: usize,
    /// A request head must arrive within this time of its first byte (and
    /// a request body within this time of its head).
    pub header_timeout: Duration,
    /// A keep-alive connection is closed after this long without a byte.
    pub idle_timeout: Duration,
}

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
    id: u64,
    clock: Clock,
    state: AtomicU8,
    /// When the connection entered its state (ms of [`Clock`]).
    since: AtomicU64,
    /// When the first byte of the request head now arriving came (ms + 1;
    /// 0 while no head is arriving).
    head_started: AtomicU64,
    close: Notify,
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
    fn begin_request(&self) {
        self.head_started.store(0, Ordering::Relaxed);
        self.enter(WORKING);
    }

    /// The handler is done (its answer is being written).
    fn end_request(&self) {
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
    fn saw_bytes(&self) {
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
enum Admission {
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

    fn admit(&self) -> Admission {
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
    fn evict_one(&self) -> bool {
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

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Close every connection past its timeout.
    fn reap(&self) {
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

/// The bytes of a whole JSON error answer (with `connection: close`), for
/// the answers written below the router: hyper's parse errors and the 503
/// at the connection cap.
pub type ErrorPage = Arc<dyn Fn(StatusCode, &str) -> Vec<u8> + Send + Sync>;

/// The most connections the descriptor limit allows (`RLIMIT_NOFILE`
/// minus [`RESERVED_FDS`]), after raising the soft limit to the hard one
/// (as Go's runtime does) so that a generous hard limit is used.
pub fn descriptor_room() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write `limit`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024 - RESERVED_FDS;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur.saturating_sub(RESERVED_FDS)
}

/// Accept and serve connections on `listener` until `shutdown` turns
/// true, then let the open ones finish their requests and return.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    registry: Arc<Registry>,
    error_page: ErrorPage,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.max_buf_size(MAX_HEAD)
        .header_read_timeout(None)
        .keep_alive(true);
    let http = Arc::new(http);
    let reaper = tokio::spawn({
        let registry = Arc::clone(&registry);
        async move {
            let mut ticks = tokio::time::interval(REAP_EVERY);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                registry.reap();
            }
        }
    });
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = shutdown.changed() => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors (another part of the process, or a
                // limit lowered under us): make room, then try again.
                if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) {
                    registry.evict_one();
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let conn = match registry.admit() {
            Admission::Serve(conn) => conn,
            Admission::Full => {
                let page = error_page(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "every connection the server allows is busy (--max-connections); try again",
                );
                // Small enough for the socket buffer: one try, no task.
                let _ = stream.try_write(&page);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            conn,
            Arc::clone(&registry),
            router.clone(),
            Arc::clone(&http),
            Arc::clone(&error_page),
            shutdown.clone(),
        ));
    }
    // Idle connections close at once on the graceful shutdown; the
    // others finish their request (engines within their budget), and the
    // reaper still closes a head or a body that never ends.
    while !registry.is_empty() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    reaper.abort();
}

/// Removes a connection from the registry when its task ends, however.
struct Registered {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.registry.remove(self.id);
    }
}

async fn connection(
    stream: TcpStream,
    conn: Arc<Conn>,
    registry: Arc<Registry>,
    router: Router,
    http: Arc<hyper::server::conn::http1::Builder>,
    error_page: ErrorPage,
    mut shutdown: watch::Receiver<bool>,
) {
    let _registered = Registered {
        registry,
        id: conn.id,
    };
    let io = TokioIo::new(Tracked {
        stream,
        conn: Arc::clone(&conn),
        error_page,
        replacing: None,
    });
    let service = ConnService {
        router,
        conn: Arc::clone(&conn),
    };
    let mut http = http.serve_connection(io, service);
    let mut graceful = *shutdown.borrow();
    if graceful {
        Pin::new(&mut http).graceful_shutdown();
    }
    loop {
        tokio::select! {
            _ = std::future::poll_fn(|cx| http.poll_without_shutdown(cx)) => break,
            _ = conn.close.notified() => return,
            changed = shutdown.changed(), if !graceful => {
                graceful = true;
                if changed.is_err() || *shutdown.borrow() {
                    Pin::new(&mut http).graceful_shutdown();
                }
            }
        }
    }
    // Done (the client closed, the answer said `connection: close`, or the
    // request could not be parsed): drain before closing so that a client
    // still sending reads the answer. Evictable meanwhile.
    conn.end_request();
    let mut stream = http.into_parts().io.into_inner().stream;
    tokio::select! {
        _ = linger(&mut stream) => {}
        _ = conn.close.notified() => {}
    }
}

/// Shut the write side, then read and discard what the client still sends
/// (at most [`LINGER_BYTES`] within [`LINGER`]).
async fn linger(stream: &mut TcpStream) {
    let shut = std::future::poll_fn(|cx| Pin::new(&mut *stream).poll_shutdown(cx)).await;
    if shut.is_err() {
        return;
    }
    let deadline = tokio::time::Instant::now() + LINGER;
    let mut buffer = vec![0u8; 16 << 10];
    let mut drained = 0;
    while drained < LINGER_BYTES {
        match tokio::time::timeout_at(deadline, stream.readable()).await {
            Ok(Ok(())) => match stream.try_read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => drained += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(_) => break,
            },
            _ => break,
        }
    }
}

/// The router as the hyper service of one connection: marks the
/// connection Working while a request is handled and hands the handlers
/// its [`ConnHandle`].
#[derive(Clone)]
struct ConnService {
    router: Router,
    conn: Arc<Conn>,
}

/// Marks the connection Idle again when the request is done or dropped.
struct Active(Arc<Conn>);

impl Drop for Active {
    fn drop(&mut self) {
        self.0.end_request();
    }
}

impl hyper::service::Service<Request<Incoming>> for ConnService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        self.conn.begin_request();
        let active = Active(Arc::clone(&self.conn));
        // Only a body reader needs it (and the map costs an allocation).
        if request.method() == axum::http::Method::POST {
            request
                .extensions_mut()
                .insert(ConnHandle(Arc::clone(&self.conn)));
        }
        let mut router = self.router.clone();
        let answer = tower_service::Service::call(&mut router, request);
        Box::pin(async move {
            let answer = answer.await;
            drop(active);
            answer
        })
    }
}

/// The socket of one connection: notes arriving bytes for the timeouts,
/// and writes the JSON error document in place of hyper's empty automatic
/// error answers.
struct Tracked {
    stream: TcpStream,
    conn: Arc<Conn>,
    error_page: ErrorPage,
    /// The JSON answer being written instead of hyper's: its bytes, how
    /// many are written, and how many of hyper's bytes it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl Tracked {
    /// Write the replacement; `Ok(n)` (hyper's bytes it replaced) when done.
    fn drive_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        loop {
            let Some((bytes, written, covers)) = self.replacing.as_mut() else {
                return Poll::Ready(Ok(0));
            };
            if *written == bytes.len() {
                let covers = *covers;
                self.replacing = None;
                return Poll::Ready(Ok(covers));
            }
            let n = ready!(Pin::new(&mut self.stream).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
    }

    /// Start replacing `buf` if it begins with hyper's automatic error.
    fn intercept(&mut self, buf: &[u8]) -> bool {
        let Some((status, head)) = automatic_error(buf) else {
            return false;
        };
        let message = match status {
            StatusCode::URI_TOO_LONG => format!(
                "the request URI is too long (the request head may hold at most {MAX_HEAD} bytes)"
            ),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => format!(
                "the request head is too large (at most {MAX_HEAD} bytes and 100 header fields)"
            ),
            _ => "the request is not valid HTTP/1.1 (request line or header fields)".to_string(),
        };
        self.replacing = Some(((self.error_page)(status, &message), 0, head));
        true
    }
}

/// The status and head length of hyper's automatic answer to a request it
/// could not parse, when `buf` starts with one: a 4xx head with
/// `content-length: 0`. Every answer of the router names its set
/// (`x-gametab-digest`) and every router error has a JSON body, so no
/// handler's answer looks like this.
fn automatic_error(buf: &[u8]) -> Option<(StatusCode, usize)> {
    if !buf.starts_with(b"HTTP/1.1 4") && !buf.starts_with(b"HTTP/1.0 4") {
        return None;
    }
    let window = &buf[..buf.len().min(1024)];
    let end = window.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&window[..end])
        .ok()?
        .to_ascii_lowercase();
    if !head.contains("\r\ncontent-length: 0\r\n") || head.contains("x-gametab-digest") {
        return None;
    }
    let status = StatusCode::from_bytes(window.get(9..12)?).ok()?;
    Some((status, end))
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.stream).poll_read(cx, buf))?;
        if buf.filled().len() > before {
            self.conn.saw_bytes();
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.replacing.is_some() || self.intercept(buf) {
            return self.drive_replacement(cx);
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs.iter().find(|b| !b.is_empty());
        if self.replacing.is_some() || first.is_some_and(|b| self.intercept(b)) {
            return self.drive_replacement(cx);
        }
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_automatic_errors_are_recognised_and_handler_answers_are_not() {
        let automatic = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\
                          date: Mon, 01 Dec 2025 21:00:00 GMT\r\n\r\n";
        assert_eq!(
            automatic_error(automatic),
            Some((StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, automatic.len()))
        );
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\
                     x-gametab-digest: 72cc\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(automatic_error(ours), None);
        let with_body = b"HTTP/1.1 404 Not Found\r\ncontent-length: 52\r\n\r\n{\"error\"";
        assert_eq!(automatic_error(with_body), None);
        assert_eq!(
            automatic_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"),
            None
        );
        assert_eq!(automatic_error(b"HTTP/1.1 4"), None, "an incomplete head");
    }

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
