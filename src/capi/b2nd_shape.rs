//! Shape changes of b2nd arrays (resize, insert, append, delete, concatenate), views with
//! fewer or more dimensions (squeeze, expand_dims), orthogonal selections and sparse
//! coordinates.

use std::ffi::{c_int, c_void};

use super::b2nd_array::{array_into_c, free_array, put, with_array, CoreArray};
use super::b2nd_create::rc;
use super::b2nd_ctx::read_values;
use super::b2nd_view;
use super::ffi::{bytes, bytes_mut, guard};
use super::types::{b2nd_array_t, b2nd_context_t, blosc2_io};
use crate::b2nd::concat::concat_shape;
use crate::b2nd::meta::MAX_DIM;
use crate::b2nd::{Array, Geometry};
use crate::error::{Error, Result};

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

/// An axis argument as an index (`InvalidParam` when negative).
fn axis_of(axis: i8) -> Result<usize> {
    usize::try_from(axis).map_err(|_| Error::InvalidParam)
}

/// Resizes `array` to `new_shape`; with `start` (NULL: at the ends), each axis grows or
/// shrinks at `start[d]`. -12 for a start the alignment rule refuses.
///
/// # Safety
/// `array` NULL or live; `new_shape` (and `start` unless NULL) readable for `ndim` values.
#[no_mangle]
pub unsafe extern "C" fn b2nd_resize(
    array: *mut b2nd_array_t,
    new_shape: *const i64,
    start: *const i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantees.
            let n = unsafe { ndim_of(array) }?;
            if new_shape.is_null() && n > 0 {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantees.
            let shape = unsafe { read_values(new_shape, n) }.ok_or(Error::NullPointer)?;
            let start = if start.is_null() {
                None
            } else {
                // SAFETY: forwarded caller guarantees.
                Some(unsafe { read_values(start, n) }.ok_or(Error::NullPointer)?)
            };
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.resize(&shape, start.as_deref())) }
        })())
    })
}

/// Inserts `buffer` (the array's shape with some items on `axis`) at `insert_start`.
///
/// # Safety
/// `array` NULL or live; `buffer` readable for `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_insert(
    array: *mut b2nd_array_t,
    buffer: *const c_void,
    buffersize: i64,
    axis: i8,
    insert_start: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() || buffer.is_null() {
                return Err(Error::NullPointer);
            }
            let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `buffersize` readable bytes.
            let buf = unsafe { bytes(buffer, len) }.ok_or(Error::NullPointer)?;
            let axis = axis_of(axis)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.insert(buf, axis, insert_start)) }
        })())
    })
}

/// Appends `buffer` at the end of `axis`.
///
/// # Safety
/// `array` NULL or live; `buffer` readable for `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_append(
    array: *mut b2nd_array_t,
    buffer: *const c_void,
    buffersize: i64,
    axis: i8,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() || buffer.is_null() {
                return Err(Error::NullPointer);
            }
            let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `buffersize` readable bytes.
            let buf = unsafe { bytes(buffer, len) }.ok_or(Error::NullPointer)?;
            let axis = axis_of(axis)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.append(buf, axis)) }
        })())
    })
}

/// Deletes `delete_len` items at `delete_start` on `axis`.
///
/// # Safety
/// `array` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn b2nd_delete(
    array: *mut b2nd_array_t,
    axis: i8,
    delete_start: i64,
    delete_len: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() {
                return Err(Error::NullPointer);
            }
            let axis = axis_of(axis)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.delete(axis, delete_start, delete_len)) }
        })())
    })
}

/// The whole content of a C array and its shape.
///
/// # Safety
/// `array` NULL or live.
unsafe fn content_of(array: *const b2nd_array_t) -> Result<(Vec<u8>, Vec<i64>)> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        with_array(array, |a| {
            let len = usize::try_from(a.geometry().nitems())
                .ok()
                .and_then(|n| n.checked_mul(a.typesize() as usize))
                .ok_or(Error::InvalidParam)?;
            let mut buf = Vec::new();
            buf.try_reserve_exact(len).map_err(|_| Error::MemoryAlloc)?;
            buf.resize(len, 0u8);
            a.to_buffer(&mut buf)?;
            Ok((buf, a.shape().to_vec()))
        })
    }
}

