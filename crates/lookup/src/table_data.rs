//! [`TableData`]: a table in memory, as the reader decodes it and the
//! writer encodes it: one [`Column`] per schema column in schema order,
//! plus the rule parameters of the file's metadata. Writers hand columns
//! over by name (`TableData::from_named`, feature `write`), so the file cannot drift from
//! the schema by a column put in another's place.

use std::collections::BTreeMap;

pub use crate::column::{Column, Strings};
use crate::error::{Error, Result};
use crate::schema::TableSchema;

/// A decoded (or to-be-encoded) table: one [`Column`] per schema column, in
/// schema order, plus the file's key-value metadata.
///
/// Outside this crate a table to write can only be made by
/// `TableData::from_named` (feature `write`), which takes every column by its schema name
/// (the struct is `non_exhaustive`: no literal), so a builder cannot hand
/// two columns of the same type in each other's place. The fields stay
/// public for reading (and for tests that corrupt a table on purpose).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TableData {
    /// The schema the columns follow.
    pub schema: TableSchema,
    /// The columns, in schema order, all of the same length.
    pub columns: Vec<Column>,
    /// Rule and grid parameters (`gametab.param.*` keys without the prefix).
    pub params: BTreeMap<String, String>,
}

impl TableData {
    /// A table to write (feature `write`): `columns` by schema name, in any order, each
    /// schema column exactly once; they are put in schema order and checked
    /// against the schema (types, equal lengths).
    ///
    /// # Errors
    /// [`Error::Write`] naming a column the schema does not have, one given
    /// twice, one missing, or one of the wrong type or length.
    #[cfg(any(test, feature = "write"))]
    pub fn from_named<N: AsRef<str>>(
        schema: TableSchema,
        columns: impl IntoIterator<Item = (N, Column)>,
        params: BTreeMap<String, String>,
    ) -> Result<TableData> {
        let mut slots: Vec<Option<Column>> = vec![None; schema.columns.len()];
        for (name, column) in columns {
            let name = name.as_ref();
            let index = schema
                .column_index(name)
                .ok_or_else(|| write_error(&schema, format!("no column {name} in the schema")))?;
            if slots[index].replace(column).is_some() {
                return Err(write_error(&schema, format!("column {name} given twice")));
            }
        }
        let columns = slots
            .into_iter()
            .zip(schema.columns)
            .map(|(slot, def)| {
                slot.ok_or_else(|| write_error(&schema, format!("column {} not given", def.name)))
            })
            .collect::<Result<Vec<Column>>>()?;
        let data = TableData {
            schema,
            columns,
            params,
        };
        data.check_shape()?;
        Ok(data)
    }

    /// A table read from a file (the reader has matched the columns to the
    /// schema by name already).
    pub(crate) fn decoded(
        schema: TableSchema,
        columns: Vec<Column>,
        params: BTreeMap<String, String>,
    ) -> TableData {
        TableData {
            schema,
            columns,
            params,
        }
    }

    /// Check that the columns match the schema (feature `write`): as many as it has, each of
    /// its type (the names are the schema's, in its order), all of the same
    /// length. The writer checks this before encoding anything.
    ///
    /// # Errors
    /// [`Error::Write`] naming the first column that does not match.
    #[cfg(any(test, feature = "write"))]
    pub fn check_shape(&self) -> Result<()> {
        check_shape(self)
    }

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

#[cfg(any(test, feature = "write"))]
pub(crate) fn write_error(schema: &TableSchema, detail: impl ToString) -> Error {
    Error::Write {
        table: schema.name,
        detail: detail.to_string(),
    }
}

/// Check that `data` matches its schema: column count, types (the names
/// are the schema's, in its order) and equal lengths.
#[cfg(any(test, feature = "write"))]
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
