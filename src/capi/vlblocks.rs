//! The decoding side of the VL-block C API (`blosc2_vlchunk_get_nblocks`,
//! `blosc2_vldecompress_ctx`, `blosc2_vldecompress_block_ctx`), needed to read frames
//! whose chunks have variable-length blocks. A context handle is only checked for being
//! a decompression context (its parameters give the thread count); decoding runs in a
//! context of the same parameters.

use std::ffi::{c_int, c_void};

use super::context::blosc2_ctx_get_dparams;
use super::ffi::{bytes, guard, size};
use super::schunk_ops::malloc_copy;
use super::types::{blosc2_context, blosc2_dparams};
use crate::context::{Context, DParams};
use crate::error::{Error, Result};

/// A decompression context with the parameters of the handle `ctx`; `InvalidParam` for a
/// compression context.
///
/// # Safety
/// `ctx` must be NULL or a live context handle.
unsafe fn decompressor(ctx: *mut blosc2_context) -> Result<Context> {
    if ctx.is_null() {
        return Err(Error::NullPointer);
    }
    let mut d = blosc2_dparams::DEFAULTS;
    // SAFETY: forwarded caller guarantee; `d` is writable.
    if unsafe { blosc2_ctx_get_dparams(ctx, &mut d) } < 0 || d.typesize != 0 {
        return Err(Error::InvalidParam);
    }
    Ok(Context::decompressor(DParams {
        nthreads: d.nthreads.max(1),
        typesize: 8,
    }))
}

/// Stores the number of blocks of a VL-block chunk in `*nblocks`; 0 or a negative code.
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
        // SAFETY: forwarded caller guarantees.
        let (Some(s), false) = (unsafe { bytes(src, size(srcsize)) }, nblocks.is_null()) else {
            return Error::InvalidParam.code();
        };
        match crate::chunk::vl_nblocks(s) {
            Ok(n) => {
                // SAFETY: checked non-NULL above.
                unsafe { *nblocks = n };
                0
            }
            Err(e) => e.code(),
        }
    })
}

/// Decompresses every block into malloc'd buffers (`dests[j]`, `destsizes[j]`); returns
/// the number of blocks.
///
/// # Safety
/// `context` must be a live handle; `src` readable for `srcsize` bytes; `dests` and
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
        let r = (|| -> Result<c_int> {
            // SAFETY: forwarded caller guarantees.
            let mut ctx = unsafe { decompressor(context) }?;
            // SAFETY: forwarded caller guarantees.
            let s = unsafe { bytes(src, size(srcsize)) }.ok_or(Error::InvalidParam)?;
            let n = crate::chunk::vl_nblocks(s)?;
            if dests.is_null() || destsizes.is_null() || maxblocks < n {
                return Err(Error::InvalidParam);
            }
            let mut blocks = Vec::with_capacity(n as usize);
            for j in 0..n {
                blocks.push(ctx.vl_decompress_block(s, j)?);
            }
            for (j, b) in blocks.iter().enumerate() {
                let p = malloc_copy(b)?;
                // SAFETY: `j < n <= maxblocks` entries are writable per the caller.
                unsafe {
                    *dests.add(j) = p.cast();
                    *destsizes.add(j) = b.len() as i32;
                }
            }
            Ok(n)
        })();
        r.unwrap_or_else(|e| e.code())
    })
}

/// Decompresses block `nblock` into a malloc'd `*dest`; returns its size.
///
/// # Safety
/// `context` must be a live handle; `src` readable for `srcsize` bytes; `dest` and
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
        let r = (|| -> Result<c_int> {
            // SAFETY: forwarded caller guarantees.
            let mut ctx = unsafe { decompressor(context) }?;
            // SAFETY: forwarded caller guarantees.
            let s = unsafe { bytes(src, size(srcsize)) }.ok_or(Error::InvalidParam)?;
            if dest.is_null() || destsize.is_null() {
                return Err(Error::InvalidParam);
            }
            let b = ctx.vl_decompress_block(s, nblock)?;
            let p = malloc_copy(&b)?;
            // SAFETY: both out-pointers checked above.
            unsafe {
                *dest = p;
                *destsize = b.len() as i32;
            }
            Ok(b.len() as c_int)
        })();
        r.unwrap_or_else(|e| e.code())
    })
}
