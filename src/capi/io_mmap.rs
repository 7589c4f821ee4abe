//! `blosc2_stdio_mmap_*`: the memory-mapped backend as C callbacks. The stream is the
//! `blosc2_stdio_mmap` parameter block itself, as in the reference. Every size and
//! position is validated with checked arithmetic before the mapping is touched, and a
//! failed call leaves the block (mapping, file and sizes) as it was.

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

/// How a mode string opens and maps the file.
struct ModeSpec {
    fopen_mode: &'static CStr,
    prot: c_int,
    flags: c_int,
    memory_only: bool,
    use_initial_size: bool,
}

fn mode_spec(mode: &[u8]) -> Option<ModeSpec> {
    let rw = libc::PROT_READ | libc::PROT_WRITE;
    let (fopen_mode, prot, flags, memory_only, use_initial_size) = match mode {
        b"r" => (c"rb", libc::PROT_READ, libc::MAP_SHARED, false, false),
        b"r+" => (c"rb+", rw, libc::MAP_SHARED, false, true),
        b"w+" => (c"wb+", rw, libc::MAP_SHARED, false, true),
        b"c" => (c"rb", rw, libc::MAP_PRIVATE, true, true),
        _ => return None,
    };
    Some(ModeSpec {
        fopen_mode,
        prot,
        flags,
        memory_only,
        use_initial_size,
    })
}

fn writable(m: &blosc2_stdio_mmap) -> bool {
    m.access_flags >= 0 && m.access_flags & i64::from(libc::PROT_WRITE) != 0
}

/// `position + size * nitems` as byte offsets `(start, end)`, when all are non-negative
/// and nothing overflows.
fn byte_range(size: i64, nitems: i64, position: i64) -> Option<(usize, usize)> {
    if size < 0 || nitems < 0 || position < 0 {
        return None;
    }
    let end = position.checked_add(size.checked_mul(nitems)?)?;
    Some((usize::try_from(position).ok()?, usize::try_from(end).ok()?))
}

/// Maps the block's file (`len` bytes), or for copy-on-write blocks anonymous memory
/// filled with the file's bytes, so pages past the end of the file never fault.
///
/// # Safety
/// `m.fd` must be the open descriptor of the block's file.
unsafe fn map_file(m: &blosc2_stdio_mmap, len: usize) -> *mut c_char {
    let (flags, fd) = if m.is_memory_only {
        (libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1)
    } else {
        (m.map_flags as c_int, m.fd)
    };
    // SAFETY: a fresh mapping of `len` bytes; the result is checked against MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            m.access_flags as c_int,
            flags,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    if m.is_memory_only {
        let mut done = 0usize;
        while done < m.file_size.min(len) {
            // SAFETY: the anonymous mapping holds `len` writable bytes.
            let n = unsafe {
                libc::pread(
                    m.fd,
                    p.cast::<u8>().add(done).cast(),
                    m.file_size.min(len) - done,
                    done as libc::off_t,
                )
            };
            if n <= 0 {
                // SAFETY: unmapping the mapping made above.
                unsafe { libc::munmap(p, len) };
                return std::ptr::null_mut();
            }
            done += n as usize;
        }
    }
    p.cast()
}

/// Moves the mapping to `new_len` bytes (`mremap`); false, with the old mapping intact,
/// when that fails.
///
/// # Safety
/// `m` must describe a live mapping.
unsafe fn remap(m: &mut blosc2_stdio_mmap, new_len: usize) -> bool {
    // SAFETY: `addr`/`mapping_size` describe the live mapping; on failure it is unchanged.
    let p = unsafe { libc::mremap(m.addr.cast(), m.mapping_size, new_len, libc::MREMAP_MAYMOVE) };
    if p == libc::MAP_FAILED {
        return false;
    }
    m.addr = p.cast();
    m.mapping_size = new_len;
    true
}

