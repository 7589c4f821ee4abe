//! A seekable input that knows its length, so that no read allocates more than the file
//! really holds.

use std::io::{Read, Seek, SeekFrom};

use super::error::{Error, Result};

/// A reader with its length and position.
#[derive(Debug)]
pub(crate) struct Source<R> {
    pub(crate) inner: R,
    pub(crate) len: u64,
    pub(crate) pos: u64,
}

impl<R: Read + Seek> Source<R> {
    /// Wraps `inner`, measuring its length; reading starts at its beginning.
    pub(crate) fn new(mut inner: R) -> Result<Source<R>> {
        let len = inner.seek(SeekFrom::End(0))?;
        inner.seek(SeekFrom::Start(0))?;
        Ok(Source { inner, len, pos: 0 })
    }

    /// Bytes left after the position.
    pub(crate) fn remaining(&self) -> u64 {
        self.len.saturating_sub(self.pos)
    }

    /// Reads `n` bytes; fails before allocating when fewer remain.
    pub(crate) fn take(&mut self, n: u64, what: &str) -> Result<Vec<u8>> {
        if n > self.remaining() {
            return Err(Error::format(format!(
                "truncated: {what} needs {n} bytes at offset {}, the file has {} left",
                self.pos,
                self.remaining()
            )));
        }
        let mut buf = vec![0u8; n as usize];
        self.inner.read_exact(&mut buf)?;
        self.pos += n;
        Ok(buf)
    }

    /// Reads `n` bytes into the end of `buf` (grown, not shrunk), after `at` bytes;
    /// fails before allocating when fewer remain.
    pub(crate) fn take_into(
        &mut self,
        n: u64,
        what: &str,
        buf: &mut Vec<u8>,
        at: usize,
    ) -> Result<()> {
        if n > self.remaining() {
            return Err(Error::format(format!(
                "truncated: {what} needs {n} bytes at offset {}, the file has {} left",
                self.pos,
                self.remaining()
            )));
        }
        let end = at + n as usize;
        if buf.len() < end {
            buf.resize(end, 0);
        }
        self.inner.read_exact(&mut buf[at..end])?;
        self.pos += n;
        Ok(())
    }

    /// Moves to `pos`, which must lie within the file.
    pub(crate) fn seek_to(&mut self, pos: u64, what: &str) -> Result<()> {
        if pos > self.len {
            return Err(Error::format(format!(
                "truncated: {what} at offset {pos} is past the end ({} bytes)",
                self.len
            )));
        }
        if pos != self.pos {
            self.inner.seek(SeekFrom::Start(pos))?;
            self.pos = pos;
        }
        Ok(())
    }
}
