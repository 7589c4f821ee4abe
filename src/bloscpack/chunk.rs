//! Blosc1-format chunks as bloscpack (python-blosc 1.x) and bcolz (c-blosc 1.x) store them,
//! compressed and decompressed by this crate's chunk engine, several at a time on all cores.

use rayon::prelude::*;

use super::error::{Error, Result};
use crate::constants::{BITSHUFFLE, BLOSC1_VERSION_FORMAT, MIN_HEADER_LENGTH, SHUFFLE};
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
/// c-blosc 1.x bit-unshuffles a block only when it holds a multiple of 8 items (it copies
/// other blocks as they are), while this engine bit-shuffles the whole multiple of 8 of
/// every block. When a block of the chunk would differ, the chunk is byte-shuffled
/// instead, so that every Blosc1 reader gets the same bytes back.
pub fn compress_chunk(data: &[u8], params: &ChunkParams) -> Result<Vec<u8>> {
    let chunk = compress_v2(data, params)?;
    if params.shuffle == 2 && !bitshuffle_agrees(&chunk, data.len()) {
        let byte = ChunkParams {
            shuffle: 1,
            ..*params
        };
        return compress_v2(data, &byte);
    }
    Ok(chunk)
}

/// Whether every block of a bit-shuffled chunk holds a multiple of 8 items (or the chunk
/// is stored without filters), where both bit-shuffle conventions agree.
fn bitshuffle_agrees(chunk: &[u8], nbytes: usize) -> bool {
    const MEMCPYED: u8 = 0x02;
    let Ok(info) = crate::cbuffer::basic_info(chunk) else {
        return false;
    };
    if info.flags & MEMCPYED != 0 || nbytes == 0 {
        return true;
    }
    let ts = usize::from(info.typesize);
    let bs = info.blocksize as usize;
    let last = match nbytes % bs {
        0 => bs,
        r => r,
    };
    (bs / ts).is_multiple_of(8) && (last / ts).is_multiple_of(8)
}

fn compress_v2(data: &[u8], params: &ChunkParams) -> Result<Vec<u8>> {
    let mut ctx = Context::compressor(params.cparams()?);
    ctx.set_blosc1_header(true);
    let mut out = vec![0u8; data.len() + crate::constants::MAX_OVERHEAD];
    let n = ctx.compress(data, &mut out)?;
    if n < MIN_HEADER_LENGTH {
        return Err(Error::Codec(crate::Error::Failure));
    }
    out.truncate(n);
    out[0] = BLOSC1_VERSION_FORMAT;
    Ok(out)
}

/// Decompresses one chunk that must hold exactly `nbytes` bytes.
pub fn decompress_chunk(chunk: &[u8], nbytes: usize) -> Result<Vec<u8>> {
    let info = crate::cbuffer::basic_info(chunk)
        .map_err(|_| Error::format("a chunk has an invalid Blosc header"))?;
    if usize::try_from(info.nbytes).ok() != Some(nbytes) {
        return Err(Error::format(format!(
            "a chunk holds {} bytes where {nbytes} are expected",
            info.nbytes
        )));
    }
    let mut ctx = Context::decompressor(DParams {
        nthreads: 1,
        typesize: i32::from(info.typesize),
    });
    let mut out = vec![0u8; nbytes];
    let n = ctx.decompress(chunk, &mut out)?;
    if n != nbytes {
        return Err(Error::format(format!(
            "a chunk decoded to {n} bytes where {nbytes} are expected"
        )));
    }
    Ok(out)
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
