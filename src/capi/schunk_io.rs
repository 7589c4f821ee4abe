//! Serialisation, parameters and locking of `blosc2_schunk`.

use std::ffi::{c_char, c_int};
use std::path::Path;

use super::ffi::code64;
use super::ffi::{c_str, guard};
use super::schunk::{schunk_box, with_schunk, SchunkBox};
use super::schunk_ops::malloc_copy;
use super::types::{blosc2_cparams, blosc2_dparams, blosc2_schunk};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The super-chunk as a contiguous frame: the live buffer of an in-memory frame
/// (`*needs_free` false) or a malloc'd copy; returns its length.
///
/// # Safety
/// `schunk` must be live; `cframe` and `needs_free` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_to_buffer(
    schunk: *mut blosc2_schunk,
    cframe: *mut *mut u8,
    needs_free: *mut bool,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        if cframe.is_null() || needs_free.is_null() {
            return i64::from(Error::NullPointer.code());
        }
        // SAFETY: forwarded caller guarantees.
        code64(unsafe {
            with_schunk(schunk, |b| {
                if let Some(live) = b.core.frame_bytes() {
                    *cframe = live.as_ptr().cast_mut();
                    *needs_free = false;
                    return Ok(live.len() as i64);
                }
                let v =
                    tracking_current(b, |core| core.to_cframe()).map_err(|_| Error::SchunkCopy)?;
                *cframe = malloc_copy(&v)?;
                *needs_free = true;
                Ok(v.len() as i64)
            })
        })
    })
}

/// Runs `f` on the super-chunk with the path `urlpath` names; -12 for a NULL path.
///
/// # Safety
/// `schunk` must be live and `urlpath` NULL or a NUL-terminated string.
unsafe fn with_path(
    schunk: *mut blosc2_schunk,
    urlpath: *const c_char,
    f: impl FnOnce(&mut SuperChunk, &Path) -> Result<i64>,
) -> i64 {
    // SAFETY: forwarded caller guarantees.
    let Some(p) = (unsafe { c_str(urlpath) }) else {
        return i64::from(Error::InvalidParam.code());
    };
    // SAFETY: forwarded caller guarantees.
    code64(unsafe {
        with_schunk(schunk, |b| {
            tracking_current(b, |core| f(core, Path::new(p)))
        })
    })
}

/// Runs `f` on the core super-chunk, then points `current_nchunk` at the last chunk it
/// read, as the reference does when it writes a frame anew from every chunk.
fn tracking_current<T>(
    b: &mut SchunkBox,
    f: impl FnOnce(&mut SuperChunk) -> Result<T>,
) -> Result<T> {
    b.core.take_touched();
    let r = f(&mut b.core);
    if let Some(n) = b.core.take_touched() {
        b.c.current_nchunk = n;
    }
    r
}

/// Writes the super-chunk as a contiguous frame file (a `file:///` prefix is dropped, as in
/// the reference); returns the bytes written.
///
/// # Safety
/// `schunk` must be live and `urlpath` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_to_file(
    schunk: *mut blosc2_schunk,
    urlpath: *const c_char,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            with_path(schunk, urlpath, |core, p| {
                core.to_file(crate::io::local_path(p))
            })
        }
    })
}

/// Appends the super-chunk as a contiguous frame at the end of a file; returns the offset
/// where it starts.
///
/// # Safety
/// `schunk` must be live and `urlpath` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_append_file(
    schunk: *mut blosc2_schunk,
    urlpath: *const c_char,
) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        unsafe { with_path(schunk, urlpath, |core, p| core.append_file(p)) }
    })
}

/// The length of the frame, or `cbytes + 8 * nchunks` without one.
///
/// # Safety
/// `schunk` must be live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_frame_len(schunk: *mut blosc2_schunk) -> i64 {
    guard(i64::from(Error::Failure.code()), || {
        // SAFETY: forwarded caller guarantees.
        code64(unsafe { with_schunk(schunk, |b| Ok(b.core.frame_len())) })
    })
}

