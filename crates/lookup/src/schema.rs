//! Table schemas: the one definition of every table's file name, version and
//! columns, shared by the pipeline (writer) and this crate (reader) so the two
//! cannot drift apart.
//!
//! A schema is a plain `const` value. The writer refuses data that does not
//! match it; the reader refuses a file whose metadata or columns differ from
//! it. `tables/README.md` documents the same columns for people, and a test in
//! the pipeline checks that every column named here appears there.

/// The logical type of a column, mapped onto one Parquet physical type.
///
/// Every column is `REQUIRED` (non-nullable): tables are tidy and complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Parquet `BOOLEAN`.
    Bool,
    /// Parquet `INT32` (signed).
    Int32,
    /// Parquet `INT64` (signed).
    Int64,
    /// Parquet `DOUBLE`.
    Float64,
    /// Parquet `BYTE_ARRAY` annotated as a UTF-8 `STRING`.
    Utf8,
}

impl ColumnType {
    /// A short lowercase name, used in error messages and the documentation.
    pub const fn name(self) -> &'static str {
        match self {
            ColumnType::Bool => "bool",
            ColumnType::Int32 => "int32",
            ColumnType::Int64 => "int64",
            ColumnType::Float64 => "double",
            ColumnType::Utf8 => "string",
        }
    }
}

/// One column of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnDef {
    /// Column name as it appears in the Parquet schema.
    pub name: &'static str,
    /// Logical type.
    pub ty: ColumnType,
}

/// Shorthand used by the schema constants.
pub const fn col(name: &'static str, ty: ColumnType) -> ColumnDef {
    ColumnDef { name, ty }
}

/// A table: its identity, version and columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSchema {
    /// Stable table name, stored in the file metadata under [`META_TABLE`].
    pub name: &'static str,
    /// File name inside a table directory.
    pub file: &'static str,
    /// Bumped whenever the columns or their meaning change; stored under
    /// [`META_SCHEMA_VERSION`] and checked by the reader.
    pub version: u32,
    /// The columns, in file order. The leading `key_columns` of them form the
    /// sort key (rows are written sorted by it, ascending).
    pub columns: &'static [ColumnDef],
    /// How many leading columns form the row key.
    pub key_columns: usize,
}

impl TableSchema {
    /// Index of the column called `name`, if the schema has one.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// Metadata key holding the table name.
pub const META_TABLE: &str = "gametab.table";
/// Metadata key holding the schema version.
pub const META_SCHEMA_VERSION: &str = "gametab.schema_version";
/// Metadata key holding the version of the generator that wrote the file.
pub const META_GENERATOR: &str = "gametab.generator_version";
/// Metadata key prefix for rule and grid parameters (`gametab.param.<name>`).
pub const META_PARAM_PREFIX: &str = "gametab.param.";
