//! The plugin filters registered at init (byte-delta, integer truncation) against the
//! reference library: identical chunk bytes, and each side decodes the other's chunks.

use super::data::{make, Rng};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::testref::chunk as refc;

fn ours(cp: &CParams, src: &[u8], dst: &mut [u8]) -> Result<usize, i32> {
    Context::compressor(*cp)
        .compress(src, dst)
        .map_err(|e| e.code())
}

/// Compresses with both libraries, compares bytes and cross-decodes.
fn compare(cp: &CParams, src: &[u8], what: &str) {
    let rf = refc::get().expect("reference");
    let mut want = vec![0u8; src.len() + MAX_OVERHEAD];
    let mut got = vec![0u8; src.len() + MAX_OVERHEAD];
    let rr = rf.compress_ctx(cp, src, &mut want);
    let or = ours(cp, src, &mut got);
    assert_eq!(or, rr, "return value differs for {what}");
    let Ok(n) = rr else { return };
    assert!(got[..n] == want[..n], "chunk bytes differ for {what}");
    let mut back = vec![0u8; src.len()];
    assert_eq!(rf.decompress(&got[..n], &mut back), Ok(src.len()), "{what}");
    let mut mine = vec![0u8; src.len()];
    let od = Context::decompressor(DParams::default()).decompress(&want[..n], &mut mine);
    assert_eq!(od, Ok(src.len()), "{what}");
    assert!(mine == back, "decoded data differ for {what}");
}

#[test]
fn bytedelta_is_bit_exact() {
    if refc::get().is_none() {
        return;
    }
    crate::global::init();
    let mut r = Rng::new(11);
    for id in [34u8, 35] {
        for (blocksize, metas) in [(10_080, &[1u8, 2, 3, 4, 8, 16][..]), (1000, &[4, 8])] {
            for &meta in metas {
                for kind in ["floats", "arange", "noise"] {
                    let typesize = r.pick(&[1, 2, 4, 8]);
                    let cp = CParams {
                        compcode: r.pick(&[LZ4, ZSTD, BLOSCLZ]),
                        clevel: 5,
                        typesize,
                        blocksize,
                        filters: [0, 0, 0, 0, SHUFFLE, id],
                        filters_meta: [0, 0, 0, 0, 0, meta],
                        ..CParams::default()
                    };
                    let src = make(kind, blocksize as usize * 4, u64::from(meta));
                    compare(&cp, &src, &format!("filter {id} meta {meta} {kind} {cp:?}"));
                }
            }
        }
    }
}

#[test]
fn int_trunc_is_bit_exact() {
    if refc::get().is_none() {
        return;
    }
    crate::global::init();
    for typesize in [1, 2, 4, 8] {
        for meta in [-12i8, -3, 0, 1, 4, 8, 13, 16, 31, 32, 63, 64, 65] {
            let cp = CParams {
                compcode: ZSTD,
                clevel: 3,
                typesize,
                filters: [0, 0, 0, 0, 36, SHUFFLE],
                filters_meta: [0, 0, 0, 0, meta as u8, 0],
                ..CParams::default()
            };
            let src = make("noise", 40_000 - 40_000 % typesize as usize, meta as u64);
            compare(&cp, &src, &format!("int_trunc ts {typesize} meta {meta}"));
        }
    }
}
