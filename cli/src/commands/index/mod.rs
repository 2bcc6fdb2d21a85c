//! `ferroscale index`: arguments into the index crate's pipeline
//! ([`ferroscale_index::run_observed`]); the decoding, partitioning and
//! resume rules are all the library's. A progress line on stderr when it
//! is a terminal, the summary on stdout.

mod progress;

use std::fs::File;
use std::io::{BufReader, IsTerminal as _};

use ferroscale_index::source::{in_range, JsonLines};
use ferroscale_index::{run_observed, Decoders, Options, SpecDecoder, Summary};
use ferroscale_value::Value;

use crate::cli::IndexArgs;
use progress::Reporter;

/// Runs the command: the summary (text, or JSON with `--json`).
pub(crate) fn run(args: &IndexArgs, pretty: bool) -> Result<String, String> {
    if let (Some(from), Some(to)) = (args.from, args.to) {
        if to < from {
            return Err(format!("--to {to} is before --from {from}"));
        }
    }
    let mut decoders = decoders(args)?;
    let mut options = Options::new(&args.out);
    options.partition_blocks = args.partition_blocks;
    options.threads = args.threads;
    let total = args.from.zip(args.to).map(|(a, b)| b - a + 1);
    let mut reporter = Reporter::new(std::io::stderr().is_terminal(), total);
    let summary = match &args.source {
        Some(path) => {
            let file =
                File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let blocks = in_range(JsonLines::new(BufReader::new(file)), args.from, args.to);
            run_observed(blocks, &mut decoders, &options, &mut |p| reporter.update(p))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
        None => Err("give --source FILE".to_string()),
    };
    reporter.finish();
    let summary = summary?;
    Ok(if args.json {
        crate::output::json(&summary_value(&summary), pretty)
    } else {
        summary.to_string()
    })
}

/// The runtimes given: `--metadata` files now, `--metadata-dir` on demand.
fn decoders(args: &IndexArgs) -> Result<Decoders, String> {
    if args.metadata.is_empty() && args.metadata_dir.is_none() {
        return Err(
            "give the blocks' runtimes: --metadata FILE (once per runtime) or --metadata-dir DIR"
                .into(),
        );
    }
    let mut decoders = match &args.metadata_dir {
        Some(dir) => Decoders::with_metadata_dir(dir, args.ss58),
        None => Decoders::new(),
    };
    for path in &args.metadata {
        let bytes = crate::input::file(path)?;
        let decoder = SpecDecoder::from_metadata(&bytes, args.ss58)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        decoders.insert(decoder);
    }
    Ok(decoders)
}

fn summary_value(s: &Summary) -> Value {
    let n = |v: u64| Value::UInt(v.into());
    Value::Dict(vec![
        ("blocks".into(), n(s.blocks)),
        ("skipped_blocks".into(), n(s.skipped_blocks)),
        ("extrinsics".into(), n(s.extrinsics)),
        ("calls".into(), n(s.calls)),
        ("events".into(), n(s.events)),
        ("errors".into(), n(s.errors)),
        ("partitions".into(), n(s.partitions)),
        ("skipped_partitions".into(), n(s.skipped_partitions)),
        ("parquet_bytes".into(), n(s.parquet_bytes)),
        // Milliseconds: the value model has no floats.
        ("elapsed_ms".into(), n((s.seconds * 1000.0).round() as u64)),
        (
            "blocks_per_second".into(),
            n(s.blocks_per_second().round() as u64),
        ),
    ])
}
