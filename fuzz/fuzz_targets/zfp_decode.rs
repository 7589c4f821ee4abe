//! Any bytes as a ZFP stream in any of the three modes, any meta, 1 to 4 dimensions of any
//! (lying) shape and 4- or 8-byte items: the Rust decoder must never read or write out of
//! bounds and must give the bytes (and status) of zfp's C decoder, whose reads of its bit
//! stream the wrapper keeps in bounds.
#![no_main]

use blosc2::codecs::zfp::{self, Mode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [k, meta, d0, d1, d2, d3, stream @ ..] = data else {
        return;
    };
    let mode = Mode::from_code(33 + k % 3);
    let ndim = usize::from(k >> 2) % 4 + 1;
    let shape: Vec<i32> = [d0, d1, d2, d3][..ndim]
        .iter()
        .map(|&&d| i32::from(d % 24))
        .collect();
    let typesize = if k & 0x40 == 0 { 4 } else { 8 };
    let items: usize = shape.iter().map(|&d| d as usize).product();
    // Sometimes an output shorter than the block the shape claims.
    let out_len = if k & 0x80 == 0 {
        items * typesize
    } else {
        items * typesize / 2
    };
    let mut ours = vec![0u8; out_len];
    let mut theirs = vec![0u8; out_len];
    let n = zfp::decompress(mode, *meta, &shape, typesize as i32, stream, &mut ours);
    let c = zfp::decompress_by_zfp(mode, *meta, &shape, typesize as i32, stream, &mut theirs);
    assert!(n <= out_len as i32);
    assert_eq!(n, c);
    if c > 0 {
        assert!(ours == theirs, "the decoders differ");
    }
});
