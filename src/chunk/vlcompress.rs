//! Compression of chunks with variable-length blocks (format version 6): every caller
//! buffer is one block, stored as one stream whose size field holds the block's
//! uncompressed size (its compressed size follows from the block starts).

use std::sync::{Mutex, PoisonError};

use super::compress::{compformat, filters_known, is_builtin_codec, CompressEnv, CompressState};
use super::dict::{self, ChunkDict};
use super::header::{offsets, write_i32, NewHeader};
use super::hooks::Output;
use super::pipeline::{self, resolve, Filters};
use super::scratch::{ensure, Scratch};
use super::streams::{codec_compress, run_prefilter, EncParams};
use crate::constants::*;
use crate::context::CParams;
use crate::error::{Error, Result};
use crate::registry::plugins::{self, CompressCall};
use crate::threads::{FirstError, Pool};

/// Checks what the reference checks before compressing VL blocks.
fn check(cp: &CParams, blocks: &[&[u8]], destsize: usize) -> Result<usize> {
    if blocks.is_empty() || blocks.iter().any(|b| b.is_empty()) {
        return Err(Error::InvalidParam);
    }
    let total: u64 = blocks.iter().map(|b| b.len() as u64).sum();
    if total > MAX_BUFFERSIZE as u64 || destsize < MAX_OVERHEAD {
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
    Ok(total as usize)
}

/// Encodes one block as a VL stream at `pos` of `dest` (whose length is the destination
/// size): its size, then the codec's output or the filtered block itself. `None` when it
/// does not fit.
fn encode(
    p: &EncParams,
    sc: &mut Scratch,
    block: &[u8],
    tid: usize,
    dest: &mut [u8],
    pos: usize,
) -> Result<Option<usize>> {
    let n = block.len();
    let destsize = dest.len();
    if pos + 4 > destsize {
        return Ok(None);
    }
    write_i32(dest, pos, n as i32);
    let at = pos + 4;
    let Scratch {
        a, b, ttmp, codecs, ..
    } = sc;
    // The reference tells the prefilter block 0 at offset 0 for every VL block.
    let block: &[u8] = match p.prefilter {
        Some(pf) => {
            run_prefilter(p, pf, ttmp, block, 0, tid, Output::Scratch(0))?;
            &ttmp[..n]
        }
        None => block,
    };
    let filtered: &[u8] = if p.filters.any_forward() {
        ensure(a, n);
        ensure(b, n);
        // Every block is its own DELTA reference, so each one decodes on its own.
        match pipeline::forward(&p.filters, &p.call, block, 0, block, a, b, None)? {
            None => block,
            Some(false) => &a[..n],
            Some(true) => &b[..n],
        }
    } else {
        block
    };
    let mut cbytes = 0;
    if p.clevel > 0 && at < destsize {
        let maxout = n.min(destsize - at);
        cbytes = codec_compress(p, codecs, filtered, &mut dest[at..at + maxout])?;
        if cbytes > maxout {
            return Err(Error::WriteBuffer);
        }
    }
    if cbytes == 0 || cbytes == n {
        if at + n > destsize {
            return Ok(None);
        }
        dest[at..at + n].copy_from_slice(filtered);
        cbytes = n;
    }
    Ok(Some(4 + cbytes))
}

/// Compresses `blocks` into a VL-block chunk in `dst` (whose length is the destination
/// size); returns its size, or 0 when it does not fit (there is no uncompressed fallback).
pub(crate) fn compress(
    cp: &CParams,
    st: &mut CompressState,
    pool: Option<&Pool>,
    env: &CompressEnv,
    blocks: &[&[u8]],
    dst: &mut [u8],
) -> Result<usize> {
    let total = check(cp, blocks, dst.len())?;
    let codec = if is_builtin_codec(cp.compcode) {
        None
    } else {
        plugins::codec(cp.compcode)
    };
    if !is_builtin_codec(cp.compcode) && codec.as_ref().and_then(|c| c.encoder.as_ref()).is_none() {
        return Err(Error::CodecSupport);
    }
    let plugins = resolve(&cp.filters);
    if !filters_known(&cp.filters, &plugins) {
        return Err(Error::FilterPipeline);
    }
    let nblocks = blocks.len();
    let hlen = EXTENDED_HEADER_LENGTH;
    if hlen + 4 * nblocks > dst.len() {
        return Ok(0);
    }
    let typesize = if cp.typesize > i32::from(u8::MAX) {
        1
    } else {
        cp.typesize as usize
    };
    let delta = if cp.filters.contains(&DELTA) {
        DODELTA
    } else {
        0
    };
    NewHeader {
        flags: DOSHUFFLE | DOBITSHUFFLE | DONT_SPLIT | delta | compformat(cp.compcode) << 5,
        versionlz: codec.as_ref().map_or(1, |c| c.version),
        typesize: typesize as u8,
        nbytes: total as i32,
        blocksize: nblocks as i32,
        filters: cp.filters,
        compcode: cp.compcode,
        compcode_meta: cp.compcode_meta,
        filters_meta: cp.filters_meta,
        blosc2_flags: 0,
    }
    .write(dst, true);
    dst[offsets::VERSION] = VERSION_FORMAT_VL_BLOCKS;
    dst[offsets::BLOSC2_FLAGS2] = VL_BLOCKS;
    let maxblock = blocks.iter().map(|b| b.len()).max().unwrap_or(0);
    let call_cp = CParams {
        blocksize: maxblock as i32,
        typesize: typesize as i32,
        ..*cp
    };
    let p = EncParams {
        compcode: cp.compcode,
        compcode_meta: cp.compcode_meta,
        clevel: cp.clevel,
        split: false,
        runs: false,
        filters: Filters {
            ids: cp.filters,
            meta: cp.filters_meta,
            typesize,
            version: VERSION_FORMAT_VL_BLOCKS,
            plugins: &plugins,
        },
        chunk: &[],
        dref: &[],
        blocksize: maxblock,
        codec: codec.as_deref(),
        call: CompressCall {
            cparams: &call_cp,
            src: blocks[0],
            schunk_typesize: env.schunk_typesize,
            schunk_meta: env.schunk_meta,
            host: env.host,
        },
        prefilter: env.prefilter,
        nchunk: env.nchunk,
        dict: None,
    };
    let mut start = hlen + 4 * nblocks;
    let built = if cp.use_dict && cp.clevel > 0 {
        if dst.len() < total + hlen {
            return Err(Error::WriteBuffer);
        }
        dictionary(&p, &mut st.scratch, blocks, total)?
    } else {
        None
    };
    if let Some(d) = &built {
        let end = start + 4 + d.bytes.len();
        if end > dst.len() {
            return Ok(0);
        }
        write_i32(dst, start, d.bytes.len() as i32);
        dst[start + 4..end].copy_from_slice(&d.bytes);
        dst[offsets::BLOSC2_FLAGS] |= USEDICT;
        start = end;
    }
    let p = EncParams {
        dict: built.as_ref().map(|d| &d.enc),
        ..p
    };
    let written = match pool {
        Some(pool) if nblocks > 1 => parallel(&p, st, pool, blocks, dst, start)?,
        _ => serial(&p, &mut st.scratch, blocks, dst, 0, start)?,
    };
    let Some(cbytes) = written else {
        return Ok(0);
    };
    write_i32(dst, offsets::CBYTES, cbytes as i32);
    Ok(cbytes)
}

/// The dictionary of a VL-block chunk: like a regular chunk's, with the filtered blocks as
/// zstd samples, and only for chunks of at least 8 blocks (as the reference).
fn dictionary(
    p: &EncParams,
    sc: &mut Scratch,
    blocks: &[&[u8]],
    total: usize,
) -> Result<Option<ChunkDict>> {
    if blocks.len() < 8 {
        return Ok(None);
    }
    let mut samples = Vec::with_capacity(total);
    for block in blocks {
        let n = block.len();
        sc.ensure_filters(n);
        let Scratch { a, b, .. } = sc;
        match pipeline::forward(&p.filters, &p.call, block, 0, block, a, b, None)? {
            None => samples.extend_from_slice(block),
            Some(false) => samples.extend_from_slice(&a[..n]),
            Some(true) => samples.extend_from_slice(&b[..n]),
        }
    }
    let sizes: Vec<usize> = blocks.iter().map(|b| b.len()).collect();
    Ok(dict::build(
        p.compcode,
        &samples,
        &sizes,
        blocks.len(),
        total,
    ))
}

/// Encodes blocks `first..` one after the other from `pos`; the chunk length or `None`.
fn serial(
    p: &EncParams,
    sc: &mut Scratch,
    blocks: &[&[u8]],
    dst: &mut [u8],
    first: usize,
    mut pos: usize,
) -> Result<Option<usize>> {
    for (j, block) in blocks.iter().enumerate().skip(first) {
        write_i32(dst, EXTENDED_HEADER_LENGTH + 4 * j, pos as i32);
        match encode(p, sc, block, 0, dst, pos)? {
            Some(n) => pos += n,
            None => return Ok(None),
        }
    }
    Ok(Some(pos))
}

/// Encodes every block into a slot of its own on the pool, then lays them out in order
/// with the same outcome as [`serial`]: from the first block whose codec could have seen a
/// smaller output limit, the rest is encoded serially in place.
fn parallel(
    p: &EncParams,
    st: &mut CompressState,
    pool: &Pool,
    blocks: &[&[u8]],
    dst: &mut [u8],
    mut pos: usize,
) -> Result<Option<usize>> {
    let bounds: Vec<usize> = blocks.iter().map(|b| b.len() + 4).collect();
    let offsets: Vec<usize> = bounds
        .iter()
        .scan(0, |acc, &b| {
            *acc += b;
            Some(*acc - b)
        })
        .collect();
    let room: usize = bounds.iter().sum();
    ensure(&mut st.slots, room);
    st.results.clear();
    st.results.resize(blocks.len(), None);
    {
        let mut rest: &mut [u8] = &mut st.slots[..room];
        let mut slots = Vec::with_capacity(blocks.len());
        for &b in &bounds {
            let (head, tail) = rest.split_at_mut(b);
            slots.push(head);
            rest = tail;
        }
        let cells: Vec<Mutex<(&mut [u8], &mut Option<usize>)>> = slots
            .into_iter()
            .zip(st.results.iter_mut())
            .map(Mutex::new)
            .collect();
        let errors = FirstError::new();
        pool.for_each_block(blocks.len(), &|j, tid, sc| {
            let mut cell = cells[j].lock().unwrap_or_else(PoisonError::into_inner);
            let (out, res) = &mut *cell;
            match encode(p, sc, blocks[j], tid, out, 0) {
                Ok(r) => **res = r,
                Err(e) => errors.record(j, e),
            }
        })?;
        errors.into_result()?;
    }
    let hlen = EXTENDED_HEADER_LENGTH;
    for (j, &bound) in bounds.iter().enumerate() {
        match st.results[j] {
            Some(len) if pos + bound <= dst.len() => {
                write_i32(dst, hlen + 4 * j, pos as i32);
                dst[pos..pos + len].copy_from_slice(&st.slots[offsets[j]..offsets[j] + len]);
                pos += len;
            }
            _ => return serial(p, &mut st.scratch, blocks, dst, j, pos),
        }
    }
    Ok(Some(pos))
}
