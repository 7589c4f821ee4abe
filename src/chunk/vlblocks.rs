//! Chunks with variable-length blocks (format version 6, `blosc2_flags2` bit 0).

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::decompress::{read_dict, DecompressEnv, OwnedDict};
use super::header::{read_i32, Header};
use super::hooks::{ttmp_len, Output, PostfilterArgs};
use super::pipeline::{self, resolve, Filters, Plugins};
use super::scratch::{ensure, Scratch};
use super::streams::{DecParams, Dict};
use crate::constants::*;
use crate::context::DParams;
use crate::error::{Error, Result};
use crate::registry::plugins::{self, Codec, DecompressCall};
use crate::threads::{FirstError, Pool};

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
    /// Size of the largest block (for the postfilter), found on first use.
    maxblock: OnceLock<usize>,
}

impl<'a> VlChunk<'a> {
    fn new(h: Header, src: &'a [u8], env: DecompressEnv<'a>) -> Result<VlChunk<'a>> {
        // A lazy chunk holds no block data: only a super-chunk can resolve it (as for
        // regular chunks, the reference refuses it here).
        if h.is_lazy() {
            return Err(Error::InvalidParam);
        }
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
            maxblock: OnceLock::new(),
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
                schunk_meta: self.env.schunk_meta,
                host: self.env.host,
            },
        }
    }

    /// Decodes block `j` into `out` (exactly its uncompressed size) on thread `tid`, through
    /// the postfilter if there is one.
    fn decode(&self, sc: &mut Scratch, j: usize, out: &mut [u8], tid: usize) -> Result<()> {
        let Some(pf) = self.env.postfilter else {
            return self.decode_raw(sc, j, out);
        };
        // The reference places VL blocks for the postfilter as if they all had the size of
        // the largest one.
        let maxblock = *self.maxblock.get_or_init(|| {
            (0..self.nblocks)
                .filter_map(|k| self.stream(k).ok().map(|s| s.0))
                .max()
                .unwrap_or(0)
        });
        let q = ttmp_len(maxblock, usize::from(self.h.typesize)) / 4;
        let n = out.len();
        let mut ttmp = std::mem::take(&mut sc.ttmp);
        ensure(&mut ttmp, 4 * q);
        let res = self.decode_raw(sc, j, &mut ttmp[q..q + n]).and_then(|()| {
            let mut args = PostfilterArgs {
                ttmp: &mut ttmp,
                input: q,
                output: Output::Buffer(out),
                size: n,
                typesize: i32::from(self.h.typesize),
                offset: j * maxblock,
                nblock: j,
                tid,
                nchunk: self.env.nchunk,
            };
            if pf(&mut args) == 0 {
                Ok(())
            } else {
                Err(Error::Postfilter)
            }
        });
        sc.ttmp = ttmp;
        res
    }

    /// Decodes block `j` into `out` without the postfilter.
    fn decode_raw(&self, sc: &mut Scratch, j: usize, out: &mut [u8]) -> Result<()> {
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

/// Decodes block `j` into `outs[j]` for every block, serially or on the pool.
fn decode_all(
    c: &VlChunk,
    sc: &mut Scratch,
    pool: Option<&Pool>,
    outs: Vec<&mut [u8]>,
) -> Result<()> {
    match pool.filter(|_| outs.len() > 1) {
        None => {
            for (j, out) in outs.into_iter().enumerate() {
                c.decode(sc, j, out, 0)?;
            }
            Ok(())
        }
        Some(pool) => {
            let cells: Vec<Mutex<&mut [u8]>> = outs.into_iter().map(Mutex::new).collect();
            let errors = FirstError::new();
            pool.for_each_block(cells.len(), &|j, tid, sc| {
                let mut out = cells[j].lock().unwrap_or_else(PoisonError::into_inner);
                if let Err(e) = c.decode(sc, j, &mut out, tid) {
                    errors.record(j, e);
                }
            })?;
            errors.into_result()
        }
    }
}

/// The uncompressed sizes of the blocks, which must add up to nbytes.
fn block_sizes(c: &VlChunk) -> Result<Vec<usize>> {
    let mut total = 0usize;
    let mut sizes = Vec::with_capacity(c.nblocks);
    for j in 0..c.nblocks {
        let n = c.stream(j)?.0;
        total = total.checked_add(n).ok_or(Error::InvalidHeader)?;
        sizes.push(n);
    }
    if total != c.h.nbytes as usize {
        return Err(Error::InvalidHeader);
    }
    Ok(sizes)
}

/// Decompresses every block of the VL chunk `src` into `dst`, one after the other.
pub(crate) fn decompress_concat(
    sc: &mut Scratch,
    pool: Option<&Pool>,
    env: DecompressEnv,
    h: Header,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    let c = VlChunk::new(h, src, env)?;
    // The block sizes must add up to nbytes before anything is written.
    let sizes = block_sizes(&c)?;
    let total = h.nbytes as usize;
    if total > dst.len() {
        return Err(Error::InvalidHeader);
    }
    let mut outs = Vec::with_capacity(sizes.len());
    let mut rest = &mut dst[..total];
    for &n in &sizes {
        let (head, tail) = rest.split_at_mut(n);
        outs.push(head);
        rest = tail;
    }
    decode_all(&c, sc, pool, outs)?;
    Ok(total)
}

/// Decompresses every block of the VL chunk `src` into buffers of their own.
pub(crate) fn decompress_blocks(
    sc: &mut Scratch,
    pool: Option<&Pool>,
    env: DecompressEnv,
    src: &[u8],
    maxblocks: usize,
) -> Result<Vec<Vec<u8>>> {
    let h = Header::parse(src)?;
    if !h.is_vl() || h.blocksize as usize > maxblocks {
        return Err(Error::InvalidParam);
    }
    let c = VlChunk::new(h, src, env)?;
    let mut blocks: Vec<Vec<u8>> = block_sizes(&c)?.into_iter().map(|n| vec![0u8; n]).collect();
    decode_all(
        &c,
        sc,
        pool,
        blocks.iter_mut().map(|b| &mut b[..]).collect(),
    )?;
    Ok(blocks)
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
    let mut out = vec![0u8; ulen];
    c.decode(sc, j, &mut out, 0)?;
    Ok(out)
}
