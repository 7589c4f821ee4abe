//! The bodies of the fuzz targets, shared by the libFuzzer binaries (each calls one) and by
//! the regression test `tests/fuzz_regressions.rs`, which replays the inputs kept in
//! `fuzz/regressions/<target>/` through [`run`].
//!
//! Every body must return without panicking on any input; the differential bodies also
//! assert that this library and the reference agree.
#![allow(dead_code)] // every fuzz binary uses one entry point

mod b2nd;
mod memio;
mod reference;

pub use b2nd::b2nd_read;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use blosc2::chunk::Header;
use blosc2::constants::{
    DELTA, DOBITSHUFFLE, INSTR_CODEC, MAX_OVERHEAD, SHUFFLE, SPECIAL_NAN, SPECIAL_UNINIT,
    SPECIAL_ZERO, TRUNC_PREC, UDCODEC_FORMAT,
};
use blosc2::frame::{offsets, trailer, FrameHeader, MetaName};
use blosc2::schunk::SuperChunk;
use blosc2::{CParams, Context, DParams};
use memio::{read_all, MemIo};

/// Largest output buffer a run allocates.
pub const MAX_OUT: usize = 1 << 20;
/// Most blocks the VL decoder is asked for.
const MAX_VL_BLOCKS: usize = 64;
/// Most data bytes `chunk_mutate` compresses per run.
const MAX_DATA: usize = 1 << 16;
/// Most index entries `frame_meta` decodes per run.
const MAX_ENTRIES: usize = 1 << 20;

/// Runs the body of `target` on `data`; false for an unknown target.
pub fn run(target: &str, data: &[u8]) -> bool {
    match target {
        "chunk_decode" => chunk_decode(data),
        "chunk_mutate" => chunk_mutate(data),
        "differential" => differential(data),
        "differential_frame" => differential_frame(data),
        "frame_read" => frame_read(data),
        "frame_file" => frame_file(data),
        "frame_meta" => frame_meta(data),
        "sframe_index" => sframe_index(data),
        "b2nd_read" => b2nd_read(data),
        _ => return false,
    }
    true
}

thread_local! {
    /// Output buffers kept across runs (a fresh 1 MiB buffer per run cost more than most
    /// decodes); their contents are whatever the last run left.
    static SCRATCH: RefCell<[Vec<u8>; 2]> = RefCell::new([vec![0; MAX_OUT], vec![0; MAX_OUT]]);
    /// A two-thread decompression context kept across runs, so that its workers start once.
    static TWO_THREADS: RefCell<Context> = RefCell::new(Context::decompressor(DParams {
        nthreads: 2,
        ..DParams::default()
    }));
}

/// Runs `f` on the first `a` and `b` bytes (each at most [`MAX_OUT`]) of the two kept
/// output buffers.
pub fn with_scratch<R>(a: usize, b: usize, f: impl FnOnce(&mut [u8], &mut [u8]) -> R) -> R {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let [x, y] = &mut *s;
        f(&mut x[..a.min(MAX_OUT)], &mut y[..b.min(MAX_OUT)])
    })
}

/// Any bytes as a chunk: full decode (serial, or on two threads with a context kept across
/// runs), getitem and the VL-block decoders. The whole input is the chunk (corpus chunks
/// are parsed from byte 0); the thread count and the getitem range come from its last
/// byte. Output buffers are as large as the header claims, capped at [`MAX_OUT`]; the VL
/// decoders, which allocate what the block headers claim (as the reference does), run only
/// on claims within the cap.
pub fn chunk_decode(chunk: &[u8]) {
    let Some(&knobs) = chunk.last() else {
        return;
    };
    let header = Header::parse(chunk).ok();
    let nbytes = header.map_or(1024, |h| h.nbytes.clamp(0, MAX_OUT as i32) as usize);
    let typesize = header.map_or(1, |h| usize::from(h.typesize));
    let start = i32::from(knobs >> 1) * 61;
    let nitems = (i32::from(knobs >> 4) * 37).min((MAX_OUT / typesize) as i32);
    let run = |ctx: &mut Context| {
        with_scratch(nbytes, nitems as usize * typesize, |out, window| {
            let _ = ctx.decompress(chunk, out);
            let _ = ctx.getitem(chunk, start, nitems, window);
        });
        if header.is_some_and(|h| h.is_vl() && h.nbytes >= 0 && h.nbytes as usize <= MAX_OUT) {
            let _ = ctx.vl_decompress(chunk, MAX_VL_BLOCKS);
            let _ = ctx.vl_decompress_block(chunk, i32::from(knobs & 7));
        }
    };
    if knobs & 1 == 0 {
        run(&mut Context::decompressor(DParams::default()));
    } else {
        TWO_THREADS.with(|c| run(&mut c.borrow_mut()));
    }
}

