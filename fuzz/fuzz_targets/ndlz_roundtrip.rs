//! NDLZ encodes any 2-D block of bytes (shape from the first two input bytes) into a stream
//! that decodes back exactly, or reports that it does not shrink.
#![no_main]

use blosc2::codecs::ndlz;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [a, b, c, rest @ ..] = data else {
        return;
    };
    let (b0, b1) = (i32::from(*a % 70) + 1, i32::from(*b % 70) + 1);
    let n = (b0 * b1) as usize;
    let block: Vec<u8> = (0..n)
        .map(|i| rest.get(i % rest.len().max(1)).copied().unwrap_or(0))
        .collect();
    let meta = if c & 1 == 0 { 4 } else { 8 };
    let mut out = vec![0u8; n + 64];
    let size = ndlz::compress(meta, &[b0, b1], &block, &mut out);
    if size > 0 {
        let mut back = vec![0u8; n];
        assert_eq!(
            ndlz::decompress(meta, &out[..size as usize], &mut back),
            n as i32
        );
        assert_eq!(back, block);
    }
});
