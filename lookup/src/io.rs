//! Parquet encoding and decoding of tables against their [`TableSchema`].
//!
//! The writer produces the complete file in memory (the pipeline then writes
//! it to a temporary file and renames it into place). Each column chunk is
//! encoded on its own and spliced into the file in column order, so a
//! caller may encode the chunks in parallel ([`write_parquet_with`]); the
//! bytes equal those of the row-group writer encoding in place. Files carry key-value
//! metadata naming the table, its schema version, the generator version and
//! the rule parameters. Output is deterministic: the same data gives the
//! same bytes.
//!
//! The reader checks everything before handing data out: Parquet structure,
//! table name, schema version, column names and types, equal column lengths.
//! Any failure is an [`Error`], never a panic; the Parquet decoder is
//! additionally fenced with `catch_unwind` so that a decoder bug on a
//! malicious file still surfaces as [`Error::CorruptTable`].

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{
    Compression, Encoding, LogicalType, Repetition, Type as PhysicalType, ZstdLevel,
};
use parquet::column::reader::ColumnReader;
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::ByteArray;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type};

pub use crate::column::{Column, Strings};
use crate::error::{Error, Result};
use crate::schema::{
    ColumnType, TableSchema, META_GENERATOR, META_PARAM_PREFIX, META_SCHEMA_VERSION, META_TABLE,
};

/// Version of the generator written into every file.
pub const GENERATOR_VERSION: &str = concat!("gametab ", env!("CARGO_PKG_VERSION"));

/// A decoded (or to-be-encoded) table: one [`Column`] per schema column, in
/// schema order, plus the file's key-value metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct TableData {
    /// The schema the columns follow.
    pub schema: TableSchema,
    /// The columns, in schema order, all of the same length.
    pub columns: Vec<Column>,
    /// Rule and grid parameters (`gametab.param.*` keys without the prefix).
    pub params: BTreeMap<String, String>,
}

impl TableData {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }

    /// The column called `name`, or a [`Error::ForeignTable`] naming it.
    pub fn column(&self, name: &str) -> Result<&Column> {
        self.schema
            .column_index(name)
            .and_then(|i| self.columns.get(i))
            .ok_or_else(|| Error::ForeignTable {
                table: self.schema.name.to_string(),
                detail: format!("no column {name}"),
            })
    }

    /// The `bool` column called `name`.
    pub fn bools(&self, name: &str) -> Result<&[bool]> {
        match self.column(name)? {
            Column::Bool(v) => Ok(v),
            other => Err(self.type_error(name, other)),
        }
    }

    /// The `int32` column called `name`.
    pub fn i32s(&self, name: &str) -> Result<&[i32]> {
        match self.column(name)? {
            Column::Int32(v) => Ok(v),
            other => Err(self.type_error(name, other)),
        }
    }

    /// The `int64` column called `name`.
    pub fn i64s(&self, name: &str) -> Result<&[i64]> {
        match self.column(name)? {
            Column::Int64(v) => Ok(v),
            other => Err(self.type_error(name, other)),
        }
    }

    /// The `double` column called `name`.
    pub fn f64s(&self, name: &str) -> Result<&[f64]> {
        match self.column(name)? {
            Column::Float64(v) => Ok(v),
            other => Err(self.type_error(name, other)),
        }
    }

    /// Move the `double` column called `name` out of the table, leaving it
    /// empty: for a loader that keeps the values, without copying them.
    ///
    /// # Errors
    /// As [`TableData::f64s`].
    pub fn take_f64s(&mut self, name: &str) -> Result<Vec<f64>> {
        self.f64s(name)?;
        match self
            .schema
            .column_index(name)
            .and_then(|i| self.columns.get_mut(i))
        {
            Some(Column::Float64(v)) => Ok(std::mem::take(v)),
            _ => unreachable!("{name} was just found as a double column"),
        }
    }

    /// The `string` column called `name`.
    pub fn strings(&self, name: &str) -> Result<&Strings> {
        match self.column(name)? {
            Column::Utf8(v) => Ok(v),
            other => Err(self.type_error(name, other)),
        }
    }

    fn type_error(&self, name: &str, found: &Column) -> Error {
        Error::ForeignTable {
            table: self.schema.name.to_string(),
            detail: format!("column {name} has type {}", found.ty().name()),
        }
    }
}

fn write_error(schema: &TableSchema, detail: impl ToString) -> Error {
    Error::Write {
        table: schema.name,
        detail: detail.to_string(),
    }
}

