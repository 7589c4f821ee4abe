//! Chunks with variable-length blocks against the reference library: identical bytes for
//! the same blocks and parameters, cross-decoding, and ours never crashing where the
//! reference does.

use super::data::{make, Rng, KINDS};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::error::Error;
use crate::testref::chunk as refc;

const CODECS: [u8; 5] = [BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD];

fn blocks_of(r: &mut Rng, seed: u64) -> Vec<Vec<u8>> {
    let nb = 1 + r.below(24);
    (0..nb)
        .map(|b| {
            let n = 1 + if r.below(2) == 0 {
                r.below(100)
            } else {
                r.below(6000)
            };
            make(r.pick(&KINDS), n, seed * 100 + b as u64)
        })
        .collect()
}

#[test]
fn vl_chunks_are_byte_identical_and_cross_decode() {
    let Some(rf) = refc::get() else { return };
    let mut r = Rng::new(21);
    for trial in 0..150 {
        let blocks = blocks_of(&mut r, trial);
        let views: Vec<&[u8]> = blocks.iter().map(|b| &b[..]).collect();
        let total: usize = blocks.iter().map(Vec::len).sum();
        let mut filters = [0u8; 6];
        filters[5] = r.pick(&[0, SHUFFLE, BITSHUFFLE]);
        let cp = CParams {
            compcode: r.pick(&CODECS),
            clevel: 1 + r.below(9) as u8,
            typesize: r.pick(&[1, 2, 3, 4, 8, 16]),
            splitmode: r.pick(&[ALWAYS_SPLIT, NEVER_SPLIT, AUTO_SPLIT, FORWARD_COMPAT_SPLIT]),
            filters,
            ..CParams::default()
        };
        // The reference crashes (memcpy with a wild size) for some destinations too short
        // for the chunk, so it only gets roomy ones; short ones are checked for ours alone.
        let destsize = total + 64 + 40 * blocks.len();
        let short = 32 + 8 * blocks.len() + r.below(total + 64);
        let mut want = vec![0u8; destsize];
        let rr = rf.vlcompress_ctx(&cp, &views, &mut want);
        for nthreads in [1, 3] {
            let mut got = vec![0u8; destsize];
            let or = Context::compressor(CParams { nthreads, ..cp })
                .vl_compress(&views, &mut got)
                .map_err(|e| e.code());
            assert_eq!(or, rr, "trial {trial} {cp:?} destsize {destsize}");
            let Ok(n) = rr else { continue };
            assert!(got[..n] == want[..n], "trial {trial}: bytes differ");
        }
        let mut small = vec![0u8; short];
        match Context::compressor(cp).vl_compress(&views, &mut small) {
            Ok(0) => {}
            Ok(m) => assert_eq!(Ok(&small[..m]), rr.map(|n| &want[..n]), "trial {trial}"),
            Err(e) => panic!("trial {trial}: short destination {short}: {e:?}"),
        }
        let Ok(n) = rr else { continue };
        let concat: Vec<u8> = blocks.concat();
        let mut back = vec![0u8; total];
        assert_eq!(rf.decompress(&want[..n], &mut back), Ok(total));
        assert_eq!(back, concat);
        let mut d = Context::decompressor(DParams {
            nthreads: 2,
            ..DParams::default()
        });
        let mine = d.vl_decompress(&want[..n], blocks.len()).unwrap();
        assert_eq!(mine, blocks, "trial {trial}");
    }
}

