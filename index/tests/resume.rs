//! Resume by block number: whatever changes between two runs (the range,
//! the partition width, a source that grew, a source with a gap, a run
//! killed between committing a partition's entry and its files), the
//! dataset holds every block of the range once, or the run stops with an
//! error naming the block or the file. Each scenario reads the whole
//! dataset back (every `blocks` and `events` file, as a reader globbing
//! `*.parquet` does) and checks it with `check::check`.
//!
//! The blocks are Polkadot block 18,468,942 (its extrinsics and 58 events)
//! numbered 1000 onwards: the numbers are the source's word, the bytes real.

mod common;

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use common::*;
use ferroscale_index::check::check;
use ferroscale_index::pipeline::decode_blocks;
use ferroscale_index::source::SourceError;
use ferroscale_index::{
    partition, run, Block, Gaps, IndexError, Manifest, Options, Summary, Table,
};

const EVENTS_PER_BLOCK: usize = 58;

/// Blocks `numbers` of the stand-in chain.
fn chain(numbers: impl IntoIterator<Item = u64>) -> Vec<Block> {
    let template = block_18468942();
    numbers
        .into_iter()
        .map(|number| Block {
            number,
            hash: format!("0x{number:064x}"),
            ..template.clone()
        })
        .collect()
}

/// A run over `blocks` into `out`.
fn index(
    blocks: Vec<Block>,
    out: &Path,
    width: u64,
    range: (Option<u64>, Option<u64>),
    gaps: Gaps,
) -> Result<Summary, IndexError> {
    let mut options = Options::new(out);
    options.partition_blocks = width;
    options.threads = Some(2);
    (options.from, options.to) = range;
    options.gaps = gaps;
    options.source = "resume test".into();
    let source = blocks
        .into_iter()
        .filter(|b| range.0.is_none_or(|a| b.number >= a))
        .map(Ok::<_, SourceError>);
    run(source, &mut decoders(), &options)
}

fn whole(first: u64, last: u64) -> (Option<u64>, Option<u64>) {
    (Some(first), Some(last))
}

/// Every block number in the dataset's `blocks` files (sorted, repeats
/// kept) and how many `events` rows it has.
fn dataset(out: &Path) -> (Vec<u64>, usize) {
    let files = |table: Table| -> Vec<PathBuf> {
        let dir = out.join(table.name());
        let Ok(listing) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        listing
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
            .collect()
    };
    let mut numbers = Vec::new();
    for path in files(Table::Blocks) {
        for batch in read_parquet(&path) {
            let column = batch.column_by_name("number").unwrap();
            numbers.extend(column.as_primitive::<UInt64Type>().values().iter().copied());
        }
    }
    numbers.sort_unstable();
    let events = files(Table::Events)
        .iter()
        .flat_map(|p| read_parquet(p))
        .map(|b| b.num_rows())
        .sum();
    (numbers, events)
}

/// The dataset holds exactly `expected`, each once, with their events, and
/// checks out.
fn assert_holds(out: &Path, expected: impl IntoIterator<Item = u64>, range: Option<(u64, u64)>) {
    let expected: Vec<u64> = expected.into_iter().collect();
    let (numbers, events) = dataset(out);
    assert_eq!(numbers, expected, "the blocks in the dataset");
    assert_eq!(events, EVENTS_PER_BLOCK * expected.len(), "the events");
    let report = check(out, range, Gaps::Refused);
    assert!(report.is_ok(), "{report}");
}