/// Concatenates `src2` after `src1` along `axis`: into a copy of `src1` made from `ctx`
/// and enlarged when `copy`, else by enlarging `src1`, which `*array` then points to.
///
/// # Safety
/// `ctx` NULL or live; `src1`, `src2` NULL or live; `array` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_concatenate(
    ctx: *mut b2nd_context_t,
    src1: *const b2nd_array_t,
    src2: *const b2nd_array_t,
    axis: i8,
    copy: bool,
    array: *mut *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if ctx.is_null() || src1.is_null() || src2.is_null() || array.is_null() {
                return Err(Error::NullPointer);
            }
            let axis = axis_of(axis)?;
            // SAFETY: forwarded caller guarantees (both live).
            let (n1, n2) = unsafe { (ndim_of(src1)?, ndim_of(src2)?) };
            if axis >= n1 {
                return Err(Error::InvalidParam);
            }
            // SAFETY: as above.
            let (ts1, shape1) =
                unsafe { with_array(src1, |a| Ok((a.typesize(), a.shape().to_vec()))) }?;
            // SAFETY: as above.
            let (ts2, g2) =
                unsafe { with_array(src2, |b| Ok((b.typesize(), b.geometry().clone()))) }?;
            if ts1 != ts2 || n2 != n1 {
                return Err(Error::InvalidParam);
            }
            let shape = concat_shape(&shape1, g2.shape(), axis)?;
            let offset = shape1[axis];
            if !copy {
                // SAFETY: as above.
                let aligned =
                    unsafe { with_array(src1, |a| Ok(a.chunks_align(&g2, axis, offset))) }?;
                // SAFETY: as above.
                let second = unsafe { second_of(src2, aligned) }?;
                // SAFETY: as above.
                unsafe {
                    with_array(src1, |a| {
                        a.resize(&shape, None)?;
                        second.put(a, &g2, axis, offset)
                    })
                }?;
                // SAFETY: checked non-NULL above.
                unsafe { put(array, src1.cast_mut()) };
                return Ok(());
            }
            // As the reference: a copy of `src1` made from `ctx`, enlarged, then `src2`.
            let mut dest = std::ptr::null_mut();
            // SAFETY: forwarded caller guarantees; `dest` is a local out-pointer.
            unsafe { super::b2nd_slice::copy_impl(ctx, src1, &mut dest) }?;
            let fill = || -> Result<()> {
                // SAFETY: `dest` was just created.
                let aligned = unsafe {
                    with_array(dest, |d| {
                        d.resize(&shape, None)?;
                        Ok(d.chunks_align(&g2, axis, offset))
                    })
                }?;
                // SAFETY: `src2` is live.
                let second = unsafe { second_of(src2, aligned) }?;
                // SAFETY: as above.
                unsafe { with_array(dest, |d| second.put(d, &g2, axis, offset)) }
            };
            if let Err(e) = fill() {
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

/// The content of the second array of a concatenation.
enum Second {
    /// Its stored chunks, to be stored as they are.
    Chunks(Vec<Vec<u8>>),
    /// Its items in C order.
    Items(Vec<u8>),
}

impl Second {
    /// Writes the content into `a` starting `offset` items along `axis`.
    fn put(&self, a: &mut CoreArray, g2: &Geometry, axis: usize, offset: i64) -> Result<()> {
        match self {
            Second::Chunks(c) => a.put_chunks(c, g2, axis, offset),
            Second::Items(buf) => a.put_items(buf, g2, axis, offset),
        }
    }
}

/// Reads the second array of a concatenation: its stored chunks when `aligned`, else its
/// items.
///
/// # Safety
/// `array` NULL or live.
unsafe fn second_of(array: *const b2nd_array_t, aligned: bool) -> Result<Second> {
    if aligned {
        // SAFETY: forwarded caller guarantee.
        unsafe { with_array(array, |b| b.stored_chunks()) }.map(Second::Chunks)
    } else {
        // SAFETY: forwarded caller guarantee.
        unsafe { content_of(array) }.map(|(buf, _)| Second::Items(buf))
    }
}

/// Hands a new view of `source` out as a C array flagged as a view and linked to the data
/// of `source` (see `b2nd_view`).
///
/// # Safety
/// `view` must be NULL or writable; `source` a live array.
unsafe fn put_view(
    view: *mut *mut b2nd_array_t,
    v: Array,
    source: *const b2nd_array_t,
) -> Result<()> {
    // SAFETY: forwarded caller guarantee (a live array and its live super-chunk).
    let (root, tick) = unsafe { b2nd_view::root_of(source, (*source).sc) };
    let p = array_into_c(v, blosc2_io::DEFAULTS, None)?;
    // SAFETY: `p` and its super-chunk were just created.
    unsafe { (*(*p).sc).view = true };
    b2nd_view::link(p, root, tick);
    // SAFETY: forwarded caller guarantee.
    unsafe { put(view, p) };
    Ok(())
}

/// A view of `array` without the axes flagged in `index` (-33 unless each is of length
/// one).
///
/// # Safety
/// `array` NULL or live; `view` NULL or writable; `index` readable for `ndim` flags.
#[no_mangle]
pub unsafe extern "C" fn b2nd_squeeze_index(
    array: *mut b2nd_array_t,
    view: *mut *mut b2nd_array_t,
    index: *const bool,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantee.
            let n = unsafe { ndim_of(array) }?;
            if view.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantee.
            let index = unsafe { read_values(index, n) }.ok_or(Error::NullPointer)?;
            // SAFETY: forwarded caller guarantee.
            let v = unsafe { with_array(array, |a| a.squeeze_index(&index)) }?;
            // SAFETY: checked non-NULL above.
            unsafe { put_view(view, v, array) }
        })())
    })
}

