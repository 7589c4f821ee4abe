//! In-memory streams: a frame held in a growable buffer.

use super::Stream;
use crate::error::{Error, Result};

/// A growable byte buffer holding an in-memory frame. `Vec<u8>` is the plain Rust one;
/// the C layer supplies one backed by `malloc` so C callers may take the buffer over.
pub trait FrameBuffer: Send {
    /// The bytes.
    fn bytes(&self) -> &[u8];
    /// The bytes, mutably.
    fn bytes_mut(&mut self) -> &mut [u8];
    /// Changes the length, zero-filling new bytes.
    fn resize(&mut self, len: usize) -> Result<()>;
    /// When `keep` is true, dropping the buffer leaves its memory to whoever holds a
    /// pointer to it.
    fn set_keep(&mut self, keep: bool);
}

impl FrameBuffer for Vec<u8> {
    fn bytes(&self) -> &[u8] {
        self
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }

    fn resize(&mut self, len: usize) -> Result<()> {
        if len > self.len() {
            self.try_reserve(len - self.len())
                .map_err(|_| Error::MemoryAlloc)?;
        }
        Vec::resize(self, len, 0);
        Ok(())
    }

    fn set_keep(&mut self, _keep: bool) {}
}

/// A stream over a [`FrameBuffer`].
pub struct MemoryStream {
    buf: Box<dyn FrameBuffer>,
}

impl MemoryStream {
    /// Wraps a buffer.
    pub fn new(buf: Box<dyn FrameBuffer>) -> MemoryStream {
        MemoryStream { buf }
    }

    /// The buffer.
    pub fn buffer(&self) -> &dyn FrameBuffer {
        self.buf.as_ref()
    }

    /// The buffer, mutably.
    pub fn buffer_mut(&mut self) -> &mut dyn FrameBuffer {
        self.buf.as_mut()
    }
}

fn range(pos: u64, len: usize) -> Result<(usize, usize)> {
    let start = usize::try_from(pos).map_err(|_| Error::ReadBuffer)?;
    let end = start.checked_add(len).ok_or(Error::ReadBuffer)?;
    Ok((start, end))
}

impl Stream for MemoryStream {
    fn size(&mut self) -> Result<u64> {
        Ok(self.buf.bytes().len() as u64)
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        let (s, e) = range(pos, buf.len())?;
        let src = self.buf.bytes().get(s..e).ok_or(Error::ReadBuffer)?;
        buf.copy_from_slice(src);
        Ok(())
    }

    fn write_at(&mut self, pos: u64, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        let (s, e) = range(pos, data.len())?;
        if e > self.buf.bytes().len() {
            self.buf.resize(e)?;
        }
        self.buf.bytes_mut()[s..e].copy_from_slice(data);
        Ok(())
    }

    fn truncate(&mut self, len: u64) -> Result<()> {
        self.buf
            .resize(usize::try_from(len).map_err(|_| Error::MemoryAlloc)?)
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self.buf.bytes())
    }

    fn set_keep(&mut self, keep: bool) {
        self.buf.set_keep(keep);
    }
}
