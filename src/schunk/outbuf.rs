//! The buffer a super-chunk compresses new chunks into before storing them: anonymous
//! memory, so that only the pages compressed bytes were written to become resident (a
//! zero-filled heap buffer of the chunk's full bound would be touched all over).

use crate::error::{Error, Result};

/// A reusable compression output buffer, grown on demand.
#[derive(Default)]
pub(crate) struct OutBuf(Option<memmap2::MmapMut>);

impl OutBuf {
    /// At least `len` writable bytes (their contents are whatever was left there).
    pub(crate) fn get(&mut self, len: usize) -> Result<&mut [u8]> {
        if self.0.as_ref().is_none_or(|m| m.len() < len) {
            self.0 = None;
            let map = memmap2::MmapMut::map_anon(len.max(1)).map_err(|_| Error::MemoryAlloc)?;
            self.0 = Some(map);
        }
        match self.0.as_mut() {
            Some(m) => Ok(&mut m[..len]),
            None => Err(Error::MemoryAlloc),
        }
    }
}
