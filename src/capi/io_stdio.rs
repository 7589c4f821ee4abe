//! The built-in backends as C callbacks (`blosc2_stdio_*`, `blosc2_stdio_mmap_*`), usable
//! directly in a `blosc2_io_cb`.

use std::ffi::{c_char, c_int, c_void};

use super::ffi::{c_str, guard};
use super::io_mmap::{
    blosc2_stdio_mmap_close, blosc2_stdio_mmap_destroy, blosc2_stdio_mmap_open,
    blosc2_stdio_mmap_read, blosc2_stdio_mmap_size, blosc2_stdio_mmap_truncate,
    blosc2_stdio_mmap_write,
};
use super::types::{blosc2_io_cb, blosc2_stdio_file, blosc2_stdio_mmap};
use crate::io::{MmapIo, MmapMode, IO_FILESYSTEM};

struct Builtin(blosc2_io_cb);

// SAFETY: the table entries are immutable statics holding function pointers and static
// strings.
unsafe impl Sync for Builtin {}

static STDIO: Builtin = Builtin(blosc2_io_cb {
    id: 0,
    name: c"filesystem".as_ptr() as *mut c_char,
    is_allocation_necessary: true,
    open: Some(blosc2_stdio_open),
    close: Some(blosc2_stdio_close),
    size: Some(blosc2_stdio_size),
    write: Some(blosc2_stdio_write),
    read: Some(blosc2_stdio_read),
    truncate: Some(blosc2_stdio_truncate),
    destroy: Some(blosc2_stdio_destroy),
});

static MMAP: Builtin = Builtin(blosc2_io_cb {
    id: 1,
    name: c"filesystem_mmap".as_ptr() as *mut c_char,
    is_allocation_necessary: false,
    open: Some(blosc2_stdio_mmap_open),
    close: Some(blosc2_stdio_mmap_close),
    size: Some(blosc2_stdio_mmap_size),
    write: Some(blosc2_stdio_mmap_write),
    read: Some(blosc2_stdio_mmap_read),
    truncate: Some(blosc2_stdio_mmap_truncate),
    destroy: Some(blosc2_stdio_mmap_destroy),
});

/// The table entry of built-in backend `id` (callers must not modify it).
pub(crate) fn builtin_cb(id: u8) -> *mut blosc2_io_cb {
    let b = if id == IO_FILESYSTEM { &STDIO } else { &MMAP };
    (&b.0 as *const blosc2_io_cb).cast_mut()
}

/// The Rust mmap backend configured by a `blosc2_stdio_mmap` block (NULL: defaults).
///
/// # Safety
/// `params` must be NULL or a valid `blosc2_stdio_mmap`.
pub(crate) unsafe fn mmap_from_params(params: *mut c_void) -> MmapIo {
    // SAFETY: forwarded caller guarantee.
    let p = unsafe { params.cast::<blosc2_stdio_mmap>().as_ref() };
    let mut io = MmapIo::default();
    if let Some(p) = p {
        // SAFETY: `mode` is a NUL-terminated string per the struct's contract.
        io.mode = unsafe { c_str(p.mode) }.and_then(MmapMode::from_name);
        io.initial_mapping_size = p.initial_mapping_size as u64;
    }
    io
}

/// The open `FILE*` behind a stream; `None` for a NULL stream or a NULL `file`.
///
/// # Safety
/// `stream` must be NULL or point to a readable `blosc2_stdio_file`.
unsafe fn file_of(stream: *mut c_void) -> Option<*mut libc::FILE> {
    // SAFETY: forwarded caller guarantee.
    let s = unsafe { stream.cast::<blosc2_stdio_file>().as_ref() }?;
    (!s.file.is_null()).then_some(s.file)
}

/// `size * nitems` as a byte count, when both are non-negative, the product fits and the
/// range from `position` does not overflow.
fn byte_count(size: i64, nitems: i64, position: i64) -> Option<usize> {
    if size < 0 || nitems < 0 || position < 0 {
        return None;
    }
    let n = size.checked_mul(nitems)?;
    position.checked_add(n)?;
    usize::try_from(n).ok()
}

/// Opens `urlpath` with `fopen` semantics; a malloc'd `blosc2_stdio_file*`, or NULL.
///
/// # Safety
/// `urlpath` and `mode` must be NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_open(
    urlpath: *const c_char,
    mode: *const c_char,
    params: *mut c_void,
) -> *mut c_void {
    let _ = params;
    guard(std::ptr::null_mut(), || {
        if urlpath.is_null() || mode.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: both strings are valid per the caller.
        let f = unsafe { libc::fopen(urlpath, mode) };
        if f.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: a fresh block of the struct's size, checked before it is written.
        unsafe {
            let p =
                libc::malloc(std::mem::size_of::<blosc2_stdio_file>()).cast::<blosc2_stdio_file>();
            if p.is_null() {
                libc::fclose(f);
                return std::ptr::null_mut();
            }
            p.write(blosc2_stdio_file { file: f });
            p.cast()
        }
    })
}

