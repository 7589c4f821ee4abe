//! Byte-for-byte comparison with the reference library's compressor and decoder.

use super::data::{build_filters, make, Rng, KINDS};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::testref::chunk::{self as refc, Global};

const CODECS: [(u8, &str); 5] = [
    (LZ4, "lz4"),
    (LZ4HC, "lz4hc"),
    (ZSTD, "zstd"),
    (ZLIB, "zlib"),
    (BLOSCLZ, "blosclz"),
];
const SIZES: [usize; 14] = [
    0, 1, 7, 31, 32, 33, 100, 1000, 4000, 4096, 32768, 65543, 262_144, 300_007,
];
const TYPESIZES: [i32; 10] = [1, 2, 3, 4, 7, 8, 16, 17, 255, 256];

fn diff(a: &[u8], b: &[u8]) -> String {
    let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
    format!(
        "first diff at {i}\nours {:02x?}\nref  {:02x?}",
        &a[..a.len().min(48)],
        &b[..b.len().min(48)]
    )
}

fn ours(cp: &CParams, src: &[u8], dst: &mut [u8]) -> Result<usize, i32> {
    Context::compress(&mut Context::compressor(*cp), src, dst).map_err(|e| e.code())
}

fn decode_ours(chunk: &[u8], nbytes: usize, nthreads: i16) -> Result<Vec<u8>, i32> {
    let mut out = vec![0u8; nbytes];
    let mut d = Context::decompressor(DParams {
        nthreads,
        ..DParams::default()
    });
    d.decompress(chunk, &mut out).map_err(|e| e.code())?;
    Ok(out)
}

/// Compares our chunk with the reference's: identical, except where the reference wrote a
/// forced blocksize that is not a whole number of items although its blocks use it rounded
/// down (a chunk it cannot decode). There only our header's blocksize may differ, and it
/// must be the smaller, used one. Returns whether that was the case.
fn compare_chunks(got: &[u8], want: &[u8], case: &dyn std::fmt::Debug) -> bool {
    if got == want {
        return false;
    }
    let only_blocksize =
        got.len() == want.len() && got[..8] == want[..8] && got[12..] == want[12..];
    assert!(
        only_blocksize,
        "chunk bytes differ for {case:?}\n{}",
        diff(got, want)
    );
    let blocksize = |c: &[u8]| i32::from_le_bytes([c[8], c[9], c[10], c[11]]);
    assert!(
        blocksize(got) < blocksize(want),
        "blocksize grew for {case:?}"
    );
    true
}

/// For a chunk whose header [`compare_chunks`] found repaired: both decoders read ours
/// back to `src`, and on the reference's chunk (which it mostly fails on or reads with a
/// wrong tail) our decoder returns what the reference's returns.
fn check_repaired(
    rf: &refc::Reference,
    got: &[u8],
    want: &[u8],
    src: &[u8],
    case: &dyn std::fmt::Debug,
) {
    let mut back = vec![0u8; src.len()];
    assert_eq!(
        rf.decompress(got, &mut back),
        Ok(src.len()),
        "reference on ours, {case:?}"
    );
    assert!(back == src, "reference decodes ours wrongly, {case:?}");
    for nthreads in [1, 3] {
        assert_eq!(
            decode_ours(got, src.len(), nthreads).as_deref(),
            Ok(src),
            "{case:?}"
        );
    }
    let theirs = rf.decompress(want, &mut back);
    let mut mine = vec![0u8; src.len()];
    let ours_on_theirs = Context::decompressor(DParams::default())
        .decompress(want, &mut mine)
        .map_err(|e| e.code());
    assert_eq!(
        ours_on_theirs, theirs,
        "decoders disagree on the reference's chunk, {case:?}"
    );
}

/// One sampled compression case.
#[derive(Debug, Clone, Copy)]
struct Case {
    compcode: u8,
    compname: &'static str,
    clevel: u8,
    doshuffle: i32,
    typesize: i32,
    nbytes: usize,
    splitmode: i32,
    delta: bool,
    blocksize: i32,
    kind: &'static str,
    destsize: usize,
}

