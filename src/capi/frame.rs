//! Frame and index helpers: `blosc2_frame_get_offsets`, `blosc2_get_slice_nchunks` and the
//! flat/multidimensional index conversions.

use super::ffi::guard;
use super::schunk::with_schunk;
use super::types::blosc2_schunk;
use crate::error::Error;
use crate::schunk::{multidim_to_unidim, unidim_to_multidim};

/// A malloc'd copy of the frame's chunk index (`nchunks` entries); NULL without a frame.
///
/// # Safety
/// `schunk` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_frame_get_offsets(schunk: *mut blosc2_schunk) -> *mut i64 {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            with_schunk(schunk, |b| {
                let offs = b.core.frame_offsets().ok_or(Error::FrameType)?;
                let p = libc::malloc(offs.len().max(1) * 8).cast::<i64>();
                if p.is_null() {
                    return Err(Error::MemoryAlloc);
                }
                std::ptr::copy_nonoverlapping(offs.as_ptr(), p, offs.len());
                Ok(p)
            })
        }
        .unwrap_or(std::ptr::null_mut())
    })
}

/// The indices of the chunks a slice touches, in a malloc'd `*chunks_idx`; returns their
/// number. `start`/`stop` hold one position per dimension of a "b2nd" array, or one
/// item position otherwise. A super-chunk without chunks or "b2nd" metalayer touches no
/// chunk: 0 and a NULL `*chunks_idx`.
///
/// # Safety
/// `schunk` must be NULL or live; `start` and `stop` readable; `chunks_idx` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_get_slice_nchunks(
    schunk: *mut blosc2_schunk,
    start: *mut i64,
    stop: *mut i64,
    chunks_idx: *mut *mut i64,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        if schunk.is_null() {
            return i64::from(Error::NullPointer.code());
        }
        if start.is_null() || stop.is_null() || chunks_idx.is_null() {
            return i64::from(Error::NullPointer.code());
        }
        // SAFETY: forwarded caller guarantees.
        unsafe {
            with_schunk(schunk, |b| {
                let nd_meta = b
                    .core
                    .metalayers()
                    .iter()
                    .find(|m| m.name == "b2nd" || m.name == "caterva");
                if nd_meta.is_none() && b.core.nchunks() == 0 {
                    *chunks_idx = std::ptr::null_mut();
                    return Ok(0);
                }
                let ndim = nd_meta
                    .and_then(|m| m.content.get(2).copied())
                    .map_or(1, |n| usize::from(n).min(16));
                let idx = b.core.slice_chunks(
                    std::slice::from_raw_parts(start, ndim),
                    std::slice::from_raw_parts(stop, ndim),
                )?;
                if nd_meta.is_none() && idx.is_empty() {
                    // The reference reports the span, also when it is negative.
                    *chunks_idx = std::ptr::null_mut();
                    return Ok(b.core.flat_slice_span(*start, *stop));
                }
                let p = libc::malloc(idx.len().max(1) * 8).cast::<i64>();
                if p.is_null() {
                    return Err(Error::MemoryAlloc);
                }
                std::ptr::copy_nonoverlapping(idx.as_ptr(), p, idx.len());
                *chunks_idx = p;
                Ok(idx.len() as i64)
            })
        }
        .unwrap_or_else(|e| i64::from(e.code()))
    })
}

/// Flat index of `index` (`ndim` coordinates) in a layout with `strides`.
///
/// # Safety
/// `index` and `strides` readable for `ndim` items; `i` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_multidim_to_unidim(
    index: *const i64,
    ndim: i8,
    strides: *const i64,
    i: *mut i64,
) {
    guard((), || {
        let n = usize::try_from(ndim).unwrap_or(0);
        if i.is_null() || (n > 0 && (index.is_null() || strides.is_null())) {
            return;
        }
        // SAFETY: forwarded caller guarantees.
        unsafe {
            let (a, s): (&[i64], &[i64]) = if n == 0 {
                (&[], &[])
            } else {
                (
                    std::slice::from_raw_parts(index, n),
                    std::slice::from_raw_parts(strides, n),
                )
            };
            *i = multidim_to_unidim(a, s);
        }
    })
}

/// C-order coordinates of flat position `i` in an array of `shape` (`ndim` dimensions).
///
/// # Safety
/// `shape` readable and `index` writable for `ndim` items.
#[no_mangle]
pub unsafe extern "C" fn blosc2_unidim_to_multidim(
    ndim: u8,
    shape: *mut i64,
    i: i64,
    index: *mut i64,
) {
    guard((), || {
        let n = usize::from(ndim);
        if n == 0 || shape.is_null() || index.is_null() {
            return;
        }
        // SAFETY: forwarded caller guarantees.
        unsafe {
            let s = std::slice::from_raw_parts(shape, n);
            let out = unidim_to_multidim(s, i);
            std::ptr::copy_nonoverlapping(out.as_ptr(), index, n);
        }
    })
}
