//! Where the commands find a table set (`--tables DIR`, the
//! `GAMETAB_TABLES` variable, `tables/` by default) and what they say when
//! there is none: one refusal, worded once, that names the directory, what
//! is missing there and the two ways to fix it (build a set, or point at
//! one).

use std::path::Path;

use crate::error::{chain, Error, Result};
use gametab_lookup::manifest::MANIFEST_FILE;
use gametab_lookup::Tables;

/// The variable that names the table set when `--tables` does not.
pub const TABLES_VARIABLE: &str = "GAMETAB_TABLES";

/// Refuse `dir` unless it holds a table set (its `manifest.json`).
///
/// # Errors
/// No such directory, not a directory, or no manifest in it; the message
/// says how to build a set or where to point.
pub fn require(dir: &Path) -> Result<()> {
    if dir.join(MANIFEST_FILE).is_file() {
        return Ok(());
    }
    let what = if !dir.exists() {
        "there is no such directory"
    } else if !dir.is_dir() {
        "it is not a directory"
    } else {
        "it has no manifest.json"
    };
    Err(Error::Tables {
        message: format!(
            "no table set in {dir}: {what}. Build one with `scripts/build-tables` (or `gametab \
             build --out {dir}`), or name one with --tables DIR or {TABLES_VARIABLE}=DIR",
            dir = dir.display()
        ),
    })
}

/// Open the table set in `dir` with the lookup crate.
///
/// # Errors
/// [`require`]'s refusal, or the lookup crate's when the set does not load.
pub fn open(dir: &Path) -> Result<Tables> {
    require(dir)?;
    Tables::open(dir).map_err(|e| Error::Tables {
        message: format!(
            "cannot load the table set in {}: {}",
            dir.display(),
            chain(&e)
        ),
    })
}
