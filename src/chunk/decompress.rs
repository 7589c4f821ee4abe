//! Chunk decompression: header checks, dictionary, block starts, blocks (serial or parallel).

use std::any::Any;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::bulk;
use super::header::{read_i32, Header};
use super::hooks::{ttmp_len, Output, PostfilterArgs, PostfilterFn};
use super::pipeline::{resolve, Filters, Plugins};
use super::scratch::{ensure, Scratch};
use super::special;
use super::streams::{decode_block, DecParams, Dict};
use crate::codecs::zstd::DDict;
use crate::constants::*;
use crate::context::DParams;
use crate::error::{Error, Result};
use crate::registry::plugins::{self, Codec, DecompressCall, MetaLookup};
use crate::threads::{FirstError, Pool};

/// What a decompression uses besides the chunk: the context's callbacks and host data.
#[derive(Clone, Copy)]
pub(crate) struct DecompressEnv<'a> {
    /// Postfilter.
    pub postfilter: Option<&'a PostfilterFn>,
    /// Host data handed to callbacks.
    pub host: Option<&'a (dyn Any + Send + Sync)>,
    /// Typesize of the context's super-chunk.
    pub schunk_typesize: Option<i32>,
    /// Metalayers of the context's super-chunk.
    pub schunk_meta: Option<&'a MetaLookup>,
    /// Chunk number handed to the postfilter (-1 outside a super-chunk).
    pub nchunk: i64,
    /// Number of threads of the context.
    pub nthreads: i16,
}

impl Default for DecompressEnv<'_> {
    fn default() -> Self {
        DecompressEnv {
            postfilter: None,
            host: None,
            schunk_typesize: None,
            schunk_meta: None,
            nchunk: -1,
            nthreads: 1,
        }
    }
}

impl std::fmt::Debug for DecompressEnv<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecompressEnv")
            .field("postfilter", &self.postfilter.is_some())
            .field("nchunk", &self.nchunk)
            .field("nthreads", &self.nthreads)
            .finish()
    }
}

/// Working state a decompression uses (owned by the context, reused across calls).
#[derive(Debug, Default)]
pub(crate) struct DecompressState {
    /// Serial working memory.
    pub scratch: Scratch,
    /// One-shot block mask (true = skip the block) for the next decompression.
    pub maskout: Option<Vec<bool>>,
}

/// A chunk dictionary owned for the duration of a call.
#[derive(Debug)]
pub(crate) enum OwnedDict {
    /// Digested zstd dictionary.
    Zstd(DDict),
    /// Byte range of an LZ4 dictionary inside the chunk.
    Lz4(Range<usize>),
}

/// A chunk whose header, block starts and dictionary have been checked.
#[derive(Debug)]
pub(crate) struct Prepared<'a> {
    /// The header.
    pub h: Header,
    /// The whole chunk (its length is the source size).
    pub src: &'a [u8],
    /// Header length.
    pub hlen: usize,
    /// Blocksize (at least 1).
    pub blocksize: usize,
    /// Number of blocks.
    pub nblocks: usize,
    /// Size of the last, partial block (0 if none).
    pub leftover: usize,
    /// Dictionary, if any.
    pub dict: Option<OwnedDict>,
    /// Registered filters of the slots.
    pub plugins: Plugins,
    /// Registered codec of a user-codec chunk.
    pub codec: Option<Arc<Codec>>,
    /// Parameters handed to callbacks.
    pub dparams: DParams,
    /// Callbacks and host data.
    pub env: DecompressEnv<'a>,
}

