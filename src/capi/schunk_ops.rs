//! Chunk operations of `blosc2_schunk`.

use std::borrow::Cow;
use std::ffi::{c_int, c_void};

use super::ffi::{bytes, bytes_mut, guard, trusted_chunk};
use super::ffi::{code32, code64};
use super::schunk::{with_schunk, SchunkBox};
use super::types::blosc2_schunk;
use crate::error::{Error, Result};

/// A malloc'd copy of `data`.
pub(crate) fn malloc_copy(data: &[u8]) -> Result<*mut u8> {
    // SAFETY: malloc has no preconditions; the result is checked.
    let p = unsafe { libc::malloc(data.len().max(1)) }.cast::<u8>();
    if p.is_null() {
        return Err(Error::MemoryAlloc);
    }
    // SAFETY: `p` has room for `data.len()` bytes.
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
    Ok(p)
}

/// Runs a chunk-taking operation; with `copy` false the chunk is freed once taken.
///
/// # Safety
/// `chunk` must point to a whole chunk (malloc'd when `copy` is false).
unsafe fn take_chunk(
    chunk: *mut u8,
    copy: bool,
    f: impl FnOnce(&[u8]) -> Result<i64>,
) -> Result<i64> {
    // SAFETY: forwarded caller guarantee.
    let c = unsafe { trusted_chunk(chunk.cast()) }?;
    let r = f(c)?;
    if !copy {
        // SAFETY: ownership of the malloc'd chunk was handed to us.
        unsafe { libc::free(chunk.cast()) };
    }
    Ok(r)
}

/// Records, as the reference does, the chunk a slice of items `start..stop` read last (an
/// empty slice reads none).
fn set_current_to_last(b: &mut SchunkBox, start: i64, stop: i64) {
    let items = i64::from(b.core.chunksize()) / i64::from(b.core.typesize().max(1));
    if items > 0 && stop > 0 && stop > start {
        b.c.current_nchunk = (stop - 1) / items;
    }
}

/// Appends a compressed chunk; returns the new number of chunks or a negative code.
///
/// # Safety
/// `schunk` must be live; `chunk` a whole chunk (malloc'd when `copy` is false).
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_append_chunk(
    schunk: *mut blosc2_schunk,
    chunk: *mut u8,
    copy: bool,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                let n = take_chunk(chunk, copy, |c| b.core.append_chunk(c));
                appended(b, n)
            })
        })
    })
}

/// Points `current_nchunk` at the chunk an append added; the reference points it past the
/// last chunk before it fails on a frame whose chunks hold no data (-3).
fn appended(b: &mut SchunkBox, n: Result<i64>) -> Result<i64> {
    match n {
        Ok(n) => b.c.current_nchunk = n - 1,
        Err(Error::Data) => b.c.current_nchunk = b.core.nchunks(),
        Err(_) => {}
    }
    n
}

/// Inserts a compressed chunk at `nchunk`; returns the new number of chunks.
///
/// # Safety
/// As for `blosc2_schunk_append_chunk`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_insert_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    chunk: *mut u8,
    copy: bool,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                let n = take_chunk(chunk, copy, |c| b.core.insert_chunk(nchunk, c))?;
                b.c.current_nchunk = nchunk;
                Ok(n)
            })
        })
    })
}

/// Replaces chunk `nchunk`; returns the number of chunks.
///
/// # Safety
/// As for `blosc2_schunk_append_chunk`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_update_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    chunk: *mut u8,
    copy: bool,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                if nchunk < 0 || nchunk >= b.core.nchunks() {
                    return Err(Error::InvalidParam);
                }
                let n = take_chunk(chunk, copy, |c| b.core.update_chunk(nchunk, c))?;
                b.c.current_nchunk = nchunk;
                Ok(n)
            })
        })
    })
}

/// Removes chunk `nchunk`; returns the new number of chunks.
///
/// # Safety
/// `schunk` must be live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_delete_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                let n = b.core.delete_chunk(nchunk)?;
                b.c.current_nchunk = nchunk;
                Ok(n)
            })
        })
    })
}

/// Compresses `nbytes` bytes from `src` and appends them; returns the new number of chunks.
///
/// # Safety
/// `schunk` must be live and `src` readable for `nbytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_append_buffer(
    schunk: *mut blosc2_schunk,
    src: *const c_void,
    nbytes: i32,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                let n = usize::try_from(nbytes).map_err(|_| Error::InvalidParam)?;
                let src = bytes(src, n).ok_or(Error::NullPointer)?;
                let n = b.core.append_buffer(src);
                appended(b, n)
            })
        })
    })
}

