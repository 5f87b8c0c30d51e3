//! In-memory columns of a table: [`Column`], and [`Strings`], the
//! dictionary-coded string column.
//!
//! String columns of the tables have few distinct values (card names, face
//! classes, actions) repeated over hundreds of thousands of rows. Keeping each
//! distinct value once and the rows as `u32` codes makes loading allocate per
//! distinct value rather than per row, and lets a loader parse each distinct
//! value once (see [`Strings::dictionary`] and [`Strings::codes`]).

use std::collections::HashMap;
use std::ops::Index;

use crate::schema::ColumnType;

/// The values of one column.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// A `bool` column.
    Bool(Vec<bool>),
    /// An `int32` column.
    Int32(Vec<i32>),
    /// An `int64` column.
    Int64(Vec<i64>),
    /// A `double` column.
    Float64(Vec<f64>),
    /// A `string` column.
    Utf8(Strings),
}

impl Column {
    /// The logical type of the values.
    pub fn ty(&self) -> ColumnType {
        match self {
            Column::Bool(_) => ColumnType::Bool,
            Column::Int32(_) => ColumnType::Int32,
            Column::Int64(_) => ColumnType::Int64,
            Column::Float64(_) => ColumnType::Float64,
            Column::Utf8(_) => ColumnType::Utf8,
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Column::Bool(v) => v.len(),
            Column::Int32(v) => v.len(),
            Column::Int64(v) => v.len(),
            Column::Float64(v) => v.len(),
            Column::Utf8(v) => v.len(),
        }
    }

    /// Whether the column has no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An empty column of type `ty`.
    pub fn empty(ty: ColumnType) -> Column {
        match ty {
            ColumnType::Bool => Column::Bool(Vec::new()),
            ColumnType::Int32 => Column::Int32(Vec::new()),
            ColumnType::Int64 => Column::Int64(Vec::new()),
            ColumnType::Float64 => Column::Float64(Vec::new()),
            ColumnType::Utf8 => Column::Utf8(Strings::default()),
        }
    }

    /// Keep the first `rows` values.
    pub fn truncate(&mut self, rows: usize) {
        match self {
            Column::Bool(v) => v.truncate(rows),
            Column::Int32(v) => v.truncate(rows),
            Column::Int64(v) => v.truncate(rows),
            Column::Float64(v) => v.truncate(rows),
            Column::Utf8(v) => v.truncate(rows),
        }
    }
}

/// Dictionaries up to this size are searched linearly when interning; a
/// short byte comparison beats hashing.
const LINEAR_LOOKUP: usize = 16;

/// A dictionary-coded string column: every distinct value once, in order of
/// first appearance, and one code per row.
///
/// Indexing gives the row's value as `&str`; equality compares values row by
/// row, not the encoding.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    dictionary: Vec<String>,
    codes: Vec<u32>,
    /// Code of each dictionary entry, once the dictionary outgrows
    /// [`LINEAR_LOOKUP`].
    lookup: HashMap<String, u32>,
}

impl Strings {
    /// An empty column.
    pub fn new() -> Strings {
        Strings::default()
    }

    /// An empty column with room for `rows` rows.
    pub fn with_capacity(rows: usize) -> Strings {
        Strings {
            codes: Vec::with_capacity(rows),
            ..Strings::default()
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The value of row `row`, or `None` past the end.
    pub fn get(&self, row: usize) -> Option<&str> {
        let code = *self.codes.get(row)?;
        Some(&self.dictionary[code as usize])
    }

    /// The distinct values, in order of first appearance.
    pub fn dictionary(&self) -> &[String] {
        &self.dictionary
    }

    /// One index into [`Strings::dictionary`] per row.
    pub fn codes(&self) -> &[u32] {
        &self.codes
    }

    /// The values, row by row.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.codes
            .iter()
            .map(|&c| self.dictionary[c as usize].as_str())
    }

    /// Append one row.
    pub fn push(&mut self, value: &str) {
        let code = self.intern(value.as_bytes(), || value.to_string());
        self.codes.push(code);
    }

    /// The column whose row `i` holds `dictionary[codes[i]]`, or `None` when
    /// a code is no index into `dictionary`. The codes are renumbered into
    /// order of first appearance (equal values are merged), as if every row
    /// had been pushed, reusing the allocation of `codes`.
    pub fn from_codes(dictionary: &[&str], mut codes: Vec<u32>) -> Option<Strings> {
        let mut strings = Strings::new();
        let mut renumbered: Vec<Option<u32>> = vec![None; dictionary.len()];
        for code in &mut codes {
            let slot = renumbered.get_mut(*code as usize)?;
            *code = match *slot {
                Some(new) => new,
                None => {
                    let value = dictionary[*code as usize];
                    let new = strings.intern(value.as_bytes(), || value.to_string());
                    *slot = Some(new);
                    new
                }
            };
        }
        strings.codes = codes;
        Some(strings)
    }

    /// Append `rows` rows of the same value (looked up once; nothing is
    /// added for no rows).
    pub fn push_repeated(&mut self, value: &str, rows: usize) {
        if rows == 0 {
            return;
        }
        let code = self.intern(value.as_bytes(), || value.to_string());
        self.codes.extend(std::iter::repeat_n(code, rows));
    }

    /// Append one row given as bytes and return its code.
    ///
    /// # Errors
    /// Returns the bytes back as an error when they are not UTF-8.
    pub fn push_bytes<'a>(&mut self, value: &'a [u8]) -> Result<u32, &'a [u8]> {
        let code = match self.find(value) {
            Some(code) => code,
            None => {
                let text = std::str::from_utf8(value).map_err(|_| value)?;
                self.insert(text.to_string())
            }
        };
        self.codes.push(code);
        Ok(code)
    }

    /// Append one row holding the value of an earlier row's `code`.
    pub(crate) fn push_code(&mut self, code: u32) {
        debug_assert!((code as usize) < self.dictionary.len());
        self.codes.push(code);
    }

    /// Keep the first `rows` rows (the dictionary is kept whole).
    pub fn truncate(&mut self, rows: usize) {
        self.codes.truncate(rows);
    }

    fn find(&self, value: &[u8]) -> Option<u32> {
        if self.dictionary.len() <= LINEAR_LOOKUP {
            self.dictionary
                .iter()
                .position(|d| d.as_bytes() == value)
                .map(|i| i as u32)
        } else {
            std::str::from_utf8(value)
                .ok()
                .and_then(|s| self.lookup.get(s).copied())
        }
    }

    fn insert(&mut self, value: String) -> u32 {
        let code = u32::try_from(self.dictionary.len())
            .expect("a string column never holds 2^32 distinct values");
        if self.dictionary.len() == LINEAR_LOOKUP {
            for (i, d) in self.dictionary.iter().enumerate() {
                self.lookup.insert(d.clone(), i as u32);
            }
        }
        if self.dictionary.len() >= LINEAR_LOOKUP {
            self.lookup.insert(value.clone(), code);
        }
        self.dictionary.push(value);
        code
    }

    fn intern(&mut self, value: &[u8], owned: impl FnOnce() -> String) -> u32 {
        match self.find(value) {
            Some(code) => code,
            None => self.insert(owned()),
        }
    }
}

