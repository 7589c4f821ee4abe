//! Creating, opening, serialising, saving and freeing b2nd arrays.

use std::ffi::{c_char, c_int, c_void};

use super::b2nd_array::{alloc_array, array_into_c, c_path, free_array, put, with_array};
use super::b2nd_ctx::{ctx_mut, Ctx};
use super::ffi::{bytes, bytes_mut, guard};
use super::schunk::{blosc2_schunk_free, with_schunk};
use super::schunk_io::{blosc2_schunk_append_file, blosc2_schunk_to_buffer};
use super::schunk_open::{blosc2_schunk_from_buffer, blosc2_schunk_open_offset};
use super::types::{b2nd_array_t, b2nd_context_t, blosc2_schunk};
use crate::b2nd::Array;
use crate::error::{Error, Result};
use crate::special::Special;

/// The C return code of a result (errors traced under `BLOSC_TRACE`).
#[track_caller]
pub(crate) fn rc(r: Result<()>) -> c_int {
    super::ffi::code(r.map(|()| 0))
}

/// Creates a C array of special chunks from a context.
pub(crate) fn new_special(ctx: &mut Ctx, kind: Special) -> Result<*mut b2nd_array_t> {
    let (params, io, user) = ctx.params()?;
    let core = Array::special(&params, kind)?;
    array_into_c(core, io, Some(user))
}

/// Creates a special-valued array and then runs `fill` on it (freeing it on failure).
///
/// # Safety
/// `ctx` NULL or live; `array` NULL or writable.
unsafe fn create(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
    kind: Special,
    fill: impl FnOnce(*mut b2nd_array_t) -> Result<()>,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantee.
            let ctx = unsafe { ctx_mut(ctx) }.ok_or(Error::NullPointer)?;
            if array.is_null() {
                return Err(Error::NullPointer);
            }
            let a = new_special(ctx, kind)?;
            if let Err(e) = fill(a) {
                // SAFETY: `a` was just created here.
                unsafe { free_array(a) };
                return Err(e);
            }
            // SAFETY: `array` is writable (checked non-NULL).
            unsafe { put(array, a) };
            Ok(())
        })())
    })
}

/// Creates an array with unspecified content (uninitialised special chunks).
///
/// # Safety
/// `ctx` must be NULL or live and `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_uninit(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { create(ctx, array, Special::Uninit, |_| Ok(())) }
}

/// Creates an array (of zeros, as the reference).
///
/// # Safety
/// As for [`b2nd_uninit`].
#[no_mangle]
pub unsafe extern "C" fn b2nd_empty(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { create(ctx, array, Special::Zeros, |_| Ok(())) }
}

/// Creates an array of zeros.
///
/// # Safety
/// As for [`b2nd_uninit`].
#[no_mangle]
pub unsafe extern "C" fn b2nd_zeros(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { create(ctx, array, Special::Zeros, |_| Ok(())) }
}

/// Creates an array of NaNs; -3 unless the typesize is 4 or 8.
///
/// # Safety
/// As for [`b2nd_uninit`].
#[no_mangle]
pub unsafe extern "C" fn b2nd_nans(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { create(ctx, array, Special::Nans, |_| Ok(())) }
}

/// Creates an array whose items all equal `fill_value` (`typesize` bytes).
///
/// # Safety
/// As for [`b2nd_uninit`]; `fill_value` readable for the typesize.
#[no_mangle]
pub unsafe extern "C" fn b2nd_full(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
    fill_value: *const c_void,
) -> c_int {
    if fill_value.is_null() {
        return Error::NullPointer.code();
    }
    // SAFETY: forwarded caller guarantees.
    unsafe {
        create(ctx, array, Special::Zeros, |a| {
            with_array(a, |core| {
                let ts = core.typesize() as usize;
                // SAFETY: the caller guarantees `typesize` readable bytes.
                let value = bytes(fill_value, ts).ok_or(Error::NullPointer)?;
                core.fill_value(value)
            })
        })
    }
}

/// Creates an array from a C-order buffer of at least `nitems * typesize` bytes (-12
/// otherwise).
///
/// # Safety
/// As for [`b2nd_uninit`]; `buffer` readable for `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_from_cbuffer(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
    buffer: *const c_void,
    buffersize: i64,
) -> c_int {
    if buffer.is_null() {
        return Error::NullPointer.code();
    }
    // SAFETY: forwarded caller guarantees.
    unsafe {
        create(ctx, array, Special::Zeros, |a| {
            with_array(a, |core| {
                let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
                core.check_whole_buffer(len)?;
                // SAFETY: the caller guarantees `buffersize` readable bytes.
                let buf = bytes(buffer, len).ok_or(Error::NullPointer)?;
                core.set_buffer(buf)
            })
        })
    }
}

/// Copies the whole array into a C-order buffer of at least `nitems * typesize` bytes
/// (-12 otherwise).
///
/// # Safety
/// `array` NULL or live; `buffer` writable for `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_to_cbuffer(
    array: *const b2nd_array_t,
    buffer: *mut c_void,
    buffersize: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        if buffer.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        rc(unsafe {
            with_array(array, |core| {
                let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
                core.check_whole_buffer(len)?;
                let buf = bytes_mut(buffer, len).ok_or(Error::NullPointer)?;
                core.to_buffer(buf)
            })
        })
    })
}