#[test]
fn a_longer_range_adds_only_the_new_blocks() {
    let out = temp_dir("resume-longer").join("out");
    let first = index(
        chain(1000..=1012),
        &out,
        1000,
        whole(1000, 1012),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!(first.blocks, 13);
    // The same file, now reaching 1014: 1013 and 1014 are decoded, the
    // rest skipped.
    let second = index(
        chain(1000..=1014),
        &out,
        1000,
        whole(1000, 1014),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!((second.blocks, second.skipped_blocks), (2, 13));
    assert_eq!(second.skipped_partitions, 1);
    assert_holds(&out, 1000..=1014, Some((1000, 1014)));
    // And a shorter one decodes nothing.
    let third = index(
        chain(1000..=1014),
        &out,
        1000,
        whole(1003, 1009),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!((third.blocks, third.skipped_blocks), (0, 7));
    assert_holds(&out, 1000..=1014, Some((1000, 1014)));
}

#[test]
fn another_partition_width_neither_doubles_nor_skips() {
    let out = temp_dir("resume-width").join("out");
    index(
        chain(1000..=1019),
        &out,
        5,
        whole(1000, 1019),
        Gaps::Refused,
    )
    .unwrap();
    let second = index(
        chain(1000..=1030),
        &out,
        7,
        whole(1000, 1030),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!((second.blocks, second.skipped_blocks), (11, 20));
    // Cut on the new grid (multiples of 7: 1015, 1022, 1029) around what
    // was done.
    let partitions: Vec<_> = Manifest::scan(&out).unwrap().partitions().collect();
    assert_eq!(
        partitions,
        [
            (1000, 1004),
            (1005, 1009),
            (1010, 1014),
            (1015, 1019),
            (1020, 1021),
            (1022, 1028),
            (1029, 1030)
        ]
    );
    assert_holds(&out, 1000..=1030, None);
}

#[test]
fn a_source_that_grew_is_resumed_where_it_ended() {
    let out = temp_dir("resume-grown").join("out");
    // No range given: the file's blocks, wherever they end.
    index(chain(1000..=1029), &out, 1000, (None, None), Gaps::Refused).unwrap();
    let second = index(chain(1000..=1059), &out, 1000, (None, None), Gaps::Refused).unwrap();
    assert_eq!((second.blocks, second.skipped_blocks), (30, 30));
    assert_holds(&out, 1000..=1059, None);
}

#[test]
fn a_block_missing_from_the_source_is_an_error_after_the_blocks_before_it() {
    let out = temp_dir("resume-gap").join("out");
    let with_gap = || chain((1000..=1019).filter(|n| *n != 1010));
    let error = index(with_gap(), &out, 1000, (None, None), Gaps::Refused).unwrap_err();
    assert!(
        matches!(
            error,
            IndexError::Missing {
                block: 1010,
                next: Some(1011)
            }
        ),
        "{error}"
    );
    assert!(
        error.to_string().contains("block 1010 is missing"),
        "{error}"
    );
    // The blocks read before the gap are written; nothing after it.
    assert_holds(&out, 1000..=1009, None);

    // A sample allowed to have gaps: the entry lists 1010 as absent, the
    // range is done, and a check of it passes.
    let sampled = temp_dir("resume-gap-allowed").join("out");
    let summary = index(with_gap(), &sampled, 1000, (None, None), Gaps::Allowed).unwrap();
    assert_eq!(summary.blocks, 19);
    let entry = Manifest::read_entry(&sampled, 1000, 1019).unwrap();
    assert_eq!(entry.absent, [(1010, 1010)]);
    assert_holds(
        &sampled,
        (1000..=1019).filter(|n| *n != 1010),
        Some((1000, 1019)),
    );
}

#[test]
fn a_range_past_the_end_of_the_source_is_an_error() {
    let out = temp_dir("resume-past-end").join("out");
    let error = index(
        chain(1000..=1019),
        &out,
        1000,
        whole(1000, 1100),
        Gaps::Refused,
    )
    .unwrap_err();
    assert!(
        matches!(
            error,
            IndexError::Missing {
                block: 1020,
                next: None
            }
        ),
        "{error}"
    );
    // What the source had is written and resumable.
    assert_holds(&out, 1000..=1019, Some((1000, 1019)));
    let report = check(&out, Some((1000, 1100)), Gaps::Refused);
    assert_eq!(report.problems, ["blocks 1020..=1100 are in no partition"]);
    // Without a range, the check holds the dataset to the range the run
    // was asked for, which the manifest recorded before the run failed.
    let report = check(&out, None, Gaps::Refused);
    assert_eq!(
        report.problems,
        ["blocks 1020..=1100 are in no partition, though a run was asked for blocks 1000..=1100"]
    );
    // A range that starts before the source does.
    let out = temp_dir("resume-before-start").join("out");
    let error = index(
        chain(1000..=1019),
        &out,
        1000,
        whole(990, 1019),
        Gaps::Refused,
    )
    .unwrap_err();
    assert!(
        matches!(
            error,
            IndexError::Missing {
                block: 990,
                next: Some(1000)
            }
        ),
        "{error}"
    );
}

#[test]
fn a_partition_over_done_blocks_or_with_a_gap_is_refused() {
    let out = temp_dir("resume-refused").join("out");
    index(chain(1000..=1009), &out, 1000, (None, None), Gaps::Refused).unwrap();
    let decode = |numbers: Vec<u64>| decode_blocks(&chain(numbers), &decoders()).unwrap();
    // Blocks 1005–1014: 1005–1009 are done.
    let error = partition::write_partition(
        &out,
        1005,
        1014,
        &decode((1005..=1014).collect()),
        "test",
        Gaps::Refused,
    )
    .and_then(partition::Staged::commit)
    .unwrap_err();
    assert!(
        error.refused && error.reason.contains("blocks 1000..=1009 are done"),
        "{error}"
    );
    // A batch that lacks a block of its range, or has none.
    let lacking = decode((1010..=1019).filter(|n| *n != 1015).collect());
    let error = partition::write_partition(&out, 1010, 1019, &lacking, "test", Gaps::Refused)
        .and_then(partition::Staged::commit)
        .unwrap_err();
    assert!(
        error.refused && error.reason.contains("block 1015 is missing"),
        "{error}"
    );
    let error =
        partition::write_partition(&out, 1020, 1029, &decode(Vec::new()), "test", Gaps::Refused)
            .and_then(partition::Staged::commit)
            .unwrap_err();
    assert!(error.reason.contains("no blocks"), "{error}");
    assert_holds(&out, 1000..=1009, None);
}

#[test]
fn files_the_manifest_does_not_list_stop_the_run() {
    let out = temp_dir("resume-unlisted").join("out");
    index(chain(1000..=1009), &out, 1000, (None, None), Gaps::Refused).unwrap();
    // A partition copied in by hand (or left by a writer without a
    // manifest): readers would count its blocks twice.
    let stray = out.join("events").join("blocks_1000_1004.parquet");
    std::fs::copy(
        partition::partition_path(&out, Table::Events, 1000, 1009),
        &stray,
    )
    .unwrap();
    let error = index(chain(1000..=1019), &out, 1000, (None, None), Gaps::Refused).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("blocks_1000_1004.parquet is not in the manifest"),
        "{error}"
    );
    let report = check(&out, None, Gaps::Refused);
    assert_eq!(report.problems.len(), 1, "{report}");
    std::fs::remove_file(&stray).unwrap();
    index(chain(1000..=1019), &out, 1000, (None, None), Gaps::Refused).unwrap();
    assert_holds(&out, 1000..=1019, None);
}

#[test]
fn files_carry_their_provenance() {
    let out = temp_dir("resume-provenance").join("out");
    index(chain(1000..=1004), &out, 1000, (None, None), Gaps::Refused).unwrap();
    let path = partition::partition_path(&out, Table::Events, 1000, 1004);
    let file = std::fs::File::open(&path).unwrap();
    let reader = parquet::file::serialized_reader::SerializedFileReader::new(file).unwrap();
    let kv = parquet::file::reader::FileReader::metadata(&reader)
        .file_metadata()
        .key_value_metadata()
        .cloned()
        .unwrap_or_default();
    let value = |key: &str| {
        kv.iter()
            .find(|k| k.key == key)
            .and_then(|k| k.value.clone())
            .unwrap_or_else(|| panic!("no {key} in {kv:?}"))
    };
    assert_eq!(value("ferroscale.source"), "resume test");
    assert_eq!(value("ferroscale.first_block"), "1000");
    assert_eq!(value("ferroscale.last_block"), "1004");
    assert_eq!(value("ferroscale.spec_versions"), "1000001");
    assert_eq!(
        value("ferroscale.decoder"),
        ferroscale_index::manifest::DECODER
    );
    let entry = Manifest::read_entry(&out, 1000, 1004).unwrap();
    assert_eq!(
        entry.files[Table::Events as usize].rows,
        5 * EVENTS_PER_BLOCK as u64
    );
}

#[test]
fn the_manifest_records_the_ranges_runs_were_asked_for() {
    use ferroscale_index::manifest::{requests, Request};
    let out = temp_dir("resume-requested").join("out");
    let asked = |from, to| Request { from, to: Some(to) };
    // Two runs over ranges apart: the blocks between them are no gap.
    index(
        chain(1000..=1009),
        &out,
        5,
        whole(1000, 1009),
        Gaps::Refused,
    )
    .unwrap();
    index(
        chain(1100..=1104),
        &out,
        5,
        whole(1100, 1104),
        Gaps::Refused,
    )
    .unwrap();
    let report = check(&out, None, Gaps::Refused);
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.requested, [asked(1000, 1009), asked(1100, 1104)]);
    assert!(
        report
            .to_string()
            .contains("runs asked for blocks 1000..=1009, 1100..=1104"),
        "{report}"
    );
    // A rerun of a range within one recorded records nothing more.
    index(
        chain(1000..=1009),
        &out,
        5,
        whole(1002, 1006),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!(requests(&out).unwrap().len(), 2);

    // A manifest written before requests were recorded (the records
    // removed here) reads as it did: held to the span of its partitions.
    for item in std::fs::read_dir(out.join("_manifest")).unwrap() {
        let path = item.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name.starts_with("requested_") {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let report = check(&out, None, Gaps::Refused);
    assert!(report.requested.is_empty());
    assert_eq!(report.problems, ["blocks 1010..=1099 are in no partition"]);
    // A run over it fills the gap, every block once.
    let summary = index(
        chain(1000..=1104),
        &out,
        5,
        whole(1000, 1104),
        Gaps::Refused,
    )
    .unwrap();
    assert_eq!((summary.blocks, summary.skipped_blocks), (90, 15));
    assert_holds(&out, 1000..=1104, None);
}
