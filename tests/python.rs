//! The Python package (`python/`, issue 36) end to end: its wheel built by
//! maturin, installed into a virtualenv with the pinned
//! `python/tests/requirements.txt`, and `python/tests/` run by pytest
//! against the run's shared table set and the `gametab` binary under test
//! (the answers are compared with its `--json` output).
//!
//! The wheel is built in this run's target directory and release profile,
//! so maturin's cargo reuses the compiled dependencies and the three
//! gametab libraries (the crate asks the workspace's features for them:
//! python/Cargo.toml) and compiles only pyo3, arrow and the module itself.
//! Needs `python3` with its `venv` module (scripts/setup installs it) and
//! PyPI; the virtualenv lives in `target/tmp/python-venv-<hash of the
//! requirements>` and is reused while they do not change.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The run's target directory (`CARGO_TARGET_TMPDIR` is its `tmp/`).
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .to_path_buf()
}

/// The virtualenv's Python, with the pinned requirements installed.
fn venv_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let requirements = Path::new(REPO).join("python/tests/requirements.txt");
        common::virtualenv("python-venv", &requirements, "the Python package's tests")
            .join("bin")
            .join("python")
    })
}

/// Build the wheel with maturin (in this run's target directory) and
/// install it into the virtualenv: the wheel's path.
fn installed_wheel() -> &'static Path {
    static WHEEL: OnceLock<PathBuf> = OnceLock::new();
    WHEEL.get_or_init(|| {
        let python = venv_python();
        let out = tempfile::Builder::new()
            .prefix("python-wheel-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("a directory for the wheel")
            .keep();
        let built = run(Command::new(python)
            .args(["-m", "maturin", "build", "--release", "--quiet"])
            .args(["--compatibility", "linux", "--manifest-path"])
            .arg(Path::new(REPO).join("python/Cargo.toml"))
            .arg("--out")
            .arg(&out)
            .env("CARGO_TARGET_DIR", target_dir()));
        assert!(
            built.status.success(),
            "maturin build failed:\n{}{}",
            text(&built.stdout),
            text(&built.stderr)
        );
        let wheel = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "whl"))
            .expect("maturin wrote a wheel");
        let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.contains("-abi3-"), "not an abi3 wheel: {name}");
        let installed = run(Command::new(python)
            .args(["-m", "pip", "install", "--disable-pip-version-check"])
            .args(["--no-input", "--quiet", "--no-deps", "--force-reinstall"])
            .arg(&wheel));
        assert!(
            installed.status.success(),
            "pip install {name} failed:\n{}{}",
            text(&installed.stdout),
            text(&installed.stderr)
        );
        let bytes = std::fs::metadata(&wheel).unwrap().len();
        eprintln!("built and installed {name} ({bytes} bytes)");
        wheel
    })
}

#[test]
fn the_package_passes_its_tests_against_the_cli() {
    installed_wheel();
    let tables = common::built_tables();
    let out = run(Command::new(venv_python())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(REPO)
        .env("GAMETAB_TABLES", tables)
        .env("GAMETAB_BIN", env!("CARGO_BIN_EXE_gametab"))
        .env_remove("PYTHONPATH"));
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "pytest python/tests failed:\n{stdout}\n{}",
        text(&out.stderr)
    );
    // The summary line, e.g. "52 passed in 30.1s": nothing skipped.
    let summary = stdout.lines().last().unwrap_or("");
    eprintln!("python/tests: {summary}");
    assert!(
        summary.contains(" passed") && !summary.contains("skipped"),
        "{stdout}"
    );
}

#[test]
fn the_installed_package_is_the_wheel_and_answers_from_a_path() {
    installed_wheel();
    // Imported from site-packages (the wheel), not from the checkout.
    let out = run(Command::new(venv_python())
        .args([
            "-c",
            "import gametab, sys; t = gametab.open_tables(sys.argv[1]); \
             print(gametab.__file__); print(t.murder_plan.value(8, (0, 1), (1, 0)).value)",
        ])
        .arg(common::built_tables())
        .current_dir(std::env::temp_dir()));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("site-packages"), "{stdout}");
    assert!(stdout.contains("0.7736941341148356"), "{stdout}");
}
