//! cargo-fuzz target `text`: see `ferroscale_fuzz::harness::targets::text`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::harness::targets::text(data);
});
