//! Metalayers and variable-length metalayers of `blosc2_schunk`.

use std::ffi::{c_char, c_int};

use super::context::core_cparams;
use super::ffi::code;
use super::ffi::{bytes, c_bytes, guard};
use super::schunk::with_schunk;
use super::schunk_ops::malloc_copy;
use super::types::{blosc2_cparams, blosc2_schunk};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The name and content arguments of the metalayer setters.
///
/// # Safety
/// `name` must be NULL or NUL-terminated and `content` readable for `len` bytes.
unsafe fn args<'a>(
    name: *const c_char,
    content: *const u8,
    len: i32,
) -> Result<(&'a [u8], &'a [u8])> {
    // SAFETY: forwarded caller guarantees.
    let name = unsafe { c_bytes(name) }.ok_or(Error::InvalidParam)?;
    let len = usize::try_from(len).map_err(|_| Error::InvalidParam)?;
    // SAFETY: forwarded caller guarantees.
    let content = unsafe { bytes(content.cast(), len) }.ok_or(Error::InvalidParam)?;
    Ok((name, content))
}

/// Runs a metalayer setter with the checked name and content arguments, refreshes the
/// metalayer mirrors of the C struct and returns the setter's index or error code.
///
/// # Safety
/// `schunk` must be live, `name` NULL or NUL-terminated and `content` readable for `len`
/// bytes.
unsafe fn set_meta(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *const u8,
    len: i32,
    setter: impl FnOnce(&mut SuperChunk, &[u8], &[u8]) -> Result<usize>,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    code(unsafe {
        with_schunk(schunk, |b| {
            let (n, c) = args(name, content, len)?;
            let r = setter(&mut b.core, n, c);
            b.sync_meta();
            r
        })
    })
}

/// Adds a fixed-length metalayer; returns its index.
///
/// # Safety
/// `schunk` must be live, `name` NUL-terminated and `content` readable for `content_len`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_meta_add(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *mut u8,
    content_len: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            set_meta(schunk, name, content, content_len, |core, n, c| {
                core.meta_add(n, c)
            })
        }
    })
}

/// Replaces the content of a fixed-length metalayer; returns its index.
///
/// # Safety
/// As for `blosc2_meta_add`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_meta_update(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *mut u8,
    content_len: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            set_meta(schunk, name, content, content_len, |core, n, c| {
                core.meta_update(n, c)
            })
        }
    })
}

/// Index of a variable-length metalayer; `-16` when absent.
///
/// # Safety
/// `schunk` must be live and `name` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_exists(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code(unsafe {
            with_schunk(schunk, |b| {
                let n = c_bytes(name).ok_or(Error::InvalidParam)?;
                b.core.vlmeta_exists(n)
            })
        })
    })
}

/// The core parameters of an optional C `blosc2_cparams`.
///
/// # Safety
/// `cparams` must be NULL or valid.
unsafe fn opt_cparams(cparams: *const blosc2_cparams) -> Option<crate::context::CParams> {
    // SAFETY: forwarded caller guarantee.
    unsafe { cparams.as_ref() }.map(core_cparams)
}

/// Adds a variable-length metalayer (compressed with `cparams`, defaults when NULL);
/// returns its index.
///
/// # Safety
/// As for `blosc2_meta_add`; `cparams` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_add(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *mut u8,
    content_len: i32,
    cparams: *mut blosc2_cparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            set_meta(schunk, name, content, content_len, |core, n, c| {
                core.vlmeta_add(n, c, opt_cparams(cparams))
            })
        }
    })
}

/// Replaces a variable-length metalayer; returns its index.
///
/// # Safety
/// As for `blosc2_vlmeta_add`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_update(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *mut u8,
    content_len: i32,
    cparams: *mut blosc2_cparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            set_meta(schunk, name, content, content_len, |core, n, c| {
                core.vlmeta_update(n, c, opt_cparams(cparams))
            })
        }
    })
}

/// A malloc'd decompressed copy of a variable-length metalayer; returns its index.
///
/// # Safety
/// `schunk` must be live, `name` NUL-terminated, `content` and `content_len` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_get(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
    content: *mut *mut u8,
    content_len: *mut i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        if content.is_null() || content_len.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        code(unsafe {
            with_schunk(schunk, |b| {
                let n = c_bytes(name).ok_or(Error::InvalidParam)?;
                let (i, v) = b.core.vlmeta_get(n)?;
                *content = malloc_copy(&v)?;
                *content_len = v.len() as i32;
                Ok(i)
            })
        })
    })
}

/// Deletes a variable-length metalayer; returns how many remain.
///
/// # Safety
/// `schunk` must be live and `name` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_delete(
    schunk: *mut blosc2_schunk,
    name: *const c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code(unsafe {
            with_schunk(schunk, |b| {
                let n = c_bytes(name).ok_or(Error::InvalidParam)?;
                let r = b.core.vlmeta_delete(n);
                b.sync_meta();
                r
            })
        })
    })
}

/// Stores pointers to the names of the variable-length metalayers in `names` (room for
/// `nvlmetalayers` entries is the caller's business); returns their number.
///
/// # Safety
/// `schunk` must be live and `names` writable for `nvlmetalayers` pointers.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlmeta_get_names(
    schunk: *mut blosc2_schunk,
    names: *mut *mut c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code(unsafe {
            with_schunk(schunk, |b| {
                let n = b.c.nvlmetalayers.max(0) as usize;
                if names.is_null() && n > 0 {
                    return Err(Error::NullPointer);
                }
                for i in 0..n {
                    *names.add(i) = (*b.c.vlmetalayers[i]).name;
                }
                Ok(n)
            })
        })
    })
}
