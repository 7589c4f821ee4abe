//! Any bytes as a chunk: full decode (serial and on two threads), getitem and the
//! variable-length-block decoders must return a result or an error, never panic or read
//! out of bounds. The first input byte picks the thread count and the getitem range.
#![no_main]

use blosc2::chunk::Header;
use blosc2::{Context, DParams};
use libfuzzer_sys::fuzz_target;

/// Largest output buffer a run allocates.
const MAX_OUT: usize = 1 << 22;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, chunk)) = data.split_first() else {
        return;
    };
    let nbytes = Header::parse(chunk).map_or(1024, |h| h.nbytes.clamp(0, MAX_OUT as i32) as usize);
    let mut ctx = Context::decompressor(DParams {
        nthreads: if knobs & 1 == 0 { 1 } else { 2 },
        ..DParams::default()
    });
    let mut out = vec![0u8; nbytes];
    let _ = ctx.decompress(chunk, &mut out);
    let start = i32::from(knobs >> 1);
    let nitems = i32::from(knobs >> 4) * 37;
    let _ = ctx.getitem(chunk, start, nitems, &mut out);
    let _ = ctx.vl_decompress(chunk, 64);
    let _ = ctx.vl_decompress_block(chunk, i32::from(knobs & 7));
});
