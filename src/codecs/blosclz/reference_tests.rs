//! Cross-checks against the reference library (c-blosc2 3.3.5, loaded with `dlopen`): our
//! decoder reads its streams, our encoder writes the same bytes, and it reads ours.
//!
//! The reference does not export its BloscLZ functions, so streams are taken from (and put
//! into) single-block chunks: 32-byte header, one `bstarts` entry, the stream's `csize`,
//! then the stream at byte 40.

use super::tests::{data, Kind, KINDS};
use super::{compress, decompress};
use std::ffi::{c_int, c_void, CString};
use std::sync::OnceLock;

type CreateCtx<P> = unsafe extern "C" fn(P) -> *mut c_void;
type Codec = unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> c_int;

/// `blosc2_cparams` (136 bytes, 8-aligned), filled from its field offsets.
#[repr(C)]
#[derive(Clone, Copy)]
struct RawCParams([u64; 17]);

/// `blosc2_dparams` (40 bytes, 8-aligned).
#[repr(C)]
#[derive(Clone, Copy)]
struct RawDParams([u64; 5]);

fn words<const N: usize>(bytes: &[u8]) -> [u64; N] {
    let mut out = [0u64; N];
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(8)) {
        *word = u64::from_ne_bytes(chunk.try_into().unwrap());
    }
    out
}

/// Entry points of the reference library.
struct Reference {
    create_cctx: CreateCtx<RawCParams>,
    create_dctx: CreateCtx<RawDParams>,
    free_ctx: unsafe extern "C" fn(*mut c_void),
    compress_ctx: Codec,
    decompress_ctx: Codec,
}

/// The reference library, or `None` (reported once) when it is not on this machine.
fn reference() -> Option<&'static Reference> {
    static REFERENCE: OnceLock<Option<Reference>> = OnceLock::new();
    REFERENCE.get_or_init(load).as_ref()
}

fn load() -> Option<Reference> {
    let local = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/target/reference/blosc2/lib/libblosc2.so.9"
    );
    let shared = "/work/main/target/reference/blosc2/lib/libblosc2.so.9";
    let path = [local, shared]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let path = CString::new(path).ok()?;
    // SAFETY: dlopen gets a valid NUL-terminated path; the library's initialisers are those
    // of c-blosc2, which have no preconditions. RTLD_DEEPBIND keeps its internal calls
    // inside the library even though our crate defines functions with the same names.
    let handle = unsafe {
        libc::dlopen(
            path.as_ptr(),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        )
    };
    assert!(!handle.is_null(), "dlopen of the reference library failed");
    let symbol = |name: &str| {
        let name = CString::new(name).unwrap();
        // SAFETY: handle is a live dlopen handle (never closed) and name is NUL-terminated.
        let ptr = unsafe { libc::dlsym(handle, name.as_ptr()) };
        assert!(!ptr.is_null(), "missing symbol {name:?}");
        ptr
    };
    // SAFETY: each symbol is transmuted to the C prototype declared for it in the
    // reference's blosc2.h; the struct arguments are passed by value with the same size and
    // alignment as the C structs (both are passed in memory on x86-64 and aarch64).
    unsafe {
        let init: unsafe extern "C" fn() = std::mem::transmute(symbol("blosc2_init"));
        init();
        Some(Reference {
            create_cctx: std::mem::transmute::<*mut c_void, CreateCtx<RawCParams>>(symbol(
                "blosc2_create_cctx",
            )),
            create_dctx: std::mem::transmute::<*mut c_void, CreateCtx<RawDParams>>(symbol(
                "blosc2_create_dctx",
            )),
            free_ctx: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*mut c_void)>(
                symbol("blosc2_free_ctx"),
            ),
            compress_ctx: std::mem::transmute::<*mut c_void, Codec>(symbol("blosc2_compress_ctx")),
            decompress_ctx: std::mem::transmute::<*mut c_void, Codec>(symbol(
                "blosc2_decompress_ctx",
            )),
        })
    }
}

/// Returns the reference library, or says loudly that the test is skipped.
fn reference_or_skip(test: &str) -> Option<&'static Reference> {
    let found = reference();
    if found.is_none() {
        eprintln!("SKIPPED {test}: reference libblosc2.so.9 not found");
    }
    found
}

const NEVER_SPLIT: i32 = 2;
const ALWAYS_SPLIT: i32 = 1;

