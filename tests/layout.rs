//! The workspace's layering, checked on cargo's own dependency graph: what
//! only answers queries (`gametab-answers`), the server (`gametab-serve`)
//! and the Python package's module (`gametab-python`, with its `python`
//! feature, as maturin builds it) never reach the solver's C++ (`highs-sys`, which
//! needs cmake, libclang and a compile of HiGHS), while the build does; and
//! that no library depends on anyhow (their errors are typed).

use std::path::Path;
use std::process::Command;

/// Every package `package` depends on, normal and build dependencies
/// (what building it compiles), one name per line.
fn dependencies(package: &str) -> Vec<String> {
    dependencies_with(package, &[])
}

/// [`dependencies`] with `features` of `package` on.
fn dependencies_with(package: &str, features: &[&str]) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--locked", "-e", "normal,build"])
        .args(["--prefix", "none", "--format", "{p}", "-p", package])
        .args(features.iter().flat_map(|f| ["--features", f]))
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn answering_and_serving_never_reach_highs() {
    for (package, features) in [
        ("gametab-answers", &[][..]),
        ("gametab-serve", &[]),
        ("gametab-python", &["python"]),
    ] {
        let found = dependencies_with(package, features);
        assert!(
            found.iter().any(|name| name == "gametab-lookup"),
            "{package}: {found:?}"
        );
        for solver in [
            "highs-sys",
            "highs",
            "gametab-solve",
            "gametab-build",
            "cmake",
        ] {
            assert!(
                !found.iter().any(|name| name == solver),
                "{package} reaches {solver}"
            );
        }
    }
    // The Python module does bind pyo3 (the feature is the one maturin sets).
    let python = dependencies_with("gametab-python", &["python"]);
    assert!(python.iter().any(|name| name == "pyo3"), "{python:?}");
    // The check can fail: the build does link HiGHS.
    let build = dependencies("gametab-build");
    assert!(build.iter().any(|name| name == "highs-sys"), "{build:?}");
}

/// The libraries report typed errors (each crate's `Error` enum, which a
/// caller can match on): none depends on anyhow, which only the `gametab`
/// binary and the benches use to print a chain of them.
#[test]
fn no_library_depends_on_anyhow() {
    for (package, features) in [
        ("gametab-games", &[][..]),
        ("gametab-lookup", &["write"]),
        ("gametab-answers", &[]),
        ("gametab-solve", &["clap"]),
        ("gametab-build", &[]),
        ("gametab-serve", &[]),
        ("gametab-python", &["python"]),
    ] {
        let found = dependencies_with(package, features);
        assert!(
            !found.iter().any(|name| name == "anyhow"),
            "{package} depends on anyhow"
        );
    }
    // The check can fail: the binary does.
    let binary = dependencies("gametab");
    assert!(binary.iter().any(|name| name == "anyhow"), "{binary:?}");
}
