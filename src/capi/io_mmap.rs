//! `blosc2_stdio_mmap_*`: the memory-mapped backend as C callbacks. The stream is the
//! `blosc2_stdio_mmap` parameter block itself, as in the reference.

use std::ffi::{c_char, c_int, c_void, CStr};

use super::ffi::guard;
use super::types::blosc2_stdio_mmap;

/// Borrows the parameter block behind a stream pointer.
///
/// # Safety
/// `p` must be NULL or a valid, exclusively used `blosc2_stdio_mmap`.
unsafe fn block<'a>(p: *mut c_void) -> Option<&'a mut blosc2_stdio_mmap> {
    // SAFETY: forwarded caller guarantee.
    unsafe { p.cast::<blosc2_stdio_mmap>().as_mut() }
}

fn shared_writable(m: &blosc2_stdio_mmap) -> bool {
    m.map_flags == i64::from(libc::MAP_SHARED) && m.access_flags & i64::from(libc::PROT_WRITE) != 0
}

/// Maps `len` bytes of the file (or anonymous memory) with the block's flags.
///
/// # Safety
/// `m.fd` must be the open file of the block.
unsafe fn map(m: &blosc2_stdio_mmap, len: usize, anon: bool) -> *mut c_char {
    let (flags, fd) = if anon {
        (libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1)
    } else {
        (m.map_flags as c_int, m.fd)
    };
    // SAFETY: a fresh mapping; the result is checked against MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len.max(1),
            m.access_flags as c_int,
            flags,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}

/// Grows the mapping to hold at least `need` bytes.
///
/// # Safety
/// `m` must describe a live mapping opened by `blosc2_stdio_mmap_open`.
unsafe fn grow(m: &mut blosc2_stdio_mmap, need: usize) -> bool {
    if need <= m.mapping_size {
        return true;
    }
    let new_len = need.max(m.mapping_size.saturating_mul(2));
    if m.is_memory_only {
        // SAFETY: anonymous mapping, then a copy of the old bytes and the old unmapped.
        unsafe {
            let p = map(m, new_len, true);
            if p.is_null() {
                return false;
            }
            std::ptr::copy_nonoverlapping(m.addr, p, m.file_size.min(m.mapping_size));
            libc::munmap(m.addr.cast(), m.mapping_size.max(1));
            m.addr = p;
        }
    } else {
        // SAFETY: the file is extended before it is mapped again.
        unsafe {
            libc::munmap(m.addr.cast(), m.mapping_size.max(1));
            if libc::ftruncate(m.fd, new_len as i64) != 0 {
                m.addr = std::ptr::null_mut();
                return false;
            }
            m.addr = map(m, new_len, false);
            if m.addr.is_null() {
                return false;
            }
        }
    }
    m.mapping_size = new_len;
    true
}

/// Opens and maps `urlpath` in the mode of the `blosc2_stdio_mmap` block `params`
/// ("r", "r+", "w+" or "c"); returns `params`, or NULL.
///
/// # Safety
/// `urlpath` must be a NUL-terminated string and `params` a valid block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_open(
    urlpath: *const c_char,
    mode: *const c_char,
    params: *mut c_void,
) -> *mut c_void {
    let _ = mode;
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(params) }) else {
            return std::ptr::null_mut();
        };
        if !m.addr.is_null() {
            return params;
        }
        if urlpath.is_null() || m.mode.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: valid NUL-terminated strings per the caller.
        let mode = unsafe { CStr::from_ptr(m.mode) }.to_bytes();
        let (oflag, prot, flags, memory_only) = match mode {
            b"r" => (libc::O_RDONLY, libc::PROT_READ, libc::MAP_SHARED, false),
            b"r+" => (
                libc::O_RDWR,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                false,
            ),
            b"w+" => (
                libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                false,
            ),
            b"c" => (
                libc::O_RDONLY,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE,
                true,
            ),
            _ => return std::ptr::null_mut(),
        };
        // SAFETY: plain POSIX calls on a valid path; every result is checked.
        unsafe {
            let fd = libc::open(urlpath, oflag, 0o644);
            if fd < 0 {
                return std::ptr::null_mut();
            }
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) != 0 {
                libc::close(fd);
                return std::ptr::null_mut();
            }
            m.fd = fd;
            m.file_size = st.st_size as usize;
            m.access_flags = i64::from(prot);
            m.map_flags = i64::from(flags);
            m.is_memory_only = memory_only;
            m.mapping_size = if shared_writable(m) {
                m.file_size.max(m.initial_mapping_size)
            } else {
                m.file_size
            };
            if shared_writable(m)
                && m.mapping_size > m.file_size
                && libc::ftruncate(fd, m.mapping_size as i64) != 0
            {
                libc::close(fd);
                return std::ptr::null_mut();
            }
            m.addr = map(m, m.mapping_size, false);
            if m.addr.is_null() {
                libc::close(fd);
                m.fd = -1;
                return std::ptr::null_mut();
            }
            m.urlpath = libc::strdup(urlpath);
        }
        params
    })
}

