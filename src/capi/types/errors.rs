//! Error codes returned by the C API (`BLOSC2_ERROR_*`, an anonymous `enum` in C).

use core::ffi::c_int;

/// Success.
pub const BLOSC2_ERROR_SUCCESS: c_int = 0;
/// Generic failure.
pub const BLOSC2_ERROR_FAILURE: c_int = -1;
/// Bad stream.
pub const BLOSC2_ERROR_STREAM: c_int = -2;
/// Invalid data.
pub const BLOSC2_ERROR_DATA: c_int = -3;
/// Memory allocation failed.
pub const BLOSC2_ERROR_MEMORY_ALLOC: c_int = -4;
/// Not enough space to read.
pub const BLOSC2_ERROR_READ_BUFFER: c_int = -5;
/// Not enough space to write.
pub const BLOSC2_ERROR_WRITE_BUFFER: c_int = -6;
/// Codec not supported.
pub const BLOSC2_ERROR_CODEC_SUPPORT: c_int = -7;
/// Invalid parameter given to a codec.
pub const BLOSC2_ERROR_CODEC_PARAM: c_int = -8;
/// Codec dictionary error.
pub const BLOSC2_ERROR_CODEC_DICT: c_int = -9;
/// Format version not supported.
pub const BLOSC2_ERROR_VERSION_SUPPORT: c_int = -10;
/// Invalid value in a header.
pub const BLOSC2_ERROR_INVALID_HEADER: c_int = -11;
/// Invalid parameter given to a function.
pub const BLOSC2_ERROR_INVALID_PARAM: c_int = -12;
/// File read failed.
pub const BLOSC2_ERROR_FILE_READ: c_int = -13;
/// File write failed.
pub const BLOSC2_ERROR_FILE_WRITE: c_int = -14;
/// File open failed.
pub const BLOSC2_ERROR_FILE_OPEN: c_int = -15;
/// Not found.
pub const BLOSC2_ERROR_NOT_FOUND: c_int = -16;
/// Bad run-length encoding.
pub const BLOSC2_ERROR_RUN_LENGTH: c_int = -17;
/// Filter pipeline error.
pub const BLOSC2_ERROR_FILTER_PIPELINE: c_int = -18;
/// Chunk insertion failed.
pub const BLOSC2_ERROR_CHUNK_INSERT: c_int = -19;
/// Chunk append failed.
pub const BLOSC2_ERROR_CHUNK_APPEND: c_int = -20;
/// Chunk update failed.
pub const BLOSC2_ERROR_CHUNK_UPDATE: c_int = -21;
/// Sizes above 2 GB are not supported.
pub const BLOSC2_ERROR_2GB_LIMIT: c_int = -22;
/// Super-chunk copy failed.
pub const BLOSC2_ERROR_SCHUNK_COPY: c_int = -23;
/// Wrong frame type.
pub const BLOSC2_ERROR_FRAME_TYPE: c_int = -24;
/// File truncation failed.
pub const BLOSC2_ERROR_FILE_TRUNCATE: c_int = -25;
/// Thread or thread context creation failed.
pub const BLOSC2_ERROR_THREAD_CREATE: c_int = -26;
/// Postfilter failed.
pub const BLOSC2_ERROR_POSTFILTER: c_int = -27;
/// Special frame failure.
pub const BLOSC2_ERROR_FRAME_SPECIAL: c_int = -28;
/// Special super-chunk failure.
pub const BLOSC2_ERROR_SCHUNK_SPECIAL: c_int = -29;
/// I/O plugin error.
pub const BLOSC2_ERROR_PLUGIN_IO: c_int = -30;
/// File removal failed.
pub const BLOSC2_ERROR_FILE_REMOVE: c_int = -31;
/// Null pointer.
pub const BLOSC2_ERROR_NULL_POINTER: c_int = -32;
/// Invalid index.
pub const BLOSC2_ERROR_INVALID_INDEX: c_int = -33;
/// Metalayer not found.
pub const BLOSC2_ERROR_METALAYER_NOT_FOUND: c_int = -34;
/// Maximum buffer size exceeded.
pub const BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED: c_int = -35;
/// Tuner failure.
pub const BLOSC2_ERROR_TUNER: c_int = -36;
/// Frame lock failure.
pub const BLOSC2_ERROR_LOCK: c_int = -37;
