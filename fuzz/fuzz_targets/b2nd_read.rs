//! Any bytes as a b2nd array: opened, read whole and in slices, one item written back.
//! See `common::b2nd` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::b2nd_read(data));