/// Wraps a super-chunk with a "b2nd" (or "caterva") metalayer in a new array, which owns
/// it from then on.
///
/// # Safety
/// `schunk` NULL or live; `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_from_schunk(
    schunk: *mut blosc2_schunk,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        rc(unsafe { wrap_schunk(schunk, array) })
    })
}

/// The body of [`b2nd_from_schunk`].
///
/// # Safety
/// As for [`b2nd_from_schunk`].
unsafe fn wrap_schunk(schunk: *mut blosc2_schunk, array: *mut *mut b2nd_array_t) -> Result<()> {
    if schunk.is_null() || array.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: forwarded caller guarantee.
    let (geom, dtype, fmt) = unsafe {
        with_schunk(schunk, |b| {
            let a = Array::from_schunk(&mut b.core)?;
            let (_, g, d, f) = a.into_parts();
            Ok((g, d, f))
        })
    }?;
    let a = alloc_array(schunk, &geom, dtype.as_deref(), fmt)?;
    // SAFETY: checked non-NULL above.
    unsafe { put(array, a) };
    Ok(())
}

/// Wraps a freshly opened super-chunk, freeing it when it is no array.
///
/// # Safety
/// `sc` NULL or a fresh super-chunk; `array` NULL or writable.
unsafe fn adopt(sc: *mut blosc2_schunk, array: *mut *mut b2nd_array_t, null_code: Error) -> c_int {
    if sc.is_null() {
        return null_code.code();
    }
    // SAFETY: forwarded caller guarantees.
    let r = unsafe { wrap_schunk(sc, array) };
    if r.is_err() {
        // SAFETY: `sc` was created by the caller and is not owned by any array.
        unsafe { blosc2_schunk_free(sc) };
    }
    rc(r)
}

/// The array as a contiguous frame (see `blosc2_schunk_to_buffer`); -1 on failure.
///
/// # Safety
/// `array` NULL or live; out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_to_cframe(
    array: *const b2nd_array_t,
    cframe: *mut *mut u8,
    cframe_len: *mut i64,
    needs_free: *mut bool,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees `array` is NULL or live.
        let Some(a) = (unsafe { array.as_ref() }) else {
            return Error::NullPointer.code();
        };
        if cframe.is_null() || cframe_len.is_null() || needs_free.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        let len = unsafe { blosc2_schunk_to_buffer(a.sc, cframe, needs_free) };
        // SAFETY: checked non-NULL above.
        unsafe { *cframe_len = len };
        if len <= 0 {
            return Error::Failure.code();
        }
        0
    })
}

/// An array over the contiguous frame `cframe` (copied into memory with `copy`, used in
/// place otherwise); -1 when it is no frame.
///
/// # Safety
/// `cframe` readable for `cframe_len` bytes; `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_from_cframe(
    cframe: *mut u8,
    cframe_len: i64,
    copy: bool,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        if cframe.is_null() || array.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        unsafe {
            adopt(
                blosc2_schunk_from_buffer(cframe, cframe_len, copy),
                array,
                Error::Failure,
            )
        }
    })
}

/// Opens the array stored at `urlpath` (frame file or sparse-frame directory).
///
/// # Safety
/// `urlpath` NULL or a C string; `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_open(urlpath: *const c_char, array: *mut *mut b2nd_array_t) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe { b2nd_open_offset(urlpath, array, 0) }
}

/// Opens the array whose frame starts at byte `offset` of the file `urlpath`.
///
/// # Safety
/// As for [`b2nd_open`].
#[no_mangle]
pub unsafe extern "C" fn b2nd_open_offset(
    urlpath: *const c_char,
    array: *mut *mut b2nd_array_t,
    offset: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        if urlpath.is_null() || array.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        unsafe {
            adopt(
                blosc2_schunk_open_offset(urlpath, offset),
                array,
                Error::NullPointer,
            )
        }
    })
}

/// Writes a copy of the array to `urlpath` (same storage kind, parameters and shapes).
///
/// # Safety
/// `array` NULL or live; `urlpath` NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn b2nd_save(array: *const b2nd_array_t, urlpath: *mut c_char) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: the caller guarantees `urlpath` is NULL or a C string.
            let path = unsafe { c_path(urlpath) }?;
            // SAFETY: forwarded caller guarantee.
            unsafe {
                with_array(array, |core| {
                    let contiguous = core.schunk().storage().contiguous;
                    core.save(&path, contiguous)
                })
            }
        })())
    })
}

/// Appends the array as a contiguous frame to the file `urlpath`; returns the offset
/// where it starts.
///
/// # Safety
/// `array` NULL or live; `urlpath` NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn b2nd_save_append(
    array: *const b2nd_array_t,
    urlpath: *const c_char,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: the caller guarantees `array` is NULL or live.
        match unsafe { array.as_ref() } {
            // SAFETY: forwarded caller guarantees.
            Some(a) => unsafe { blosc2_schunk_append_file(a.sc, urlpath) },
            None => i64::from(Error::NullPointer.code()),
        }
    })
}

/// Frees an array and its super-chunk; -32 for NULL.
///
/// # Safety
/// `array` NULL or live, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn b2nd_free(array: *mut b2nd_array_t) -> c_int {
    guard(Error::Failure.code(), || {
        if array.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: the caller hands over a live array.
        unsafe { free_array(array) };
        0
    })
}
