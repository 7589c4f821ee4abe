//! Storage backends for frames: a byte-addressed stream trait and the backends behind it
//! (files through std, memory-mapped files, in-memory buffers), plus the registry of I/O
//! backends by id that `blosc2_init` fills.

mod memory;
mod mmap;
mod registry;
mod stdio;

use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};

pub use memory::{FrameBuffer, MemoryStream};
pub use mmap::{MmapIo, MmapMode};
pub use registry::{get, register, registered_ids, IO_FILESYSTEM, IO_FILESYSTEM_MMAP};
pub use stdio::StdioIo;

/// How a stream is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Read only; the file must exist.
    Read,
    /// Read and write; the file must exist.
    ReadWrite,
    /// Read and write; the file is created or truncated.
    Create,
}

/// An open byte stream with positional access.
pub trait Stream: Send {
    /// The current size in bytes.
    fn size(&mut self) -> Result<u64>;
    /// Fills `buf` with the bytes at `pos`; an error when fewer bytes are available.
    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()>;
    /// Writes `data` at `pos`, growing the stream as needed (writing nothing changes
    /// nothing).
    fn write_at(&mut self, pos: u64, data: &[u8]) -> Result<()>;
    /// Sets the size of the stream.
    fn truncate(&mut self, len: u64) -> Result<()>;
    /// The whole stream as one slice, when it lives in memory (zero-copy reads).
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
    /// For in-memory streams: whether dropping the stream leaves the buffer alive.
    fn set_keep(&mut self, _keep: bool) {}
}

/// An I/O backend: opens streams by path.
pub trait Io: Send + Sync {
    /// The backend id (`BLOSC2_IO_*`, user backends 160..=255).
    fn id(&self) -> u8;
    /// The backend name.
    fn name(&self) -> &str;
    /// Opens `path` in `mode`.
    fn open(&self, path: &Path, mode: OpenMode) -> Result<Box<dyn Stream>>;
}

/// Reads `len` bytes at `pos` into a new vector, checking the length first.
pub fn read_vec(stream: &mut dyn Stream, pos: u64, len: u64) -> Result<Vec<u8>> {
    let size = stream.size()?;
    let end = pos.checked_add(len).ok_or(Error::ReadBuffer)?;
    if end > size {
        return Err(Error::FileRead);
    }
    let len = usize::try_from(len).map_err(|_| Error::MemoryAlloc)?;
    let mut v = vec![0u8; len];
    stream.read_at(pos, &mut v)?;
    Ok(v)
}

/// The prefix of a `file:` URL that urlpaths may carry.
const FILE_URL_PREFIX: &[u8] = b"file:///";

/// The local path a urlpath names: a leading `file:///` is dropped, exactly those eight
/// bytes as in the reference (so `file:///data/x.b2frame` is the relative path
/// `data/x.b2frame`); any other path is returned as it is.
pub fn local_path(urlpath: &Path) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    let bytes = urlpath.as_os_str().as_bytes();
    match bytes.strip_prefix(FILE_URL_PREFIX) {
        Some(rest) => Path::new(std::ffi::OsStr::from_bytes(rest)),
        None => urlpath,
    }
}

/// The default backend (plain files).
pub fn default_io() -> Arc<dyn Io> {
    Arc::new(StdioIo)
}

#[cfg(test)]
mod tests;
