//! Round trips, special chunks, getitem, VL chunks, Blosc1 headers and parameter errors.

use super::data::{make, Rng};
use crate::chunk::{vl_nblocks, Header};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::error::Error;
use crate::testref::chunk as refc;

fn compress(cp: CParams, src: &[u8], destsize: usize) -> (Result<usize, Error>, Vec<u8>) {
    let mut dst = vec![0u8; destsize];
    let r = Context::compressor(cp).compress(src, &mut dst);
    if let Ok(n) = r {
        dst.truncate(n);
    }
    (r, dst)
}

fn lz4(typesize: i32) -> CParams {
    CParams {
        compcode: LZ4,
        typesize,
        filters: [0; 6],
        ..CParams::default()
    }
}

/// getitem over many ranges gives the same bytes and codes as the reference (and as a
/// slice of the full decode), including chunks with several blocks and memcpyed chunks.
#[test]
fn getitem_matches_reference_and_full_decode() {
    let mut r = Rng::new(3);
    let rf = refc::get();
    for (i, (cp, n)) in [
        (
            CParams {
                blocksize: 4096,
                ..lz4(4)
            },
            40_000,
        ),
        (
            CParams {
                clevel: 0,
                ..lz4(8)
            },
            4_000,
        ),
        (
            CParams {
                compcode: ZSTD,
                splitmode: ALWAYS_SPLIT,
                blocksize: 1000,
                ..lz4(2)
            },
            9_998,
        ),
        (
            CParams {
                compcode: ZLIB,
                typesize: 300,
                ..lz4(1)
            },
            7_000,
        ),
        (lz4(4), 100_000),
    ]
    .into_iter()
    .enumerate()
    {
        let src = make(
            ["arange", "text", "blocky", "floats", "zeros"][i],
            n,
            i as u64,
        );
        let (res, chunk) = compress(cp, &src, n + 64);
        res.expect("compresses");
        let ts = i64::from(Header::parse(&chunk).unwrap().typesize);
        let nitems = n as i64 / ts;
        let mut d = Context::decompressor(DParams::default());
        for _ in 0..200 {
            let start = r.below(nitems as usize + 3) as i32 - 1;
            let count = r.below(nitems as usize / 2 + 3) as i32 - 1;
            let mut ours = vec![0u8; (count.max(0) as usize) * ts as usize + r.below(2)];
            let got = d
                .getitem(&chunk, start, count, &mut ours)
                .map_err(|e| e.code());
            if let Ok(k) = got {
                let b = start as usize * ts as usize;
                assert_eq!(&ours[..k], &src[b..b + k]);
            }
            if let Some(rf) = rf {
                let mut theirs = vec![0u8; ours.len()];
                let want = rf.getitem(&chunk, start, count, &mut theirs);
                assert_eq!(got, want, "getitem({start}, {count}) code, case {i}");
                if let Ok(k) = want {
                    assert_eq!(ours[..k], theirs[..k]);
                }
            }
        }
    }
}

/// getitem on DELTA chunks decodes block 0 as reference (correct data, unlike the
/// reference) — checked against the full decode.
#[test]
fn getitem_on_delta_chunks_is_correct() {
    let src = make("arange", 50_000, 9);
    let cp = CParams {
        blocksize: 4096,
        filters: [0, 0, 0, 0, DELTA, 0],
        ..lz4(4)
    };
    let (res, chunk) = compress(cp, &src, 60_000);
    res.unwrap();
    let mut full = vec![0u8; src.len()];
    let mut d = Context::decompressor(DParams::default());
    d.decompress(&chunk, &mut full).unwrap();
    for (start, count) in [(0, 10), (1020, 10), (2000, 3000), (12_000, 500)] {
        let mut out = vec![0u8; count * 4];
        assert_eq!(
            d.getitem(&chunk, start as i32, count as i32, &mut out),
            Ok(count * 4)
        );
        assert_eq!(out, full[start * 4..(start + count) * 4]);
    }
}

fn special(kind: u8, typesize: u8, nbytes: i32, value: &[u8]) -> Vec<u8> {
    let mut c = vec![0u8; 32];
    c[..4].copy_from_slice(&[5, 1, 5, typesize]);
    c[4..8].copy_from_slice(&nbytes.to_le_bytes());
    c[8..12].copy_from_slice(&nbytes.max(1).to_le_bytes());
    c[12..16].copy_from_slice(&(32 + value.len() as i32).to_le_bytes());
    c[31] = kind << 4;
    c.extend_from_slice(value);
    c
}

