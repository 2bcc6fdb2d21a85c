//! Columnar decoding throughput: the real Polkadot blocks 18,468,942 (58
//! events, 4 extrinsics, one a 50 KB `ParaInherent.enter`) and 10,000,000,
//! repeated under consecutive numbers, decoded to Arrow record batches and
//! through the whole pipeline to Parquet, on 1 thread and on every core.
//!
//! `cargo bench -p ferroscale-index` (`-- --blocks N` to change the count).
//! Prints figures; asserts nothing about time. The decode to Arrow is timed
//! for the five generic tables and, in the same run, with the typed tables
//! too (`--typed`'s path, [`decode_blocks_typed`]) and for the typed tables
//! alone ([`decode_blocks_typed_only`]), each with its ratio to the generic
//! one. `-- --typed`: the streamed and pipeline cases write the
//! typed tables too.
//!
//! `-- --only node`: end to end from the loopback test node
//! (`ferroscale_rpc::test_server`, in this process) serving block
//! 18,468,942 under N numbers: fetched over HTTP and over WebSocket,
//! decoded and written to Parquet (`ferroscale index --url`'s path), on 1
//! thread and on every core, one block a request and 16 blocks a JSON-RPC
//! batch, beside the fetch alone, the decode to Arrow alone and the
//! JSON-lines pipeline on the same blocks.

use std::time::Instant;

use ferroscale_dynamic::Document;
use ferroscale_index::pipeline::{decode_blocks, decode_blocks_typed, decode_blocks_typed_only};
use ferroscale_index::source::JsonLines;
use ferroscale_index::{decode_block, run, Block, Decoders, Options, SpecDecoder, Table};

fn fixture_block(number: u64, spec_version: u32, dir: &str, events: bool) -> Block {
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(&format!(
        "{dir}/extrinsics.json"
    )))
    .expect("json");
    Block {
        number,
        hash: format!("0x{:064x}", number),
        spec_version,
        extrinsics: list
            .iter()
            .map(|h| ferroscale_fixtures::decode_hex(h).expect("hex"))
            .collect(),
        events: events.then(|| ferroscale_fixtures::read_hex(&format!("{dir}/events.hex"))),
        header: None,
        finalized: None,
    }
}

fn repeated(template: &Block, count: u64) -> Vec<Block> {
    (0..count)
        .map(|i| Block {
            number: i,
            ..template.clone()
        })
        .collect()
}

fn decode_to_arrow(blocks: &[Block], decoders: &Decoders, chunk: usize) -> usize {
    let mut rows_out = 0;
    for chunk in blocks.chunks(chunk) {
        let tables = decode_blocks(chunk, decoders).expect("tables");
        rows_out += Table::ALL
            .iter()
            .map(|t| tables.num_rows(*t))
            .sum::<usize>();
    }
    rows_out
}

/// [`decode_to_arrow`] with the typed tables too (the generic ones are
/// still made: `--typed` writes both); the rows of the typed tables.
fn decode_to_arrow_typed(blocks: &[Block], decoders: &Decoders, chunk: usize) -> usize {
    let mut rows_out = 0;
    for chunk in blocks.chunks(chunk) {
        let tables = decode_blocks_typed(chunk, decoders).expect("typed tables");
        rows_out += tables.typed().iter().map(|t| t.num_rows()).sum::<usize>();
    }
    rows_out
}