/// Structured chunks, then damaged. Input: `codec, flags, typesize, nedits`, `nedits % 8`
/// edits of 3 bytes (16-bit position modulo the chunk length, XOR mask), then the data
/// (at most [`MAX_DATA`] bytes). `flags`: bit 0 dictionary, bit 1 VL blocks, bits 2-3 the
/// filter (none, shuffle, bitshuffle, delta), bit 5 two threads, bit 6 4 KiB blocks.
/// Undamaged chunks must give the data back; damaged ones decode or fail.
pub fn chunk_mutate(data: &[u8]) {
    let Some((&[codec, flags, typesize, nedits], rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let nedits = usize::from(nedits % 8);
    let Some((edits, src)) = rest.split_at_checked(3 * nedits) else {
        return;
    };
    let src = &src[..src.len().min(MAX_DATA)];
    let vl = flags & 2 != 0;
    let nthreads = if flags & 0x20 != 0 { 2 } else { 1 };
    let mut filters = [0u8; 6];
    filters[5] = (flags >> 2) % 4;
    let cp = CParams {
        compcode: [0, 1, 2, 4, 5][usize::from(codec % 5)], // blosclz, lz4, lz4hc, zlib, zstd
        clevel: (codec >> 4) % 10,
        typesize: i32::from(typesize % 8) + 1,
        use_dict: flags & 1 != 0,
        nthreads,
        blocksize: if flags & 0x40 != 0 { 4096 } else { 0 },
        filters,
        ..CParams::default()
    };
    let mut cctx = Context::compressor(cp);
    let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD + 64 * 16];
    let blocks: Vec<&[u8]> = src.chunks(usize::from(typesize).max(1) * 97).collect();
    let made = if vl {
        if blocks.is_empty() {
            return;
        }
        cctx.vl_compress(&blocks, &mut chunk)
    } else {
        cctx.compress(src, &mut chunk)
    };
    let n = match made {
        Ok(n) if n > 0 => n,
        _ => return,
    };
    chunk.truncate(n);
    for e in edits.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([e[0], e[1]])) % n;
        chunk[at] ^= e[2];
    }
    let mut dctx = Context::decompressor(DParams {
        nthreads,
        ..DParams::default()
    });
    let mut out = vec![0u8; src.len()];
    let got = dctx.decompress(&chunk, &mut out);
    if nedits == 0 {
        assert_eq!(got, Ok(src.len()), "undamaged chunk did not decompress");
        assert!(out == src, "round trip changed the data");
    }
    let _ = dctx.getitem(&chunk, i32::from(flags), 100, &mut [0u8; 100 * 8]);
    let claim = Header::parse(&chunk).map_or(0, |h| h.nbytes.max(0) as usize);
    if vl && claim <= MAX_DATA {
        let got = dctx.vl_decompress(&chunk, blocks.len());
        if nedits == 0 {
            let want: Vec<Vec<u8>> = blocks.iter().map(|b| b.to_vec()).collect();
            assert_eq!(got.as_ref(), Ok(&want), "VL blocks differ");
        }
        let _ = dctx.vl_decompress_block(&chunk, i32::from(codec) % 4);
    }
}

/// How much of a chunk's decoding this library and the reference 3.3.5 must agree on.
#[derive(PartialEq)]
enum Comparable {
    /// Every byte.
    All,
    /// The first bytes: the reference fills the rest from uninitialised memory.
    Prefix(usize),
    /// Nothing: the chunk uses something only the reference has.
    No,
}

