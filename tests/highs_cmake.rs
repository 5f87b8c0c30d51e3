//! `scripts/highs-cmake`, the cmake the HiGHS build runs, with stand-ins
//! for `cmake` and `gcc` on `PATH`: configuring HiGHS gets the unity build
//! and the system's single-threaded OpenBLAS (its static library copied into
//! the install prefix); every other cmake call passes through unchanged; a
//! machine without cmake, or without that OpenBLAS, or a configure run
//! without an install prefix gets a message naming what is missing and what
//! installs it, and a non-zero exit, before anything is compiled.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// This machine's multiarch name (`x86_64-linux-gnu` here), as the script
/// asks the real gcc.
fn multiarch() -> String {
    let output = Command::new("gcc")
        .arg("-print-multiarch")
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// Where Debian's single-threaded OpenBLAS lives on this machine (what
/// `scripts/setup` installs).
fn openblas() -> String {
    format!("/usr/lib/{}/openblas-serial", multiarch())
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/highs-cmake")
}

fn write_executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A directory of stand-ins: `cmake` writes its arguments, one per line,
/// to `args` beside it; `gcc -print-multiarch` prints `multiarch`.
struct Fakes {
    dir: tempfile::TempDir,
}

impl Fakes {
    fn new(multiarch: &str) -> Fakes {
        let dir = tempfile::tempdir().unwrap();
        let args = dir.path().join("args");
        write_executable(
            &dir.path().join("cmake"),
            &format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n", args.display()),
        );
        write_executable(
            &dir.path().join("gcc"),
            &format!("#!/bin/sh\necho '{multiarch}'\n"),
        );
        Fakes { dir }
    }

    /// Runs the script with the stand-ins first on `PATH`.
    fn run(&self, args: &[&str]) -> Output {
        let path = format!("{}:/usr/bin:/bin", self.dir.path().display());
        Command::new("/bin/sh")
            .arg(script())
            .args(args)
            .env("PATH", path)
            .output()
            .unwrap()
    }

    /// The arguments the stand-in cmake got, or `None` if it never ran.
    fn cmake_args(&self) -> Option<Vec<String>> {
        let text = std::fs::read_to_string(self.dir.path().join("args")).ok()?;
        Some(text.lines().map(str::to_owned).collect())
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn configuring_highs_gets_the_unity_build_and_the_system_openblas() {
    let fakes = Fakes::new(&multiarch());
    let openblas = openblas();
    let prefix = tempfile::tempdir().unwrap();
    let prefix_arg = format!("-DCMAKE_INSTALL_PREFIX={}", prefix.path().display());
    let output = fakes.run(&["/somewhere/highs-sys/HiGHS", &prefix_arg, "-DFAST_BUILD=ON"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let args = fakes.cmake_args().expect("cmake ran");
    assert_eq!(
        args,
        [
            "/somewhere/highs-sys/HiGHS".to_owned(),
            prefix_arg,
            "-DFAST_BUILD=ON".to_owned(),
            "-DCMAKE_UNITY_BUILD=ON".to_owned(),
            "-DBUILD_OPENBLAS=OFF".to_owned(),
            format!("-DOpenBLAS_DIR={openblas}/cmake/openblas"),
        ]
    );
    let copied = std::fs::read(prefix.path().join("lib/libopenblas.a")).unwrap();
    let system = std::fs::read(format!("{openblas}/libopenblas.a")).unwrap();
    assert!(
        copied == system,
        "the prefix's libopenblas.a is not the system's"
    );
}

#[test]
fn every_other_cmake_call_passes_through_unchanged() {
    for args in [
        &["--build", "/x/build", "--target", "install"][..],
        &["-E", "echo", "hi"][..],
        &["--version"][..],
        // Another project's configure run: no HiGHS source directory.
        &[
            "/somewhere/zstd-sys/zstd",
            "-DCMAKE_INSTALL_PREFIX=/nowhere",
        ][..],
    ] {
        let fakes = Fakes::new("no-such-multiarch");
        let output = fakes.run(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(fakes.cmake_args().expect("cmake ran"), args, "{args:?}");
    }
}

#[test]
fn a_machine_without_the_single_threaded_openblas_is_told_what_installs_it() {
    // gcc names a multiarch directory that does not exist under /usr/lib.
    let fakes = Fakes::new("no-such-multiarch");
    let prefix = tempfile::tempdir().unwrap();
    let prefix_arg = format!("-DCMAKE_INSTALL_PREFIX={}", prefix.path().display());
    let output = fakes.run(&["/somewhere/highs-sys/HiGHS", &prefix_arg]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message
            .contains("no single-threaded OpenBLAS in /usr/lib/no-such-multiarch/openblas-serial")
            && message.contains("scripts/setup installs libopenblas-serial-dev"),
        "{message}"
    );
    assert_eq!(fakes.cmake_args(), None, "cmake ran anyway");
    assert!(
        !prefix.path().join("lib").exists(),
        "the prefix was touched"
    );
}

#[test]
fn configuring_highs_without_an_install_prefix_is_refused() {
    let fakes = Fakes::new(&multiarch());
    let output = fakes.run(&["/somewhere/highs-sys/HiGHS", "-DFAST_BUILD=ON"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("without -DCMAKE_INSTALL_PREFIX"),
        "{}",
        stderr(&output)
    );
    assert_eq!(fakes.cmake_args(), None, "cmake ran anyway");
}

#[test]
fn a_machine_without_cmake_is_told_what_installs_it() {
    // Only the stand-in gcc on PATH: no cmake anywhere.
    let fakes = Fakes::new(&multiarch());
    std::fs::remove_file(fakes.dir.path().join("cmake")).unwrap();
    let output = Command::new("/bin/sh")
        .arg(script())
        .arg("--version")
        .env("PATH", fakes.dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(127));
    assert!(
        stderr(&output).contains("cmake is not installed (scripts/setup installs it)"),
        "{}",
        stderr(&output)
    );
}
