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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use gametab_lookup::io::read_parquet;
    use gametab_lookup::schema::{col, ColumnType::*};
    use parquet::file::reader::{FileReader, SerializedFileReader};

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
        TableData::from_named(
            DEMO,
            [
                ("k", Column::Int32((0..rows as i32).collect())),
                (
                    "flag",
                    Column::Bool((0..rows).map(|i| i % 3 == 0).collect()),
                ),
                (
                    "big",
                    Column::Int64((0..rows as i64).map(|i| i * 1_000_000_007).collect()),
                ),
                (
                    "p",
                    Column::Float64((0..rows).map(|i| i as f64 / 7.0).collect()),
                ),
                (
                    "label",
                    Column::Utf8((0..rows).map(|i| format!("row {i}")).collect()),
                ),
            ],
            [("rule".to_string(), "x".to_string())].into(),
        )
        .unwrap()
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

    /// Two columns of the same type, as a builder would hand them.
    const PAIR: TableSchema = TableSchema {
        name: "pair",
        file: "pair.parquet",
        version: 1,
        columns: &[col("brain_x", Int32), col("brain_y", Int32)],
        key_columns: 2,
    };

    #[test]
    fn same_typed_columns_land_by_name_whatever_the_order_given() {
        let (xs, ys) = (vec![0, 0, 1, 1], vec![0, 1, 0, 1]);
        let in_order = TableData::from_named(
            PAIR,
            [
                ("brain_x", Column::Int32(xs.clone())),
                ("brain_y", Column::Int32(ys.clone())),
            ],
            BTreeMap::new(),
        )
        .unwrap();
        // A builder that lists the two the other way round.
        let swapped = TableData::from_named(
            PAIR,
            [
                ("brain_y", Column::Int32(ys.clone())),
                ("brain_x", Column::Int32(xs.clone())),
            ],
            BTreeMap::new(),
        )
        .unwrap();
        let bytes = write_parquet(&swapped).unwrap();
        assert_eq!(bytes, write_parquet(&in_order).unwrap());
        let back = read_parquet(bytes.into(), &PAIR).unwrap();
        assert_eq!(back.i32s("brain_x").unwrap(), xs);
        assert_eq!(back.i32s("brain_y").unwrap(), ys);
    }

    #[test]
    fn a_column_misnamed_repeated_or_missing_is_refused_by_name() {
        let named = |names: &[&str]| {
            TableData::from_named(
                PAIR,
                names.iter().map(|n| (*n, Column::Int32(vec![1, 2]))),
                BTreeMap::new(),
            )
            .map(drop)
            .unwrap_err()
            .to_string()
        };
        assert!(named(&["brain_x", "brian_y"]).contains("no column brian_y"));
        assert!(named(&["brain_x", "brain_x"]).contains("column brain_x given twice"));
        assert!(named(&["brain_y"]).contains("column brain_x not given"));
        let wrong_type = TableData::from_named(
            PAIR,
            [
                ("brain_x", Column::Int32(vec![1])),
                ("brain_y", Column::Int64(vec![1])),
            ],
            BTreeMap::new(),
        );
        assert!(matches!(wrong_type, Err(Error::Write { .. })));
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
        const RENAMED: &[gametab_lookup::schema::ColumnDef] = &[
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
}