impl Prepared<'_> {
    /// Decoding parameters for the blocks of this chunk.
    pub fn params(&self) -> DecParams<'_> {
        DecParams {
            compformat: self.h.compformat(),
            compcode_meta: self.h.compcode_meta,
            dont_split: self.h.dont_split(),
            filters: Filters {
                // Instrumentation records are stored as they are, whatever the filters.
                ids: if self.h.blosc2_flags & INSTR_CODEC != 0 {
                    [NOFILTER; MAX_FILTERS]
                } else {
                    self.h.filters
                },
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

    /// Whether blocks are stored raw or implied (no block starts, no codec).
    pub fn is_flat(&self) -> bool {
        self.h.is_memcpyed() || self.h.special() != NO_SPECIAL
    }

    /// Where block `j` starts in the chunk.
    pub fn bstart(&self, j: usize) -> i64 {
        if self.is_flat() {
            (self.hlen + j * self.h.blocksize.max(0) as usize) as i64
        } else {
            i64::from(read_i32(self.src, self.hlen + 4 * j))
        }
    }

    /// Size of block `j`.
    pub fn block_len(&self, j: usize) -> usize {
        if self.leftover > 0 && j + 1 == self.nblocks {
            self.leftover
        } else {
            self.blocksize
        }
    }

    /// Decodes block `j` into `out` on thread `tid`, through the postfilter if there is
    /// one; `dref` is the decoded first block (DELTA). Returns the number of bytes the block
    /// produced.
    pub fn decode(
        &self,
        p: &DecParams,
        sc: &mut Scratch,
        j: usize,
        out: &mut [u8],
        dref: &[u8],
        tid: usize,
    ) -> Result<usize> {
        if self.env.postfilter.is_none() {
            return self.decode_raw(p, sc, j, out, dref);
        }
        let q = self.ttmp_area();
        let at = if self.is_flat() { 0 } else { q };
        self.decode_filtered(p, sc, j, dref, tid, at, Output::Buffer(out))
    }

    /// Size of one area of the callbacks' scratch buffer.
    pub fn ttmp_area(&self) -> usize {
        ttmp_len(self.blocksize, usize::from(self.h.typesize)) / 4
    }

    /// Decodes block `j` into the thread's `ttmp` at byte `at`, then runs the postfilter
    /// with that input and the given output. Returns the block's decoded size.
    #[allow(clippy::too_many_arguments)]
    pub fn decode_filtered(
        &self,
        p: &DecParams,
        sc: &mut Scratch,
        j: usize,
        dref: &[u8],
        tid: usize,
        at: usize,
        output: Output,
    ) -> Result<usize> {
        let len = self.block_len(j);
        let mut ttmp = std::mem::take(&mut sc.ttmp);
        ensure(&mut ttmp, 4 * self.ttmp_area());
        let res = self.decode_raw(p, sc, j, &mut ttmp[at..at + len], dref);
        let res = res.and_then(|n| {
            let pf = self.env.postfilter.ok_or(Error::Postfilter)?;
            let mut args = PostfilterArgs {
                ttmp: &mut ttmp,
                input: at,
                output,
                size: len,
                typesize: i32::from(self.h.typesize),
                offset: j * self.blocksize,
                nblock: j,
                tid,
                nchunk: self.env.nchunk,
            };
            if pf(&mut args) == 0 {
                Ok(n)
            } else {
                Err(Error::Postfilter)
            }
        });
        sc.ttmp = ttmp;
        res
    }

    /// Decodes block `j` into `out` without the postfilter.
    pub fn decode_raw(
        &self,
        p: &DecParams,
        sc: &mut Scratch,
        j: usize,
        out: &mut [u8],
        dref: &[u8],
    ) -> Result<usize> {
        let special = self.h.special();
        if special != NO_SPECIAL {
            let ts = usize::from(self.h.typesize);
            let width = (self.h.cbytes.max(0) as usize).saturating_sub(self.hlen);
            let value = if special == SPECIAL_VALUE {
                self.src
                    .get(self.hlen..self.hlen + width)
                    .ok_or(Error::ReadBuffer)?
            } else {
                &[]
            };
            // The reference fills block by block with whole values: a block size that is
            // not a whole number of values is corrupt data.
            if special == SPECIAL_VALUE && width > 0 && !self.blocksize.is_multiple_of(width) {
                return Err(Error::Data);
            }
            // So are NaN blocks that are not a whole number of items (found by the
            // `differential` fuzz target).
            if special == SPECIAL_NAN && ts > 0 && !self.blocksize.is_multiple_of(ts) {
                return Err(Error::Data);
            }
            special::fill(special, ts, value, j * self.blocksize, out)?;
            return Ok(out.len());
        }
        if self.h.is_lazy() {
            return Err(Error::InvalidParam);
        }
        if self.h.is_memcpyed() {
            let start = self.hlen + j * self.blocksize;
            let stored = self
                .src
                .get(start..start + out.len())
                .ok_or(Error::ReadBuffer)?;
            out.copy_from_slice(stored);
            return Ok(out.len());
        }
        let last = self.leftover > 0 && j + 1 == self.nblocks;
        decode_block(
            p,
            sc,
            self.src,
            self.bstart(j),
            last,
            out,
            dref,
            j * self.blocksize,
        )
    }
}

/// Checks what the reference checks before decoding blocks and reads the dictionary.
/// `Ok(None)` means an empty chunk (nothing to decode).
pub(crate) fn prepare<'a>(
    h: Header,
    src: &'a [u8],
    env: DecompressEnv<'a>,
) -> Result<Option<Prepared<'a>>> {
    let hlen = h.header_len();
    let special = h.special();
    if special > SPECIAL_UNINIT {
        return Err(Error::Data);
    }
    if h.is_memcpyed() && i64::from(h.cbytes) != i64::from(h.nbytes) + hlen as i64 {
        return Err(Error::Data);
    }
    // The dictionary of a lazy chunk lies in its frame: the reference refuses to decode such
    // a chunk without one, even a special one (which needs no dictionary) or one of no data.
    if h.is_lazy() && h.uses_dict() {
        return Err(Error::InvalidParam);
    }
    if h.nbytes < 0 {
        // Negative sizes give no block (the reference decodes nothing) unless they amount
        // to a negative block count.
        return if special != NO_SPECIAL || h.nbytes / h.blocksize == 0 {
            Ok(None)
        } else {
            Err(Error::InvalidHeader)
        };
    }
    if h.nbytes == 0 && h.cbytes as usize == hlen && special == NO_SPECIAL {
        return Ok(None);
    }
    let (nblocks, leftover) = h.nblocks();
    let flat = h.is_memcpyed() || special != NO_SPECIAL;
    let bstarts_end = if flat { hlen } else { hlen + 4 * nblocks };
    if src.len() < bstarts_end {
        return Err(Error::ReadBuffer);
    }
    let dict = if h.uses_dict() {
        Some(read_dict(&h, src, bstarts_end)?)
    } else {
        None
    };
    Ok(Some(Prepared {
        h,
        src,
        hlen,
        blocksize: h.blocksize.max(1) as usize,
        nblocks,
        leftover,
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
    }))
}

