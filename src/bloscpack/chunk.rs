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
pub fn compress_chunk(data: &[u8], params: &ChunkParams) -> Result<Vec<u8>> {
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
