//! blosc2-oxide: a safe Rust implementation of c-blosc2 3.3.5.
//!
//! The crate has two faces. The safe core (every module except [`capi`]) offers a Rust API
//! for compressing and decompressing Blosc2 chunks. The [`capi`] module is the only place
//! with `extern "C"` entry points, raw pointers and `repr(C)` mirrors of the public C
//! structs; it makes `libblosc2.so` a drop-in replacement for the reference library.

pub mod b2nd;
pub mod capi;
pub mod cbuffer;
pub mod chunk;
pub mod codecs;
pub mod constants;
pub mod context;
pub mod diag;
pub mod error;
pub mod filters;
pub mod frame;
pub mod global;
pub mod io;
pub mod registry;
pub mod schunk;
pub mod special;
#[cfg(test)]
mod testref;
pub mod threads;

pub use context::{CParams, Context, DParams};
pub use error::{Error, Result};
