//! `blosc2_set_threads_callback`: the caller's parallel-for runs the library's block jobs.

use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use super::ffi::guard;
use super::hooks::SendPtr;
use super::types::blosc_threads_callback;
use crate::threads::{self, Executor};

/// One job as the caller's parallel-for sees it: an element of the `jobdata` array.
#[repr(C)]
struct Job<'a> {
    run: &'a (dyn Fn(usize) + Sync),
    tid: usize,
}

/// The `dojob` function handed to the caller: runs one element of `jobdata`.
///
/// # Safety
/// `job` must point to a live [`Job`] (an element of the array the library passed).
unsafe extern "C" fn run_job(job: *mut c_void) {
    // SAFETY: the caller hands back a pointer into the array it was given, alive until
    // its parallel-for returns.
    if let Some(j) = unsafe { job.cast::<Job>().as_ref() } {
        // A panic cannot cross into the caller's threads; the block it left undone makes
        // the operation fail.
        let _ = catch_unwind(AssertUnwindSafe(|| (j.run)(j.tid)));
    }
}

/// Installs a parallel-for used instead of the library's threads by every later parallel
/// compression or decompression (NULL restores the library's threads). The callback gets
/// `numjobs` elements of `jobdata_elsize` bytes and must call `dojob` on each before
/// returning.
///
/// # Safety
/// `callback` must be a valid parallel-for as described; `callback_data` is handed to it.
#[no_mangle]
pub unsafe extern "C" fn blosc2_set_threads_callback(
    callback: blosc_threads_callback,
    callback_data: *mut c_void,
) {
    guard((), || {
        let data = SendPtr(callback_data);
        let executor = callback.map(|cb| -> Executor {
            Arc::new(move |numjobs: usize, run: &(dyn Fn(usize) + Sync)| {
                let jobs: Vec<Job> = (0..numjobs).map(|tid| Job { run, tid }).collect();
                // SAFETY: the caller's parallel-for gets an array of `numjobs` jobs of
                // `size_of::<Job>()` bytes that stays alive until it returns.
                unsafe {
                    cb(
                        data.get(),
                        Some(run_job),
                        numjobs as c_int,
                        std::mem::size_of::<Job>(),
                        jobs.as_ptr().cast_mut().cast(),
                    )
                }
            })
        });
        threads::set_executor(executor);
    })
}
