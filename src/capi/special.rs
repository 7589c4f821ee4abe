//! Special-value chunks: `blosc2_chunk_zeros`, `_nans`, `_uninit` and `_repeatval`.

use std::ffi::{c_int, c_void};

use super::context::cctx_cparams;
use super::ffi::{bytes, bytes_mut, code, guard, size};
use super::types::blosc2_cparams;
use crate::chunk::special::build;
use crate::constants::{SPECIAL_NAN, SPECIAL_UNINIT, SPECIAL_VALUE, SPECIAL_ZERO};
use crate::error::Error;

/// Writes a header-only chunk of kind `kind`.
///
/// # Safety
/// `dest` must be writable for `destsize` bytes.
unsafe fn write_special(
    kind: u8,
    cparams: &blosc2_cparams,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees the buffer size.
        let Some(dst) = (unsafe { bytes_mut(dest, size(destsize)) }) else {
            return Error::NullPointer.code();
        };
        // The reference builds these chunks through a compression context.
        let Some((core, _)) = cctx_cparams(cparams) else {
            return Error::NullPointer.code();
        };
        code(build(&core, nbytes, kind, &[], dst))
    })
}

/// Writes a 32-byte chunk standing for `nbytes` zero bytes; returns 32 or an error.
///
/// # Safety
/// `dest` must be writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_chunk_zeros(
    cparams: blosc2_cparams,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { write_special(SPECIAL_ZERO, &cparams, nbytes, dest, destsize) }
}

/// Writes a 32-byte chunk standing for `nbytes` bytes of NaNs; returns 32 or an error.
///
/// # Safety
/// `dest` must be writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_chunk_nans(
    cparams: blosc2_cparams,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { write_special(SPECIAL_NAN, &cparams, nbytes, dest, destsize) }
}

/// Writes a 32-byte chunk standing for `nbytes` uninitialised bytes; returns 32 or an error.
///
/// # Safety
/// `dest` must be writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_chunk_uninit(
    cparams: blosc2_cparams,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { write_special(SPECIAL_UNINIT, &cparams, nbytes, dest, destsize) }
}

/// Writes a chunk repeating the `typesize`-byte value at `repeatval` for `nbytes` bytes;
/// returns 32 + typesize or an error.
///
/// # Safety
/// `dest` must be writable for `destsize` bytes and `repeatval` readable for typesize bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_chunk_repeatval(
    cparams: blosc2_cparams,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
    repeatval: *const c_void,
) -> c_int {
    guard(Error::Failure.code(), || {
        let width = usize::try_from(cparams.typesize).unwrap_or(0);
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(dst), Some(value)) = (unsafe { bytes_mut(dest, size(destsize)) }, unsafe {
            bytes(repeatval, width)
        }) else {
            return Error::NullPointer.code();
        };
        let Some((core, _)) = cctx_cparams(&cparams) else {
            return Error::NullPointer.code();
        };
        code(build(&core, nbytes, SPECIAL_VALUE, value, dst))
    })
}
