//! Any bytes as a chunk, decompressed by this library and by the reference c-blosc2: the
//! same bytes or both an error.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::differential(data));
