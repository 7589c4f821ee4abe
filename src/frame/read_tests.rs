//! Tests of how stored frames are read: whole and partial chunk reads from streams outside
//! memory, the fallback for streams shorter than their chunk section, index decoding with
//! the kept per-thread decoder, slices over chunks of one size, and handles noticing that
//! their file was replaced.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::offsets;
use super::CFrame;
use crate::context::{CParams, DParams};
use crate::error::{Error, Result};
use crate::io::Stream;
use crate::schunk::{Storage, SuperChunk};

fn cparams(clevel: u8) -> CParams {
    CParams {
        typesize: 4,
        nthreads: 1,
        clevel,
        ..CParams::default()
    }
}

/// `n` pseudo-random int32 values below 4096 (compressible to about half), different for
/// each `seed`.
fn data(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .flat_map(|k| {
            let x = (k ^ seed.rotate_left(16)).wrapping_mul(0x9E37_79B1);
            ((x ^ (x >> 15)) & 0xfff).to_le_bytes()
        })
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("b2oxide-read-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// A frame built in memory from `chunks` (clevel `clevel`).
fn frame_bytes(chunks: &[Vec<u8>], clevel: u8) -> Vec<u8> {
    crate::global::init();
    let st = Storage {
        contiguous: true,
        cparams: cparams(clevel),
        dparams: DParams::default(),
        ..Storage::default()
    };
    let mut sc = SuperChunk::new(st).expect("new");
    for c in chunks {
        sc.append_buffer(c).expect("append");
    }
    sc.to_cframe().expect("cframe")
}

/// A stream over bytes, not in memory as far as frames know, refusing reads that end past
/// `limit`.
struct Fenced {
    bytes: Vec<u8>,
    limit: Arc<AtomicU64>,
    reads: Arc<AtomicU64>,
}

impl Stream for Fenced {
    fn size(&mut self) -> Result<u64> {
        Ok(self.bytes.len() as u64)
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let end = pos + buf.len() as u64;
        if end > self.limit.load(Ordering::Relaxed) || end > self.bytes.len() as u64 {
            return Err(Error::FileRead);
        }
        buf.copy_from_slice(&self.bytes[pos as usize..end as usize]);
        Ok(())
    }

    fn write_at(&mut self, _: u64, _: &[u8]) -> Result<()> {
        Err(Error::FileWrite)
    }

    fn truncate(&mut self, _: u64) -> Result<()> {
        Err(Error::FileTruncate)
    }
}

/// The frame `bytes` opened over a [`Fenced`] stream, its index, and the fence and read
/// counter.
fn fenced(bytes: &[u8]) -> (CFrame, Vec<i64>, Arc<AtomicU64>, Arc<AtomicU64>) {
    let limit = Arc::new(AtomicU64::new(u64::MAX));
    let reads = Arc::new(AtomicU64::new(0));
    let stream = Fenced {
        bytes: bytes.to_vec(),
        limit: limit.clone(),
        reads: reads.clone(),
    };
    let (f, opened) = CFrame::open(Box::new(stream), 0).expect("open");
    (f, opened.offsets, limit, reads)
}

#[test]
fn small_chunks_come_whole_in_one_read() {
    let chunks: Vec<Vec<u8>> = (0..4).map(|i| data(200, 3 + i)).collect();
    let bytes = frame_bytes(&chunks, 5);
    let mut reference = SuperChunk::from_cframe(&bytes).expect("memory frame");
    let (mut f, offs, _, reads) = fenced(&bytes);
    for (n, &o) in offs.iter().enumerate() {
        let want = reference.chunk(n as i64).expect("chunk").into_owned();
        reads.store(0, Ordering::Relaxed);
        let got = f.read_chunk(o as u64).expect("read").into_owned();
        assert_eq!(got, want, "chunk {n}");
        assert_eq!(reads.load(Ordering::Relaxed), 1, "chunk {n} in one read");
        let part = f.read_chunk_range(o as u64, 4, 40).expect("range");
        assert_eq!(part, want, "range read of a small chunk is the whole chunk");
    }
}

#[test]
fn streams_shorter_than_their_chunk_section_are_read_exactly() {
    let chunks: Vec<Vec<u8>> = (0..3).map(|i| data(200, 11 + i)).collect();
    let bytes = frame_bytes(&chunks, 5);
    let mut reference = SuperChunk::from_cframe(&bytes).expect("memory frame");
    let want = reference.chunk(0).expect("chunk").into_owned();
    let (mut f, offs, limit, _) = fenced(&bytes);
    let hl = super::FrameHeader::lengths(&bytes[..super::header::HEADER_MINLEN])
        .expect("lengths")
        .0;
    // Reads past the end of chunk 0 now fail, as for a file cut short after it.
    limit.store(hl + offs[0] as u64 + want.len() as u64, Ordering::Relaxed);
    assert_eq!(
        f.read_chunk(offs[0] as u64).expect("read").into_owned(),
        want
    );
    assert_eq!(
        f.read_chunk_range(offs[0] as u64, 0, 8).expect("range"),
        want
    );
    assert!(f.read_chunk(offs[1] as u64).is_err());
}

#[test]
fn range_reads_of_big_chunks_hold_what_decoding_needs() {
    crate::global::init();
    let mut cp = cparams(5);
    cp.blocksize = 2048;
    let st = Storage {
        contiguous: true,
        cparams: cp,
        ..Storage::default()
    };
    let mut sc = SuperChunk::new(st).expect("new");
    let d = data(16384, 97);
    sc.append_buffer(&d).expect("append");
    let bytes = sc.to_cframe().expect("cframe");
    let full = sc.chunk(0).expect("chunk").into_owned();
    assert!(full.len() > 4 * 2048, "chunk big enough for partial reads");
    let (mut f, offs, _, reads) = fenced(&bytes);
    let mut dctx = crate::context::Context::decompressor(DParams {
        nthreads: 1,
        typesize: 4,
    });
    for (lo, hi) in [
        (0, 4),
        (2040, 2056),
        (8000, 30000),
        (65532, 65536),
        (0, 65536),
    ] {
        reads.store(0, Ordering::Relaxed);
        let part = f.read_chunk_range(offs[0] as u64, lo, hi).expect("range");
        assert_eq!(part.len(), full.len());
        assert!(reads.load(Ordering::Relaxed) <= 3, "{lo}..{hi}: few reads");
        let mut out = vec![0u8; hi - lo];
        dctx.getitem_bytes(&part, lo as i32, (hi - lo) as i32, &mut out)
            .expect("getitem");
        assert_eq!(out, &d[lo..hi], "{lo}..{hi}");
    }
}

#[test]
fn indexes_decode_alike_with_and_without_the_kept_decoder() {
    for n in [1usize, 3000, 10, 200_000, 7] {
        let offs: Vec<i64> = (0..n as i64).map(|i| i * 613 + (i % 5)).collect();
        let chunk = offsets::encode(&offs).expect("encode");
        assert_eq!(
            offsets::count(&crate::cbuffer::basic_info(&chunk).unwrap()),
            Ok(n)
        );
        assert_eq!(
            offsets::decode(&chunk, n).expect("decode"),
            offs,
            "{n} offsets"
        );
        assert!(offsets::decode(&chunk, n + 1).is_err());
    }
}

#[test]
fn slices_cross_chunks_of_one_size_and_a_short_last_one() {
    crate::global::init();
    let st = Storage {
        contiguous: true,
        cparams: cparams(5),
        ..Storage::default()
    };
    let mut sc = SuperChunk::new(st).expect("new");
    let mut all = Vec::new();
    for (i, n) in [1000usize, 1000, 1000, 321].into_iter().enumerate() {
        let d = data(n, 5 + i as u32);
        sc.append_buffer(&d).expect("append");
        all.extend_from_slice(&d);
    }
    let items = (all.len() / 4) as i64;
    for (a, b) in [
        (0, 1),
        (999, 1001),
        (0, items),
        (2999, items),
        (items, items),
        (5, 5),
    ] {
        let mut out = vec![0u8; ((b - a) * 4) as usize];
        sc.get_slice(a, b, &mut out).expect("slice");
        assert_eq!(out, &all[(a * 4) as usize..(b * 4) as usize], "{a}..{b}");
    }
    let mut out = vec![0u8; 8];
    assert_eq!(
        sc.get_slice(items - 1, items + 1, &mut out),
        Err(Error::Failure)
    );
}

#[test]
fn a_replaced_file_is_read_again() {
    crate::global::init();
    let path = tmp("replaced.b2frame");
    let other = tmp("replacement.b2frame");
    // Uncompressed chunks: both frames have byte-identical headers, only the inode differs.
    let first = frame_bytes(&[data(500, 1), data(500, 2)], 0);
    let second = frame_bytes(&[data(500, 3), data(500, 4)], 0);
    let fixed = super::header::HEADER_MINLEN;
    assert_eq!(first[..fixed], second[..fixed]);
    std::fs::write(&path, &first).expect("write");
    let mut sc = SuperChunk::open(&path, 0, None).expect("open");
    let mut out = vec![0u8; 2000];
    sc.decompress_chunk(1, &mut out).expect("decompress");
    assert_eq!(out, data(500, 2));
    std::fs::write(&other, &second).expect("write");
    std::fs::rename(&other, &path).expect("rename");
    sc.decompress_chunk(1, &mut out).expect("decompress");
    assert_eq!(out, data(500, 4), "the handle reads the new file");
    let _ = std::fs::remove_file(&path);
}
