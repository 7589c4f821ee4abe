//! Slices of b2nd arrays (into buffers and new arrays), copies, box copies between
//! buffers, metadata printing and refreshing.

use std::ffi::{c_int, c_void, CString};

use super::b2nd_array::{array_into_c, free_array, put, with_array, CoreArray};
use super::b2nd_create::{new_special, rc};
use super::b2nd_ctx::{ctx_mut, read_values};
use super::ffi::{bytes, bytes_mut, guard};
use super::schunk::{blosc2_schunk_copy, with_schunk};
use super::types::{b2nd_array_t, b2nd_context_t};
use crate::b2nd::array::read_meta;
use crate::b2nd::copy::{copy_box, Side};
use crate::b2nd::meta::MAX_DIM;
use crate::b2nd::Array;
use crate::error::{Error, Result};
use crate::special::Special;

/// The number of dimensions of a C array.
///
/// # Safety
/// `array` must be NULL or live.
unsafe fn ndim_of(array: *const b2nd_array_t) -> Result<usize> {
    // SAFETY: forwarded caller guarantee.
    let a = unsafe { array.as_ref() }.ok_or(Error::NullPointer)?;
    usize::try_from(a.ndim)
        .ok()
        .filter(|&n| n <= MAX_DIM)
        .ok_or(Error::InvalidParam)
}

/// Reads start, stop and buffer shape (`ndim` values each).
///
/// # Safety
/// The pointers must be NULL or readable for `n` values.
unsafe fn box_args(
    n: usize,
    start: *const i64,
    stop: *const i64,
    shape: *const i64,
) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>)> {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        Ok((
            read_values(start, n).ok_or(Error::NullPointer)?,
            read_values(stop, n).ok_or(Error::NullPointer)?,
            read_values(shape, n).ok_or(Error::NullPointer)?,
        ))
    }
}

/// Copies `[start, stop)` of the array into `buffer`, a C-order buffer of `buffershape`
/// items (at its origin); -12 for slices outside the array or a buffer too small.
///
/// # Safety
/// `array` NULL or live; `start`, `stop`, `buffershape` readable for `ndim` values;
/// `buffer` writable for `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_get_slice_cbuffer(
    array: *const b2nd_array_t,
    start: *const i64,
    stop: *const i64,
    buffer: *mut c_void,
    buffershape: *const i64,
    buffersize: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if start.is_null() || stop.is_null() || buffershape.is_null() || buffer.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantees.
            let n = unsafe { ndim_of(array) }?;
            // SAFETY: forwarded caller guarantees.
            let (start, stop, shape) = unsafe { box_args(n, start, stop, buffershape) }?;
            let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `buffersize` writable bytes.
            let buf = unsafe { bytes_mut(buffer, len) }.ok_or(Error::NullPointer)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.get_slice_buffer(&start, &stop, buf, &shape)) }
        })())
    })
}

/// Writes `[start, stop)` of the array from `buffer`, a C-order buffer of `buffershape`
/// items (read at its origin); rewrites only the chunks the slice touches.
///
/// # Safety
/// `buffer` readable for `buffersize` bytes; `start`, `stop`, `buffershape` readable for
/// `ndim` values; `array` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn b2nd_set_slice_cbuffer(
    buffer: *const c_void,
    buffershape: *const i64,
    buffersize: i64,
    start: *const i64,
    stop: *const i64,
    array: *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if start.is_null() || stop.is_null() || buffershape.is_null() || buffer.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantees.
            let n = unsafe { ndim_of(array) }?;
            // SAFETY: forwarded caller guarantees.
            let (start, stop, shape) = unsafe { box_args(n, start, stop, buffershape) }?;
            let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `buffersize` readable bytes.
            let buf = unsafe { bytes(buffer, len) }.ok_or(Error::NullPointer)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.set_slice_buffer(&start, &stop, buf, &shape)) }
        })())
    })
}

/// Fills the new C array `dest` from `src` starting at `start`.
///
/// # Safety
/// Both arrays live and distinct.
unsafe fn fill_new(dest: *mut b2nd_array_t, src: *const b2nd_array_t, start: &[i64]) -> Result<()> {
    // SAFETY: forwarded caller guarantees; the two arrays have distinct super-chunks.
    unsafe {
        with_array(dest, |d: &mut CoreArray| {
            with_array(src, |s| d.fill_from(s, start))
        })
    }
}

