//! Blosc1-format chunks as bloscpack (python-blosc 1.x) and bcolz (c-blosc 1.x) store them,
//! compressed and decompressed by this crate's chunk engine, several at a time on all cores.

use std::cell::RefCell;

use rayon::prelude::*;

use super::error::{Error, Result};
use crate::constants::{
    BITSHUFFLE, BLOSC1_VERSION_FORMAT, MIN_HEADER_LENGTH, NEVER_SPLIT, SHUFFLE,
};
use crate::context::{CParams, Context, DParams};

/// How chunks are compressed (the `blosc_args` of bloscpack, the `cparams` of bcolz).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkParams {
    /// Codec code (`BLOSCLZ`, `LZ4`, `LZ4HC`, `ZLIB`, `ZSTD`).
    pub codec: u8,
    /// Compression level 0..=9.
    pub clevel: u8,
    /// 0 no shuffle, 1 byte shuffle, 2 bit shuffle.
    pub shuffle: u8,
    /// Element size in bytes (1..=255).
    pub typesize: u8,
}

impl Default for ChunkParams {
    /// bloscpack's defaults: blosclz, level 7, byte shuffle, typesize 8.
    fn default() -> Self {
        ChunkParams {
            codec: crate::constants::BLOSCLZ,
            clevel: 7,
            shuffle: 1,
            typesize: 8,
        }
    }
}

impl ChunkParams {
    fn cparams(&self) -> Result<CParams> {
        if self.clevel > 9 || self.shuffle > 2 || self.typesize == 0 {
            return Err(Error::Unsupported(format!(
                "chunk parameters clevel {} shuffle {} typesize {}",
                self.clevel, self.shuffle, self.typesize
            )));
        }
        let mut filters = [0u8; 6];
        filters[5] = match self.shuffle {
            1 => SHUFFLE,
            2 => BITSHUFFLE,
            _ => 0,
        };
        Ok(CParams {
            compcode: self.codec,
            clevel: self.clevel,
            typesize: i32::from(self.typesize),
            nthreads: 1,
            filters,
            ..CParams::default()
        })
    }
}

