//! Compressing buffers into new or replaced chunks.

use std::borrow::Cow;

use super::{outbuf, Store, SuperChunk};
use crate::constants::MAX_OVERHEAD;
use crate::error::{Error, Result};

/// Compressed chunks smaller than this are stored in allocations of their own size (see
/// `SuperChunk::compress_owned`); the usual size from which allocators map whole pages.
const COMPACT_BELOW: usize = 128 << 10;

impl SuperChunk {
    /// Compresses `src` with the super-chunk's parameters and appends it.
    pub fn append_buffer(&mut self, src: &[u8]) -> Result<i64> {
        self.resync()?;
        if matches!(self.store, Store::Memory(_)) {
            return self.append_owned(src);
        }
        let mut buf = std::mem::take(&mut self.out_buf);
        let r = self.append_compressed(src, &mut buf);
        self.out_buf = buf;
        r
    }

    /// Compresses `src` into `buf` and appends the chunk.
    fn append_compressed(&mut self, src: &[u8], buf: &mut outbuf::OutBuf) -> Result<i64> {
        let out = buf.get(src.len() + MAX_OVERHEAD)?;
        self.cctx.set_nchunk(Some(self.nchunks()));
        let n = self.cctx.compress(src, out)?;
        if n == 0 {
            return Err(Error::WriteBuffer);
        }
        let chunk = &out[..n];
        self.transaction(|s| s.append_inner(Cow::Borrowed(chunk)))
    }

    /// Appends `src` compressed into the allocation an in-memory super-chunk keeps (see
    /// [`Self::compress_owned`]).
    fn append_owned(&mut self, src: &[u8]) -> Result<i64> {
        self.cctx.set_nchunk(Some(self.nchunks()));
        let out = self.compress_owned(src)?.ok_or(Error::WriteBuffer)?;
        self.transaction(|s| s.append_inner(Cow::Owned(out)))
    }

    /// Compresses `src` into an allocation of its own, as the reference does: zeroed
    /// memory whose pages become resident only where the threads compressing the blocks
    /// write, shrunk to the compressed size, so no second chunk-sized buffer stays behind
    /// and nothing is copied. Such large allocations are whole pages: a chunk compressed
    /// below [`COMPACT_BELOW`] bytes moves into a compact one instead, so that many small
    /// chunks do not each hold a partly used page. `None` when the codec wrote nothing.
    fn compress_owned(&mut self, src: &[u8]) -> Result<Option<Vec<u8>>> {
        let mut out = vec![0u8; src.len() + MAX_OVERHEAD];
        let n = self.cctx.compress(src, &mut out)?;
        if n == 0 {
            return Ok(None);
        }
        out.truncate(n);
        out.shrink_to_fit();
        if n < COMPACT_BELOW {
            out = out.to_vec();
        }
        Ok(Some(out))
    }

    /// Compresses `src` with the super-chunk's parameters and stores it as chunk `n`;
    /// returns the number of chunks. An in-memory super-chunk that replaces a small chunk
    /// (a special one, say) keeps the allocation the new chunk was compressed into (see
    /// [`Self::compress_owned`]); one that replaces a larger chunk copies it from the
    /// reused working buffer instead, into memory the allocator likely has at hand from
    /// earlier replacements (fresh memory costs a page fault per page).
    pub fn compress_update(&mut self, n: i64, src: &[u8]) -> Result<i64> {
        self.resync()?;
        self.cctx.set_nchunk(Some(n));
        let replaces_small = match (&self.store, usize::try_from(n)) {
            (Store::Memory(v), Ok(at)) => v.get(at).is_some_and(|c| c.len() < COMPACT_BELOW),
            _ => false,
        };
        if !replaces_small {
            let mut buf = std::mem::take(&mut self.out_buf);
            let r = buf.get(src.len() + MAX_OVERHEAD).and_then(|out| {
                match self.cctx.compress(src, out)? {
                    0 => Err(Error::Failure),
                    len => self.transaction(|s| s.update_inner(n, Cow::Borrowed(&out[..len]))),
                }
            });
            self.out_buf = buf;
            return r;
        }
        let out = self.compress_owned(src)?.ok_or(Error::Failure)?;
        self.transaction(|s| s.update_inner(n, Cow::Owned(out)))
    }
}
