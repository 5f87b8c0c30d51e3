//! Writing table files: each table is encoded in memory, written to a
//! temporary file beside its destination and renamed into place, so a reader
//! never sees a half-written table.

use crate::error::{fail, Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use gametab_lookup::io::{blake2_hex, TableData, GENERATOR_VERSION};
use gametab_lookup::manifest::{Manifest, ManifestEntry, MANIFEST_FILE};
use gametab_lookup::registry::DerivedFile;

use crate::parquet_write::{
    write_parquet_grouped_with, write_parquet_with, ColumnChunkJob, EncodedColumnChunk,
};

/// What was written for one table: the facts the manifest and the build
/// summary report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenTable {
    /// Table name (from its schema).
    pub table: &'static str,
    /// File name inside the output directory.
    pub file: &'static str,
    /// Schema version.
    pub schema_version: u32,
    /// Number of rows.
    pub rows: usize,
    /// Size of the file in bytes.
    pub bytes: usize,
    /// BLAKE2b-256 of the file, lowercase hex.
    pub blake2b_256: String,
    /// Rule and grid parameters recorded in the file's metadata.
    pub params: std::collections::BTreeMap<String, String>,
}

/// Writes tables into one directory.
#[derive(Debug)]
pub struct TableWriter {
    dir: PathBuf,
    written: Vec<WrittenTable>,
    /// Files renamed into place but not yet synced to disk (a staging
    /// writer only; see [`TableWriter::staging`]).
    unsynced: Vec<PathBuf>,
    defer_sync: bool,
}

impl TableWriter {
    /// A writer into `dir`, which is created if needed. Every file is
    /// synced to disk before it is renamed into place.
    pub fn new(dir: &Path) -> Result<TableWriter> {
        fs::create_dir_all(dir).map_err(|e| Error::io("create output directory", dir, e))?;
        Ok(TableWriter {
            dir: dir.to_path_buf(),
            written: Vec::new(),
            unsynced: Vec::new(),
            defer_sync: false,
        })
    }

    /// A writer into a staging directory that is published only as a whole:
    /// files are still written to a temporary file and renamed, but synced
    /// to disk together by [`TableWriter::sync`], which must run before the
    /// directory is published. One sync of every file at the end costs one
    /// journal flush instead of one per table inside each game's build.
    pub fn staging(dir: &Path) -> Result<TableWriter> {
        let mut writer = TableWriter::new(dir)?;
        writer.defer_sync = true;
        Ok(writer)
    }

    /// Sync every file written since the last sync, and the directory
    /// itself, to disk. A no-op for a writer that syncs as it writes.
    ///
    /// # Errors
    /// A file or the directory that cannot be opened or synced.
    pub fn sync(&mut self) -> Result<()> {
        for path in self.unsynced.drain(..) {
            fs::File::open(&path)
                .and_then(|file| file.sync_all())
                .map_err(|e| Error::io("sync", &path, e))?;
        }
        if self.defer_sync {
            fs::File::open(&self.dir)
                .and_then(|dir| dir.sync_all())
                .map_err(|e| Error::io("sync the directory", &self.dir, e))?;
        }
        Ok(())
    }

    /// A writer into the same directory, with the same syncing, that has
    /// written nothing yet: for a game built beside the others, whose
    /// tables [`TableWriter::absorb`] takes back in registry order.
    pub fn fork(&self) -> TableWriter {
        TableWriter {
            dir: self.dir.clone(),
            written: Vec::new(),
            unsynced: Vec::new(),
            defer_sync: self.defer_sync,
        }
    }

