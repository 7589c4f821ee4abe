//! Item ranges across chunks (get/set slices, sparse gathers), special fills and the index
//! conversions of N-dimensional layouts.

use super::{Store, SuperChunk};
use crate::chunk::Header;
use crate::constants::MAX_OVERHEAD;
use crate::error::{Error, Result};
use crate::frame::offsets;
use crate::special::{special_chunk, Special};

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
        let mut out = Vec::new();
        let mut pos = 0i64;
        for n in 0..self.nchunks() {
            if pos >= hi {
                break;
            }
            let len = if self.chunksize > 0 {
                i64::from(self.chunksize).min(self.nbytes - pos)
            } else {
                i64::from(Header::parse(&self.chunk(n)?)?.nbytes)
            };
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

    fn item_range(&self, start: i64, stop: i64) -> Result<(i64, i64)> {
        let ts = i64::from(self.cparams.typesize);
        if start < 0 || stop < start {
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
        let (lo, hi) = self.item_range(start, stop)?;
        if ((hi - lo) as usize) > buf.len() {
            return Err(Error::InvalidParam);
        }
        let mut at = 0usize;
        for (n, off, len) in self.pieces(lo, hi)? {
            let chunk = self.chunk(n)?.into_owned();
            let nb = Header::parse(&chunk)?.nbytes as usize;
            if off == 0 && len == nb {
                self.dctx.decompress(&chunk, &mut buf[at..at + len])?;
            } else {
                let mut tmp = vec![0u8; nb];
                self.dctx.decompress(&chunk, &mut tmp)?;
                buf[at..at + len].copy_from_slice(&tmp[off..off + len]);
            }
            at += len;
        }
        Ok(())
    }

    /// Overwrites items `start..stop` with `buf`, recompressing the touched chunks.
    pub fn set_slice(&mut self, start: i64, stop: i64, buf: &[u8]) -> Result<()> {
        let (lo, hi) = self.item_range(start, stop)?;
        if ((hi - lo) as usize) > buf.len() {
            return Err(Error::InvalidParam);
        }
        let mut at = 0usize;
        for (n, off, len) in self.pieces(lo, hi)? {
            let chunk = self.chunk(n)?.into_owned();
            let nb = Header::parse(&chunk)?.nbytes as usize;
            let mut data = vec![0u8; nb];
            if !(off == 0 && len == nb) {
                self.dctx.decompress(&chunk, &mut data)?;
            }
            data[off..off + len].copy_from_slice(&buf[at..at + len]);
            let mut out = vec![0u8; nb + MAX_OVERHEAD];
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
        if self.chunksize <= 0 || self.cparams.blocksize == 0 {
            return Err(Error::InvalidParam);
        }
        let ts = self.cparams.typesize as usize;
        if buf.len() < coords.len() * ts {
            return Err(Error::InvalidParam);
        }
        for (k, &c) in coords.iter().enumerate() {
            self.get_slice(c, c + 1, &mut buf[k * ts..(k + 1) * ts])?;
        }
        Ok(())
    }

    /// Fills an empty super-chunk with `nitems` items of a special value in chunks of
    /// `chunksize` bytes; returns the number of chunks.
    pub fn fill_special(&mut self, nitems: i64, kind: Special, chunksize: i32) -> Result<i64> {
        let ts = i64::from(self.cparams.typesize);
        if nitems < 0 || chunksize <= 0 {
            return Err(Error::InvalidParam);
        }
        if self.nchunks() != 0 || i64::from(chunksize) % ts != 0 {
            return Err(Error::SchunkSpecial);
        }
        if nitems == 0 {
            return Ok(0);
        }
        let total = nitems.checked_mul(ts).ok_or(Error::InvalidParam)?;
        let cs = i64::from(chunksize);
        let n = (total + cs - 1) / cs;
        if n > (i32::MAX / 8) as i64 {
            return Err(Error::InvalidParam);
        }
        self.chunksize = chunksize;
        match &mut self.store {
            Store::Frame(_, offs) => {
                *offs = vec![offsets::special_offset(kind); n as usize];
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
            }
        }
        Ok(n)
    }

    /// Indices of the chunks holding items `start..stop` of a flat super-chunk.
    pub fn slice_chunks(&mut self, start: i64, stop: i64) -> Result<Vec<i64>> {
        let (lo, hi) = self.item_range(start, stop)?;
        Ok(self.pieces(lo, hi)?.into_iter().map(|p| p.0).collect())
    }
}
