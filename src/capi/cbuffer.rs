//! Header queries on compressed buffers: `blosc1_cbuffer_*` and `blosc2_cbuffer_*`.

use std::ffi::{c_char, c_int, c_void};

use super::ffi::{bytes, guard};
use super::names::{interned_c_name, static_c_name};
use crate::cbuffer::{basic_info, validate, BasicInfo};
use crate::error::Error;
use crate::registry;

/// Reads the 16-byte header at `cbuffer`.
///
/// # Safety
/// `cbuffer` must be NULL or readable for 16 bytes.
unsafe fn info(cbuffer: *const c_void) -> Option<BasicInfo> {
    // SAFETY: the caller guarantees 16 readable bytes.
    unsafe { bytes(cbuffer, 16) }.and_then(|h| basic_info(h).ok())
}

/// Writes `value` through `ptr` when it is not NULL.
///
/// # Safety
/// `ptr` must be NULL or valid for writing a `T`.
unsafe fn put<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: the caller guarantees `ptr` is writable.
        unsafe { ptr.write(value) };
    }
}

/// Uncompressed, compressed and block sizes of a chunk (all 0 for an invalid header).
///
/// # Safety
/// `cbuffer` must be readable for 16 bytes; the out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc1_cbuffer_sizes(
    cbuffer: *const c_void,
    nbytes: *mut usize,
    cbytes: *mut usize,
    blocksize: *mut usize,
) {
    guard((), || {
        // SAFETY: forwarded caller guarantees.
        let i = unsafe { info(cbuffer) };
        let get = |f: fn(&BasicInfo) -> i32| i.as_ref().map_or(0, |i| f(i) as u32 as usize);
        // SAFETY: the caller guarantees the out-pointers.
        unsafe {
            put(nbytes, get(|i| i.nbytes));
            put(cbytes, get(|i| i.cbytes));
            put(blocksize, get(|i| i.blocksize));
        }
    })
}

/// Checks a chunk header against the known compressed size; 0 and `*nbytes` on success.
///
/// # Safety
/// `cbuffer` must be readable for `min(cbytes, 16)` bytes; `nbytes` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc1_cbuffer_validate(
    cbuffer: *const c_void,
    cbytes: usize,
    nbytes: *mut usize,
) -> c_int {
    guard(Error::Failure.code(), || {
        if cbytes < 16 {
            // SAFETY: the caller guarantees `nbytes`.
            unsafe { put(nbytes, 0) };
            return Error::WriteBuffer.code();
        }
        // SAFETY: the caller guarantees the readable length.
        let header = unsafe { bytes(cbuffer, 16) };
        let result = header
            .ok_or(Error::NullPointer)
            .and_then(|h| validate(h, cbytes));
        // SAFETY: the caller guarantees `nbytes`.
        unsafe { put(nbytes, *result.as_ref().unwrap_or(&0)) };
        result.map_or_else(Error::code, |_| 0)
    })
}

/// Typesize and flags byte of a chunk (both 0 for an invalid header).
///
/// # Safety
/// `cbuffer` must be readable for 16 bytes; the out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc1_cbuffer_metainfo(
    cbuffer: *const c_void,
    typesize: *mut usize,
    flags: *mut c_int,
) {
    guard((), || {
        // SAFETY: forwarded caller guarantees.
        let i = unsafe { info(cbuffer) };
        // SAFETY: the caller guarantees the out-pointers.
        unsafe {
            put(typesize, i.map_or(0, |i| usize::from(i.typesize)));
            put(flags, i.map_or(0, |i| c_int::from(i.flags)));
        }
    })
}

/// Uncompressed, compressed and block sizes of a chunk; 0 or a negative header error.
///
/// # Safety
/// `cbuffer` must be readable for 16 bytes; the out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_cbuffer_sizes(
    cbuffer: *const c_void,
    nbytes: *mut i32,
    cbytes: *mut i32,
    blocksize: *mut i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees 16 readable bytes.
        let result = unsafe { bytes(cbuffer, 16) }
            .ok_or(Error::NullPointer)
            .and_then(basic_info);
        let i = result.as_ref().ok();
        // SAFETY: the caller guarantees the out-pointers.
        unsafe {
            put(nbytes, i.map_or(0, |i| i.nbytes));
            put(cbytes, i.map_or(0, |i| i.cbytes));
            put(blocksize, i.map_or(0, |i| i.blocksize));
        }
        result.map_or_else(Error::code, |_| 0)
    })
}

/// Format version and codec format version of a chunk (both 0 for an invalid header).
///
/// # Safety
/// `cbuffer` must be readable for 16 bytes; the out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_cbuffer_versions(
    cbuffer: *const c_void,
    version: *mut c_int,
    versionlz: *mut c_int,
) {
    guard((), || {
        // SAFETY: forwarded caller guarantees.
        let i = unsafe { info(cbuffer) };
        // SAFETY: the caller guarantees the out-pointers.
        unsafe {
            put(version, i.map_or(0, |i| c_int::from(i.version)));
            put(versionlz, i.map_or(0, |i| c_int::from(i.versionlz)));
        }
    })
}

/// Name of the library that compressed a chunk; NULL for invalid headers. For other codec
/// formats (user codecs) it is the name of the first registered codec whose library code
/// equals the format, as in the reference (usually none).
///
/// # Safety
/// `cbuffer` must be readable for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_cbuffer_complib(cbuffer: *const c_void) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY: forwarded caller guarantees.
        let Some(format) = (unsafe { info(cbuffer) }).map(|i| i.flags >> 5) else {
            return std::ptr::null();
        };
        match registry::complib_name_of_format(format) {
            Some(name) => static_c_name(name),
            None => registry::plugins::codec_of_complib(format)
                .map_or(std::ptr::null(), |c| interned_c_name(&c.name)),
        }
    })
}
