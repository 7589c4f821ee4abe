//! Ids of the plugins registered by the library and the symbol-name records of dynamically
//! loaded plugins (`blosc2/codecs-registry.h`, `filters-registry.h`, `tuners-registry.h`).

use core::ffi::{c_char, c_int};

/// NDLZ codec: a Lempel-Ziv variant for N-dimensional data.
pub const BLOSC_CODEC_NDLZ: c_int = 32;
/// ZFP codec in fixed-accuracy mode (accuracy taken from `compcode_meta`).
pub const BLOSC_CODEC_ZFP_FIXED_ACCURACY: c_int = 33;
/// ZFP codec in fixed-precision mode (precision taken from `compcode_meta`).
pub const BLOSC_CODEC_ZFP_FIXED_PRECISION: c_int = 34;
/// ZFP codec in fixed-rate mode (rate taken from `compcode_meta`).
pub const BLOSC_CODEC_ZFP_FIXED_RATE: c_int = 35;
/// OpenHTJ2K codec (JPEG 2000 High Throughput).
pub const BLOSC_CODEC_OPENHTJ2K: c_int = 36;
/// Grok codec (JPEG 2000).
pub const BLOSC_CODEC_GROK: c_int = 37;
/// OpenZL meta-compressor.
pub const BLOSC_CODEC_OPENZL: c_int = 38;
/// JPEG 2000 codec plugin.
pub const BLOSC_CODEC_J2K: c_int = 39;
/// High Throughput JPEG 2000 codec plugin.
pub const BLOSC_CODEC_HTJ2K: c_int = 40;

/// NDCELL filter: groups the items of each N-dimensional cell together.
pub const BLOSC_FILTER_NDCELL: c_int = 32;
/// NDMEAN filter: replaces each N-dimensional cell by its mean.
pub const BLOSC_FILTER_NDMEAN: c_int = 33;
/// Byte-wise delta filter, legacy variant kept to read old data.
pub const BLOSC_FILTER_BYTEDELTA_BUGGY: c_int = 34;
/// Byte-wise delta filter over the byte streams of a shuffled block.
pub const BLOSC_FILTER_BYTEDELTA: c_int = 35;
/// Integer precision truncation filter (bits to keep or drop in `filters_meta`).
pub const BLOSC_FILTER_INT_TRUNC: c_int = 36;

/// The BTune tuner.
pub const BLOSC_BTUNE: c_int = 32;

/// Names of the entry points of a dynamically loaded codec.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct codec_info {
    /// Symbol name of the encoder.
    pub encoder: *mut c_char,
    /// Symbol name of the decoder.
    pub decoder: *mut c_char,
}

/// Names of the entry points of a dynamically loaded filter.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct filter_info {
    /// Symbol name of the forward function.
    pub forward: *mut c_char,
    /// Symbol name of the backward function.
    pub backward: *mut c_char,
}

/// Names of the entry points of a dynamically loaded tuner.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct tuner_info {
    /// Symbol name of the init function.
    pub init: *mut c_char,
    /// Symbol name of the next-blocksize function.
    pub next_blocksize: *mut c_char,
    /// Symbol name of the next-cparams function.
    pub next_cparams: *mut c_char,
    /// Symbol name of the update function.
    pub update: *mut c_char,
    /// Symbol name of the free function.
    pub free: *mut c_char,
}
