//! `gametab serve`: the tables over HTTP (design: `docs/http-api.md`).
//!
//! axum's router on a multi-threaded tokio runtime, behind the server's own
//! accept loop ([`conn`]), which bounds the connections: a cap (at the cap
//! the oldest idle connection makes room), a header timeout and an idle
//! keep-alive timeout. The set is loaded through the lookup crate before
//! the first answer ([`set`]; only the tables an endpoint reads are
//! decoded). Table queries are answered inline on the runtime's workers
//! (microseconds: array reads); the engines (Cluedo, Werewolf) in the
//! engine pool ([`engine`]: own low-priority threads, a bounded queue, a
//! time budget, cancelled when the client goes away), so table answers
//! never wait behind engine work. Every query parameter is checked by
//! [`params`]; every error, down to hyper's answer to a request it cannot
//! parse, is a JSON document naming what is wrong, never a 500: an unknown
//! path is a 404, a wrong method a 405, a body over `--max-body` a 413
//! (from its `Content-Length` at once), a log that parses but breaks the
//! rules a 422, a full engine queue or a spent budget a 503.
//!
//! The endpoints are the one list [`endpoints`] (the router is built from
//! it), described by the OpenAPI 3.1 document `openapi.json` served at
//! `/v1/openapi.json`; a test keeps the two equal.
//!
//! The listener binds loopback (`127.0.0.1:8080`) unless `--addr` says
//! otherwise, and prints `listening on http://ADDR` on standard output
//! once it accepts connections (with `--addr 127.0.0.1:0`, the port the
//! system chose). SIGINT and SIGTERM stop it gracefully: requests in flight
//! are answered first.

mod body;
pub mod conn;
mod endgame;
pub mod engine;
pub mod error;
mod handlers;
pub mod memory;
pub mod params;
pub mod set;
mod web;
mod werewolf;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use tower_http::cors::{AllowOrigin, CorsLayer};

use body::{BodyLimits, HasBodyLimits};
use conn::{Limits, Registry};
use engine::{EngineLimits, Engines};
pub use error::{LoadError, ServeError};
use params::ApiError;
use set::Current;

pub use gametab_answers::logs::MAX_CLUEDO_EVENTS;

/// Default limit on a request body (the POSTed logs): 1 MiB.
pub const DEFAULT_MAX_BODY: usize = 1 << 20;

/// Default cap on open connections (lowered to what the descriptor limit
/// allows).
pub const DEFAULT_MAX_CONNECTIONS: u64 = 1024;

/// The OpenAPI 3.1 document of every endpoint (served at
/// `/v1/openapi.json`).
pub const OPENAPI: &str = include_str!("openapi.json");

/// Arguments of `gametab serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Table directory written by `gametab build` (reloaded when a new set
    /// is published there).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "tables",
        env = "GAMETAB_TABLES"
    )]
    pub tables: PathBuf,
    /// Address to listen on: IP:PORT or localhost:PORT (loopback by
    /// default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    pub addr: SocketAddr,
    /// Allow browsers on this origin (e.g. `https://looper.example`, or
    /// `*`) to call the API (CORS); without it no CORS header is sent.
    #[arg(long)]
    pub cors_origin: Option<String>,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_BODY)]
    pub max_body: usize,
    /// How often to look for a newly published set, in milliseconds
    /// (SIGHUP also triggers a look at once).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..))]
    pub poll_ms: u64,
    /// Memory for serialised table answers, in MiB (0: no cache). Answers
    /// are cached per set by canonical query; the cache is emptied when
    /// full and dropped with its set on reload.
    #[arg(long, default_value_t = 64)]
    pub cache_mib: usize,
    /// Worker threads of the runtime (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Most connections open at once; at the cap a new connection takes
    /// the place of the oldest idle one. Lowered to the descriptor limit
    /// minus 64 when that is less.
    #[arg(long, default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,
    /// A request head must arrive within this many milliseconds of its
    /// first byte, and a request body within as many after its head (408).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_ms: u64,
    /// A keep-alive connection is closed after this many milliseconds
    /// without a new request.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_ms: u64,
    /// Threads computing engine requests (Cluedo, Werewolf) at low
    /// priority (default: half the cores, at least 1).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub engine_threads: Option<u16>,
    /// Engine requests that may wait for an engine thread; one more is
    /// answered 503 at once.
    #[arg(long, default_value_t = 16)]
    pub engine_queue: usize,
    /// Time budget of one engine request in milliseconds, from its arrival
    /// (waiting included); past it the answer is a 503 naming the budget
    /// and the engine stops.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_ms: u64,
    /// The WebAssembly module's directory (`scripts/build-web` writes
    /// `web/dist`), served at /web/ for the explorer page's game.
    #[arg(long, default_value = "web/dist")]
    pub web: PathBuf,
}

/// What every handler shares.
#[derive(Debug)]
pub struct App {
    /// The set being served.
    pub current: Arc<Current>,
    /// The directory it comes from (reported by `/health`).
    pub tables_dir: String,
    /// The engine pool of the POST endpoints.
    pub engines: Engines,
    /// How POST bodies are read.
    pub body: BodyLimits,
    /// The WebAssembly module's directory (`--web`).
    pub web_dir: PathBuf,
}

