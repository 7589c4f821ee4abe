//! Item ranges across chunks (get/set slices, sparse gathers), special fills and the index
//! conversions of N-dimensional layouts.

use super::chunks::nbytes_of;
use super::{Store, SuperChunk};
use crate::chunk::Header;
use crate::constants::MAX_OVERHEAD;
use crate::error::{Error, Result};
use crate::frame::offsets;
use crate::special::{special_chunk, Special};

/// Refuses a chunk claiming more bytes than a fixed `chunksize` (`Failure`, as the
/// reference, which decodes into a buffer of the chunk size), before anything of the
/// claimed size is allocated.
fn check_chunk_nbytes(chunksize: i32, nb: usize) -> Result<()> {
    match usize::try_from(chunksize) {
        Ok(cs) if cs > 0 && nb > cs => Err(Error::Failure),
        _ => Ok(()),
    }
}

/// The flat index of `index` in a layout with `strides`.
pub fn multidim_to_unidim(index: &[i64], strides: &[i64]) -> i64 {
    index
        .iter()
        .zip(strides)
        .fold(0i64, |acc, (&i, &s)| acc.wrapping_add(i.wrapping_mul(s)))
}

/// The C-order multidimensional index of flat position `i` in an array of `shape`.
pub fn unidim_to_multidim(shape: &[i64], i: i64) -> Vec<i64> {
    let n = shape.len();
    let mut strides = vec![1i64; n];
    for j in (0..n.saturating_sub(1)).rev() {
        strides[j] = strides[j + 1].wrapping_mul(shape[j + 1]);
    }
    let mut index = vec![0i64; n];
    for j in 0..n {
        let outer = if j == 0 {
            i
        } else if strides[j - 1] != 0 {
            i % strides[j - 1]
        } else {
            0
        };
        index[j] = if strides[j] != 0 {
            outer / strides[j]
        } else {
            0
        };
    }
    index
}

impl SuperChunk {
    /// Byte ranges `(chunk, start_in_chunk, len)` covering bytes `lo..hi`.
    fn pieces(&mut self, lo: i64, hi: i64) -> Result<Vec<(i64, usize, usize)>> {
        if self.chunksize > 0 {
            return self.fixed_pieces(lo, hi);
        }
        let mut out = Vec::new();
        let mut pos = 0i64;
        for n in 0..self.nchunks() {
            if pos >= hi {
                break;
            }
            let len = nbytes_of(&self.stored(n)?)? as i64;
            let (a, b) = (lo.max(pos), hi.min(pos + len));
            if a < b {
                out.push((n, (a - pos) as usize, (b - a) as usize));
            }
            pos += len;
        }
        if pos < hi {
            return Err(Error::Failure);
        }
        Ok(out)
    }

    /// [`Self::pieces`] for chunks of one size (the last one may be shorter): computed
    /// from the positions alone.
    fn fixed_pieces(&self, lo: i64, hi: i64) -> Result<Vec<(i64, usize, usize)>> {
        let cs = i64::from(self.chunksize);
        let mut out = Vec::new();
        if lo >= hi {
            return Ok(out);
        }
        let end = hi.min(self.nbytes);
        let last = (end - 1) / cs;
        if end < hi || last >= self.nchunks() {
            return Err(Error::Failure);
        }
        for n in lo / cs..=last {
            let pos = n * cs;
            let (a, b) = (lo.max(pos), end.min(pos + cs));
            out.push((n, (a - pos) as usize, (b - a) as usize));
        }
        Ok(out)
    }

    fn item_range(&self, start: i64, stop: i64) -> Result<(i64, i64)> {
        let ts = i64::from(self.cparams.typesize);
        if start < 0 {
            return Err(Error::Failure);
        }
        if stop < start {
            return Err(Error::InvalidParam);
        }
        let lo = start.checked_mul(ts).ok_or(Error::InvalidParam)?;
        let hi = stop.checked_mul(ts).ok_or(Error::InvalidParam)?;
        if hi > self.nbytes {
            return Err(Error::Failure);
        }
        Ok((lo, hi))
    }

    /// Decompresses items `start..stop` (typesize units) into `buf`.
    pub fn get_slice(&mut self, start: i64, stop: i64, buf: &mut [u8]) -> Result<()> {
        self.resync()?;
        let (lo, hi) = self.item_range(start, stop)?;
        if ((hi - lo) as usize) > buf.len() {
            return Err(Error::InvalidParam);
        }
        let chunksize = self.chunksize;
        let mut at = 0usize;
        for (n, off, len) in self.pieces(lo, hi)? {
            let (chunk, dctx) = self.chunk_range_with_dctx(n, off, off + len)?;
            let h = Header::parse(&chunk)?;
            let nb = nbytes_of(&chunk)?;
            check_chunk_nbytes(chunksize, nb)?;
            let ts = usize::from(h.typesize);
            let dst = &mut buf[at..at + len];
            if off == 0 && len == nb {
                dctx.decompress(&chunk, dst)?;
            } else if !h.is_vl() && off % ts == 0 && len % ts == 0 && off + len <= nb {
                dctx.getitem_bytes(&chunk, off as i32, len as i32, dst)?;
            } else {
                drop(chunk);
                let (whole, dctx) = self.chunk_with_dctx(n)?;
                let mut tmp = vec![0u8; nb];
                dctx.decompress(&whole, &mut tmp)?;
                buf[at..at + len].copy_from_slice(tmp.get(off..off + len).ok_or(Error::Data)?);
            }
            at += len;
        }
        Ok(())
    }

