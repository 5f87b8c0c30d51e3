//! A property-based fuzz of the running server against its OpenAPI
//! document: schemathesis (PyPI, pinned in `scripts/api-fuzz/
//! requirements.txt`) generates requests from every operation's
//! parameters and bodies, valid and invalid, and checks every answer. The
//! run fails on any 5xx, any status, content type, header or body the
//! document does not allow, or any request not answered within 20 s (a
//! hang).
//!
//! Bounded: a fixed seed, at most [`EXAMPLES`] cases per operation, and
//! [`MAX_SECONDS`] for the whole run (schemathesis stops itself; the test
//! kills it 60 s later if it does not). The virtualenv lives in
//! `target/tmp/api-fuzz-venv-<hash of requirements.txt>` and is reused
//! while the requirements do not change (as the notebook's).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::common;
use super::harness::Server;

/// Test cases per operation.
const EXAMPLES: u32 = 60;

/// Longest the fuzz may run, in seconds.
const MAX_SECONDS: u64 = 120;

/// The checks that must hold for every answer.
const CHECKS: &str = "not_a_server_error,status_code_conformance,content_type_conformance,\
                      response_headers_conformance,response_schema_conformance";

const REQUIREMENTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/api-fuzz/requirements.txt"
);

/// The `schemathesis` of a virtualenv holding the pinned requirements,
/// created on first use.
fn schemathesis() -> PathBuf {
    common::virtualenv("api-fuzz-venv", Path::new(REQUIREMENTS), "the API fuzz")
        .join("bin")
        .join("schemathesis")
}

#[test]
fn the_api_answers_every_generated_request_as_its_document_says() {
    let program = schemathesis();
    // A generous engine budget: a generated log is small, and a 503 here
    // would mean an engine stuck on one.
    let server = Server::start(common::built_tables(), &["--engine-ms", "60000"]);
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/serve/src/openapi.json");
    let reports = tempfile::tempdir().unwrap();
    // Into a file, not a pipe: a full pipe would stall the run.
    let log = reports.path().join("schemathesis.log");
    let sink = std::fs::File::create(&log).unwrap();
    let mut child = Command::new(&program)
        .arg("run")
        .arg(&spec)
        .args(["--url", &server.url, "--checks", CHECKS])
        .args(["--max-examples", &EXAMPLES.to_string()])
        .args(["--max-time", &MAX_SECONDS.to_string()])
        // One worker: with more, CPython 3.11's `ast.parse` in hypothesis
        // (describing a filter) can fail with "AST constructor recursion
        // depth mismatch", an error of the fuzzer, not of the server.
        .args(["--seed", "23", "--request-timeout", "20", "--workers", "1"])
        .args(["--generation-database", "none", "--no-color"])
        .args(["--suppress-health-check", "all"])
        .arg("--report-dir")
        .arg(reports.path())
        .current_dir(reports.path())
        .stdout(sink.try_clone().unwrap())
        .stderr(sink)
        .spawn()
        .expect("schemathesis runs");
    let started = Instant::now();
    let limit = Duration::from_secs(MAX_SECONDS + 60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("schemathesis ran over {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let report = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status.success(),
        "the API fuzz failed:\n{report}\nserver log:\n{}",
        server.log()
    );
    // It really ran every operation.
    assert!(report.contains("passed"), "{report}");
}
