//! Strict mode against serde_json, at three chunkings.
//! See `settled_tests::fuzz::strict_differential`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| settled_tests::fuzz::strict_differential(data));
