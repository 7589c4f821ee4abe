//! Compression parameters and data from the input: valid parameters must compress, and the
//! chunk must decompress to the same bytes. For inputs with bit 6 of the level byte set
//! (half of them) the chunk is also made and decoded with two threads, and both thread
//! counts must give the same chunk (two-thread contexts start their workers, which cost
//! more than most runs).
#![no_main]

use blosc2::constants::MAX_OVERHEAD;
use blosc2::{CParams, Context, DParams};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((knobs, src)) = data.split_first_chunk::<4>() else {
        return;
    };
    let [codec, level, filter, typesize] = *knobs;
    let mut filters = [0u8; 6];
    filters[5] = filter % 5; // none, shuffle, bitshuffle, delta, trunc_prec
    let cp = CParams {
        compcode: [0, 1, 2, 4, 5][usize::from(codec % 5)], // blosclz, lz4, lz4hc, zlib, zstd
        clevel: level % 10,
        typesize: i32::from(typesize % 16) + 1,
        splitmode: i32::from(level >> 4) % 4 + 1,
        blocksize: if level & 0x80 != 0 {
            (i32::from(typesize >> 4) + 1) * 1024
        } else {
            0
        },
        filters,
        filters_meta: [0, 0, 0, 0, 0, 23],
        ..CParams::default()
    };
    let threads: &[i16] = if level & 0x40 != 0 { &[1, 2] } else { &[1] };
    let mut chunks = Vec::new();
    for &nthreads in threads {
        let mut dst = vec![0u8; src.len() + MAX_OVERHEAD];
        let n = Context::compressor(CParams { nthreads, ..cp }).compress(src, &mut dst);
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                // The only parameters here that compression may refuse: TRUNC_PREC on items
                // that are not 4- or 8-byte floats.
                assert!(
                    filters[5] == 4 && !matches!(cp.typesize, 4 | 8),
                    "valid parameters {cp:?} failed: {e:?}"
                );
                return;
            }
        };
        dst.truncate(n);
        chunks.push(dst);
    }
    assert!(
        chunks.iter().all(|c| *c == chunks[0]),
        "chunk depends on the thread count"
    );
    let lossy = filters[5] == 4;
    for &nthreads in threads {
        let mut out = vec![0u8; src.len()];
        let mut ctx = Context::decompressor(DParams {
            nthreads,
            ..DParams::default()
        });
        assert_eq!(ctx.decompress(&chunks[0], &mut out), Ok(src.len()));
        assert!(lossy || out == src, "round trip changed the data");
    }
});
