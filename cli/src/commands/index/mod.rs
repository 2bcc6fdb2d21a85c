//! `ferroscale index`: arguments into the index crate's pipeline
//! ([`ferroscale_index::run_observed`]) over its file or RPC source; the
//! decoding, partitioning, runtime tracking and resume rules are all the
//! library's. A progress line on stderr when it
//! is a terminal, the summary on stdout.

mod progress;

use std::fs::File;
use std::io::{BufReader, IsTerminal as _};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ferroscale_index::rpc_source::{index_range, RpcOptions};
use ferroscale_index::source::{in_range, JsonLines};
use ferroscale_index::{run_observed, Decoders, Options, Presets, Summary};
use ferroscale_rpc::{BlockingClient, ClientConfig, RangeOptions, RetryPolicy};
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
    if let Some(dir) = &args.check {
        let range = args.from.zip(args.to);
        let gaps = if args.allow_gaps {
            ferroscale_index::Gaps::Allowed
        } else {
            ferroscale_index::Gaps::Refused
        };
        let report = ferroscale_index::check::check(dir, range, gaps);
        return if report.is_ok() {
            Ok(report.to_string())
        } else {
            Err(report.to_string())
        };
    }
    let out = args.out.as_deref().ok_or("give --out DIR")?;
    let metadata_dir = match (&args.url, &args.metadata_dir) {
        (Some(_), None) => Some(out.join("metadata")),
        (_, dir) => dir.clone(),
    };
    // This process is the indexer's own: its large buffers are reused from
    // one partition to the next instead of being faulted in anew.
    ferroscale_index::allocator::keep_freed_memory();
    let mut decoders = decoders(args, metadata_dir.as_deref())?;
    let mut options = Options::new(out);
    options.partition_blocks = args.partition_blocks;
    options.threads = args.threads;
    options.from = args.from;
    options.to = args.to;
    if args.allow_gaps {
        options.gaps = ferroscale_index::Gaps::Allowed;
    }
    options.typed = args.typed;
    let total = args.from.zip(args.to).map(|(a, b)| b - a + 1);
    let mut reporter = Reporter::new(std::io::stderr().is_terminal(), total);
    let summary = match (&args.source, &args.url, metadata_dir) {
        (Some(path), _, _) => {
            let file =
                File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let blocks = in_range(JsonLines::new(BufReader::new(file)), args.from, args.to);
            options.source = std::fs::canonicalize(path)
                .unwrap_or_else(|_| path.clone())
                .display()
                .to_string();
            run_observed(blocks, &mut decoders, &options, &mut |p| reporter.update(p))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
        (None, Some(url), Some(dir)) => {
            options.source = url.clone();
            let timeout = std::time::Duration::from_secs(args.timeout.max(1));
            let default = ClientConfig::default();
            let config = ClientConfig {
                request_timeout: timeout,
                // A handshake that hangs is a timeout too, no longer than
                // the requests'.
                connect_timeout: default.connect_timeout.min(timeout),
                ..default
            };
            let retry = RetryPolicy {
                max_attempts: args.retries.saturating_add(1),
                ..RetryPolicy::default()
            };
            let client = BlockingClient::connect_retrying(url, config, &retry)
                .map_err(|e| format!("{url}: {e}"))?;
            let rpc = RpcOptions {
                from: args.from.unwrap_or(0),
                to: args.to.unwrap_or(0),
                partition_blocks: args.partition_blocks,
                out: out.to_path_buf(),
                metadata_dir: dir,
                range: RangeOptions {
                    concurrency: args.concurrency.max(1),
                    batch: args.batch.max(1),
                    retry,
                    ..RangeOptions::default()
                },
                unfinalized: args.unfinalized,
            };
            if args.follow {
                let stop = stop_on_signals();
                let poll = std::time::Duration::from_secs_f64(args.poll.clamp(0.05, 3600.0));
                let followed = ferroscale_index::follow::follow(
                    &client,
                    &rpc,
                    &mut decoders,
                    &options,
                    poll,
                    &stop,
                    &mut |p| reporter.update(p),
                );
                reporter.finish();
                let summary = followed.map_err(|e| format!("{url}: {e}"))?;
                return Ok(render(&summary, args, pretty));
            }
            if args.to.is_none() {
                return Err("give --to B, or --follow".into());
            }
            index_range(&client, rpc, &mut decoders, &options, &mut |p| {
                reporter.update(p)
            })
            .map_err(|e| format!("{url}: {e}"))
        }
        _ => Err("give --source FILE or --url URL".to_string()),
    };
    reporter.finish();
    Ok(render(&summary?, args, pretty))
}

/// The summary as the command prints it: a line, or JSON with `--json`.
fn render(summary: &Summary, args: &IndexArgs, pretty: bool) -> String {
    if args.json {
        crate::output::json(&summary_value(summary), pretty)
    } else {
        summary.to_string()
    }
}

/// A flag set by Ctrl-C or SIGTERM, which `--follow` reads between
/// partitions: it then stops with every partition written whole.
fn stop_on_signals() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{signal, SignalKind};
                let Ok(mut term) = signal(SignalKind::terminate()) else {
                    return;
                };
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            #[cfg(not(unix))]
            let _ = tokio::signal::ctrl_c().await;
        });
        flag.store(true, Ordering::Relaxed);
    });
    stop
}

/// The runtimes given: `--metadata` files now, the metadata folder
/// (`--metadata-dir`, or the one a `--url` run fills) on demand.
fn decoders(args: &IndexArgs, metadata_dir: Option<&Path>) -> Result<Decoders, String> {
    if args.metadata.is_empty() && metadata_dir.is_none() {
        return Err(
            "give the blocks' runtimes: --metadata FILE (once per runtime) or --metadata-dir DIR"
                .into(),
        );
    }
    let presets = || Presets {
        names: args.presets.clone(),
        dir: args.presets_dir.clone(),
    };
    let mut decoders = match metadata_dir {
        Some(dir) => Decoders::with_metadata_dir(dir, args.ss58).with_presets(presets()),
        None => Decoders::new(),
    };
    for path in &args.metadata {
        let bytes = crate::input::file(path)?;
        let decoder = presets()
            .decoder(&bytes, args.ss58)
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
