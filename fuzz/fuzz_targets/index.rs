//! cargo-fuzz target `index`: see `ferroscale_fuzz::index`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::index::index(data);
});
