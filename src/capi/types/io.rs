//! I/O backend descriptions (`blosc2.h`) and the parameters of the built-in stdio and
//! mmap backends (`blosc2/blosc2-stdio.h`).

use core::ffi::{c_char, c_int, c_void};

use super::{
    blosc2_close_cb, blosc2_destroy_cb, blosc2_open_cb, blosc2_read_cb, blosc2_size_cb,
    blosc2_truncate_cb, blosc2_write_cb,
};

/// An I/O backend: the callbacks frames use to reach their storage.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_io_cb {
    /// Backend id (user backends use 160..=255).
    pub id: u8,
    /// Backend name.
    pub name: *mut c_char,
    /// Whether `read` needs a caller-allocated buffer (false: it returns a pointer).
    pub is_allocation_necessary: bool,
    /// Opens a stream.
    pub open: blosc2_open_cb,
    /// Closes a stream.
    pub close: blosc2_close_cb,
    /// Returns the size of a stream.
    pub size: blosc2_size_cb,
    /// Writes to a stream.
    pub write: blosc2_write_cb,
    /// Reads from a stream.
    pub read: blosc2_read_cb,
    /// Truncates a stream.
    pub truncate: blosc2_truncate_cb,
    /// Releases the backend parameters.
    pub destroy: blosc2_destroy_cb,
}

/// Selects an I/O backend for a super-chunk, with its parameters.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_io {
    /// Id of the backend (`BLOSC2_IO_FILESYSTEM`, ...).
    pub id: u8,
    /// Name of the backend.
    pub name: *const c_char,
    /// Backend parameters (e.g. a `blosc2_stdio_params` or `blosc2_stdio_mmap`).
    pub params: *mut c_void,
}

/// Stream of the default file-system backend.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_stdio_file {
    /// The open C stream.
    pub file: *mut libc::FILE,
}

/// Parameters of the default file-system backend.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct blosc2_stdio_params {
    /// Whether to take an advisory lock (a sidecar lock file) around frame accesses.
    pub locking: bool,
}

/// Parameters and state of the memory-mapped file backend (cframes only).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct blosc2_stdio_mmap {
    /// Opening mode: "r", "r+", "w+" or "c" (copy-on-write, changes stay in memory).
    pub mode: *const c_char,
    /// Size of the first mapping, used as write headroom in the writable modes.
    pub initial_mapping_size: usize,
    /// Whether the destroy callback frees this struct (it was heap-allocated).
    pub needs_free: bool,
    /// Start of the mapping.
    pub addr: *mut c_char,
    /// Path of the mapped file.
    pub urlpath: *mut c_char,
    /// Size of the file.
    pub file_size: usize,
    /// Size of the mapping (at least `file_size`).
    pub mapping_size: usize,
    /// Whether changes stay in memory only ("c" mode).
    pub is_memory_only: bool,
    /// The underlying C stream.
    pub file: *mut libc::FILE,
    /// The underlying file descriptor.
    pub fd: c_int,
    /// Page protection flags of the mapping.
    pub access_flags: i64,
    /// Flags of the mapping.
    pub map_flags: i64,
}
