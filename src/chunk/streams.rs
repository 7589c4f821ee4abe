//! One block at a time: filters, split into streams, codec calls, runs and raw streams.

use super::dict::EncDict;
use super::header::{read_i32, write_i32};
use super::hooks::{ttmp_len, Output, Prefilter, PrefilterArgs};
use super::pipeline::{self, Capture, Filters};
use super::scratch::{ensure, Buf, Codecs, Scratch};
use super::special;
use crate::codecs::{blosclz, lz4, zlib, zstd};
use crate::constants::*;
use crate::error::{Error, Result};
use crate::filters::uniform::{is_run, repeats};
use crate::filters::{delta, shuffle};
use crate::registry::plugins::{Codec, CompressCall, DecompressCall};

/// What block compression needs to know about the chunk being written.
#[derive(Clone, Copy)]
pub(crate) struct EncParams<'a> {
    /// Codec code.
    pub compcode: u8,
    /// Codec metadata (handed to registered codecs).
    pub compcode_meta: u8,
    /// Compression level (1..=9).
    pub clevel: u8,
    /// Whether full blocks are split into `typesize` streams.
    pub split: bool,
    /// Whether runs are encoded (extended header only).
    pub runs: bool,
    /// Filter pipeline (its typesize is the stored one).
    pub filters: Filters<'a>,
    /// The whole uncompressed chunk.
    pub chunk: &'a [u8],
    /// What DELTA XORs blocks after the first with (the chunk's first block as the
    /// reference's pipeline leaves it).
    pub dref: &'a [u8],
    /// Blocksize of the chunk.
    pub blocksize: usize,
    /// The registered codec, for codes that are not built in.
    pub codec: Option<&'a Codec>,
    /// What callbacks learn about the compression.
    pub call: CompressCall<'a>,
    /// The context's prefilter.
    pub prefilter: Option<&'a Prefilter>,
    /// Chunk number handed to the prefilter.
    pub nchunk: i64,
    /// The chunk's dictionary.
    pub dict: Option<&'a EncDict>,
}

/// Maps a Blosc clevel to the zstd level the reference uses.
fn zstd_level(clevel: u8) -> i32 {
    if clevel < 9 {
        i32::from(clevel) * 2 - 1
    } else {
        zstd::max_level()
    }
}

pub(crate) fn codec_compress(
    p: &EncParams,
    codecs: &mut Codecs,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    let clevel = i32::from(p.clevel);
    Ok(match (p.compcode, p.dict) {
        (LZ4, Some(EncDict::Lz4(d))) => {
            codecs
                .lz4_state()?
                .compress_with_dict(d, src, dst, 10 - clevel)
        }
        (LZ4HC, Some(EncDict::Lz4(d))) => codecs
            .lz4hc_state()?
            .compress_with_dict(d, src, dst, clevel),
        (ZSTD, Some(EncDict::Zstd(d))) => codecs.zstd_cctx()?.compress_with_dict(src, dst, d),
        (BLOSCLZ, _) => blosclz::compress(clevel, src, dst),
        (LZ4, _) => codecs.lz4_state()?.compress(src, dst, 10 - clevel),
        (LZ4HC, _) => codecs.lz4hc_state()?.compress(src, dst, clevel),
        (ZLIB, _) => zlib::compress(src, dst, clevel),
        (ZSTD, _) => codecs.zstd_cctx()?.compress(src, dst, zstd_level(p.clevel)),
        _ => {
            let encoder = p.codec.and_then(|c| c.encoder.as_ref());
            let n = encoder.ok_or(Error::CodecSupport)?(&p.call, p.compcode_meta, src, dst);
            usize::try_from(n).map_err(|_| Error::Data)?
        }
    })
}

/// Runs the prefilter on block `nblock` (`input`), writing to `output` (a place in the
/// thread's `ttmp`, grown to its full size here, or a buffer).
pub(crate) fn run_prefilter(
    p: &EncParams,
    pf: &Prefilter,
    ttmp: &mut Buf,
    input: &[u8],
    nblock: usize,
    tid: usize,
    output: Output,
) -> Result<()> {
    ensure(ttmp, ttmp_len(p.blocksize, p.filters.typesize));
    let mut args = PrefilterArgs {
        input,
        ttmp,
        output,
        size: input.len(),
        typesize: p.filters.typesize as i32,
        offset: nblock * p.blocksize,
        nblock,
        tid,
        nchunk: p.nchunk,
    };
    // A disposable output is only inspected: the reference ignores the prefilter's verdict.
    if (pf.run)(&mut args) == 0 || pf.disposable {
        Ok(())
    } else {
        Err(Error::FilterPipeline)
    }
}

