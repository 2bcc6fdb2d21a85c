//! Follow mode: index a chain as it grows. Each partition is indexed once
//! the node's finalized head has passed its last block, so every partition
//! written is whole and final; between partitions the loop waits for the
//! head, asking again every `poll`. A stop request (the CLI's Ctrl-C or
//! SIGTERM sets the flag) is honoured between partitions and during the
//! waits: what is written is complete, and a run started again resumes
//! from the manifest.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ferroscale_rpc::BlockingClient;

use crate::pipeline::{Decoders, IndexError, Options, Progress, Summary};
use crate::rpc_source::{index_range, RpcOptions};
use crate::source::SourceError;

/// How far one catching-up step goes at most, in partitions: the stop flag
/// is read between steps, so a long catch-up still stops within a few
/// partitions.
const PARTITIONS_PER_STEP: u64 = 8;

/// Indexes from `rpc.from` on, following the finalized head until `stop`
/// is set (`rpc.to` is ignored: the head decides); returns the summary of
/// everything done. `observer` sees each partition, as in
/// [`run_observed`](crate::run_observed).
pub fn follow(
    client: &BlockingClient,
    rpc: &RpcOptions,
    decoders: &mut Decoders,
    options: &Options,
    poll: Duration,
    stop: &AtomicBool,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<Summary, IndexError> {
    let width = rpc.partition_blocks.max(1);
    // Every block from `rpc.from` on is asked for: recorded once (the
    // steps' own ranges are within it).
    let request = crate::manifest::Request {
        from: rpc.from,
        to: None,
    };
    crate::manifest::declare(&options.out, request).map_err(IndexError::Manifest)?;
    let started = Instant::now();
    let mut total = Summary::default();
    let mut next = rpc.from;
    while !stop.load(Ordering::Relaxed) {
        let head = finalized(client, rpc)?;
        // The last block of the last partition the head has passed.
        let Some(whole) = (head.saturating_add(1) / width)
            .checked_mul(width)
            .and_then(|end| end.checked_sub(1))
            .filter(|end| *end >= next)
        else {
            wait(poll, stop);
            continue;
        };
        let last = whole.min(
            next.saturating_add(PARTITIONS_PER_STEP.saturating_mul(width))
                .saturating_sub(1),
        );
        let step_rpc = RpcOptions {
            from: next,
            to: last,
            // Behind the head just asked: every block is final.
            unfinalized: false,
            ..rpc.clone()
        };
        let step_options = Options {
            from: Some(next),
            to: Some(last),
            ..options.clone()
        };
        let done_before = total.clone();
        let summary = index_range(client, step_rpc, decoders, &step_options, &mut |p| {
            let mut sum = add(&done_before, p.summary);
            sum.seconds = started.elapsed().as_secs_f64();
            observer(&Progress {
                summary: &sum,
                ..*p
            })
        })?;
        total = add(&total, &summary);
        next = last + 1;
    }
    total.seconds = started.elapsed().as_secs_f64();
    Ok(total)
}

/// The node's finalized head, retried as block requests are.
fn finalized(client: &BlockingClient, rpc: &RpcOptions) -> Result<u64, IndexError> {
    let inner = client.client();
    client
        .block_on(rpc.range.retry.run(|| inner.finalized_number()))
        .map_err(|e| {
            IndexError::Source(SourceError::Node {
                block: None,
                reason: format!("the finalized head: {e}"),
            })
        })
}

/// Sleeps `poll`, waking early when `stop` is set.
fn wait(poll: Duration, stop: &AtomicBool) {
    let until = Instant::now() + poll;
    while !stop.load(Ordering::Relaxed) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}

/// Two summaries' counts added (the time is the caller's).
fn add(a: &Summary, b: &Summary) -> Summary {
    Summary {
        blocks: a.blocks + b.blocks,
        skipped_blocks: a.skipped_blocks + b.skipped_blocks,
        extrinsics: a.extrinsics + b.extrinsics,
        calls: a.calls + b.calls,
        events: a.events + b.events,
        errors: a.errors + b.errors,
        typed_errors: a.typed_errors + b.typed_errors,
        partitions: a.partitions + b.partitions,
        skipped_partitions: a.skipped_partitions + b.skipped_partitions,
        scale_bytes: a.scale_bytes + b.scale_bytes,
        parquet_bytes: a.parquet_bytes + b.parquet_bytes,
        seconds: a.seconds,
    }
}
