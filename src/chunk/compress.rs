//! Chunk compression: parameter checks, header, blocks (serial or parallel), fallbacks.

use std::any::Any;

use super::bulk;
use super::dict;
use super::header::{offsets, write_i32, NewHeader};
use super::hooks::{Output, Prefilter};
use super::instr;
use super::parallel::compress_parallel;
use super::pipeline::{delta_reference, forward, resolve, Capture, Filters};
use super::scratch::{Buf, Scratch};
use super::streams::{encode_block, run_prefilter, BlockJob, EncParams};
use super::stune::{compute_blocksize, split_block, BlocksizeInput};
use crate::constants::*;
use crate::context::CParams;
use crate::error::{Error, Result};
use crate::registry::plugins::{self, CompressCall, MetaLookup};
use crate::threads::Pool;

/// Working state a compression uses (owned by the context, reused across calls).
#[derive(Debug, Default)]
pub(crate) struct CompressState {
    /// Serial working memory.
    pub scratch: Scratch,
    /// Per-block output slots for parallel compression.
    pub slots: Buf,
    /// Per-block results for parallel variable-length-block compression.
    pub results: Vec<Option<usize>>,
    /// The first block as the reference's pipeline leaves it in the source (DELTA).
    pub dref: Vec<u8>,
}

/// Codec format number stored in flags bits 5-7.
pub(crate) fn compformat(compcode: u8) -> u8 {
    match compcode {
        BLOSCLZ => BLOSCLZ_FORMAT,
        LZ4 | LZ4HC => LZ4_FORMAT,
        ZLIB => ZLIB_FORMAT,
        ZSTD => ZSTD_FORMAT,
        _ => UDCODEC_FORMAT,
    }
}

/// Whether `compcode` is one of the codecs compiled into the library.
pub(crate) fn is_builtin_codec(compcode: u8) -> bool {
    matches!(compcode, BLOSCLZ | LZ4 | LZ4HC | ZLIB | ZSTD)
}

/// The validated layout of a chunk about to be written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Blocksize used for splitting the data.
    pub blocksize: usize,
    /// Blocksize stored in the header.
    pub header_blocksize: i32,
    /// Stored typesize (1..=255).
    pub typesize: usize,
    /// Number of blocks.
    pub nblocks: usize,
    /// Size of the last, partial block (0 if none).
    pub leftover: usize,
    /// Whether full blocks are split into streams.
    pub split: bool,
}

/// Checks the parameters against the reference's rules and computes the block layout.
pub(crate) fn layout(cp: &CParams, nbytes: usize, destsize: usize) -> Result<Layout> {
    if nbytes as i64 > MAX_BUFFERSIZE || destsize < MAX_OVERHEAD {
        return Err(Error::MaxBufsizeExceeded);
    }
    if cp.clevel > 9 {
        return Err(Error::CodecParam);
    }
    if cp.typesize <= 0 || cp.typesize > MAXTYPESIZE {
        return Err(Error::InvalidParam);
    }
    if cp.use_dict && !matches!(cp.compcode, LZ4 | LZ4HC | ZSTD) {
        return Err(Error::CodecParam);
    }
    let nbytes_i = nbytes as i32;
    let has_shuffle = cp.filters.contains(&SHUFFLE);
    let blocksize = compute_blocksize(&BlocksizeInput {
        nbytes: nbytes_i,
        typesize: cp.typesize,
        clevel: cp.clevel,
        compcode: cp.compcode,
        splitmode: cp.splitmode,
        has_shuffle,
        forced: cp.blocksize,
    });
    let header_blocksize = if cp.blocksize != 0 && nbytes_i > 0 {
        cp.blocksize.min(nbytes_i)
    } else if cp.blocksize != 0 {
        cp.blocksize
    } else {
        blocksize
    };
    let typesize = if cp.typesize > i32::from(u8::MAX) {
        1
    } else {
        cp.typesize as usize
    };
    let bs = blocksize.max(1) as usize;
    let leftover = nbytes % bs;
    let split = split_block(
        cp.splitmode,
        cp.compcode,
        cp.clevel,
        typesize as i32,
        blocksize,
        has_shuffle,
    );
    crate::diag::info_layout(cp.compcode, cp.clevel, bs, split, cp.typesize);
    Ok(Layout {
        blocksize: bs,
        header_blocksize,
        typesize,
        nblocks: nbytes / bs + usize::from(leftover > 0),
        leftover,
        split,
    })
}

