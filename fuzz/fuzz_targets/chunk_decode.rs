//! Any bytes as a chunk: full decode, getitem and the VL-block decoders.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::chunk_decode(data));
