//! Generated models serialized, wrapped, chunked and read back; cuts are truncations.
//! See `settled_tests::fuzz::typed`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| settled_tests::fuzz::typed(data));
