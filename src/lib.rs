//! blosc2-oxide: a safe Rust implementation of c-blosc2 3.3.5.
//!
//! The crate has two faces. The safe core (every module except [`capi`]) offers a Rust API
//! for compressing and decompressing Blosc2 chunks. The [`capi`] module is the only place
//! with `extern "C"` entry points, raw pointers and `repr(C)` mirrors of the public C
//! structs; it makes `libblosc2.so` a drop-in replacement for the reference library.
//!
//! `unsafe` is confined to [`capi`], the SIMD kernels of [`filters`], the codec shims of
//! [`codecs`] and the memory map of [`io`]; every other module forbids it.

#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    missing_docs
)]

#[forbid(unsafe_code)]
pub mod b2nd;
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
