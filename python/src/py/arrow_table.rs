//! A whole table as an Arrow stream (`__arrow_c_stream__`), for pyarrow,
//! polars and duckdb.

use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// A whole table, exported through the Arrow PyCapsule interface.
#[pyclass(frozen, module = "gametab._gametab")]
pub(super) struct ArrowTable {
    pub(super) name: &'static str,
    pub(super) batch: arrow_array::RecordBatch,
}

#[pymethods]
impl ArrowTable {
    /// The table's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// Its rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// Its column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// The Arrow C stream of the table (one batch); `requested_schema` is
    /// ignored (the table's own schema is the only one offered).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let stream = crate::arrow::stream(self.batch.clone());
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    fn __repr__(&self) -> String {
        format!(
            "<gametab table {} ({} rows)>",
            self.name,
            self.batch.num_rows()
        )
    }
}