impl Reference {
    /// Compresses `src` as one block, typesize 1, no filters, BloscLZ at `clevel`.
    fn compress_chunk(&self, clevel: u8, splitmode: i32, src: &[u8]) -> Vec<u8> {
        let mut bytes = [0u8; 136];
        bytes[2] = clevel; // compcode 0 (blosclz) at 0, clevel at 2
        bytes[8..12].copy_from_slice(&1i32.to_ne_bytes()); // typesize
        bytes[12..14].copy_from_slice(&1i16.to_ne_bytes()); // nthreads
        bytes[16..20].copy_from_slice(&(src.len() as i32).to_ne_bytes()); // blocksize
        bytes[20..24].copy_from_slice(&splitmode.to_ne_bytes());
        let mut chunk = vec![0u8; src.len() + 64];
        // SAFETY: the parameters follow the blosc2_cparams layout; src and chunk are live
        // buffers of the lengths given; the context is freed once.
        let written = unsafe {
            let ctx = (self.create_cctx)(RawCParams(words(&bytes)));
            assert!(!ctx.is_null());
            let written = (self.compress_ctx)(
                ctx,
                src.as_ptr().cast(),
                src.len() as i32,
                chunk.as_mut_ptr().cast(),
                chunk.len() as i32,
            );
            (self.free_ctx)(ctx);
            written
        };
        assert!(written >= 32, "reference compression failed: {written}");
        chunk.truncate(written as usize);
        chunk
    }

    /// Decompresses `chunk` into a buffer of `nbytes`; returns the result code and the data.
    fn decompress_chunk(&self, chunk: &[u8], nbytes: usize) -> (i32, Vec<u8>) {
        let mut bytes = [0u8; 40];
        bytes[0..2].copy_from_slice(&1i16.to_ne_bytes()); // nthreads
        bytes[32..36].copy_from_slice(&1i32.to_ne_bytes()); // typesize
        let mut out = vec![0u8; nbytes];
        // SAFETY: as in compress_chunk, with the blosc2_dparams layout.
        let code = unsafe {
            let ctx = (self.create_dctx)(RawDParams(words(&bytes)));
            assert!(!ctx.is_null());
            let code = (self.decompress_ctx)(
                ctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                out.as_mut_ptr().cast(),
                nbytes as i32,
            );
            (self.free_ctx)(ctx);
            code
        };
        (code, out)
    }
}

/// What the reference did with the single stream of a chunk.
#[derive(Debug, PartialEq)]
enum Stream {
    /// The codec gave up (or was not asked): the data is stored as is.
    Raw,
    /// The block was a run of one byte value, or the whole chunk a special value; the codec
    /// was not asked.
    Run,
    /// A BloscLZ stream.
    Coded(Vec<u8>),
}

fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn stream_of(chunk: &[u8], nbytes: usize) -> Stream {
    assert_eq!(le_i32(chunk, 4) as usize, nbytes);
    assert_eq!(le_i32(chunk, 12) as usize, chunk.len());
    if chunk[31] & 0x70 != 0 {
        // A special-value chunk (zeros, NaNs, a repeated value): no stream at all.
        return Stream::Run;
    }
    if chunk[2] & 0x02 != 0 {
        return Stream::Raw;
    }
    assert_eq!(le_i32(chunk, 32), 36, "single block expected");
    let csize = le_i32(chunk, 36);
    if csize <= 0 {
        return Stream::Run;
    }
    assert_eq!(40 + csize as usize, chunk.len());
    if csize as usize == nbytes {
        Stream::Raw
    } else {
        Stream::Coded(chunk[40..].to_vec())
    }
}

/// Says how two outcomes differ: sizes and first differing byte.
fn describe(ours: &Stream, theirs: &Stream) -> String {
    match (ours, theirs) {
        (Stream::Coded(a), Stream::Coded(b)) => {
            let at = a.iter().zip(b).position(|(x, y)| x != y);
            format!(
                "ours {} bytes, theirs {}, first difference at {at:?}",
                a.len(),
                b.len()
            )
        }
        _ => format!("ours {ours:?}, theirs {theirs:?}")
            .chars()
            .take(200)
            .collect(),
    }
}

/// A single-block chunk as the reference writes it, around our `stream`.
fn chunk_around(stream: &[u8], nbytes: usize, split: bool) -> Vec<u8> {
    let mut chunk = vec![5, 1, if split { 0x05 } else { 0x15 }, 1];
    chunk.extend_from_slice(&(nbytes as i32).to_le_bytes());
    chunk.extend_from_slice(&(nbytes as i32).to_le_bytes());
    chunk.extend_from_slice(&(40 + stream.len() as i32).to_le_bytes());
    chunk.resize(32, 0);
    chunk.extend_from_slice(&36i32.to_le_bytes());
    chunk.extend_from_slice(&(stream.len() as i32).to_le_bytes());
    chunk.extend_from_slice(stream);
    chunk
}

