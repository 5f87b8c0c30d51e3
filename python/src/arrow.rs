//! Whole tables as Arrow: a table file of the set, checked against the
//! manifest's digest and decoded by the lookup crate's Parquet reader
//! against its schema, becomes one Arrow record batch, handed to Python
//! through the Arrow C stream interface (`__arrow_c_stream__`, a
//! PyCapsule named `arrow_array_stream`), which pyarrow, polars and duckdb
//! take.

use std::path::Path;
use std::sync::Arc;

use crate::adapter::error::Result;
use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int32Array, Int64Array, RecordBatch, RecordBatchIterator,
    StringArray,
};
use arrow_schema::{DataType, Field, Schema};

use gametab_lookup::io::{blake2_hex, read_parquet, Column};
use gametab_lookup::registry::all_schemas;
use gametab_lookup::schema::{ColumnType, TableSchema, META_PARAM_PREFIX};
use gametab_lookup::Tables;

/// The schema of the table called `name` (its table name, or its file).
pub fn schema_of(name: &str) -> Option<&'static TableSchema> {
    all_schemas().find(|s| s.name == name || s.file == name)
}

/// Every table's name, in build order.
pub fn table_names() -> Vec<&'static str> {
    all_schemas().map(|s| s.name).collect()
}

fn data_type(ty: ColumnType) -> DataType {
    match ty {
        ColumnType::Bool => DataType::Boolean,
        ColumnType::Int32 => DataType::Int32,
        ColumnType::Int64 => DataType::Int64,
        ColumnType::Float64 => DataType::Float64,
        ColumnType::Utf8 => DataType::Utf8,
    }
}

fn array(column: &Column) -> ArrayRef {
    match column {
        Column::Bool(v) => Arc::new(BooleanArray::from(v.clone())),
        Column::Int32(v) => Arc::new(Int32Array::from(v.clone())),
        Column::Int64(v) => Arc::new(Int64Array::from(v.clone())),
        Column::Float64(v) => Arc::new(Float64Array::from(v.clone())),
        Column::Utf8(v) => Arc::new(StringArray::from_iter_values(v.iter())),
    }
}

/// The table `schema` of the set in `dir` as one record batch: the file's
/// bytes checked against `tables`' manifest, then decoded and checked by
/// the lookup crate. The batch's schema carries the file's key-value
/// metadata (`gametab.table`, the build's parameters).
///
/// # Errors
/// A file the manifest does not list, a digest mismatch, or the reader's
/// refusal.
pub fn batch(tables: &Tables, dir: &Path, schema: &TableSchema) -> Result<RecordBatch> {
    let entry =
        tables
            .manifest()
            .entry(schema.file)
            .ok_or_else(|| gametab_lookup::Error::MissingFile {
                path: dir.join(schema.file),
            })?;
    let path = dir.join(schema.file);
    let bytes = std::fs::read(&path).map_err(|source| gametab_lookup::Error::Io {
        path: path.clone(),
        source,
    })?;
    let found = blake2_hex(&bytes);
    if found != entry.blake2b_256 {
        return Err(gametab_lookup::Error::DigestMismatch {
            file: schema.file.to_owned(),
            expected: entry.blake2b_256.clone(),
            found,
        }
        .into());
    }
    let data = read_parquet(bytes::Bytes::from(bytes), schema)?;
    let fields: Vec<Field> = schema
        .columns
        .iter()
        .map(|c| Field::new(c.name, data_type(c.ty), false))
        .collect();
    let mut metadata: std::collections::HashMap<String, String> = data
        .params
        .iter()
        .map(|(k, v)| (format!("{META_PARAM_PREFIX}{k}"), v.clone()))
        .collect();
    metadata.insert("gametab.table".to_owned(), schema.name.to_owned());
    metadata.insert(
        "gametab.schema_version".to_owned(),
        schema.version.to_string(),
    );
    let arrow_schema = Arc::new(Schema::new_with_metadata(fields, metadata));
    let columns = data.columns.iter().map(array).collect();
    Ok(RecordBatch::try_new(arrow_schema, columns)?)
}

/// A stream of the one batch, for the C stream interface.
pub fn stream(batch: RecordBatch) -> arrow_array::ffi_stream::FFI_ArrowArrayStream {
    let schema = batch.schema();
    let reader = RecordBatchIterator::new(vec![Ok(batch)], schema);
    arrow_array::ffi_stream::FFI_ArrowArrayStream::new(Box::new(reader))
}