/// What a compression uses besides the parameters: the context's callbacks and host data.
#[derive(Clone, Copy)]
pub(crate) struct CompressEnv<'a> {
    /// Prefilter.
    pub prefilter: Option<&'a Prefilter>,
    /// Host data handed to callbacks.
    pub host: Option<&'a (dyn Any + Send + Sync)>,
    /// Typesize of the context's super-chunk.
    pub schunk_typesize: Option<i32>,
    /// Metalayers of the context's super-chunk.
    pub schunk_meta: Option<&'a MetaLookup>,
    /// Chunk number handed to the prefilter (-1 outside a super-chunk).
    pub nchunk: i64,
}

impl Default for CompressEnv<'_> {
    fn default() -> Self {
        CompressEnv {
            prefilter: None,
            host: None,
            schunk_typesize: None,
            schunk_meta: None,
            nchunk: -1,
        }
    }
}

/// Number of streams of a chunk whose blocks all encode to runs.
fn nstreams(lay: &Layout) -> usize {
    if lay.split {
        (lay.nblocks - usize::from(lay.leftover > 0)) * lay.typesize + usize::from(lay.leftover > 0)
    } else {
        lay.nblocks
    }
}

/// Whether every filter slot holds a built-in or registered filter.
pub(crate) fn filters_known(ids: &[u8; MAX_FILTERS], plugins: &super::pipeline::Plugins) -> bool {
    ids.iter()
        .zip(plugins)
        .all(|(&id, p)| id < LAST_FILTER || p.is_some())
}

