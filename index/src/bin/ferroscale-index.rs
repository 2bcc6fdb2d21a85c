//! `ferroscale-index --source FILE --metadata FILE [--metadata FILE …] --out DIR
//! [--partition-blocks N] [--threads N] [--ss58 N]`: blocks of a JSON-lines
//! file into Parquet partitions, then a one-line summary. The logic is the
//! library's ([`ferroscale_index::run`]); this only reads arguments.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use ferroscale_index::source::JsonLines;
use ferroscale_index::{run, Decoders, Options, SpecDecoder};

const USAGE: &str =
    "usage: ferroscale-index --source FILE --metadata FILE [--metadata FILE ...] --out DIR \
                     [--partition-blocks N] [--threads N] [--ss58 N]";

fn main() -> ExitCode {
    match main_inner() {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ferroscale-index: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main_inner() -> Result<String, String> {
    let mut args = std::env::args().skip(1);
    let (mut source, mut metadata, mut out) = (None, Vec::new(), None);
    let (mut partition_blocks, mut threads, mut ss58) = (None, None, None);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v:?}: {e}"));
        match flag.as_str() {
            "--source" => source = Some(value()?),
            "--metadata" => metadata.push(value()?),
            "--out" => out = Some(value()?),
            "--partition-blocks" => partition_blocks = Some(number(value()?)?),
            "--threads" => threads = Some(number(value()?)? as usize),
            "--ss58" => ss58 = Some(number(value()?)? as u16),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let source = source.ok_or_else(|| format!("--source is required\n{USAGE}"))?;
    let out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    if metadata.is_empty() {
        return Err(format!("at least one --metadata is required\n{USAGE}"));
    }
    let mut decoders = Decoders::new();
    for path in &metadata {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        decoders
            .insert(SpecDecoder::from_metadata(&bytes, ss58).map_err(|e| format!("{path}: {e}"))?);
    }
    let file = File::open(&source).map_err(|e| format!("{source}: {e}"))?;
    let mut options = Options::new(out);
    if let Some(n) = partition_blocks {
        options.partition_blocks = n;
    }
    options.threads = threads;
    let summary = run(JsonLines::new(BufReader::new(file)), &decoders, &options)
        .map_err(|e| format!("{source}: {e}"))?;
    Ok(summary.to_string())
}