/// Check that `data` matches its schema: column count, names implied by
/// order, types and equal lengths.
fn check_shape(data: &TableData) -> Result<()> {
    let schema = &data.schema;
    if data.columns.len() != schema.columns.len() {
        return Err(write_error(
            schema,
            format!(
                "{} columns given, schema has {}",
                data.columns.len(),
                schema.columns.len()
            ),
        ));
    }
    let rows = data.rows();
    for (def, column) in schema.columns.iter().zip(&data.columns) {
        if def.ty != column.ty() {
            return Err(write_error(
                schema,
                format!(
                    "column {} is {}, schema says {}",
                    def.name,
                    column.ty().name(),
                    def.ty.name()
                ),
            ));
        }
        if column.len() != rows {
            return Err(write_error(
                schema,
                format!("column {} has {} rows, not {rows}", def.name, column.len()),
            ));
        }
    }
    Ok(())
}

fn parquet_schema(schema: &TableSchema) -> Result<Type> {
    let fields = schema
        .columns
        .iter()
        .map(|def| {
            let (physical, logical) = match def.ty {
                ColumnType::Bool => (PhysicalType::BOOLEAN, None),
                ColumnType::Int32 => (PhysicalType::INT32, None),
                ColumnType::Int64 => (PhysicalType::INT64, None),
                ColumnType::Float64 => (PhysicalType::DOUBLE, None),
                ColumnType::Utf8 => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
            };
            Type::primitive_type_builder(def.name, physical)
                .with_repetition(Repetition::REQUIRED)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
                .map_err(|e| write_error(schema, e))
        })
        .collect::<Result<Vec<_>>>()?;
    Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
        .map_err(|e| write_error(schema, e))
}

/// zstd level of every table: zstd's default. Level 9 made the Murder Plan
/// tables 3% smaller and took 60% longer to encode.
pub const ZSTD_LEVEL: i32 = 3;

/// Encode `data` as a zstd-compressed Parquet file with the gametab metadata.
///
/// Encodings per column type: strings (few distinct labels) are
/// dictionary-encoded; integers (sorted keys, long runs) are
/// `DELTA_BINARY_PACKED`; booleans are plain (bit-packed); doubles are
/// dictionary-encoded when a column holds at most 4096 distinct values and
/// plain otherwise (mostly distinct probabilities, where a dictionary only
/// costs time and bytes). Every common reader (pyarrow, polars, duckdb, the
/// `parquet` crate) decodes all three.
///
/// # Errors
/// [`Error::Write`] when the columns do not match the schema or the encoder
/// fails.
pub fn write_parquet(data: &TableData) -> Result<Vec<u8>> {
    write_parquet_with(data, |jobs| {
        jobs.into_iter().map(ColumnChunkJob::encode).collect()
    })
}

/// The writer properties of a table: zstd at [`ZSTD_LEVEL`], chunk
/// statistics, the row-group size, `metadata`, and the encoding of each
/// column by its type (see [`write_parquet`]).
fn writer_properties(data: &TableData, metadata: Vec<KeyValue>) -> Result<WriterProperties> {
    let schema = &data.schema;
    let level = ZstdLevel::try_new(ZSTD_LEVEL).map_err(|e| write_error(schema, e))?;
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_created_by(GENERATOR_VERSION.to_string())
        .set_key_value_metadata(Some(metadata))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS));
    for (def, column) in schema.columns.iter().zip(&data.columns) {
        let path = ColumnPath::from(def.name);
        builder = match column {
            Column::Utf8(_) => builder,
            Column::Int32(_) | Column::Int64(_) => builder
                .set_column_dictionary_enabled(path.clone(), false)
                .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED),
            Column::Float64(values) if few_distinct(values) => builder,
            Column::Bool(_) | Column::Float64(_) => {
                builder.set_column_dictionary_enabled(path, false)
            }
        };
    }
    Ok(builder.build())
}

/// Most distinct doubles a column may hold and still be dictionary-encoded.
const DICTIONARY_MAX_DISTINCT: usize = 4096;

/// Whether `values` holds at most [`DICTIONARY_MAX_DISTINCT`] distinct bit
/// patterns (counting stops as soon as it holds more): exact rational
/// probabilities over a few denominators (Cluedo, the dice decisions) then
/// compress far better with a dictionary.
fn few_distinct(values: &[f64]) -> bool {
    let mut seen = std::collections::HashSet::new();
    values.iter().all(|v| {
        seen.insert(v.to_bits());
        seen.len() <= DICTIONARY_MAX_DISTINCT
    })
}