/// Compresses `src` into `dst` (whose length is the destination size); returns the chunk
/// size, 0 when it does not fit, and the blocksize used.
pub(crate) fn compress(
    cp: &CParams,
    blosc1_header: bool,
    st: &mut CompressState,
    pool: Option<&Pool>,
    env: &CompressEnv,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(usize, usize)> {
    let lay = layout(cp, src.len(), dst.len())?;
    let extended = !blosc1_header;
    let hlen = if extended {
        EXTENDED_HEADER_LENGTH
    } else {
        MIN_HEADER_LENGTH
    };
    let destsize = dst.len();
    let mut memcpyed =
        cp.clevel == 0 || src.len() < MIN_BUFFERSIZE as usize || hlen + 4 * lay.nblocks > destsize;
    let codec = if is_builtin_codec(cp.compcode) {
        None
    } else {
        plugins::codec(cp.compcode)
    };
    let plugins = resolve(&cp.filters);
    if !memcpyed {
        let encoder = codec.as_ref().and_then(|c| c.encoder.as_ref());
        if !is_builtin_codec(cp.compcode) && encoder.is_none() {
            return Err(Error::CodecSupport);
        }
        if !filters_known(&cp.filters, &plugins) {
            return Err(Error::FilterPipeline);
        }
    }
    let mut flags = 0u8;
    if extended {
        flags |= DOSHUFFLE | DOBITSHUFFLE;
    }
    if !memcpyed {
        for &f in &cp.filters {
            flags |= match f {
                SHUFFLE => DOSHUFFLE,
                BITSHUFFLE => DOBITSHUFFLE,
                DELTA => DODELTA,
                _ => 0,
            };
        }
        if !lay.split {
            flags |= DONT_SPLIT;
        }
        flags |= compformat(cp.compcode) << 5;
    }
    let header = NewHeader {
        flags: if memcpyed { flags | MEMCPYED } else { flags },
        versionlz: codec.as_ref().map_or(1, |c| c.version),
        typesize: lay.typesize as u8,
        nbytes: src.len() as i32,
        blocksize: lay.header_blocksize,
        filters: cp.filters,
        compcode: cp.compcode,
        compcode_meta: cp.compcode_meta,
        filters_meta: cp.filters_meta,
        blosc2_flags: 0,
    };
    header.write(dst, extended);
    let call_cp = CParams {
        blocksize: lay.blocksize as i32,
        typesize: lay.typesize as i32,
        ..*cp
    };
    let p = EncParams {
        compcode: cp.compcode,
        compcode_meta: cp.compcode_meta,
        clevel: cp.clevel,
        split: lay.split,
        runs: extended,
        filters: Filters {
            ids: cp.filters,
            meta: cp.filters_meta,
            typesize: lay.typesize,
            version: VERSION_FORMAT_STABLE,
            plugins: &plugins,
        },
        chunk: src,
        dref: src,
        blocksize: lay.blocksize,
        codec: codec.as_deref(),
        call: CompressCall {
            cparams: &call_cp,
            src,
            schunk_typesize: env.schunk_typesize,
            schunk_meta: env.schunk_meta,
            host: env.host,
        },
        prefilter: env.prefilter,
        nchunk: env.nchunk,
        dict: None,
    };
    if cp.instr_codec && extended {
        if !memcpyed {
            let n = instr::compress(&p, &lay, &mut st.scratch, header, dst)?;
            return Ok((n, lay.blocksize));
        }
        dst[offsets::BLOSC2_FLAGS] = INSTR_CODEC;
    }
    let mut start = hlen + 4 * lay.nblocks;
    let built = if !memcpyed && cp.use_dict && extended {
        if destsize < src.len() + hlen {
            return Err(Error::WriteBuffer);
        }
        let samples = samples(&p, &lay, &mut st.scratch)?;
        let sizes = dict::regular_samples(lay.nblocks, lay.typesize, src.len());
        dict::build(cp.compcode, &samples, &sizes, lay.nblocks, src.len())
    } else {
        None
    };
    if let Some(d) = &built {
        let end = start + 4 + d.bytes.len();
        if end > destsize {
            memcpyed = true;
        } else {
            write_i32(dst, start, d.bytes.len() as i32);
            dst[start + 4..end].copy_from_slice(&d.bytes);
            dst[offsets::BLOSC2_FLAGS] |= USEDICT;
            start = end;
        }
    }
    let p = EncParams {
        dict: built.as_ref().map(|d| &d.enc),
        ..p
    };
    let mut cbytes = 0;
    if !memcpyed {
        match compress_blocks(&p, &lay, st, pool, dst, hlen, start)? {
            None => memcpyed = true,
            Some(n) => {
                cbytes = n;
                if extended && built.is_none() && n == start + 4 * nstreams(&lay) {
                    dst[offsets::BLOSC2_FLAGS] |= SPECIAL_ZERO << 4;
                    cbytes = hlen;
                } else if lay.header_blocksize as usize != lay.blocksize {
                    // A forced blocksize that is not a whole number of items: the blocks use
                    // it rounded down. The reference still writes the forced value here and
                    // then cannot decode its own chunk; this header says what the blocks use.
                    write_i32(dst, offsets::BLOCKSIZE, lay.blocksize as i32);
                }
            }
        }
    }
    if memcpyed && !header.is_memcpyed() {
        dst[offsets::FLAGS] = flags | MEMCPYED;
        dst[offsets::BLOSC2_FLAGS] = 0;
    }
    if memcpyed {
        if src.len() + hlen > destsize {
            return Ok((0, lay.blocksize));
        }
        let out = &mut dst[hlen..hlen + src.len()];
        match env.prefilter {
            Some(pf) => {
                for (j, (block, o)) in src
                    .chunks(lay.blocksize)
                    .zip(out.chunks_mut(lay.blocksize))
                    .enumerate()
                {
                    let ttmp = &mut st.scratch.ttmp;
                    run_prefilter(&p, pf, ttmp, block, j, 0, Output::Buffer(o))?;
                }
            }
            None => bulk::copy(pool, src, out),
        }
        cbytes = src.len() + hlen;
    }
    write_i32(dst, offsets::CBYTES, cbytes as i32);
    Ok((cbytes, lay.blocksize))
}

/// Bytes one block can take at most once compressed (raw streams plus run tokens).
pub(crate) fn block_bound(lay: &Layout) -> usize {
    lay.blocksize + 5 * lay.typesize.max(1)
}

/// The job for block `j` on thread `tid`.
pub(crate) fn job(lay: &Layout, j: usize, tid: usize) -> BlockJob {
    let leftover = lay.leftover > 0 && j == lay.nblocks - 1;
    BlockJob {
        nblock: j,
        bsize: if leftover {
            lay.leftover
        } else {
            lay.blocksize
        },
        leftover,
        tid,
    }
}

/// The chunk's blocks after the filter pipeline, one after the other: what its dictionary
/// is made from.
fn samples(p: &EncParams, lay: &Layout, sc: &mut Scratch) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(p.chunk.len());
    for j in 0..lay.nblocks {
        let b = job(lay, j, 0);
        let block = &p.chunk[j * lay.blocksize..j * lay.blocksize + b.bsize];
        sc.ensure_filters(b.bsize);
        let Scratch { a, b: bb, .. } = sc;
        let offset = j * lay.blocksize;
        match forward(&p.filters, &p.call, p.dref, offset, block, a, bb, None)? {
            None => out.extend_from_slice(block),
            Some(false) => out.extend_from_slice(&a[..block.len()]),
            Some(true) => out.extend_from_slice(&bb[..block.len()]),
        }
    }
    Ok(out)
}