/// Reads the dictionary stored after the block starts.
pub(crate) fn read_dict(h: &Header, src: &[u8], at: usize) -> Result<OwnedDict> {
    if src.len() - at < 4 {
        return Err(Error::ReadBuffer);
    }
    let size = read_i32(src, at);
    if size <= 0 || size > MAXDICTSIZE {
        return Err(Error::CodecDict);
    }
    let range = at + 4..at + 4 + size as usize;
    if range.end > src.len() {
        return Err(Error::ReadBuffer);
    }
    match h.compformat() {
        ZSTD_FORMAT => Ok(OwnedDict::Zstd(
            DDict::new(&src[range]).ok_or(Error::CodecDict)?,
        )),
        _ => Ok(OwnedDict::Lz4(range)),
    }
}

/// Decompresses the chunk `src` into `dst`; returns the number of decoded bytes.
pub(crate) fn decompress(
    st: &mut DecompressState,
    pool: Option<&Pool>,
    env: DecompressEnv,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    let maskout = st.maskout.take();
    let h = Header::parse_fields(src)?;
    if i64::from(h.nbytes) > dst.len() as i64 {
        return Err(Error::WriteBuffer);
    }
    h.check_source(src.len())?;
    if h.is_vl() {
        return super::vlblocks::decompress_concat(&mut st.scratch, pool, env, h, src, dst);
    }
    let Some(c) = prepare(h, src, env)? else {
        return Ok(0);
    };
    if let Some(m) = &maskout {
        if m.len() != c.nblocks {
            return Err(Error::Data);
        }
    }
    let nbytes = h.nbytes as usize;
    run_blocks(
        &c,
        &mut st.scratch,
        pool,
        maskout.as_deref(),
        &mut dst[..nbytes],
    )
}

