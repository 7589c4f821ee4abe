//! Any bytes as a sparse frame (index frame and chunk files packed in the input).
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::sframe_index(data));
