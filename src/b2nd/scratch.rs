//! Per-thread working buffers reused by slice operations, so reading one item does not
//! allocate and clear a whole chunk each time.

use std::cell::RefCell;

use crate::error::{Error, Result};

thread_local! {
    static CHUNK_DATA: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static COMPRESSED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Buffers larger than this are released after use instead of kept.
const KEEP_LIMIT: usize = 64 << 20;

/// Which working buffer to lend.
#[derive(Clone, Copy)]
pub(crate) enum Scratch {
    /// A decompressed chunk.
    ChunkData,
    /// A compressed chunk.
    Compressed,
}

/// Runs `f` with this thread's `which` buffer resized to `len` bytes (content left from
/// earlier use; only new bytes are zeroed); `MemoryAlloc` when the memory is not there.
/// Re-entrant calls get a buffer of their own.
pub(crate) fn with_scratch<R>(
    which: Scratch,
    len: usize,
    f: impl FnOnce(&mut [u8]) -> Result<R>,
) -> Result<R> {
    let key = match which {
        Scratch::ChunkData => &CHUNK_DATA,
        Scratch::Compressed => &COMPRESSED,
    };
    let mut buf = key.with(|b| std::mem::take(&mut *b.borrow_mut()));
    buf.try_reserve(len.saturating_sub(buf.len()))
        .map_err(|_| Error::MemoryAlloc)?;
    buf.resize(len, 0);
    let r = f(&mut buf);
    if buf.capacity() <= KEEP_LIMIT {
        key.with(|b| *b.borrow_mut() = buf);
    }
    r
}
