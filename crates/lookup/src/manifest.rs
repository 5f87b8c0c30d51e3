//! `manifest.json`: the list of table files of a build with their row
//! counts, schema versions and BLAKE2b-256 digests, so a table set can be
//! checked independently of the program that wrote it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// File name of the manifest inside a table directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// One table file of a build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// File name inside the directory.
    pub file: String,
    /// Table name (as in the file metadata).
    pub table: String,
    /// Schema version.
    pub schema_version: u32,
    /// Number of rows.
    pub rows: u64,
    /// File size in bytes.
    pub bytes: u64,
    /// BLAKE2b-256 of the file, lowercase hex.
    pub blake2b_256: String,
}

/// The manifest of a table directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `gametab <version>` of the generator.
    pub generator_version: String,
    /// Rule and grid parameters of the build, per game.
    pub params: BTreeMap<String, BTreeMap<String, String>>,
    /// Wall-clock duration of the build in seconds (informational: the only
    /// field that differs between two builds of the same inputs).
    pub build_seconds: f64,
    /// Every table file, sorted by file name.
    pub files: Vec<ManifestEntry>,
}

impl Manifest {
    /// The entry of `file`, if listed.
    pub fn entry(&self, file: &str) -> Option<&ManifestEntry> {
        self.files.iter().find(|e| e.file == file)
    }
}
