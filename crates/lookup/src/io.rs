//! Parquet decoding of tables against their [`TableSchema`], and the BLAKE2
//! digest of the manifest. (The writer is the root crate's: a build's
//! business, not a query's.)
//!
//! The reader checks everything before handing data out: Parquet structure,
//! table name, schema version, column names and types, equal column lengths.
//! Any failure is an [`Error`], never a panic; the Parquet decoder is
//! additionally fenced with `catch_unwind` so that a decoder bug on a
//! malicious file still surfaces as [`Error::CorruptTable`].

use std::collections::BTreeMap;
use std::ops::Range;

use bytes::Bytes;
use parquet::basic::Type as PhysicalType;
use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::error::{Error, Result};
use crate::schema::{ColumnType, TableSchema, META_PARAM_PREFIX, META_SCHEMA_VERSION, META_TABLE};
pub use crate::table_data::{Column, Strings, TableData};

/// Version of the generator written into every file.
pub const GENERATOR_VERSION: &str = concat!("gametab ", env!("CARGO_PKG_VERSION"));

/// Decode a table file and check it against `schema`.
///
/// # Errors
/// [`Error::CorruptTable`] for bytes that are not a readable Parquet file,
/// [`Error::ForeignTable`] for another table or mismatching columns,
/// [`Error::SchemaVersion`] for a file of another schema version.
pub fn read_parquet(bytes: Bytes, schema: &TableSchema) -> Result<TableData> {
    fenced(schema, || read_unguarded(bytes, schema))
}

/// Run `decode` on a file of `schema`, a panic inside it turned into
/// [`Error::CorruptTable`].
fn fenced<T>(schema: &TableSchema, decode: impl FnOnce() -> Result<T>) -> Result<T> {
    // The decoder is third-party code facing arbitrary bytes; a panic inside
    // it must not take down the caller.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode)).unwrap_or_else(|panic| {
        let detail = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "decoder panicked".to_string());
        Err(Error::CorruptTable {
            table: schema.name.to_string(),
            detail,
        })
    })
}

pub(crate) fn corrupt(schema: &TableSchema, detail: impl ToString) -> Error {
    Error::CorruptTable {
        table: schema.name.to_string(),
        detail: detail.to_string(),
    }
}

fn foreign(schema: &TableSchema, detail: impl Into<String>) -> Error {
    Error::ForeignTable {
        table: schema.name.to_string(),
        detail: detail.into(),
    }
}

/// Open a table file and check its metadata against `schema` (table name,
/// schema version, column names and types) without decoding any row: for a
/// reader that decodes only the row groups it needs. The caller fences the
/// decoder as [`read_parquet`] does.
///
/// # Errors
/// As [`read_parquet`].
pub(crate) fn open_checked(
    bytes: Bytes,
    schema: &TableSchema,
) -> Result<(SerializedFileReader<Bytes>, BTreeMap<String, String>)> {
    let reader = SerializedFileReader::new(bytes).map_err(|e| corrupt(schema, e))?;
    let meta = reader.metadata();
    let mut kv: BTreeMap<String, String> = BTreeMap::new();
    for entry in meta
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
    {
        kv.insert(entry.key.clone(), entry.value.clone().unwrap_or_default());
    }
    match kv.get(META_TABLE) {
        Some(name) if name == schema.name => {}
        Some(name) => return Err(foreign(schema, format!("the file holds table {name}"))),
        None => return Err(foreign(schema, "no gametab table metadata")),
    }
    let version = kv.get(META_SCHEMA_VERSION).cloned().unwrap_or_default();
    if version != schema.version.to_string() {
        return Err(Error::SchemaVersion {
            table: schema.name.to_string(),
            expected: schema.version,
            found: version,
        });
    }
    let descr = meta.file_metadata().schema_descr();
    if descr.num_columns() != schema.columns.len() {
        return Err(foreign(
            schema,
            format!(
                "{} columns in file, schema has {}",
                descr.num_columns(),
                schema.columns.len()
            ),
        ));
    }
    for (i, def) in schema.columns.iter().enumerate() {
        let column = descr.column(i);
        let expected = match def.ty {
            ColumnType::Bool => PhysicalType::BOOLEAN,
            ColumnType::Int32 => PhysicalType::INT32,
            ColumnType::Int64 => PhysicalType::INT64,
            ColumnType::Float64 => PhysicalType::DOUBLE,
            ColumnType::Utf8 => PhysicalType::BYTE_ARRAY,
        };
        if column.name() != def.name
            || column.physical_type() != expected
            || column.max_def_level() != 0
            || column.max_rep_level() != 0
        {
            return Err(foreign(
                schema,
                format!(
                    "column {i} is {} {:?}, expected required {} {}",
                    column.name(),
                    column.physical_type(),
                    def.ty.name(),
                    def.name
                ),
            ));
        }
    }
    Ok((reader, kv))
}

