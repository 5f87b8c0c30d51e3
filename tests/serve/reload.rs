//! Reload: new sets published by the pipeline's own publish step (the
//! directory exchange) take over while a client loops, with no failed
//! request; a broken set is refused and the old one keeps serving.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use gametab_build::publish::{publish, staging_dir};
use gametab_lookup::io::blake2_hex;
use gametab_lookup::manifest::Manifest;

use super::common;
use super::harness::{agent, get, try_get, Server};

/// Stage a copy of `tables` whose manifest differs only in its build time
/// (a new set with new identity and the same answers), optionally with one
/// table file's bytes damaged; return the new manifest's digest.
fn stage_new_set(tables: &Path, build_seconds: f64, damage: Option<&str>) -> String {
    let staging = staging_dir(tables);
    common::copy_dir(tables, &staging);
    let path = staging.join("manifest.json");
    let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    manifest.build_seconds = build_seconds;
    let bytes = serde_json::to_vec_pretty(&manifest).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    if let Some(file) = damage {
        let mut table = std::fs::read(staging.join(file)).unwrap();
        let middle = table.len() / 2;
        table[middle] ^= 0xff;
        std::fs::write(staging.join(file), table).unwrap();
    }
    blake2_hex(&bytes)
}

#[test]
fn published_sets_take_over_without_a_failed_request_and_broken_ones_are_refused() {
    let (_parent, tables) = common::copy_of_tables();
    let first = blake2_hex(&std::fs::read(tables.join("manifest.json")).unwrap());
    let server = Server::start(&tables, &["--poll-ms", "20"]);
    let url = format!(
        "{}/v1/murder-plan/state?days=8&brain=0,1&killer=1,0",
        server.url
    );
    let expected = get(&agent(), &url).json();

    // A client loops on one keep-alive connection, recording every answer's
    // set and any failure.
    let stop = Arc::new(AtomicBool::new(false));
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let client = {
        let (stop, seen, url, expected) =
            (stop.clone(), seen.clone(), url.clone(), expected.clone());
        std::thread::spawn(move || {
            let agent = agent();
            let mut failures = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let answer = match try_get(&agent, &url) {
                    Ok(answer) => answer,
                    Err(e) => {
                        failures.push(format!("no answer: {e}"));
                        continue;
                    }
                };
                if answer.status != 200 || answer.json() != expected {
                    failures.push(format!("{} {}", answer.status, answer.body));
                }
                let digest = answer.header("x-gametab-digest").unwrap_or("").to_string();
                seen.lock().unwrap().push(digest);
            }
            failures
        })
    };
    let wait_until_serving = |digest: &str| {
        let start = std::time::Instant::now();
        while seen.lock().unwrap().last().map(String::as_str) != Some(digest) {
            assert!(start.elapsed().as_secs() < 30, "{digest} never served");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    wait_until_serving(&first);

    // Two new sets, one after the other.
    let second = stage_new_set(&tables, 1.0, None);
    publish(&staging_dir(&tables), &tables).unwrap();
    wait_until_serving(&second);
    let third = stage_new_set(&tables, 2.0, None);
    publish(&staging_dir(&tables), &tables).unwrap();
    wait_until_serving(&third);

    // A broken one: refused, logged, and the third keeps serving.
    let broken = stage_new_set(
        &tables,
        3.0,
        Some("murder_plan_mastermind_strategy.parquet"),
    );
    publish(&staging_dir(&tables), &tables).unwrap();
    let log = server.wait_for_log(&format!("refused the new set in {}", tables.display()));
    assert!(log.contains(&broken[..16]), "{log}");
    assert!(
        log.contains("murder_plan_mastermind_strategy.parquet"),
        "{log}"
    );
    let answered_before = seen.lock().unwrap().len();
    while seen.lock().unwrap().len() < answered_before + 50 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }

    stop.store(true, Ordering::Relaxed);
    let failures = client.join().unwrap();
    assert!(failures.is_empty(), "failed requests: {failures:?}");
    let seen = seen.lock().unwrap();
    // Sets appear in publish order, each once as a run, never the broken one.
    let mut runs: Vec<&str> = seen.iter().map(String::as_str).collect();
    runs.dedup();
    assert_eq!(
        runs,
        [first.as_str(), second.as_str(), third.as_str()],
        "{} answers",
        seen.len()
    );
    assert!(
        seen.len() > 100,
        "the client looped: {} answers",
        seen.len()
    );
}

#[test]
fn a_set_refused_while_its_copy_was_half_done_is_retried_when_the_copy_finishes() {
    let (_parent, tables) = common::copy_of_tables();
    let first = blake2_hex(&std::fs::read(tables.join("manifest.json")).unwrap());
    let server = Server::start(&tables, &["--poll-ms", "20"]);
    // A copy in place, not a publish: the new manifest lands while a table
    // file is only half written.
    let file = tables.join("dice_endgame_values.parquet");
    let whole = std::fs::read(&file).unwrap();
    std::fs::write(&file, &whole[..whole.len() / 2]).unwrap();
    let path = tables.join("manifest.json");
    let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    manifest.build_seconds = 9.0;
    let bytes = serde_json::to_vec_pretty(&manifest).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let second = blake2_hex(&bytes);
    let log = server.wait_for_log("refused the new set");
    assert!(
        log.contains(&second[..16]) && log.contains("attempt 1"),
        "{log}"
    );
    // Unchanged files are not tried again (no busy retry)...
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(server.log().matches("refused the new set").count(), 1);
    let agent = agent();
    let health = format!("{}/health", server.url);
    assert_eq!(get(&agent, &health).json()["digest"], first.as_str());
    // ...but once the copy finishes, the set is tried again and serves.
    std::fs::write(&file, &whole).unwrap();
    let log = server.wait_for_log("reloaded");
    assert!(
        log.contains("changed; trying it again (attempt 2)"),
        "{log}"
    );
    assert_eq!(get(&agent, &health).json()["digest"], second.as_str());
}