/// Rows per row group.
const ROW_GROUP_ROWS: usize = 1 << 20;

/// Encoder mini-batches per slice of a string column handed to the encoder
/// in one call (see [`ColumnChunkJob::encode`]).
const STRING_SLICE_BATCHES: usize = 64;

/// [`write_parquet`] with the column chunks encoded by `encode_all`, which
/// gets every chunk of the file as an independent [`ColumnChunkJob`] and
/// returns their results in the same order (a caller with a thread pool
/// encodes them in parallel). The bytes do not depend on how the jobs are
/// run: each chunk is encoded on its own and the chunks are then spliced
/// into the file in column order.
///
/// # Errors
/// As [`write_parquet`]; also when `encode_all` returns another number of
/// results than it got jobs.
pub fn write_parquet_with<F>(data: &TableData, encode_all: F) -> Result<Vec<u8>>
where
    F: FnOnce(Vec<ColumnChunkJob<'_>>) -> Vec<Result<EncodedColumnChunk>>,
{
    check_shape(data)?;
    let schema = &data.schema;
    let mut metadata = vec![
        KeyValue::new(META_TABLE.to_string(), schema.name.to_string()),
        KeyValue::new(META_SCHEMA_VERSION.to_string(), schema.version.to_string()),
        KeyValue::new(META_GENERATOR.to_string(), GENERATOR_VERSION.to_string()),
    ];
    for (key, value) in &data.params {
        metadata.push(KeyValue::new(
            format!("{META_PARAM_PREFIX}{key}"),
            value.clone(),
        ));
    }
    let props = Arc::new(writer_properties(data, metadata)?);
    let mut writer =
        SerializedFileWriter::new(Vec::new(), Arc::new(parquet_schema(schema)?), props.clone())
            .map_err(|e| write_error(schema, e))?;
    let rows = data.rows();
    // A table with no rows still gets one (empty) row group so that its schema
    // and metadata are complete.
    let groups: Vec<std::ops::Range<usize>> = (0..rows.div_ceil(ROW_GROUP_ROWS).max(1))
        .map(|g| g * ROW_GROUP_ROWS..((g + 1) * ROW_GROUP_ROWS).min(rows))
        .collect();
    let descriptors = writer.schema_descr().columns().to_vec();
    let jobs: Vec<ColumnChunkJob<'_>> = groups
        .iter()
        .filter(|range| !range.is_empty())
        .flat_map(|range| {
            data.columns
                .iter()
                .zip(&descriptors)
                .map(|(column, descr)| ColumnChunkJob {
                    schema,
                    column,
                    rows: range.clone(),
                    descr: descr.clone(),
                    props: props.clone(),
                })
        })
        .collect();
    let job_count = jobs.len();
    let encoded = encode_all(jobs);
    if encoded.len() != job_count {
        return Err(write_error(
            schema,
            format!("{} column chunks encoded of {job_count}", encoded.len()),
        ));
    }
    let mut encoded = encoded.into_iter();
    for range in &groups {
        let mut row_group = writer
            .next_row_group()
            .map_err(|e| write_error(schema, e))?;
        if range.is_empty() {
            // An empty chunk has no pages to splice; the writer's own empty
            // chunk records no data page offset, a spliced one would.
            while let Some(column) = row_group
                .next_column()
                .map_err(|e| write_error(schema, e))?
            {
                column.close().map_err(|e| write_error(schema, e))?;
            }
        } else {
            for chunk in encoded.by_ref().take(data.columns.len()) {
                let chunk = chunk?;
                row_group
                    .append_column(&chunk.bytes, chunk.close)
                    .map_err(|e| write_error(schema, e))?;
            }
        }
        row_group.close().map_err(|e| write_error(schema, e))?;
    }
    writer.into_inner().map_err(|e| write_error(schema, e))
}

/// One column chunk of a table file to encode: the rows `rows` of one
/// column. Jobs are independent of each other; see [`write_parquet_with`].
pub struct ColumnChunkJob<'a> {
    schema: &'a TableSchema,
    column: &'a Column,
    rows: std::ops::Range<usize>,
    descr: ColumnDescPtr,
    props: WriterPropertiesPtr,
}

/// An encoded column chunk, ready to be spliced into its file.
pub struct EncodedColumnChunk {
    bytes: Bytes,
    close: ColumnCloseResult,
}

