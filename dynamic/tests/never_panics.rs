//! Truncated and random input against every type of the Polkadot registry
//! returns `Ok` or `Err`, never panics or hangs.

use ferroscale_dynamic::portable::import_metadata_bytes;
use ferroscale_dynamic::{
    decode_prefix, decode_value, Context, Node, Special, TypeGraph, TypeIdx, ValueSink,
};

/// xorshift64*: deterministic pseudo-random bytes without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn every_prefix_of_real_extrinsics_and_random_bytes_against_every_type() {
    let md = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &md).expect("import");
    let xt = graph.add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()));
    let ctx = Context::new(&graph)
        .with_runtime(&imported.runtime)
        .with_ss58(Some(0));
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("json");

    // Every strict prefix of every extrinsic (but the 30 KB inherent, sampled) fails cleanly.
    let mut prefixes = 0;
    for h in &list {
        let bytes = ferroscale_fixtures::decode_hex(h).unwrap();
        let step = (bytes.len() / 2000).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            prefixes += 1;
            assert!(
                decode_value(&ctx, xt, &bytes[..cut]).is_err(),
                "prefix {cut} decoded"
            );
        }
    }

    // Random bytes against every registry type, through the prefix decoder.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ok = 0usize;
    let mut err = 0usize;
    let count = imported.types.count;
    for round in 0..6 {
        for id in 0..count {
            let ty = TypeIdx(imported.types.base + id);
            let len = [0usize, 1, 8, 64, 512, 4096][round];
            let input = rng.bytes(len);
            match decode_prefix(&ctx, ty, &input, &mut ValueSink) {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
    }
    println!("{prefixes} truncated extrinsics refused; random inputs: {ok} decoded, {err} refused");
    assert!(prefixes > 1000 && ok > 0 && err > 0);
}
