//! [`Tables`]: a whole table directory, loaded and checked.

use std::collections::BTreeMap;
use std::path::Path;

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::blake2_hex;
use crate::manifest::{Manifest, MANIFEST_FILE};
use crate::murder_plan::{schema as mp_schema, MurderPlanTables};

/// Every game's tables from one directory. Each game adds a field here and
/// its queries in its own module.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Murder Plan: values, strategies, brain choices, win rates.
    pub murder_plan: MurderPlanTables,
}

/// Read one file of a table directory.
fn read_file(dir: &Path, file: &str) -> Result<Bytes> {
    let path = dir.join(file);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Bytes::from(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::MissingFile { path }),
        Err(source) => Err(Error::Io { path, source }),
    }
}

impl Tables {
    /// Load the tables in `dir`. When `dir/manifest.json` exists, every
    /// loaded file's BLAKE2b-256 digest must match it.
    ///
    /// # Errors
    /// [`Error::MissingFile`], [`Error::Io`], [`Error::BadManifest`],
    /// [`Error::DigestMismatch`], and every decoding or validation error of
    /// the tables ([`Error::CorruptTable`], [`Error::ForeignTable`],
    /// [`Error::SchemaVersion`], [`Error::BadRow`]).
    pub fn open(dir: impl AsRef<Path>) -> Result<Tables> {
        let dir = dir.as_ref();
        let mut files = BTreeMap::new();
        match read_file(dir, MANIFEST_FILE) {
            Ok(bytes) => {
                files.insert(MANIFEST_FILE.to_string(), bytes);
            }
            Err(Error::MissingFile { .. }) => {}
            Err(e) => return Err(e),
        }
        for schema in mp_schema::ALL {
            files.insert(schema.file.to_string(), read_file(dir, schema.file)?);
        }
        Tables::from_files(&files).map_err(|e| match e {
            Error::BadManifest { detail, .. } => Error::BadManifest {
                path: dir.join(MANIFEST_FILE),
                detail,
            },
            other => other,
        })
    }

    /// Load the tables from in-memory files keyed by file name (for tests,
    /// fuzzing, or tables fetched from elsewhere). A `manifest.json` entry,
    /// when present, is checked as in [`Tables::open`].
    ///
    /// # Errors
    /// As [`Tables::open`].
    pub fn from_files(files: &BTreeMap<String, Bytes>) -> Result<Tables> {
        let manifest = files
            .get(MANIFEST_FILE)
            .map(|bytes| {
                serde_json::from_slice::<Manifest>(bytes).map_err(|e| Error::BadManifest {
                    path: MANIFEST_FILE.into(),
                    detail: e.to_string(),
                })
            })
            .transpose()?;
        let get = |file: &str| -> Result<Bytes> {
            let bytes = files
                .get(file)
                .cloned()
                .ok_or_else(|| Error::MissingFile { path: file.into() })?;
            if let Some(manifest) = &manifest {
                let entry = manifest.entry(file).ok_or_else(|| Error::BadManifest {
                    path: MANIFEST_FILE.into(),
                    detail: format!("{file} is not listed"),
                })?;
                let found = blake2_hex(&bytes);
                if found != entry.blake2b_256 {
                    return Err(Error::DigestMismatch {
                        file: file.to_string(),
                        expected: entry.blake2b_256.clone(),
                        found,
                    });
                }
            }
            Ok(bytes)
        };
        let [a, b, c, d, e] = mp_schema::ALL.map(|s| s.file);
        let murder_plan =
            MurderPlanTables::from_bytes([get(a)?, get(b)?, get(c)?, get(d)?, get(e)?])?;
        Ok(Tables { murder_plan })
    }
}
