//! Partial decoding: a range of items, decoding only the blocks that hold them.

use super::decompress::{prepare, DecompressEnv, Prepared};
use super::header::Header;
use super::hooks::Output;
use super::scratch::{ensure, Buf, Scratch};
use super::special;
use crate::constants::*;
use crate::error::{Error, Result};

/// Copies items `start..start + nitems` (in units of the stored typesize) of the chunk `src`
/// into `dst`; returns the number of bytes written.
pub(crate) fn getitem(
    sc: &mut Scratch,
    env: DecompressEnv,
    src: &[u8],
    start: i32,
    nitems: i32,
    dst: &mut [u8],
) -> Result<usize> {
    let h = Header::parse_fields(src)?;
    if h.is_vl() {
        return Err(Error::InvalidParam);
    }
    h.check_source(src.len())?;
    if nitems == 0 {
        return Ok(0);
    }
    let ts = i64::from(h.typesize);
    let (start, nitems) = (i64::from(start), i64::from(nitems));
    if nitems * ts > dst.len() as i64 {
        return Err(Error::WriteBuffer);
    }
    let stop = start + nitems;
    let nbytes = i64::from(h.nbytes);
    if nitems < 0 || start < 0 || start * ts > nbytes || stop * ts > nbytes {
        return Err(Error::InvalidParam);
    }
    let (begin, end) = ((start * ts) as usize, (stop * ts) as usize);
    let out = &mut dst[..end - begin];
    let hlen = h.header_len();
    let special = h.special();
    let post = env.postfilter.is_some();
    if special > SPECIAL_UNINIT {
        return Err(Error::SchunkSpecial);
    }
    if special != NO_SPECIAL && !post {
        // Served from the header alone (no consistency checks of the rest, as the reference).
        let width = (h.cbytes.max(0) as usize).saturating_sub(hlen);
        let value = if special == SPECIAL_VALUE {
            src.get(hlen..hlen + width).ok_or(Error::ReadBuffer)?
        } else {
            &[]
        };
        special::fill(special, usize::from(h.typesize), value, begin, out)?;
        return Ok(out.len());
    }
    // The items of a lazy chunk lie in its frame, even when it is memcpyed.
    if h.is_memcpyed() && h.is_lazy() {
        return Err(Error::InvalidParam);
    }
    if h.is_memcpyed() && !post {
        let stored = src.get(hlen + begin..hlen + end).ok_or(Error::ReadBuffer)?;
        out.copy_from_slice(stored);
        return Ok(out.len());
    }
    let (nblocks, _) = h.nblocks();
    let flat = h.is_memcpyed() || special != NO_SPECIAL;
    if !flat && src.len() < hlen + 4 * nblocks {
        return Err(Error::ReadBuffer);
    }
    let Some(c) = prepare(h, src, env)? else {
        return Err(Error::InvalidParam);
    };
    copy_range(&c, sc, begin, end, out)?;
    Ok(end - begin)
}

/// Decodes the bytes `begin..end` of the chunk into `out`.
fn copy_range(
    c: &Prepared,
    sc: &mut Scratch,
    begin: usize,
    end: usize,
    out: &mut [u8],
) -> Result<()> {
    let bs = c.blocksize;
    let p = c.params();
    let needs_ref = p.filters.has_delta() && end > bs;
    let mut dref = std::mem::take(&mut sc.block);
    if needs_ref {
        let n = c.block_len(0);
        ensure(&mut dref, n);
        let res = c.decode_raw(&p, sc, 0, &mut dref[..n], &[]);
        if let Err(e) = res {
            sc.block = dref;
            return Err(e);
        }
    }
    let mut part = std::mem::take(&mut sc.part);
    let res = copy_blocks(c, sc, &dref, &mut part, begin, end, out);
    sc.block = dref;
    sc.part = part;
    res
}

/// Decodes the blocks holding `begin..end` into `out`, through `part` for partial blocks.
fn copy_blocks(
    c: &Prepared,
    sc: &mut Scratch,
    dref: &[u8],
    part: &mut Buf,
    begin: usize,
    end: usize,
    out: &mut [u8],
) -> Result<()> {
    let bs = c.blocksize;
    let p = c.params();
    for j in begin / bs..=(end - 1) / bs {
        let blen = c.block_len(j);
        let boff = j * bs;
        let (from, to) = (begin.max(boff) - boff, end.min(boff + blen) - boff);
        let dst_at = boff + from - begin;
        let dref_j: &[u8] = if j == 0 {
            &[]
        } else {
            &dref[..dref.len().min(bs)]
        };
        if c.env.postfilter.is_some() {
            // The reference decodes into the third area of its scratch buffer and has the
            // postfilter write the second one.
            let q = c.ttmp_area();
            let at = if c.is_flat() { 0 } else { 2 * q };
            c.decode_filtered(&p, sc, j, dref_j, 0, at, Output::Scratch(q))?;
            out[dst_at..dst_at + to - from].copy_from_slice(&sc.ttmp[q + from..q + to]);
        } else if from == 0 && to == blen {
            c.decode_raw(&p, sc, j, &mut out[dst_at..dst_at + blen], dref_j)?;
        } else {
            ensure(part, blen);
            c.decode_raw(&p, sc, j, &mut part[..blen], dref_j)?;
            out[dst_at..dst_at + to - from].copy_from_slice(&part[from..to]);
        }
    }
    Ok(())
}
