//! Callback typedefs of the public headers.

use core::ffi::{c_char, c_int, c_void};

use super::{blosc2_cparams, blosc2_dparams, blosc2_postfilter_params, blosc2_prefilter_params};

/// User-supplied parallel-for: runs `dojob` on each of the `numjobs` items of `jobdata`
/// (each `jobdata_elsize` bytes long) and returns once all of them are done.
pub type blosc_threads_callback = Option<
    unsafe extern "C" fn(
        callback_data: *mut c_void,
        dojob: Option<unsafe extern "C" fn(*mut c_void)>,
        numjobs: c_int,
        jobdata_elsize: usize,
        jobdata: *mut c_void,
    ),
>;

/// I/O backend: open `urlpath` with an `fopen`-like `mode`; returns a stream or NULL.
pub type blosc2_open_cb = Option<
    unsafe extern "C" fn(
        urlpath: *const c_char,
        mode: *const c_char,
        params: *mut c_void,
    ) -> *mut c_void,
>;

/// I/O backend: close a stream; returns 0 on success.
pub type blosc2_close_cb = Option<unsafe extern "C" fn(stream: *mut c_void) -> c_int>;

/// I/O backend: size of the stream in bytes, or a negative value on error.
pub type blosc2_size_cb = Option<unsafe extern "C" fn(stream: *mut c_void) -> i64>;

/// I/O backend: write `nitems` items of `size` bytes at `position`; returns the items written.
pub type blosc2_write_cb = Option<
    unsafe extern "C" fn(
        ptr: *const c_void,
        size: i64,
        nitems: i64,
        position: i64,
        stream: *mut c_void,
    ) -> i64,
>;

/// I/O backend: read `nitems` items of `size` bytes at `position` into (or, for backends that
/// need no allocation, point `*ptr` at) the data; returns the items read.
pub type blosc2_read_cb = Option<
    unsafe extern "C" fn(
        ptr: *mut *mut c_void,
        size: i64,
        nitems: i64,
        position: i64,
        stream: *mut c_void,
    ) -> i64,
>;

/// I/O backend: truncate (or extend) the stream to `size` bytes; returns 0 on success.
pub type blosc2_truncate_cb = Option<unsafe extern "C" fn(stream: *mut c_void, size: i64) -> c_int>;

/// I/O backend: release the backend parameters; returns 0 on success.
pub type blosc2_destroy_cb = Option<unsafe extern "C" fn(params: *mut c_void) -> c_int>;

/// Prefilter run on each block before compression; returns 0 on success.
pub type blosc2_prefilter_fn =
    Option<unsafe extern "C" fn(params: *mut blosc2_prefilter_params) -> c_int>;

/// Postfilter run on each block after decompression; returns 0 on success.
pub type blosc2_postfilter_fn =
    Option<unsafe extern "C" fn(params: *mut blosc2_postfilter_params) -> c_int>;

/// User codec encoder: compresses `input` into `output`; returns the compressed size,
/// 0 if it does not fit, or a negative error.
pub type blosc2_codec_encoder_cb = Option<
    unsafe extern "C" fn(
        input: *const u8,
        input_len: i32,
        output: *mut u8,
        output_len: i32,
        meta: u8,
        cparams: *mut blosc2_cparams,
        chunk: *const c_void,
    ) -> c_int,
>;

/// User codec decoder: decompresses `input` into `output`; returns the decompressed size
/// or a negative error.
pub type blosc2_codec_decoder_cb = Option<
    unsafe extern "C" fn(
        input: *const u8,
        input_len: i32,
        output: *mut u8,
        output_len: i32,
        meta: u8,
        dparams: *mut blosc2_dparams,
        chunk: *const c_void,
    ) -> c_int,
>;

/// User filter, forward direction: (src, dest, size, meta, cparams, filter id); returns 0 on
/// success.
pub type blosc2_filter_forward_cb =
    Option<unsafe extern "C" fn(*const u8, *mut u8, i32, u8, *mut blosc2_cparams, u8) -> c_int>;

/// User filter, backward direction: (src, dest, size, meta, dparams, filter id); returns 0
/// on success.
pub type blosc2_filter_backward_cb =
    Option<unsafe extern "C" fn(*const u8, *mut u8, i32, u8, *mut blosc2_dparams, u8) -> c_int>;