impl ColumnChunkJob<'_> {
    /// A rough measure of the work the chunk takes to encode: its rows
    /// times the in-memory size of one value (strings count as the
    /// `ByteArray` the encoder gets per row). A scheduler may start the
    /// heaviest chunks first so that the last ones to finish are small.
    pub fn weight(&self) -> usize {
        let width = match self.column {
            Column::Bool(_) => 1,
            Column::Int32(_) => 4,
            Column::Int64(_) | Column::Float64(_) => 8,
            Column::Utf8(_) => std::mem::size_of::<ByteArray>(),
        };
        self.rows.len() * width
    }

    /// Encode the chunk (dictionary or plain pages, zstd, statistics) as the
    /// file writer would in place.
    ///
    /// # Errors
    /// [`Error::Write`] when the encoder fails.
    pub fn encode(self) -> Result<EncodedColumnChunk> {
        let schema = self.schema;
        let (start, end) = (self.rows.start, self.rows.end);
        let mut sink = TrackedWrite::new(Vec::new());
        let page_writer = SerializedPageWriter::new(&mut sink);
        let batch = self.props.write_batch_size().max(1);
        let mut writer = get_column_writer(self.descr, self.props, Box::new(page_writer));
        let written = match (&mut writer, self.column) {
            (ColumnWriter::BoolColumnWriter(w), Column::Bool(v)) => {
                w.write_batch(&v[start..end], None, None)
            }
            (ColumnWriter::Int32ColumnWriter(w), Column::Int32(v)) => {
                w.write_batch(&v[start..end], None, None)
            }
            (ColumnWriter::Int64ColumnWriter(w), Column::Int64(v)) => {
                w.write_batch(&v[start..end], None, None)
            }
            (ColumnWriter::DoubleColumnWriter(w), Column::Float64(v)) => {
                w.write_batch(&v[start..end], None, None)
            }
            (ColumnWriter::ByteArrayColumnWriter(w), Column::Utf8(v)) => {
                // One buffer per distinct value, shared by its rows.
                let dictionary: Vec<ByteArray> = v
                    .dictionary()
                    .iter()
                    .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                    .collect();
                // The rows go to the encoder through one reused slice of
                // whole mini-batches rather than a value per row of the
                // chunk: the encoder cuts every call into mini-batches from
                // the call's first row, so the pages are those of a single
                // call (tested against one call with a buffer per row).
                let slice = STRING_SLICE_BATCHES * batch;
                let codes = &v.codes()[start..end];
                let mut values: Vec<ByteArray> = Vec::with_capacity(codes.len().min(slice));
                codes.chunks(slice).try_fold(0, |written, codes| {
                    values.clear();
                    values.extend(codes.iter().map(|&code| dictionary[code as usize].clone()));
                    Ok(written + w.write_batch(&values, None, None)?)
                })
            }
            _ => return Err(write_error(schema, "column writer type mismatch")),
        };
        written.map_err(|e| write_error(schema, e))?;
        let close = writer.close().map_err(|e| write_error(schema, e))?;
        let bytes = sink.into_inner().map_err(|e| write_error(schema, e))?;
        Ok(EncodedColumnChunk {
            bytes: Bytes::from(bytes),
            close,
        })
    }
}

