//! String constants of the public headers, as NUL-terminated C strings.
//!
//! cbindgen cannot render string constants, so `tools/cbindgen-*.toml` repeats them as
//! `#define`s; the header compile check compares both against the reference values.

use core::ffi::CStr;

/// Version of the library, as text.
pub const BLOSC2_VERSION_STRING: &CStr = c"3.3.5";
/// Release date of the library, as an RCS keyword string.
pub const BLOSC2_VERSION_DATE: &CStr = c"$Date:: 2026-09-24 #$";

/// Name of the BloscLZ codec.
pub const BLOSC_BLOSCLZ_COMPNAME: &CStr = c"blosclz";
/// Name of the LZ4 codec.
pub const BLOSC_LZ4_COMPNAME: &CStr = c"lz4";
/// Name of the LZ4HC codec.
pub const BLOSC_LZ4HC_COMPNAME: &CStr = c"lz4hc";
/// Name of the zlib codec.
pub const BLOSC_ZLIB_COMPNAME: &CStr = c"zlib";
/// Name of the Zstandard codec.
pub const BLOSC_ZSTD_COMPNAME: &CStr = c"zstd";

/// Name of the BloscLZ library.
pub const BLOSC_BLOSCLZ_LIBNAME: &CStr = c"BloscLZ";
/// Name of the LZ4 library.
pub const BLOSC_LZ4_LIBNAME: &CStr = c"LZ4";
/// Name of the zlib library.
pub const BLOSC_ZLIB_LIBNAME: &CStr = c"Zlib";
/// Name of the Zstandard library.
pub const BLOSC_ZSTD_LIBNAME: &CStr = c"Zstd";

/// Data type given to b2nd arrays created without one (NumPy notation).
pub const B2ND_DEFAULT_DTYPE: &CStr = c"|u1";
