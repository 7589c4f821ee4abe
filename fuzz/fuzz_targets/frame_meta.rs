//! The frame's msgpack parsers (header, trailer, chunk index, b2nd metalayer) on their own.
//! See `common` for the details.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::frame_meta(data));