/// What of `chunk`'s decoding is comparable (the documented differences):
/// - c-blosc 1.x bitshuffled chunks whose size is not a multiple of the typesize: the
///   reference leaves the trailing `nbytes % typesize` bytes uninitialised (corpus
///   manifest, `blosc1/b013_*`), and with DELTA it XORs the partial item ending the last
///   block into what the destination held before the call (SECURITY.md);
/// - instrumented chunks (blosc2 flags bit 7) decode to instrumentation records there;
/// - lazy chunks but those of zeros, NaNs or uninitialised values (which neither library
///   reads past their header): the reference does not check their `cbytes` against the
///   source and reads past it;
/// - VL-block chunks claiming 0 bytes: the reference crashes on them;
/// - VL-block chunks with DELTA, decoded whole: from the second block on the reference's
///   bytes are wrong, also on chunks it wrote itself (its `blosc2_vldecompress_ctx` reads
///   them right; SECURITY.md);
/// - filters and codecs of the reference's plugin registry (ids 32 and up: NDLZ, ZFP,
///   NDCELL, NDMEAN, ...) not built into this library yet;
/// - split blocks that are not a whole number of items, with a filter (from the extended
///   header's pipeline or from the flags of a short header): the reference decodes only
///   the whole items' streams into its scratch buffer, and its filters (seen with a
///   repeated SHUFFLE, with DELTA and BITSHUFFLE, and with the flags' DELTA and SHUFFLE)
///   read the uninitialised rest (its output changes with `MALLOC_PERTURB_`; SECURITY.md);
/// - pipelines with two DELTA filters and another filter (DELTA, SHUFFLE, DELTA), and
///   pipelines whose SHUFFLE comes third after a DELTA that has a filter before it (in
///   decoding order): the reference runs a filter with its source and destination in one
///   buffer, so its bytes depend on its SIMD kernel (SECURITY.md).
fn comparable(chunk: &[u8]) -> Comparable {
    let Ok(h) = Header::parse(chunk) else {
        return Comparable::All;
    };
    let plugin = h.is_extended()
        && (h.filters.iter().any(|&f| f >= 32)
            || (h.compformat() == UDCODEC_FORMAT && h.udcodec >= 32));
    // Lazy chunks: the reference trusts their cbytes and reads past the source (SECURITY.md),
    // unless the chunk is special and needs nothing past its header.
    let lazy = h.is_extended()
        && h.is_lazy()
        && !matches!(h.special(), SPECIAL_ZERO | SPECIAL_NAN | SPECIAL_UNINIT);
    // VL-block chunks of 0 bytes: the reference reads through a NULL pointer; with DELTA,
    // its whole-chunk decoding is wrong (SECURITY.md).
    if h.is_vl() && (h.nbytes == 0 || h.filters.contains(&DELTA)) {
        return Comparable::No;
    }
    if plugin || lazy || (h.is_extended() && h.blosc2_flags & INSTR_CODEC != 0) {
        return Comparable::No;
    }
    let filtered = h.filters.iter().any(|&f| f != 0);
    let split_partial_items =
        !h.dont_split() && !h.is_memcpyed() && h.blocksize % i32::from(h.typesize) != 0;
    if filtered && split_partial_items {
        return Comparable::No;
    }
    let deltas = h.filters.iter().filter(|&&f| f == DELTA).count();
    let others = h.filters.iter().filter(|&&f| f != DELTA && f != 0).count();
    if deltas > 1 && others > 0 {
        return Comparable::No;
    }
    // In decoding order (slot 5 down to 0, without the stages decoding skips): a SHUFFLE
    // third after a DELTA that has a filter before it runs in place in the reference.
    let order: Vec<u8> = (h.filters.iter().rev().copied())
        .filter(|&f| f != 0 && f != TRUNC_PREC)
        .collect();
    if let Some(d) = order.iter().position(|&f| f == DELTA) {
        if d >= 1 && order.get(d + 3) == Some(&SHUFFLE) {
            return Comparable::No;
        }
    }
    let ts = usize::from(h.typesize);
    let nbytes = h.nbytes.max(0) as usize;
    if !h.is_extended() && h.flags & DOBITSHUFFLE != 0 {
        // The partial item ending the chunk, and the one ending its last block, which the
        // reference's version-2 bit unshuffle leaves unwritten in the destination.
        let (_, leftover) = h.nblocks();
        let last = if leftover > 0 {
            leftover
        } else {
            h.blocksize.max(0) as usize
        };
        let tail = (nbytes % ts).max(last.min(nbytes) % ts);
        if tail > 0 {
            return Comparable::Prefix(nbytes - tail);
        }
    }
    Comparable::All
}

