//! Publishing a verified table set: the staging directory of a build
//! becomes the output directory in one step, so readers never see a mixed
//! set and a failed or interrupted build leaves the previous set in place.
//!
//! Publishing moves no table file into `out` one by one: an interruption
//! between such moves would leave new tables beside the old manifest, which
//! only the Murder Plan loader would notice. Instead the files of `out` that
//! a build does not write (the committed `README.md`) are copied into the
//! staging directory, and the two directories are exchanged with one
//! `renameat2(RENAME_EXCHANGE)` (Linux, glibc). Where that is unavailable,
//! `out` is renamed to a hidden `.<out>.previous` and the staging directory
//! to `out`; if that is interrupted between the two renames, the next build
//! first moves `.<out>.previous` back ([`recover`]).

use crate::error::{fail, Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

use gametab_lookup::manifest::MANIFEST_FILE;

/// A hidden sibling `.<out name>.<suffix>` of `out`, on the same file
/// system so renames between them are atomic.
fn sibling(out: &Path, suffix: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "tables".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.{suffix}"))
}

/// The staging directory of a build into `out`.
pub fn staging_dir(out: &Path) -> PathBuf {
    sibling(out, "staging")
}

/// Where the fallback publish keeps the previous set between its two
/// renames.
fn previous_dir(out: &Path) -> PathBuf {
    sibling(out, "previous")
}

/// Whether a file in `out` is build output (replaced by every build) rather
/// than something to carry into the new set.
fn is_build_output(name: &str) -> bool {
    name == MANIFEST_FILE
        || name == crate::plots::PLOTS_DIR
        || name.ends_with(".parquet")
        || name.ends_with(".tmp")
}

/// Copy every file of `out` that a build does not write (such as the
/// committed `README.md`) into `staging`, and give `staging` the
/// permissions of `out`.
///
/// # Errors
/// When `out` holds a directory or any other non-file entry that is not
/// build output: a build replaces the whole directory and will not move
/// such things around; or when a copy fails.
fn carry_over(out: &Path, staging: &Path) -> Result<()> {
    let entries = fs::read_dir(out).map_err(|e| Error::io("list", out, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("list", out, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_build_output(&name) {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Error::io("stat", &path, e))?;
        if !kind.is_file() {
            fail!(
                Invalid,
                "{} is not a table file; the output directory is replaced as a whole, so it may \
                 only hold files (move {name} elsewhere or choose another --out)",
                path.display()
            );
        }
        fs::copy(&path, staging.join(&name))
            .map_err(|e| Error::io("carry over into the new tables", &path, e))?;
    }
    let permissions = fs::metadata(out)
        .map_err(|e| Error::io("stat", out, e))?
        .permissions();
    fs::set_permissions(staging, permissions)
        .map_err(|e| Error::io("set the permissions of", staging, e))
}

/// Atomically exchange two directories (Linux `renameat2` with
/// `RENAME_EXCHANGE`); `Ok(false)` when the system or file system cannot.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn exchange(a: &Path, b: &Path) -> Result<bool> {
    use std::ffi::{c_char, c_int, c_uint, CString};
    use std::os::unix::ffi::OsStrExt;
    const AT_FDCWD: c_int = -100;
    const RENAME_EXCHANGE: c_uint = 2;
    unsafe extern "C" {
        // glibc >= 2.28.
        fn renameat2(
            old_dir: c_int,
            old_path: *const c_char,
            new_dir: c_int,
            new_path: *const c_char,
            flags: c_uint,
        ) -> c_int;
    }
    let c_path = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| Error::Invalid(format!("{} contains a NUL byte", p.display())))
    };
    let (a_c, b_c) = (c_path(a)?, c_path(b)?);
    // SAFETY: both pointers are valid NUL-terminated strings for the call.
    let status = unsafe {
        renameat2(
            AT_FDCWD,
            a_c.as_ptr(),
            AT_FDCWD,
            b_c.as_ptr(),
            RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        // Not supported by the kernel or this file system: use the fallback.
        Some(22 | 38 | 95) => Ok(false),
        _ => Err(Error::io(format!("exchange {} and", a.display()), b, error)),
    }
}

/// Atomic exchange is not available here: always use the fallback.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn exchange(_a: &Path, _b: &Path) -> Result<bool> {
    Ok(false)
}

/// Replace `out` by `staging` with two renames, keeping the old set at
/// [`previous_dir`] in between; then delete the old set.
fn replace_by_renames(staging: &Path, out: &Path) -> Result<()> {
    let previous = previous_dir(out);
    if previous.exists() {
        fs::remove_dir_all(&previous).map_err(|e| Error::io("clear", &previous, e))?;
    }
    fs::rename(out, &previous).map_err(|e| Error::io("move aside", out, e))?;
    fs::rename(staging, out).map_err(|e| Error::io("move the new tables into", out, e))?;
    fs::remove_dir_all(&previous).map_err(|e| Error::io("remove", &previous, e))
}