/// A calloc'd copy of the compression parameters (caller frees); 0.
///
/// # Safety
/// `schunk` must be live and `cparams` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_cparams(
    schunk: *mut blosc2_schunk,
    cparams: *mut *mut blosc2_cparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(b), false) = (unsafe { schunk_box(schunk) }, cparams.is_null()) else {
            return Error::NullPointer.code();
        };
        let mut c = blosc2_cparams::DEFAULTS;
        let cp = b.core.cparams();
        c.compcode = cp.compcode;
        c.compcode_meta = cp.compcode_meta;
        c.clevel = cp.clevel;
        c.use_dict = c_int::from(cp.use_dict);
        c.typesize = cp.typesize;
        c.nthreads = cp.nthreads;
        c.blocksize = cp.blocksize;
        c.splitmode = cp.splitmode;
        c.schunk = schunk.cast();
        c.filters = cp.filters;
        c.filters_meta = cp.filters_meta;
        c.tuner_id = b.c.tuner_id;
        // SAFETY: calloc of one struct, checked, then filled.
        unsafe {
            let p = libc::calloc(1, std::mem::size_of::<blosc2_cparams>()).cast::<blosc2_cparams>();
            if p.is_null() {
                return Error::MemoryAlloc.code();
            }
            p.write(c);
            *cparams = p;
        }
        0
    })
}

/// A calloc'd copy of the decompression parameters (caller frees); 0.
///
/// # Safety
/// `schunk` must be live and `dparams` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_get_dparams(
    schunk: *mut blosc2_schunk,
    dparams: *mut *mut blosc2_dparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(b), false) = (unsafe { schunk_box(schunk) }, dparams.is_null()) else {
            return Error::NullPointer.code();
        };
        let mut d = blosc2_dparams::DEFAULTS;
        d.nthreads = b.core.dparams().nthreads;
        d.schunk = schunk.cast();
        d.typesize = 0;
        // SAFETY: calloc of one struct, checked, then filled.
        unsafe {
            let p = libc::calloc(1, std::mem::size_of::<blosc2_dparams>()).cast::<blosc2_dparams>();
            if p.is_null() {
                return Error::MemoryAlloc.code();
            }
            p.write(d);
            *dparams = p;
        }
        0
    })
}

/// Takes the frame's exclusive lock (re-entrant); 0 or `-37`.
///
/// # Safety
/// `schunk` must be live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_lock(schunk: *mut blosc2_schunk) -> c_int {
    guard(Error::Lock.code(), || {
        // SAFETY: forwarded caller guarantees.
        match unsafe { schunk_box(schunk) }.map_or(Err(Error::NullPointer), |b| b.lock.acquire()) {
            Ok(()) => 0,
            Err(e) => e.code(),
        }
    })
}

/// Releases the frame's lock; 0 or `-37`.
///
/// # Safety
/// `schunk` must be live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_unlock(schunk: *mut blosc2_schunk) -> c_int {
    guard(Error::Lock.code(), || {
        // SAFETY: forwarded caller guarantees.
        match unsafe { schunk_box(schunk) }.map_or(Err(Error::NullPointer), |b| b.lock.release()) {
            Ok(()) => 0,
            Err(e) => e.code(),
        }
    })
}

/// Re-reads a file-backed frame changed by another handle; 1 when it changed, 0 when not.
///
/// # Safety
/// `schunk` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_refresh(schunk: *mut blosc2_schunk) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let before = unsafe { schunk_box(schunk) }.map(|b| b.core.generation());
        // SAFETY: forwarded caller guarantees (`with_schunk` may already catch up).
        match unsafe {
            with_schunk(schunk, |b| {
                let changed = b.core.refresh()? || before != Some(b.core.generation());
                if changed {
                    b.sync_meta();
                }
                Ok(changed)
            })
        } {
            Ok(c) => c_int::from(c),
            Err(e) => e.code(),
        }
    })
}
