//! Opening super-chunks from frames: files and directories by path (optionally at an offset
//! or through user I/O) and contiguous frames in memory.

use std::ffi::c_char;
use std::path::Path;
use std::sync::Arc;

use super::ffi::{c_str, guard};
use super::io::backend_for;
use super::schunk::{ptr_of, schunk_box, SchunkBox};
use super::schunk_lock::{self, FrameLock};
use super::schunk_mem::MallocBuf;
use super::types::{blosc2_io, blosc2_schunk};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// Opens the frame at `urlpath` (from `offset`) through `udio` (NULL: the file system).
///
/// # Safety
/// `urlpath` must be NULL or a NUL-terminated string; `udio` NULL or a valid `blosc2_io`
/// whose parameter block matches its id.
unsafe fn open_impl(
    urlpath: *const c_char,
    offset: i64,
    udio: *const blosc2_io,
) -> Result<*mut blosc2_schunk> {
    // SAFETY: the caller guarantees a valid string.
    let given = unsafe { c_str(urlpath) }.ok_or(Error::InvalidParam)?;
    let path = crate::io::local_path(Path::new(given));
    // SAFETY: the caller guarantees `udio` is NULL or valid.
    let io = unsafe { udio.as_ref() }
        .copied()
        .unwrap_or(blosc2_io::DEFAULTS);
    // SAFETY: as above for the parameter block.
    let backend: Arc<dyn crate::io::Io> = unsafe { backend_for(&io) }.ok_or(Error::PluginIo)?;
    let offset = u64::try_from(offset).map_err(|_| Error::InvalidParam)?;
    // SAFETY: as above for the parameter block.
    let mut lock = if unsafe { schunk_lock::wanted(&io) } && path.exists() {
        FrameLock::on(path)?
    } else {
        FrameLock::none()
    };
    let mut core = lock.bracket(|| SuperChunk::open(path, offset, Some(backend)))?;
    core.set_buffer_maker(MallocBuf::empty);
    let p = SchunkBox::into_c(core, io, lock, None);
    // SAFETY: `p` was just created and is not shared yet.
    if let Some(b) = unsafe { schunk_box(p) } {
        b.set_c_urlpath(given);
    }
    Ok(p)
}

/// Opens a frame file or sparse-frame directory; NULL on error.
///
/// # Safety
/// `urlpath` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_open(urlpath: *const c_char) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        ptr_of(unsafe { open_impl(urlpath, 0, std::ptr::null()) })
    })
}

/// Opens the frame starting at byte `offset` of a file; NULL on error.
///
/// # Safety
/// `urlpath` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_open_offset(
    urlpath: *const c_char,
    offset: i64,
) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        ptr_of(unsafe { open_impl(urlpath, offset, std::ptr::null()) })
    })
}

/// Opens a frame through the I/O backend `udio`; NULL on error.
///
/// # Safety
/// `urlpath` must be a NUL-terminated string and `udio` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_open_udio(
    urlpath: *const c_char,
    udio: *const blosc2_io,
) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        ptr_of(unsafe { open_impl(urlpath, 0, udio) })
    })
}

/// Opens the frame at `offset` through the I/O backend `udio`; NULL on error.
///
/// # Safety
/// `urlpath` must be a NUL-terminated string and `udio` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_open_offset_udio(
    urlpath: *const c_char,
    offset: i64,
    udio: *const blosc2_io,
) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        ptr_of(unsafe { open_impl(urlpath, offset, udio) })
    })
}

/// A super-chunk from an in-memory contiguous frame: with `copy`, an independent
/// super-chunk holding its chunks in memory (no frame, as in the reference); without, a
/// frame over the caller's malloc'd buffer itself, which the super-chunk may grow and
/// which is freed with it only after `blosc2_schunk_avoid_cframe_free(schunk, false)`.
///
/// # Safety
/// `cframe` must be readable for `len` bytes (and malloc'd when `copy` is false).
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_from_buffer(
    cframe: *mut u8,
    len: i64,
    copy: bool,
) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        ptr_of((|| {
            let n = usize::try_from(len).map_err(|_| Error::InvalidParam)?;
            if cframe.is_null() || n < crate::frame::header::HEADER_MINLEN {
                return Err(Error::InvalidParam);
            }
            let mut header_blocksize = None;
            let mut core = if copy {
                // SAFETY: the caller guarantees `len` readable bytes.
                let bytes = unsafe { std::slice::from_raw_parts(cframe, n) };
                let framed = SuperChunk::from_cframe(bytes)?;
                header_blocksize = Some(framed.cparams().blocksize);
                framed.into_memory()?
            } else {
                // SAFETY: the caller hands over a malloc'd block of `len` bytes.
                SuperChunk::from_buffer(Box::new(unsafe { MallocBuf::adopt(cframe, n) }))?
            };
            core.set_buffer_maker(MallocBuf::empty);
            let p = SchunkBox::into_c(core, blosc2_io::DEFAULTS, FrameLock::none(), None);
            // SAFETY: `p` was just created and is not shared yet.
            if let (true, Some(b)) = (copy, unsafe { schunk_box(p) }) {
                // The storage keeps the frame header's block size, as the reference's does.
                if let Some(bs) = header_blocksize {
                    b.set_storage_blocksize(bs);
                }
                b.chunk_array.adopt_loaded();
                b.sync();
            }
            Ok(p)
        })())
    })
}
