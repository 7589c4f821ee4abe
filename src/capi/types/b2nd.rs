//! b2nd (N-dimensional array) types and constants (`b2nd.h`).

use core::ffi::{c_char, c_int};
use core::marker::{PhantomData, PhantomPinned};

use super::{blosc2_schunk, BLOSC2_MAX_METALAYERS};

/// Version of the "b2nd" metalayer format.
pub const B2ND_METALAYER_VERSION: c_int = 0;
/// Largest number of dimensions of an array.
pub const B2ND_MAX_DIM: c_int = 16;
/// Largest number of user metalayers of an array (one slot is taken by "b2nd").
pub const B2ND_MAX_METALAYERS: c_int = BLOSC2_MAX_METALAYERS - 1;
/// `dtype_format` value meaning a NumPy dtype string.
pub const DTYPE_NUMPY_FORMAT: c_int = 0;
/// Format of the default dtype.
pub const B2ND_DEFAULT_DTYPE_FORMAT: c_int = DTYPE_NUMPY_FORMAT;

/// Tag of the opaque b2nd context type; C only ever sees pointers to it.
///
/// cbindgen:no-export
pub struct b2nd_context_s {
    _private: [u8; 0],
    _not_send_sync_unpin: PhantomData<(*mut u8, PhantomPinned)>,
}

/// The parameters used to create a b2nd array (opaque).
pub type b2nd_context_t = b2nd_context_s;

/// The most recently decompressed chunk of an array, kept to speed up item access.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct chunk_cache_s {
    /// Decompressed chunk data (NULL when empty).
    pub data: *mut u8,
    /// Number of the cached chunk.
    pub nchunk: i64,
}

/// An N-dimensional array stored in a super-chunk.
#[repr(C)]
pub struct b2nd_array_t {
    /// The super-chunk holding the data.
    pub sc: *mut blosc2_schunk,
    /// Shape of the array.
    pub shape: [i64; B2ND_MAX_DIM as usize],
    /// Shape of each chunk.
    pub chunkshape: [i32; B2ND_MAX_DIM as usize],
    /// Shape of the array padded to whole chunks.
    pub extshape: [i64; B2ND_MAX_DIM as usize],
    /// Shape of each block.
    pub blockshape: [i32; B2ND_MAX_DIM as usize],
    /// Shape of a chunk padded to whole blocks.
    pub extchunkshape: [i64; B2ND_MAX_DIM as usize],
    /// Number of items of the array.
    pub nitems: i64,
    /// Number of items of a chunk.
    pub chunknitems: i32,
    /// Number of items of the padded array.
    pub extnitems: i64,
    /// Number of items of a block.
    pub blocknitems: i32,
    /// Number of items of a padded chunk.
    pub extchunknitems: i64,
    /// Number of dimensions.
    pub ndim: i8,
    /// Cache of the last chunk read.
    pub chunk_cache: chunk_cache_s,
    /// Item strides of the array.
    pub item_array_strides: [i64; B2ND_MAX_DIM as usize],
    /// Item strides of a chunk.
    pub item_chunk_strides: [i64; B2ND_MAX_DIM as usize],
    /// Item strides of a padded chunk.
    pub item_extchunk_strides: [i64; B2ND_MAX_DIM as usize],
    /// Item strides of a block.
    pub item_block_strides: [i64; B2ND_MAX_DIM as usize],
    /// Block strides inside a chunk.
    pub block_chunk_strides: [i64; B2ND_MAX_DIM as usize],
    /// Chunk strides inside the array.
    pub chunk_array_strides: [i64; B2ND_MAX_DIM as usize],
    /// Data type description.
    pub dtype: *mut c_char,
    /// Format of `dtype` (`DTYPE_NUMPY_FORMAT`).
    pub dtype_format: i8,
    /// Value of the super-chunk's `change_tick` when the array last synced with it.
    pub last_tick: i64,
}
