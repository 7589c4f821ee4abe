//! The `b2nd_array_t` C struct: allocating it around a super-chunk, filling its geometry
//! fields as the reference does, and running core array operations on it.
//!
//! The C struct is the source of truth for the geometry (programs read and may write its
//! fields); its `sc` is a `blosc2_schunk*` built by `SchunkBox`, usable with every
//! `blosc2_schunk_*` function. Every operation reads the geometry from the struct, runs
//! on the core super-chunk under the super-chunk's lock, and writes the geometry back.

use std::ffi::{c_char, CStr};

use super::ffi::malloc_c_string;
use super::schunk::{locking_for, schunk_box, with_schunk, SchunkBox, UserParams};
use super::schunk_lock::FrameLock;
use super::types::{b2nd_array_t, blosc2_io, blosc2_schunk, B2ND_MAX_DIM};
use crate::b2nd::meta::MAX_DIM;
use crate::b2nd::{Array, Geometry};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The borrowed core view of a C array.
pub(crate) type CoreArray<'a> = Array<&'a mut SuperChunk>;

/// Writes the geometry fields of `a` as the reference's `update_shape` computes them
/// (including its stride conventions for dimensions after an empty one).
pub(crate) fn write_geometry(a: &mut b2nd_array_t, g: &Geometry) {
    let n = g.ndim();
    let max = B2ND_MAX_DIM as usize;
    a.ndim = n as i8;
    for d in 0..max {
        if d < n {
            a.shape[d] = g.shape()[d];
            a.chunkshape[d] = g.chunkshape()[d];
            a.blockshape[d] = g.blockshape()[d];
            a.extshape[d] = g.extshape()[d];
            a.extchunkshape[d] = g.extchunkshape()[d];
        } else {
            a.shape[d] = 1;
            a.chunkshape[d] = 1;
            a.blockshape[d] = 1;
            a.extshape[d] = 1;
            a.extchunkshape[d] = 1;
        }
    }
    a.nitems = g.nitems();
    a.extnitems = g.extnitems();
    a.extchunknitems = g.extchunknitems();
    a.chunknitems = g.chunknitems() as i32;
    a.blocknitems = g.blocknitems() as i32;
    if n > 0 {
        a.item_array_strides[n - 1] = 1;
        a.item_extchunk_strides[n - 1] = 1;
        a.item_chunk_strides[n - 1] = 1;
        a.item_block_strides[n - 1] = 1;
        a.block_chunk_strides[n - 1] = 1;
        a.chunk_array_strides[n - 1] = 1;
    }
    for d in (0..n.saturating_sub(1)).rev() {
        if a.shape[d + 1] == 0 {
            a.item_array_strides[d] = 0;
            a.item_extchunk_strides[d] = 0;
            a.item_chunk_strides[d] = 0;
            a.item_block_strides[d] = 0;
            a.block_chunk_strides[d] = 0;
            a.chunk_array_strides[d] = 0;
            continue;
        }
        let bs = i64::from(a.blockshape[d + 1]);
        a.item_array_strides[d] = a.item_array_strides[d + 1].wrapping_mul(a.shape[d + 1]);
        a.item_extchunk_strides[d] =
            a.item_extchunk_strides[d + 1].wrapping_mul(a.extchunkshape[d + 1]);
        a.item_chunk_strides[d] =
            a.item_chunk_strides[d + 1].wrapping_mul(i64::from(a.chunkshape[d + 1]));
        a.item_block_strides[d] = a.item_block_strides[d + 1].wrapping_mul(bs);
        a.block_chunk_strides[d] =
            a.block_chunk_strides[d + 1].wrapping_mul(a.extchunkshape[d + 1] / bs.max(1));
        a.chunk_array_strides[d] = a.chunk_array_strides[d + 1]
            .wrapping_mul(a.extshape[d + 1].wrapping_mul(i64::from(a.chunkshape[d + 1])));
    }
}

/// The geometry in the fields of `a` (validated).
pub(crate) fn geometry_of(a: &b2nd_array_t) -> Result<Geometry> {
    let n = usize::try_from(a.ndim)
        .ok()
        .filter(|&n| n <= MAX_DIM)
        .ok_or(Error::InvalidParam)?;
    Geometry::new(&a.shape[..n], &a.chunkshape[..n], &a.blockshape[..n])
}

