//! Text columns built in Arrow's layout: the values back to back in one
//! buffer, each row's end, and which rows are null. Rows write their text
//! (the JSON of a call's arguments above all) straight into the column's
//! buffer, which then becomes the Arrow array's values without a copy.
//!
//! Why not a `String` per row: for a block like 18,468,942 (200 KB of JSON
//! over 60-odd rows) the allocations, the copies into the columns and the
//! frees were a third of the columnar decode.

use std::sync::Arc;

use arrow_array::{ArrayRef, BinaryArray, ListArray, StringArray};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, Field};

/// A column of variable-length rows being built: their values back to back
/// in one buffer `V` (text or bytes), each row's end, and which rows are
/// null. [`TextColumn`] and [`BytesColumn`] are its two kinds.
#[derive(Clone, Debug, Default)]
pub struct VarColumn<V> {
    values: V,
    /// Where each row's values end in `values`, and which rows are null.
    rows: RowEnds,
}

/// A UTF-8 column being built.
pub type TextColumn = VarColumn<String>;

/// A binary column being built, as [`TextColumn`] is: the bytes of every
/// row back to back, so a row costs no allocation of its own.
pub type BytesColumn = VarColumn<Vec<u8>>;

/// The buffer a [`VarColumn`]'s rows are appended to: `String` for text,
/// `Vec<u8>` for bytes.
pub trait ColumnValues: Default {
    /// Bytes held.
    fn byte_len(&self) -> usize;
    /// Makes room for `bytes` more bytes.
    fn reserve_bytes(&mut self, bytes: usize);
    /// Keeps the first `bytes` bytes (a row's end).
    fn truncate_bytes(&mut self, bytes: usize);
}

/// `String` and `Vec<u8>` spell the three the same way.
macro_rules! column_values {
    ($($values:ty),*) => {$(
        impl ColumnValues for $values {
            fn byte_len(&self) -> usize {
                self.len()
            }
            fn reserve_bytes(&mut self, bytes: usize) {
                self.reserve(bytes);
            }
            fn truncate_bytes(&mut self, bytes: usize) {
                self.truncate(bytes);
            }
        }
    )*};
}

column_values!(String, Vec<u8>);

impl<V: ColumnValues> VarColumn<V> {
    /// Makes room for `bytes` more bytes of values.
    pub fn reserve(&mut self, bytes: usize) {
        self.values.reserve_bytes(bytes);
    }

    /// Makes room for `rows` more rows of `bytes` more bytes in all.
    pub fn reserve_rows(&mut self, rows: usize, bytes: usize) {
        self.values.reserve_bytes(bytes);
        self.rows.ends.reserve(rows);
    }

    /// Bytes of values so far.
    pub fn byte_len(&self) -> usize {
        self.values.byte_len()
    }

    /// Appends a row whose value `write` appends to the column's buffer.
    pub fn push_with(&mut self, write: impl FnOnce(&mut V)) {
        write(&mut self.values);
        self.end_row(true);
    }

    /// Appends a null row.
    pub fn push_null(&mut self) {
        self.end_row(false);
    }

    fn end_row(&mut self, valid: bool) {
        self.rows.end(self.values.byte_len(), valid);
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows.ends.len()
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.ends.is_empty()
    }

    /// Keeps the first `rows` rows (a typed row that turned out not to fit
    /// its table is taken back whole).
    pub fn truncate(&mut self, rows: usize) {
        if let Some(end) = self.rows.truncate(rows) {
            self.values.truncate_bytes(end);
        }
    }
}

impl TextColumn {
    /// Appends a row of text `s`.
    pub fn push(&mut self, s: &str) {
        self.values.push_str(s);
        self.end_row(true);
    }

    /// Row `i`'s text (`None`: null, or past the end).
    pub fn get(&self, i: usize) -> Option<&str> {
        if self.rows.is_null(i) {
            return None;
        }
        self.values.get(row_range(&self.rows.ends, i)?)
    }

    /// The Arrow array: the text buffer becomes its values, uncopied. Past
    /// Arrow's 2 GiB of text in one array it is an error, not a panic.
    pub fn into_array(self) -> Result<StringArray, ArrowError> {
        let (offsets, nulls) = self.rows.into_parts("bytes of text")?;
        // SAFETY: what `try_new` would check, true by construction: the
        // offsets start at 0, never decrease (each is the buffer's length
        // when its row ended) and the last is the buffer's length; each row
        // is text appended to a `String` (UTF-8, on character boundaries);
        // the null buffer has a bit per row. Skipping the check saves a
        // UTF-8 pass over every byte of the column.
        Ok(unsafe {
            StringArray::new_unchecked(offsets, Buffer::from_vec(self.values.into_bytes()), nulls)
        })
    }
}

impl BytesColumn {
    /// Appends a row of bytes `b`.
    pub fn push(&mut self, b: &[u8]) {
        self.values.extend_from_slice(b);
        self.end_row(true);
    }

    /// The Arrow array, the bytes its values uncopied (past 2 GiB an error).
    pub fn into_array(self) -> Result<BinaryArray, ArrowError> {
        let (offsets, nulls) = self.rows.into_parts("bytes")?;
        BinaryArray::try_new(offsets, Buffer::from_vec(self.values), nulls)
    }
}

