//! Options at their edges: the outcome does not depend on the chunking.
//! See `settled_tests::fuzz::options`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| settled_tests::fuzz::options(data));