/// Sizes for the cross-check, around the encoder's thresholds and up to 1 MB.
const SIZES: [usize; 12] = [
    40,
    51,
    52,
    53,
    100,
    333,
    1000,
    4 << 10,
    12_345,
    64 << 10,
    300_000,
    1 << 20,
];

#[test]
fn streams_match_the_reference_both_ways() {
    let Some(reference) = reference_or_skip("streams_match_the_reference_both_ways") else {
        return;
    };
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for kind in KINDS {
        for len in SIZES {
            let src = data(kind, len);
            for clevel in 1..=9u8 {
                for (splitmode, split) in [(NEVER_SPLIT, false), (ALWAYS_SPLIT, true)] {
                    let chunk = reference.compress_chunk(clevel, splitmode, &src);
                    assert_eq!(chunk[2] & 0x10 == 0, split, "split flag of {kind:?} {len}");
                    let theirs = stream_of(&chunk, len);
                    if let Stream::Coded(stream) = &theirs {
                        let mut out = vec![0u8; len];
                        assert_eq!(decompress(stream, &mut out), Some(len));
                        assert!(
                            out == src,
                            "decoding the reference's stream: {kind:?} {len}"
                        );
                        let rebuilt = chunk_around(stream, len, split);
                        assert_eq!(rebuilt, chunk, "chunk layout: {kind:?} {len}");
                    }
                    let mut packed = vec![0u8; len];
                    let n = compress(i32::from(clevel), &src, &mut packed);
                    let ours = if n == 0 || n >= len {
                        Stream::Raw
                    } else {
                        let chunk = chunk_around(&packed[..n], len, split);
                        let (code, out) = reference.decompress_chunk(&chunk, len);
                        assert_eq!(
                            code as usize, len,
                            "reference decoding ours: {kind:?} {len}"
                        );
                        assert!(out == src, "reference decoding ours: {kind:?} {len}");
                        Stream::Coded(packed[..n].to_vec())
                    };
                    if theirs != Stream::Run {
                        compared += 1;
                        if ours != theirs {
                            mismatches.push(format!(
                                "{kind:?} len {len} clevel {clevel} split {split}: {}",
                                describe(&ours, &theirs)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 1000);
    assert!(
        mismatches.is_empty(),
        "{} of {compared} differ: {mismatches:#?}",
        mismatches.len()
    );
}

#[test]
fn split_mode_does_not_change_the_reference_encoding() {
    // The C encoder has a context argument, but its output does not depend on the chunk's
    // split flag, even on highly compressible data.
    let Some(reference) = reference_or_skip("split_mode_does_not_change_the_reference_encoding")
    else {
        return;
    };
    for kind in [Kind::Ramp, Kind::Text, Kind::Mixed] {
        let src = data(kind, 64 << 10);
        let never = reference.compress_chunk(5, NEVER_SPLIT, &src);
        let always = reference.compress_chunk(5, ALWAYS_SPLIT, &src);
        assert_eq!(never[2], 0x15);
        assert_eq!(always[2], 0x05);
        let stream = stream_of(&never, src.len());
        assert!(matches!(stream, Stream::Coded(_)), "{kind:?}");
        assert_eq!(stream, stream_of(&always, src.len()), "{kind:?}");
    }
}

#[test]
fn trailing_match_is_rejected_like_the_reference() {
    let Some(reference) = reference_or_skip("trailing_match_is_rejected_like_the_reference") else {
        return;
    };
    // 8200 literal bytes, then a far match (3 bytes from 8192 back) ending the stream.
    let mut stream = Vec::new();
    for chunk in 0..(8200 / 8) {
        stream.push(7u8);
        stream.extend((0..8).map(|i| (chunk * 8 + i) as u8));
    }
    stream.extend_from_slice(&[0x3F, 0xFF, 0x00, 0x00]);
    for nbytes in [8200, 8203] {
        let (code, _) = reference.decompress_chunk(&chunk_around(&stream, nbytes, false), nbytes);
        assert!(
            code < 0,
            "reference accepted a stream ending with a match ({nbytes}): {code}"
        );
        let mut out = vec![0u8; nbytes];
        assert_ne!(decompress(&stream, &mut out), Some(nbytes));
    }
}
