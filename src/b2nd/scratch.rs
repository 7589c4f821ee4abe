//! A per-thread working buffer for decompressed chunks, reused by slice operations so
//! reading one item does not allocate and clear a whole chunk each time.

use std::cell::RefCell;

use crate::error::{Error, Result};

thread_local! {
    static CHUNK_DATA: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Buffers larger than this are released after use instead of kept.
const KEEP_LIMIT: usize = 64 << 20;

/// A thread's working buffer, lent by [`with_pad`] and sized when first needed.
pub(crate) struct Pad(Vec<u8>);

impl Pad {
    /// The buffer resized to `len` bytes (content left from earlier use; only new bytes are
    /// zeroed); `MemoryAlloc` when the memory is not there.
    pub(crate) fn get(&mut self, len: usize) -> Result<&mut [u8]> {
        self.0
            .try_reserve(len.saturating_sub(self.0.len()))
            .map_err(|_| Error::MemoryAlloc)?;
        self.0.resize(len, 0);
        Ok(&mut self.0)
    }
}

/// Runs `f` with this thread's buffer, which `f` sizes through [`Pad::get`] once it knows
/// the size from validated data. Re-entrant calls get a buffer of their own.
pub(crate) fn with_pad<R>(f: impl FnOnce(&mut Pad) -> Result<R>) -> Result<R> {
    let mut pad = Pad(CHUNK_DATA.with(|b| std::mem::take(&mut *b.borrow_mut())));
    let r = f(&mut pad);
    if pad.0.capacity() <= KEEP_LIMIT {
        CHUNK_DATA.with(|b| *b.borrow_mut() = pad.0);
    }
    r
}
