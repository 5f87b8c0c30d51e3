//! `scripts/nightly` end to end with a stand-in `gametab` (`GAMETAB_BIN`)
//! whose build writes a small set quickly: a set the real `gametab verify`
//! rejects, or a failing build, leaves the current and previous sets
//! byte-identical and exits non-zero; a set that passes becomes current
//! with the README carried over and the old set kept in `tables.prev/`; a
//! run killed between its two publishing renames is repaired by the next;
//! the build's cache is under the root, and a frontier build starts from
//! the job files kept in the repository (`data/dice_endgame/`) where they
//! are further along than the cache's own (the real `gametab dice endgame
//! gather`).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use gametab_solve::endgame::job::{self, JobState};
use std::process::{Command, Output};

/// The stand-in binary: `build` writes a two-file set (or fails with
/// `FAKE_BUILD=fail`), and with `FAKE_RECORD=FILE` writes its arguments
/// there, one per line; `verify` is the real one unless `FAKE_VERIFY=ok`;
/// `dice` (the seed step's `dice endgame gather`) is the real one.
const FAKE_GAMETAB: &str = r#"#!/usr/bin/env bash
set -euo pipefail
command="$1"
shift
case "$command" in
  build)
    if [ "${FAKE_BUILD:-}" = fail ]; then echo "fake build failure" >&2; exit 1; fi
    if [ -n "${FAKE_RECORD:-}" ]; then printf '%s\n' "$@" >"$FAKE_RECORD"; fi
    out=""
    while [ $# -gt 0 ]; do
      case "$1" in --out) out="$2"; shift 2 ;; *) shift ;; esac
    done
    mkdir -p "$out"
    echo "new table" >"$out/t.parquet"
    echo '{}' >"$out/manifest.json"
    ;;
  verify)
    if [ "${FAKE_VERIFY:-}" = ok ]; then exit 0; fi
    exec "$REAL_GAMETAB" verify "$@"
    ;;
  dice) exec "$REAL_GAMETAB" dice "$@" ;;
  *) exit 2 ;;
esac
"#;

struct Root {
    _dir: tempfile::TempDir,
    path: PathBuf,
    fake: PathBuf,
}

/// A root with a current set (README, manifest, a table) and a previous one.
fn root() -> Root {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("root");
    for (sub, files) in [
        (
            "tables",
            &[
                ("README.md", "docs"),
                ("manifest.json", "current"),
                ("t.parquet", "current table"),
            ][..],
        ),
        ("tables.prev", &[("manifest.json", "previous")][..]),
    ] {
        std::fs::create_dir_all(path.join(sub)).unwrap();
        for (name, text) in files {
            std::fs::write(path.join(sub).join(name), text).unwrap();
        }
    }
    let fake = dir.path().join("fake-gametab");
    std::fs::write(&fake, FAKE_GAMETAB).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    Root {
        _dir: dir,
        path,
        fake,
    }
}

fn nightly(root: &Root, env: &[(&str, &str)]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/nightly");
    Command::new("bash")
        .arg(script)
        .env("GAMETAB_BIN", &root.fake)
        .env("GAMETAB_ROOT", &root.path)
        .env("REAL_GAMETAB", env!("CARGO_BIN_EXE_gametab"))
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// Every file under `dir` (one level of subdirectories) with its contents.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for sub in ["tables", "tables.prev"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries {
            let entry = entry.unwrap();
            let name = format!("{sub}/{}", entry.file_name().to_string_lossy());
            files.push((name, std::fs::read(entry.path()).unwrap()));
        }
    }
    files.sort();
    files
}

