//! Dictionary chunks (`use_dict`) against the reference library: the same dictionary and
//! chunk bytes, cross-decoding, getitem with a fresh context, and the reference's limits.

use super::data::make;
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::error::Error;
use crate::testref::chunk as refc;

fn dict_of(chunk: &[u8]) -> Option<&[u8]> {
    if chunk[31] & USEDICT == 0 || chunk[2] & MEMCPYED != 0 {
        return None;
    }
    let bs = i32::from_le_bytes(chunk[8..12].try_into().unwrap()) as usize;
    let nbytes = i32::from_le_bytes(chunk[4..8].try_into().unwrap()) as usize;
    let at = 32 + 4 * nbytes.div_ceil(bs);
    let size = i32::from_le_bytes(chunk[at..at + 4].try_into().unwrap()) as usize;
    Some(&chunk[at + 4..at + 4 + size])
}

#[test]
fn dictionary_chunks_match_the_reference() {
    let Some(rf) = refc::get() else { return };
    let mut with_dict = 0;
    for compcode in [LZ4, LZ4HC, ZSTD] {
        for (n, typesize, kind, clevel) in [
            (10_000, 1, "text", 5),
            (40_000, 4, "text", 3),
            (100_000, 2, "floats", 5),
            (300_000, 8, "text", 9),
            (600_000, 2, "floats", 5),
            (1 << 20, 4, "text", 5),
            (1 << 20, 1, "blocky", 1),
        ] {
            let cp = CParams {
                compcode,
                clevel,
                typesize,
                use_dict: true,
                ..CParams::default()
            };
            let src = make(kind, n, 9);
            let what = format!("codec {compcode} n {n} ts {typesize} {kind} clevel {clevel}");
            let mut want = vec![0u8; n + 32];
            let mut got = vec![0u8; n + 32];
            let rn = rf.compress_ctx(&cp, &src, &mut want).expect(&what);
            let on = Context::compressor(cp)
                .compress(&src, &mut got)
                .expect(&what);
            if want[2] & MEMCPYED != 0 {
                // The reference keeps the dictionary flag on the memcpy chunk it falls back
                // to (and then cannot decode it); ours clears it.
                assert_eq!((on, got[31]), (rn, 0), "{what}");
                assert!(
                    got[..31] == want[..31] && got[32..on] == want[32..rn],
                    "{what}"
                );
                continue;
            }
            assert_eq!(
                dict_of(&got[..on]),
                dict_of(&want[..rn]),
                "dictionary for {what}"
            );
            with_dict += usize::from(dict_of(&want[..rn]).is_some());
            assert_eq!(on, rn, "size for {what}");
            assert!(got[..on] == want[..rn], "bytes for {what}");
            let mut par = vec![0u8; n + 32];
            let pn = Context::compressor(CParams { nthreads: 3, ..cp }).compress(&src, &mut par);
            assert_eq!(pn, Ok(on), "{what}");
            assert!(par[..on] == got[..on], "threaded bytes for {what}");
            let mut back = vec![0u8; n];
            assert_eq!(rf.decompress(&got[..on], &mut back), Ok(n), "{what}");
            assert!(back == src, "reference decodes ours: {what}");
            let mut d = Context::decompressor(DParams::default());
            let mut mine = vec![0u8; n];
            assert_eq!(d.decompress(&want[..rn], &mut mine), Ok(n), "{what}");
            assert!(mine == src, "ours decodes the reference's: {what}");
            let mut items = vec![0u8; 400];
            let start = (n / typesize as usize / 2) as i32;
            let fresh = Context::decompressor(DParams::default()).getitem(
                &want[..rn],
                start,
                400 / typesize,
                &mut items,
            );
            assert_eq!(fresh, Ok(400), "{what}");
            let at = start as usize * typesize as usize;
            assert_eq!(&items[..], &src[at..at + 400], "getitem {what}");
        }
    }
    assert!(with_dict >= 15, "only {with_dict} chunks with a dictionary");
}

#[test]
fn dictionary_limits_follow_the_reference() {
    let src = make("text", 1 << 16, 4);
    let cp = CParams {
        compcode: ZSTD,
        use_dict: true,
        typesize: 1,
        ..CParams::default()
    };
    let mut dst = vec![0u8; (1 << 16) + 32];
    assert_eq!(
        Context::compressor(cp).compress(&src, &mut dst[..(1 << 16) + 31]),
        Err(Error::WriteBuffer),
        "destination below nbytes + 32"
    );
    let n = Context::compressor(CParams { clevel: 0, ..cp })
        .compress(&src, &mut dst)
        .unwrap();
    assert_eq!(
        (n, dst[2], dst[31]),
        ((1 << 16) + 32, 0x07, 0),
        "clevel 0: memcpy"
    );
    let n = Context::compressor(cp)
        .compress(&src[..5000], &mut dst)
        .unwrap();
    assert_eq!(
        dst[31] & USEDICT,
        0,
        "a 250-byte dictionary is not used ({n})"
    );
    for codec in [BLOSCLZ, ZLIB] {
        let r = Context::compressor(CParams {
            compcode: codec,
            ..cp
        })
        .compress(&src, &mut dst);
        assert_eq!(r, Err(Error::CodecParam));
    }
    // Incompressible data falls back to a memcpy chunk without the dictionary flag (the
    // reference keeps the flag and cannot decode its own chunk).
    let noise = make("noise", 1 << 16, 4);
    let n = Context::compressor(cp).compress(&noise, &mut dst).unwrap();
    assert_eq!((dst[2] & MEMCPYED, dst[31]), (MEMCPYED, 0));
    let mut back = vec![0u8; 1 << 16];
    let r = Context::decompressor(DParams::default()).decompress(&dst[..n], &mut back);
    assert_eq!(r, Ok(1 << 16));
    assert_eq!(back, noise);
}
