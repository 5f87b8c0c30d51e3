//! `gametab serve`: the tables over HTTP (design: `shared/specs/serving.md`).
//!
//! axum on a multi-threaded tokio runtime. The set is loaded whole through
//! the lookup crate before the first answer ([`set`]); table queries are
//! answered inline (microseconds: array reads), the engines (Cluedo,
//! Werewolf) on tokio's blocking pool. Every query parameter is checked by
//! [`params`]; an error is a 4xx with a JSON body naming the parameter,
//! never a 500: an unknown path is a 404, a wrong method a 405, a body over
//! `--max-body` a 413, a log that parses but breaks the rules a 422.
//!
//! The listener binds loopback (`127.0.0.1:8080`) unless `--addr` says
//! otherwise, and prints `listening on http://ADDR` on standard output
//! once it accepts connections (with `--addr 127.0.0.1:0`, the port the
//! system chose). SIGINT and SIGTERM stop it gracefully: requests in flight
//! are answered first.

mod endgame;
mod handlers;
pub mod params;
pub mod set;
mod web;
mod werewolf;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http_body_util::BodyExt;
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use handlers::MAX_CLUEDO_EVENTS;
use params::ApiError;
use set::Current;

/// Default limit on a request body (the POSTed logs): 1 MiB.
pub const DEFAULT_MAX_BODY: usize = 1 << 20;

/// Arguments of `gametab serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Table directory written by `gametab build` (reloaded when a new set
    /// is published there).
    #[arg(long, default_value = "tables")]
    pub tables: PathBuf,
    /// Address to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
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
    /// The WebAssembly module's directory (`--web`).
    pub web_dir: PathBuf,
}

/// The router of every endpoint, for `app`'s set.
///
/// # Errors
/// A `cors_origin` that is not a valid header value.
pub fn router(app: Arc<App>, cors_origin: Option<&str>, max_body: usize) -> Result<Router> {
    let mut router = Router::new()
        .route("/", get(handlers::explorer))
        .route("/health", get(handlers::health))
        .route("/v1/manifest", get(handlers::manifest))
        .route("/v1/murder-plan/state", get(handlers::mp_state))
        .route("/v1/murder-plan/moves", get(handlers::mp_moves))
        .route("/v1/murder-plan/sample", get(handlers::mp_sample))
        .route("/v1/murder-plan/win-rates", get(handlers::mp_win_rates))
        .route("/v1/murder-plan/win-rate", get(handlers::mp_win_rate))
        .route("/v1/dice/bid", get(handlers::dice_bid))
        .route("/v1/dice/endgame", get(endgame::dice_endgame))
        .route("/v1/cluedo/notebook", post(handlers::cluedo_notebook))
        .route("/v1/cluedo/advice", post(handlers::cluedo_advice))
        .route("/v1/werewolf/posterior", post(werewolf::werewolf_posterior))
        .route("/v1/werewolf/roles", post(werewolf::werewolf_roles))
        .route("/explorer/{file}", get(web::page_script))
        .route("/explorer/example/{file}", get(web::example))
        .route("/web/{file}", get(web::module_file))
        .fallback(handlers::not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(
            max_body,
            refuse_declared_oversize,
        ))
        .layer(axum::middleware::map_response_with_state(
            Arc::clone(&app),
            finish,
        ))
        .with_state(app)
        // A safety net only: a panic becomes a 500 instead of a dropped
        // connection (no handler is known to panic; the tests send every
        // kind of bad input).
        .layer(tower_http::catch_panic::CatchPanicLayer::new());
    if let Some(origin) = cors_origin {
        let allow = if origin == "*" {
            AllowOrigin::any()
        } else {
            AllowOrigin::exact(
                HeaderValue::from_str(origin)
                    .with_context(|| format!("--cors-origin {origin:?} is not a valid origin"))?,
            )
        };
        router = router.layer(
            CorsLayer::new()
                .allow_origin(allow)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::CONTENT_TYPE, header::IF_NONE_MATCH])
                .expose_headers([
                    header::ETAG,
                    header::HeaderName::from_static("x-gametab-version"),
                    header::HeaderName::from_static("x-gametab-digest"),
                ]),
        );
    }
    Ok(router)
}

/// Most bytes of a refused body the server reads and discards so that a
/// client already sending it can read the 413 (a larger one is cut off).
const DRAIN_LIMIT: u64 = 64 << 20;

/// A request whose declared `Content-Length` is over the limit is refused
/// from its head: with `Expect: 100-continue` at once, before the client
/// sends the body; otherwise after reading and discarding the body the
/// client is already sending (up to [`DRAIN_LIMIT`], within 10 s), so that
/// the client reads the 413 instead of a reset connection.
async fn refuse_declared_oversize(
    State(max_body): State<usize>,
    request: Request,
    next: Next,
) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let Some(length) = declared.filter(|&l| l > max_body as u64) else {
        return next.run(request).await;
    };
    let waits_for_continue = request
        .headers()
        .get(header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
    if !waits_for_continue && length <= DRAIN_LIMIT {
        let mut body = request.into_body();
        let drain = async {
            while let Some(frame) = body.frame().await {
                if frame.is_err() {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(10), drain).await;
    }
    ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        error: format!(
            "the body is {length} bytes; the server takes at most {max_body} (--max-body)"
        ),
        parameter: Some("body".into()),
    }
    .into_response()
}

/// Last touches on every answer: axum's empty 405 gets the JSON error
/// body of every other error (its `Allow` header stays), and an answer that
/// does not yet name its set (the 404 and 405 of the router) names the set
/// serving now.
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
    if !response.headers().contains_key("x-gametab-digest") {
        handlers::identify(&mut response, &app.current.get());
    }
    response
}

/// Run `gametab serve` until SIGINT or SIGTERM.
///
/// # Errors
/// A table set that does not load, an address that cannot be bound, an
/// invalid `--cors-origin`.
pub fn run(args: ServeArgs, out: &mut impl Write) -> Result<()> {
    let current = Arc::new(
        Current::open(args.tables.clone(), args.cache_mib.saturating_mul(1 << 20))
            .with_context(|| format!("cannot serve {}", args.tables.display()))?,
    );
    let app = Arc::new(App {
        current: Arc::clone(&current),
        tables_dir: args.tables.display().to_string(),
        web_dir: args.web.clone(),
    });
    let router = router(app, args.cors_origin.as_deref(), args.max_body)?;
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = args.threads {
        runtime.worker_threads(usize::from(threads));
    }
    let runtime = runtime
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let local = listener.local_addr()?;
        writeln!(out, "listening on http://{local}")?;
        out.flush()?;
        let set = current.get();
        eprintln!(
            "gametab serve: {} (set {}, generator {}), reload: poll every {} ms or SIGHUP",
            args.tables.display(),
            &set.digest[..16],
            set.version,
            args.poll_ms
        );
        tokio::spawn(set::watch(current, Duration::from_millis(args.poll_ms)));
        axum::serve(listener, router.into_make_service())
            .with_graceful_shutdown(shutdown())
            .await
            .context("the server failed")
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