fn read_unguarded(bytes: Bytes, schema: &TableSchema) -> Result<TableData> {
    let decoded = decode(bytes, schema, Decode::All)?;
    Ok(TableData::decoded(*schema, decoded.columns, decoded.params))
}

/// What [`decode`] gives.
struct Decoded {
    /// The columns of the row groups kept.
    columns: Vec<Column>,
    /// The table's parameters.
    params: BTreeMap<String, String>,
    /// The first row of the groups kept (0 when none is skipped).
    first: usize,
    /// The file's rows.
    rows: usize,
}

/// Which rows [`decode`] keeps.
#[derive(Debug, Clone)]
enum Decode {
    /// Every row.
    All,
    /// None: each row group is decoded, checked and dropped.
    None,
    /// The row groups that hold a row of the range; the others are not
    /// decoded.
    Groups(Range<usize>),
}

/// Decode the file's row groups (those `keep` asks for, or all to check
/// them), checking them as [`read_parquet`] does.
fn decode(bytes: Bytes, schema: &TableSchema, keep: Decode) -> Result<Decoded> {
    let (reader, kv) = open_checked(bytes, schema)?;
    let meta = reader.metadata();
    let total_rows = usize::try_from(meta.file_metadata().num_rows())
        .map_err(|_| corrupt(schema, "negative row count"))?;
    let empty = || -> Vec<Column> { schema.columns.iter().map(|d| Column::empty(d.ty)).collect() };
    let mut columns = empty();
    // Rows decoded of every column, kept or not.
    let mut lengths = vec![0; schema.columns.len()];
    let (mut at, mut first): (usize, Option<usize>) = (0, None);
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).map_err(|e| corrupt(schema, e))?;
        let group_rows = usize::try_from(group.metadata().num_rows())
            .map_err(|_| corrupt(schema, "negative row count"))?;
        let (start, end) = (at, at.saturating_add(group_rows));
        at = end;
        let mut dropped;
        let into = match &keep {
            Decode::All => &mut columns,
            Decode::None => {
                dropped = empty();
                &mut dropped
            }
            Decode::Groups(rows) if start < rows.end && rows.start < end => {
                first.get_or_insert(start);
                &mut columns
            }
            Decode::Groups(_) => continue,
        };
        for ((column, length), i) in into.iter_mut().zip(&mut lengths).zip(0..) {
            let before = column.len();
            let reader = group.get_column_reader(i).map_err(|e| corrupt(schema, e))?;
            read_column(reader, column, group_rows).map_err(|e| corrupt(schema, e))?;
            *length += column.len() - before;
        }
    }
    if !matches!(keep, Decode::Groups(_)) {
        for (def, &length) in schema.columns.iter().zip(&lengths) {
            if length != total_rows {
                return Err(corrupt(
                    schema,
                    format!("column {} holds {length} of {total_rows} rows", def.name),
                ));
            }
        }
    }
    let params = kv
        .iter()
        .filter_map(|(k, v)| {
            k.strip_prefix(META_PARAM_PREFIX)
                .map(|p| (p.to_string(), v.clone()))
        })
        .collect();
    Ok(Decoded {
        columns,
        params,
        first: first.unwrap_or(0),
        rows: total_rows,
    })
}

/// What [`check_parquet`] finds of a table file it decodes without
/// keeping the rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedTable {
    /// Its rows.
    pub rows: usize,
    /// Its parameters, as [`TableData::params`].
    pub params: BTreeMap<String, String>,
}

/// Decode a table file and check it against `schema` as [`read_parquet`]
/// does (the same checks, the same errors), one row group at a time,
/// keeping none of its rows: for a verifier of a table too large to hold
/// decoded alongside the others, which then reads it again in stretches
/// ([`read_parquet_rows`]).
///
/// # Errors
/// As [`read_parquet`].
pub fn check_parquet(bytes: Bytes, schema: &TableSchema) -> Result<CheckedTable> {
    fenced(schema, || {
        let decoded = decode(bytes, schema, Decode::None)?;
        Ok(CheckedTable {
            rows: decoded.rows,
            params: decoded.params,
        })
    })
}

