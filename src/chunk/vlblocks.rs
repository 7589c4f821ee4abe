//! Chunks with variable-length blocks (format version 6, `blosc2_flags2` bit 0).

use std::sync::Arc;

use super::decompress::{read_dict, DecompressEnv, OwnedDict};
use super::header::{read_i32, Header};
use super::pipeline::{self, resolve, Filters, Plugins};
use super::scratch::{ensure, Scratch};
use super::streams::{DecParams, Dict};
use crate::constants::*;
use crate::context::DParams;
use crate::error::{Error, Result};
use crate::registry::plugins::{self, Codec, DecompressCall};

/// A VL chunk with checked block starts.
struct VlChunk<'a> {
    h: Header,
    src: &'a [u8],
    nblocks: usize,
    dict: Option<OwnedDict>,
    plugins: Plugins,
    codec: Option<Arc<Codec>>,
    dparams: DParams,
    env: DecompressEnv<'a>,
}

impl<'a> VlChunk<'a> {
    fn new(h: Header, src: &'a [u8], env: DecompressEnv<'a>) -> Result<VlChunk<'a>> {
        let nblocks = h.blocksize as usize;
        let bstarts_end = EXTENDED_HEADER_LENGTH + 4 * nblocks;
        if src.len() < bstarts_end {
            return Err(Error::ReadBuffer);
        }
        if h.nbytes < 0 {
            return Err(Error::InvalidHeader);
        }
        let dict = if h.uses_dict() {
            Some(read_dict(&h, src, bstarts_end)?)
        } else {
            None
        };
        Ok(VlChunk {
            h,
            src,
            nblocks,
            dict,
            plugins: resolve(&h.filters),
            codec: if h.compformat() == UDCODEC_FORMAT {
                plugins::codec(h.udcodec)
            } else {
                None
            },
            dparams: DParams {
                nthreads: env.nthreads,
                typesize: i32::from(h.typesize),
            },
            env,
        })
    }

    /// The stream of block `j`: its uncompressed size and its compressed bytes.
    fn stream(&self, j: usize) -> Result<(usize, &'a [u8])> {
        let start = i64::from(read_i32(self.src, EXTENDED_HEADER_LENGTH + 4 * j));
        let end = if j + 1 < self.nblocks {
            i64::from(read_i32(self.src, EXTENDED_HEADER_LENGTH + 4 * (j + 1)))
        } else {
            i64::from(self.h.cbytes)
        };
        if start <= 0 || start + 4 > end || end > self.src.len() as i64 {
            return Err(Error::InvalidHeader);
        }
        let start = start as usize;
        let ulen = read_i32(self.src, start);
        if ulen < 0 {
            return Err(Error::InvalidHeader);
        }
        Ok((ulen as usize, &self.src[start + 4..end as usize]))
    }

    fn params(&self) -> DecParams<'_> {
        DecParams {
            compformat: self.h.compformat(),
            compcode_meta: self.h.compcode_meta,
            dont_split: true,
            filters: Filters {
                ids: self.h.filters,
                meta: self.h.filters_meta,
                typesize: usize::from(self.h.typesize),
                version: self.h.version,
                plugins: &self.plugins,
            },
            dict: self.dict.as_ref().map(|d| match d {
                OwnedDict::Zstd(z) => Dict::Zstd(z),
                OwnedDict::Lz4(r) => Dict::Lz4(&self.src[r.clone()]),
            }),
            codec: self.codec.as_deref(),
            call: DecompressCall {
                dparams: &self.dparams,
                chunk: self.src,
                schunk_typesize: self.env.schunk_typesize,
                host: self.env.host,
            },
        }
    }

    /// Decodes block `j` into `out`, which must be exactly its uncompressed size.
    fn decode(&self, sc: &mut Scratch, j: usize, out: &mut [u8]) -> Result<()> {
        let (_, cdata) = self.stream(j)?;
        let p = self.params();
        let n = out.len();
        let buffered = p.filters.needs_backward_buffer();
        if buffered {
            sc.ensure_filters(n);
        }
        {
            let target: &mut [u8] = if buffered { &mut sc.a[..n] } else { &mut *out };
            if cdata.len() == n {
                target.copy_from_slice(cdata);
            } else if super::streams::decompress_stream(&p, &mut sc.codecs, cdata, target)?
                != Some(n)
            {
                return Err(Error::Data);
            }
        }
        if buffered || p.filters.has_delta() {
            let Scratch { a, b, .. } = sc;
            pipeline::backward(&p.filters, &p.call, a, b, out, &[], 0)?;
        }
        Ok(())
    }
}

/// Decompresses every block of the VL chunk `src` one after the other into `dst`.
pub(crate) fn decompress_concat(
    sc: &mut Scratch,
    env: DecompressEnv,
    h: Header,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    let c = VlChunk::new(h, src, env)?;
    // The block sizes must add up to nbytes before anything is written.
    let mut total = 0usize;
    for j in 0..c.nblocks {
        total = total
            .checked_add(c.stream(j)?.0)
            .ok_or(Error::InvalidHeader)?;
    }
    if total != h.nbytes as usize || total > dst.len() {
        return Err(Error::InvalidHeader);
    }
    let mut pos = 0usize;
    for j in 0..c.nblocks {
        let (ulen, _) = c.stream(j)?;
        c.decode(sc, j, &mut dst[pos..pos + ulen])?;
        pos += ulen;
    }
    Ok(pos)
}

/// Number of blocks of the VL chunk `src`.
pub fn nblocks(src: &[u8]) -> Result<i32> {
    let h = Header::parse(src)?;
    if !h.is_vl() {
        return Err(Error::InvalidParam);
    }
    Ok(h.blocksize)
}

/// Decompresses block `nblock` of the VL chunk `src` into a new buffer.
pub(crate) fn decompress_block(
    sc: &mut Scratch,
    env: DecompressEnv,
    src: &[u8],
    nblock: i32,
) -> Result<Vec<u8>> {
    let h = Header::parse(src)?;
    if !h.is_vl() || nblock < 0 || nblock >= h.blocksize {
        return Err(Error::InvalidParam);
    }
    let c = VlChunk::new(h, src, env)?;
    let j = nblock as usize;
    let (ulen, _) = c.stream(j)?;
    if ulen > h.nbytes as usize {
        return Err(Error::Data);
    }
    let mut out = Vec::new();
    ensure(&mut out, ulen);
    c.decode(sc, j, &mut out)?;
    Ok(out)
}
