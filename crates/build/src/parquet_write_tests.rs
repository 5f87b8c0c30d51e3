//! Tests of the Parquet writer: round trips through the reader, the same
//! bytes however the column chunks are encoded, columns placed by name,
//! and truncated or corrupted files refused by the reader.

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
            let mut encoded: Vec<_> = jobs.into_iter().rev().map(ColumnChunkJob::encode).collect();
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
