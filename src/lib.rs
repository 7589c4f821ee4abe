//! blosc2-oxide: a safe Rust implementation of c-blosc2 3.3.5.
//!
//! The crate has two faces. The safe core (every module except [`capi`]) is a Rust library
//! for Blosc chunks, super-chunks and frames, N-dimensional arrays and the older Bloscpack
//! and bcolz containers. The [`capi`] module is the only place with `extern "C"` entry
//! points, raw pointers and `repr(C)` mirrors of the public C structs; it makes
//! `libblosc2.so` a drop-in replacement for the reference library. The `blosc2-oxide`
//! binary is a command-line tool over every container (`blosc2-oxide --help`).
//!
//! `unsafe` is confined to [`capi`], the SIMD kernels of [`filters`], the codec shims of
//! [`codecs`] and the memory map of [`io`]; every other module forbids it.
//!
//! # Chunks
//!
//! A [`Context`] compresses a buffer into one self-describing chunk and back:
//!
//! ```
//! use blosc2::{constants, CParams, Context, DParams};
//!
//! let data: Vec<u8> = (0..100_000u32).flat_map(u32::to_le_bytes).collect();
//! let mut cctx = Context::compressor(CParams {
//!     compcode: constants::ZSTD,
//!     clevel: 5,
//!     typesize: 4,
//!     ..CParams::default()
//! });
//! let mut chunk = vec![0u8; data.len() + constants::MAX_OVERHEAD];
//! let n = cctx.compress(&data, &mut chunk)?;
//! chunk.truncate(n);
//! assert!(n < data.len() / 10);
//!
//! let mut dctx = Context::decompressor(DParams::default());
//! let mut back = vec![0u8; data.len()];
//! dctx.decompress(&chunk, &mut back)?;
//! assert_eq!(back, data);
//! # Ok::<(), blosc2::Error>(())
//! ```
//!
//! # Super-chunks and frames
//!
//! A [`schunk::SuperChunk`] holds a sequence of chunks with metalayers, in memory, in a
//! contiguous frame (a buffer or a `.b2frame` file) or a sparse frame (a directory):
//!
//! ```
//! use blosc2::schunk::{Storage, SuperChunk};
//! use blosc2::CParams;
//!
//! blosc2::global::init();
//! let storage = Storage {
//!     contiguous: true,
//!     cparams: CParams { typesize: 8, ..CParams::default() },
//!     ..Storage::default()
//! };
//! let mut sc = SuperChunk::new(storage)?;
//! sc.meta_add("origin", b"example")?;
//! for k in 0..4u64 {
//!     let part: Vec<u8> = (0..1000).flat_map(|i: u64| (k * 1000 + i).to_le_bytes()).collect();
//!     sc.append_buffer(&part)?;
//! }
//! let frame: Vec<u8> = sc.to_cframe()?;
//!
//! let mut back = SuperChunk::from_cframe(&frame)?;
//! assert_eq!(back.nchunks(), 4);
//! assert_eq!(back.metalayers()[0].name, "origin");
//! let mut buf = vec![0u8; 8000];
//! back.decompress_chunk(2, &mut buf)?;
//! assert_eq!(buf[..8], 2000u64.to_le_bytes());
//! # Ok::<(), blosc2::Error>(())
//! ```
//!
//! # N-dimensional arrays
//!
//! [`b2nd::Array`] stores an array in chunks and blocks of fixed shapes and reads any
//! box of it:
//!
//! ```
//! use blosc2::b2nd::{Array, Geometry, Params};
//! use blosc2::schunk::Storage;
//! use blosc2::CParams;
//!
//! blosc2::global::init();
//! let geometry = Geometry::new(&[100, 50], &[32, 50], &[8, 50])?;
//! let storage = Storage {
//!     contiguous: true,
//!     cparams: CParams { typesize: 4, ..CParams::default() },
//!     ..Storage::default()
//! };
//! let data: Vec<u8> = (0..5000i32).flat_map(i32::to_le_bytes).collect();
//! let mut a = Array::from_buffer(&Params::new(storage, geometry), &data)?;
//!
//! let mut part = vec![0u8; 2 * 3 * 4];
//! a.get_slice_buffer(&[10, 20], &[12, 23], &mut part, &[2, 3])?;
//! assert_eq!(part[..4], (10 * 50 + 20i32).to_le_bytes());
//! # Ok::<(), blosc2::Error>(())
//! ```
//!
//! # Bloscpack files and bcolz directories
//!
//! [`bloscpack`] reads and writes `.blp` files as bloscpack 0.16 does (every checksum,
//! metadata, offsets, appends, numpy arrays); [`bcolz`] reads and writes bcolz carray and
//! ctable directories. Both modules start with a runnable example.

#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    missing_docs
)]

#[forbid(unsafe_code)]
pub mod b2nd;
#[forbid(unsafe_code)]
pub mod bcolz;
#[forbid(unsafe_code)]
pub mod bloscpack;
pub mod capi;
#[forbid(unsafe_code)]
pub mod cbuffer;
#[forbid(unsafe_code)]
pub mod chunk;
pub mod codecs;
#[forbid(unsafe_code)]
pub mod constants;
#[forbid(unsafe_code)]
pub mod context;
#[forbid(unsafe_code)]
pub mod diag;
#[forbid(unsafe_code)]
pub mod error;
pub mod filters;
#[forbid(unsafe_code)]
pub mod frame;
#[forbid(unsafe_code)]
pub mod global;
pub mod io;
#[forbid(unsafe_code)]
pub mod registry;
#[forbid(unsafe_code)]
pub mod schunk;
#[forbid(unsafe_code)]
pub mod special;
#[cfg(test)]
mod testref;
#[forbid(unsafe_code)]
pub mod threads;

pub use context::{CParams, Context, DParams};
pub use error::{Error, Result};