/// Closes a stream from `blosc2_stdio_open` and frees it; the `fclose` result, or -1 for a
/// NULL stream or `file` (left as it is).
///
/// # Safety
/// `stream` must be NULL, a live stream from `blosc2_stdio_open`, or a stream whose `file`
/// is NULL.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_close(stream: *mut c_void) -> c_int {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(f) = (unsafe { file_of(stream) }) else {
            return -1;
        };
        // SAFETY: `f` is the open FILE* and `stream` the malloc'd block holding it.
        unsafe {
            let rc = libc::fclose(f);
            libc::free(stream);
            rc
        }
    })
}

/// The size of the stream in bytes (the file position is restored), or -1.
///
/// # Safety
/// `stream` must be NULL or a stream from `blosc2_stdio_open`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_size(stream: *mut c_void) -> i64 {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(f) = (unsafe { file_of(stream) }) else {
            return -1;
        };
        // SAFETY: `f` is an open FILE*.
        unsafe {
            let here = libc::ftell(f);
            if here < 0 {
                return -1;
            }
            let size = if libc::fseek(f, 0, libc::SEEK_END) == 0 {
                libc::ftell(f)
            } else {
                -1
            };
            if libc::fseek(f, here, libc::SEEK_SET) != 0 {
                return -1;
            }
            size
        }
    })
}

/// Writes `nitems` items of `size` bytes at `position`; the number of items written (0 for
/// bad arguments, a NULL stream or `file`, or a byte count that overflows).
///
/// # Safety
/// `ptr` must be readable for `size * nitems` bytes; `stream` NULL or a stream.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_write(
    ptr: *const c_void,
    size: i64,
    nitems: i64,
    position: i64,
    stream: *mut c_void,
) -> i64 {
    guard(0, || {
        if ptr.is_null() {
            return 0;
        }
        // SAFETY: forwarded caller guarantee.
        let (Some(f), Some(_)) = (
            unsafe { file_of(stream) },
            byte_count(size, nitems, position),
        ) else {
            return 0;
        };
        // SAFETY: `f` is open; `ptr` holds `size * nitems` bytes per the caller.
        unsafe {
            if libc::fseek(f, position, libc::SEEK_SET) != 0 {
                return 0;
            }
            libc::fwrite(ptr, size as usize, nitems as usize, f) as i64
        }
    })
}

/// Reads `nitems` items of `size` bytes at `position` into the buffer at `*ptr`; the items
/// read (0 for bad arguments, a NULL stream, `file` or buffer, or an overflowing count).
///
/// # Safety
/// `*ptr` must be writable for `size * nitems` bytes; `stream` NULL or a stream.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_read(
    ptr: *mut *mut c_void,
    size: i64,
    nitems: i64,
    position: i64,
    stream: *mut c_void,
) -> i64 {
    guard(0, || {
        if ptr.is_null() {
            return 0;
        }
        // SAFETY: forwarded caller guarantee.
        let (Some(f), Some(n)) = (
            unsafe { file_of(stream) },
            byte_count(size, nitems, position),
        ) else {
            return 0;
        };
        // SAFETY: as documented: `*ptr` is the caller's buffer of `n` bytes.
        unsafe {
            let dst = *ptr;
            if n > 0 && dst.is_null() {
                return 0;
            }
            if libc::fseek(f, position, libc::SEEK_SET) != 0 {
                return 0;
            }
            libc::fread(dst, size as usize, nitems as usize, f) as i64
        }
    })
}

/// Truncates (or extends) the stream to `size` bytes; 0, or -1 (also for a NULL stream or
/// `file` and a negative size).
///
/// # Safety
/// `stream` must be NULL or a stream from `blosc2_stdio_open`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_truncate(stream: *mut c_void, size: i64) -> c_int {
    guard(-1, || {
        if size < 0 {
            return -1;
        }
        // SAFETY: forwarded caller guarantee.
        let Some(f) = (unsafe { file_of(stream) }) else {
            return -1;
        };
        // SAFETY: `f` is open; its descriptor is valid while it is.
        unsafe {
            libc::fflush(f);
            if libc::ftruncate(libc::fileno(f), size) != 0 {
                return -1;
            }
        }
        0
    })
}

/// Releases backend parameters (nothing to do for this backend); 0.
#[no_mangle]
pub extern "C" fn blosc2_stdio_destroy(params: *mut c_void) -> c_int {
    let _ = params;
    0
}