/// The four special kinds decode as BEHAVIOUR §5 says, through decompress and getitem.
#[test]
fn special_chunks_decode() {
    let mut d = Context::decompressor(DParams::default());
    let mut out = vec![7u8; 8000];
    assert_eq!(
        d.decompress(&special(SPECIAL_ZERO, 8, 8000, &[]), &mut out),
        Ok(8000)
    );
    assert!(out.iter().all(|&b| b == 0));
    out.fill(7);
    assert_eq!(
        d.decompress(&special(SPECIAL_UNINIT, 8, 8000, &[]), &mut out),
        Ok(8000)
    );
    assert!(out.iter().all(|&b| b == 7), "uninit leaves dst untouched");
    assert_eq!(
        d.decompress(&special(SPECIAL_NAN, 4, 8000, &[]), &mut out),
        Ok(8000)
    );
    assert!(f32::from_le_bytes(out[4..8].try_into().unwrap()).is_nan());
    assert_eq!(
        d.decompress(&special(SPECIAL_NAN, 2, 8000, &[]), &mut out),
        Err(Error::Data)
    );
    let v = special(SPECIAL_VALUE, 8, 8000, &3.25f64.to_le_bytes());
    assert_eq!(d.decompress(&v, &mut out), Ok(8000));
    assert_eq!(f64::from_le_bytes(out[7992..].try_into().unwrap()), 3.25);
    let mut g = vec![0u8; 24];
    assert_eq!(d.getitem(&v, 10, 3, &mut g), Ok(24));
    assert_eq!(f64::from_le_bytes(g[16..].try_into().unwrap()), 3.25);
    // Zero detection on compression: all-zero input gives a 32-byte chunk.
    let (res, chunk) = compress(lz4(4), &vec![0u8; 100_000], 100_100);
    assert_eq!(res, Ok(32));
    assert_eq!(chunk[31], 0x10);
    // LZ4 (0x20), not split without shuffle (0x10), extended header (0x05).
    assert_eq!(&chunk[..4], &[5, 1, 0x35, 4]);
}

/// VL chunks of the corpus: block count, single blocks and concatenation.
#[test]
fn vl_chunks_decode_per_block() {
    let Some(corpus) = crate::testref::corpus() else {
        return;
    };
    let chunk = std::fs::read(corpus.join("chunks/vl005_zstd_ts4_cl5_3blocks.cdata"))
        .expect("the corpus VL chunk vl005");
    assert_eq!(vl_nblocks(&chunk), Ok(3));
    let mut d = Context::decompressor(DParams::default());
    let sizes: Vec<usize> = (0..3)
        .map(|j| d.vl_decompress_block(&chunk, j).unwrap().len())
        .collect();
    assert_eq!(sizes, [4000, 28, 3]);
    assert_eq!(d.vl_decompress_block(&chunk, 3), Err(Error::InvalidParam));
    let mut all = vec![0u8; 4031];
    assert_eq!(d.decompress(&chunk, &mut all), Ok(4031));
    assert_eq!(d.vl_decompress_block(&chunk, 1).unwrap(), all[4000..4028]);
    let mut g = vec![0u8; 8];
    assert_eq!(d.getitem(&chunk, 0, 1, &mut g), Err(Error::InvalidParam));
    let (_, regular) = compress(lz4(4), &make("text", 1000, 1), 1100);
    assert_eq!(vl_nblocks(&regular), Err(Error::InvalidParam));
}

/// The 16-byte header mode writes the measured Blosc1 bytes and decodes back.
#[test]
fn blosc1_header_mode() {
    let src = make("arange", 4000, 2);
    let mut c = Context::compressor(CParams {
        filters: [0; 6],
        compcode: LZ4,
        typesize: 4,
        ..CParams::default()
    });
    c.set_blosc1_header(true);
    let mut dst = vec![0u8; 4100];
    let n = c.compress(&src, &mut dst).unwrap();
    // LZ4 format (0x20), no shuffle so no split (0x10), no 0x05 extended marker.
    assert_eq!(&dst[..4], &[5, 1, 0x30, 4]);
    let mut out = vec![0u8; 4000];
    assert_eq!(
        Context::decompressor(DParams::default()).decompress(&dst[..n], &mut out),
        Ok(4000)
    );
    assert_eq!(out, src);
    let n = c.compress(&src[..20], &mut dst).unwrap();
    assert_eq!(&dst[..4], &[5, 1, 2, 4]);
    assert_eq!(n, 36);
}

