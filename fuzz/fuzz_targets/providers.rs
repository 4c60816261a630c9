//! Provider decoders and the SSE parser over arbitrary bodies and chunkings.
//! See `settled_tests::fuzz::providers`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| settled_tests::fuzz::providers(data));