/// A new array (created from `ctx`, whose shape becomes `stop - start`) holding
/// `[start, stop)` of `src`.
///
/// # Safety
/// `ctx` NULL or live; `array` NULL or writable; `src` NULL or live; `start`, `stop`
/// readable for `src->ndim` values.
#[no_mangle]
pub unsafe extern "C" fn b2nd_get_slice(
    ctx: *mut b2nd_context_t,
    array: *mut *mut b2nd_array_t,
    src: *const b2nd_array_t,
    start: *const i64,
    stop: *const i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantees.
            let ctx = unsafe { ctx_mut(ctx) }.ok_or(Error::NullPointer)?;
            if array.is_null() || start.is_null() || stop.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantees.
            let n = unsafe { ndim_of(src) }?;
            // SAFETY: forwarded caller guarantees.
            let (start, stop, _) = unsafe { box_args(n, start, stop, start) }?;
            // SAFETY: forwarded caller guarantee.
            let extent = unsafe {
                with_array(src, |s| {
                    s.geometry().check_bounds(&start, &start)?;
                    s.geometry().slice_extent(&start, &stop)
                })
            }?;
            if ctx.geometry.ndim() != n {
                return Err(Error::InvalidParam);
            }
            ctx.set_shape(&extent)?;
            let dest = new_special(ctx, Special::Zeros)?;
            // SAFETY: `dest` was just created; `src` is live.
            if let Err(e) = unsafe { fill_new(dest, src, &start) } {
                // SAFETY: `dest` is not handed out.
                unsafe { free_array(dest) };
                return Err(e);
            }
            // SAFETY: checked non-NULL above.
            unsafe { put(array, dest) };
            Ok(())
        })())
    })
}

/// A copy of `src` created from `ctx` (whose shape becomes `src`'s): chunks are copied
/// as they are when the chunk and block shapes match, re-chunked otherwise.
///
/// # Safety
/// `ctx` NULL or live; `src` NULL or live; `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_copy(
    ctx: *mut b2nd_context_t,
    src: *const b2nd_array_t,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        rc(unsafe { copy_impl(ctx, src, array) })
    })
}

/// The body of [`b2nd_copy`].
///
/// # Safety
/// As for [`b2nd_copy`].
pub(crate) unsafe fn copy_impl(
    ctx: *mut b2nd_context_t,
    src: *const b2nd_array_t,
    array: *mut *mut b2nd_array_t,
) -> Result<()> {
    // SAFETY: forwarded caller guarantees.
    let ctx = unsafe { ctx_mut(ctx) }.ok_or(Error::NullPointer)?;
    if array.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: forwarded caller guarantee.
    let shape = unsafe { with_array(src, |s| Ok(s.shape().to_vec())) }?;
    if ctx.geometry.ndim() != shape.len() {
        return Err(Error::InvalidParam);
    }
    ctx.set_shape(&shape)?;
    let (params, io, user) = ctx.params()?;
    // SAFETY: forwarded caller guarantee.
    let same = unsafe { with_array(src, |s| Ok(s.copies_chunks(&params))) }?;
    let dest = if same {
        if params.storage.urlpath.as_ref().is_some_and(|p| p.exists()) {
            return Err(Error::Failure);
        }
        let mut storage = ctx.c_storage();
        // SAFETY: `src` is live (checked by `with_array`); `storage` borrows `ctx`.
        let sc = unsafe { blosc2_schunk_copy((*src).sc, &mut storage) };
        if sc.is_null() {
            return Err(Error::Failure);
        }
        let g = params.geometry.clone();
        super::b2nd_array::alloc_array(sc, &g, params.dtype.as_deref(), params.dtype_format)
            .inspect_err(|_| {
                // SAFETY: the copy was just made here.
                unsafe { super::schunk::blosc2_schunk_free(sc) };
            })?
    } else {
        // SAFETY: forwarded caller guarantee.
        let p = unsafe { with_array(src, |s| s.copy_params(&params)) }?;
        let dest = array_into_c(Array::special(&p, Special::Zeros)?, io, Some(user))?;
        let start = vec![0i64; shape.len()];
        // SAFETY: `dest` was just created; `src` is live.
        let filled = unsafe {
            fill_new(dest, src, &start).and_then(|()| {
                with_array(dest, |d: &mut CoreArray| {
                    with_array(src, |s| s.copy_vlmeta_to(d))
                })
            })
        };
        if let Err(e) = filled {
            // SAFETY: `dest` is not handed out.
            unsafe { free_array(dest) };
            return Err(e);
        }
        dest
    };
    // SAFETY: checked non-NULL above.
    unsafe { put(array, dest) };
    Ok(())
}