/// Parameter errors of compression (API.md blosc2_compress_ctx) and decompression.
#[test]
fn parameter_errors() {
    let src = make("text", 1000, 4);
    let mut dst = vec![0u8; 2000];
    let run = |cp: CParams, dst: &mut [u8]| Context::compressor(cp).compress(&src, dst);
    assert_eq!(run(lz4(4), &mut dst[..31]), Err(Error::MaxBufsizeExceeded));
    assert_eq!(run(lz4(4), &mut dst[..32]), Ok(0));
    assert_eq!(
        run(
            CParams {
                clevel: 10,
                ..lz4(4)
            },
            &mut dst
        ),
        Err(Error::CodecParam)
    );
    assert_eq!(run(lz4(0), &mut dst), Err(Error::InvalidParam));
    assert_eq!(
        run(lz4(MAXTYPESIZE + 1), &mut dst),
        Err(Error::InvalidParam)
    );
    assert_eq!(
        run(
            CParams {
                compcode: 3,
                ..lz4(4)
            },
            &mut dst
        ),
        Err(Error::CodecSupport)
    );
    assert_eq!(
        run(
            CParams {
                compcode: 3,
                clevel: 0,
                ..lz4(4)
            },
            &mut dst
        ),
        Ok(1032)
    );
    let bad_filter = CParams {
        filters: [200, 0, 0, 0, 0, 0],
        ..lz4(4)
    };
    assert_eq!(run(bad_filter, &mut dst), Err(Error::FilterPipeline));
    let dict = CParams {
        use_dict: true,
        compcode: BLOSCLZ,
        ..lz4(4)
    };
    assert_eq!(run(dict, &mut dst), Err(Error::CodecParam));
    let (_, chunk) = compress(lz4(4), &src, 1100);
    let mut c = Context::compressor(lz4(4));
    assert_eq!(c.decompress(&chunk, &mut dst), Err(Error::InvalidParam));
    let mut d = Context::decompressor(DParams::default());
    assert_eq!(d.compress(&src, &mut dst), Err(Error::InvalidParam));
    assert_eq!(
        d.decompress(&chunk, &mut dst[..999]),
        Err(Error::WriteBuffer)
    );
    assert_eq!(d.decompress(&chunk[..15], &mut dst), Err(Error::ReadBuffer));
    assert_eq!(
        d.getitem_bytes(&chunk, 2, 8, &mut dst),
        Err(Error::InvalidParam)
    );
    assert_eq!(d.getitem_bytes(&chunk, 8, 8, &mut dst), Ok(8));
    assert_eq!(&dst[..8], &src[8..16]);
    assert_eq!(d.getitem(&chunk, 1001, 0, &mut dst), Ok(0));
    assert_eq!(
        d.getitem(&chunk, 0, 2, &mut dst[..7]),
        Err(Error::WriteBuffer)
    );
    assert_eq!(
        d.getitem(&chunk, 249, 2, &mut dst),
        Err(Error::InvalidParam)
    );
    // The blocksize the last compression used is reported.
    let mut c = Context::compressor(CParams {
        blocksize: 1001,
        ..lz4(4)
    });
    c.compress(&src, &mut dst).unwrap();
    assert_eq!(c.cparams().blocksize, 1000);
    // A reused context takes new parameters and can switch roles.
    c.set_cparams(CParams {
        clevel: 0,
        ..lz4(4)
    });
    assert_eq!(c.compress(&src, &mut dst), Ok(1032));
    c.set_dparams(DParams::default());
    let mut back = vec![0u8; 1000];
    assert_eq!(c.decompress(&dst[..1032], &mut back), Ok(1000));
    assert_eq!(back, src);
}