/// Any bytes as a chunk, decompressed by this library and by the reference c-blosc2
/// (see [`reference`]) into destinations as large as the header claims (capped at
/// [`MAX_OUT`]): the same bytes, or both an error (see [`comparable`] for the documented
/// exceptions).
pub fn differential(chunk: &[u8]) {
    let how = comparable(chunk);
    if how == Comparable::No {
        return;
    }
    let Ok(len) = i32::try_from(chunk.len()) else {
        return;
    };
    let nbytes = match Header::parse(chunk) {
        Ok(h) if (h.nbytes as usize) <= MAX_OUT => h.nbytes.max(0) as usize,
        Ok(_) => return,
        Err(_) => 1024,
    };
    with_scratch(nbytes, nbytes, |theirs, ours| {
        // Zeroed, as a decoder that writes less than it reports must show up the same way
        // on both sides whatever the last run left.
        theirs.fill(0);
        ours.fill(0);
        let rc = reference::get().decompress(chunk, len, theirs);
        match Context::decompressor(DParams::default()).decompress(chunk, ours) {
            Ok(n) => {
                assert!(
                    rc >= 0,
                    "ours decoded {n} bytes, the reference failed with {rc}"
                );
                assert_eq!(n, rc as usize, "decoded sizes differ");
                let k = match how {
                    Comparable::Prefix(k) => k.min(n),
                    _ => n,
                };
                assert!(ours[..k] == theirs[..k], "decoded bytes differ");
            }
            Err(e) => assert!(
                rc < 0,
                "ours failed ({e:?}), the reference decoded {rc} bytes"
            ),
        }
    });
}

/// Any bytes as an in-memory contiguous frame, opened by this library and by the
/// reference (first in a child process, as its error paths crash on some frames): both open
/// it or both refuse it, and then give the same metalayers,
/// variable-length metalayers and chunks (or both an error for each; chunks whose decoding
/// is not [`comparable`] are skipped).
pub fn differential_frame(data: &[u8]) {
    let r = reference::get();
    let theirs_open = r.opens_frame_in_child(data);
    // As `blosc2_schunk_from_buffer(copy = true)`: every chunk is read at opening.
    let Ok(mut ours) = SuperChunk::from_cframe(data).and_then(SuperChunk::into_memory) else {
        assert!(
            !theirs_open || index_typesize_below_8(data) || index_uninit_special(data),
            "ours refused a frame the reference opens"
        );
        return;
    };
    assert!(theirs_open, "ours opened a frame the reference refuses");
    let theirs = r
        .open_frame(data)
        .expect("the reference opened it in a child");
    // In order, as names may repeat (lookups by name find the first in both), and as C
    // strings (a name is cut at a NUL byte there).
    let c_name = |n: &MetaName| {
        n.as_bytes()
            .split(|&b| b == 0)
            .next()
            .unwrap_or(&[])
            .to_vec()
    };
    let metas: Vec<(Vec<u8>, Vec<u8>)> = ours
        .metalayers()
        .iter()
        .map(|m| (c_name(&m.name), m.content.clone()))
        .collect();
    assert_eq!(metas, theirs.metas(), "metalayers");
    let names: Vec<MetaName> = ours.vlmeta_names().into_iter().cloned().collect();
    for name in names {
        let o = ours.vlmeta_get(&name).ok().map(|(_, c)| c);
        let t = theirs.vlmeta(name.as_bytes());
        // A content stored as a chunk of uninitialised values decodes to whatever the
        // reference's fresh allocation held: only its length compares.
        let uninit = ours
            .vlmeta_exists(&name)
            .ok()
            .and_then(|i| Header::parse(&ours.vlmetalayers()[i].content).ok())
            .is_some_and(|h| h.is_extended() && h.special() == SPECIAL_UNINIT);
        if uninit {
            let len = |c: &Option<Vec<u8>>| c.as_ref().map(Vec::len);
            assert_eq!(len(&o), len(&t), "vlmetalayer {name} (uninitialised)");
        } else {
            assert_eq!(o, t, "vlmetalayer {name}");
        }
    }
    let chunksize = i64::from(ours.chunksize()).clamp(0, MAX_OUT as i64) as usize;
    with_scratch(chunksize, chunksize, |a, b| {
        for n in 0..ours.nchunks().min(16) + 1 {
            if ours
                .chunk(n)
                .is_ok_and(|c| comparable(&c) != Comparable::All)
            {
                continue;
            }
            a.fill(0);
            b.fill(0);
            let o = ours.decompress_chunk(n, a);
            let t = theirs.decompress_chunk(n, b);
            match o {
                Ok(k) => {
                    assert_eq!(t, k as i32, "chunk {n}: ours decoded {k} bytes");
                    assert!(a[..k] == b[..k], "chunk {n} differs");
                }
                Err(e) => assert!(
                    t < 0,
                    "chunk {n}: ours failed ({e:?}), the reference gave {t}"
                ),
            }
        }
    });
}