/// Decode a table file and check it against `schema`.
///
/// # Errors
/// [`Error::CorruptTable`] for bytes that are not a readable Parquet file,
/// [`Error::ForeignTable`] for another table or mismatching columns,
/// [`Error::SchemaVersion`] for a file of another schema version.
pub fn read_parquet(bytes: Bytes, schema: &TableSchema) -> Result<TableData> {
    // The decoder is third-party code facing arbitrary bytes; a panic inside
    // it must not take down the caller.
    std::panic::catch_unwind(|| read_unguarded(bytes, schema)).unwrap_or_else(|panic| {
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

fn corrupt(schema: &TableSchema, detail: impl ToString) -> Error {
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

fn read_unguarded(bytes: Bytes, schema: &TableSchema) -> Result<TableData> {
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
    let total_rows = usize::try_from(meta.file_metadata().num_rows())
        .map_err(|_| corrupt(schema, "negative row count"))?;
    let mut columns: Vec<Column> = schema.columns.iter().map(|d| Column::empty(d.ty)).collect();
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).map_err(|e| corrupt(schema, e))?;
        let group_rows = usize::try_from(group.metadata().num_rows())
            .map_err(|_| corrupt(schema, "negative row count"))?;
        for (i, column) in columns.iter_mut().enumerate() {
            let reader = group.get_column_reader(i).map_err(|e| corrupt(schema, e))?;
            read_column(reader, column, group_rows).map_err(|e| corrupt(schema, e))?;
        }
    }
    for (def, column) in schema.columns.iter().zip(&columns) {
        if column.len() != total_rows {
            return Err(corrupt(
                schema,
                format!(
                    "column {} holds {} of {total_rows} rows",
                    def.name,
                    column.len()
                ),
            ));
        }
    }
    let params = kv
        .iter()
        .filter_map(|(k, v)| {
            k.strip_prefix(META_PARAM_PREFIX)
                .map(|p| (p.to_string(), v.clone()))
        })
        .collect();
    Ok(TableData {
        schema: *schema,
        columns,
        params,
    })
}

/// Most rows of a column chunk [`read_column`] makes room for up front.
const MAX_RESERVED_ROWS: usize = 1 << 22;

/// How many distinct string values [`read_column`] remembers by address.
const SEEN_STRINGS: usize = 32;

/// Read exactly `rows` values of one column chunk, appending to `out`.
fn read_column(reader: ColumnReader, out: &mut Column, rows: usize) -> parquet::errors::Result<()> {
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
    use crate::schema::{col, ColumnType::*};

    const DEMO: TableSchema = TableSchema {
        name: "demo",
        file: "demo.parquet",
        version: 3,
        columns: &[
            col("k", Int32),
            col("flag", Bool),
            col("big", Int64),
            col("p", Float64),
            col("label", Utf8),
        ],
        key_columns: 1,
    };

    fn demo(rows: usize) -> TableData {
        TableData {
            schema: DEMO,
            columns: vec![
                Column::Int32((0..rows as i32).collect()),
                Column::Bool((0..rows).map(|i| i % 3 == 0).collect()),
                Column::Int64((0..rows as i64).map(|i| i * 1_000_000_007).collect()),
                Column::Float64((0..rows).map(|i| i as f64 / 7.0).collect()),
                Column::Utf8((0..rows).map(|i| format!("row {i}")).collect()),
            ],
            params: [("rule".to_string(), "x".to_string())].into(),
        }
    }

    #[test]
    fn round_trip_is_exact_and_deterministic() {
        for rows in [0, 1, 1000] {
            let data = demo(rows);
            let bytes = write_parquet(&data).unwrap();
            assert_eq!(bytes, write_parquet(&data).unwrap());
            let back = read_parquet(Bytes::from(bytes), &DEMO).unwrap();
            assert_eq!(back, data);
        }
    }

    #[test]
    fn doubles_get_a_dictionary_only_when_few_are_distinct() {
        let repeated: Vec<f64> = (0..100_000).map(|i| f64::from(i % 4096) / 7.0).collect();
        assert!(few_distinct(&repeated));
        let distinct: Vec<f64> = (0..4097).map(|i| f64::from(i) / 7.0).collect();
        assert!(!few_distinct(&distinct));
        assert!(few_distinct(&distinct[..4096]));
        assert!(few_distinct(&[]));
    }

    /// The file as the row-group writer encodes it in place, column after
    /// column: what [`write_parquet_with`] must reproduce by splicing
    /// independently encoded chunks.
    fn write_in_place(data: &TableData) -> Vec<u8> {
        // The same properties and metadata as the writer, taken from a file
        // it wrote, so only the chunk encoding path differs.
        let spliced = write_parquet(data).unwrap();
        let reader = SerializedFileReader::new(Bytes::from(spliced)).unwrap();
        let file_meta = reader.metadata().file_metadata();
        let metadata = file_meta.key_value_metadata().cloned().unwrap();
        let props = writer_properties(data, metadata).unwrap();
        let mut writer = SerializedFileWriter::new(
            Vec::new(),
            Arc::new(parquet_schema(&data.schema).unwrap()),
            Arc::new(props),
        )
        .unwrap();
        let rows = data.rows();
        let mut start = 0;
        loop {
            let end = (start + ROW_GROUP_ROWS).min(rows);
            let mut row_group = writer.next_row_group().unwrap();
            for column in &data.columns {
                let mut col = row_group.next_column().unwrap().unwrap();
                match (col.untyped(), column) {
                    (ColumnWriter::BoolColumnWriter(w), Column::Bool(v)) => {
                        w.write_batch(&v[start..end], None, None)
                    }
                    (ColumnWriter::Int32ColumnWriter(w), Column::Int32(v)) => {
                        w.write_batch(&v[start..end], None, None)
                    }
                    (ColumnWriter::Int64ColumnWriter(w), Column::Int64(v)) => {
                        w.write_batch(&v[start..end], None, None)
                    }
                    (ColumnWriter::DoubleColumnWriter(w), Column::Float64(v)) => {
                        w.write_batch(&v[start..end], None, None)
                    }
                    (ColumnWriter::ByteArrayColumnWriter(w), Column::Utf8(v)) => {
                        let values: Vec<ByteArray> = v
                            .iter()
                            .skip(start)
                            .take(end - start)
                            .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                            .collect();
                        w.write_batch(&values, None, None)
                    }
                    _ => panic!("column writer type mismatch"),
                }
                .unwrap();
                col.close().unwrap();
            }
            row_group.close().unwrap();
            start = end;
            if start >= rows {
                break;
            }
        }
        writer.into_inner().unwrap()
    }

    #[test]
    fn spliced_chunks_equal_the_in_place_writer_in_any_order() {
        // No rows, one row group, and two, the last one short.
        for rows in [0, 1, 1000, 70_000, ROW_GROUP_ROWS + 1000] {
            let data = demo(rows);
            let bytes = write_parquet(&data).unwrap();
            let other = write_in_place(&data);
            assert_eq!(bytes, other, "{rows} rows");
            // Encoding the chunks last to first changes nothing.
            let reversed = write_parquet_with(&data, |jobs| {
                let mut encoded: Vec<_> =
                    jobs.into_iter().rev().map(ColumnChunkJob::encode).collect();
                encoded.reverse();
                encoded
            })
            .unwrap();
            assert_eq!(bytes, reversed, "{rows} rows");
        }
        let data = demo(10);
        assert!(matches!(
            write_parquet_with(&data, |_| Vec::new()),
            Err(Error::Write { .. })
        ));
    }

    #[test]
    fn writer_rejects_mismatching_columns() {
        let mut data = demo(4);
        data.columns[1] = Column::Int32(vec![1, 2, 3, 4]);
        assert!(matches!(write_parquet(&data), Err(Error::Write { .. })));
        let mut data = demo(4);
        data.columns[2] = Column::Int64(vec![1]);
        assert!(matches!(write_parquet(&data), Err(Error::Write { .. })));
    }

    #[test]
    fn reader_rejects_other_tables_and_versions() {
        let bytes = Bytes::from(write_parquet(&demo(10)).unwrap());
        let other = TableSchema {
            name: "other",
            ..DEMO
        };
        assert!(matches!(
            read_parquet(bytes.clone(), &other),
            Err(Error::ForeignTable { .. })
        ));
        let newer = TableSchema { version: 4, ..DEMO };
        assert!(matches!(
            read_parquet(bytes.clone(), &newer),
            Err(Error::SchemaVersion { .. })
        ));
        const RENAMED: &[crate::schema::ColumnDef] = &[
            col("key", Int32),
            col("flag", Bool),
            col("big", Int64),
            col("p", Float64),
            col("label", Utf8),
        ];
        let renamed = TableSchema {
            columns: RENAMED,
            ..DEMO
        };
        assert!(matches!(
            read_parquet(bytes, &renamed),
            Err(Error::ForeignTable { .. })
        ));
    }

    #[test]
    fn truncated_and_garbled_files_are_errors() {
        let bytes = write_parquet(&demo(500)).unwrap();
        for cut in [
            0,
            1,
            4,
            8,
            bytes.len() / 3,
            bytes.len() / 2,
            bytes.len() - 9,
            bytes.len() - 1,
        ] {
            let result = read_parquet(Bytes::copy_from_slice(&bytes[..cut]), &DEMO);
            assert!(result.is_err(), "truncation at {cut} was accepted");
        }
        // Flip bytes all over the file: every outcome must be Ok or Err, never a
        // panic; a flip in the page data must not go unnoticed as wrong rows.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut garbled = bytes.clone();
            let at = (state % garbled.len() as u64) as usize;
            garbled[at] ^= 1 << (state >> 61);
            let _ = read_parquet(Bytes::from(garbled), &DEMO);
        }
    }

    #[test]
    fn digest_is_blake2b_256() {
        // Known answer: BLAKE2b-256 of the empty string.
        assert_eq!(
            blake2_hex(b""),
            "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }
}