/// The one log file of the run.
fn log_of(root: &Root) -> String {
    let logs: Vec<_> = std::fs::read_dir(root.path.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let name = logs[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("nightly-20") && name.ends_with("Z.log"),
        "{name}"
    );
    std::fs::read_to_string(&logs[0]).unwrap()
}

#[test]
fn a_failing_verify_leaves_both_sets_untouched() {
    let root = root();
    let before = snapshot(&root.path);
    let out = nightly(&root, &[]);
    assert!(!out.status.success(), "{out:?}");
    assert_eq!(snapshot(&root.path), before);
    let log = log_of(&root);
    assert!(log.contains("step build: ok"), "{log}");
    assert!(log.contains("step verify: FAILED"), "{log}");
    // The real verifier said why, and every line is timestamped.
    assert!(log.contains("MISMATCH manifest.json"), "{log}");
    assert!(!log.contains("step publish"), "{log}");
    assert!(log
        .lines()
        .filter(|l| l.contains("step "))
        .all(|l| l.starts_with("20") && l.as_bytes()[19] == b'Z'));
    assert!(String::from_utf8_lossy(&out.stderr).contains("verify failed"));
}

#[test]
fn a_failing_build_leaves_both_sets_untouched() {
    let root = root();
    let before = snapshot(&root.path);
    let out = nightly(&root, &[("FAKE_BUILD", "fail")]);
    assert!(!out.status.success());
    assert_eq!(snapshot(&root.path), before);
    let log = log_of(&root);
    assert!(log.contains("fake build failure") && log.contains("step build: FAILED"));
    assert!(!log.contains("step verify"), "{log}");
}

#[test]
fn a_verified_set_becomes_current_and_the_old_one_previous() {
    let root = root();
    let out = nightly(&root, &[("FAKE_VERIFY", "ok")]);
    assert!(out.status.success(), "{out:?}\n{}", log_of(&root));
    let files = |pairs: &[(&str, &str)]| -> Vec<(String, Vec<u8>)> {
        pairs
            .iter()
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect()
    };
    assert_eq!(
        snapshot(&root.path),
        files(&[
            ("tables.prev/README.md", "docs"),
            ("tables.prev/manifest.json", "current"),
            ("tables.prev/t.parquet", "current table"),
            ("tables/README.md", "docs"),
            ("tables/manifest.json", "{}\n"),
            ("tables/t.parquet", "new table\n"),
        ])
    );
    assert!(!root.path.join(".nightly").exists());
    assert!(log_of(&root).contains("step publish: ok"));
}

/// The lines `FAKE_RECORD` got: the build's arguments.
fn recorded(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_build_caches_under_the_root_wherever_the_script_runs() {
    let root = root();
    let record = root.path.with_file_name("args");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/nightly"))
        .current_dir(elsewhere.path())
        .env("GAMETAB_BIN", &root.fake)
        .env("GAMETAB_ROOT", &root.path)
        .env("FAKE_VERIFY", "ok")
        .env("FAKE_RECORD", &record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}\n{}", log_of(&root));
    let cache = root.path.join(".gametab-cache/murder_plan_games.bin");
    let args = recorded(&record);
    let at = args.iter().position(|a| a == "--cache").expect("--cache");
    assert_eq!(args[at + 1], cache.to_str().unwrap(), "{args:?}");
    // No frontier, so no job files copied.
    assert!(!log_of(&root).contains("step seed"));
    assert!(!root.path.join(".gametab-cache").exists());
}

#[test]
fn a_frontier_build_goes_on_from_the_repository_job_files() {
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/dice_endgame");
    let mut names: Vec<_> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    names.sort();
    let solved = |name: &String| {
        let file = job::load(&kept.join(name)).unwrap().unwrap();
        matches!(file.state, JobState::Solved(_))
    };
    // The repository keeps the job files of solved games whose solving
    // took hours, and of open games when there are any.
    let (done, open): (Vec<String>, Vec<String>) = names.iter().cloned().partition(solved);
    assert!(!done.is_empty(), "{names:?}");
    let first = root();
    let record = first.path.with_file_name("args");
    // The cache holds the first open game further along than the
    // repository (a narrower bracket): kept; every other open game less far
    // (a wider one), and no solved game: the repository's files replace
    // them.
    let jobs = first.path.join(".gametab-cache/dice_endgame");
    std::fs::create_dir_all(&jobs).unwrap();
    let rescaled = |name: &str, scale: f64| {
        let mut file = job::load(&kept.join(name)).unwrap().unwrap();
        let JobState::Partial(p) = &mut file.state else {
            panic!("{name} is solved");
        };
        let (mid, half) = (
            (p.bracket.0 + p.bracket.1) / 2.0,
            (p.bracket.1 - p.bracket.0) / 2.0,
        );
        p.bracket = (mid - half * scale, mid + half * scale);
        job::encode(&file).unwrap()
    };
    let (own, cache_own) = match open.split_first() {
        Some((first_open, others)) => {
            for name in others {
                std::fs::write(jobs.join(name), rescaled(name, 2.0)).unwrap();
            }
            (first_open, rescaled(first_open, 0.5))
        }
        // Every kept game solved: the cache holds the first one already
        // (the same file, so the cache's own is kept), the others not at
        // all (copied).
        None => (&done[0], std::fs::read(kept.join(&done[0])).unwrap()),
    };
    std::fs::write(jobs.join(own), &cache_own).unwrap();
    let record_arg = record.to_str().unwrap();
    let out = nightly(
        &first,
        &[
            ("FAKE_VERIFY", "ok"),
            ("FAKE_RECORD", record_arg),
            ("GAMETAB_BUILD_ARGS", "--endgame-frontier --budget 1s"),
        ],
    );
    let log = log_of(&first);
    assert!(out.status.success(), "{out:?}\n{log}");
    assert!(
        log.contains("step seed: ok") && log.contains(": kept ") && log.contains(": copied "),
        "{log}"
    );
    assert_eq!(std::fs::read(jobs.join(own)).unwrap(), cache_own);
    for name in names.iter().filter(|&name| name != own) {
        assert_eq!(
            std::fs::read(jobs.join(name)).unwrap(),
            std::fs::read(kept.join(name)).unwrap(),
            "{name}"
        );
    }
    let args = recorded(&record);
    assert!(args.ends_with(&[
        "--cache".into(),
        first
            .path
            .join(".gametab-cache/murder_plan_games.bin")
            .to_str()
            .unwrap()
            .into(),
        "--endgame-frontier".into(),
        "--budget".into(),
        "1s".into(),
    ]));

    // A cache of the caller's choosing gets the job files beside it, and
    // the script adds no --cache of its own; --no-cache copies nothing.
    let second = root();
    let theirs = second.path.with_file_name("their-cache");
    let file = theirs.join("games.bin");
    let build_args = format!("--endgame-frontier --cache={}", file.display());
    let out = nightly(
        &second,
        &[
            ("FAKE_VERIFY", "ok"),
            ("FAKE_RECORD", record_arg),
            ("GAMETAB_BUILD_ARGS", &build_args),
        ],
    );
    assert!(out.status.success(), "{out:?}\n{}", log_of(&second));
    for name in &names {
        assert!(theirs.join("dice_endgame").join(name).is_file(), "{name}");
    }
    assert_eq!(
        recorded(&record)
            .iter()
            .filter(|a| a.starts_with("--cache"))
            .count(),
        1
    );
    let third = root();
    let out = nightly(
        &third,
        &[
            ("FAKE_VERIFY", "ok"),
            ("FAKE_RECORD", record_arg),
            ("GAMETAB_BUILD_ARGS", "--endgame-frontier --no-cache"),
        ],
    );
    assert!(out.status.success(), "{out:?}\n{}", log_of(&third));
    assert!(!log_of(&third).contains("step seed"));
    assert!(!recorded(&record).iter().any(|a| a.starts_with("--cache")));
}

#[test]
fn a_run_killed_between_the_publishing_renames_is_repaired() {
    let root = root();
    std::fs::remove_dir_all(root.path.join("tables.prev")).unwrap();
    let current = snapshot(&root.path);
    // Killed after `tables -> tables.prev`, before `new -> tables`.
    std::fs::rename(root.path.join("tables"), root.path.join("tables.prev")).unwrap();
    let out = nightly(&root, &[]);
    assert!(!out.status.success(), "the fake set does not verify");
    assert_eq!(snapshot(&root.path), current, "restored, then untouched");
    assert!(log_of(&root).contains("restoring the previous set"));
}
