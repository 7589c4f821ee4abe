//! Reading stored chunks of a contiguous frame: borrowed from in-memory streams, read from
//! the others with the chunk's header and as many bytes after it as the last chunk had.

use std::borrow::Cow;

use super::CFrame;
use crate::constants::EXTENDED_HEADER_LENGTH;
use crate::error::{Error, Result};

/// Bytes read together with a chunk's header from streams outside memory.
pub(crate) const READ_AHEAD: u64 = 2048;
/// Most bytes read together with a whole chunk's header: chunks up to this size that are
/// about as big as the last one read take a single read.
const MAX_READ_AHEAD: u64 = 256 << 10;

/// The compressed size in the chunk header `head` (16 bytes at least), checked against the
/// `avail` bytes of the chunk section from the chunk on.
fn stored_cbytes(head: &[u8], avail: u64) -> Result<usize> {
    let cbytes = i32::from_le_bytes([head[12], head[13], head[14], head[15]]);
    if cbytes < 16 || cbytes as u64 > avail {
        return Err(Error::ReadBuffer);
    }
    Ok(cbytes as usize)
}

impl CFrame {
    /// Reads the stored chunk at `offset` (relative to the end of the header).
    pub fn read_chunk(&mut self, offset: u64) -> Result<Cow<'_, [u8]>> {
        if self.stream.as_slice().is_some() {
            let (pos, avail) = self.chunk_extent(offset)?;
            let s = self.stream.as_slice().unwrap_or(&[]);
            let start = usize::try_from(pos).map_err(|_| Error::ReadBuffer)?;
            let rest = s.get(start..).filter(|r| r.len() >= 16);
            let rest = rest.ok_or(Error::ReadBuffer)?;
            let cbytes = stored_cbytes(rest, avail)?;
            return rest
                .get(..cbytes)
                .map(Cow::Borrowed)
                .ok_or(Error::ReadBuffer);
        }
        let r = self
            .chunk_head(offset, self.read_ahead)
            .and_then(|(pos, cbytes, head)| {
                self.read_ahead = (cbytes as u64).clamp(READ_AHEAD, MAX_READ_AHEAD);
                self.complete(pos, cbytes, head)
            });
        self.end_op();
        Ok(Cow::Owned(r?))
    }

    /// Position in the stream of the stored chunk at `offset` and the bytes the chunk
    /// section holds from there (at least a short header's worth).
    fn chunk_extent(&self, offset: u64) -> Result<(u64, u64)> {
        let limit = self.chunks_len.max(self.section);
        let avail = limit.checked_sub(offset).ok_or(Error::ReadBuffer)?;
        if avail < 16 {
            return Err(Error::ReadBuffer);
        }
        let pos = self
            .base
            .checked_add(self.header_len)
            .and_then(|p| p.checked_add(offset))
            .ok_or(Error::ReadBuffer)?;
        Ok((pos, avail))
    }

    /// For streams outside memory: the position and compressed size of the stored chunk at
    /// `offset`, and its first bytes (a header's worth at least, up to `ahead` bytes, the
    /// whole chunk when it is no longer, so that such chunks take a single read).
    pub(crate) fn chunk_head(&mut self, offset: u64, ahead: u64) -> Result<(u64, usize, Vec<u8>)> {
        let (pos, avail) = self.chunk_extent(offset)?;
        let mut head = vec![0u8; avail.min(ahead.max(READ_AHEAD)) as usize];
        if self.stream.reader()?.read_at(pos, &mut head).is_err() {
            // A stream shorter than its chunk section: read no further than the chunk.
            head.truncate(avail.min(EXTENDED_HEADER_LENGTH as u64) as usize);
            self.stream.reader()?.read_at(pos, &mut head)?;
        }
        let cbytes = stored_cbytes(&head, avail)?;
        head.truncate(cbytes);
        Ok((pos, cbytes, head))
    }

    /// The whole chunk of `cbytes` bytes at `pos` whose first bytes are `head`.
    pub(crate) fn complete(
        &mut self,
        pos: u64,
        cbytes: usize,
        mut head: Vec<u8>,
    ) -> Result<Vec<u8>> {
        let have = head.len();
        if have < cbytes {
            head.try_reserve_exact(cbytes - have)
                .map_err(|_| Error::MemoryAlloc)?;
            head.resize(cbytes, 0);
            self.stream
                .reader()?
                .read_at(pos + have as u64, &mut head[have..])?;
        }
        Ok(head)
    }

    /// Reads `buf.len()` bytes at stream position `pos`.
    pub(crate) fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        self.stream.reader()?.read_at(pos, buf)
    }
}
