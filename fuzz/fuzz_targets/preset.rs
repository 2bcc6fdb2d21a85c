//! cargo-fuzz target `preset`: see `ferroscale_fuzz::harness::targets::preset`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::harness::targets::preset(data);
});