/// The typed tables alone, read from the bytes by the runtimes' plans
/// (no generic table made); their rows.
fn decode_to_arrow_typed_only(blocks: &[Block], decoders: &Decoders, chunk: usize) -> usize {
    let mut rows_out = 0;
    for chunk in blocks.chunks(chunk) {
        let tables = decode_blocks_typed_only(chunk, decoders).expect("typed tables");
        rows_out += tables.typed().iter().map(|t| t.num_rows()).sum::<usize>();
    }
    rows_out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut count = 2000u64;
    // `--only streamed|arrow|pipeline|node`: one part (`--arrow-only`: `--only
    // arrow`, for a profiler; `--only typed`: the typed tables alone, on
    // one thread, for a profiler).
    let mut only: Option<String> = None;
    let mut typed = false;
    #[cfg(feature = "rpc")]
    let mut node_filter = NodeFilter::default();
    while let Some(a) = args.next() {
        if a == "--keep-freed-memory" {
            // As `ferroscale index` runs (see `allocator`).
            println!(
                "malloc keeps freed memory: {}",
                ferroscale_index::allocator::keep_freed_memory()
            );
        } else if a == "--typed" {
            typed = true;
        } else if a == "--arrow-only" {
            only = Some("arrow".into());
        } else if a == "--only" {
            only = args.next();
            assert!(
                matches!(
                    only.as_deref(),
                    Some("streamed" | "arrow" | "pipeline" | "node" | "typed")
                ),
                "--only streamed|arrow|pipeline|node|typed"
            );
        } else if cfg!(feature = "rpc") && (a == "--transport" || a == "--batch") {
            // `--only node`: one transport (`http` or `websocket`), one
            // batch size (1 or 16).
            let value = args.next();
            #[cfg(feature = "rpc")]
            match a.as_str() {
                "--transport" => node_filter.transport = value,
                _ => node_filter.batch = value.and_then(|n| n.parse().ok()),
            }
            #[cfg(not(feature = "rpc"))]
            drop(value);
        } else if a == "--blocks" {
            count = args
                .next()
                .and_then(|n| n.parse().ok())
                .expect("--blocks N");
        }
    }
    let mut decoders = Decoders::new();
    for m in [
        "metadata/polkadot-v14-spec1000001.scale",
        "metadata/polkadot-v14-spec9180.scale",
    ] {
        decoders.insert(SpecDecoder::from_metadata(&ferroscale_fixtures::read(m), None).expect(m));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cases = [
        (
            "block 18468942 (4 xt, 58 events)",
            fixture_block(0, 1_000_001, "payloads/polkadot-block-18468942", true),
        ),
        (
            "block 10000000 (2 xt, no events)",
            fixture_block(0, 9180, "payloads/polkadot-block-10000000", false),
        ),
    ];
    println!("ferroscale-index columnar benchmark: {count} blocks per case, {cores} cores");
    if only.as_deref() == Some("node") {
        #[cfg(feature = "rpc")]
        node_cases(count, &cases[0].1, &mut decoders, cores, &node_filter);
        #[cfg(not(feature = "rpc"))]
        eprintln!("--only node: the RPC source is not built (the `rpc` feature)");
        return;
    }
    // Memory over a long range: blocks made one at a time by an iterator
    // (the source never holds the range), through the pipeline to Parquet;
    // the peak resident size after the run must not grow with the range.
    // First, before the other cases hold whole ranges in memory.
    let template = &cases[0].1;
    let runs = |part: &str| only.as_deref().is_none_or(|o| o == part);
    let streamed = if runs("streamed") {
        vec![count, 4 * count]
    } else {
        vec![]
    };
    for n in streamed {
        let dir =
            std::env::temp_dir().join(format!("ferroscale-index-mem-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut options = Options::new(&dir);
        options.partition_blocks = 100;
        options.typed = typed;
        let source = (0..n).map(|i| {
            Ok(Block {
                number: i,
                ..template.clone()
            })
        });
        let summary = run(source, &mut decoders, &options).expect("run");
        println!(
            "streamed {n} blocks of 18468942 in 100-block partitions{}: {:.0} blocks/s, peak resident {} MB",
            if typed { ", typed tables too" } else { "" },
            summary.blocks as f64 / summary.seconds,
            peak_resident_mb().map_or("?".into(), |m| m.to_string())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    if only.as_deref() == Some("typed") {
        for (name, template) in &cases {
            let blocks = repeated(template, count);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            // Warm-up (the runtime's tables and plans are built on first use).
            pool.install(|| decode_to_arrow_typed_only(&blocks[..50], &decoders, 500));
            let t = Instant::now();
            let rows = pool.install(|| decode_to_arrow_typed_only(&blocks, &decoders, 500));
            let s = t.elapsed().as_secs_f64();
            println!(
                "{name}: the typed tables alone, 1 thread: {:.3} ms/block, {rows} rows",
                s * 1e3 / count as f64
            );
        }
        return;
    }
    for (name, template) in &cases {
        if !runs("arrow") && !runs("pipeline") {
            break;
        }
        let blocks = repeated(template, count);
        if runs("arrow") {
            arrow_cases(name, template, &blocks, &decoders, cores);
        }
        if !runs("pipeline") {
            continue;
        }
        // The whole pipeline, from JSON lines to Parquet partitions.
        let dir =
            std::env::temp_dir().join(format!("ferroscale-index-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let text: String = blocks
            .iter()
            .map(|b| ferroscale_index::source::block_to_json_line(b) + "\n")
            .collect();
        if only.is_none() {
            // Writing alone: one 500-block partition's rows to Parquet (the
            // pipeline's writer stage), with the JSON text it holds.
            let tables =
                decode_blocks(&blocks[..blocks.len().min(500)], &decoders).expect("tables");
            let json_mb = [Table::Extrinsics, Table::Calls, Table::Events]
                .iter()
                .flat_map(|t| tables.batches(*t))
                .map(|b| {
                    let args = b.column_by_name("args").expect("args");
                    args.to_data().buffers()[1].len()
                })
                .sum::<usize>() as f64
                / 1e6;
            let t = Instant::now();
            let parquet = ferroscale_index::partition::write_partition(
                &dir,
                0,
                499,
                &tables,
                "benchmark",
                ferroscale_index::Gaps::Refused,
            )
            .and_then(ferroscale_index::partition::Staged::commit)
            .expect("write");
            let s = t.elapsed().as_secs_f64();
            println!(
                "{name}: writing one 500-block partition: {:.3} s ({:.3} ms/block), {json_mb:.1} MB of JSON args, {:.2} MB Parquet",
                s,
                s * 1e3 / 500.0,
                parquet as f64 / 1e6
            );
            let _ = std::fs::remove_dir_all(&dir);
            // The source alone (the pipeline's reader stage, one thread).
            let t = Instant::now();
            let read = JsonLines::new(std::io::Cursor::new(text.as_bytes()))
                .map(|b| b.expect("line").extrinsics.len())
                .sum::<usize>();
            let s = t.elapsed().as_secs_f64();
            println!(
                "{name}: JSON lines source alone: {:.0} blocks/s, {:.3} ms/block ({read} extrinsics)",
                count as f64 / s,
                s * 1e3 / count as f64
            );
        }
        for threads in [1, cores] {
            let out = dir.join(format!("out-{threads}"));
            let mut options = Options::new(&out);
            options.partition_blocks = 500;
            options.threads = Some(threads);
            options.typed = typed;
            let cpu = cpu_seconds();
            let summary = run(
                JsonLines::new(std::io::Cursor::new(text.as_bytes())),
                &mut decoders,
                &options,
            )
            .expect("run");
            // The reader's thread included: CPU over wall time is how many
            // cores the run kept busy.
            let cpu = cpu_seconds().zip(cpu).map_or("?".into(), |(b, a)| {
                format!("{:.3}", (b - a) * 1e3 / count as f64)
            });
            println!(
                "{name}: pipeline to Parquet{}, {threads} thread(s): {summary}, {:.1} MB Parquet, \
                 CPU {cpu} ms/block",
                if typed { " (typed tables too)" } else { "" },
                summary.parquet_bytes as f64 / 1e6
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Where one thread's time goes, then the decode to Arrow on 1 thread and on
/// every core.
fn arrow_cases(name: &str, template: &Block, blocks: &[Block], decoders: &Decoders, cores: usize) {
    let count = blocks.len();
    let mb = blocks.iter().map(|b| b.scale_bytes()).sum::<usize>() as f64 / 1e6;
    // The dynamic decode alone (into the flat `Document` the rows are read
    // from), then rows (+ JSON text).
    let spec = decoders.get(template.spec_version).expect("spec");
    let ctx = spec.context();
    let time_decode = |document: bool| {
        let t = Instant::now();
        for b in blocks {
            let items = b
                .events
                .iter()
                .filter_map(|e| Some((spec.events_type()?, e)))
                .chain(b.extrinsics.iter().map(|x| (spec.extrinsic_type(), x)));
            for (ty, bytes) in items {
                if document {
                    std::hint::black_box(Document::decode(&ctx, ty, bytes).expect("decode"));
                } else {
                    std::hint::black_box(
                        ferroscale_dynamic::decode_value(&ctx, ty, bytes).expect("decode"),
                    );
                }
            }
        }
        t.elapsed().as_secs_f64()
    };
    let tree = time_decode(false);
    let values = time_decode(true);
    let t = Instant::now();
    let all_rows: Vec<_> = blocks.iter().map(|b| decode_block(b, Some(spec))).collect();
    let rows = t.elapsed().as_secs_f64();
    println!(
        "{name}: 1 thread: dynamic decode to Value {:.3} ms/block, to Document {:.3} ms/block, \
         + rows and JSON {:.3} ms/block",
        tree * 1e3 / count as f64,
        values * 1e3 / count as f64,
        (rows - values) * 1e3 / count as f64
    );
    drop(all_rows);
    // Per thread count: the generic tables, then the typed tables too, one
    // after the other in this run (same blocks, same warm memory), so that
    // their ratio is not the machine's drift between two runs. Each pass
    // is the best of three, the thread counts taking turns, so that a
    // burst of another process's work lands on one try, not on one side
    // of a ratio.
    type Decode = fn(&[Block], &Decoders, usize) -> usize;
    let passes: [(&str, Decode); 3] = [
        ("to Arrow", decode_to_arrow),
        ("to Arrow with the typed tables", decode_to_arrow_typed),
        ("the typed tables alone", decode_to_arrow_typed_only),
    ];
    let thread_counts = [1, cores];
    let pools: Vec<_> = thread_counts
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    // (seconds, CPU seconds, rows) per thread count and pass: the best try.
    let mut best = [[(f64::INFINITY, None::<f64>, 0); 3]; 2];
    for _try in 0..3 {
        for (t, pool) in pools.iter().enumerate() {
            for (i, (_, decode)) in passes.iter().enumerate() {
                // Warm-up, then the measured pass.
                pool.install(|| decode(&blocks[..blocks.len().min(50)], decoders, 500));
                let t0 = Instant::now();
                let cpu = cpu_seconds();
                let rows = pool.install(|| decode(blocks, decoders, 500));
                let s = t0.elapsed().as_secs_f64();
                // CPU time of the whole process: on more threads, what it
                // adds over one thread is contention (allocator, page
                // faults, memory bandwidth), not waiting.
                let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
                if s < best[t][i].0 {
                    best[t][i] = (s, cpu, rows);
                }
            }
        }
    }
    for (t, &threads) in thread_counts.iter().enumerate() {
        for (i, (what, _)) in passes.iter().enumerate() {
            let (s, cpu, rows) = best[t][i];
            let cpu = cpu.map_or("?".into(), |c| format!("{:.3}", c * 1e3 / count as f64));
            let mut ratios = Vec::new();
            if i > 0 {
                ratios.push(format!("{:.2}x the generic tables' time", s / best[t][0].0));
            }
            if t > 0 {
                ratios.push(format!("{:.2}x over 1 thread", best[0][i].0 / s));
            }
            println!(
                "{name}: {what}, {threads} thread(s): {:.0} blocks/s, {:.1} MB/s, {:.3} ms/block, \
                 CPU {cpu} ms/block, {rows} rows{}",
                count as f64 / s,
                mb / s,
                s * 1e3 / count as f64,
                ratios.iter().map(|r| format!(", {r}")).collect::<String>()
            );
        }
    }
}

/// Which of the node cases run (`--transport`, `--batch`; all by default).
#[cfg(feature = "rpc")]
#[derive(Default)]
struct NodeFilter {
    transport: Option<String>,
    batch: Option<usize>,
}

/// End to end from the loopback node: fetch (HTTP, WebSocket), decode,
/// write, on 1 thread and on `cores`, beside the fetch alone, the decode
/// to Arrow alone and the JSON-lines pipeline, all over the same `count`
/// copies of `template`.
#[cfg(feature = "rpc")]
fn node_cases(
    count: u64,
    template: &Block,
    decoders: &mut Decoders,
    cores: usize,
    filter: &NodeFilter,
) {
    use ferroscale_index::rpc_source::{index_range, RpcOptions};
    use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};
    use ferroscale_rpc::{BlockingClient, RangeOptions};

    const META: &str = "metadata/polkadot-v14-spec1000001.scale";
    let metadata = ferroscale_fixtures::read(META);
    let mut node = TestNode::new(TestRuntime::new(
        "polkadot",
        template.spec_version,
        vec![metadata.clone()],
    ))
    .first_number(0)
    .lifetime(std::time::Duration::from_secs(3600));
    // Block 0 too: block 1's runtime is read in the state after it.
    for _ in 0..=count {
        node = node.block(TestBlock {
            runtime: 0,
            extrinsics: template.extrinsics.clone(),
            events: template.events.clone(),
        });
    }
    let server = node.start().expect("loopback node");
    let blocks: Vec<Block> = (1..=count)
        .map(|number| Block {
            number,
            ..template.clone()
        })
        .collect();
    let mb = blocks.iter().map(|b| b.scale_bytes()).sum::<usize>() as f64 / 1e6;
    let dir = std::env::temp_dir().join(format!("ferroscale-index-node-{}", std::process::id()));
    let range = RangeOptions::default();
    println!(
        "loopback node on 127.0.0.1 in this process, {count} copies of block 18468942 \
         ({mb:.1} MB of SCALE), {} blocks in flight, 500-block partitions",
        range.concurrency
    );
    // References without the node: the decode alone and the pipeline from
    // JSON lines (decode and write).
    let (mut reference, mut lines_reference) = (Vec::new(), Vec::new());
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| decode_to_arrow(&blocks[..blocks.len().min(50)], decoders, 500));
        let t = Instant::now();
        pool.install(|| decode_to_arrow(&blocks, decoders, 500));
        let decode = count as f64 / t.elapsed().as_secs_f64();
        let text: String = blocks
            .iter()
            .map(|b| ferroscale_index::source::block_to_json_line(b) + "\n")
            .collect();
        let out = dir.join(format!("lines-{threads}"));
        let mut options = Options::new(&out);
        options.partition_blocks = 500;
        options.threads = Some(threads);
        let summary = run(
            JsonLines::new(std::io::Cursor::new(text.as_bytes())),
            decoders,
            &options,
        )
        .expect("run");
        let lines = summary.blocks as f64 / summary.seconds;
        println!(
            "{threads} thread(s): decode to Arrow alone {decode:.0} blocks/s; JSON lines → Parquet {lines:.0} blocks/s"
        );
        reference.push(decode);
        lines_reference.push(lines);
    }
    let transports = [("HTTP", server.http_url()), ("WebSocket", server.ws_url())];
    for ((transport, url), batch) in transports
        .iter()
        .flat_map(|t| [(t.clone(), 1), (t.clone(), 16)])
        .filter(|((t, _), b)| {
            filter
                .transport
                .as_ref()
                .is_none_or(|f| t.eq_ignore_ascii_case(f))
                && filter.batch.is_none_or(|f| f == *b)
        })
    {
        let range = RangeOptions { batch, ..range };
        let transport = if batch == 1 {
            transport.to_string()
        } else {
            format!("{transport} in batches of {batch} blocks")
        };
        let client = BlockingClient::connect(&url).expect("connect");
        // The fetch alone: every block with its events, nothing decoded.
        let split = node_and_client_cpu();
        let t = Instant::now();
        let fetched = client
            .blocks(
                1..count + 1,
                RangeOptions {
                    runtime_version: false,
                    ..range
                },
            )
            .map(|b| b.expect("block").block.extrinsics.len())
            .sum::<usize>();
        let alone = count as f64 / t.elapsed().as_secs_f64();
        let split = node_and_client_cpu()
            .zip(split)
            .map_or("?".into(), |((n1, c1), (n0, c0))| {
                let ms = |s: f64| s * 1e3 / count as f64;
                format!("node {:.3}, client {:.3}", ms(n1 - n0), ms(c1 - c0))
            });
        println!(
            "{transport}: fetch alone {alone:.0} blocks/s ({fetched} extrinsics), CPU ms/block: \
             {split}"
        );
        for (i, threads) in [1, cores].into_iter().enumerate() {
            let out = dir.join(format!("{transport}-{threads}").replace(' ', "-"));
            let _ = std::fs::remove_dir_all(&out);
            // The runtime's metadata in place: the node's metadata fetch is
            // not what is timed.
            let md_dir = out.join("metadata");
            let spec = md_dir.join("polkadot");
            std::fs::create_dir_all(&spec).expect("metadata folder");
            std::fs::write(
                spec.join(format!("{}.scale", template.spec_version)),
                &metadata,
            )
            .expect("metadata");
            let rpc = RpcOptions {
                from: 1,
                to: count,
                partition_blocks: 500,
                out: out.clone(),
                metadata_dir: md_dir,
                range,
                unfinalized: false,
            };
            let mut options = Options::new(&out);
            options.partition_blocks = 500;
            options.threads = Some(threads);
            (options.from, options.to) = (Some(1), Some(count));
            options.source = url.clone();
            let cpu = cpu_seconds();
            let split = node_and_client_cpu();
            let summary =
                index_range(&client, rpc, decoders, &options, &mut |_| {}).expect("index");
            let rate = summary.blocks as f64 / summary.seconds;
            // The node's thread and the client's included.
            let cpu = cpu_seconds().zip(cpu).map_or("?".into(), |(b, a)| {
                format!("{:.3}", (b - a) * 1e3 / count as f64)
            });
            // Of which the node's threads and the client's (its tokio
            // worker: requests, JSON, hex); the rest is the source's reader
            // (chain checks), the decoder and the writer.
            let split =
                node_and_client_cpu()
                    .zip(split)
                    .map_or("?".into(), |((n1, c1), (n0, c0))| {
                        let ms = |s: f64| s * 1e3 / count as f64;
                        format!("node {:.3}, client {:.3}", ms(n1 - n0), ms(c1 - c0))
                    });
            println!(
                "{transport}, {threads} thread(s): node → Parquet {rate:.0} blocks/s \
                 ({:.2} of the decode alone, {:.2} of JSON lines → Parquet), CPU {cpu} \
                 ms/block ({split}): {summary}",
                rate / reference[i],
                rate / lines_reference[i]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The process's peak resident set (`VmHWM`), Linux only.
fn peak_resident_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// CPU seconds so far of the loopback node's threads and of the RPC
/// client's (by thread name), Linux only. Both live for a whole transport's
/// cases, so their counts are not lost when a thread ends.
#[cfg(feature = "rpc")]
fn node_and_client_cpu() -> Option<(f64, f64)> {
    let (mut node, mut client) = (0.0, 0.0);
    // A thread that ends while it is read (a pool's) is left out: only the
    // node's and the client's are counted, and they outlive the cases.
    let seconds = |path: &std::path::Path| -> Option<(String, f64)> {
        let comm = std::fs::read_to_string(path.join("comm")).ok()?;
        let stat = std::fs::read_to_string(path.join("stat")).ok()?;
        let rest = &stat[stat.rfind(')')? + 2..];
        let mut fields = rest.split_whitespace();
        let utime: f64 = fields.nth(11)?.parse().ok()?;
        let stime: f64 = fields.next()?.parse().ok()?;
        Some((comm, (utime + stime) / 100.0))
    };
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Some((comm, seconds)) = seconds(&task.path()) else {
            continue;
        };
        if comm.starts_with("ferroscale-test") {
            node += seconds;
        } else if comm.starts_with("ferroscale-rpc") {
            client += seconds;
        }
    }
    Some((node, client))
}

/// The process's user + system CPU time so far (`/proc/self/stat`, in the
/// kernel's clock ticks of 10 ms), Linux only.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces, in parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let utime: f64 = fields.nth(11)?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
