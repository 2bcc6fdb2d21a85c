//! cargo-fuzz target `dynamic_decode`: see `ferroscale_fuzz::harness::targets::dynamic_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::harness::targets::dynamic_decode(data);
});
