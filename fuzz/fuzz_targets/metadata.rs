//! cargo-fuzz target `metadata`: see `ferroscale_fuzz::harness::targets::metadata`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::harness::targets::metadata(data);
});