/// Opens and maps `urlpath` in the mode of the `blosc2_stdio_mmap` block `params`
/// ("r", "r+", "w+" or "c"); returns `params` (also when it already maps the same path),
/// or NULL. The block's `mode` is cleared once opened, as in the reference.
///
/// # Safety
/// `urlpath` must be NULL or a NUL-terminated string and `params` NULL or a valid block
/// whose `mode` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_open(
    urlpath: *const c_char,
    mode: *const c_char,
    params: *mut c_void,
) -> *mut c_void {
    let _ = mode;
    guard(std::ptr::null_mut(), || {
        if urlpath.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(params) }) else {
            return std::ptr::null_mut();
        };
        // SAFETY: NUL-terminated per the caller.
        let path = unsafe { CStr::from_ptr(urlpath) };
        if !m.addr.is_null() {
            // SAFETY: an open block holds the malloc'd copy of its path.
            let same = !m.urlpath.is_null() && unsafe { CStr::from_ptr(m.urlpath) } == path;
            return if same { params } else { std::ptr::null_mut() };
        }
        if m.mode.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: NUL-terminated per the caller.
        let Some(spec) = mode_spec(unsafe { CStr::from_ptr(m.mode) }.to_bytes()) else {
            return std::ptr::null_mut();
        };
        // SAFETY: plain C calls on valid strings; every result is checked and everything
        // acquired is released on failure.
        unsafe {
            let file = libc::fopen(urlpath, spec.fopen_mode.as_ptr());
            if file.is_null() {
                return std::ptr::null_mut();
            }
            let size = if libc::fseek(file, 0, libc::SEEK_END) == 0 {
                libc::ftell(file)
            } else {
                -1
            };
            let Ok(file_size) = usize::try_from(size) else {
                libc::fclose(file);
                return std::ptr::null_mut();
            };
            libc::rewind(file);
            let copy = libc::strdup(urlpath);
            if copy.is_null() {
                libc::fclose(file);
                return std::ptr::null_mut();
            }
            let mut mapping_size = if spec.use_initial_size {
                m.initial_mapping_size
            } else {
                file_size
            };
            mapping_size = mapping_size.max(file_size).max(1);
            let mut next = *m;
            next.file = file;
            next.fd = libc::fileno(file);
            next.file_size = file_size;
            next.mapping_size = mapping_size;
            next.access_flags = i64::from(spec.prot);
            next.map_flags = i64::from(spec.flags);
            next.is_memory_only = spec.memory_only;
            next.addr = map_file(&next, mapping_size);
            if next.addr.is_null() {
                libc::free(copy.cast());
                libc::fclose(file);
                return std::ptr::null_mut();
            }
            next.urlpath = copy;
            next.mode = std::ptr::null();
            *m = next;
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

/// The size of the mapped file, or -1 for a NULL stream.
///
/// # Safety
/// `stream` must be NULL or a valid block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_size(stream: *mut c_void) -> i64 {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        unsafe { block(stream) }.map_or(-1, |m| i64::try_from(m.file_size).unwrap_or(i64::MAX))
    })
}

/// Writes `nitems` items of `size` bytes at `position`, growing the file and the mapping
/// (to twice the new size) as needed; `nitems`, or 0 when nothing was written (bad
/// arguments, a zero byte count, an overflowing range, a read-only or unopened block, or a
/// failed resize).
///
/// # Safety
/// `ptr` must be readable for `size * nitems` bytes and `stream` NULL or a valid block.
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
        let Some((start, end)) = byte_range(size, nitems, position) else {
            return 0;
        };
        if ptr.is_null() || start == end || m.addr.is_null() || !writable(m) {
            return 0;
        }
        let new_size = end.max(m.file_size);
        let grows_file = new_size > m.file_size && !m.is_memory_only;
        // SAFETY: the block is open; the file is extended before the mapping may cover
        // it, and restored when the mapping cannot follow.
        unsafe {
            if grows_file && libc::ftruncate(m.fd, new_size as libc::off_t) != 0 {
                return 0;
            }
            if new_size > m.mapping_size && !remap(m, new_size.checked_mul(2).unwrap_or(new_size)) {
                if grows_file {
                    libc::ftruncate(m.fd, m.file_size as libc::off_t);
                }
                return 0;
            }
            std::ptr::copy_nonoverlapping(ptr.cast::<c_char>(), m.addr.add(start), end - start);
        }
        m.file_size = new_size;
        nitems
    })
}

