//! The C ABI: `extern "C"` entry points and `repr(C)` mirrors of the public structs.
//!
//! This is the only module with raw pointers and `unsafe` FFI code. Every entry point
//! catches panics and turns them into the reference library's error value.

pub mod b2nd;
pub mod b2nd_array;
pub mod b2nd_create;
pub mod b2nd_ctx;
pub mod b2nd_shape;
pub mod b2nd_slice;
mod b2nd_view;
pub mod cbuffer;
pub mod context;
pub mod defaults;
pub mod filters;
pub mod frame;
pub mod global;
mod hooks;
pub mod io;
pub mod io_mmap;
pub mod io_stdio;
#[cfg(test)]
mod io_tests;
pub mod meta;
pub mod names;
pub mod plugins;
pub mod schunk;
pub mod schunk_io;
pub mod schunk_lock;
pub mod schunk_mem;
pub mod schunk_open;
pub mod schunk_ops;
#[cfg(test)]
mod schunk_tests;
pub mod special;
pub mod threads;
mod tuners;
pub mod types;
pub mod vlblocks;

mod ffi;
