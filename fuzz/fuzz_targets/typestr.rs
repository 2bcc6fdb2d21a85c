//! cargo-fuzz target `typestr`: see `ferroscale_fuzz::harness::targets::typestr`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::harness::targets::typestr(data);
});
