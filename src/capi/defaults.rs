//! The `blosc2_get_blosc2_*_defaults` getters and the timing helpers.

use super::ffi::guard;
use super::types::{
    blosc2_cparams, blosc2_dparams, blosc2_io, blosc2_stdio_mmap, blosc2_storage, blosc_timestamp_t,
};

/// A copy of `BLOSC2_CPARAMS_DEFAULTS`.
#[no_mangle]
pub extern "C" fn blosc2_get_blosc2_cparams_defaults() -> blosc2_cparams {
    blosc2_cparams::DEFAULTS
}

/// A copy of `BLOSC2_DPARAMS_DEFAULTS`.
#[no_mangle]
pub extern "C" fn blosc2_get_blosc2_dparams_defaults() -> blosc2_dparams {
    blosc2_dparams::DEFAULTS
}

/// A copy of `BLOSC2_STORAGE_DEFAULTS`.
#[no_mangle]
pub extern "C" fn blosc2_get_blosc2_storage_defaults() -> blosc2_storage {
    blosc2_storage::DEFAULTS
}

/// A copy of `BLOSC2_IO_DEFAULTS`.
#[no_mangle]
pub extern "C" fn blosc2_get_blosc2_io_defaults() -> blosc2_io {
    blosc2_io::DEFAULTS
}

/// A copy of `BLOSC2_STDIO_MMAP_DEFAULTS`.
#[no_mangle]
pub extern "C" fn blosc2_get_blosc2_stdio_mmap_defaults() -> blosc2_stdio_mmap {
    blosc2_stdio_mmap::DEFAULTS
}

/// Stores the current monotonic time in `*timestamp`.
///
/// # Safety
/// `timestamp` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn blosc_set_timestamp(timestamp: *mut blosc_timestamp_t) {
    guard((), || {
        if !timestamp.is_null() {
            // SAFETY: the caller guarantees `timestamp` is writable; clock_gettime fills it.
            unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, timestamp) };
        }
    })
}

/// Nanoseconds between two timestamps.
#[no_mangle]
pub extern "C" fn blosc_elapsed_nsecs(
    start_time: blosc_timestamp_t,
    end_time: blosc_timestamp_t,
) -> f64 {
    1e9 * (end_time.tv_sec - start_time.tv_sec) as f64
        + (end_time.tv_nsec - start_time.tv_nsec) as f64
}

/// Seconds between two timestamps.
#[no_mangle]
pub extern "C" fn blosc_elapsed_secs(
    start_time: blosc_timestamp_t,
    end_time: blosc_timestamp_t,
) -> f64 {
    blosc_elapsed_nsecs(start_time, end_time) * 1e-9
}