    /// Overwrites items `start..stop` with `buf`, recompressing the touched chunks.
    pub fn set_slice(&mut self, start: i64, stop: i64, buf: &[u8]) -> Result<()> {
        self.resync()?;
        let (lo, hi) = self.item_range(start, stop)?;
        if ((hi - lo) as usize) > buf.len() {
            return Err(Error::InvalidParam);
        }
        let mut at = 0usize;
        for (n, off, len) in self.pieces(lo, hi)? {
            let chunk = self.stored(n)?.into_owned();
            let nb = nbytes_of(&chunk)?;
            check_chunk_nbytes(self.chunksize, nb)?;
            if off + len > nb {
                return Err(Error::Data);
            }
            let mut data = vec![0u8; nb];
            if !(off == 0 && len == nb) {
                self.dctx.set_nchunk(Some(n));
                self.dctx.decompress(&chunk, &mut data)?;
            }
            data[off..off + len].copy_from_slice(&buf[at..at + len]);
            let mut out = vec![0u8; nb + MAX_OVERHEAD];
            self.cctx.set_nchunk(Some(n));
            let c = self.cctx.compress(&data, &mut out)?;
            if c == 0 {
                return Err(Error::ChunkUpdate);
            }
            out.truncate(c);
            self.update_chunk(n, &out).map_err(|_| Error::ChunkUpdate)?;
            at += len;
        }
        Ok(())
    }

    /// Gathers the items at `coords` into `buf` (fixed chunk size and explicit blocksize
    /// only, as in the reference).
    pub fn get_sparse(&mut self, coords: &[i64], buf: &mut [u8]) -> Result<()> {
        self.resync()?;
        if self.chunksize <= 0 || self.cparams.blocksize == 0 {
            return Err(Error::InvalidParam);
        }
        let ts = self.cparams.typesize as usize;
        if buf.len() < coords.len() * ts {
            return Err(Error::InvalidParam);
        }
        let nitems = self.nbytes / i64::from(self.cparams.typesize);
        if coords.iter().any(|&c| c < 0 || c >= nitems) {
            return Err(Error::InvalidParam);
        }
        for (k, &c) in coords.iter().enumerate() {
            self.get_slice(c, c + 1, &mut buf[k * ts..(k + 1) * ts])?;
        }
        Ok(())
    }

    /// The error the reference gives for unusable special fills of an empty super-chunk.
    pub fn special_error(&self) -> Error {
        if self.has_frame() {
            Error::FrameSpecial
        } else {
            Error::SchunkSpecial
        }
    }

    /// Whether nothing was ever stored that still counts: no data and no compressed bytes
    /// (a contiguous frame emptied by deletions keeps its chunk section's length).
    pub fn is_pristine(&self) -> bool {
        self.nbytes() == 0 && self.cbytes() == 0
    }

    /// Fills an empty super-chunk with `nitems` items of a special value in chunks of
    /// `chunksize` bytes; returns the number of chunks.
    pub fn fill_special(&mut self, nitems: i64, kind: Special, chunksize: i32) -> Result<i64> {
        let ts = i64::from(self.cparams.typesize);
        if nitems < 0 || chunksize <= 0 {
            return Err(Error::InvalidParam);
        }
        if nitems == 0 {
            return Ok(0);
        }
        if !self.is_pristine() {
            return Err(Error::FrameSpecial);
        }
        if i64::from(chunksize) % ts != 0 {
            return Err(self.special_error());
        }
        let total = nitems.checked_mul(ts).ok_or(Error::InvalidParam)?;
        let cs = i64::from(chunksize);
        let n = (total + cs - 1) / cs;
        if n > (i32::MAX / 8) as i64 {
            return Err(Error::InvalidParam);
        }
        self.chunksize = chunksize;
        match &mut self.store {
            Store::Frame(f, offs) => {
                *offs = vec![offsets::special_offset(kind); n as usize];
                f.set_index(offsets::encode_filled(&self.cparams, kind, n as usize)?);
                // The reference records the block size of one such chunk.
                let mut sample = [0u8; 32];
                special_chunk(&self.cparams, kind, chunksize, &mut sample)?;
                self.cparams.blocksize = crate::chunk::Header::parse(&sample)?.blocksize;
                self.nbytes = total;
                self.commit()?;
            }
            Store::Memory(v) => {
                for i in 0..n {
                    let nb = if i + 1 == n { total - cs * i } else { cs };
                    let mut c = vec![0u8; 32];
                    special_chunk(&self.cparams, kind, nb as i32, &mut c)?;
                    v.push(c);
                }
                self.nbytes = total;
                self.cbytes = 32 * n;
                self.tick += 1;
                // The reference appends them one by one, the last one last.
                if n > 0 {
                    self.touched = Some(n - 1);
                }
            }
        }
        Ok(n)
    }

