//! Opaque handles and the timestamp type of the public headers.

use core::marker::{PhantomData, PhantomPinned};

/// Tag of the opaque context type; C only ever sees pointers to it.
///
/// cbindgen:no-export
pub struct blosc2_context_s {
    _private: [u8; 0],
    _not_send_sync_unpin: PhantomData<(*mut u8, PhantomPinned)>,
}

/// A compression or decompression context (`struct blosc2_context_s` in C, opaque).
pub type blosc2_context = blosc2_context_s;

/// Tag of the opaque frame type; C only ever sees pointers to it.
///
/// cbindgen:no-export
pub struct blosc2_frame_s {
    _private: [u8; 0],
    _not_send_sync_unpin: PhantomData<(*mut u8, PhantomPinned)>,
}

/// The frame (contiguous or sparse serialisation) behind a super-chunk (opaque).
pub type blosc2_frame = blosc2_frame_s;

/// A point in time for the timing helpers: `struct timespec` on Unix.
///
/// The C typedef is written verbatim in the header configuration.
///
/// cbindgen:ignore
pub type blosc_timestamp_t = libc::timespec;
