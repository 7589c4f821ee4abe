//! Lazy chunks of file-backed frames, as the reference hands them out: the chunk header and
//! block starts (blosc2 flags bit 3 set), then a trailer of the chunk's number, its
//! position and every block's compressed size; and their resolution back to whole chunks.

use std::borrow::Cow;

use super::{Store, SuperChunk};
use crate::chunk::Header;
use crate::constants::{EXTENDED_HEADER_LENGTH, LAZY_CHUNK};
use crate::error::{Error, Result};
use crate::frame::Frame;

/// Number of blocks of a chunk (a VL-block chunk keeps it in the block size field).
fn block_count(h: &Header) -> usize {
    if h.is_vl() {
        h.blocksize.max(0) as usize
    } else {
        h.nblocks().0
    }
}

/// The compressed size of every block of `chunk` (whose header is `h`), from its block
/// starts: the distance to the next start, or to the end of the chunk.
fn block_csizes(h: &Header, chunk: &[u8]) -> Result<Vec<i32>> {
    let nblocks = block_count(h);
    let end = nblocks
        .checked_mul(4)
        .and_then(|n| n.checked_add(EXTENDED_HEADER_LENGTH))
        .filter(|&e| e <= chunk.len())
        .ok_or(Error::InvalidHeader)?;
    let starts: Vec<i64> = chunk[EXTENDED_HEADER_LENGTH..end]
        .chunks_exact(4)
        .map(|b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        .collect();
    let mut order: Vec<usize> = (0..nblocks).collect();
    order.sort_by_key(|&i| starts[i]);
    let mut out = vec![0i32; nblocks];
    for (k, &i) in order.iter().enumerate() {
        let next = order.get(k + 1).map_or(chunk.len() as i64, |&j| starts[j]);
        out[i] = i32::try_from(next - starts[i]).map_err(|_| Error::InvalidHeader)?;
    }
    Ok(out)
}

impl SuperChunk {
    /// Where lazy chunks of this frame say chunk `n` lies: its number and position as the
    /// reference writes them (contiguous files: the chunk number and the position after
    /// the header; sparse frames: the chunk file number, twice). `None` where the
    /// reference hands out whole chunks.
    fn lazy_place(&self, n: usize) -> Option<(i32, i64)> {
        self.storage.urlpath.as_ref()?;
        match &self.store {
            Store::Frame(Frame::Contiguous(f), offs) => {
                let o = *offs.get(n)?;
                (o >= 0).then(|| (n as i32, f.header_len() as i64 + o))
            }
            Store::Frame(Frame::Sparse(_), offs) => {
                let o = *offs.get(n)?;
                (o >= 0).then_some((o as i32, o))
            }
            Store::Memory(_) => None,
        }
    }

    /// Chunk `n` as the reference hands out lazy chunks of file-backed frames (see the
    /// module doc); whole chunks elsewhere and for chunks without block starts (special and
    /// memcpyed chunks).
    pub fn lazy_chunk(&mut self, n: i64) -> Result<Cow<'_, [u8]>> {
        self.resync()?;
        let place = self.lazy_place(usize::try_from(n).map_err(|_| Error::InvalidParam)?);
        let full = self.stored(n)?;
        let Some((number, pos)) = place else {
            return Ok(full);
        };
        let h = Header::parse(&full)?;
        if !h.is_extended() || h.is_memcpyed() || h.special() != 0 || h.is_lazy() {
            return Ok(full);
        }
        let csizes = block_csizes(&h, &full)?;
        let end = EXTENDED_HEADER_LENGTH + 4 * csizes.len();
        let mut out = Vec::with_capacity(end + 12 + 4 * csizes.len());
        out.extend_from_slice(&full[..end]);
        out[31] |= LAZY_CHUNK;
        out.extend_from_slice(&number.to_le_bytes());
        out.extend_from_slice(&pos.to_le_bytes());
        for c in csizes {
            out.extend_from_slice(&c.to_le_bytes());
        }
        Ok(Cow::Owned(out))
    }

    /// The whole chunk the lazy chunk `lazy` (from [`SuperChunk::lazy_chunk`]) stands for.
    /// Everything the lazy chunk says (header, block starts, position, every block's
    /// compressed size) must agree with the stored chunk: `Data` otherwise.
    pub fn resolve_lazy(&mut self, lazy: &[u8]) -> Result<Vec<u8>> {
        let h = Header::parse(lazy)?;
        if !h.is_lazy() {
            return Err(Error::InvalidParam);
        }
        let nblocks = block_count(&h);
        let at = nblocks
            .checked_mul(4)
            .and_then(|b| b.checked_add(EXTENDED_HEADER_LENGTH))
            .ok_or(Error::InvalidHeader)?;
        let trailer = lazy
            .get(
                at..at
                    .checked_add(12 + 4 * nblocks)
                    .ok_or(Error::InvalidHeader)?,
            )
            .ok_or(Error::ReadBuffer)?;
        let number = i32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let pos = i64::from_le_bytes(trailer[4..12].try_into().map_err(|_| Error::Data)?);
        let n = (0..self.nchunks() as usize)
            .find(|&i| self.lazy_place(i) == Some((number, pos)))
            .ok_or(Error::Data)?;
        let full = self.stored(n as i64)?.into_owned();
        let same_head = full.get(..at).is_some_and(|f| {
            f[..31] == lazy[..31] && f[31] | LAZY_CHUNK == lazy[31] && f[32..] == lazy[32..at]
        });
        let csizes = block_csizes(&h, &full)?;
        let stored: Vec<i32> = trailer[12..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if !same_head || stored != csizes {
            return Err(Error::Data);
        }
        Ok(full)
    }
}
