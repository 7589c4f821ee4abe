//! Direct access to the shuffle and bitshuffle filters.

use std::ffi::c_void;

use super::ffi::{bytes, bytes_mut, guard, size};
use crate::error::Error;
use crate::filters::{bitshuffle, shuffle};

type Kernel = fn(usize, &[u8], &mut [u8]);

/// Largest typesize `blosc2_shuffle`, `blosc2_unshuffle` and `blosc2_bitshuffle` accept.
const MAX_SHUFFLE_TYPESIZE: i32 = 256;

/// Runs `kernel` over `blocksize` bytes after the reference's argument checks (typesize
/// `1..=max_typesize`, blocksize not negative).
///
/// # Safety
/// `src` readable and `dest` writable for `blocksize` bytes, not overlapping.
unsafe fn run(
    kernel: Kernel,
    max_typesize: i32,
    typesize: i32,
    blocksize: i32,
    src: *const c_void,
    dest: *mut c_void,
) -> i32 {
    guard(Error::Failure.code(), || {
        if !(1..=max_typesize).contains(&typesize) || blocksize < 0 {
            return Error::InvalidParam.code();
        }
        // SAFETY: forwarded caller guarantees.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, size(blocksize)) }, unsafe {
            bytes_mut(dest, size(blocksize))
        }) else {
            return Error::NullPointer.code();
        };
        kernel(typesize as usize, src, dst);
        blocksize
    })
}

/// Byte-shuffles `blocksize` bytes of `typesize`-byte elements; returns `blocksize`.
///
/// # Safety
/// `src` readable and `dest` writable for `blocksize` bytes, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn blosc2_shuffle(
    typesize: i32,
    blocksize: i32,
    src: *const c_void,
    dest: *mut c_void,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        run(
            shuffle::shuffle,
            MAX_SHUFFLE_TYPESIZE,
            typesize,
            blocksize,
            src,
            dest,
        )
    }
}

/// Reverses [`blosc2_shuffle`]; returns `blocksize`.
///
/// # Safety
/// `src` readable and `dest` writable for `blocksize` bytes, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn blosc2_unshuffle(
    typesize: i32,
    blocksize: i32,
    src: *const c_void,
    dest: *mut c_void,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        run(
            shuffle::unshuffle,
            MAX_SHUFFLE_TYPESIZE,
            typesize,
            blocksize,
            src,
            dest,
        )
    }
}

/// Bit-shuffles `blocksize` bytes of `typesize`-byte elements; returns `blocksize`.
///
/// # Safety
/// `src` readable and `dest` writable for `blocksize` bytes, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn blosc2_bitshuffle(
    typesize: i32,
    blocksize: i32,
    src: *const c_void,
    dest: *mut c_void,
) -> i32 {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        run(
            bitshuffle::bitshuffle,
            MAX_SHUFFLE_TYPESIZE,
            typesize,
            blocksize,
            src,
            dest,
        )
    }
}

/// Reverses [`blosc2_bitshuffle`]; returns `blocksize` (-1 for a negative size, as in the
/// reference). Unlike the other three it takes typesizes above 256, as the reference does;
/// a typesize below 1, which crashes the reference, gives -12.
///
/// # Safety
/// `src` readable and `dest` writable for `blocksize` bytes, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn blosc2_bitunshuffle(
    typesize: i32,
    blocksize: i32,
    src: *const c_void,
    dest: *mut c_void,
) -> i32 {
    if blocksize < 0 {
        return Error::Failure.code();
    }
    // SAFETY: forwarded caller guarantees.
    unsafe {
        run(
            bitshuffle::bitunshuffle,
            i32::MAX,
            typesize,
            blocksize,
            src,
            dest,
        )
    }
}
