//! The browser bundle's check in `gametab verify`: decoded by the lookup
//! crate's reader (every field against its layout and the rules), its
//! positions against the manifest's `rows` and its generator against the
//! manifest's, then every answer it holds compared with the Parquet tables
//! of the same set, to the bit ([`bundle::compare`]). The tables are
//! checked on their own by the rest of this module, so a bundle that
//! agrees with them is as right as they are.

use gametab_lookup::murder_plan::{bundle, MurderPlanTables};

use crate::verify::files::LoadedFiles;
use crate::verify::report::{TableCheck, MAX_FINDINGS_PER_FILE};

/// Check the bundle of `loaded` against `tables` (the five Parquet tables
/// as the lookup loader loads them; `None` when they did not load, which
/// their own checks report).
pub fn check_bundle(loaded: &LoadedFiles, tables: Option<&MurderPlanTables>) -> TableCheck {
    let mut check = TableCheck::new(bundle::FILE);
    let Some(bytes) = loaded.bytes.get(bundle::FILE) else {
        // Unreadable: the file check says so.
        return check;
    };
    let decoded = match bundle::decode(bytes) {
        Ok(decoded) => decoded,
        Err(error) => {
            check.file_mismatch("file", "a readable browser bundle", error);
            return check;
        }
    };
    check.rows_total = decoded.positions;
    if let Some(manifest) = &loaded.manifest {
        if let Some(entry) = manifest.entry(bundle::FILE) {
            check.file_exact("rows", entry.rows, decoded.positions as u64);
        }
        check.file_exact(
            "generator",
            manifest.generator_version.as_str(),
            decoded.generator.as_str(),
        );
    }
    let Some(tables) = tables else {
        check.notes.push(
            "not compared: the Parquet tables did not load (their checks say why)".to_string(),
        );
        return check;
    };
    let comparison = bundle::compare(tables, &decoded.tables, MAX_FINDINGS_PER_FILE);
    for difference in &comparison.differences {
        check.mismatch(
            None,
            difference.key.clone(),
            difference.what,
            &difference.expected,
            &difference.found,
        );
    }
    check.mismatches += comparison.differing - comparison.differences.len();
    check.rows_checked = decoded.positions;
    check.notes.push(format!(
        "decoded; {} answers (reachability, values, gaps, both supports, brain choices, win rates) compared with the Parquet tables to the bit",
        comparison.compared
    ));
    check
}
