//! A test's output folder and the Parquet dataset written into it, read
//! back. One file for the tests of `ferroscale-index` and of
//! `ferroscale index` (the CLI's `tests/common` includes it by path).

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use ferroscale_index::Table;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// A fresh, empty folder for one test (named after the package, so the
/// CLI's and the library's tests never share one).
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{}-{name}-{}",
        env!("CARGO_PKG_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Every Parquet file of `table` in `out`.
pub(crate) fn files(out: &Path, table: &str) -> Vec<PathBuf> {
    let Ok(listing) = std::fs::read_dir(out.join(table)) else {
        return Vec::new();
    };
    listing
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect()
}

/// Every record batch of a Parquet file.
pub(crate) fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .build()
        .expect("reader")
        .collect::<Result<Vec<_>, _>>()
        .expect("batches")
}

/// Every table's rows, sorted, as text: two datasets equal in this are
/// the same data.
pub(crate) fn rows(out: &Path) -> Vec<String> {
    let mut all = Vec::new();
    for table in Table::ALL {
        let name = table.name();
        for path in files(out, name) {
            for batch in read_parquet(&path) {
                for i in 0..batch.num_rows() {
                    let row: Vec<String> =
                        batch.columns().iter().map(|c| cell_text(c, i)).collect();
                    all.push(format!("{name}: {}", row.join(" | ")));
                }
            }
        }
    }
    all.sort();
    all
}

/// One cell as text: Arrow's own debug rendering of a one-row slice,
/// without its type line.
fn cell_text(column: &arrow_array::ArrayRef, row: usize) -> String {
    format!("{:?}", column.slice(row, 1))
        .lines()
        .skip(1)
        .collect::<Vec<_>>()
        .join(" ")
}