/// A view of `array` without its axes of length one.
///
/// # Safety
/// `array` NULL or live; `view` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn b2nd_squeeze(
    array: *mut b2nd_array_t,
    view: *mut *mut b2nd_array_t,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() || view.is_null() {
                return Err(Error::NullPointer);
            }
            // SAFETY: forwarded caller guarantee.
            let v = unsafe { with_array(array, |a| a.squeeze()) }?;
            // SAFETY: checked non-NULL above.
            unsafe { put_view(view, v, array) }
        })())
    })
}

/// A view of `array` with `final_dims` dimensions, new ones of length one where `axis`
/// is set.
///
/// # Safety
/// `array` NULL or live; `view` NULL or writable; `axis` readable for `final_dims` flags.
#[no_mangle]
pub unsafe extern "C" fn b2nd_expand_dims(
    array: *const b2nd_array_t,
    view: *mut *mut b2nd_array_t,
    axis: *const bool,
    final_dims: u8,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() || view.is_null() {
                return Err(Error::NullPointer);
            }
            let dims = usize::from(final_dims);
            if dims > MAX_DIM {
                return Err(Error::InvalidParam);
            }
            // SAFETY: forwarded caller guarantee.
            let axis = unsafe { read_values(axis, dims) }.ok_or(Error::NullPointer)?;
            // SAFETY: forwarded caller guarantee.
            let v = unsafe { with_array(array, |a| a.expand_dims(&axis, dims)) }?;
            // SAFETY: checked non-NULL above.
            unsafe { put_view(view, v, array) }
        })())
    })
}

/// Reads the per-axis index lists of an orthogonal selection.
///
/// # Safety
/// `selection` and `selection_size` readable for `n` values; each list readable for its
/// size.
unsafe fn selection_of(
    n: usize,
    selection: *const *mut i64,
    selection_size: *const i64,
) -> Result<Vec<Vec<i64>>> {
    if n > 0 && (selection.is_null() || selection_size.is_null()) {
        return Err(Error::NullPointer);
    }
    // SAFETY: forwarded caller guarantees.
    let sizes = unsafe { read_values(selection_size, n) }.ok_or(Error::NullPointer)?;
    // SAFETY: forwarded caller guarantees.
    let lists = unsafe { read_values(selection, n) }.ok_or(Error::NullPointer)?;
    sizes
        .iter()
        .zip(lists)
        .map(|(&s, p)| {
            let s = usize::try_from(s).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees each list holds its size of values.
            unsafe { read_values(p.cast_const(), s) }.ok_or(Error::NullPointer)
        })
        .collect()
}

