//! Chunks this library compresses from the input's parameters and data, then damaged by
//! the input's byte edits (reaches the dictionary and VL-block parsers).
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::chunk_mutate(data));
