//! Compression/decompression parameters, storage, pre/postfilter parameters and the
//! plugin descriptions (tuners, codecs, filters) of `blosc2.h`.

use core::ffi::{c_char, c_double, c_int, c_void};

use super::{
    blosc2_codec_decoder_cb, blosc2_codec_encoder_cb, blosc2_context, blosc2_filter_backward_cb,
    blosc2_filter_forward_cb, blosc2_io, blosc2_postfilter_fn, blosc2_prefilter_fn,
    BLOSC2_MAX_FILTERS,
};

/// Instrumentation record produced by a codec when `instr_codec` is set.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct blosc2_instr {
    /// Compression ratio of the block.
    pub cratio: f32,
    /// Compression speed.
    pub cspeed: f32,
    /// Speed of the filter pipeline.
    pub filter_speed: f32,
    /// Flags of the block.
    pub flags: [u8; 4],
}

/// A tuner: a plugin that picks block sizes and compression parameters as data flows.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_tuner {
    /// Set the tuner up for the given contexts; returns 0 on success.
    pub init: Option<
        unsafe extern "C" fn(
            config: *mut c_void,
            cctx: *mut blosc2_context,
            dctx: *mut blosc2_context,
        ) -> c_int,
    >,
    /// Choose the block size for the next compression.
    pub next_blocksize: Option<unsafe extern "C" fn(context: *mut blosc2_context) -> c_int>,
    /// Choose the compression parameters for the next chunk.
    pub next_cparams: Option<unsafe extern "C" fn(context: *mut blosc2_context) -> c_int>,
    /// Report the time the last compression took.
    pub update:
        Option<unsafe extern "C" fn(context: *mut blosc2_context, ctime: c_double) -> c_int>,
    /// Release the tuner state.
    pub free: Option<unsafe extern "C" fn(context: *mut blosc2_context) -> c_int>,
    /// Tuner id (user tuners use 160..=255).
    pub id: c_int,
    /// Tuner name.
    pub name: *mut c_char,
}

/// What a prefilter receives for each block it must produce.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_prefilter_params {
    /// The `user_data` the caller attached to the compression parameters.
    pub user_data: *mut c_void,
    /// Source data of the block.
    pub input: *const u8,
    /// Where the prefilter writes the block.
    pub output: *mut u8,
    /// Size of `output` in bytes.
    pub output_size: i32,
    /// Typesize of the output.
    pub output_typesize: i32,
    /// Offset of the block inside the chunk.
    pub output_offset: i32,
    /// Number of the chunk in its super-chunk (-1 without one).
    pub nchunk: i64,
    /// Number of the block in the chunk.
    pub nblock: i32,
    /// Id of the thread running the prefilter.
    pub tid: i32,
    /// Scratch buffer of the thread.
    pub ttmp: *mut u8,
    /// Size of the scratch buffer.
    pub ttmp_nbytes: usize,
    /// The compression context.
    pub ctx: *mut blosc2_context,
    /// Whether the output is only used to tune and can be discarded.
    pub output_is_disposable: bool,
}

/// What a postfilter receives for each block it must process.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_postfilter_params {
    /// The `user_data` the caller attached to the decompression parameters.
    pub user_data: *mut c_void,
    /// Decompressed data of the block.
    pub input: *const u8,
    /// Where the postfilter writes the block.
    pub output: *mut u8,
    /// Size of the block in bytes.
    pub size: i32,
    /// Typesize of the data.
    pub typesize: i32,
    /// Offset of the block inside the chunk.
    pub offset: i32,
    /// Number of the chunk in its super-chunk (-1 without one).
    pub nchunk: i64,
    /// Number of the block in the chunk.
    pub nblock: i32,
    /// Id of the thread running the postfilter.
    pub tid: i32,
    /// Scratch buffer of the thread.
    pub ttmp: *mut u8,
    /// Size of the scratch buffer.
    pub ttmp_nbytes: usize,
    /// The decompression context.
    pub ctx: *mut blosc2_context,
}

/// Compression parameters.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_cparams {
    /// Codec id (`BLOSC_BLOSCLZ`, `BLOSC_LZ4`, ... or a registered codec).
    pub compcode: u8,
    /// Parameter byte handed to the codec.
    pub compcode_meta: u8,
    /// Compression level, 0 (none) to 9 (maximum).
    pub clevel: u8,
    /// Whether to build and use a dictionary (ZSTD, LZ4, LZ4HC).
    pub use_dict: c_int,
    /// Size in bytes of the items of the data.
    pub typesize: i32,
    /// Number of threads used for compression.
    pub nthreads: i16,
    /// Requested block size in bytes (0 = automatic).
    pub blocksize: i32,
    /// Split mode (`BLOSC_ALWAYS_SPLIT`, ...).
    pub splitmode: i32,
    /// The super-chunk these parameters belong to, if any.
    pub schunk: *mut c_void,
    /// Filter pipeline, applied from slot 0 to slot 5.
    pub filters: [u8; BLOSC2_MAX_FILTERS as usize],
    /// Parameter byte of each filter.
    pub filters_meta: [u8; BLOSC2_MAX_FILTERS as usize],
    /// Prefilter run on each block before compression.
    pub prefilter: blosc2_prefilter_fn,
    /// Parameters of the prefilter.
    pub preparams: *mut blosc2_prefilter_params,
    /// Parameters of the tuner.
    pub tuner_params: *mut c_void,
    /// Tuner id.
    pub tuner_id: c_int,
    /// Whether the codec emits instrumentation records instead of data.
    pub instr_codec: bool,
    /// Parameters of a user codec.
    pub codec_params: *mut c_void,
    /// Parameters of each user filter.
    pub filter_params: [*mut c_void; BLOSC2_MAX_FILTERS as usize],
}

/// Decompression parameters.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_dparams {
    /// Number of threads used for decompression.
    pub nthreads: i16,
    /// The super-chunk these parameters belong to, if any.
    pub schunk: *mut c_void,
    /// Postfilter run on each block after decompression.
    pub postfilter: blosc2_postfilter_fn,
    /// Parameters of the postfilter.
    pub postparams: *mut blosc2_postfilter_params,
    /// Size in bytes of the items of the data.
    pub typesize: i32,
}

/// Where and how a super-chunk is stored.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_storage {
    /// Whether chunks are stored contiguously (a cframe) or not (an sframe / in memory).
    pub contiguous: bool,
    /// Path of the file or directory, or NULL for in-memory storage.
    pub urlpath: *mut c_char,
    /// Compression parameters (NULL = defaults).
    pub cparams: *mut blosc2_cparams,
    /// Decompression parameters (NULL = defaults).
    pub dparams: *mut blosc2_dparams,
    /// I/O backend (NULL = the file system).
    pub io: *mut blosc2_io,
}

/// A user codec.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_codec {
    /// Codec id (user codecs use 160..=255).
    pub compcode: u8,
    /// Codec name.
    pub compname: *mut c_char,
    /// Library code of the codec.
    pub complib: u8,
    /// Version of the codec format.
    pub version: u8,
    /// Compression function.
    pub encoder: blosc2_codec_encoder_cb,
    /// Decompression function.
    pub decoder: blosc2_codec_decoder_cb,
}

/// A user filter.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_filter {
    /// Filter id (user filters use 160..=255).
    pub id: u8,
    /// Filter name.
    pub name: *mut c_char,
    /// Version of the filter format.
    pub version: u8,
    /// Function applied when compressing.
    pub forward: blosc2_filter_forward_cb,
    /// Function applied when decompressing.
    pub backward: blosc2_filter_backward_cb,
}
