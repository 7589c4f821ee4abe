//! Super-chunks and their metalayers (`blosc2.h`).

use core::ffi::{c_char, c_int, c_void};

use super::{
    blosc2_context, blosc2_frame, blosc2_storage, BLOSC2_MAX_FILTERS, BLOSC2_MAX_METALAYERS,
    BLOSC2_MAX_VLMETALAYERS,
};

/// A named blob of user metadata attached to a super-chunk.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_metalayer {
    /// Name (at most `BLOSC2_METALAYER_NAME_MAXLEN` bytes).
    pub name: *mut c_char,
    /// Content bytes.
    pub content: *mut u8,
    /// Number of content bytes.
    pub content_len: i32,
}

/// A super-chunk: a sequence of compressed chunks sharing parameters, with metadata.
///
/// Its fields are public ABI: C code reads them directly (for instance the inline
/// `blosc2_meta_exists` walks `nmetalayers` and `metalayers`).
#[repr(C)]
pub struct blosc2_schunk {
    /// Chunk format version.
    pub version: u8,
    /// Codec id.
    pub compcode: u8,
    /// Parameter byte of the codec.
    pub compcode_meta: u8,
    /// Compression level.
    pub clevel: u8,
    /// Split mode.
    pub splitmode: u8,
    /// Size in bytes of the items.
    pub typesize: i32,
    /// Block size (0 = automatic).
    pub blocksize: i32,
    /// Uncompressed size of each chunk (-1 while empty, 0 when chunks vary).
    pub chunksize: i32,
    /// Second flags byte of the chunks.
    pub flags2: u8,
    /// Whether chunks use a dictionary.
    pub use_dict: u8,
    /// Filter pipeline.
    pub filters: [u8; BLOSC2_MAX_FILTERS as usize],
    /// Parameter byte of each filter.
    pub filters_meta: [u8; BLOSC2_MAX_FILTERS as usize],
    /// Number of chunks.
    pub nchunks: i64,
    /// Chunk most recently accessed.
    pub current_nchunk: i64,
    /// Uncompressed size of the data.
    pub nbytes: i64,
    /// Compressed size of the data.
    pub cbytes: i64,
    /// Chunk pointers when the super-chunk is an in-memory sparse one.
    pub data: *mut *mut u8,
    /// Number of slots of `data`.
    pub data_len: usize,
    /// Storage description.
    pub storage: *mut blosc2_storage,
    /// Frame holding the chunks, if any.
    pub frame: *mut blosc2_frame,
    /// Compression context.
    pub cctx: *mut blosc2_context,
    /// Decompression context.
    pub dctx: *mut blosc2_context,
    /// Fixed-length metalayers.
    pub metalayers: [*mut blosc2_metalayer; BLOSC2_MAX_METALAYERS as usize],
    /// Number of fixed-length metalayers.
    pub nmetalayers: u16,
    /// Variable-length metalayers.
    pub vlmetalayers: [*mut blosc2_metalayer; BLOSC2_MAX_VLMETALAYERS as usize],
    /// Number of variable-length metalayers.
    pub nvlmetalayers: i16,
    /// Parameters of the tuner.
    pub tuner_params: *mut c_void,
    /// Tuner id.
    pub tuner_id: c_int,
    /// Number of dimensions of the data (b2nd arrays).
    pub ndim: i8,
    /// Block shape of the data (b2nd arrays).
    pub blockshape: *mut i64,
    /// Whether this super-chunk is a view that does not own its data.
    pub view: bool,
    /// Counter bumped by every change, used to detect stale views of a frame.
    pub change_tick: i64,
}
