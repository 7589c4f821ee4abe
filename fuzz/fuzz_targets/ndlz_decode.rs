//! Any bytes as an NDLZ stream (4x4 or 8x8 cells, picked by the first byte) into an output
//! of any size: a result or an error, never a panic or an access out of bounds. Streams
//! also lie about the block shape in their header.
#![no_main]

use blosc2::codecs::ndlz;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&knobs, stream)) = data.split_first() else {
        return;
    };
    let meta = if knobs & 1 == 0 { 4 } else { 8 };
    let out_len = usize::from(knobs >> 1) * 97;
    let mut out = vec![0u8; out_len];
    let n = ndlz::decompress(meta, stream, &mut out);
    assert!(n < 0 || n as usize <= out_len);
});