/// Decode the row groups of a table file that hold a row of `rows`
/// (checked against `schema` as [`read_parquet`] checks a file): the
/// first row they hold and their rows, a table that may start before
/// `rows` and end after it. The row groups before and after are not
/// decoded.
///
/// # Errors
/// As [`read_parquet`] for the file's metadata and the row groups decoded.
pub fn read_parquet_rows(
    bytes: Bytes,
    schema: &TableSchema,
    rows: Range<usize>,
) -> Result<(usize, TableData)> {
    fenced(schema, || {
        let decoded = decode(bytes, schema, Decode::Groups(rows))?;
        let table = TableData::decoded(*schema, decoded.columns, decoded.params);
        Ok((decoded.first, table))
    })
}

/// Most rows of a column chunk [`read_column`] makes room for up front.
const MAX_RESERVED_ROWS: usize = 1 << 22;

/// How many distinct string values [`read_column`] remembers by address.
const SEEN_STRINGS: usize = 32;

/// Read exactly `rows` values of one column chunk, appending to `out`.
pub(crate) fn read_column(
    reader: ColumnReader,
    out: &mut Column,
    rows: usize,
) -> parquet::errors::Result<()> {
    fn drain<T>(
        mut read: impl FnMut(usize, &mut Vec<T>) -> parquet::errors::Result<(usize, usize, usize)>,
        out: &mut Vec<T>,
        rows: usize,
    ) -> parquet::errors::Result<()> {
        let target = out.len() + rows;
        // Room for the whole chunk at once rather than doubling (bounded: the
        // row count comes from the file, which may lie).
        let _ = out.try_reserve(rows.min(MAX_RESERVED_ROWS));
        while out.len() < target {
            let before = out.len();
            read(target - before, out)?;
            if out.len() == before {
                return Err(parquet::errors::ParquetError::General(format!(
                    "column chunk ends after {} of {rows} rows",
                    before + rows - target
                )));
            }
        }
        Ok(())
    }
    match (reader, out) {
        (ColumnReader::BoolColumnReader(mut r), Column::Bool(v)) => {
            drain(|n, buf| r.read_records(n, None, None, buf), v, rows)
        }
        (ColumnReader::Int32ColumnReader(mut r), Column::Int32(v)) => {
            drain(|n, buf| r.read_records(n, None, None, buf), v, rows)
        }
        (ColumnReader::Int64ColumnReader(mut r), Column::Int64(v)) => {
            drain(|n, buf| r.read_records(n, None, None, buf), v, rows)
        }
        (ColumnReader::DoubleColumnReader(mut r), Column::Float64(v)) => {
            drain(|n, buf| r.read_records(n, None, None, buf), v, rows)
        }
        (ColumnReader::ByteArrayColumnReader(mut r), Column::Utf8(v)) => {
            let mut raw: Vec<ByteArray> = Vec::with_capacity(rows.min(MAX_RESERVED_ROWS));
            drain(|n, buf| r.read_records(n, None, None, buf), &mut raw, rows)?;
            // Values decoded from a dictionary page share their bytes: while
            // `raw` is alive, one address and length means one value, so the
            // code of a value seen before is found without comparing bytes.
            let mut seen: Vec<(usize, usize, u32)> = Vec::new();
            // Plain pages give every row its own bytes, but tables sorted by
            // a string key repeat a value over consecutive rows: compare
            // with the previous row before looking the value up.
            let mut previous: Option<(&[u8], u32)> = None;
            for value in &raw {
                let data = value.data();
                if let Some((_, code)) = previous.filter(|&(bytes, _)| bytes == data) {
                    v.push_code(code);
                    continue;
                }
                let id = (data.as_ptr() as usize, data.len());
                let code = match seen.iter().find(|s| (s.0, s.1) == id) {
                    Some(&(_, _, code)) => {
                        v.push_code(code);
                        code
                    }
                    None => {
                        let code = v.push_bytes(data).map_err(|_| {
                            parquet::errors::ParquetError::General(
                                "string column is not UTF-8".into(),
                            )
                        })?;
                        if seen.len() < SEEN_STRINGS {
                            seen.push((id.0, id.1, code));
                        }
                        code
                    }
                };
                previous = Some((data, code));
            }
            Ok(())
        }
        _ => Err(parquet::errors::ParquetError::General(
            "column reader type does not match the schema".into(),
        )),
    }
}

/// BLAKE2b-256 digest of `bytes`, as lowercase hex: the digest recorded in
/// `manifest.json` for every table file.
pub fn blake2_hex(bytes: &[u8]) -> String {
    use blake2::digest::consts::U32;
    use blake2::{Blake2b, Digest};
    let digest = Blake2b::<U32>::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_blake2b_256() {
        // Known answer: BLAKE2b-256 of the empty string.
        assert_eq!(
            blake2_hex(b""),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }
}