impl Index<usize> for Strings {
    type Output = str;

    fn index(&self, row: usize) -> &str {
        &self.dictionary[self.codes[row] as usize]
    }
}

impl PartialEq for Strings {
    fn eq(&self, other: &Strings) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for Strings {
    fn from_iter<I: IntoIterator<Item = S>>(values: I) -> Strings {
        let mut strings = Strings::new();
        strings.extend(values);
        strings
    }
}

impl<S: AsRef<str>> Extend<S> for Strings {
    fn extend<I: IntoIterator<Item = S>>(&mut self, values: I) {
        for value in values {
            self.push(value.as_ref());
        }
    }
}

impl From<Vec<String>> for Strings {
    fn from(values: Vec<String>) -> Strings {
        values.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_keeps_rows_and_first_appearance_order() {
        let rows: Vec<String> = (0..200).map(|i| format!("v{}", (i * 7) % 40)).collect();
        let strings: Strings = rows.iter().collect();
        assert_eq!(strings.len(), 200);
        assert_eq!(strings.dictionary().len(), 40);
        assert_eq!(strings.dictionary()[0], "v0");
        assert_eq!(strings.dictionary()[1], "v7");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(&strings[i], row.as_str());
            assert_eq!(strings.get(i), Some(row.as_str()));
        }
        assert_eq!(strings.get(200), None);
        assert!(strings.iter().eq(rows.iter().map(String::as_str)));
    }

    #[test]
    fn from_codes_equals_row_by_row_pushes() {
        let dictionary = ["x", "y", "z", "y"];
        let codes = vec![2, 0, 2, 3, 1, 0];
        let strings = Strings::from_codes(&dictionary, codes.clone()).unwrap();
        let pushed: Strings = codes.iter().map(|&c| dictionary[c as usize]).collect();
        assert_eq!(strings, pushed);
        assert!(strings.iter().eq(["z", "x", "z", "y", "y", "x"]));
        // First appearance order, the repeated "y" merged, unused values left out.
        assert_eq!(strings.dictionary(), ["z", "x", "y"]);
        assert_eq!(strings.codes(), [0, 1, 0, 2, 2, 1]);
        assert!(Strings::from_codes(&dictionary, vec![0, 4]).is_none());
        assert!(Strings::from_codes(&[], Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn bytes_are_checked_and_equality_ignores_the_encoding() {
        let mut a = Strings::new();
        assert_eq!(a.push_bytes(b"x"), Ok(0));
        assert_eq!(a.push_bytes(b"y"), Ok(1));
        assert_eq!(a.push_bytes(b"x"), Ok(0));
        a.truncate(2);
        assert_eq!(a.push_bytes(&[0xff, 0xfe]), Err(&[0xff, 0xfe][..]));
        assert_eq!(a.len(), 2);
        let mut b = Strings::new();
        b.push("z");
        b.truncate(0);
        b.extend(["x", "y"]);
        assert_eq!(a, b);
        assert_ne!(a.dictionary(), b.dictionary());
        b.push("x");
        assert_ne!(a, b);
        // Repeated rows are the same as pushing them one by one.
        let mut repeated = Strings::new();
        repeated.push_repeated("x", 2);
        repeated.push_repeated("y", 0);
        repeated.push_repeated("z", 3);
        repeated.push_repeated("x", 1);
        let single: Strings = ["x", "x", "z", "z", "z", "x"].into_iter().collect();
        assert_eq!(repeated, single);
        assert_eq!(repeated.dictionary(), single.dictionary());
    }
}
