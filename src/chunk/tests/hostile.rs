//! Corrupted and hostile chunks: never a panic, never out of bounds, and the reference's
//! error codes.

use super::data::{make, Rng};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::testref::chunk as refc;

/// Valid chunks of many shapes, made by our compressor with codecs that need no helper.
fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let shapes: [(u8, u8, i32, usize, i32, &str); 10] = [
        (LZ4, 5, 4, 10_000, ALWAYS_SPLIT, "arange"),
        (ZSTD, 3, 8, 70_000, NEVER_SPLIT, "text"),
        (ZLIB, 1, 2, 5_000, ALWAYS_SPLIT, "blocky"),
        (LZ4HC, 9, 1, 3_000, FORWARD_COMPAT_SPLIT, "noise"),
        (LZ4, 0, 4, 500, FORWARD_COMPAT_SPLIT, "arange"),
        (LZ4, 5, 4, 100_000, ALWAYS_SPLIT, "zeros"),
        (ZSTD, 5, 4, 40_000, ALWAYS_SPLIT, "blocky"),
        (LZ4, 5, 16, 20, FORWARD_COMPAT_SPLIT, "text"),
        (ZSTD, 1, 4, 0, FORWARD_COMPAT_SPLIT, "text"),
        (LZ4, 1, 3, 9_000, ALWAYS_SPLIT, "floats"),
    ];
    for (i, &(compcode, clevel, typesize, n, splitmode, kind)) in shapes.iter().enumerate() {
        let cp = CParams {
            compcode,
            clevel,
            typesize,
            splitmode,
            filters: [[0; 6], [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 3, 2]][i % 3],
            blocksize: if i == 6 { 4096 } else { 0 },
            ..CParams::default()
        };
        let src = make(kind, n, i as u64);
        let mut dst = vec![0u8; n + 64];
        let mut c = Context::compressor(cp);
        if i == 9 {
            c.set_blosc1_header(true);
        }
        let len = c.compress(&src, &mut dst).expect("seed compresses");
        dst.truncate(len);
        out.push(dst);
    }
    // A repeated-value special chunk and a VL chunk from the corpus shapes.
    let mut v = vec![0u8; 40];
    v[..4].copy_from_slice(&[5, 1, 5, 8]);
    v[4..8].copy_from_slice(&800i32.to_le_bytes());
    v[8..12].copy_from_slice(&800i32.to_le_bytes());
    v[12..16].copy_from_slice(&40i32.to_le_bytes());
    v[31] = SPECIAL_VALUE << 4;
    v[32..40].copy_from_slice(&3.25f64.to_le_bytes());
    out.push(v);
    // A VL-block chunk of the corpus and a reference chunk with a zstd dictionary.
    if let Some(corpus) = crate::testref::corpus() {
        let vl = corpus.join("chunks/vl005_zstd_ts4_cl5_3blocks.cdata");
        out.push(std::fs::read(vl).expect("the corpus VL chunk vl005"));
    }
    if let Some(rf) = refc::get() {
        let src = make("text", 30_000, 3);
        let cp = CParams {
            compcode: ZSTD,
            use_dict: true,
            typesize: 4,
            filters: [0; 6],
            blocksize: 4096,
            ..CParams::default()
        };
        let mut dst = vec![0u8; 30_100];
        let n = rf
            .compress_ctx(&cp, &src, &mut dst)
            .expect("reference dict chunk");
        dst.truncate(n);
        out.push(dst);
    }
    out
}

/// Whether the reference's decoding of `chunk` is comparable with ours: instrumented
/// chunks (blosc2_flags bit 7) decode to instrumentation records in the reference, which we
/// do not produce.
fn comparable(chunk: &[u8]) -> bool {
    let Ok(h) = crate::chunk::Header::parse(chunk) else {
        return true;
    };
    !(h.is_extended() && h.blosc2_flags & INSTR_CODEC != 0)
}

fn ours(chunk: &[u8], nbytes: usize, nthreads: i16) -> (Result<usize, i32>, Vec<u8>) {
    let mut out = vec![0xa5u8; nbytes];
    let mut d = Context::decompressor(DParams {
        nthreads,
        ..DParams::default()
    });
    let r = d.decompress(chunk, &mut out).map_err(|e| e.code());
    (r, out)
}

