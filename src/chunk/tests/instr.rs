//! Instrumented chunks (`instr_codec`) against the reference library: same layout, same
//! compression ratios and run flags per stream (the speeds are measured, so only checked
//! to be positive), and records that decode as they are.

use super::data::make;
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::testref::chunk as refc;

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn instrumented_chunks_match_the_reference() {
    let Some(rf) = refc::get() else { return };
    let cases = [
        (
            100_000,
            4,
            BLOSCLZ,
            FORWARD_COMPAT_SPLIT,
            0,
            "floats",
            SHUFFLE,
        ),
        (
            1_000_000,
            4,
            ZSTD,
            FORWARD_COMPAT_SPLIT,
            0,
            "floats",
            SHUFFLE,
        ),
        (
            10_003,
            4,
            LZ4,
            FORWARD_COMPAT_SPLIT,
            1000,
            "floats",
            SHUFFLE,
        ),
        (100_000, 4, BLOSCLZ, NEVER_SPLIT, 0, "noise", SHUFFLE),
        (
            100_000,
            4,
            BLOSCLZ,
            FORWARD_COMPAT_SPLIT,
            0,
            "zeros",
            SHUFFLE,
        ),
        (
            100_000,
            4,
            BLOSCLZ,
            ALWAYS_SPLIT,
            10_000,
            "noise",
            BITSHUFFLE,
        ),
        (50_000, 2, ZLIB, FORWARD_COMPAT_SPLIT, 0, "text", NOFILTER),
    ];
    for (n, typesize, compcode, splitmode, blocksize, kind, filter) in cases {
        let cp = CParams {
            compcode,
            typesize,
            splitmode,
            blocksize,
            instr_codec: true,
            filters: [0, 0, 0, 0, 0, filter],
            ..CParams::default()
        };
        let what = format!("{kind} {cp:?}");
        let src = make(kind, n, 3);
        let mut want = vec![0u8; n + 100_000];
        let mut got = vec![0u8; n + 100_000];
        let rn = rf.compress_ctx(&cp, &src, &mut want).unwrap();
        let on = Context::compressor(cp).compress(&src, &mut got).unwrap();
        assert_eq!(on, rn, "{what}");
        let nbytes = i32::from_le_bytes(want[4..8].try_into().unwrap()) as usize;
        let bs = i32::from_le_bytes(want[8..12].try_into().unwrap()) as usize;
        let bstarts = 32 + 4 * nbytes.div_ceil(bs);
        assert_eq!(
            &got[..bstarts],
            &want[..bstarts],
            "header and starts: {what}"
        );
        let mut records = vec![0u8; nbytes];
        let mut d = Context::decompressor(DParams::default());
        assert_eq!(d.decompress(&got[..on], &mut records), Ok(nbytes), "{what}");
        let mut theirs = vec![0u8; nbytes];
        assert_eq!(
            rf.decompress(&want[..rn], &mut theirs),
            Ok(nbytes),
            "{what}"
        );
        for (i, (o, t)) in records.chunks(16).zip(theirs.chunks(16)).enumerate() {
            assert_eq!(f32_at(o, 0), f32_at(t, 0), "cratio of stream {i}: {what}");
            assert!(
                f32_at(o, 4) > 0.0 && f32_at(o, 8) > 0.0,
                "speeds of {i}: {what}"
            );
            assert_eq!(&o[12..], &t[12..], "flags of stream {i}: {what}");
        }
    }
}
