//! The C ABI: `extern "C"` entry points and `repr(C)` mirrors of the public structs.
//!
//! This is the only module with raw pointers and `unsafe` FFI code. Every entry point
//! catches panics and turns them into the reference library's error value.

pub mod cbuffer;
pub mod context;
pub mod defaults;
pub mod filters;
pub mod global;
mod hooks;
pub mod names;
pub mod plugins;
pub mod special;
pub mod threads;
pub mod types;
pub mod vlblocks;

mod ffi;