/// Chunks the reference writes with a trained dictionary (zstd, lz4, lz4hc) decode here.
#[test]
fn reference_dictionary_chunks_decode() {
    let Some(rf) = refc::get() else { return };
    for (i, compcode) in [ZSTD, LZ4, LZ4HC].into_iter().enumerate() {
        for (n, kind) in [(200_000, "text"), (1 << 20, "floats"), (50_000, "arange")] {
            let src = make(kind, n, i as u64);
            let cp = CParams {
                compcode,
                use_dict: true,
                typesize: 4,
                filters: [0; 6],
                blocksize: 16384,
                ..CParams::default()
            };
            let mut chunk = vec![0u8; n + 64];
            let len = rf
                .compress_ctx(&cp, &src, &mut chunk)
                .expect("reference compresses");
            let mut want = vec![0u8; n];
            let rd = rf.decompress(&chunk[..len], &mut want);
            let mut out = vec![0u8; n];
            for nthreads in [1, 2] {
                let mut d = Context::decompressor(DParams {
                    nthreads,
                    ..DParams::default()
                });
                let r = d.decompress(&chunk[..len], &mut out).map_err(|e| e.code());
                assert_eq!(r, rd, "{compcode} {kind}");
                assert!(out == want, "dict chunk {compcode} {kind}");
            }
            if rd.is_err() {
                // The reference cannot read its own memcpyed dictionary chunks (the
                // dictionary flag stays set without a dictionary); we agree on the error.
                continue;
            }
            assert!(want == src);
            let mut g = vec![0u8; 400];
            assert_eq!(
                Context::decompressor(DParams::default()).getitem(&chunk[..len], 5000, 100, &mut g),
                Ok(400)
            );
            assert_eq!(g, src[20_000..20_400]);
        }
    }
}

/// A block mask skips blocks (left untouched, still counted) for one call only; a mask of
/// the wrong length is invalid data.
#[test]
fn maskout_skips_blocks_once() {
    let src = make("text", 40_000, 6);
    let (res, chunk) = compress(
        CParams {
            blocksize: 10_000,
            ..lz4(4)
        },
        &src,
        41_000,
    );
    res.unwrap();
    for nthreads in [1, 2] {
        let mut d = Context::decompressor(DParams {
            nthreads,
            ..DParams::default()
        });
        let mut out = vec![9u8; 40_000];
        d.set_maskout(&[false, true, false, true]);
        assert_eq!(d.decompress(&chunk, &mut out), Ok(40_000));
        assert_eq!(out[..10_000], src[..10_000]);
        assert!(out[10_000..20_000].iter().all(|&b| b == 9));
        assert_eq!(out[20_000..30_000], src[20_000..30_000]);
        assert!(out[30_000..].iter().all(|&b| b == 9));
        assert_eq!(d.decompress(&chunk, &mut out), Ok(40_000));
        assert_eq!(out, src);
        d.set_maskout(&[true; 3]);
        assert_eq!(d.decompress(&chunk, &mut out), Err(Error::Data));
    }
}

/// With the destination at or near the chunk's size, parallel compression ends exactly as
/// the serial one (same bytes, or 0 when it does not fit): for noise, whose last blocks
/// overflow, and for chunks half noise, half ramp that fit with little room left.
#[test]
fn tight_destinations_give_the_serial_outcome_on_threads() {
    let n = 600_000;
    let halves = |first: &str, second: &str| {
        let mut v = make(first, n / 2, 7);
        v.extend(make(second, n - n / 2, 8));
        v
    };
    let chunks = [
        make("noise", n, 7),
        halves("noise", "arange"),
        halves("arange", "noise"),
    ];
    for compcode in [BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD] {
        for (i, src) in chunks.iter().enumerate() {
            let serial = CParams {
                compcode,
                clevel: 5,
                typesize: 4,
                blocksize: 32 * 1024,
                ..lz4(4)
            };
            let full = compress(serial, src, n + MAX_OVERHEAD).0.unwrap();
            for destsize in [
                n + MAX_OVERHEAD,
                n + 16,
                full + 1000,
                full + 64,
                full + 2,
                full - 40,
            ] {
                let (want_n, want) = compress(serial, src, destsize);
                for nthreads in [2, 3] {
                    let cp = CParams { nthreads, ..serial };
                    let (got_n, got) = compress(cp, src, destsize);
                    let case = format!(
                        "codec {compcode} chunk {i} destsize {destsize} nthreads {nthreads}"
                    );
                    assert_eq!(got_n, want_n, "{case}");
                    assert!(got == want, "{case}");
                }
            }
        }
    }
}

