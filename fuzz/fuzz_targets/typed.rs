//! cargo-fuzz target `typed`: see `ferroscale_fuzz::typed::typed`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferroscale_fuzz::typed::typed(data);
});
