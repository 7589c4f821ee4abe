//! Blocks whose streams are all runs under a plain (DELTA +) SHUFFLE pipeline, which are
//! encoded without shuffling and decoded without unshuffling: our chunks are the
//! reference's, and decode to the reference's output.

use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::testref::chunk as refc;

/// `n` elements of `typesize` bytes counting up from `start` (little-endian, wrapping).
fn ramp(n: usize, typesize: usize, start: u64) -> Vec<u8> {
    (0..n as u64)
        .flat_map(|i| {
            let v = (start + i).to_le_bytes();
            (0..typesize).map(move |b| v.get(b).copied().unwrap_or(0))
        })
        .collect()
}

/// One element repeated `n` times.
fn repeated(n: usize, element: &[u8]) -> Vec<u8> {
    element
        .iter()
        .copied()
        .cycle()
        .take(n * element.len())
        .collect()
}

#[test]
fn run_blocks_decode_like_the_reference() {
    let rf = refc::get().expect("reference library");
    let mut done = 0;
    for typesize in [1usize, 2, 3, 4, 8, 16, 24] {
        let element: Vec<u8> = (0..typesize as u8)
            .map(|b| b.wrapping_mul(37) | 1)
            .collect();
        // Ramps are all runs after DELTA in blocks of a power-of-two number of items; a
        // repeated element is all runs with or without DELTA.
        let inputs = [
            ramp(50_000, typesize, 0),
            ramp(40_000, typesize, 7),
            repeated(30_000, &element),
            repeated(30_001, &element),
        ];
        for src in &inputs {
            for filters in [
                [0, 0, 0, DELTA, 0, SHUFFLE],
                [0, 0, 0, 0, 0, SHUFFLE],
                [DELTA, 0, 0, 0, SHUFFLE, 0],
                // DELTA after SHUFFLE: not a plain unshuffle, decoded stream by stream.
                [0, 0, 0, 0, SHUFFLE, DELTA],
            ] {
                // Forced blocksizes are whole items (the reference cannot decode others).
                for (items, splitmode) in [(0, 4), (4096, 1), (8192, 2), (2000, 1)] {
                    let blocksize = (items * typesize) as i32;
                    let cp = CParams {
                        compcode: LZ4,
                        clevel: 5,
                        typesize: typesize as i32,
                        blocksize,
                        splitmode,
                        filters,
                        filters_meta: [0, 0, 0, 0, 0, 0],
                        ..CParams::default()
                    };
                    let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD];
                    let n = rf.compress_ctx(&cp, src, &mut chunk).expect("reference");
                    let chunk = &chunk[..n];
                    for nthreads in [1, 2] {
                        let mut mine = vec![0u8; src.len() + MAX_OVERHEAD];
                        let cp = CParams { nthreads, ..cp };
                        let m = Context::compressor(cp).compress(src, &mut mine);
                        let case = (typesize, src.len(), filters, blocksize, splitmode, nthreads);
                        assert_eq!(m, Ok(n), "compressed size for {case:?}");
                        assert!(&mine[..n] == chunk, "compressed bytes for {case:?}");
                    }
                    let mut want = vec![0u8; src.len()];
                    let wn = rf.decompress(chunk, &mut want);
                    for nthreads in [1, 2] {
                        let mut got = vec![0u8; src.len()];
                        let mut d = Context::decompressor(DParams {
                            nthreads,
                            ..DParams::default()
                        });
                        let gn = d.decompress(chunk, &mut got).map_err(|e| e.code());
                        let case = (typesize, src.len(), filters, blocksize, splitmode);
                        assert_eq!(gn, wn, "size for {case:?}");
                        assert!(got == want, "bytes for {case:?}");
                    }
                    done += 1;
                }
            }
        }
    }
    assert_eq!(done, 7 * 4 * 4 * 4);
}
