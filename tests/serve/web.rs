//! The explorer page's static files over HTTP: the page's scripts and
//! example logs (compiled into the binary), the WebAssembly module from
//! `--web`, and the loaded set's browser bundle (its bytes, its ETag,
//! 304 on revalidation); only the listed names are served, anything else
//! is a JSON 404.

use super::common;
use super::harness::{agent, get, get_with, Server};

/// GET `url`: status, content type, ETag and the body's bytes.
fn bytes(agent: &ureq::Agent, url: &str) -> (u16, String, Option<String>, Vec<u8>) {
    let mut response = agent.get(url).call().unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (kind, etag) = (header("content-type").unwrap_or_default(), header("etag"));
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_vec().unwrap();
    (status, kind, etag, body)
}

#[test]
fn the_page_scripts_the_module_and_the_bundle_are_served() {
    let tables = common::built_tables();
    let web = common::web_module();
    let server = Server::start(tables, &["--web", web.to_str().unwrap()]);
    let api = agent();

    let (status, kind, etag, body) = bytes(
        &api,
        &format!("{}/web/murder_plan_browser.bin.gz", server.url),
    );
    assert_eq!((status, kind.as_str()), (200, "application/gzip"));
    let file = std::fs::read(tables.join("murder_plan_browser.bin.gz")).unwrap();
    assert!(body == file, "the set's bundle, byte for byte");
    // The set's ETag: revalidating gives 304 until the set changes.
    let etag = etag.expect("an ETag");
    let health = get(&api, &format!("{}/health", server.url));
    assert_eq!(health.header("x-gametab-digest").map(|d| d.len()), Some(64));
    let again = get_with(
        &api,
        &format!("{}/web/murder_plan_browser.bin.gz", server.url),
        &[("if-none-match", &etag)],
    );
    assert_eq!(again.status, 304);

    for (file, kind) in [
        ("index.js", "text/javascript; charset=utf-8"),
        ("errors.js", "text/javascript; charset=utf-8"),
        ("rules.js", "text/javascript; charset=utf-8"),
        ("plan.js", "text/javascript; charset=utf-8"),
        ("load.js", "text/javascript; charset=utf-8"),
        ("gametab_web.js", "text/javascript; charset=utf-8"),
        ("gametab_web_wasm.js", "text/javascript; charset=utf-8"),
        ("gametab_web_bg.wasm", "application/wasm"),
    ] {
        let (status, got, _, body) = bytes(&api, &format!("{}/web/{file}", server.url));
        assert_eq!((status, got.as_str()), (200, kind), "{file}");
        assert!(body == std::fs::read(web.join(file)).unwrap(), "{file}");
    }
    for (path, contains) in [
        ("/explorer/game.js", "loadMurderPlan"),
        ("/explorer/panels.js", "/v1/cluedo/advice"),
        ("/explorer/example/cluedo-game.json", "\"suggestions\""),
    ] {
        let answer = get(&api, &format!("{}{path}", server.url));
        assert_eq!(answer.status, 200, "{path}");
        assert!(answer.body.contains(contains), "{path}");
    }
    let example = get(
        &api,
        &format!("{}/explorer/example/werewolf-roles-7.json", server.url),
    );
    let on_disk =
        std::fs::read_to_string(super::harness::examples().join("werewolf-roles-7.json")).unwrap();
    assert_eq!(example.body, on_disk);

    // Nothing outside the lists, however spelled.
    for path in [
        "/web/index.d.ts",
        "/web/..%2FCargo.toml",
        "/web/.hidden",
        "/explorer/explorer.html",
        "/explorer/example/werewolf-demo.json",
        "/web/",
    ] {
        let answer = get(&api, &format!("{}{path}", server.url));
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        assert!(answer.json()["error"].is_string(), "{path}");
    }

    // A server whose --web directory has no module says where it comes
    // from; the rest of the page is unaffected.
    let empty = tempfile::tempdir().unwrap();
    let bare = Server::start(tables, &["--web", empty.path().to_str().unwrap()]);
    let missing = get(&api, &format!("{}/web/index.js", bare.url));
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"]
        .as_str()
        .unwrap()
        .contains("scripts/build-web"));
    assert_eq!(
        get(&api, &format!("{}/explorer/game.js", bare.url)).status,
        200
    );
}