/// Closes a stream (the mapping stays until `blosc2_stdio_mmap_destroy`); 0.
#[no_mangle]
pub extern "C" fn blosc2_stdio_mmap_close(stream: *mut c_void) -> c_int {
    let _ = stream;
    0
}

/// The size of the mapped file, or -1.
///
/// # Safety
/// `stream` must be NULL or an open block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_size(stream: *mut c_void) -> i64 {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        unsafe { block(stream) }.map_or(-1, |m| m.file_size as i64)
    })
}

/// Writes `nitems` items of `size` bytes at `position`; the items written (0 on error).
///
/// # Safety
/// `ptr` must be readable for `size * nitems` bytes and `stream` an open block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_write(
    ptr: *const c_void,
    size: i64,
    nitems: i64,
    position: i64,
    stream: *mut c_void,
) -> i64 {
    guard(0, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(stream) }) else {
            return 0;
        };
        let Some(n) = size
            .checked_mul(nitems)
            .filter(|&n| n >= 0 && position >= 0 && !ptr.is_null())
        else {
            return 0;
        };
        if m.access_flags & i64::from(libc::PROT_WRITE) == 0 {
            return 0;
        }
        let end = (position + n) as usize;
        // SAFETY: the mapping is grown to cover `end`, then `n` bytes are copied in.
        unsafe {
            if !grow(m, end) {
                return 0;
            }
            std::ptr::copy_nonoverlapping(
                ptr.cast::<c_char>(),
                m.addr.add(position as usize),
                n as usize,
            );
        }
        m.file_size = m.file_size.max(end);
        nitems
    })
}

/// Points `*ptr` at `nitems` items of `size` bytes at `position` inside the mapping;
/// the items available (0 on error).
///
/// # Safety
/// `ptr` must be writable and `stream` an open block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_read(
    ptr: *mut *mut c_void,
    size: i64,
    nitems: i64,
    position: i64,
    stream: *mut c_void,
) -> i64 {
    guard(0, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(stream) }) else {
            return 0;
        };
        if ptr.is_null()
            || size <= 0
            || nitems < 0
            || position < 0
            || position as usize > m.file_size
        {
            return 0;
        }
        let avail = (m.file_size - position as usize) as i64 / size;
        // SAFETY: `position` lies inside the mapped file.
        unsafe { *ptr = m.addr.add(position as usize).cast() };
        nitems.min(avail)
    })
}

/// Sets the file size; 0 or -1.
///
/// # Safety
/// `stream` must be an open block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_truncate(stream: *mut c_void, size: i64) -> c_int {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(stream) }) else {
            return -1;
        };
        if size < 0 || m.access_flags & i64::from(libc::PROT_WRITE) == 0 {
            return -1;
        }
        // SAFETY: the block is open.
        if !unsafe { grow(m, size as usize) } {
            return -1;
        }
        m.file_size = size as usize;
        0
    })
}

/// Unmaps and closes the file (trimming it to its size), freeing the block when it was
/// heap-allocated (`needs_free`); 0 or -1.
///
/// # Safety
/// `params` must be NULL or a block from `blosc2_stdio_mmap_open`, unused afterwards.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_destroy(params: *mut c_void) -> c_int {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(params) }) else {
            return -1;
        };
        let mut rc = 0;
        // SAFETY: releasing what `blosc2_stdio_mmap_open` acquired.
        unsafe {
            if !m.addr.is_null() {
                if shared_writable(m) {
                    libc::msync(m.addr.cast(), m.mapping_size.max(1), libc::MS_SYNC);
                }
                if libc::munmap(m.addr.cast(), m.mapping_size.max(1)) != 0 {
                    rc = -1;
                }
                m.addr = std::ptr::null_mut();
            }
            if m.fd >= 0 {
                if shared_writable(m) && libc::ftruncate(m.fd, m.file_size as i64) != 0 {
                    rc = -1;
                }
                libc::close(m.fd);
                m.fd = -1;
            }
            if !m.urlpath.is_null() {
                libc::free(m.urlpath.cast());
                m.urlpath = std::ptr::null_mut();
            }
            if m.needs_free {
                libc::free(params);
            }
        }
        rc
    })
}