/// The bytes of a contiguous frame from its chunk index on (at header length + compressed
/// size), as the header's fixed fields place it.
fn index_bytes(frame: &[u8]) -> Option<&[u8]> {
    let header_len = i32::from_be_bytes(frame.get(11..15)?.try_into().ok()?);
    let cbytes = i64::from_be_bytes(frame.get(39..47)?.try_into().ok()?);
    let at = i64::from(header_len).checked_add(cbytes.max(0))?;
    frame.get(usize::try_from(at).ok()?..)
}

/// Whether the frame's chunk index is a chunk of items narrower than the 8-byte offsets.
/// The reference reads each offset with `blosc2_getitem` of one such item into an
/// uninitialised 8-byte variable, so it opens or refuses such frames depending on stack
/// contents; ours refuses them (SECURITY.md).
fn index_typesize_below_8(frame: &[u8]) -> bool {
    index_bytes(frame)
        .and_then(|idx| idx.get(3))
        .is_some_and(|&ts| ts < 8)
}

/// Whether the frame's chunk index is a special chunk of the "uninitialised" kind: the
/// reference reads each offset with `blosc2_getitem`, which writes nothing for such a
/// chunk, into an uninitialised variable, so it opens or refuses such frames depending on
/// stack contents; ours refuses them (SECURITY.md).
fn index_uninit_special(frame: &[u8]) -> bool {
    index_bytes(frame)
        .and_then(|idx| idx.get(..32))
        .is_some_and(|h| h[2] & 0x05 == 0x05 && (h[31] >> 4) & 7 == 4)
}

/// Any bytes as an in-memory contiguous frame: metalayers, chunks, slices.
pub fn frame_read(data: &[u8]) {
    if let Ok(mut sc) = SuperChunk::from_cframe(data) {
        read_all(&mut sc, data.last().copied().unwrap_or(0));
    }
}

/// Any bytes as a contiguous frame file opened through an I/O backend (not as a buffer),
/// so that chunks are read as lazy chunks and slices read only the blocks they cover.
pub fn frame_file(data: &[u8]) {
    let Some(&knob) = data.last() else {
        return;
    };
    let path = PathBuf::from("/nonexistent/blosc2-fuzz/frame.b2frame");
    let io = MemIo(HashMap::from([(path.clone(), Arc::from(data))]));
    if let Ok(mut sc) = SuperChunk::open(&path, 0, Some(Arc::new(io))) {
        read_all(&mut sc, knob);
    }
}

/// The frame's msgpack parsers on their own: the first byte picks one, the rest is its
/// input. 0: a frame header (exactly), 1: a trailer (exactly), 2: a chunk index, 3: a
/// b2nd metalayer.
pub fn frame_meta(data: &[u8]) {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    match kind % 4 {
        0 => {
            let _ = FrameHeader::lengths(rest);
            let _ = FrameHeader::parse(rest);
        }
        1 => {
            if let Some(tail) = rest.len().checked_sub(trailer::TRAILER_MINLEN) {
                let _ = trailer::length_from_tail(&rest[tail..]);
            }
            let _ = trailer::parse(rest);
        }
        2 => {
            if let Ok(n) = blosc2::cbuffer::basic_info(rest).and_then(|i| offsets::count(&i)) {
                if n <= MAX_ENTRIES {
                    let _ = offsets::decode(rest, n);
                }
            }
        }
        _ => {
            let _ = blosc2::b2nd::meta::Meta::deserialize(rest);
        }
    }
}

/// An empty directory standing for a sparse frame (its files come from memory).
fn sframe_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join("blosc2-fuzz-sframe");
        std::fs::create_dir_all(&d).expect("temporary directory");
        d
    })
}

/// Any bytes as a sparse frame: a list of files, each a 32-bit little-endian length and
/// its bytes (cut short at the end of the input); the first is the index frame
/// `chunks.b2frame`, the next ones the chunk files `00000000.chunk`, `00000001.chunk`, ...
pub fn sframe_index(data: &[u8]) {
    let dir = sframe_dir();
    let mut files = HashMap::new();
    let mut rest = data;
    let mut n = 0u32;
    while let Some((len, tail)) = rest.split_first_chunk::<4>() {
        let len = (u32::from_le_bytes(*len) as usize).min(tail.len());
        let (file, tail) = tail.split_at(len);
        let name = match n {
            0 => "chunks.b2frame".to_owned(),
            _ => format!("{:08X}.chunk", n - 1),
        };
        files.insert(dir.join(name), Arc::from(file));
        rest = tail;
        n += 1;
    }
    if let Ok(mut sc) = SuperChunk::open(dir, 0, Some(Arc::new(MemIo(files)))) {
        read_all(&mut sc, data.last().copied().unwrap_or(0));
    }
}