/// Mutations of every header and block-start byte, random bytes and truncations: no
/// panic, the same result with 1 and 3 threads, the destination untouched on errors
/// found in the header, and the reference's return code.
#[test]
fn mutated_chunks_never_panic_and_match_reference_codes() {
    let rf = refc::get();
    let mut r = Rng::new(7);
    let mut cases = 0usize;
    let mut mismatches: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    for seed in seeds() {
        let mut variants: Vec<Vec<u8>> = Vec::new();
        for pos in 0..seed.len().min(64) {
            for v in [0u8, 0xff, 0x7f, 0x80, seed[pos] ^ 1, seed[pos] ^ 0x10] {
                let mut m = seed.clone();
                m[pos] = v;
                variants.push(m);
            }
        }
        for _ in 0..300 {
            let mut m = seed.clone();
            for _ in 0..1 + r.below(4) {
                let p = r.below(m.len().max(1));
                if let Some(b) = m.get_mut(p) {
                    *b = r.next() as u8;
                }
            }
            variants.push(m);
        }
        for cut in 0..seed.len() {
            if cut < 80 || r.below(20) == 0 {
                variants.push(seed[..cut].to_vec());
            }
        }
        for m in variants {
            for nbytes in [0usize, 100, 200_000] {
                cases += 1;
                let (a, out1) = ours(&m, nbytes, 1);
                let (b, _) = ours(&m, nbytes, 3);
                assert_eq!(
                    a,
                    b,
                    "thread counts disagree on {:02x?}",
                    &m[..m.len().min(40)]
                );
                if matches!(a, Err(-6) | Err(-10) | Err(-11)) {
                    assert!(
                        out1.iter().all(|&x| x == 0xa5),
                        "dst touched on header error"
                    );
                }
                let mut g = vec![0u8; 64];
                let gi = Context::decompressor(DParams::default())
                    .getitem(&m, 1, 8, &mut g)
                    .map_err(|e| e.code());
                // Lazy chunks only make sense with a super-chunk behind them; their codes
                // depend on it.
                let lazy = m.len() >= 32 && m[2] & 0x05 == 0x05 && m[31] & 0x08 != 0;
                if let (Some(rf), false) = (rf, lazy) {
                    let mut out = vec![0xa5u8; nbytes];
                    let want = rf.decompress(&m, &mut out);
                    let hdr_nbytes = m
                        .get(4..8)
                        .map(|b| i32::from_le_bytes(b.try_into().unwrap()));
                    if let (Ok(n), true) = (a, a == want) {
                        if hdr_nbytes == Some(n as i32) && comparable(&m) {
                            assert!(
                                out1[..n] == out[..n],
                                "decoded data differ on {:02x?}",
                                &m[..m.len().min(40)]
                            );
                        }
                    }
                    let mut rg = vec![0u8; 64];
                    // The reference's getitem cannot read dictionary chunks (it never loads
                    // the dictionary and reports -3); ours decodes them, so skip those.
                    let dict = m.len() >= 32 && m[2] & 0x05 == 0x05 && m[31] & 0x01 != 0;
                    let gwant = if dict {
                        gi
                    } else {
                        rf.getitem(&m, 1, 8, &mut rg)
                    };
                    if let (Ok(k), true) = (gi, gi == gwant && comparable(&m) && !dict) {
                        assert!(
                            g[..k] == rg[..k],
                            "getitem data differ on {:02x?}",
                            &m[..m.len().min(40)]
                        );
                    }
                    if gwant != gi {
                        let e = mismatches
                            .entry(format!("getitem ours {gi:?} ref {gwant:?}"))
                            .or_default();
                        e.0 += 1;
                        if e.1.is_empty() {
                            e.1 = format!("len {} {:02x?}", m.len(), &m[..m.len().min(56)]);
                        }
                    }
                    if want != a {
                        let e = mismatches
                            .entry(format!("ours {a:?} ref {want:?}"))
                            .or_default();
                        e.0 += 1;
                        if e.1.is_empty() {
                            e.1 = format!(
                                "nbytes {nbytes} len {} {:02x?}",
                                m.len(),
                                &m[..m.len().min(56)]
                            );
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "hostile: {cases} cases, {} kinds of code mismatch",
        mismatches.len()
    );
    for (k, (n, ex)) in &mismatches {
        eprintln!("  {k}: {n} times, e.g. {ex}");
    }
    assert!(mismatches.is_empty());
}
