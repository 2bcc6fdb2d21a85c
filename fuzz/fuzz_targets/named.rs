//! cargo-fuzz target `named`: see `ferroscale_fuzz::harness::targets::named`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = ferroscale_fuzz::harness::targets::named(data);
});