/// Decodes every (unmasked) block of `c` into `out`; with DELTA the first block goes first.
/// Returns the decoded size (masked blocks count as decoded).
fn run_blocks(
    c: &Prepared,
    sc: &mut Scratch,
    pool: Option<&Pool>,
    mask: Option<&[bool]>,
    out: &mut [u8],
) -> Result<usize> {
    if mask.is_none() && c.env.postfilter.is_none() {
        if let Some(n) = decode_flat(c, pool, out)? {
            return Ok(n);
        }
    }
    let p = c.params();
    if p.filters.has_delta() && !c.is_flat() && !out.is_empty() {
        if mask.is_none() {
            if let Some(n) = super::deferred_delta::decode(c, &p, pool, out)? {
                return Ok(n);
            }
        }
        let (head, rest) = out.split_at_mut(c.blocksize.min(out.len()));
        let first = if mask.is_some_and(|m| m[0]) {
            head.len()
        } else {
            c.decode(&p, sc, 0, head, &[], 0)?
        };
        Ok(first + decode_range(c, &p, sc, pool, mask, 1, rest, head)?)
    } else {
        decode_range(c, &p, sc, pool, mask, 0, out, &[])
    }
}

/// Decodes a memcpyed, all-zeros or uninitialized chunk in one go (one copy or fill of the
/// whole output; a large copy is split over the threads). `None` for every other chunk,
/// whose blocks are decoded one by one, and, like the reference, for a special chunk when a
/// caller's parallel-for would run its blocks.
fn decode_flat(c: &Prepared, pool: Option<&Pool>, out: &mut [u8]) -> Result<Option<usize>> {
    let special = c.h.special();
    if special != NO_SPECIAL && pool.is_some() && crate::threads::executor_installed() {
        return Ok(None);
    }
    match special {
        SPECIAL_ZERO => bulk::zero(out),
        SPECIAL_UNINIT => {}
        NO_SPECIAL if c.h.is_memcpyed() && !c.h.is_lazy() => {
            let stored = c
                .src
                .get(c.hlen..c.hlen + out.len())
                .ok_or(Error::ReadBuffer)?;
            bulk::copy(pool, stored, out);
        }
        _ => return Ok(None),
    }
    Ok(Some(out.len()))
}

/// Decodes blocks `first..` into `out` (which starts at block `first`).
#[allow(clippy::too_many_arguments)]
fn decode_range(
    c: &Prepared,
    p: &DecParams,
    sc: &mut Scratch,
    pool: Option<&Pool>,
    mask: Option<&[bool]>,
    first: usize,
    out: &mut [u8],
    dref: &[u8],
) -> Result<usize> {
    let skip = |j: usize| mask.is_some_and(|m| m[j]);
    let bs = c.blocksize;
    match pool.filter(|_| c.nblocks > first + 1) {
        None => {
            let mut total = 0;
            for (k, block) in out.chunks_mut(bs).enumerate() {
                total += if skip(first + k) {
                    block.len()
                } else {
                    c.decode(p, sc, first + k, block, dref, 0)?
                };
            }
            Ok(total)
        }
        Some(pool) => {
            // Small blocks go to the threads in groups of consecutive ones.
            let g = pool.group_len(bs, c.nblocks - first);
            let cells: Vec<Mutex<&mut [u8]>> = out.chunks_mut(bs * g).map(Mutex::new).collect();
            let total = AtomicUsize::new(0);
            // Report the error of the lowest failing block, as the serial path does.
            let errors = FirstError::new();
            pool.for_each_block(cells.len(), &|q, tid, sc| {
                let mut group = cells[q].lock().unwrap_or_else(PoisonError::into_inner);
                let mut sum = 0;
                for (i, block) in group.chunks_mut(bs).enumerate() {
                    let j = first + q * g + i;
                    let n = if skip(j) {
                        Ok(block.len())
                    } else {
                        c.decode(p, sc, j, block, dref, tid)
                    };
                    match n {
                        Ok(n) => sum += n,
                        Err(e) => errors.record(j, e),
                    }
                }
                total.fetch_add(sum, Ordering::Relaxed);
            })?;
            errors.into_result()?;
            Ok(total.into_inner())
        }
    }
}