/// The per-axis index lists and the buffer length of an orthogonal selection on `array`;
/// `Error::NullPointer` when the buffer is NULL.
///
/// # Safety
/// `array` NULL or live; selection lists as `selection_size` says.
unsafe fn orthogonal_args(
    array: *const b2nd_array_t,
    selection: *mut *mut i64,
    selection_size: *mut i64,
    buffer_is_null: bool,
    buffersize: i64,
) -> Result<(Vec<Vec<i64>>, usize)> {
    // SAFETY: forwarded caller guarantee.
    let n = unsafe { ndim_of(array) }?;
    if buffer_is_null {
        return Err(Error::NullPointer);
    }
    // SAFETY: forwarded caller guarantees.
    let sel = unsafe { selection_of(n, selection, selection_size) }?;
    let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
    Ok((sel, len))
}

/// Copies the items at the cross product of the per-axis index lists into `buffer`
/// (C order).
///
/// # Safety
/// `array` NULL or live; selection lists as `selection_size` says; `buffer` writable for
/// `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_get_orthogonal_selection(
    array: *const b2nd_array_t,
    selection: *mut *mut i64,
    selection_size: *mut i64,
    buffer: *mut c_void,
    buffershape: *mut i64,
    buffersize: i64,
) -> c_int {
    let _ = buffershape;
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantees.
            let (sel, len) = unsafe {
                orthogonal_args(
                    array,
                    selection,
                    selection_size,
                    buffer.is_null(),
                    buffersize,
                )
            }?;
            // SAFETY: the caller guarantees `buffersize` writable bytes.
            let buf = unsafe { bytes_mut(buffer, len) }.ok_or(Error::NullPointer)?;
            let refs: Vec<&[i64]> = sel.iter().map(Vec::as_slice).collect();
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.get_orthogonal_selection(&refs, buf)) }
        })())
    })
}

/// Writes `buffer` (C order) to the items at the cross product of the per-axis index
/// lists.
///
/// # Safety
/// `array` NULL or live; selection lists as `selection_size` says; `buffer` readable for
/// `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_set_orthogonal_selection(
    array: *mut b2nd_array_t,
    selection: *mut *mut i64,
    selection_size: *mut i64,
    buffer: *const c_void,
    buffershape: *mut i64,
    buffersize: i64,
) -> c_int {
    let _ = buffershape;
    guard(Error::Failure.code(), || {
        rc((|| {
            // SAFETY: forwarded caller guarantees.
            let (sel, len) = unsafe {
                orthogonal_args(
                    array.cast_const(),
                    selection,
                    selection_size,
                    buffer.is_null(),
                    buffersize,
                )
            }?;
            // SAFETY: the caller guarantees `buffersize` readable bytes.
            let buf = unsafe { bytes(buffer, len) }.ok_or(Error::NullPointer)?;
            let refs: Vec<&[i64]> = sel.iter().map(Vec::as_slice).collect();
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.set_orthogonal_selection(&refs, buf)) }
        })())
    })
}

/// Copies the items at the flat C-order `coords` into `buffer`, one after the other; -12
/// for a coordinate outside the array or a buffer too small.
///
/// # Safety
/// `array` NULL or live; `coords` readable for `ncoords` values; `buffer` writable for
/// `buffersize` bytes.
#[no_mangle]
pub unsafe extern "C" fn b2nd_get_sparse_cbuffer(
    array: *const b2nd_array_t,
    ncoords: i64,
    coords: *const i64,
    buffer: *mut c_void,
    buffersize: i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        rc((|| {
            if array.is_null() || coords.is_null() || buffer.is_null() {
                return Err(Error::NullPointer);
            }
            let nc = usize::try_from(ncoords).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `ncoords` readable values.
            let coords = unsafe { read_values(coords, nc) }.ok_or(Error::NullPointer)?;
            let len = usize::try_from(buffersize).map_err(|_| Error::InvalidParam)?;
            // SAFETY: the caller guarantees `buffersize` writable bytes.
            let buf = unsafe { bytes_mut(buffer, len) }.ok_or(Error::NullPointer)?;
            // SAFETY: forwarded caller guarantee.
            unsafe { with_array(array, |a| a.get_sparse(&coords, buf)) }
        })())
    })
}
