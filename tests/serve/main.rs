//! `gametab serve` tested as its users meet it: the real binary on a
//! loopback port, a real HTTP client (ureq), a real browser (Debian's
//! chromium through chromedriver) for the explorer page.
//!
//! - [`api`]: every endpoint answers the document the CLI prints, with the
//!   set's version, digest and ETag; every kind of bad input gets its 4xx
//!   and a JSON error naming the parameter.
//! - [`reload`]: a set published by the pipeline's own publish step takes
//!   over with no failed request while a client loops; a broken set is
//!   refused and the old one keeps serving.
//! - [`browser`]: the explorer page loads, follows a state change to the
//!   table's value, and logs no console error.
//! - [`limits`]: idle and slowloris connections against a low descriptor
//!   limit, the header, body and idle timeouts, protocol errors as JSON, a
//!   declared body over the limit refused at once.
//! - [`engines`]: the engines' time budget, queue, cancellation when the
//!   client goes away, and table queries while the engines are saturated.
//! - [`openapi`]: the OpenAPI document lists exactly the router's routes;
//!   [`fuzz`]: schemathesis fuzzes the running server against it.
//! - [`game`]: two whole Murder Plan games played in the page with the
//!   server down, every turn replayed against the lookup crate.
//! - [`web`]: the page's scripts, the WebAssembly module and the set's
//!   browser bundle as static files.
//! - [`docs`]: every `curl` example of the README and `docs/` answers what
//!   its page shows.
//!
//! A test binary of its own, apart from `tests/integration.rs`: these
//! tests start many servers and browsers, and the API fuzz runs beside the
//! rest of the suite (`scripts/test`). None asserts a latency: the server's
//! speed, quiet and under saturated engines, is measured by `cargo bench
//! --bench serve_load`.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod browser;
mod docs;
mod engines;
mod fuzz;
mod game;
mod harness;
mod limits;
mod openapi;
mod reload;
mod web;