/// Points `*ptr` at `nitems` items of `size` bytes at `position` inside the mapping and
/// returns `nitems`; on any rejection (bad arguments, an overflowing range, a range past
/// the end of the file) sets `*ptr` to NULL and returns 0. A NULL `ptr` returns 0.
///
/// # Safety
/// `ptr` must be NULL or writable and `stream` NULL or a valid block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_read(
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
        // SAFETY: `ptr` is writable per the caller.
        unsafe { *ptr = std::ptr::null_mut() };
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(stream) }) else {
            return 0;
        };
        let Some((start, end)) = byte_range(size, nitems, position) else {
            return 0;
        };
        if end > m.file_size || m.addr.is_null() {
            return 0;
        }
        // A truncation may have grown the file past the mapping.
        // SAFETY: the block is open.
        if end > m.mapping_size && !unsafe { remap(m, m.file_size) } {
            return 0;
        }
        // SAFETY: `start..end` lies inside the mapping; `ptr` is writable.
        unsafe { *ptr = m.addr.add(start).cast() };
        nitems
    })
}

/// Sets the file size (the file itself only outside copy-on-write mode); 0, or -1 for a
/// NULL stream, a negative size or a failed resize.
///
/// # Safety
/// `stream` must be NULL or a valid block.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_truncate(stream: *mut c_void, size: i64) -> c_int {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(stream) }) else {
            return -1;
        };
        let Ok(target) = usize::try_from(size) else {
            return -1;
        };
        if target == m.file_size {
            return 0;
        }
        if m.is_memory_only {
            // Bytes past the end stay zero, as a shared file mapping keeps them, so a later
            // growth shows zeros and not what was cut off.
            let upto = m.file_size.min(m.mapping_size);
            if target < upto && !m.addr.is_null() {
                // SAFETY: `target..upto` lies inside the writable anonymous mapping.
                unsafe { std::ptr::write_bytes(m.addr.add(target), 0, upto - target) };
            }
        } else if m.file.is_null()
            // SAFETY: `fd` is the open descriptor of the block's file.
            || unsafe { libc::ftruncate(m.fd, size as libc::off_t) } != 0
        {
            return -1;
        }
        m.file_size = target;
        0
    })
}

/// Unmaps and closes the file (after syncing a writable shared mapping), frees the path
/// copy and, when `needs_free` is set, the block; 0, or -1 for NULL, a block that was never
/// opened, or a failed step.
///
/// # Safety
/// `params` must be NULL or a valid block, unused afterwards when `needs_free` is set.
#[no_mangle]
pub unsafe extern "C" fn blosc2_stdio_mmap_destroy(params: *mut c_void) -> c_int {
    guard(-1, || {
        // SAFETY: forwarded caller guarantee.
        let Some(m) = (unsafe { block(params) }) else {
            return -1;
        };
        let mut rc = 0;
        let shared_rw = writable(m) && !m.is_memory_only;
        // SAFETY: releasing what `blosc2_stdio_mmap_open` acquired, each once.
        unsafe {
            if m.addr.is_null() || m.file.is_null() {
                rc = -1;
            } else {
                let synced = m.file_size.min(m.mapping_size);
                if shared_rw && libc::msync(m.addr.cast(), synced, libc::MS_SYNC) != 0 {
                    rc = -1;
                }
                if libc::munmap(m.addr.cast(), m.mapping_size) != 0 {
                    rc = -1;
                }
            }
            if !m.file.is_null() && libc::fclose(m.file) != 0 {
                rc = -1;
            }
            m.file = std::ptr::null_mut();
            m.addr = std::ptr::null_mut();
            libc::free(m.urlpath.cast());
            m.urlpath = std::ptr::null_mut();
            if m.needs_free {
                libc::free(params);
            }
        }
        rc
    })
}

/// Releases the mmap parameter block of a super-chunk being freed: the frame used the Rust
/// backend, so a block the C callbacks never opened is only freed (when `needs_free`);
/// an opened one is destroyed. 0 (also for NULL), or the destroy result.
///
/// # Safety
/// As for [`blosc2_stdio_mmap_destroy`].
pub(crate) unsafe fn release_params(params: *mut c_void) -> c_int {
    // SAFETY: forwarded caller guarantee.
    match unsafe { block(params) } {
        None => 0,
        Some(m) if m.addr.is_null() => {
            if m.needs_free {
                // SAFETY: a heap block handed over with `needs_free`; no path copy is held.
                unsafe { libc::free(params) };
            }
            0
        }
        // SAFETY: forwarded caller guarantee.
        Some(_) => unsafe { blosc2_stdio_mmap_destroy(params) },
    }
}
