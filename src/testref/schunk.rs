//! The reference's super-chunk entry points.

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use crate::capi::types::{blosc2_cparams, blosc2_schunk, blosc2_storage};

type Sc = *mut blosc2_schunk;

/// Super-chunk entry points of the reference library.
pub(crate) struct Schunk {
    /// `blosc2_schunk_new`.
    pub new: unsafe extern "C" fn(*mut blosc2_storage) -> Sc,
    /// `blosc2_schunk_open`.
    pub open: unsafe extern "C" fn(*const c_char) -> Sc,
    /// `blosc2_schunk_from_buffer`.
    pub from_buffer: unsafe extern "C" fn(*mut u8, i64, bool) -> Sc,
    /// `blosc2_schunk_to_buffer`.
    pub to_buffer: unsafe extern "C" fn(Sc, *mut *mut u8, *mut bool) -> i64,
    /// `blosc2_schunk_free`.
    pub free: unsafe extern "C" fn(Sc) -> c_int,
    /// `blosc2_schunk_append_buffer`.
    pub append_buffer: unsafe extern "C" fn(Sc, *const c_void, i32) -> i64,
    /// `blosc2_schunk_decompress_chunk`.
    pub decompress_chunk: unsafe extern "C" fn(Sc, i64, *mut c_void, i32) -> c_int,
    /// `blosc2_meta_add`.
    pub meta_add: unsafe extern "C" fn(Sc, *const c_char, *mut u8, i32) -> c_int,
    /// `blosc2_vlmeta_add`.
    pub vlmeta_add:
        unsafe extern "C" fn(Sc, *const c_char, *mut u8, i32, *mut blosc2_cparams) -> c_int,
    /// `blosc2_vlmeta_get`.
    pub vlmeta_get: unsafe extern "C" fn(Sc, *const c_char, *mut *mut u8, *mut i32) -> c_int,
    /// `blosc2_schunk_fill_special`.
    pub fill_special: unsafe extern "C" fn(Sc, i64, c_int, i32) -> i64,
    /// `blosc2_get_slice_nchunks`.
    pub get_slice_nchunks: unsafe extern "C" fn(Sc, *mut i64, *mut i64, *mut *mut i64) -> i64,
}

/// The reference's super-chunk API; `None` only when the reference is opted out (see
/// [`super::library`]).
pub(crate) fn get() -> Option<&'static Schunk> {
    static REF: OnceLock<Option<Schunk>> = OnceLock::new();
    REF.get_or_init(|| {
        let lib = super::library()?;
        // SAFETY: each field's type is the C signature of its symbol in the reference's
        // blosc2.h; the structs are our layout-checked mirrors.
        unsafe {
            Some(Schunk {
                new: lib.sym("blosc2_schunk_new"),
                open: lib.sym("blosc2_schunk_open"),
                from_buffer: lib.sym("blosc2_schunk_from_buffer"),
                to_buffer: lib.sym("blosc2_schunk_to_buffer"),
                free: lib.sym("blosc2_schunk_free"),
                append_buffer: lib.sym("blosc2_schunk_append_buffer"),
                decompress_chunk: lib.sym("blosc2_schunk_decompress_chunk"),
                meta_add: lib.sym("blosc2_meta_add"),
                vlmeta_add: lib.sym("blosc2_vlmeta_add"),
                vlmeta_get: lib.sym("blosc2_vlmeta_get"),
                fill_special: lib.sym("blosc2_schunk_fill_special"),
                get_slice_nchunks: lib.sym("blosc2_get_slice_nchunks"),
            })
        }
    })
    .as_ref()
}
