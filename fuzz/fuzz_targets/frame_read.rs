//! Any bytes as an in-memory contiguous frame: metalayers, chunks, slices.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::frame_read(data));