/// A forced blocksize that is not a whole number of items (the blocks use it rounded down):
/// the chunk decodes exactly, by us and by the reference. The reference's own chunks for
/// these parameters say the forced blocksize and it then fails or gets the tail wrong.
#[test]
fn forced_blocksizes_that_split_items_decode_exactly() {
    let rf = refc::get();
    let mut r = Rng::new(11);
    let mut repaired = 0;
    for (typesize, blocksize, n) in [
        (16, 16384, 34),
        (3, 4096, 1000),
        (7, 16384, 262_143),
        (8, 16384, 100),
        (16, 1000, 10_000),
        (5, 999, 4_321),
    ] {
        for compcode in [BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD] {
            let src = make(r.pick(&["blocky", "arange", "text"]), n, n as u64);
            let cp = CParams {
                compcode,
                typesize,
                blocksize,
                splitmode: r.pick(&[ALWAYS_SPLIT, NEVER_SPLIT]),
                filters: [0, 0, 0, 0, 0, r.pick(&[NOFILTER, SHUFFLE, BITSHUFFLE])],
                ..lz4(typesize)
            };
            let (c, chunk) = compress(cp, &src, n + MAX_OVERHEAD);
            let c = c.unwrap();
            let h = Header::parse(&chunk).unwrap();
            if !h.is_memcpyed() && h.blocksize != blocksize.min(n as i32) {
                repaired += 1;
            }
            let mut back = vec![0u8; n];
            let got = Context::decompressor(DParams::default()).decompress(&chunk[..c], &mut back);
            assert_eq!(got, Ok(n), "{cp:?}");
            assert!(back == src, "{cp:?}");
            if let Some(rf) = rf {
                back.fill(0);
                assert_eq!(rf.decompress(&chunk[..c], &mut back), Ok(n), "{cp:?}");
                assert!(back == src, "reference, {cp:?}");
            }
        }
    }
    assert!(
        repaired > 10,
        "only {repaired} chunks needed a repaired blocksize"
    );
}

/// DELTA chunks of a few blocks decode with several threads (the later blocks then decoded
/// alongside the first and XORed with it afterwards) as the reference decodes them: chunks
/// made by the reference and by us, DELTA first or not, with a short last block.
#[test]
fn delta_chunks_of_few_blocks_decode_on_several_threads() {
    let Some(rf) = refc::get() else {
        return;
    };
    let n = 4 * 8192 + 1000;
    for filters in [
        [0, 0, 0, 0, DELTA, SHUFFLE],
        [0, 0, 0, 0, 0, DELTA],
        [0, 0, 0, DELTA, BITSHUFFLE, SHUFFLE],
        [0, 0, 0, TRUNC_PREC, DELTA, SHUFFLE],
        [0, 0, 0, 0, SHUFFLE, DELTA],
    ] {
        for typesize in [1, 3, 4, 8] {
            for kind in ["arange", "floats", "noise", "zeros"] {
                let src = make(kind, n, typesize as u64);
                let cp = CParams {
                    compcode: ZSTD,
                    clevel: 5,
                    typesize,
                    blocksize: 8192,
                    filters,
                    filters_meta: [0, 0, 0, 23, 0, 0],
                    ..CParams::default()
                };
                let mut theirs = vec![0u8; n + MAX_OVERHEAD];
                let (Ok(tn), (Ok(_), ours)) = (
                    rf.compress_ctx(&cp, &src, &mut theirs),
                    compress(cp, &src, n + MAX_OVERHEAD),
                ) else {
                    // TRUNC_PREC takes 4- and 8-byte items only, in both libraries.
                    assert!(filters[3] == TRUNC_PREC && !matches!(typesize, 4 | 8));
                    continue;
                };
                for chunk in [&theirs[..tn], &ours[..]] {
                    // Some DELTA chunks of odd typesizes the reference writes but cannot
                    // read; the others must decode as it decodes them.
                    let mut want = vec![0u8; n];
                    if rf.decompress(chunk, &mut want) != Ok(n) {
                        continue;
                    }
                    for nthreads in [1, 2, 3] {
                        let mut d = Context::decompressor(DParams {
                            nthreads,
                            ..DParams::default()
                        });
                        let mut out = vec![0u8; n];
                        let case = format!("{filters:?} {typesize} {kind} {nthreads}");
                        assert_eq!(d.decompress(chunk, &mut out), Ok(n), "{case}");
                        assert!(out == want, "{case}");
                    }
                }
            }
        }
    }
}