/// A column of lists of text (never null), built as [`TextColumn`] is.
#[derive(Clone, Debug, Default)]
pub struct TextListColumn {
    items: TextColumn,
    /// Where each row's items end in `items`.
    ends: Vec<usize>,
}

impl TextListColumn {
    /// Appends a row whose items `write` pushes to the items' column.
    pub fn push_with(&mut self, write: impl FnOnce(&mut TextColumn)) {
        write(&mut self.items);
        self.ends.push(self.items.len());
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Row `i`'s items (empty past the end).
    pub fn get(&self, i: usize) -> Vec<&str> {
        row_range(&self.ends, i)
            .unwrap_or_default()
            .filter_map(|j| self.items.get(j))
            .collect()
    }

    /// The Arrow array, its items a [`TextColumn`]'s array (`item`: the
    /// list's field).
    pub fn into_array(self, item: Arc<Field>) -> Result<ArrayRef, ArrowError> {
        let offsets = offsets(self.ends, "items")?;
        let items = self.items.into_array()?;
        Ok(Arc::new(ListArray::try_new(
            item,
            offsets,
            Arc::new(items),
            None,
        )?))
    }
}

/// Where each row of a [`TextColumn`] or [`BytesColumn`] ends in its
/// values, and which rows are null (kept only once a row is null).
#[derive(Clone, Debug, Default)]
struct RowEnds {
    ends: Vec<usize>,
    valid: Option<Vec<bool>>,
}

impl RowEnds {
    /// A row ended at `at` bytes of the values, null unless `valid`.
    fn end(&mut self, at: usize, valid: bool) {
        if !valid && self.valid.is_none() {
            self.valid = Some(vec![true; self.ends.len()]);
        }
        if let Some(v) = &mut self.valid {
            v.push(valid);
        }
        self.ends.push(at);
    }

    /// Whether row `i` is null.
    fn is_null(&self, i: usize) -> bool {
        self.valid
            .as_ref()
            .is_some_and(|v| v.get(i) == Some(&false))
    }

    /// Keeps the first `rows` rows; the values' new length when any were
    /// dropped.
    fn truncate(&mut self, rows: usize) -> Option<usize> {
        if rows >= self.ends.len() {
            return None;
        }
        self.ends.truncate(rows);
        if let Some(v) = &mut self.valid {
            v.truncate(rows);
        }
        Some(self.ends.last().copied().unwrap_or(0))
    }

    /// Arrow's offsets (of `what`) and null buffer for these rows.
    fn into_parts(self, what: &str) -> Result<(OffsetBuffer<i32>, Option<NullBuffer>), ArrowError> {
        let offsets = offsets(self.ends, what)?;
        let nulls = self
            .valid
            .filter(|v| v.contains(&false))
            .map(NullBuffer::from);
        Ok((offsets, nulls))
    }
}

/// Row `i`'s range of what `ends` delimits (`None` past the end).
fn row_range(ends: &[usize], i: usize) -> Option<std::ops::Range<usize>> {
    let start = match i {
        0 => 0,
        _ => *ends.get(i - 1)?,
    };
    Some(start..*ends.get(i)?)
}

/// Arrow's 32-bit offsets for rows ending at `ends` (of `what`): past 2^31
/// it is an error, not a panic.
fn offsets(ends: Vec<usize>, what: &str) -> Result<OffsetBuffer<i32>, ArrowError> {
    let rows = ends.len();
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0i32);
    for end in ends {
        offsets.push(i32::try_from(end).map_err(|_| {
            ArrowError::InvalidArgumentError(format!(
                "a column of {rows} rows holds more than Arrow's 2^31 {what}; decode fewer blocks per batch"
            ))
        })?);
    }
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::StringBuilder;
    use arrow_array::Array;

    #[test]
    fn a_text_column_equals_the_builders() {
        let mut ours = TextColumn::default();
        let mut builder = StringBuilder::new();
        for i in 0..50u32 {
            let text = format!("{i}é{}", "x".repeat(i as usize % 7));
            if i % 11 == 3 {
                ours.push_null();
                builder.append_null();
            } else if i % 2 == 0 {
                ours.push(&text);
                builder.append_value(&text);
            } else {
                ours.push_with(|out| out.push_str(&text));
                builder.append_value(&text);
            }
        }
        assert_eq!(ours.get(3), None);
        assert_eq!(ours.get(4), Some("4éxxxx"));
        let expected = builder.finish();
        let array = ours.into_array().unwrap();
        assert_eq!(array, expected);
        assert_eq!(array.null_count(), 5);
    }

    #[test]
    fn a_column_without_nulls_has_no_null_buffer() {
        let mut column = TextColumn::default();
        ["a", "", "bc"].into_iter().for_each(|s| column.push(s));
        let array = column.into_array().unwrap();
        assert!(array.nulls().is_none());
        assert_eq!(array.len(), 3);
    }

    #[test]
    fn a_list_column_reads_back_its_rows() {
        let mut column = TextListColumn::default();
        column.push_with(|items| ["a", "b"].into_iter().for_each(|s| items.push(s)));
        column.push_with(|_| {});
        column.push_with(|items| items.push("c"));
        assert_eq!(column.get(0), ["a", "b"]);
        assert!(column.get(1).is_empty());
        let array = column
            .into_array(Arc::new(Field::new(
                "item",
                arrow_schema::DataType::Utf8,
                true,
            )))
            .unwrap();
        assert_eq!(array.len(), 3);
    }
}
