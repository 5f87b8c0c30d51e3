//! The file-level checks of `gametab verify`: `manifest.json` against the
//! directory (every table file present, none extra, sizes, row counts,
//! schema versions, table names, parameters and BLAKE2 digests), and the
//! decoding of every table file against its schema. The decoded tables are
//! handed on to the per-game checks, with the bytes of the derived files
//! (the browser bundle: name, format version, size and digest checked
//! here; its rows and content by its game's check). A table read by its
//! game's check a stretch at a time ([`READ_BY_GROUPS`]: the endgame
//! strategy table, tens of millions of rows in a large set) is decoded and
//! checked here one row group at a time and not kept.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bytes::Bytes;
use gametab_lookup::dice::schema::ENDGAME_STRATEGY;
use gametab_lookup::io::{blake2_hex, check_parquet, read_parquet, CheckedTable, TableData};
use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};
use gametab_lookup::registry::DerivedFile;
use gametab_lookup::schema::TableSchema;
use rayon::prelude::*;

use super::report::TableCheck;

/// The tables decoded here without keeping their rows: their game's check
/// reads them again from [`LoadedFiles::bytes`] a stretch at a time
/// (`gametab_lookup::io::read_parquet_rows`), so that the largest table is
/// never held decoded whole.
pub const READ_BY_GROUPS: [&str; 1] = [ENDGAME_STRATEGY.file];

/// Every table a build writes, in build order (the game registry's).
pub fn known_schemas() -> Vec<TableSchema> {
    gametab_lookup::registry::all_schemas().copied().collect()
}

/// The table files of a directory, read and decoded where possible.
#[derive(Debug, Default)]
pub struct LoadedFiles {
    /// File bytes by file name (files that could be read).
    pub bytes: BTreeMap<&'static str, Bytes>,
    /// Decoded tables by file name (files that decoded against their
    /// schema), but those of [`READ_BY_GROUPS`].
    pub tables: BTreeMap<&'static str, TableData>,
    /// The tables of [`READ_BY_GROUPS`] that decoded against their schema,
    /// by file name: their rows, which are not kept.
    pub by_groups: BTreeMap<&'static str, usize>,
    /// The manifest, when it could be read.
    pub manifest: Option<Manifest>,
}

impl LoadedFiles {
    /// The decoded table of `schema`, if it decoded.
    pub fn table(&self, schema: &TableSchema) -> Option<&TableData> {
        self.tables.get(schema.file)
    }
}

/// Read the manifest; a finding (and `None`) when it is missing or invalid.
fn read_manifest(dir: &Path, check: &mut TableCheck) -> Option<Manifest> {
    let path = dir.join(MANIFEST_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            check.file_mismatch("file", "a readable manifest.json", e);
            return None;
        }
    };
    match serde_json::from_slice::<Manifest>(&bytes) {
        Ok(manifest) => Some(manifest),
        Err(e) => {
            check.file_mismatch("file", "valid manifest JSON", e);
            None
        }
    }
}

/// Check the manifest's list against the known tables and derived files
/// and the directory listing: every known file listed once, nothing
/// unknown listed, no unlisted `.parquet` file in the directory.
fn check_listing(dir: &Path, manifest: &Manifest, check: &mut TableCheck) {
    let known: BTreeSet<&str> = gametab_lookup::registry::all_files().collect();
    let mut listed = BTreeSet::new();
    for entry in &manifest.files {
        if !listed.insert(entry.file.as_str()) {
            check.file_mismatch("files", "each file listed once", &entry.file);
        }
        if !known.contains(entry.file.as_str()) {
            check.file_mismatch("files", "only known table files", &entry.file);
        }
    }
    for file in known.difference(&listed) {
        check.file_mismatch("files", format!("{file} listed"), "not listed");
    }
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            let mut extra: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".parquet") && !listed.contains(name.as_str()))
                .collect();
            extra.sort();
            for name in extra {
                check.file_mismatch("files", "no table file outside the manifest", name);
            }
        }
        Err(e) => check.file_mismatch("files", "a readable directory", e),
    }
}

/// A table file that decoded: its rows, or only their count for a table
/// of [`READ_BY_GROUPS`].
enum Decoded {
    /// The rows.
    Table(TableData),
    /// The count of rows, not kept.
    Rows(usize),
}

/// What reading one file gives: its check, its bytes when they could be
/// read, and what decoded when it is a table that decodes.
type FileRead = (TableCheck, Option<Bytes>, Option<Decoded>);

