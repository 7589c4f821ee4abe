//! The global (non-context) API: init/destroy, `blosc1_*` and `blosc2_compress` & co.

use std::ffi::{c_char, c_int, c_void};

use super::ffi::{bytes, bytes_mut, c_str, code, guard, size, trusted_chunk};
use crate::constants::MAX_BUFFERSIZE;
use crate::error::Error;
use crate::global;

/// Initialises the library (idempotent).
#[no_mangle]
pub extern "C" fn blosc2_init() {
    guard((), || {
        global::init();
        super::plugins::dynload::install();
    })
}

/// Releases the global state (idempotent); later global calls initialise it again.
#[no_mangle]
pub extern "C" fn blosc2_destroy() {
    guard((), global::destroy)
}

/// Releases the threads of the global context; -1 when the library is not initialised.
#[no_mangle]
pub extern "C" fn blosc2_free_resources() -> c_int {
    guard(Error::Failure.code(), global::free_resources)
}

/// Compresses `srcsize` bytes with the global settings; returns the chunk size, 0 when it
/// does not fit in `destsize`, or a negative error code.
///
/// # Safety
/// `src` must be readable for `srcsize` bytes and `dest` writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_compress(
    clevel: c_int,
    doshuffle: c_int,
    typesize: i32,
    src: *const c_void,
    srcsize: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        if srcsize < 0 {
            return Error::InvalidParam.code();
        }
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, size(srcsize)) }, unsafe {
            bytes_mut(dest, size(destsize))
        }) else {
            return Error::NullPointer.code();
        };
        code(global::compress(clevel, doshuffle, typesize, src, dst))
    })
}

/// Decompresses a chunk with the global context; returns the number of bytes written.
///
/// # Safety
/// `src` must be readable for `srcsize` bytes and `dest` writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_decompress(
    src: *const c_void,
    srcsize: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, size(srcsize)) }, unsafe {
            bytes_mut(dest, size(destsize))
        }) else {
            return Error::NullPointer.code();
        };
        code(global::decompress(src, dst))
    })
}

/// Extracts `nitems` items starting at `start` (in units of the chunk's typesize).
///
/// # Safety
/// `src` must be readable for `srcsize` bytes and `dest` writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_getitem(
    src: *const c_void,
    srcsize: i32,
    start: c_int,
    nitems: c_int,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, size(srcsize)) }, unsafe {
            bytes_mut(dest, size(destsize))
        }) else {
            return Error::NullPointer.code();
        };
        code(global::getitem(src, start, nitems, dst))
    })
}

/// Blosc1 flavour of [`blosc2_compress`] with `size_t` sizes.
///
/// # Safety
/// `src` must be readable for `nbytes` bytes and `dest` writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc1_compress(
    clevel: c_int,
    doshuffle: c_int,
    typesize: usize,
    nbytes: usize,
    src: *const c_void,
    dest: *mut c_void,
    destsize: usize,
) -> c_int {
    guard(Error::Failure.code(), || {
        if nbytes as u64 > MAX_BUFFERSIZE as u64 {
            return Error::MaxBufsizeExceeded.code();
        }
        let Ok(typesize) = i32::try_from(typesize) else {
            return Error::InvalidParam.code();
        };
        let destsize = destsize.min(i32::MAX as usize);
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, nbytes) }, unsafe {
            bytes_mut(dest, destsize)
        }) else {
            return Error::NullPointer.code();
        };
        code(global::compress(clevel, doshuffle, typesize, src, dst))
    })
}

/// Blosc1 flavour of [`blosc2_decompress`]: the source size is taken from the chunk header.
///
/// # Safety
/// `src` must point to a complete chunk and `dest` be writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc1_decompress(
    src: *const c_void,
    dest: *mut c_void,
    destsize: usize,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a complete chunk at `src`.
        let src = match unsafe { trusted_chunk(src) } {
            Ok(s) => s,
            Err(e) => return e.code(),
        };
        let destsize = destsize.min(i32::MAX as usize);
        // SAFETY: the caller guarantees `destsize` writable bytes.
        let Some(dst) = (unsafe { bytes_mut(dest, destsize) }) else {
            return Error::NullPointer.code();
        };
        code(global::decompress(src, dst))
    })
}

/// Blosc1 flavour of [`blosc2_getitem`]: sizes are taken from the chunk header and `dest`
/// must hold `nitems` items.
///
/// # Safety
/// `src` must point to a complete chunk and `dest` be writable for `nitems` items.
#[no_mangle]
pub unsafe extern "C" fn blosc1_getitem(
    src: *const c_void,
    start: c_int,
    nitems: c_int,
    dest: *mut c_void,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a complete chunk at `src`.
        let src = match unsafe { trusted_chunk(src) } {
            Ok(s) => s,
            Err(e) => return e.code(),
        };
        let typesize = usize::from(src[3]);
        let len = usize::try_from(nitems)
            .unwrap_or(0)
            .saturating_mul(typesize)
            .min(i32::MAX as usize);
        // SAFETY: the caller guarantees room for `nitems` items.
        let Some(dst) = (unsafe { bytes_mut(dest, len) }) else {
            return Error::NullPointer.code();
        };
        code(global::getitem(src, start, nitems, dst))
    })
}

/// Name of the global compressor; NULL when it was invalidated by an unknown name.
#[no_mangle]
pub extern "C" fn blosc1_get_compressor() -> *const c_char {
    guard(std::ptr::null(), || {
        global::compressor_name().map_or(std::ptr::null(), super::names::static_c_name)
    })
}

/// Sets the global compressor by name; returns its code, or -1 for unknown names.
///
/// # Safety
/// `compname` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc1_set_compressor(compname: *const c_char) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a valid string or NULL.
        global::set_compressor(unsafe { c_str(compname) }.unwrap_or(""))
    })
}

/// The global forced blocksize (0 = automatic).
#[no_mangle]
pub extern "C" fn blosc1_get_blocksize() -> c_int {
    guard(0, || global::settings().blocksize)
}

/// Forces the global blocksize (0 = automatic).
#[no_mangle]
pub extern "C" fn blosc1_set_blocksize(blocksize: usize) {
    guard((), || global::set_blocksize(blocksize as i32))
}

/// Sets the global split mode.
#[no_mangle]
pub extern "C" fn blosc1_set_splitmode(splitmode: c_int) {
    guard((), || global::set_splitmode(splitmode))
}

/// The global number of threads.
#[no_mangle]
pub extern "C" fn blosc2_get_nthreads() -> i16 {
    guard(1, global::nthreads)
}

/// Sets the global number of threads; returns the previous value or -12.
#[no_mangle]
pub extern "C" fn blosc2_set_nthreads(nthreads: i16) -> i16 {
    guard(Error::Failure.code() as i16, || {
        global::set_nthreads(nthreads)
    })
}

/// Turns the global DELTA filter on (non-zero) or off.
#[no_mangle]
pub extern "C" fn blosc2_set_delta(dodelta: c_int) {
    guard((), || global::set_delta(dodelta != 0))
}
