//! The OpenAPI document (`crates/serve/src/openapi.json`) and the router describe
//! the same API: every route of the router is in the document and every
//! operation of the document is a route, the running server serves the
//! document at `/v1/openapi.json`, and answers every documented operation
//! from its handler (not the fallback's 404 nor a 405).

use std::collections::BTreeSet;

use serde_json::Value;

use super::common;
use super::harness::{agent, get, post, send, Server};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn document() -> Value {
    serde_json::from_str(gametab_serve::OPENAPI).expect("openapi.json is JSON")
}

fn documented() -> BTreeSet<(String, String)> {
    let doc = document();
    let mut operations = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method).is_some() {
                operations.insert((path.clone(), method.to_uppercase()));
            }
        }
    }
    operations
}

#[test]
fn the_document_and_the_router_list_the_same_operations() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let routed: BTreeSet<(String, String)> = gametab_serve::endpoints()
        .into_iter()
        .map(|e| (e.path.to_string(), e.method.to_string()))
        .collect();
    let documented = documented();
    let missing: Vec<_> = routed.difference(&documented).collect();
    let extra: Vec<_> = documented.difference(&routed).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "routes not in openapi.json: {missing:?}; operations of openapi.json not routed: {extra:?}"
    );
    // Every operation documents its parameters' and answers' shapes, and
    // every error answer is the one error document.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let responses = operation["responses"].as_object().unwrap();
            assert!(responses.contains_key("200"), "{method} {path}: no 200");
            assert!(
                responses.contains_key("default"),
                "{method} {path}: no default error"
            );
        }
    }
}

#[test]
fn the_server_serves_the_document_and_routes_every_operation() {
    let server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let served = get(&agent, &format!("{}/v1/openapi.json", server.url));
    assert_eq!(served.status, 200);
    assert_eq!(served.json(), document());
    for (path, method) in documented() {
        let url = format!("{}{path}", server.url);
        let answer = match method.as_str() {
            "POST" => post(&agent, &url, b"{}"),
            _ => send(&agent, &method, &url),
        };
        let routed = !(answer.status == 405
            || (answer.status == 404 && answer.body.contains("no such endpoint")));
        assert!(routed, "{method} {path}: {} {}", answer.status, answer.body);
    }
    let answer = get(&agent, &format!("{}/v1/not-documented", server.url));
    assert_eq!(answer.status, 404);
}