/// Decompresses chunk `nchunk` into `dest` (`nbytes` long); returns its size.
///
/// # Safety
/// `schunk` must be live and `dest` writable for `nbytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_decompress_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    dest: *mut c_void,
    nbytes: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let n = usize::try_from(nbytes).map_err(|_| Error::InvalidParam)?;
                let dst = bytes_mut(dest, n).ok_or(Error::NullPointer)?;
                let n = b.core.decompress_chunk(nchunk, dst)?;
                b.c.current_nchunk = nchunk;
                Ok(n as i64)
            })
        })
    })
}

/// Which form of a chunk `hand_out_chunk` returns.
#[derive(Clone, Copy)]
enum ChunkForm {
    Whole,
    Lazy,
}

/// Points `*chunk` at chunk `nchunk` in the given form and sets `*needs_free`; returns its
/// compressed size, or a negative code with both outputs cleared.
///
/// # Safety
/// `schunk` must be live; `chunk` and `needs_free` NULL or writable.
unsafe fn hand_out_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    chunk: *mut *mut u8,
    needs_free: *mut bool,
    form: ChunkForm,
) -> c_int {
    if chunk.is_null() || needs_free.is_null() {
        return Error::NullPointer.code();
    }
    // SAFETY: forwarded caller guarantees.
    let r = unsafe {
        with_schunk(schunk, |b| {
            let c = match form {
                ChunkForm::Whole => b.core.chunk(nchunk)?,
                ChunkForm::Lazy => b.core.lazy_chunk(nchunk)?,
            };
            let len = c.len() as i64;
            let (p, free) = match c {
                Cow::Borrowed(s) => (s.as_ptr().cast_mut(), false),
                Cow::Owned(v) => (malloc_copy(&v)?, true),
            };
            *chunk = p;
            *needs_free = free;
            b.c.current_nchunk = nchunk;
            Ok(len)
        })
    };
    if r.is_err() {
        // SAFETY: both out-pointers were checked above.
        unsafe {
            *chunk = std::ptr::null_mut();
            *needs_free = false;
        }
    }
    code32(r)
}

/// Points `*chunk` at chunk `nchunk` (a malloc'd copy when `*needs_free` is set); returns
/// its compressed size.
///
/// # Safety
/// `schunk` must be live; `chunk` and `needs_free` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_chunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    chunk: *mut *mut u8,
    needs_free: *mut bool,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe { hand_out_chunk(schunk, nchunk, chunk, needs_free, ChunkForm::Whole) }
    })
}

/// Like `blosc2_schunk_get_chunk`, but chunks of file-backed frames come back lazy: header,
/// block starts and a trailer (chunk number, index entry, block sizes), always malloc'd.
///
/// # Safety
/// As for `blosc2_schunk_get_chunk`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_lazychunk(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    chunk: *mut *mut u8,
    needs_free: *mut bool,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        unsafe { hand_out_chunk(schunk, nchunk, chunk, needs_free, ChunkForm::Lazy) }
    })
}

/// The whole chunk a lazy chunk (from `blosc2_schunk_get_lazychunk`) stands for, read from
/// the super-chunk `schunk` it came from; `None` when `src` is not lazy or `schunk` is
/// NULL. This is the hook for the decompression entry points (`blosc2_decompress_ctx`,
/// `blosc2_getitem_ctx`, the VL-block decoders) to decode lazy chunks with a context bound
/// to a super-chunk (`dparams.schunk`), as the reference does.
///
/// # Safety
/// `schunk` must be NULL or a live super-chunk not borrowed elsewhere.
pub unsafe fn resolve_lazy(schunk: *mut blosc2_schunk, src: &[u8]) -> Option<Result<Vec<u8>>> {
    let h = crate::chunk::Header::parse(src).ok()?;
    if !h.is_lazy() || schunk.is_null() {
        return None;
    }
    // SAFETY: forwarded caller guarantee.
    let b = unsafe { super::schunk::schunk_box(schunk) }?;
    Some(b.core.resolve_lazy(src))
}

/// Decodes block `nblock` of VL-block chunk `nchunk` into a malloc'd `*dest`; returns its
/// size.
///
/// # Safety
/// `schunk` must be live; `dest` and `destsize` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_vlblock(
    schunk: *mut blosc2_schunk,
    nchunk: i64,
    nblock: i32,
    dest: *mut *mut u8,
    destsize: *mut i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        if dest.is_null() || destsize.is_null() {
            return Error::NullPointer.code();
        }
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let v = b.core.vlblock(nchunk, nblock)?;
                *dest = malloc_copy(&v)?;
                *destsize = v.len() as i32;
                Ok(v.len() as i64)
            })
        })
    })
}