#[test]
fn vl_compress_refuses_bad_input_and_small_destinations_cleanly() {
    let a = [1u8; 35];
    let b = [7u8; 1000];
    let blocks: [&[u8]; 2] = [&a, &b];
    let mut c = Context::compressor(CParams {
        typesize: 1,
        ..CParams::default()
    });
    let mut dst = vec![0u8; 2000];
    assert_eq!(c.vl_compress(&[], &mut dst), Err(Error::InvalidParam));
    assert_eq!(
        c.vl_compress(&[&a, &[]], &mut dst),
        Err(Error::InvalidParam)
    );
    assert_eq!(
        c.vl_compress(&blocks, &mut dst[..31]),
        Err(Error::MaxBufsizeExceeded)
    );
    // The reference crashes for tiny destinations and for clevel 0.
    for ds in 32..120 {
        let r = c.vl_compress(&blocks, &mut dst[..ds]).unwrap();
        assert!(r == 0 || r <= ds);
    }
    let mut z = Context::compressor(CParams {
        typesize: 1,
        clevel: 0,
        ..CParams::default()
    });
    let n = z.vl_compress(&blocks, &mut dst).unwrap();
    assert_eq!(n, 32 + 8 + 4 + 35 + 4 + 1000, "raw streams");
    let mut d = Context::decompressor(DParams::default());
    let back = d.vl_decompress(&dst[..n], 2).unwrap();
    assert_eq!(back, [a.to_vec(), b.to_vec()]);
    assert_eq!(d.vl_decompress(&dst[..n], 1), Err(Error::InvalidParam));
    assert_eq!(
        Context::decompressor(DParams::default()).vl_compress(&blocks, &mut dst),
        Err(Error::InvalidParam)
    );
}

#[test]
fn vl_chunks_with_delta_round_trip() {
    let blocks: Vec<Vec<u8>> = (0..5)
        .map(|b| make("floats", 800 + 8 * b, b as u64))
        .collect();
    let views: Vec<&[u8]> = blocks.iter().map(|b| &b[..]).collect();
    let cp = CParams {
        filters: [0, 0, 0, 0, DELTA, SHUFFLE],
        ..CParams::default()
    };
    let mut dst = vec![0u8; 10_000];
    let n = Context::compressor(cp)
        .vl_compress(&views, &mut dst)
        .unwrap();
    assert_eq!(dst[2], 0x1d, "DELTA recorded in the flags");
    let back = Context::decompressor(DParams::default())
        .vl_decompress(&dst[..n], 5)
        .unwrap();
    assert_eq!(back, blocks);
}

#[test]
fn vl_dictionary_chunks_match_the_reference() {
    let Some(rf) = refc::get() else { return };
    let mut with_dict = 0;
    for compcode in [LZ4, LZ4HC, ZSTD] {
        for lens in [
            &[1000usize; 8][..],
            &[5000, 3000, 7000, 100, 4000, 9000, 2500, 6000, 1200],
            &[40_000; 16],
            &[5000; 7],
        ] {
            let blocks: Vec<Vec<u8>> = lens
                .iter()
                .enumerate()
                .map(|(i, &l)| make("text", l, i as u64))
                .collect();
            let views: Vec<&[u8]> = blocks.iter().map(|b| &b[..]).collect();
            let total: usize = lens.iter().sum();
            let cp = CParams {
                compcode,
                use_dict: true,
                typesize: 4,
                ..CParams::default()
            };
            let mut want = vec![0u8; total + 64 * lens.len() + 64];
            let mut got = want.clone();
            let rn = rf.vlcompress_ctx(&cp, &views, &mut want).unwrap();
            for nthreads in [1, 3] {
                let on = Context::compressor(CParams { nthreads, ..cp })
                    .vl_compress(&views, &mut got)
                    .unwrap();
                assert_eq!(on, rn, "{compcode} {lens:?}");
                assert!(got[..on] == want[..rn], "{compcode} {lens:?}: bytes differ");
            }
            assert_eq!(want[31] & USEDICT != 0, lens.len() >= 8);
            with_dict += usize::from(want[31] & USEDICT != 0);
            let mut short = vec![0u8; total + 31];
            assert_eq!(
                Context::compressor(cp).vl_compress(&views, &mut short),
                Err(Error::WriteBuffer)
            );
            let back = Context::decompressor(DParams::default())
                .vl_decompress(&want[..rn], lens.len())
                .unwrap();
            assert_eq!(back, blocks);
        }
    }
    assert_eq!(with_dict, 9);
}
