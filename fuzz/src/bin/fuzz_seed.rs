//! Writes the seed corpora: `fuzz-seed [DIR] [TARGET…]` puts each target's
//! seeds (see `harness::seeds`) into `DIR/<target>/` (default `fuzz/corpus`),
//! one file per seed named by a hash of its content.

#![forbid(unsafe_code)]

use std::path::PathBuf;

use ferroscale_fuzz::harness::{seeds, targets::TARGETS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    let chosen: Vec<&str> = if args.len() > 1 {
        args[1..].iter().map(String::as_str).collect()
    } else {
        let mut all = TARGETS.to_vec();
        if cfg!(feature = "typed") {
            all.push("typed");
        }
        if cfg!(feature = "index") {
            all.push("index");
        }
        all
    };
    for target in chosen {
        let out = dir.join(target);
        std::fs::create_dir_all(&out)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
        let seeds = match target {
            #[cfg(feature = "typed")]
            "typed" => ferroscale_fuzz::typed::seeds(),
            #[cfg(feature = "index")]
            "index" => ferroscale_fuzz::index::seeds(),
            other => seeds::for_target(other),
        };
        let bytes: usize = seeds.iter().map(Vec::len).sum();
        for seed in &seeds {
            let path = out.join(format!("seed-{:016x}", fnv1a(seed)));
            std::fs::write(&path, seed)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        }
        println!(
            "{target}: {} seeds, {bytes} bytes -> {}",
            seeds.len(),
            out.display()
        );
    }
}

/// FNV-1a: a stable content name, so re-seeding does not duplicate files.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