impl HasBodyLimits for Arc<App> {
    fn body_limits(&self) -> BodyLimits {
        self.body
    }
}

/// One endpoint: its path and method.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Endpoint {
    /// The path (`/v1/...`).
    pub path: &'static str,
    /// `GET` or `POST` (a `GET` also answers `HEAD`).
    pub method: &'static str,
}

/// Every route of the server with its handler: the one list the router is
/// built from. A new endpoint goes here (and into `openapi.json`, which a
/// test compares with [`endpoints`]).
fn route_table() -> Vec<(Endpoint, MethodRouter<Arc<App>>)> {
    let get_ = |path, handler: MethodRouter<Arc<App>>| {
        (
            Endpoint {
                path,
                method: "GET",
            },
            handler,
        )
    };
    let post_ = |path, handler: MethodRouter<Arc<App>>| {
        (
            Endpoint {
                path,
                method: "POST",
            },
            handler,
        )
    };
    vec![
        get_("/", get(handlers::explorer)),
        get_("/health", get(handlers::health)),
        get_("/v1/openapi.json", get(handlers::openapi)),
        get_("/v1/manifest", get(handlers::manifest)),
        get_("/v1/murder-plan/state", get(handlers::mp_state)),
        get_("/v1/murder-plan/moves", get(handlers::mp_moves)),
        get_("/v1/murder-plan/sample", get(handlers::mp_sample)),
        get_("/v1/murder-plan/win-rates", get(handlers::mp_win_rates)),
        get_("/v1/murder-plan/win-rate", get(handlers::mp_win_rate)),
        get_("/v1/dice/bid", get(handlers::dice_bid)),
        get_("/v1/dice/endgame", get(endgame::dice_endgame)),
        post_("/v1/cluedo/notebook", post(handlers::cluedo_notebook)),
        post_("/v1/cluedo/advice", post(handlers::cluedo_advice)),
        post_("/v1/werewolf/posterior", post(werewolf::werewolf_posterior)),
        post_("/v1/werewolf/roles", post(werewolf::werewolf_roles)),
        get_("/explorer/{file}", get(web::page_script)),
        get_("/explorer/example/{file}", get(web::example)),
        get_("/web/{file}", get(web::module_file)),
    ]
}

/// Every endpoint the router serves: the one list the router is built
/// from (`openapi.json` documents exactly these).
pub fn endpoints() -> Vec<Endpoint> {
    route_table().into_iter().map(|(e, _)| e).collect()
}

/// The router of every endpoint, for `app`'s set.
///
/// # Errors
/// A `cors_origin` that is not a valid header value.
pub fn router(app: Arc<App>, cors_origin: Option<&str>) -> Result<Router, ServeError> {
    let mut router = Router::new();
    let mut paths: Vec<&str> = Vec::new();
    for (endpoint, handler) in route_table() {
        // One MethodRouter per path: merge the methods of a repeated path.
        if paths.contains(&endpoint.path) {
            return Err(ServeError::DuplicateRoute(endpoint.path));
        }
        paths.push(endpoint.path);
        router = router.route(endpoint.path, handler);
    }
    let panic_app = Arc::clone(&app);
    let mut router = router
        .fallback(handlers::not_found)
        .layer(axum::middleware::map_response_with_state(
            Arc::clone(&app),
            finish,
        ))
        .with_state(app)
        // A safety net only: a panic becomes a JSON 500 instead of a
        // dropped connection (no handler is known to panic; the tests and
        // the API fuzz send every kind of bad input).
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            move |_: Box<dyn std::any::Any + Send>| {
                let mut response = ApiError::status(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the server failed on this request (a bug: please report it)",
                )
                .into_response();
                handlers::identify(&mut response, &panic_app.current.get());
                response
            },
        ));
    if let Some(origin) = cors_origin {
        let allow = if origin == "*" {
            AllowOrigin::any()
        } else {
            AllowOrigin::exact(
                HeaderValue::from_str(origin)
                    .map_err(|_| ServeError::CorsOrigin(origin.to_owned()))?,
            )
        };
        router = router.layer(
            CorsLayer::new()
                .allow_origin(allow)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::CONTENT_TYPE, header::IF_NONE_MATCH])
                .expose_headers([
                    header::ETAG,
                    header::RETRY_AFTER,
                    header::WARNING,
                    header::HeaderName::from_static("x-gametab-version"),
                    header::HeaderName::from_static("x-gametab-digest"),
                ]),
        );
    }
    Ok(router)
}

