//! Any bytes as a contiguous frame file read through an I/O backend: lazy chunks and
//! ranged chunk reads.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::frame_file(data));
