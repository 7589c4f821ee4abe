//! Codec names, library versions and error messages as static C strings.

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, CStr, CString};
use std::sync::{Mutex, PoisonError};

use super::ffi::{c_str, guard, malloc_c_string};
use crate::error::{self, Error};
use crate::registry;

/// The static C string for a name known to the registry or the error table.
pub(crate) fn static_c_name(name: &str) -> *const c_char {
    let s: &'static CStr = match name {
        "blosclz" => c"blosclz",
        "lz4" => c"lz4",
        "lz4hc" => c"lz4hc",
        "zlib" => c"zlib",
        "zstd" => c"zstd",
        "BloscLZ" => c"BloscLZ",
        "LZ4" => c"LZ4",
        "Zlib" => c"Zlib",
        "Zstd" => c"Zstd",
        _ => return std::ptr::null(),
    };
    s.as_ptr()
}

/// A C string for a name that is not known at build time (registered codecs), allocated
/// once per distinct name and kept for the life of the process.
pub(crate) fn interned_c_name(name: &str) -> *const c_char {
    static NAMES: Mutex<BTreeMap<String, &'static CStr>> = Mutex::new(BTreeMap::new());
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(s) = names.get(name) {
        return s.as_ptr();
    }
    let Ok(owned) = CString::new(name) else {
        return std::ptr::null();
    };
    let leaked: &'static CStr = Box::leak(owned.into_boxed_c_str());
    names.insert(name.to_owned(), leaked);
    leaked.as_ptr()
}

/// Stores the name of codec `compcode` in `*compname`; returns the code, or -1 (and NULL)
/// when the code is unknown.
///
/// # Safety
/// `compname` must be NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn blosc2_compcode_to_compname(
    compcode: c_int,
    compname: *mut *const c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        let name = match registry::codec_name(compcode) {
            Some(n) => static_c_name(n),
            None => registry::registered_codec_name(compcode)
                .map_or(std::ptr::null(), |n| interned_c_name(&n)),
        };
        if !compname.is_null() {
            // SAFETY: the caller guarantees `compname` is writable.
            unsafe { *compname = name };
        }
        if name.is_null() {
            Error::Failure.code()
        } else {
            compcode
        }
    })
}

/// The code of a codec name (case-sensitive), or -1.
///
/// # Safety
/// `compname` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_compname_to_compcode(compname: *const c_char) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a valid string or NULL.
        let Some(name) = (unsafe { c_str(compname) }) else {
            return Error::Failure.code();
        };
        registry::codec_code(name)
            .or_else(|| registry::registered_codec_code(name))
            .map_or(Error::Failure.code(), c_int::from)
    })
}

/// The comma-separated list of built-in compressors.
#[no_mangle]
pub extern "C" fn blosc2_list_compressors() -> *const c_char {
    c"blosclz,lz4,lz4hc,zlib,zstd".as_ptr()
}

/// The library version, "3.3.5".
#[no_mangle]
pub extern "C" fn blosc2_get_version_string() -> *const c_char {
    c"3.3.5".as_ptr()
}

/// Stores malloc'ed copies of the library name and version of codec `compname` (the caller
/// frees them); returns the library code, or -1 (and NULLs) for unknown names. Registered
/// codecs report their own library code and name, and version "unknown".
///
/// # Safety
/// `compname` must be NULL or a NUL-terminated string; `complib` and `version` must be
/// NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn blosc2_get_complib_info(
    compname: *const c_char,
    complib: *mut *mut c_char,
    version: *mut *mut c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a valid string or NULL.
        let name = unsafe { c_str(compname) };
        let info = name.and_then(|n| match registry::complib_info(n) {
            Some((code, lib, ver)) => Some((code, lib.to_owned(), ver)),
            None => registry::plugins::codec_named(n)
                .map(|c| (i32::from(c.complib), c.name.clone(), "unknown")),
        });
        let (lib, ver) = info
            .as_ref()
            .map_or((std::ptr::null_mut(), std::ptr::null_mut()), |i| {
                (malloc_c_string(&i.1), malloc_c_string(i.2))
            });
        // SAFETY: the caller guarantees the out-pointers are writable when not NULL.
        unsafe {
            if !complib.is_null() {
                *complib = lib;
            } else if !lib.is_null() {
                libc::free(lib.cast());
            }
            if !version.is_null() {
                *version = ver;
            } else if !ver.is_null() {
                libc::free(ver.cast());
            }
        }
        info.map_or(Error::Failure.code(), |i| i.0)
    })
}