    /// Take over what `other` (a [`TableWriter::fork`] of this writer) has
    /// written, after this writer's own tables: the manifest lists them in
    /// that order, and [`TableWriter::sync`] syncs them.
    pub fn absorb(&mut self, other: TableWriter) {
        debug_assert_eq!(
            self.dir, other.dir,
            "absorbing a writer of another directory"
        );
        self.written.extend(other.written);
        self.unsynced.extend(other.unsynced);
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Encode `data` and write it atomically as `dir/<schema.file>`.
    pub fn write(&mut self, data: &TableData) -> Result<&WrittenTable> {
        let bytes = encode(data)?;
        self.store(data, &bytes)
    }

    /// [`TableWriter::write`] with the row groups starting at the rows
    /// `starts` ([`crate::parquet_write::write_parquet_grouped_with`]).
    pub fn write_grouped(&mut self, data: &TableData, starts: &[usize]) -> Result<&WrittenTable> {
        let bytes = write_parquet_grouped_with(data, starts, encode_heaviest_first)?;
        self.store(data, &bytes)
    }

    /// Write the encoded `bytes` of `data` and record them.
    fn store(&mut self, data: &TableData, bytes: &[u8]) -> Result<&WrittenTable> {
        self.record(
            WrittenTable {
                table: data.schema.name,
                file: data.schema.file,
                schema_version: data.schema.version,
                rows: data.rows(),
                bytes: bytes.len(),
                blake2b_256: blake2_hex(bytes),
                params: data.params.clone(),
            },
            bytes,
        )
    }

    /// Write a file derived from a game's tables (`bytes`, holding `rows`
    /// of whatever it counts) atomically as `dir/<derived.file>`, listed in
    /// the manifest like a table.
    pub fn write_derived(
        &mut self,
        derived: &DerivedFile,
        bytes: &[u8],
        rows: usize,
    ) -> Result<&WrittenTable> {
        self.record(
            WrittenTable {
                table: derived.name,
                file: derived.file,
                schema_version: derived.version,
                rows,
                bytes: bytes.len(),
                blake2b_256: blake2_hex(bytes),
                params: Default::default(),
            },
            bytes,
        )
    }

    fn record(&mut self, written: WrittenTable, bytes: &[u8]) -> Result<&WrittenTable> {
        let path = self.dir.join(written.file);
        write_renamed(&path, bytes, !self.defer_sync)?;
        if self.defer_sync {
            self.unsynced.push(path);
        }
        self.written.push(written);
        Ok(self.written.last().expect("just pushed"))
    }

    /// Encode `tables` in parallel, then write each atomically, in order.
    pub fn write_all(&mut self, tables: &[TableData]) -> Result<&[WrittenTable]> {
        use rayon::prelude::*;
        let encoded: Vec<Vec<u8>> = tables.par_iter().map(encode).collect::<Result<_>>()?;
        let first = self.written.len();
        for (data, bytes) in tables.iter().zip(encoded) {
            self.store(data, &bytes)?;
        }
        Ok(&self.written[first..])
    }

    /// Every table written so far, in order.
    pub fn written(&self) -> &[WrittenTable] {
        &self.written
    }

    /// Check that the files written are exactly the tables and derived
    /// files of the game registry ([`gametab_lookup::registry::all_files`]), each
    /// once: a build that forgot one, or wrote one twice or one no game
    /// owns, fails here instead of publishing a set the lookup crate cannot
    /// load.
    ///
    /// # Errors
    /// Naming the first missing, repeated or unknown table.
    pub fn check_complete(&self) -> Result<()> {
        let mut written: Vec<&str> = self.written.iter().map(|w| w.file).collect();
        written.sort_unstable();
        if let Some(twice) = written.windows(2).find(|w| w[0] == w[1]) {
            fail!(Check, "table {} was written twice", twice[0]);
        }
        for file in gametab_lookup::registry::all_files() {
            if written.binary_search(&file).is_err() {
                fail!(Check, "no builder wrote table {file}");
            }
        }
        if let Some(unknown) = written
            .iter()
            .find(|file| !gametab_lookup::registry::all_files().any(|f| f == **file))
        {
            fail!(Check, "table {unknown} belongs to no game of the registry");
        }
        Ok(())
    }

    /// Write `manifest.json` listing every table (and derived file)
    /// written so far; a derived file has no rule parameters of its own
    /// and no entry in `params`.
    pub fn write_manifest(&mut self, build_seconds: f64) -> Result<()> {
        let mut files: Vec<ManifestEntry> = self
            .written
            .iter()
            .map(|w| ManifestEntry {
                file: w.file.to_string(),
                table: w.table.to_string(),
                schema_version: w.schema_version,
                rows: w.rows as u64,
                bytes: w.bytes as u64,
                blake2b_256: w.blake2b_256.clone(),
            })
            .collect();
        files.sort_by(|a, b| a.file.cmp(&b.file));
        let manifest = Manifest {
            generator_version: GENERATOR_VERSION.to_string(),
            params: self
                .written
                .iter()
                .filter(|w| gametab_lookup::registry::all_derived().all(|d| d.file != w.file))
                .map(|w| (w.table.to_string(), w.params.clone()))
                .collect(),
            build_seconds,
            files,
        };
        let mut json = serde_json::to_vec_pretty(&manifest)?;
        json.push(b'\n');
        let path = self.dir.join(MANIFEST_FILE);
        write_renamed(&path, &json, !self.defer_sync)?;
        if self.defer_sync {
            self.unsynced.push(path);
        }
        Ok(())
    }
}

/// Encode `data` as Parquet with its column chunks encoded in parallel on
/// the current rayon pool (the bytes are those of
/// [`crate::parquet_write::write_parquet`]).
pub fn encode(data: &TableData) -> Result<Vec<u8>> {
    Ok(write_parquet_with(data, encode_heaviest_first)?)
}

/// Encode `jobs` on the current rayon pool, started heaviest first
/// ([`ColumnChunkJob::weight`]) and in that order, so the threads run out
/// of work together instead of one finishing a large chunk alone. Results
/// come back in the order of `jobs`.
fn encode_heaviest_first(
    jobs: Vec<ColumnChunkJob<'_>>,
) -> Vec<gametab_lookup::Result<EncodedColumnChunk>> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].weight()));
    let slots: Vec<Mutex<Option<gametab_lookup::Result<EncodedColumnChunk>>>> =
        jobs.iter().map(|_| Mutex::new(None)).collect();
    let mut jobs: Vec<Option<ColumnChunkJob<'_>>> = jobs.into_iter().map(Some).collect();
    rayon::scope_fifo(|scope| {
        for i in order {
            let (job, slot) = (jobs[i].take(), &slots[i]);
            scope.spawn_fifo(move |_| {
                if let Some(job) = job {
                    let encoded = job.encode();
                    *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(encoded);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                // A scope returns only after every job it spawned has run
                // (or re-raises a job's panic).
                .expect("every spawned chunk has been encoded")
        })
        .collect()
}

/// Write `bytes` to `path` through a temporary file in the same directory and
/// a rename, after syncing the data to disk.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_renamed(path, bytes, true)
}

/// Write `bytes` to `path` through a temporary file in the same directory and
/// a rename; `sync`: sync the data to disk before the rename.
fn write_renamed(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let file_name = path
        .file_name()
        .ok_or_else(|| Error::Invalid(format!("{} has no file name", path.display())))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| -> Result<()> {
        let mut file = fs::File::create(&tmp).map_err(|e| Error::io("create", &tmp, e))?;
        file.write_all(bytes)
            .map_err(|e| Error::io("write", &tmp, e))?;
        if sync {
            file.sync_all().map_err(|e| Error::io("sync", &tmp, e))?;
        }
        fs::rename(&tmp, path)
            .map_err(|e| Error::io(format!("rename {} to", tmp.display()), path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
