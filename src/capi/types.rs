//! `repr(C)` mirrors of every public type of the c-blosc2 3.3.5 headers, with the exact C
//! names, plus the public constants.
//!
//! `tools/gen-headers.sh` feeds this module (and the `extern "C"` functions of the rest of
//! `src/capi/`) to cbindgen to produce `include/blosc2.h`, `include/b2nd.h` and
//! `include/blosc2/*.h`. Layouts are checked against the reference's numbers on x86_64
//! Linux by the unit tests in `layout_tests`.
//!
//! Opaque handles (`blosc2_context`, `blosc2_frame`, `b2nd_context_t`) are zero-sized
//! markers: only pointers to them cross the ABI, and the library casts its own private
//! objects to and from those pointers.

#![allow(non_camel_case_types)]

mod b2nd;
mod callbacks;
mod consts;
/// cbindgen:ignore
mod defaults;
mod errors;
mod handles;
mod io;
mod params;
mod registry;
mod schunk;
/// cbindgen:ignore
mod strings;

#[cfg(test)]
mod consts_tests;
#[cfg(all(test, target_os = "linux", target_pointer_width = "64"))]
mod layout_tests;

pub use b2nd::*;
pub use callbacks::*;
pub use consts::*;
pub use errors::*;
pub use handles::*;
pub use io::*;
pub use params::*;
pub use registry::*;
pub use schunk::*;
pub use strings::*;
