//! Helpers shared by the entry points: the panic boundary, pointer-to-slice conversion and
//! result-to-code conversion.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe, Location};

use crate::error::{Error, Result};

/// Runs `f`, returning `on_panic` if it panics, so no panic crosses the C boundary.
pub(crate) fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// The negative C code of `e`, traced under `BLOSC_TRACE` with the caller's location.
#[track_caller]
fn fail(e: Error) -> c_int {
    crate::diag::trace_error(e.message(), Location::caller());
    e.code()
}

/// The C return value of a size-or-error result: the size (saturated to `c_int`) or the
/// error's negative code.
#[track_caller]
pub(crate) fn code(result: Result<usize>) -> c_int {
    match result {
        Ok(n) => c_int::try_from(n).unwrap_or(c_int::MAX),
        Err(e) => fail(e),
    }
}

/// The `int` C return value of a 64-bit count-or-error result (counts saturated).
#[track_caller]
pub(crate) fn code32(result: Result<i64>) -> c_int {
    match result {
        Ok(n) => c_int::try_from(n).unwrap_or(c_int::MAX),
        Err(e) => fail(e),
    }
}

/// The `int64_t` C return value of a 64-bit count-or-error result.
#[track_caller]
pub(crate) fn code64(result: Result<i64>) -> i64 {
    match result {
        Ok(n) => n,
        Err(e) => i64::from(fail(e)),
    }
}

/// The C return value of a success-or-error result: 0 or the error's negative code.
#[track_caller]
pub(crate) fn status(result: Result<()>) -> c_int {
    match result {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// Borrows `len` bytes at `ptr`; `None` for a NULL pointer with a non-zero length.
///
/// # Safety
/// When `ptr` is not NULL it must be valid for reads of `len` bytes for `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const c_void, len: usize) -> Option<&'a [u8]> {
    if ptr.is_null() {
        return (len == 0).then_some(&[][..]);
    }
    // SAFETY: the caller guarantees `ptr` is valid for `len` bytes.
    Some(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Mutably borrows `len` bytes at `ptr`; `None` for a NULL pointer with a non-zero length.
///
/// # Safety
/// When `ptr` is not NULL it must be valid for writes of `len` bytes for `'a` and not
/// aliased by any other live reference.
pub(crate) unsafe fn bytes_mut<'a>(ptr: *mut c_void, len: usize) -> Option<&'a mut [u8]> {
    if ptr.is_null() {
        return (len == 0).then_some(&mut [][..]);
    }
    // SAFETY: the caller guarantees `ptr` is valid and exclusive for `len` bytes.
    Some(unsafe { std::slice::from_raw_parts_mut(ptr.cast::<u8>(), len) })
}

/// A size argument given as a C `int32_t`; negative sizes are treated as 0.
pub(crate) fn size(n: i32) -> usize {
    usize::try_from(n).unwrap_or(0)
}

/// Borrows a NUL-terminated C string as UTF-8 (lossy bytes are rejected).
///
/// # Safety
/// When `ptr` is not NULL it must point to a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn c_str<'a>(ptr: *const c_char) -> Option<&'a str> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees a valid NUL-terminated string.
    unsafe { CStr::from_ptr(ptr) }.to_str().ok()
}

/// The bytes of a NUL-terminated C string, UTF-8 or not (`None` for NULL).
///
/// # Safety
/// `ptr` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_bytes<'a>(ptr: *const c_char) -> Option<&'a [u8]> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees a valid NUL-terminated string.
    Some(unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// A copy of `s` in memory from libc `malloc`, which C callers release with `free`.
pub(crate) fn malloc_c_string(s: &str) -> *mut c_char {
    // SAFETY: malloc has no preconditions; the result is checked for NULL.
    let p = unsafe { libc::malloc(s.len() + 1) }.cast::<u8>();
    if p.is_null() {
        return p.cast();
    }
    // SAFETY: `p` was just allocated with room for `s.len() + 1` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        *p.add(s.len()) = 0;
    }
    p.cast()
}

/// The number of bytes a chunk occupies according to its own header, for entry points whose
/// C signature carries no source size (`blosc1_decompress`, `blosc1_getitem`).
///
/// # Safety
/// `src` must point to a chunk whose header is readable (at least 16 bytes).
pub(crate) unsafe fn trusted_chunk<'a>(src: *const c_void) -> std::result::Result<&'a [u8], Error> {
    // SAFETY: a chunk has at least the 16-byte header.
    let head = unsafe { bytes(src, 16) }.ok_or(Error::NullPointer)?;
    let cbytes = i32::from_le_bytes([head[12], head[13], head[14], head[15]]);
    let extended = head[2] & 0x05 == 0x05;
    let min = if extended { 32 } else { 16 };
    if cbytes < min {
        return Err(Error::InvalidHeader);
    }
    // SAFETY: the caller vouches for the chunk, which spans `cbytes` bytes by its header.
    unsafe { bytes(src, cbytes as usize) }.ok_or(Error::NullPointer)
}
