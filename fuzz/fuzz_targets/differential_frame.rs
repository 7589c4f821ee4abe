//! Any bytes as an in-memory frame, opened by this library and by the reference: the same
//! metalayers, variable-length metalayers and chunks, or both an error.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::differential_frame(data));
