//! Chunk compression: parameter checks, header, blocks (serial or parallel), fallbacks.

use rayon::prelude::*;

use super::header::{offsets, write_i32, NewHeader};
use super::pipeline::{delta_reference, forward, Filters};
use super::scratch::{ensure, Scratch};
use super::streams::{encode_block, EncParams};
use super::stune::{compute_blocksize, split_block, BlocksizeInput};
use crate::constants::*;
use crate::context::CParams;
use crate::error::{Error, Result};
use crate::threads::Pool;

/// Working state a compression uses (owned by the context, reused across calls).
#[derive(Debug, Default)]
pub(crate) struct CompressState {
    /// Serial working memory.
    pub scratch: Scratch,
    /// Per-block output slots for parallel compression.
    pub slots: Vec<u8>,
    /// Per-block results for parallel compression.
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

fn is_builtin_codec(compcode: u8) -> bool {
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
    Ok(Layout {
        blocksize: bs,
        header_blocksize,
        typesize,
        nblocks: nbytes / bs + usize::from(leftover > 0),
        leftover,
        split,
    })
}

/// Compresses `src` into `dst` (whose length is the destination size); returns the chunk
/// size, 0 when it does not fit, and the blocksize used.
pub(crate) fn compress(
    cp: &CParams,
    blosc1_header: bool,
    st: &mut CompressState,
    pool: Option<&Pool>,
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
    if !memcpyed {
        if !is_builtin_codec(cp.compcode) {
            return Err(Error::CodecSupport);
        }
        Filters {
            ids: cp.filters,
            meta: cp.filters_meta,
            typesize: lay.typesize,
            version: VERSION_FORMAT_STABLE,
        }
        .check_known()?;
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
    let mut cbytes = 0;
    if !memcpyed {
        let filters = Filters {
            ids: cp.filters,
            meta: cp.filters_meta,
            typesize: lay.typesize,
            version: VERSION_FORMAT_STABLE,
        };
        let mut dref = std::mem::take(&mut st.dref);
        let have_dref = lay.nblocks > 1 && first_block_as_left(&filters, &lay, src, st, &mut dref)?;
        let p = EncParams {
            compcode: cp.compcode,
            clevel: cp.clevel,
            split: lay.split,
            runs: extended,
            filters,
            chunk: src,
            dref: if have_dref {
                &dref[..lay.blocksize]
            } else {
                src
            },
        };
        let written = match pool {
            Some(pool) if lay.nblocks > 1 => compress_parallel(&p, &lay, st, pool, dst, hlen),
            _ => compress_serial(&p, &lay, &mut st.scratch, dst, hlen),
        };
        st.dref = dref;
        let written = written?;
        match written {
            None => memcpyed = true,
            Some(n) => {
                cbytes = n;
                let nstreams = if lay.split {
                    (lay.nblocks - usize::from(lay.leftover > 0)) * lay.typesize
                        + usize::from(lay.leftover > 0)
                } else {
                    lay.nblocks
                };
                if extended && n == hlen + 4 * lay.nblocks + 4 * nstreams {
                    dst[offsets::BLOSC2_FLAGS] |= SPECIAL_ZERO << 4;
                    cbytes = hlen;
                }
            }
        }
        if memcpyed {
            dst[offsets::FLAGS] = flags | MEMCPYED;
        }
    }
    if memcpyed {
        if src.len() + hlen > destsize {
            return Ok((0, lay.blocksize));
        }
        dst[hlen..hlen + src.len()].copy_from_slice(src);
        cbytes = src.len() + hlen;
    }
    write_i32(dst, offsets::CBYTES, cbytes as i32);
    Ok((cbytes, lay.blocksize))
}

/// Fills `dref` with the first block after the filters the reference runs in place in the
/// source buffer (see [`delta_reference`]); `false` when the source itself is the reference.
fn first_block_as_left(
    f: &Filters,
    lay: &Layout,
    src: &[u8],
    st: &mut CompressState,
    dref: &mut Vec<u8>,
) -> Result<bool> {
    let Some(stages) = delta_reference(f) else {
        return Ok(false);
    };
    let n = lay.blocksize;
    let block = &src[..n];
    let sc = &mut st.scratch;
    sc.ensure_filters(n);
    ensure(dref, n);
    match forward(f, src, 0, block, &mut sc.a, &mut sc.b, stages)? {
        None => dref[..n].copy_from_slice(block),
        Some(false) => dref[..n].copy_from_slice(&sc.a[..n]),
        Some(true) => dref[..n].copy_from_slice(&sc.b[..n]),
    }
    Ok(true)
}

/// Bytes one block can take at most once compressed (raw streams plus run tokens).
fn block_bound(lay: &Layout) -> usize {
    lay.blocksize + 5 * lay.typesize.max(1)
}

/// Compresses the blocks one after the other straight into `dst`, writing their block
/// starts; returns the chunk length or `None` when it does not fit.
fn compress_serial(
    p: &EncParams,
    lay: &Layout,
    sc: &mut Scratch,
    dst: &mut [u8],
    hlen: usize,
) -> Result<Option<usize>> {
    let mut pos = hlen + 4 * lay.nblocks;
    for j in 0..lay.nblocks {
        match serial_block(p, lay, sc, dst, hlen, j, pos)? {
            Some(n) => pos += n,
            None => return Ok(None),
        }
    }
    Ok(Some(pos))
}

fn serial_block(
    p: &EncParams,
    lay: &Layout,
    sc: &mut Scratch,
    dst: &mut [u8],
    hlen: usize,
    j: usize,
    pos: usize,
) -> Result<Option<usize>> {
    write_i32(dst, hlen + 4 * j, pos as i32);
    let last = lay.leftover > 0 && j == lay.nblocks - 1;
    let bsize = if last { lay.leftover } else { lay.blocksize };
    encode_block(p, sc, j * lay.blocksize, bsize, last, dst, pos)
}

/// Compresses every block into its own slot on the pool, then lays them out in order with
/// the same outcome as the serial path (a block whose limits could differ is redone
/// serially in place).
fn compress_parallel(
    p: &EncParams,
    lay: &Layout,
    st: &mut CompressState,
    pool: &Pool,
    dst: &mut [u8],
    hlen: usize,
) -> Result<Option<usize>> {
    let slot = block_bound(lay);
    ensure(&mut st.slots, slot * lay.nblocks);
    st.results.clear();
    st.results.resize(lay.nblocks, None);
    let slots = &mut st.slots[..slot * lay.nblocks];
    let results = &mut st.results;
    pool.install(|| {
        slots
            .par_chunks_mut(slot)
            .zip(results.par_iter_mut())
            .enumerate()
            .try_for_each(|(j, (out, res))| -> Result<()> {
                let last = lay.leftover > 0 && j == lay.nblocks - 1;
                let bsize = if last { lay.leftover } else { lay.blocksize };
                let mut sc = pool.scratch();
                *res = encode_block(p, &mut sc, j * lay.blocksize, bsize, last, out, 0)?;
                Ok(())
            })
    })?;
    let destsize = dst.len();
    let mut pos = hlen + 4 * lay.nblocks;
    for j in 0..lay.nblocks {
        let n = match st.results[j] {
            Some(n) if pos + slot <= destsize => {
                write_i32(dst, hlen + 4 * j, pos as i32);
                dst[pos..pos + n].copy_from_slice(&st.slots[j * slot..j * slot + n]);
                Some(n)
            }
            _ => serial_block(p, lay, &mut st.scratch, dst, hlen, j, pos)?,
        };
        match n {
            Some(n) => pos += n,
            None => return Ok(None),
        }
    }
    Ok(Some(pos))
}
