//! Bloscpack files (`.blp`), format version 3, read and written as bloscpack 0.16 does.
//!
//! A file is a 32-byte [`Header`], an optional metadata section (JSON, stored raw or
//! zlib-compressed, padded to `max_meta_size`, with its own checksum), an optional table of
//! chunk offsets with room reserved for appends, then the chunks: Blosc1-format chunks,
//! each followed by its [`Checksum`]. numpy arrays are stored as their bytes with a
//! [`NumpyMeta`] description as metadata.
//!
//! Reading never trusts the header: every size is checked against the real file before
//! anything is allocated, every checksum is verified, and a bad file gives an [`Error`].
//!
//! ```
//! use blosc2::bloscpack::{self, Checksum, PackOptions};
//!
//! let data: Vec<u8> = (0..100_000u32).flat_map(|i| i.to_le_bytes()).collect();
//! let opts = PackOptions {
//!     chunk_size: 64 * 1024,
//!     checksum: Checksum::Sha256,
//!     ..PackOptions::default()
//! };
//! let meta = serde_json::json!({"source": "example"});
//! let file = bloscpack::pack_bytes(&data, &opts, Some(&meta))?;
//!
//! let (back, metadata) = bloscpack::unpack_bytes(&file)?;
//! assert_eq!(back, data);
//! assert_eq!(metadata, Some(meta));
//! # Ok::<(), bloscpack::Error>(())
//! ```

mod append;
mod checksum;
mod chunk;
pub mod dtype;
mod error;
mod fortran;
mod header;
mod metadata;
mod numpy;
pub(crate) mod pipeline;
mod reader;
mod source;
mod writer;

#[cfg(test)]
mod tests;

pub use append::append;
pub use checksum::Checksum;
pub use chunk::{compress_chunk, compress_many, decompress_chunk, decompress_many, ChunkParams};
pub(crate) use chunk::{compress_into, decompress_into};
pub use error::{Error, Result};
pub use header::{split_in_chunks, Header, FORMAT_VERSION, HEADER_LEN, MAGIC, MAX_CHUNK_SIZE};
pub use metadata::{
    encode_section, to_python_json, MetaArgs, MetaCodec, MetaHeader, MAGIC_JSON, META_HEADER_LEN,
};
pub use numpy::NumpyMeta;
pub use reader::{unpack_bytes, RawChunk, Reader, FORTRAN_BAND_BYTES};
pub use writer::{pack_bytes, pack_stream, PackOptions, Writer};

/// Packs a numpy-style array (`data` in the memory order `meta` describes) into a new
/// Bloscpack file image; the typesize is the dtype's item size, and the chunk size is
/// rounded down to whole items.
pub fn pack_ndarray(data: &[u8], meta: &NumpyMeta, opts: &PackOptions) -> Result<Vec<u8>> {
    let itemsize = meta.itemsize()?;
    let n = meta.len().ok_or_else(|| Error::format("shape overflows"))?;
    if n.checked_mul(itemsize) != Some(data.len()) {
        return Err(Error::Unsupported(format!(
            "{} bytes do not hold an array of shape {:?} and dtype {}",
            data.len(),
            meta.shape,
            meta.dtype
        )));
    }
    let mut o = *opts;
    o.chunk.typesize = u8::try_from(itemsize).unwrap_or(1);
    o.chunk_size = (o.chunk_size / itemsize as u64).max(1) * itemsize as u64;
    pack_bytes(data, &o, Some(&meta.to_metadata()))
}