/// Copies a box between two C-order buffers: `[src_start, src_stop)` of `src` (shape
/// `src_pad_shape`) to `dst` (shape `dst_pad_shape`) at `dst_start`; -12 when a box
/// does not fit its buffer's shape.
///
/// # Safety
/// `src` readable and `dst` writable for the product of their shapes times `itemsize`
/// bytes; the shape and position arrays readable for `ndim` values.
#[no_mangle]
pub unsafe extern "C" fn b2nd_copy_buffer2(
    ndim: i8,
    itemsize: i32,
    src: *const c_void,
    src_pad_shape: *const i64,
    src_start: *const i64,
    src_stop: *const i64,
    dst: *mut c_void,
    dst_pad_shape: *const i64,
    dst_start: *const i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            let n = usize::try_from(ndim)
                .ok()
                .filter(|&n| n <= MAX_DIM)
                .ok_or(Error::InvalidParam)?;
            let ts = usize::try_from(itemsize)
                .ok()
                .filter(|&t| t > 0)
                .ok_or(Error::InvalidParam)?;
            // SAFETY: forwarded caller guarantees.
            let (s_shape, s_start, s_stop) =
                unsafe { box_args(n, src_pad_shape, src_start, src_stop) }?;
            // SAFETY: forwarded caller guarantees.
            let (d_shape, d_start, _) =
                unsafe { box_args(n, dst_pad_shape, dst_start, dst_start) }?;
            let extent: Vec<i64> = (0..n).map(|d| s_stop[d] - s_start[d]).collect();
            let len = |shape: &[i64]| -> Result<usize> {
                shape
                    .iter()
                    .try_fold(ts, |acc, &s| {
                        usize::try_from(s).ok().and_then(|s| acc.checked_mul(s))
                    })
                    .ok_or(Error::InvalidParam)
            };
            let (slen, dlen) = (len(&s_shape)?, len(&d_shape)?);
            if src.is_null() || dst.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: the caller guarantees the buffers span their shapes.
            let (s, d) = unsafe { (bytes(src, slen), bytes_mut(dst, dlen)) };
            let (s, d) = (s.ok_or(Error::NullPointer)?, d.ok_or(Error::NullPointer)?);
            copy_box(
                ts,
                &extent,
                s,
                Side {
                    shape: &s_shape,
                    start: &s_start,
                },
                d,
                Side {
                    shape: &d_shape,
                    start: &d_start,
                },
            )
        })())
    })
}

/// [`b2nd_copy_buffer2`] with a one-byte item size (deprecated in the reference).
///
/// # Safety
/// As for [`b2nd_copy_buffer2`].
#[deprecated(note = "Use b2nd_copy_buffer2 instead.")]
#[no_mangle]
pub unsafe extern "C" fn b2nd_copy_buffer(
    ndim: i8,
    itemsize: u8,
    src: *const c_void,
    src_pad_shape: *const i64,
    src_start: *const i64,
    src_stop: *const i64,
    dst: *mut c_void,
    dst_pad_shape: *const i64,
    dst_start: *const i64,
) -> c_int {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        b2nd_copy_buffer2(
            ndim,
            i32::from(itemsize),
            src,
            src_pad_shape,
            src_start,
            src_stop,
            dst,
            dst_pad_shape,
            dst_start,
        )
    }
}

/// Prints the "b2nd" metalayer of the array to standard output; -34 when missing.
///
/// # Safety
/// `array` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn b2nd_print_meta(array: *const b2nd_array_t) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantee.
            let a = unsafe { array.as_ref() }.ok_or(Error::NullPointer)?;
            // SAFETY: the array's super-chunk is live.
            let (g, dtype, _) = unsafe { with_schunk(a.sc, |b| read_meta(&b.core)) }?;
            let join = |v: Vec<String>| {
                if v.is_empty() {
                    "0".to_string()
                } else {
                    v.join(", ")
                }
            };
            let mut text = format!(
                "b2nd metalayer parameters:\n Ndim:       {}\n shape:      {}\n chunkshape: {}",
                g.ndim(),
                join(g.shape().iter().map(i64::to_string).collect()),
                join(g.chunkshape().iter().map(i32::to_string).collect()),
            );
            if let Some(d) = dtype {
                text.push_str(&format!("\n dtype: {d}"));
            }
            text.push_str(&format!(
                "\n blockshape: {}\n",
                join(g.blockshape().iter().map(i32::to_string).collect())
            ));
            let c = CString::new(text).map_err(|_| Error::Failure)?;
            // SAFETY: both strings are NUL-terminated; printing through C stdio keeps the
            // order with the program's own output.
            unsafe { libc::printf(c"%s".as_ptr(), c.as_ptr()) };
            Ok(())
        })())
    })
}

/// Follows shape changes another handle or process made to a file-backed array: 1 when
/// the shape changed, 0 when it was current, -3 when the number of dimensions, chunk or
/// block shape changed.
///
/// # Safety
/// `array` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn b2nd_refresh(array: *mut b2nd_array_t) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantee.
        let before = unsafe { array.as_ref() }.map(|a| a.shape);
        // SAFETY: forwarded caller guarantee.
        let r = unsafe { with_array(array, |a| a.refresh().map(|_| ())) };
        match r {
            Err(e) => e.code(),
            // SAFETY: the array is live (checked by `with_array`).
            Ok(()) => c_int::from(before != unsafe { array.as_ref() }.map(|a| a.shape)),
        }
    })
}