fn sample(r: &mut Rng, big: bool) -> Case {
    let (compcode, compname) = r.pick(&CODECS);
    let nbytes = if big {
        r.pick(&SIZES)
    } else {
        r.pick(&SIZES[..11])
    };
    let destsize = match r.below(6) {
        0 => nbytes / 2 + 32,
        1 => nbytes + 16,
        2 => r.below(nbytes + 64),
        _ => nbytes + MAX_OVERHEAD,
    };
    let mut case = Case {
        compcode,
        compname,
        clevel: r.pick(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
        doshuffle: r.pick(&[0, 1, 2]),
        typesize: r.pick(&TYPESIZES),
        nbytes,
        splitmode: r.pick(&[ALWAYS_SPLIT, NEVER_SPLIT, AUTO_SPLIT, FORWARD_COMPAT_SPLIT]),
        delta: r.below(5) == 0,
        blocksize: if r.below(6) == 0 {
            r.pick(&[0, 16, 1000, 4096, 16384, 65536])
        } else {
            0
        },
        kind: r.pick(&KINDS),
        destsize,
    };
    // The reference leaves the trailing `nbytes % typesize` bytes of a DELTA block
    // unwritten (compressing whatever the scratch buffer held), so its bytes are only
    // reproducible for whole items.
    if case.delta && case.typesize > 0 {
        let ts = case.typesize as usize;
        case.nbytes -= case.nbytes % ts;
    }
    case
}

fn params(c: &Case) -> CParams {
    CParams {
        compcode: c.compcode,
        clevel: c.clevel,
        typesize: c.typesize,
        nthreads: 1,
        blocksize: c.blocksize,
        splitmode: c.splitmode,
        filters: build_filters(c.doshuffle, c.delta, c.typesize),
        ..CParams::default()
    }
}

/// `blosc2_compress` (global API) and our compressor give the same bytes and codes, and
/// each side decodes the other's chunks to the original data.
#[test]
fn global_api_output_is_byte_identical() {
    let Some(rf) = refc::get() else { return };
    let mut r = Rng::new(1);
    let mut done = 0;
    for i in 0..1500 {
        let c = sample(&mut r, i % 4 == 0);
        let cp = params(&c);
        let src = make(c.kind, c.nbytes, i);
        let mut want = vec![0u8; c.destsize];
        let mut got = vec![0u8; c.destsize];
        let g = Global {
            compname: c.compname,
            splitmode: c.splitmode,
            blocksize: c.blocksize as usize,
            delta: c.delta,
        };
        let rr = rf.compress_global(
            &g,
            i32::from(c.clevel),
            c.doshuffle,
            c.typesize,
            &src,
            &mut want,
        );
        let or = ours(&cp, &src, &mut got);
        assert_eq!(or, rr, "return value differs for {c:?}");
        let Ok(n) = rr else { continue };
        done += 1;
        if compare_chunks(&got[..n], &want[..n], &c) {
            check_repaired(rf, &got[..n], &want[..n], &src, &c);
            continue;
        }
        if n == 0 {
            continue;
        }
        let mut back = vec![0u8; c.nbytes];
        let ref_dec = rf.decompress(&got[..n], &mut back);
        let mut mine = vec![0u8; c.nbytes];
        let our_dec = Context::decompressor(DParams::default())
            .decompress(&want[..n], &mut mine)
            .map_err(|e| e.code());
        assert_eq!(
            our_dec,
            ref_dec,
            "decode result differs for {c:?} {:02x?}",
            &want[..n.min(40)]
        );
        if let Ok(m) = ref_dec {
            // A short count means the reference's chunk leaves a tail undefined.
            let defined = if m == c.nbytes {
                m
            } else {
                m / c.typesize.max(1) as usize * c.typesize.max(1) as usize
            };
            assert!(
                mine[..defined.min(m)] == back[..defined.min(m)],
                "decoded data differ for {c:?}"
            );
        }
        let same = decode_ours(&want[..n], c.nbytes, 3) == decode_ours(&want[..n], c.nbytes, 1);
        assert!(same, "threaded decode differs for {c:?}");
    }
    eprintln!("global API: {done} cases compared");
    assert!(done > 100);
}

/// The same through contexts, with arbitrary filter pipelines, and identical output for
/// every thread count.
#[test]
fn context_api_output_is_byte_identical_for_all_thread_counts() {
    let Some(rf) = refc::get() else { return };
    let mut r = Rng::new(2);
    let mut done = 0;
    for i in 0..800 {
        let c = sample(&mut r, i % 3 == 0);
        let mut cp = params(&c);
        if r.below(4) == 0 {
            cp.filters = [0; 6];
            for _ in 0..1 + r.below(2) {
                let slot = r.below(6);
                cp.filters[slot] = r.pick(&[SHUFFLE, BITSHUFFLE, DELTA, TRUNC_PREC]);
                if cp.filters[slot] == SHUFFLE && r.below(2) == 0 {
                    cp.filters_meta[slot] = r.pick(&[1, 2, 4]);
                }
                if cp.filters[slot] == TRUNC_PREC {
                    cp.filters_meta[slot] = r.pick(&[4, 10, 20]);
                    cp.typesize = r.pick(&[4, 8]);
                }
            }
        }
        // Like DELTA, TRUNC_PREC leaves the bytes after the last whole item unwritten in
        // the reference, so only whole items give reproducible bytes.
        let mut c = c;
        if cp.filters.iter().any(|&f| matches!(f, DELTA | TRUNC_PREC)) {
            c.nbytes -= c.nbytes % cp.typesize as usize;
        }
        let src = make(c.kind, c.nbytes, i + 10_000);
        let mut want = vec![0u8; c.destsize];
        let mut got = vec![0u8; c.destsize];
        let rr = rf.compress_ctx(&cp, &src, &mut want);
        let or = ours(&cp, &src, &mut got);
        assert_eq!(or, rr, "return value differs for {c:?} {cp:?}");
        let Ok(n) = rr else { continue };
        if compare_chunks(&got[..n], &want[..n], &(c, cp)) {
            check_repaired(rf, &got[..n], &want[..n], &src, &(c, cp));
        }
        for nthreads in [2, 4] {
            let mut par = vec![0u8; c.destsize];
            let pn = ours(&CParams { nthreads, ..cp }, &src, &mut par);
            assert_eq!(pn, Ok(n), "threaded size differs for {c:?}");
            assert!(par[..n] == got[..n], "threaded bytes differ for {c:?}");
        }
        done += 1;
    }
    eprintln!("context API: {done} cases compared");
    assert!(done > 50);
}

/// The 16-byte header mode (`BLOSC_BLOSC1_COMPAT`) gives the reference's bytes too.
#[test]
fn blosc1_header_output_is_byte_identical() {
    let Some(rf) = refc::get() else { return };
    let mut r = Rng::new(5);
    let mut done = 0;
    for i in 0..400 {
        let c = sample(&mut r, i % 4 == 0);
        let cp = params(&c);
        let src = make(c.kind, c.nbytes, i + 20_000);
        let mut want = vec![0u8; c.destsize];
        let mut got = vec![0u8; c.destsize];
        let g = Global {
            compname: c.compname,
            splitmode: c.splitmode,
            blocksize: c.blocksize as usize,
            delta: c.delta,
        };
        let rr = rf.compress_global_blosc1(
            &g,
            i32::from(c.clevel),
            c.doshuffle,
            c.typesize,
            &src,
            &mut want,
        );
        let mut ctx = Context::compressor(cp);
        ctx.set_blosc1_header(true);
        let or = ctx.compress(&src, &mut got).map_err(|e| e.code());
        assert_eq!(or, rr, "return value differs for {c:?}");
        let Ok(n) = rr else { continue };
        if compare_chunks(&got[..n], &want[..n], &c) {
            check_repaired(rf, &got[..n], &want[..n], &src, &c);
        } else if n > 0 {
            let mut back = vec![0u8; c.nbytes];
            let rd = rf.decompress(&got[..n], &mut back);
            let mut mine = vec![0u8; c.nbytes];
            let od = Context::decompressor(DParams::default())
                .decompress(&want[..n], &mut mine)
                .map_err(|e| e.code());
            assert_eq!(od, rd, "decode differs for {c:?}");
            // A failed decode leaves the destination undefined on both sides.
            if rd.is_ok() {
                assert!(mine == back, "decoded data differ for {c:?}");
            }
        }
        done += 1;
    }
    eprintln!("Blosc1 header: {done} cases compared");
    assert!(done > 30);
}

/// Pipelines of three or more filters with DELTA: the reference XORs blocks after the first
/// with the first block as its pipeline left it in the source buffer.
#[test]
fn delta_after_three_filters_matches_the_reference() {
    let Some(rf) = refc::get() else { return };
    let pipelines: [[u8; 6]; 6] = [
        [SHUFFLE, TRUNC_PREC, DELTA, 0, 0, 0],
        [DELTA, SHUFFLE, BITSHUFFLE, 0, 0, 0],
        [SHUFFLE, 0, BITSHUFFLE, TRUNC_PREC, DELTA, 0],
        [DELTA, DELTA, SHUFFLE, 0, 0, 0],
        [SHUFFLE, TRUNC_PREC, BITSHUFFLE, SHUFFLE, BITSHUFFLE, DELTA],
        [SHUFFLE, DELTA, 0, 0, 0, 0],
    ];
    for (i, filters) in pipelines.into_iter().enumerate() {
        let mut meta = [0u8; 6];
        for (m, &f) in meta.iter_mut().zip(&filters) {
            if f == TRUNC_PREC {
                *m = 20;
            }
        }
        let cp = CParams {
            compcode: LZ4,
            clevel: 5,
            typesize: 8,
            blocksize: 4096,
            filters,
            filters_meta: meta,
            ..CParams::default()
        };
        let src = make("floats", 40_000, i as u64);
        let mut want = vec![0u8; 40_000 + MAX_OVERHEAD];
        let mut got = vec![0u8; 40_000 + MAX_OVERHEAD];
        let n = rf
            .compress_ctx(&cp, &src, &mut want)
            .expect("reference compresses");
        for nthreads in [1, 3] {
            let m = ours(&CParams { nthreads, ..cp }, &src, &mut got);
            assert_eq!(m, Ok(n), "size differs for {filters:?}");
            assert!(
                got[..n] == want[..n],
                "bytes differ for {filters:?}\n{}",
                diff(&got[..n], &want[..n])
            );
        }
    }
}

/// Threaded compression into destinations around the compressed size (where blocks stop
/// fitting their slot, the chunk, or both) returns the reference's serial result, bytes
/// included, and never hangs: blocks past the last one placed are redone serially. Blocks
/// of 1 KiB go to the threads in groups, which then stop fitting part way.
#[test]
fn threaded_output_matches_the_reference_at_every_tight_destination() {
    let Some(rf) = refc::get() else { return };
    for (kind, compcode, filters, blocksize) in [
        ("floats", BLOSCLZ, [0, 0, 0, 0, 0, SHUFFLE], 16 * 1024),
        ("random", LZ4, [0; 6], 16 * 1024),
        ("text", ZSTD, [0, 0, 0, 0, DELTA, SHUFFLE], 16 * 1024),
        ("floats", LZ4, [0, 0, 0, 0, 0, SHUFFLE], 1024),
        ("random", BLOSCLZ, [0; 6], 1024),
        ("text", ZLIB, [0, 0, 0, 0, DELTA, SHUFFLE], 1024),
    ] {
        let cp = CParams {
            compcode,
            clevel: 5,
            typesize: 8,
            blocksize,
            filters,
            ..CParams::default()
        };
        let src = make(kind, 200_000, 7);
        let mut want = vec![0u8; src.len() + MAX_OVERHEAD];
        let full = rf
            .compress_ctx(&cp, &src, &mut want)
            .expect("reference compresses");
        for destsize in (full.saturating_sub(40_000)..full + 40_000).step_by(997) {
            let mut want = vec![0u8; destsize];
            let rr = rf.compress_ctx(&cp, &src, &mut want);
            for nthreads in [2, 3] {
                let mut got = vec![0u8; destsize];
                let or = ours(&CParams { nthreads, ..cp }, &src, &mut got);
                assert_eq!(or, rr, "{kind} destsize {destsize} nthreads {nthreads}");
                if let Ok(n) = rr {
                    assert!(got[..n] == want[..n], "{kind} destsize {destsize}");
                }
            }
        }
    }
}

#[test]
fn lazy_flagged_memcpyed_and_special_chunks_decode_as_in_the_reference() {
    let Some(rf) = refc::get() else { return };
    let cp = CParams {
        compcode: LZ4,
        typesize: 8,
        ..CParams::default()
    };
    let src = make("random", 120, 3);
    let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD];
    let n = ours(&cp, &src, &mut chunk).expect("compresses");
    chunk.truncate(n);
    assert!(
        chunk[2] & MEMCPYED != 0,
        "random bytes are stored as they are"
    );
    // Lazy flag with every special kind (or none), with and without a dictionary flag; the
    // source is given room past its end, as the reference reads past a lazy chunk's.
    for special in [0u8, SPECIAL_ZERO, SPECIAL_NAN, SPECIAL_UNINIT] {
        for extra in [0u8, USEDICT] {
            let mut c = chunk.clone();
            c[31] = (special << 4) | LAZY_CHUNK | extra;
            let mut padded = c.clone();
            padded.resize(c.len() + 4096, 0);
            let case = format!("special {special} flags {:#x}", c[31]);
            let (mut want, mut got) = (vec![0u8; 120], vec![0u8; 120]);
            let rr = rf.decompress(&padded[..c.len()], &mut want);
            let or = decode_ours(&c, 120, 1).map(|v| {
                got = v;
                120
            });
            assert_eq!(or, rr, "decompress, {case}");
            if special != SPECIAL_UNINIT {
                assert_eq!(got, want, "decoded bytes, {case}");
            }
            let (mut want, mut got) = (vec![0u8; 16], vec![0u8; 16]);
            let rr = rf.getitem(&padded[..c.len()], 3, 2, &mut want);
            let or = Context::decompressor(DParams::default())
                .getitem(&c, 3, 2, &mut got)
                .map_err(|e| e.code());
            assert_eq!(or, rr, "getitem, {case}");
            if special != SPECIAL_UNINIT {
                assert_eq!(got, want, "items, {case}");
            }
        }
    }
}