/// Compresses every block into `dst` from `pos` (after the header, block starts and
/// dictionary), serially or on the pool; returns
/// the chunk length or `None` when it does not fit. When the reference's DELTA would see a
/// filtered first block (see [`delta_reference`]), that block goes first and the later
/// ones use what it captured.
fn compress_blocks(
    p: &EncParams,
    lay: &Layout,
    st: &mut CompressState,
    pool: Option<&Pool>,
    dst: &mut [u8],
    hlen: usize,
    mut pos: usize,
) -> Result<Option<usize>> {
    let prefilter = p.prefilter.is_some();
    let capture = delta_reference(&p.filters, prefilter).filter(|_| lay.nblocks > 1);
    let mut dref = std::mem::take(&mut st.dref);
    let mut first = 0;
    if let Some(k) = capture {
        let c = Capture {
            after: k - usize::from(prefilter),
            into: &mut dref,
        };
        write_i32(dst, hlen, pos as i32);
        let res = match pool {
            Some(pool) => pool.with_scratch(0, |sc| {
                encode_block(p, sc, job(lay, 0, 0), dst, pos, Some(c))
            }),
            None => encode_block(p, &mut st.scratch, job(lay, 0, 0), dst, pos, Some(c)),
        };
        match res {
            Ok(Some(n)) => pos += n,
            other => {
                st.dref = dref;
                return other;
            }
        }
        first = 1;
    }
    let p = EncParams {
        dref: if capture.is_some() {
            &dref[..lay.blocksize]
        } else {
            p.dref
        },
        ..*p
    };
    let written = match pool {
        Some(pool)
            if lay.nblocks - first > 1
                && (p.filters.any_forward() || !looks_uniform(p.chunk, lay.blocksize)) =>
        {
            compress_parallel(&p, lay, st, pool, dst, hlen, first, pos)
        }
        _ => compress_serial(&p, lay, &mut st.scratch, dst, hlen, first, pos),
    };
    st.dref = dref;
    written
}

/// Whether every block of `chunk` starts with the same byte value repeated (its first 64
/// bytes, equal to the chunk's first byte). Such a chunk, most often one value throughout,
/// is mostly runs that compress at the speed of a scan, faster on one thread than the
/// threads can be handed its blocks, unless filters make a pass over each block first
/// (then two threads win: zeros through DELTA and SHUFFLE took a third longer on one);
/// any other chunk is told apart in a few bytes.
fn looks_uniform(chunk: &[u8], blocksize: usize) -> bool {
    let Some(&first) = chunk.first() else {
        return false;
    };
    chunk
        .chunks(blocksize.max(1))
        .all(|b| b[..b.len().min(64)].iter().all(|&x| x == first))
}

/// Compresses blocks `first..` one after the other straight into `dst` from `pos`, writing
/// their block starts.
fn compress_serial(
    p: &EncParams,
    lay: &Layout,
    sc: &mut Scratch,
    dst: &mut [u8],
    hlen: usize,
    first: usize,
    mut pos: usize,
) -> Result<Option<usize>> {
    for j in first..lay.nblocks {
        match serial_block(p, lay, sc, dst, hlen, j, pos)? {
            Some(n) => pos += n,
            None => return Ok(None),
        }
    }
    Ok(Some(pos))
}

pub(super) fn serial_block(
    p: &EncParams,
    lay: &Layout,
    sc: &mut Scratch,
    dst: &mut [u8],
    hlen: usize,
    j: usize,
    pos: usize,
) -> Result<Option<usize>> {
    write_i32(dst, hlen + 4 * j, pos as i32);
    encode_block(p, sc, job(lay, j, 0), dst, pos, None)
}