/// Which block a job compresses, and on which thread.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BlockJob {
    /// Block number.
    pub nblock: usize,
    /// Size of the block.
    pub bsize: usize,
    /// Whether it is the last, partial block.
    pub leftover: bool,
    /// Thread id.
    pub tid: usize,
}

/// Compresses block `job.nblock` into `dest` starting at `pos`, treating `dest.len()` as
/// the destination size exactly like the reference's `blosc_c`. `capture` receives the
/// block after the given number of filters. Returns the bytes written, or `None` when they
/// do not fit.
pub(crate) fn encode_block(
    p: &EncParams,
    sc: &mut Scratch,
    job: BlockJob,
    dest: &mut [u8],
    mut pos: usize,
    capture: Option<Capture>,
) -> Result<Option<usize>> {
    let start = pos;
    let bsize = job.bsize;
    let offset = job.nblock * p.blocksize;
    let block = &p.chunk[offset..offset + bsize];
    let Scratch {
        a, b, ttmp, codecs, ..
    } = sc;
    let input: &[u8] = match p.prefilter {
        Some(pf) => {
            run_prefilter(p, pf, ttmp, block, job.nblock, job.tid, Output::Scratch(0))?;
            &ttmp[..bsize]
        }
        None => block,
    };
    let nstreams = if p.split && !job.leftover {
        p.filters.typesize
    } else {
        1
    };
    let ts = p.filters.typesize;
    // (DELTA +) SHUFFLE of a block that is one element repeated gives one run per stream:
    // then the shuffle and the scans for runs are skipped.
    let plain = (p.runs && p.prefilter.is_none() && capture.is_none())
        .then(|| p.filters.delta_shuffle())
        .flatten()
        .filter(|_| nstreams == ts && ts > 1 && bsize > 0 && bsize.is_multiple_of(ts));
    let filtered: &[u8] = if let Some(has_delta) = plain {
        // The shuffled block goes to `a` as decompression's does, so that both warm the
        // same pages.
        ensure(a, bsize);
        let (pre, into): (&[u8], &mut [u8]) = if has_delta {
            ensure(b, bsize);
            let key = if offset == 0 { input } else { p.dref };
            delta::encode(key, offset, ts, input, &mut b[..bsize]);
            (&b[..bsize], &mut a[..bsize])
        } else {
            (input, &mut a[..bsize])
        };
        if let Some(element) = repeated_element(pre, ts) {
            return Ok(write_runs(element, dest, pos).map(|end| end - start));
        }
        shuffle::shuffle(ts, pre, into);
        &a[..bsize]
    } else if p.filters.any_forward() {
        ensure(a, bsize);
        ensure(b, bsize);
        match pipeline::forward(&p.filters, &p.call, p.dref, offset, input, a, b, capture)? {
            None => input,
            Some(false) => &a[..bsize],
            Some(true) => &b[..bsize],
        }
    } else {
        input
    };
    let disposable = p.prefilter.is_some_and(|pf| pf.disposable);
    let destsize = dest.len();
    let neblock = bsize / nstreams;
    for j in 0..nstreams {
        pos += 4;
        let stream = &filtered[j * neblock..(j + 1) * neblock];
        if disposable || (p.runs && is_run(stream)) {
            if pos > destsize {
                return Ok(None);
            }
            let value = if disposable {
                0
            } else {
                stream.first().copied().unwrap_or(0)
            };
            write_i32(dest, pos - 4, -i32::from(value));
            if value > 0 {
                pos += 1;
                if pos > destsize {
                    return Ok(None);
                }
                dest[pos - 1] = 0x01;
            }
            continue;
        }
        if pos >= destsize {
            return Ok(None);
        }
        let maxout = neblock.min(destsize - pos);
        let mut cbytes = codec_compress(p, codecs, stream, &mut dest[pos..pos + maxout])?;
        if cbytes > maxout {
            return Err(Error::WriteBuffer);
        }
        if cbytes == 0 || cbytes == neblock {
            if pos + neblock > destsize {
                return Ok(None);
            }
            dest[pos..pos + neblock].copy_from_slice(stream);
            cbytes = neblock;
        }
        write_i32(dest, pos - 4, cbytes as i32);
        pos += cbytes;
    }
    Ok(Some(pos - start))
}