    /// For a flat super-chunk, `ceil(stop / chunk) - start / chunk` in chunk items: the
    /// number of chunks the reference reports for the slice `start..stop`, zero or negative
    /// when it is empty or reversed.
    pub fn flat_slice_span(&self, start: i64, stop: i64) -> i64 {
        let ts = i64::from(self.cparams.typesize).max(1);
        let items = i64::from(self.chunksize) / ts;
        if items <= 0 {
            return 0;
        }
        stop / items + i64::from(stop % items != 0) - start / items
    }

    /// Indices of the chunks a slice touches. `start`/`stop` hold one position per
    /// dimension of the "b2nd" (or "caterva") metalayer, or a single item position for
    /// flat super-chunks. Like the reference, a dimension covers the chunks from
    /// `start / chunk` up to `ceil(stop / chunk)` without bounds checks (none when that
    /// range is empty; see [`SuperChunk::flat_slice_span`] for the count the reference
    /// reports then).
    pub fn slice_chunks(&self, start: &[i64], stop: &[i64]) -> Result<Vec<i64>> {
        let meta = self
            .metalayers
            .iter()
            .find(|m| m.name == "b2nd" || m.name == "caterva");
        let (shape, chunkshape) = match meta {
            Some(m) => b2nd_geometry(&m.content)?,
            None => {
                let ts = i64::from(self.cparams.typesize);
                let items = i64::from(self.chunksize) / ts.max(1);
                (vec![self.nbytes / ts.max(1)], vec![items])
            }
        };
        let ndim = shape.len();
        if start.len() < ndim || stop.len() < ndim || chunkshape.iter().any(|&c| c <= 0) {
            return Err(Error::InvalidParam);
        }
        let mut ranges = Vec::with_capacity(ndim);
        let mut total: i64 = 1;
        for d in 0..ndim {
            let first = start[d] / chunkshape[d];
            let last = stop[d] / chunkshape[d] + i64::from(stop[d] % chunkshape[d] != 0);
            let n = (last - first).max(0);
            total = total
                .checked_mul(n)
                .filter(|&t| t <= 1 << 24)
                .ok_or(Error::InvalidParam)?;
            ranges.push((first, first + n));
        }
        let grid: Vec<i64> = shape
            .iter()
            .zip(&chunkshape)
            .map(|(&s, &c)| s / c + i64::from(s % c != 0))
            .collect();
        let mut strides = vec![1i64; ndim];
        for d in (0..ndim.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1].saturating_mul(grid[d + 1]);
        }
        let mut out = Vec::with_capacity(total as usize);
        if total == 0 {
            return Ok(out);
        }
        let mut idx: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        loop {
            out.push(multidim_to_unidim(&idx, &strides));
            let mut d = ndim;
            loop {
                if d == 0 {
                    return Ok(out);
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < ranges[d].1 {
                    break;
                }
                idx[d] = ranges[d].0;
            }
        }
    }
}

fn bad<E>(_: E) -> Error {
    Error::InvalidHeader
}

/// Shape and chunk shape from a "b2nd" metalayer (msgpack: version, ndim, shape,
/// chunkshape, blockshape, ...).
fn b2nd_geometry(content: &[u8]) -> Result<(Vec<i64>, Vec<i64>)> {
    use rmp::decode;
    let mut r = content;
    if decode::read_array_len(&mut r).map_err(bad)? < 4 {
        return Err(Error::InvalidHeader);
    }
    let _version: i64 = decode::read_int(&mut r).map_err(bad)?;
    let ndim: i64 = decode::read_int(&mut r).map_err(bad)?;
    if !(0..=16).contains(&ndim) {
        return Err(Error::InvalidHeader);
    }
    let dims = |r: &mut &[u8]| -> Result<Vec<i64>> {
        if decode::read_array_len(r).map_err(bad)? as i64 != ndim {
            return Err(Error::InvalidHeader);
        }
        (0..ndim)
            .map(|_| decode::read_int(r).map_err(bad))
            .collect()
    };
    let shape = dims(&mut r)?;
    let chunkshape = dims(&mut r)?;
    Ok((shape, chunkshape))
}
