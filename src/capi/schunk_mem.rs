//! Memory shared with C callers: frame buffers from `malloc` and the mirrors of
//! metalayers that the `blosc2_schunk` struct points to.

use std::ffi::{c_char, CString};

use super::types::blosc2_metalayer;
use crate::error::{Error, Result};
use crate::frame::Meta;
use crate::io::FrameBuffer;

/// An in-memory frame buffer allocated with libc `malloc`, so C callers can keep it
/// (`blosc2_schunk_avoid_cframe_free`) and release it with `free`.
pub(crate) struct MallocBuf {
    ptr: *mut u8,
    len: usize,
    keep: bool,
}

// SAFETY: the buffer is exclusively owned by this value; moving it between threads moves
// that ownership.
unsafe impl Send for MallocBuf {}

impl MallocBuf {
    /// An empty buffer.
    pub(crate) fn empty() -> Box<dyn FrameBuffer> {
        Box::new(MallocBuf {
            ptr: std::ptr::null_mut(),
            len: 0,
            keep: false,
        })
    }

    /// Adopts a caller's malloc'd buffer, which is not freed unless told so.
    ///
    /// # Safety
    /// `ptr` must be a `malloc`ed block of at least `len` bytes that stays valid and is
    /// not used elsewhere while this value lives.
    pub(crate) unsafe fn adopt(ptr: *mut u8, len: usize) -> MallocBuf {
        MallocBuf {
            ptr,
            len,
            keep: true,
        }
    }
}

impl FrameBuffer for MallocBuf {
    fn bytes(&self) -> &[u8] {
        if self.ptr.is_null() {
            return &[];
        }
        // SAFETY: `ptr` holds `len` initialised bytes owned by this value.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        if self.ptr.is_null() {
            return &mut [];
        }
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    fn resize(&mut self, len: usize) -> Result<()> {
        // SAFETY: `ptr` is NULL or a block from malloc/realloc; the result is checked.
        let p = unsafe { libc::realloc(self.ptr.cast(), len.max(1)) }.cast::<u8>();
        if p.is_null() {
            return Err(Error::MemoryAlloc);
        }
        if len > self.len {
            // SAFETY: the block now has `len` bytes; the new tail is zeroed.
            unsafe { std::ptr::write_bytes(p.add(self.len), 0, len - self.len) };
        }
        self.ptr = p;
        self.len = len;
        Ok(())
    }

    fn set_keep(&mut self, keep: bool) {
        self.keep = keep;
    }
}

impl Drop for MallocBuf {
    fn drop(&mut self) {
        if !self.keep && !self.ptr.is_null() {
            // SAFETY: the block came from malloc/realloc and is owned by this value.
            unsafe { libc::free(self.ptr.cast()) };
        }
    }
}

/// A `blosc2_metalayer` with the memory its pointers refer to.
pub(crate) struct MetaMirror {
    pub(crate) c: blosc2_metalayer,
    _name: CString,
    _content: Vec<u8>,
}

impl MetaMirror {
    /// Mirrors `m` (names with NUL bytes are cut at the first one); the pointers stay valid
    /// when the mirror moves, as they point to heap memory it owns.
    pub(crate) fn new(m: &Meta) -> MetaMirror {
        let bytes = m.name.as_bytes();
        let name =
            CString::new(bytes.split(|&b| b == 0).next().unwrap_or_default()).unwrap_or_default();
        let mut content = m.content.clone();
        MetaMirror {
            c: blosc2_metalayer {
                name: name.as_ptr() as *mut c_char,
                content: content.as_mut_ptr(),
                content_len: content.len() as i32,
            },
            _name: name,
            _content: content,
        }
    }

    /// Whether this mirrors the content of `m` (names never change in place).
    pub(crate) fn mirrors(&self, m: &Meta) -> bool {
        self._content == m.content
    }
}

/// Bytes the reference adds to `schunk->data_len` whenever the pointer array is full.
const DATA_PAGE: usize = 4096;

/// The `schunk->data` pointer array of an in-memory super-chunk without a frame: one slot
/// per chunk pointing at its bytes, with `data_len` (bytes) grown a page at a time when
/// chunks are added, and never shrunk, as in the reference.
pub(crate) struct ChunkArray {
    slots: Vec<*mut u8>,
    data_len: usize,
    nchunks: usize,
    tick: Option<i64>,
}

impl ChunkArray {
    /// No array yet (`data` NULL, `data_len` 0).
    pub(crate) fn new() -> ChunkArray {
        ChunkArray {
            slots: Vec::new(),
            data_len: 0,
            nchunks: 0,
            tick: None,
        }
    }

    /// Takes the chunks as already held, with `data_len` 0: the state the reference leaves
    /// after `blosc2_schunk_from_buffer(..., copy=true)`.
    pub(crate) fn adopt_loaded(&mut self) {
        self.data_len = 0;
    }

    /// Points the slots at `chunks` (none: the chunks live in a frame) after the change
    /// numbered `tick`; returns the C `data` and `data_len` fields.
    pub(crate) fn sync(
        &mut self,
        chunks: Option<&mut [Vec<u8>]>,
        tick: i64,
    ) -> (*mut *mut u8, usize) {
        let Some(chunks) = chunks else {
            return (std::ptr::null_mut(), 0);
        };
        let n = chunks.len();
        let first = self.tick.is_none();
        if n > self.nchunks && !first {
            while n.saturating_mul(std::mem::size_of::<*mut u8>()) > self.data_len {
                self.data_len += DATA_PAGE;
            }
        } else if first && n > 0 {
            self.data_len = n
                .saturating_mul(std::mem::size_of::<*mut u8>())
                .div_ceil(DATA_PAGE)
                * DATA_PAGE;
        }
        self.nchunks = n;
        if self.tick != Some(tick) || self.slots.len() < n {
            self.tick = Some(tick);
            let cap = n.max(self.data_len / std::mem::size_of::<*mut u8>());
            self.slots.clear();
            self.slots.extend(chunks.iter_mut().map(|c| c.as_mut_ptr()));
            self.slots.resize(cap, std::ptr::null_mut());
        }
        if self.slots.is_empty() {
            return (std::ptr::null_mut(), 0);
        }
        (self.slots.as_mut_ptr(), self.data_len)
    }
}
