//! Variable-length-block chunks: block count and decompression into malloc'ed blocks.

use std::ffi::{c_int, c_void};

use super::context::{bound_schunk, handle_ctx};
use super::ffi::{bytes, bytes_mut, code, guard, size};
use super::schunk_ops::resolve_lazy;
use super::types::blosc2_context;
use crate::chunk::vl_nblocks;
use crate::constants::MAX_BUFFERSIZE;
use crate::error::Error;

/// A malloc'ed copy of `data` (C callers release it with `free`); NULL on allocation failure.
fn malloc_copy(data: &[u8]) -> *mut u8 {
    // SAFETY: malloc has no preconditions; a zero size still yields a freeable pointer.
    let p = unsafe { libc::malloc(data.len().max(1)) }.cast::<u8>();
    if !p.is_null() {
        // SAFETY: `p` has room for `data.len()` bytes and does not overlap `data`.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
    }
    p
}

/// Stores the number of blocks of a VL-block chunk in `*nblocks`; 0 or a negative error.
///
/// # Safety
/// `src` must be readable for `srcsize` bytes and `nblocks` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlchunk_get_nblocks(
    src: *const c_void,
    srcsize: i32,
    nblocks: *mut i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees the buffer size.
        let Some(src) = (unsafe { bytes(src, size(srcsize)) }) else {
            return Error::InvalidParam.code();
        };
        if nblocks.is_null() {
            return Error::InvalidParam.code();
        }
        match vl_nblocks(src) {
            Ok(n) => {
                // SAFETY: checked non-NULL; the caller guarantees it is writable.
                unsafe { *nblocks = n };
                0
            }
            Err(e) => e.code(),
        }
    })
}

/// Decompresses every block of a VL-block chunk into new malloc'ed buffers stored in
/// `dests[i]` (sizes in `destsizes[i]`); returns the number of blocks.
///
/// # Safety
/// `context` must be a live context, `src` readable for `srcsize` bytes, `dests` and
/// `destsizes` writable for `maxblocks` entries.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vldecompress_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    dests: *mut *mut c_void,
    destsizes: *mut i32,
    maxblocks: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(h), Some(src)) = (unsafe { handle_ctx(context) }, unsafe {
            bytes(src, size(srcsize))
        }) else {
            return Error::NullPointer.code();
        };
        if h.ctx.is_compressor() || dests.is_null() || destsizes.is_null() {
            return Error::InvalidParam.code();
        }
        let blocks = match h
            .ctx
            .vl_decompress(src, usize::try_from(maxblocks).unwrap_or(0))
        {
            Ok(b) => b,
            Err(e) => return e.code(),
        };
        let mut ptrs = Vec::with_capacity(blocks.len());
        for b in &blocks {
            let p = malloc_copy(b);
            if p.is_null() {
                // SAFETY: every pointer in `ptrs` came from malloc above.
                ptrs.iter()
                    .for_each(|&q: &*mut u8| unsafe { libc::free(q.cast()) });
                return Error::MemoryAlloc.code();
            }
            ptrs.push(p);
        }
        let n = blocks.len() as c_int;
        for (i, (p, b)) in ptrs.iter().zip(&blocks).enumerate() {
            // SAFETY: the caller guarantees `maxblocks` ≥ n writable entries in both arrays.
            unsafe {
                *dests.add(i) = p.cast();
                *destsizes.add(i) = b.len() as i32;
            }
        }
        n
    })
}

/// Decompresses block `nblock` of a VL-block chunk into a new malloc'ed buffer stored in
/// `*dest` (size in `*destsize`); returns the block size.
///
/// # Safety
/// `context` must be a live context, `src` readable for `srcsize` bytes, `dest` and
/// `destsize` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vldecompress_block_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    nblock: i32,
    dest: *mut *mut u8,
    destsize: *mut i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(h), Some(src)) = (unsafe { handle_ctx(context) }, unsafe {
            bytes(src, size(srcsize))
        }) else {
            return Error::NullPointer.code();
        };
        if h.ctx.is_compressor() || dest.is_null() || destsize.is_null() {
            return Error::InvalidParam.code();
        }
        // SAFETY: a context bound to a super-chunk carries a live `blosc2_schunk` pointer.
        let whole = match unsafe { resolve_lazy(bound_schunk(h), src) } {
            Some(Ok(w)) => Some(w),
            Some(Err(e)) => return e.code(),
            None => None,
        };
        let src = whole.as_deref().unwrap_or(src);
        let block = match h.ctx.vl_decompress_block(src, nblock) {
            Ok(b) => b,
            Err(e) => return e.code(),
        };
        let p = malloc_copy(&block);
        if p.is_null() {
            return Error::MemoryAlloc.code();
        }
        // SAFETY: checked non-NULL; the caller guarantees they are writable.
        unsafe {
            *dest = p;
            *destsize = block.len() as i32;
        }
        block.len() as c_int
    })
}

/// Compresses `nblocks` caller buffers (`srcs[i]`, `srcsizes[i]` bytes each) into one chunk
/// with variable-length blocks; returns its size, 0 when it does not fit, or a negative
/// error (-12 for a decompression context, no blocks, NULL or empty blocks; -35 for a total
/// above `BLOSC2_MAX_BUFFERSIZE` or a destination under 32 bytes).
///
/// # Safety
/// `context` must be a live context; `srcs` and `srcsizes` readable for `nblocks` entries,
/// each `srcs[i]` readable for `srcsizes[i]` bytes; `dest` writable for `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_vlcompress_ctx(
    context: *mut blosc2_context,
    srcs: *const *const c_void,
    srcsizes: *const i32,
    nblocks: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some(h) = (unsafe { handle_ctx(context) }) else {
            return Error::InvalidParam.code();
        };
        if !h.ctx.is_compressor() || nblocks <= 0 || srcs.is_null() || srcsizes.is_null() {
            return Error::InvalidParam.code();
        }
        let n = nblocks as usize;
        // SAFETY: the caller guarantees `nblocks` readable entries in both arrays.
        let (ptrs, sizes) = unsafe {
            (
                std::slice::from_raw_parts(srcs, n),
                std::slice::from_raw_parts(srcsizes, n),
            )
        };
        if sizes.iter().any(|&s| s <= 0) || ptrs.iter().any(|p| p.is_null()) {
            return Error::InvalidParam.code();
        }
        // The total is checked before any block is looked at.
        let total: i64 = sizes.iter().map(|&s| i64::from(s)).sum();
        if total > MAX_BUFFERSIZE {
            return Error::MaxBufsizeExceeded.code();
        }
        let blocks: Vec<&[u8]> = ptrs
            .iter()
            .zip(sizes)
            // SAFETY: the caller guarantees each block is readable for its size.
            .map(|(&p, &s)| unsafe { std::slice::from_raw_parts(p.cast::<u8>(), s as usize) })
            .collect();
        // SAFETY: the caller guarantees the destination size.
        let Some(dst) = (unsafe { bytes_mut(dest, size(destsize)) }) else {
            return Error::InvalidParam.code();
        };
        code(h.ctx.vl_compress(&blocks, dst))
    })
}
