//! b2nd metalayer (de)serialisation: `b2nd_serialize_meta`, `b2nd_deserialize_meta`.

use std::ffi::{c_char, c_int};

use super::ffi::{c_str, guard, malloc_c_string};
use crate::b2nd::meta::{Meta, MAX_DIM};
use crate::error::Error;

/// Copies `n` values from a C array (empty for `n == 0`).
///
/// # Safety
/// `ptr` must be readable for `n` values when `n > 0`.
unsafe fn values<T: Copy>(ptr: *const T, n: usize) -> Option<Vec<T>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees `n` readable values.
    Some(unsafe { std::slice::from_raw_parts(ptr, n) }.to_vec())
}

/// Serialises a b2nd metalayer into a malloc'ed buffer stored in `*smeta`; returns its size.
///
/// # Safety
/// The shape arrays must hold `ndim` values, `dtype` be a C string and `smeta` writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_serialize_meta(
    ndim: i8,
    shape: *const i64,
    chunkshape: *const i32,
    blockshape: *const i32,
    dtype: *const c_char,
    dtype_format: i8,
    smeta: *mut *mut u8,
) -> c_int {
    guard(Error::Failure.code(), || {
        let Ok(n) = usize::try_from(ndim) else {
            return Error::InvalidParam.code();
        };
        if n > MAX_DIM || smeta.is_null() {
            return Error::InvalidParam.code();
        }
        // SAFETY: the caller guarantees the array lengths and the string.
        let (Some(shape), Some(chunkshape), Some(blockshape), dtype) = (unsafe {
            (
                values(shape, n),
                values(chunkshape, n),
                values(blockshape, n),
                c_str(dtype),
            )
        }) else {
            return Error::NullPointer.code();
        };
        let meta = Meta {
            shape,
            chunkshape,
            blockshape,
            dtype: dtype.map(str::to_owned),
            dtype_format,
        };
        let bytes = match meta.serialize() {
            Ok(b) => b,
            Err(e) => return e.code(),
        };
        // SAFETY: malloc has no preconditions; checked for NULL below.
        let p = unsafe { libc::malloc(bytes.len()) }.cast::<u8>();
        if p.is_null() {
            return Error::MemoryAlloc.code();
        }
        // SAFETY: `p` has room for `bytes.len()` bytes; `smeta` is writable.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
            *smeta = p;
        }
        bytes.len() as c_int
    })
}

/// Parses a b2nd metalayer; when `dtype` and `dtype_format` are both non-NULL, `*dtype`
/// receives a malloc'ed string (NULL for metalayers without one). Returns the bytes
/// consumed.
///
/// # Safety
/// `smeta` must be readable for `smeta_len` bytes; the shape outputs writable for 16 values;
/// the other out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_deserialize_meta(
    smeta: *const u8,
    smeta_len: i32,
    ndim: *mut i8,
    shape: *mut i64,
    chunkshape: *mut i32,
    blockshape: *mut i32,
    dtype: *mut *mut c_char,
    dtype_format: *mut i8,
) -> c_int {
    guard(Error::Failure.code(), || {
        if smeta.is_null()
            || ndim.is_null()
            || shape.is_null()
            || chunkshape.is_null()
            || blockshape.is_null()
        {
            return Error::NullPointer.code();
        }
        let want_dtype = !dtype.is_null() && !dtype_format.is_null();
        if want_dtype {
            // SAFETY: both out-pointers are non-NULL and writable by the caller's contract.
            unsafe {
                *dtype = std::ptr::null_mut();
                *dtype_format = 0;
            }
        }
        let len = usize::try_from(smeta_len).unwrap_or(0);
        // SAFETY: the caller guarantees `smeta_len` readable bytes.
        let buf = unsafe { std::slice::from_raw_parts(smeta, len) };
        let (meta, mut used) = match Meta::deserialize(buf) {
            Ok(m) => m,
            Err(e) => return e.code(),
        };
        let n = meta.ndim();
        let mut s = std::ptr::null_mut();
        match (&meta.dtype, want_dtype) {
            (Some(d), true) => {
                s = malloc_c_string(d);
                if s.is_null() {
                    return Error::MemoryAlloc.code();
                }
            }
            (Some(d), false) => used -= 6 + d.len(),
            (None, _) => {}
        }
        // SAFETY: the caller guarantees room for up to 16 values per shape and the outputs.
        unsafe {
            *ndim = n as i8;
            std::ptr::copy_nonoverlapping(meta.shape.as_ptr(), shape, n);
            std::ptr::copy_nonoverlapping(meta.chunkshape.as_ptr(), chunkshape, n);
            std::ptr::copy_nonoverlapping(meta.blockshape.as_ptr(), blockshape, n);
            if want_dtype {
                *dtype = s;
                *dtype_format = meta.dtype_format;
            }
        }
        used as c_int
    })
}