/// Check one table file against its manifest entry and decode it.
fn check_table_file(dir: &Path, schema: &TableSchema, manifest: Option<&Manifest>) -> FileRead {
    let mut check = TableCheck::new(schema.file);
    let bytes = match std::fs::read(dir.join(schema.file)) {
        Ok(bytes) => Bytes::from(bytes),
        Err(e) => {
            check.file_mismatch("file", "a readable file", e);
            return (check, None, None);
        }
    };
    if let Some(entry) = manifest.and_then(|m| m.entry(schema.file)) {
        check.file_exact("table", entry.table.as_str(), schema.name);
        check.file_exact("schema_version", entry.schema_version, schema.version);
        check.file_exact("bytes", entry.bytes, bytes.len() as u64);
        check.file_exact("blake2b_256", entry.blake2b_256.clone(), blake2_hex(&bytes));
    }
    let decoded = if READ_BY_GROUPS.contains(&schema.file) {
        check_parquet(bytes.clone(), schema).map(|c| (c, None))
    } else {
        read_parquet(bytes.clone(), schema).map(|data| {
            let checked = CheckedTable {
                rows: data.rows(),
                params: data.params.clone(),
            };
            (checked, Some(data))
        })
    };
    let table = match decoded {
        Ok((checked, data)) => {
            check.rows_total = checked.rows;
            if let Some(entry) = manifest.and_then(|m| m.entry(schema.file)) {
                check.file_exact("rows", entry.rows, checked.rows as u64);
            }
            if let Some(params) = manifest.and_then(|m| m.params.get(schema.name)) {
                if params != &checked.params {
                    check.file_mismatch(
                        "params",
                        format!("{params:?} (manifest)"),
                        format!("{:?}", checked.params),
                    );
                }
            }
            Some(data.map_or(Decoded::Rows(checked.rows), Decoded::Table))
        }
        Err(e) => {
            check.file_mismatch("file", format!("a readable {} table", schema.name), e);
            None
        }
    };
    (check, Some(bytes), table)
}

/// Check a derived file against its manifest entry and keep its bytes.
fn check_derived_file(dir: &Path, derived: &DerivedFile, manifest: Option<&Manifest>) -> FileRead {
    let mut check = TableCheck::new(derived.file);
    let bytes = match std::fs::read(dir.join(derived.file)) {
        Ok(bytes) => Bytes::from(bytes),
        Err(e) => {
            check.file_mismatch("file", "a readable file", e);
            return (check, None, None);
        }
    };
    if let Some(entry) = manifest.and_then(|m| m.entry(derived.file)) {
        check.file_exact("table", entry.table.as_str(), derived.name);
        check.file_exact("schema_version", entry.schema_version, derived.version);
        check.file_exact("bytes", entry.bytes, bytes.len() as u64);
        check.file_exact("blake2b_256", entry.blake2b_256.clone(), blake2_hex(&bytes));
    }
    (check, Some(bytes), None)
}

/// Check the manifest and every table file of `dir`; return the checks (the
/// manifest's first, then one per known table, then one per derived file)
/// and what could be decoded.
pub fn check_files(dir: &Path) -> (Vec<TableCheck>, LoadedFiles) {
    let mut manifest_check = TableCheck::new(MANIFEST_FILE);
    let manifest = read_manifest(dir, &mut manifest_check);
    if let Some(manifest) = &manifest {
        check_listing(dir, manifest, &mut manifest_check);
        manifest_check.notes.push(format!(
            "{} files listed, generator {}",
            manifest.files.len(),
            manifest.generator_version
        ));
    }
    // Every file is read, hashed and decoded on its own, in parallel; the
    // results are then taken in the fixed order above, so the report does
    // not depend on the thread count.
    let schemas = known_schemas();
    let derived: Vec<&DerivedFile> = gametab_lookup::registry::all_derived().collect();
    let table_reads: Vec<FileRead> = schemas
        .par_iter()
        .map(|schema| check_table_file(dir, schema, manifest.as_ref()))
        .collect();
    let derived_reads: Vec<FileRead> = derived
        .par_iter()
        .map(|derived| check_derived_file(dir, derived, manifest.as_ref()))
        .collect();
    let files = schemas.iter().map(|s| s.file);
    let files = files.chain(derived.iter().map(|d| d.file));
    let reads = table_reads.into_iter().chain(derived_reads);
    let mut loaded = LoadedFiles::default();
    let mut checks = vec![manifest_check];
    for (file, (check, bytes, table)) in files.zip(reads) {
        checks.push(check);
        if let Some(bytes) = bytes {
            loaded.bytes.insert(file, bytes);
        }
        match table {
            Some(Decoded::Table(table)) => {
                loaded.tables.insert(file, table);
            }
            Some(Decoded::Rows(rows)) => {
                loaded.by_groups.insert(file, rows);
            }
            None => {}
        }
    }
    loaded.manifest = manifest;
    (checks, loaded)
}