/// Make a verified staging directory the output directory: rename it into
/// place when `out` does not exist, otherwise carry the non-table files of
/// `out` over and swap the two directories; the previous set is deleted.
pub fn publish(staging: &Path, out: &Path) -> Result<()> {
    if !out.exists() {
        return fs::rename(staging, out)
            .map_err(|e| Error::io(format!("move {} to", staging.display()), out, e));
    }
    carry_over(out, staging)?;
    if exchange(staging, out)? {
        // `staging` now holds the previous set.
        fs::remove_dir_all(staging).map_err(|e| Error::io("remove the previous set in", staging, e))
    } else {
        replace_by_renames(staging, out)
    }
}

/// Undo an interrupted fallback publish: when `out` is missing but the
/// previous set waits in `.<out>.previous`, move it back; when both exist,
/// the publish had finished and the previous set is deleted. Returns whether
/// anything was done.
pub fn recover(out: &Path) -> Result<bool> {
    let previous = previous_dir(out);
    if !previous.exists() {
        return Ok(false);
    }
    if out.exists() {
        fs::remove_dir_all(&previous).map_err(|e| Error::io("remove", &previous, e))?;
    } else {
        fs::rename(&previous, out)
            .map_err(|e| Error::io(format!("restore {} from", out.display()), &previous, e))?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) {
        fs::create_dir_all(dir).unwrap();
        for (name, text) in files {
            fs::write(dir.join(name), text).unwrap();
        }
    }

    fn contents(dir: &Path) -> Vec<(String, String)> {
        let mut files: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                (name, fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    }

    /// An output directory with an old set and its README, and a staging
    /// directory with a new set.
    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("tables");
        write(
            &out,
            &[
                ("README.md", "docs"),
                ("manifest.json", "old manifest"),
                ("old.parquet", "stale table"),
                ("kept.parquet", "old table"),
            ],
        );
        let staging = staging_dir(&out);
        write(
            &staging,
            &[
                ("manifest.json", "new manifest"),
                ("kept.parquet", "new table"),
            ],
        );
        (root, out, staging)
    }

    fn new_set() -> Vec<(String, String)> {
        [
            ("README.md", "docs"),
            ("kept.parquet", "new table"),
            ("manifest.json", "new manifest"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .to_vec()
    }

    #[test]
    fn publish_swaps_whole_directories_and_keeps_the_readme() {
        let (root, out, staging) = setup();
        publish(&staging, &out).unwrap();
        assert_eq!(contents(&out), new_set(), "no stale or old table survives");
        assert!(!staging.exists() && !previous_dir(&out).exists());
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
        // Into a directory that does not exist yet.
        let fresh = root.path().join("fresh");
        write(&staging_dir(&fresh), &[("manifest.json", "m")]);
        publish(&staging_dir(&fresh), &fresh).unwrap();
        assert_eq!(contents(&fresh).len(), 1);
    }

    #[test]
    fn the_rename_fallback_gives_the_same_result() {
        let (_root, out, staging) = setup();
        carry_over(&out, &staging).unwrap();
        replace_by_renames(&staging, &out).unwrap();
        assert_eq!(contents(&out), new_set());
        assert!(!staging.exists() && !previous_dir(&out).exists());
    }

    #[test]
    fn an_interrupted_fallback_is_recovered_by_the_next_build() {
        // Interrupted between the two renames: no `out`, the old set aside.
        let (_root, out, _staging) = setup();
        let old = contents(&out);
        fs::rename(&out, previous_dir(&out)).unwrap();
        assert!(recover(&out).unwrap());
        assert_eq!(contents(&out), old);
        assert!(!previous_dir(&out).exists());
        // Interrupted after both renames: the new set is in place.
        write(&previous_dir(&out), &[("manifest.json", "older")]);
        assert!(recover(&out).unwrap());
        assert_eq!(contents(&out), old);
        assert!(!previous_dir(&out).exists());
        assert!(!recover(&out).unwrap());
    }

    #[test]
    fn a_subdirectory_in_the_output_is_refused_before_anything_moves() {
        let (_root, out, staging) = setup();
        fs::create_dir(out.join("notes")).unwrap();
        let before = fs::read_dir(&out).unwrap().count();
        let error = publish(&staging, &out).unwrap_err();
        assert!(format!("{error:#}").contains("notes"), "{error:#}");
        assert_eq!(fs::read_dir(&out).unwrap().count(), before);
        assert_eq!(
            fs::read_to_string(out.join("manifest.json")).unwrap(),
            "old manifest"
        );
    }

    #[test]
    fn exchange_swaps_two_directories_or_declines() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("a"), root.path().join("b"));
        write(&a, &[("x", "in a")]);
        write(&b, &[("y", "in b")]);
        if exchange(&a, &b).unwrap() {
            assert_eq!(fs::read_to_string(a.join("y")).unwrap(), "in b");
            assert_eq!(fs::read_to_string(b.join("x")).unwrap(), "in a");
        } else {
            // Declined: nothing moved, the caller falls back to renames.
            assert!(a.join("x").exists() && b.join("y").exists());
            eprintln!("no atomic directory exchange here: publish uses two renames");
        }
    }
}