/// The dtype string of `a`.
fn dtype_of(a: &b2nd_array_t) -> Option<String> {
    if a.dtype.is_null() {
        return None;
    }
    // SAFETY: the struct's dtype is NULL or the NUL-terminated string set at creation.
    Some(
        unsafe { CStr::from_ptr(a.dtype) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// Allocates (with libc, as the reference) a C array around `sc`.
pub(crate) fn alloc_array(
    sc: *mut blosc2_schunk,
    g: &Geometry,
    dtype: Option<&str>,
    dtype_format: i8,
) -> Result<*mut b2nd_array_t> {
    // SAFETY: calloc has no preconditions; the result is checked for NULL. All-zero bytes
    // are a valid `b2nd_array_t` (integers and null pointers).
    let p = unsafe { libc::calloc(1, std::mem::size_of::<b2nd_array_t>()) }.cast::<b2nd_array_t>();
    // SAFETY: `p` is NULL or a fresh zeroed allocation of the struct's size and alignment.
    let a = unsafe { p.as_mut() }.ok_or(Error::MemoryAlloc)?;
    a.sc = sc;
    write_geometry(a, g);
    a.dtype = dtype.map_or(std::ptr::null_mut(), malloc_c_string);
    a.dtype_format = dtype_format;
    a.chunk_cache.nchunk = -1;
    // SAFETY: `sc` is a live super-chunk from this library.
    a.last_tick = unsafe { schunk_box(sc) }.map_or(0, |b| b.core.change_tick());
    Ok(p)
}

/// Frees a C array and (unless NULL) its super-chunk.
///
/// # Safety
/// `a` must be a live array from this library, not used afterwards.
pub(crate) unsafe fn free_array(a: *mut b2nd_array_t) {
    // SAFETY: the caller guarantees a live array.
    let arr = unsafe { &mut *a };
    super::b2nd_view::forget(a, arr.sc);
    if !arr.sc.is_null() {
        // SAFETY: the super-chunk belongs to the array.
        unsafe { super::schunk::blosc2_schunk_free(arr.sc) };
    }
    // SAFETY: dtype and the struct come from libc allocations (or NULL).
    unsafe {
        libc::free(arr.chunk_cache.data.cast());
        libc::free(arr.dtype.cast());
        libc::free(a.cast());
    }
}

/// Boxes a new core array as a C array; `io` and `user` come from the storage it was
/// created with.
pub(crate) fn array_into_c(
    a: Array,
    io: blosc2_io,
    user: Option<UserParams>,
) -> Result<*mut b2nd_array_t> {
    let (mut sc, geom, dtype, dtype_format) = a.into_parts();
    let touched = sc.take_touched();
    let lock = locking_for(&sc, &io).unwrap_or_else(|_| FrameLock::none());
    let scp = SchunkBox::into_c(sc, io, lock, user);
    if scp.is_null() {
        return Err(Error::Failure);
    }
    // SAFETY: the super-chunk was just created here and is not shared.
    if let (Some(n), Some(b)) = (touched, unsafe { schunk_box(scp) }) {
        b.c.current_nchunk = n;
    }
    alloc_array(scp, &geom, dtype.as_deref(), dtype_format).inspect_err(|_| {
        // SAFETY: the super-chunk was just created here and is not shared.
        unsafe { super::schunk::blosc2_schunk_free(scp) };
    })
}

/// Runs `f` on the core view of the C array `a` under its super-chunk's lock. The
/// geometry comes from the struct's fields, re-read from the metalayer first when the
/// super-chunk changed behind the array's back (data operations also follow other
/// handles' changes on disk, see `Array::refresh`); afterwards the fields hold the final
/// geometry and `last_tick` the super-chunk's counter. A view (`b2nd_view`) first catches
/// up with its source, and the chunks the operation changed go back to the source.
///
/// # Safety
/// `a` must be NULL or a live array from this library whose `sc` is NULL or live.
pub(crate) unsafe fn with_array<T>(
    a: *const b2nd_array_t,
    f: impl FnOnce(&mut CoreArray) -> Result<T>,
) -> Result<T> {
    // SAFETY: the caller guarantees a live array; programs hand const pointers to arrays
    // this library allocated, so writing the geometry back is sound.
    let arr = unsafe { a.cast_mut().as_mut() }.ok_or(Error::NullPointer)?;
    if arr.sc.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: `arr.sc` is the array's live super-chunk; a view's source is live while linked.
    let linked = unsafe { super::b2nd_view::pull(a, arr.sc) }?;
    // SAFETY: as above.
    let tick_before = unsafe { schunk_box(arr.sc) }.map(|b| b.core.change_tick());
    let geom = geometry_of(arr)?;
    let dtype = dtype_of(arr);
    let (fmt, last_tick) = (arr.dtype_format, arr.last_tick);
    let mut after = None;
    // SAFETY: `arr.sc` is the array's live super-chunk.
    let mut r = unsafe {
        with_schunk(arr.sc, |b| {
            b.core.take_touched();
            let mut core = Array {
                sc: &mut b.core,
                geom,
                dtype,
                dtype_format: fmt,
            };
            if core.schunk().change_tick() != last_tick {
                if let Err(Error::Data) = core.reload_meta() {
                    return Err(Error::Data);
                }
            }
            let before = core.geom.clone();
            let r = f(&mut core);
            after = Some((core.geom != before, core.geom.clone()));
            // As in the reference, the super-chunk's current chunk is the last one the
            // operation read or wrote.
            if let Some(n) = b.core.take_touched() {
                b.c.current_nchunk = n;
            }
            b.sync_meta_if_changed();
            r
        })
    };
    let mut reshaped = false;
    if let Some((changed, g)) = after {
        reshaped = changed;
        if geometry_of(arr).as_ref() != Ok(&g) {
            write_geometry(arr, &g);
        }
    }
    // SAFETY: as above.
    let tick_after = unsafe { schunk_box(arr.sc) }.map(|b| b.core.change_tick());
    if let Some(t) = tick_after {
        arr.last_tick = t;
    }
    if linked && r.is_ok() {
        // SAFETY: as above.
        let pushed =
            unsafe { super::b2nd_view::push(a, arr.sc, tick_after != tick_before, reshaped) };
        if let Err(e) = pushed {
            r = Err(e);
        }
    }
    r
}

/// Stores `p` in `*out` when `out` is not NULL.
///
/// # Safety
/// `out` must be NULL or writable.
pub(crate) unsafe fn put(out: *mut *mut b2nd_array_t, p: *mut b2nd_array_t) {
    // SAFETY: the caller guarantees `out` is NULL or writable.
    if let Some(o) = unsafe { out.as_mut() } {
        *o = p;
    }
}

/// The path in a C string, without a `file:///` prefix.
///
/// # Safety
/// `urlpath` must be NULL or a NUL-terminated string.
pub(crate) unsafe fn c_path(urlpath: *const c_char) -> Result<std::path::PathBuf> {
    // SAFETY: forwarded caller guarantee.
    let s = unsafe { super::ffi::c_str(urlpath) }.ok_or(Error::NullPointer)?;
    Ok(std::path::PathBuf::from(
        s.strip_prefix("file:///").unwrap_or(s),
    ))
}