/// A chunk dictionary ready for decoding.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Dict<'a> {
    /// Digested zstd dictionary.
    Zstd(&'a zstd::DDict),
    /// Raw LZ4 history.
    Lz4(&'a [u8]),
}

/// What block decompression needs to know about the chunk being read.
#[derive(Clone, Copy)]
pub(crate) struct DecParams<'a> {
    /// Codec format (flags bits 5-7).
    pub compformat: u8,
    /// Codec metadata (handed to registered codecs).
    pub compcode_meta: u8,
    /// Whether blocks are stored as one stream.
    pub dont_split: bool,
    /// Filter pipeline.
    pub filters: Filters<'a>,
    /// Dictionary, if the chunk has one.
    pub dict: Option<Dict<'a>>,
    /// The registered codec of a user-codec chunk.
    pub codec: Option<&'a Codec>,
    /// What callbacks learn about the decompression.
    pub call: DecompressCall<'a>,
}

/// Decodes one codec stream `src` into `dst` with the chunk's codec and dictionary.
pub(crate) fn decompress_stream(
    p: &DecParams,
    codecs: &mut Codecs,
    src: &[u8],
    dst: &mut [u8],
) -> Result<Option<usize>> {
    Ok(match (p.compformat, p.dict) {
        (BLOSCLZ_FORMAT, _) => blosclz::decompress(src, dst),
        (LZ4_FORMAT, Some(Dict::Lz4(d))) => lz4::decompress_with_dict(src, dst, d),
        (LZ4_FORMAT, _) => lz4::decompress(src, dst),
        (ZLIB_FORMAT, _) => zlib::decompress(src, dst),
        (ZSTD_FORMAT, Some(Dict::Zstd(d))) => codecs.zstd_dctx()?.decompress(src, dst, Some(d)),
        (ZSTD_FORMAT, _) => codecs.zstd_dctx()?.decompress(src, dst, None),
        (UDCODEC_FORMAT, _) => {
            let decoder = p.codec.and_then(|c| c.decoder.as_ref());
            let n = decoder.ok_or(Error::CodecSupport)?(&p.call, p.compcode_meta, src, dst);
            usize::try_from(n).ok()
        }
        _ => return Err(Error::CodecSupport),
    })
}

/// Decodes the streams of one block found at `src_offset` of the chunk `src` into `out`
/// (`bsize` bytes), then undoes the filters. `dref` is the decoded first block of the chunk
/// (for DELTA) and `offset` the block's position in the decoded chunk. Returns the bytes the
/// streams produced: less than `out.len()` when the streams do not cover the block (chunks
/// made with a forced blocksize that is not a multiple of the typesize), whose tail is then
/// zeroed like the reference leaves it undefined.
#[allow(clippy::too_many_arguments)]
pub(crate) fn decode_block(
    p: &DecParams,
    sc: &mut Scratch,
    src: &[u8],
    src_offset: i64,
    leftover: bool,
    out: &mut [u8],
    dref: &[u8],
    offset: usize,
) -> Result<usize> {
    if src_offset <= 0 || src_offset >= src.len() as i64 {
        return Err(Error::Data);
    }
    let bsize = out.len();
    let mut ip = src_offset as usize;
    let buffered = p.filters.needs_backward_buffer();
    if buffered {
        ensure(&mut sc.a, bsize);
        if p.filters.needs_second_backward_buffer() {
            ensure(&mut sc.b, bsize);
        }
    }
    let typesize = p.filters.typesize;
    let nstreams = if !p.dont_split && !leftover {
        typesize
    } else {
        1
    };
    let neblock = bsize / nstreams;
    if neblock == 0 {
        return Err(Error::Failure);
    }
    if buffered && (nstreams == 1 || bsize == nstreams * neblock) && p.filters.is_plain_shuffle() {
        let mut element = [0u8; 256];
        if run_element(src, ip, nstreams, &mut element) {
            // Unshuffling planes that each hold one value gives that element repeated.
            let element = &element[..nstreams];
            let whole_words = bsize.is_multiple_of(typesize.max(1));
            if p.filters.has_delta()
                && offset > 0
                && whole_words
                && 64 % nstreams == 0
                && dref.len() >= bsize
            {
                xor_repeated(element, &dref[..bsize], out);
            } else {
                special::fill(SPECIAL_VALUE, 0, element, 0, out)?;
                if p.filters.has_delta() {
                    delta::decode(dref, offset, typesize, out);
                }
            }
            return Ok(bsize);
        }
    }
    {
        let target: &mut [u8] = if buffered {
            &mut sc.a[..bsize]
        } else {
            &mut *out
        };
        for j in 0..nstreams {
            let dst = &mut target[j * neblock..(j + 1) * neblock];
            if src.len() - ip < 4 {
                return Err(Error::ReadBuffer);
            }
            let cbytes = read_i32(src, ip);
            ip += 4;
            if cbytes > 0 && src.len() - ip < cbytes as usize {
                return Err(Error::ReadBuffer);
            }
            if cbytes == 0 {
                dst.fill(0);
            } else if cbytes < 0 {
                if src.len() - ip < 1 {
                    return Err(Error::ReadBuffer);
                }
                let token = src[ip];
                ip += 1;
                if token & 0x01 == 0 || cbytes < -255 {
                    return Err(Error::RunLength);
                }
                dst.fill((-cbytes) as u8);
            } else {
                let cb = cbytes as usize;
                let stream = &src[ip..ip + cb];
                if cb == neblock {
                    dst.copy_from_slice(stream);
                } else if decompress_stream(p, &mut sc.codecs, stream, dst)? != Some(neblock) {
                    return Err(Error::Data);
                }
                ip += cb;
            }
        }
        target[nstreams * neblock..].fill(0);
    }
    if buffered || p.filters.has_delta() {
        let Scratch { a, b, .. } = sc;
        pipeline::backward(&p.filters, &p.call, a, b, out, dref, offset)?;
    }
    Ok(nstreams * neblock)
}