/// Last touches on every answer: axum's empty 405 gets the JSON error
/// body of every other error (its `Allow` header stays); an answer that
/// leaves a request body unread (413, 408) closes the connection; an answer
/// that does not yet name its set (the 404 and 405 of the router) names
/// the set serving now.
async fn finish(State(app): State<Arc<App>>, response: Response) -> Response {
    let mut response = if response.status() == StatusCode::METHOD_NOT_ALLOWED {
        let mut answer = ApiError::status(
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed here (the Allow header lists the methods)",
        )
        .into_response();
        if let Some(allow) = response.headers().get(header::ALLOW) {
            answer.headers_mut().insert(header::ALLOW, allow.clone());
        }
        answer
    } else {
        response
    };
    if matches!(
        response.status(),
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT
    ) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    if !response.headers().contains_key("x-gametab-digest") {
        handlers::identify(&mut response, &app.current.get());
    }
    response
}

/// The whole HTTP answer of an error written below the router (hyper's
/// parse errors, the 503 at the connection cap): the JSON document, the
/// set's identity, `connection: close`.
fn error_page(current: &Current, status: StatusCode, message: &str) -> Vec<u8> {
    let set = current.get();
    let body = ApiError::status(status, message).document();
    format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\nx-gametab-version: {}\r\nx-gametab-digest: {}\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len(),
        set.version,
        set.digest,
    )
    .into_bytes()
}

/// `--addr`: a socket address, or `localhost:PORT` for the IPv4
/// loopback (the name most people type; resolved here, not by a lookup).
fn parse_addr(text: &str) -> std::result::Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        if let Ok(port) = port.parse::<u16>() {
            return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
        }
    }
    Err(format!(
        "{text:?} is not an address: give IP:PORT (127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080) or \
         localhost:PORT"
    ))
}

/// Run `gametab serve` until SIGINT or SIGTERM.
///
/// # Errors
/// A table set that does not load, an address that cannot be bound, an
/// invalid `--cors-origin`.
pub fn run(args: ServeArgs, out: &mut impl Write) -> Result<(), ServeError> {
    memory::configure();
    gametab_answers::table_set::require(&args.tables)?;
    let current = Arc::new(
        Current::open(args.tables.clone(), args.cache_mib.saturating_mul(1 << 20)).map_err(
            |source| ServeError::Load {
                dir: args.tables.clone(),
                source,
            },
        )?,
    );
    let io = |what: &'static str| move |source| ServeError::Io { what, source };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let engine_limits = EngineLimits {
        threads: args.engine_threads.map_or((cores / 2).max(1), usize::from),
        queue: args.engine_queue,
        time: Duration::from_millis(args.engine_ms),
    };
    let app = Arc::new(App {
        current: Arc::clone(&current),
        tables_dir: args.tables.display().to_string(),
        engines: Engines::start(engine_limits).map_err(io("cannot start the engine threads"))?,
        body: BodyLimits {
            max_bytes: args.max_body,
            timeout: Duration::from_millis(args.header_timeout_ms),
        },
        web_dir: args.web.clone(),
    });
    let router = router(app, args.cors_origin.as_deref())?;
    let room = conn::descriptor_room();
    let limits = Limits {
        max_connections: usize::try_from(args.max_connections.min(room).max(1))
            .unwrap_or(usize::MAX),
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        idle_timeout: Duration::from_millis(args.idle_timeout_ms),
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = args.threads {
        runtime.worker_threads(usize::from(threads));
    }
    let runtime = runtime
        .enable_all()
        .build()
        .map_err(io("cannot start the runtime"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|source| ServeError::Listen {
                addr: args.addr,
                source,
            })?;
        let local = listener
            .local_addr()
            .map_err(io("cannot read the bound address"))?;
        writeln!(out, "listening on http://{local}")
            .and_then(|()| out.flush())
            .map_err(io("cannot write the address"))?;
        {
            // Not kept: a set held here would never be freed after a reload.
            let set = current.get();
            eprintln!(
                "gametab serve: {} (set {}, generator {}), reload: poll every {} ms or SIGHUP",
                args.tables.display(),
                &set.digest[..16],
                set.version,
                args.poll_ms
            );
        }
        eprintln!(
            "gametab serve: at most {} connections ({}descriptor room {room}), header timeout \
             {} ms, idle timeout {} ms; {} engine thread(s), queue {}, budget {} ms",
            limits.max_connections,
            if (limits.max_connections as u64) < args.max_connections {
                "lowered to the "
            } else {
                ""
            },
            args.header_timeout_ms,
            args.idle_timeout_ms,
            engine_limits.threads,
            engine_limits.queue,
            args.engine_ms,
        );
        tokio::spawn(set::watch(
            Arc::clone(&current),
            Duration::from_millis(args.poll_ms),
        ));
        let (stop, stopped) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            shutdown().await;
            let _ = stop.send(true);
        });
        let registry = Arc::new(Registry::new(limits));
        let page_set = Arc::clone(&current);
        let page: conn::ErrorPage =
            Arc::new(move |status, message| error_page(&page_set, status, message));
        conn::serve(listener, router, Arc::clone(&registry), page, stopped).await;
        let (evicted, timed_out, idle, refused) = registry.closed();
        eprintln!(
            "gametab serve: stopped; connections closed by the server: {evicted} at the cap, \
             {timed_out} slow heads or bodies, {idle} idle, {refused} refused"
        );
        Ok(())
    })
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate => {}
    }
}
