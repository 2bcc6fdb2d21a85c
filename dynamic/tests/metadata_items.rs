//! Every constant value and storage default of every V14+ metadata fixture
//! decodes through the graph, consuming all its bytes, and re-encodes to the
//! same bytes.

mod common;

use ferroscale_dynamic::{decode_value, encode_value, Context};

#[test]
fn constants_and_storage_defaults_decode_and_round_trip() {
    let fixtures = common::portable_fixtures();
    assert!(
        fixtures.len() >= 10,
        "expected the V14+ fixtures, found {fixtures:?}"
    );
    let (mut total, mut decoded, mut round_trips) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for name in &fixtures {
        let l = common::load(name);
        let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
        let (mut d, mut r) = (0, 0);
        for item in &l.items {
            total += 1;
            match decode_value(&ctx, item.ty, &item.bytes) {
                Ok(v) => {
                    d += 1;
                    match encode_value(&ctx, item.ty, &v) {
                        Ok(b) if b == item.bytes => r += 1,
                        Ok(b) => failures.push(format!(
                            "{name} {}: re-encoded {} != {} (value {v})",
                            item.what,
                            ferroscale_core::hex::encode_prefixed(&b),
                            ferroscale_core::hex::encode_prefixed(&item.bytes)
                        )),
                        Err(e) => {
                            failures.push(format!("{name} {}: encode: {e} (value {v})", item.what))
                        }
                    }
                }
                Err(e) => failures.push(format!("{name} {}: {e}", item.what)),
            }
        }
        println!(
            "{name}: {} items, {d} decoded, {r} round-tripped",
            l.items.len()
        );
        decoded += d;
        round_trips += r;
    }
    println!("total: {total} items, {decoded} decoded, {round_trips} round-tripped");
    for f in failures.iter().take(40) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(total > 5000, "suspiciously few items: {total}");
}
