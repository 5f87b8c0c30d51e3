//! The static files of the explorer page: its own scripts and example
//! logs (`GET /explorer/{file}`, `GET /explorer/example/{file}`, compiled
//! into the binary like the page), the
//! WebAssembly module and its typed wrapper (`GET /web/{file}`, read from
//! the `--web` directory that `scripts/build-web` fills, `web/dist`), and
//! the set's Murder Plan browser bundle (`GET
//! /web/murder_plan_browser.bin.gz`, from the loaded set: its digest was
//! checked and its answers compared with the set's Parquet tables when
//! the set loaded).
//!
//! The paths mirror the static site `scripts/build-web --site` writes
//! (`index.html`, `explorer/`, `web/`), so the page finds its scripts the
//! same way whether `gametab serve` or any static file server hosts it.
//! Only a fixed list of names is served: no path from the request reaches
//! the file system.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use gametab_lookup::murder_plan::bundle;

use super::handlers::identify;
use super::params::{ApiError, Params};
use super::App;

/// The page's scripts, by file name.
const PAGE_SCRIPTS: [(&str, &str); 2] = [
    ("game.js", include_str!("../explorer/game.js")),
    ("panels.js", include_str!("../explorer/panels.js")),
];

/// The example logs the page's panels start from (`scripts/examples/`).
const EXAMPLES: [(&str, &str); 2] = [
    (
        "cluedo-game.json",
        include_str!("../../../scripts/examples/cluedo-game.json"),
    ),
    (
        "werewolf-roles-7.json",
        include_str!("../../../scripts/examples/werewolf-roles-7.json"),
    ),
];

/// The npm package's files the page loads, with their content types: the
/// typed wrapper's modules, the wasm-bindgen glue, the module itself and
/// the module as a base64 module (what the wrapper loads when the caller
/// names no module).
const MODULE_FILES: [(&str, &str); 8] = [
    ("index.js", "text/javascript; charset=utf-8"),
    ("errors.js", "text/javascript; charset=utf-8"),
    ("rules.js", "text/javascript; charset=utf-8"),
    ("plan.js", "text/javascript; charset=utf-8"),
    ("load.js", "text/javascript; charset=utf-8"),
    ("gametab_web.js", "text/javascript; charset=utf-8"),
    ("gametab_web_wasm.js", "text/javascript; charset=utf-8"),
    ("gametab_web_bg.wasm", "application/wasm"),
];

fn with_type(body: impl IntoResponse, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn not_found(what: String) -> Response {
    ApiError::status(StatusCode::NOT_FOUND, what).into_response()
}

/// `GET /explorer/{file}`: a script of the page.
pub async fn page_script(Path(file): Path<String>, RawQuery(q): RawQuery) -> Response {
    if let Err(e) = Params::parse(q.as_deref(), &[]) {
        return e.into_response();
    }
    match PAGE_SCRIPTS.iter().find(|(name, _)| *name == file) {
        Some((_, script)) => with_type(*script, "text/javascript; charset=utf-8"),
        None => not_found(format!("no page script {file:?}")),
    }
}

/// `GET /explorer/example/{file}`: an example log.
pub async fn example(Path(file): Path<String>, RawQuery(q): RawQuery) -> Response {
    if let Err(e) = Params::parse(q.as_deref(), &[]) {
        return e.into_response();
    }
    match EXAMPLES.iter().find(|(name, _)| *name == file) {
        Some((_, log)) => with_type(*log, "application/json"),
        None => not_found(format!("no example {file:?}")),
    }
}

/// `GET /web/{file}`: the module's files, and the set's bundle.
pub async fn module_file(
    State(app): State<Arc<App>>,
    Path(file): Path<String>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Err(e) = Params::parse(q.as_deref(), &[]) {
        return e.into_response();
    }
    if file == bundle::FILE {
        return bundle_file(&app, &headers);
    }
    let Some((name, content_type)) = MODULE_FILES.iter().find(|(name, _)| *name == file) else {
        return not_found(format!("no module file {file:?}"));
    };
    let path = app.web_dir.join(name);
    let read = {
        let path = path.clone();
        tokio::task::spawn_blocking(move || std::fs::read(path)).await
    };
    match read.unwrap_or_else(|e| Err(std::io::Error::other(e))) {
        Ok(bytes) => with_type(bytes, content_type),
        Err(e) => not_found(format!(
            "cannot read {} ({e}): the WebAssembly module is built by scripts/build-web",
            path.display()
        )),
    }
}

/// The bundle of the set serving now, with the set's ETag (it changes
/// with the set).
fn bundle_file(app: &App, headers: &HeaderMap) -> Response {
    let set = app.current.get();
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| tag.trim() == set.etag || tag.trim() == "*");
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        match set.tables.murder_plan_bundle() {
            Ok(bytes) => with_type(bytes.clone(), "application/gzip"),
            // Loaded with the set, so this is not expected; still an
            // answer, not a panic.
            Err(e) => not_found(format!("the set has no usable browser bundle: {e}")),
        }
    };
    if let Ok(etag) = HeaderValue::from_str(&set.etag) {
        response.headers_mut().insert(header::ETAG, etag);
    }
    identify(&mut response, &set);
    response
}
