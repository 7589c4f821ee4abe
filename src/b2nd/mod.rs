//! N-dimensional arrays on top of super-chunks (the "b2nd" layer).
//!
//! An [`Array`] is a super-chunk plus a [`Geometry`] (shape, chunk and block shapes, up to
//! 16 dimensions, scalars and empty dimensions included) and a dtype; the geometry lives
//! in the "b2nd" metalayer ([`meta`]). Chunk `n` holds the chunk at C-order position `n`
//! of the chunk grid, padded to `extchunkshape`, its blocks in C order.
//!
//! Building blocks for operations that change the shape:
//! * [`Geometry`]: `new`/`with_shape` (validated), `chunks_per_dim`, `nchunks`,
//!   `chunk_coords`/`chunk_index`, `chunk_box`, `slice_extent`/`check_bounds`/
//!   `check_slice`, `slice_chunks`; `geometry::{c_strides, unflatten, flatten}`.
//! * [`Array`]: `set_geometry` (new shape written to the metalayer; chunks are the
//!   caller's business), `read_chunk` (with a block mask), `write_chunk` (compress and
//!   store), `chunk_bytes`/`block_bytes`, `reload_meta`/`refresh`.
//! * [`mod@slice`]: `get_slice_buffer`/`set_slice_buffer` on C-order buffers, `chunk_parts`,
//!   `for_each_block`, `blocks_in_c_order`; [`copy::copy_box`] for boxes between buffers.
//! * [`create`]: `Array::special`/`zeros` and `Params`; [`persist`]: `fill_from`,
//!   `slice_params`, `copy_params`, `copy_vlmeta_to`.
//! * Operations built on them: [`resize`] (resize/insert/append/delete, moving stored
//!   chunks), [`mod@concat`], [`squeeze`] (views with fewer or more dimensions),
//!   [`orthogonal`] (orthogonal selections and sparse coordinates).
//! * In the C layer: `capi::b2nd_array::{with_array, alloc_array, array_into_c,
//!   write_geometry, geometry_of, free_array, put}`, `capi::b2nd_ctx::{ctx_mut, Ctx}`,
//!   `capi::b2nd_create::{new_special, rc}`.

pub mod array;
pub mod concat;
pub mod copy;
pub mod create;
pub mod geometry;
pub mod meta;
pub mod orthogonal;
pub mod persist;
pub mod resize;
mod scratch;
pub mod slice;
pub mod squeeze;

pub use array::Array;
pub use create::Params;
pub use geometry::Geometry;

#[cfg(test)]
mod tests;