/// Compresses `data` into one chunk with the 16-byte Blosc1 header and format version 2,
/// which c-blosc 1.x reads.
///
/// c-blosc 1.x reads two things differently from this engine's encoder, so such chunks are
/// compressed again in a form both read alike: it splits a block into per-byte streams
/// only when the block holds at least 128 items (else the chunk is written unsplit), and
/// it bit-unshuffles a block only when it holds a multiple of 8 items (else the chunk is
/// byte-shuffled instead).
pub fn compress_chunk(data: &[u8], params: &ChunkParams) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let n = compress_into(data, params, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// [`compress_chunk`] into `out`, which is grown when too small and otherwise reused as
/// is (not zeroed); returns the chunk length.
pub(crate) fn compress_into(data: &[u8], params: &ChunkParams, out: &mut Vec<u8>) -> Result<usize> {
    let mut p = *params;
    let mut never_split = false;
    loop {
        let n = compress_v2(data, &p, never_split, out)?;
        match blosc1_mismatch(&out[..n], data.len()) {
            Some(Mismatch::Split) if !never_split => never_split = true,
            Some(Mismatch::Bitshuffle) if p.shuffle == 2 => p.shuffle = 1,
            _ => return Ok(n),
        }
    }
}

thread_local! {
    /// Each thread's compression context, kept for its working memory.
    static COMPRESSOR: RefCell<Option<Context>> = const { RefCell::new(None) };
    /// Each thread's decompression context.
    static DECOMPRESSOR: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// Where c-blosc 1.x would decode a chunk of this engine differently.
enum Mismatch {
    /// Streams split in blocks c-blosc 1.x reads as one stream.
    Split,
    /// A bit-shuffled block whose item count is not a multiple of 8.
    Bitshuffle,
}

fn blosc1_mismatch(chunk: &[u8], nbytes: usize) -> Option<Mismatch> {
    const MEMCPYED: u8 = 0x02;
    const DOBITSHUFFLE: u8 = 0x04;
    const DONT_SPLIT: u8 = 0x10;
    const BLOSC1_MIN_SPLIT_ITEMS: usize = 128;
    let info = crate::cbuffer::basic_info(chunk).ok()?;
    if info.flags & MEMCPYED != 0 || nbytes == 0 {
        return None;
    }
    let ts = usize::from(info.typesize);
    let bs = info.blocksize as usize;
    if info.flags & DONT_SPLIT == 0 && ts > 1 && ts <= 16 && bs / ts < BLOSC1_MIN_SPLIT_ITEMS {
        return Some(Mismatch::Split);
    }
    let last = match nbytes % bs {
        0 => bs,
        r => r,
    };
    if info.flags & DOBITSHUFFLE != 0
        && !((bs / ts).is_multiple_of(8) && (last / ts).is_multiple_of(8))
    {
        return Some(Mismatch::Bitshuffle);
    }
    None
}

fn compress_v2(
    data: &[u8],
    params: &ChunkParams,
    never_split: bool,
    out: &mut Vec<u8>,
) -> Result<usize> {
    let mut cparams = params.cparams()?;
    if never_split {
        cparams.splitmode = NEVER_SPLIT;
    }
    let room = data.len() + crate::constants::MAX_OVERHEAD;
    if out.len() < room {
        out.resize(room, 0);
    }
    let n = COMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let ctx = match slot.as_mut() {
            Some(ctx) => {
                ctx.set_cparams(cparams);
                ctx
            }
            None => slot.insert(Context::compressor(cparams)),
        };
        ctx.set_blosc1_header(true);
        ctx.compress(data, &mut out[..room])
    })?;
    if n < MIN_HEADER_LENGTH {
        return Err(Error::Codec(crate::Error::Failure));
    }
    out[0] = BLOSC1_VERSION_FORMAT;
    Ok(n)
}

/// Decompresses one chunk that must hold exactly `nbytes` bytes.
pub fn decompress_chunk(chunk: &[u8], nbytes: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    decompress_into(chunk, nbytes, &mut out)?;
    Ok(out)
}

/// [`decompress_chunk`] into `out`, resized to `nbytes` (only new room is zeroed).
pub(crate) fn decompress_into(chunk: &[u8], nbytes: usize, out: &mut Vec<u8>) -> Result<()> {
    let info = crate::cbuffer::basic_info(chunk)
        .map_err(|_| Error::format("a chunk has an invalid Blosc header"))?;
    if usize::try_from(info.nbytes).ok() != Some(nbytes) {
        return Err(Error::format(format!(
            "a chunk holds {} bytes where {nbytes} are expected",
            info.nbytes
        )));
    }
    out.resize(nbytes, 0);
    let dparams = DParams {
        nthreads: 1,
        typesize: i32::from(info.typesize),
    };
    let n = DECOMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let ctx = match slot.as_mut() {
            Some(ctx) => {
                ctx.set_dparams(dparams);
                ctx
            }
            None => slot.insert(Context::decompressor(dparams)),
        };
        ctx.decompress(chunk, out)
    })?;
    if n != nbytes {
        return Err(Error::format(format!(
            "a chunk decoded to {n} bytes where {nbytes} are expected"
        )));
    }
    Ok(())
}

/// Compresses several buffers in parallel (one chunk each, in order).
pub fn compress_many(parts: &[&[u8]], params: &ChunkParams) -> Result<Vec<Vec<u8>>> {
    parts
        .par_iter()
        .map(|p| compress_chunk(p, params))
        .collect()
}

/// Decompresses several `(chunk, nbytes)` pairs in parallel, in order.
pub fn decompress_many(chunks: &[(&[u8], usize)]) -> Result<Vec<Vec<u8>>> {
    chunks
        .par_iter()
        .map(|(c, n)| decompress_chunk(c, *n))
        .collect()
}