/// Decompresses items `start..stop` into `buffer`; 0 or a negative code.
///
/// # Safety
/// `schunk` must be live and `buffer` writable for `(stop - start) * typesize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_slice_buffer(
    schunk: *mut blosc2_schunk,
    start: i64,
    stop: i64,
    buffer: *mut c_void,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let len = slice_len(b.core.typesize(), start, stop)?;
                let buf = bytes_mut(buffer, len).ok_or(Error::NullPointer)?;
                b.core.get_slice(start, stop, buf)?;
                set_current_to_last(b, start, stop);
                Ok(0)
            })
        })
    })
}

/// Overwrites items `start..stop` with `buffer`; 0 or a negative code.
///
/// # Safety
/// `schunk` must be live and `buffer` readable for `(stop - start) * typesize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_set_slice_buffer(
    schunk: *mut blosc2_schunk,
    start: i64,
    stop: i64,
    buffer: *mut c_void,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let len = slice_len(b.core.typesize(), start, stop)?;
                let buf = bytes(buffer, len).ok_or(Error::NullPointer)?;
                b.core.set_slice(start, stop, buf)?;
                set_current_to_last(b, start, stop);
                Ok(0)
            })
        })
    })
}

/// Gathers the items at `coords` into `buffer`; 0 or a negative code.
///
/// # Safety
/// `schunk` must be live, `coords` readable for `ncoords` items and `buffer` writable for
/// `ncoords * typesize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_sparse_buffer(
    schunk: *mut blosc2_schunk,
    ncoords: i64,
    coords: *const i64,
    buffer: *mut c_void,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let n = usize::try_from(ncoords).map_err(|_| Error::InvalidParam)?;
                if coords.is_null() && n > 0 {
                    return Err(Error::NullPointer);
                }
                let cs: &[i64] = if n == 0 {
                    &[]
                } else {
                    std::slice::from_raw_parts(coords, n)
                };
                let ts = usize::try_from(b.core.typesize()).map_err(|_| Error::InvalidParam)?;
                let buf = bytes_mut(buffer, n.checked_mul(ts).ok_or(Error::InvalidParam)?)
                    .ok_or(Error::NullPointer)?;
                b.core.get_sparse(cs, buf).map(|()| 0)
            })
        })
    })
}

fn slice_len(typesize: i32, start: i64, stop: i64) -> Result<usize> {
    if start < 0 {
        return Err(Error::Failure);
    }
    if stop < start {
        return Err(Error::InvalidParam);
    }
    let n = (stop - start)
        .checked_mul(i64::from(typesize))
        .ok_or(Error::InvalidParam)?;
    usize::try_from(n).map_err(|_| Error::InvalidParam)
}

/// Permutes the chunks: new chunk `i` is old chunk `offsets_order[i]`; 0 or `-3`.
///
/// # Safety
/// `schunk` must be live and `offsets_order` readable for `nchunks` items.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_reorder_offsets(
    schunk: *mut blosc2_schunk,
    offsets_order: *mut i64,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        code32(unsafe {
            with_schunk(schunk, |b| {
                let n = b.core.nchunks() as usize;
                if offsets_order.is_null() && n > 0 {
                    return Err(Error::NullPointer);
                }
                let order: &[i64] = if n == 0 {
                    &[]
                } else {
                    std::slice::from_raw_parts(offsets_order, n)
                };
                b.core.reorder(order).map(|()| 0)
            })
        })
    })
}

/// Fills an empty super-chunk with `nitems` items of a special value; returns the number
/// of chunks.
///
/// # Safety
/// `schunk` must be live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_fill_special(
    schunk: *mut blosc2_schunk,
    nitems: i64,
    special_value: c_int,
    chunksize: i32,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        use crate::special::Special;
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                if nitems < 0 || chunksize <= 0 {
                    return Err(Error::InvalidParam);
                }
                if nitems == 0 {
                    return Ok(0);
                }
                if !b.core.is_pristine() {
                    return Err(Error::FrameSpecial);
                }
                let kind = match special_value {
                    1 => Special::Zeros,
                    2 => Special::Nans,
                    4 => Special::Uninit,
                    _ => return Err(b.core.special_error()),
                };
                b.core.take_touched();
                let n = b.core.fill_special(nitems, kind, chunksize)?;
                if let Some(t) = b.core.take_touched() {
                    b.c.current_nchunk = t;
                }
                Ok(n)
            })
        })
    })
}
