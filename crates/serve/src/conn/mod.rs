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

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::http::{Request, StatusCode};
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

mod registry;

use registry::Admission;
pub use registry::{Conn, ConnHandle, Registry};

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
}