/// The first `typesize` bytes of `data` if `data` is them repeated (whole elements only).
fn repeated_element(data: &[u8], typesize: usize) -> Option<&[u8]> {
    if typesize == 0 || data.len() < typesize || !data.len().is_multiple_of(typesize) {
        return None;
    }
    let element = &data[..typesize];
    if 64 % typesize != 0 {
        return data
            .chunks_exact(typesize)
            .all(|e| e == element)
            .then_some(element);
    }
    let pattern: [u8; 64] = std::array::from_fn(|i| element[i % typesize]);
    repeats(data, &pattern).then_some(element)
}

/// Writes one run stream per byte of `element` (its value) at `pos`, as the run branch of
/// [`encode_block`] does; returns the position after them, `None` when they do not fit.
fn write_runs(element: &[u8], dest: &mut [u8], mut pos: usize) -> Option<usize> {
    for &value in element {
        pos += 4;
        if pos > dest.len() {
            return None;
        }
        write_i32(dest, pos - 4, -i32::from(value));
        if value > 0 {
            pos += 1;
            if pos > dest.len() {
                return None;
            }
            dest[pos - 1] = 0x01;
        }
    }
    Some(pos)
}

/// Writes `out[i] = element[i % element.len()] ^ key[i]` (`element.len()` divides 64 and
/// `key` is as long as `out`): a block of one repeated element after DELTA, in one pass.
fn xor_repeated(element: &[u8], key: &[u8], out: &mut [u8]) {
    let pattern: [u8; 64] = std::array::from_fn(|i| element[i % element.len()]);
    let mut outs = out.chunks_exact_mut(64);
    let mut keys = key.chunks_exact(64);
    for (o, k) in outs.by_ref().zip(keys.by_ref()) {
        for ((o, k), p) in o.iter_mut().zip(k).zip(&pattern) {
            *o = k ^ p;
        }
    }
    for ((o, k), p) in outs
        .into_remainder()
        .iter_mut()
        .zip(keys.remainder())
        .zip(&pattern)
    {
        *o = k ^ p;
    }
}

/// Reads the `nstreams` stream headers at `ip` into `element` (byte `j` the value of stream
/// `j`) if every stream is a well-formed run; `false` otherwise (the caller then decodes the
/// streams one by one, meeting any error there).
fn run_element(src: &[u8], mut ip: usize, nstreams: usize, element: &mut [u8; 256]) -> bool {
    if nstreams > element.len() {
        return false;
    }
    for value in &mut element[..nstreams] {
        let Some(head) = src.get(ip..ip + 4) else {
            return false;
        };
        let cbytes = read_i32(head, 0);
        ip += 4;
        *value = match cbytes {
            0 => 0,
            -255..=-1 => match src.get(ip) {
                Some(token) if token & 0x01 != 0 => {
                    ip += 1;
                    (-cbytes) as u8
                }
                _ => return false,
            },
            _ => return false,
        };
    }
    true
}
