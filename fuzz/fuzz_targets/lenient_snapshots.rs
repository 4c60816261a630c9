//! Lenient mode over arbitrary bytes: snapshots only grow, settled values never change.
//! See `settled_tests::fuzz::lenient_snapshots`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| settled_tests::fuzz::lenient_snapshots(data));
