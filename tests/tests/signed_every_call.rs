//! A signed extrinsic for every call of Polkadot spec 9180 whose arguments
//! the example generator can fill, encoded by the dynamic layer (the same
//! inputs the py-scale-codec differential test decodes), decodes with the
//! generated `UncheckedExtrinsic` and re-encodes to the same bytes; the
//! typed address, signature, signed extensions and call each equal what the
//! dynamic encoder wrote for them.

#[path = "../../dynamic/tests/common/mod.rs"]
mod common;

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::Context;
use ferroscale_runtime_types::{decode_all, AccountId32, MultiAddress};
use ferroscale_tests::polkadot_9180 as rt;
use parity_scale_codec::Encode;

#[test]
fn every_call_signed_decodes_to_the_parts_the_dynamic_encoder_wrote() {
    let mut l = common::load("metadata/polkadot-v14-spec9180.scale");
    let xt = l.extrinsic_node();
    let ctx = Context::new(&l.graph)
        .with_runtime(&l.imported.runtime)
        .with_ss58(Some(0));
    let runtime = &l.imported.runtime;
    let (mut built, mut calls) = (0usize, 0usize);
    let mut seed = 1u64;
    for p in &runtime.pallets {
        for c in &p.calls {
            calls += 1;
            seed += 1;
            let Some(bytes) = common::signed_extrinsic(&l, &ctx, xt, p, c, seed) else {
                continue;
            };
            let what = format!("{}.{} (seed {seed})", p.name, c.name);
            let typed: rt::UncheckedExtrinsic =
                decode_all(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(typed.encode(), bytes, "{what}: re-encoding differs");
            let signed = typed.signature().expect("signed");
            assert_eq!(
                signed.address,
                MultiAddress::Id(AccountId32::from([7u8; 32])),
                "{what}"
            );
            // The same example values, encoded part by part by the dynamic layer.
            let example = |ty| common::example(&l.graph, ty, seed, 0).expect("example value");
            let signature_ty = runtime.extrinsic.signature.expect("signature type");
            let signature = encode_value(&ctx, signature_ty, &example(signature_ty)).unwrap();
            assert_eq!(signed.signature.encode(), signature, "{what}: signature");
            let extra: Vec<u8> = runtime
                .extrinsic
                .extensions
                .iter()
                .flat_map(|e| encode_value(&ctx, e.ty, &example(e.ty)).unwrap())
                .collect();
            assert_eq!(signed.extra.encode(), extra, "{what}: signed extensions");
            // The call: the pallet and call the dynamic value named.
            let debug = format!("{:?}", typed.function);
            let head = format!("{}({}", p.name, c.name);
            let named = debug
                .strip_prefix(&head)
                .is_some_and(|rest| rest.starts_with([' ', '(', ')', '{']));
            assert!(
                named,
                "{what}: typed call is {}",
                &debug[..debug.len().min(80)]
            );
            built += 1;
        }
    }
    eprintln!("{built} of {calls} calls of spec 9180 built as signed extrinsics and checked");
    // Most calls have example values; a drop would mean the builder broke.
    assert!(
        built * 10 >= calls * 9,
        "only {built} of {calls} calls built"
    );
}
