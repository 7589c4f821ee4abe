//! Cross-checks against the reference library (c-blosc2 3.3.5, loaded with `dlopen`): our
//! decoder reads its streams, our encoder writes the same bytes, and it reads ours.
//!
//! The reference does not export its BloscLZ functions, so streams are taken from (and put
//! into) single-block chunks: 32-byte header, one `bstarts` entry, the stream's `csize`,
//! then the stream at byte 40.

use super::tests::{data, Kind, KINDS};
use super::{compress, decompress};
use crate::context::CParams;
use crate::testref::chunk::{get as reference, Reference};

const NEVER_SPLIT: i32 = 2;
const ALWAYS_SPLIT: i32 = 1;

/// Compresses `src` with the reference as one block, typesize 1, no filters, BloscLZ at
/// `clevel`.
fn compress_chunk(reference: &Reference, clevel: u8, splitmode: i32, src: &[u8]) -> Vec<u8> {
    let cp = CParams {
        compcode: crate::constants::BLOSCLZ,
        clevel,
        typesize: 1,
        nthreads: 1,
        blocksize: i32::try_from(src.len()).expect("size fits i32"),
        splitmode,
        filters: [0; 6],
        ..CParams::default()
    };
    let mut chunk = vec![0u8; src.len() + 64];
    let written = reference.compress_ctx(&cp, src, &mut chunk);
    let written = written.unwrap_or_else(|code| panic!("reference compression failed: {code}"));
    assert!(written >= 32, "reference compression failed: {written}");
    chunk.truncate(written);
    chunk
}

/// Decompresses `chunk` with the reference into a buffer of `nbytes`; returns the result
/// code and the data.
fn decompress_chunk(reference: &Reference, chunk: &[u8], nbytes: usize) -> (i32, Vec<u8>) {
    let mut out = vec![0u8; nbytes];
    let code = match reference.decompress(chunk, &mut out) {
        Ok(n) => i32::try_from(n).expect("size fits i32"),
        Err(code) => code,
    };
    (code, out)
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
    let Some(reference) = reference() else {
        return;
    };
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for kind in KINDS {
        for len in SIZES {
            let src = data(kind, len);
            for clevel in 1..=9u8 {
                for (splitmode, split) in [(NEVER_SPLIT, false), (ALWAYS_SPLIT, true)] {
                    let chunk = compress_chunk(reference, clevel, splitmode, &src);
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
                        let (code, out) = decompress_chunk(reference, &chunk, len);
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
    let Some(reference) = reference() else {
        return;
    };
    for kind in [Kind::Ramp, Kind::Text, Kind::Mixed] {
        let src = data(kind, 64 << 10);
        let never = compress_chunk(reference, 5, NEVER_SPLIT, &src);
        let always = compress_chunk(reference, 5, ALWAYS_SPLIT, &src);
        assert_eq!(never[2], 0x15);
        assert_eq!(always[2], 0x05);
        let stream = stream_of(&never, src.len());
        assert!(matches!(stream, Stream::Coded(_)), "{kind:?}");
        assert_eq!(stream, stream_of(&always, src.len()), "{kind:?}");
    }
}

#[test]
fn trailing_match_is_rejected_like_the_reference() {
    let Some(reference) = reference() else {
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
        let (code, _) = decompress_chunk(reference, &chunk_around(&stream, nbytes, false), nbytes);
        assert!(
            code < 0,
            "reference accepted a stream ending with a match ({nbytes}): {code}"
        );
        let mut out = vec![0u8; nbytes];
        assert_ne!(decompress(&stream, &mut out), Some(nbytes));
    }
}