/// The message for an error code; "Unknown error" for anything that is not one.
#[no_mangle]
pub extern "C" fn blosc2_error_string(error_code: c_int) -> *const c_char {
    guard(c"Unknown error".as_ptr(), || error_c_string(error_code))
}

fn error_c_string(code: c_int) -> *const c_char {
    let s: &'static CStr = match Error::from_code(code) {
        None => c"Unknown error",
        Some(Error::Failure) => c"Generic failure",
        Some(Error::Stream) => c"Bad stream",
        Some(Error::Data) => c"Invalid data",
        Some(Error::MemoryAlloc) => c"Memory alloc/realloc failure",
        Some(Error::ReadBuffer) => c"Not enough space to read",
        Some(Error::WriteBuffer) => c"Not enough space to write",
        Some(Error::CodecSupport) => c"Codec not supported",
        Some(Error::CodecParam) => c"Invalid parameter supplied to codec",
        Some(Error::CodecDict) => c"Codec dictionary error",
        Some(Error::VersionSupport) => c"Version not supported",
        Some(Error::InvalidHeader) => c"Invalid value in header",
        Some(Error::InvalidParam) => c"Invalid parameter supplied to function",
        Some(Error::FileRead) => c"File read failure",
        Some(Error::FileWrite) => c"File write failure",
        Some(Error::FileOpen) => c"File open failure",
        Some(Error::NotFound) => c"Not found",
        Some(Error::RunLength) => c"Bad run length encoding",
        Some(Error::FilterPipeline) => c"Filter pipeline error",
        Some(Error::ChunkInsert) => c"Chunk insert failure",
        Some(Error::ChunkAppend) => c"Chunk append failure",
        Some(Error::ChunkUpdate) => c"Chunk update failure",
        Some(Error::TwoGbLimit) => c"Sizes larger than 2gb not supported",
        Some(Error::SchunkCopy) => c"Super-chunk copy failure",
        Some(Error::FrameType) => c"Wrong type for frame",
        Some(Error::FileTruncate) => c"File truncate failure",
        Some(Error::ThreadCreate) => c"Thread or thread context creation failure",
        Some(Error::Postfilter) => c"Postfilter failure",
        Some(Error::FrameSpecial) => c"Special frame failure",
        Some(Error::SchunkSpecial) => c"Special super-chunk failure",
        Some(Error::PluginIo) => c"IO plugin error",
        Some(Error::FileRemove) => c"Remove file failure",
        Some(Error::NullPointer) => c"Pointer is null",
        Some(Error::InvalidIndex) => c"Invalid index",
        Some(Error::MetalayerNotFound) => c"Metalayer has not been found",
        Some(Error::MaxBufsizeExceeded) => c"Maximum buffersize exceeded",
        Some(Error::Tuner) => c"Tuner failure",
        Some(Error::Lock) => c"Frame lock failure",
    };
    debug_assert_eq!(s.to_str().ok(), Some(error::error_string(code)));
    s.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_message_matches_the_core_table() {
        for code in -40..=2 {
            // SAFETY: error_c_string returns a static NUL-terminated string.
            let s = unsafe { CStr::from_ptr(error_c_string(code)) };
            assert_eq!(s.to_str().unwrap(), error::error_string(code));
        }
    }
}
