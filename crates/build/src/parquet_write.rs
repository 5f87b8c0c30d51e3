//! Parquet encoding of tables against their schema: the build's writer.
//!
//! The writer produces the complete file in memory (the table writer of
//! [`crate::output`] then writes it to a temporary file and renames it into
//! place). Each column chunk is encoded on its own and spliced into the
//! file in column order, so a caller may encode the chunks in parallel
//! ([`write_parquet_with`]); the bytes equal those of the row-group writer
//! encoding in place. Files carry key-value metadata naming the table, its
//! schema version, the generator version and the rule parameters. Output
//! is deterministic: the same data gives the same bytes. The tables come
//! in as [`TableData`], whose columns were handed over by name.

use std::sync::Arc;

use bytes::Bytes;

use gametab_lookup::io::{Column, TableData, GENERATOR_VERSION};
use gametab_lookup::schema::{
    ColumnType, TableSchema, META_GENERATOR, META_PARAM_PREFIX, META_SCHEMA_VERSION, META_TABLE,
};
use gametab_lookup::{Error, Result};
use parquet::basic::{
    Compression, Encoding, LogicalType, Repetition, Type as PhysicalType, ZstdLevel,
};
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::ByteArray;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type};

/// An [`Error::Write`] about `schema`'s table.
fn write_error(schema: &TableSchema, detail: impl ToString) -> Error {
    Error::Write {
        table: schema.name,
        detail: detail.to_string(),
    }
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
    let mut seen: std::collections::HashSet<u64, BuildBitsHasher> =
        std::collections::HashSet::with_capacity_and_hasher(
            DICTIONARY_MAX_DISTINCT + 1,
            BuildBitsHasher::default(),
        );
    values.iter().all(|v| {
        seen.insert(v.to_bits());
        seen.len() <= DICTIONARY_MAX_DISTINCT
    })
}

/// The hasher of [`few_distinct`]'s set: one multiplication a value.
/// SipHash's defence against chosen keys buys nothing on the build's own
/// numbers, and it was most of the scan (8.8 M endgame probabilities and as
/// many reaches per build).
type BuildBitsHasher = std::hash::BuildHasherDefault<BitsHasher>;

/// Fibonacci hashing of a `u64` (the only thing [`few_distinct`] hashes);
/// the high half folded into the low one, where the table takes its bucket.
#[derive(Default)]
struct BitsHasher(u64);

impl std::hash::Hasher for BitsHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        let mixed = (self.0 ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = mixed ^ (mixed >> 32);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Rows per row group (and the most a group may have).
pub const ROW_GROUP_ROWS: usize = 1 << 20;

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
    let rows = data.rows();
    let starts: Vec<usize> = (0..rows.div_ceil(ROW_GROUP_ROWS).max(1))
        .map(|g| g * ROW_GROUP_ROWS)
        .collect();
    write_parquet_grouped_with(data, &starts, encode_all)
}

/// [`write_parquet_with`] with the row groups starting at the rows
/// `starts` (rising, the first 0) instead of every [`ROW_GROUP_ROWS`]
/// rows: a table whose readers look up one key range at a time cuts its
/// groups at key boundaries, so that a reader decodes only the groups
/// (their chunk statistics name the keys) that hold the range.
///
/// # Errors
/// As [`write_parquet`]; also when `starts` does not begin with 0, does not
/// rise, or leaves a group longer than [`ROW_GROUP_ROWS`].
pub fn write_parquet_grouped_with<F>(
    data: &TableData,
    starts: &[usize],
    encode_all: F,
) -> Result<Vec<u8>>
where
    F: FnOnce(Vec<ColumnChunkJob<'_>>) -> Vec<Result<EncodedColumnChunk>>,
{
    data.check_shape()?;
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
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(rows));
    let groups: Vec<std::ops::Range<usize>> = starts.iter().zip(ends).map(|(&s, e)| s..e).collect();
    if starts.first() != Some(&0)
        || groups
            .iter()
            .any(|g| g.start > g.end || g.len() > ROW_GROUP_ROWS || (g.is_empty() && rows > 0))
    {
        return Err(write_error(
            schema,
            format!("row groups starting at {starts:?} do not cut {rows} rows"),
        ));
    }
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

#[cfg(test)]
#[path = "parquet_write_tests.rs"]
mod tests;
