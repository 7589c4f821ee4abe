//! The fields of a context that tuner plugins read and write, at the offsets of the
//! reference's private `struct blosc2_context_s` (c-blosc2 3.3.5, x86-64, 1344 bytes, measured
//! from its `blosc2_create_cctx`, `blosc2_compress_ctx` and `blosc2_ctx_get_cparams`):
//! plugins such as btune are compiled against that header and address the fields directly.

use std::ffi::c_void;

use crate::context::CParams;

/// Bytes the reference allocates for a context.
pub(crate) const CONTEXT_SIZE: usize = 1344;

/// A context as tuner plugins see it; the bytes the library does not use stay zero.
#[repr(C, align(32))]
pub(crate) struct ContextView {
    pub(crate) src: *const u8,
    pub(crate) dest: *mut u8,
    header_flags: u8,
    blosc2_flags: u8,
    _pad18: [u8; 2],
    pub(crate) sourcesize: i32,
    header_overhead: i32,
    pub(crate) nblocks: i32,
    pub(crate) leftover: i32,
    pub(crate) blocksize: i32,
    user_blocksize: i32,
    pub(crate) splitmode: i32,
    output_bytes: i32,
    pub(crate) srcsize: i32,
    pub(crate) destsize: i32,
    pub(crate) typesize: i32,
    _pad64: [u8; 52],
    pub(crate) compcode: i32,
    pub(crate) compcode_meta: u8,
    pub(crate) clevel: i32,
    pub(crate) use_dict: i32,
    _pad132: [u8; 36],
    filter_flags: u8,
    pub(crate) filters: [u8; 6],
    pub(crate) filters_meta: [u8; 6],
    _pad181: [u8; 643],
    pub(crate) prefilter: *mut c_void,
    postfilter: *mut c_void,
    pub(crate) preparams: *mut c_void,
    postparams: *mut c_void,
    block_maskout: *mut c_void,
    block_maskout_nitems: i32,
    pub(crate) schunk: *mut c_void,
    serial_context: *mut c_void,
    pub(crate) do_compress: i32,
    pub(crate) tuner_params: *mut c_void,
    pub(crate) tuner_id: i32,
    pub(crate) codec_params: *mut c_void,
    pub(crate) filter_params: [*mut c_void; 6],
    pub(crate) nthreads: i16,
    pub(crate) new_nthreads: i16,
    _tail: [u8; CONTEXT_SIZE - 972],
}

const _: () = assert!(std::mem::size_of::<ContextView>() == CONTEXT_SIZE);
const _: () = assert!(std::mem::offset_of!(ContextView, typesize) == 60);
const _: () = assert!(std::mem::offset_of!(ContextView, compcode) == 116);
const _: () = assert!(std::mem::offset_of!(ContextView, filters) == 169);
const _: () = assert!(std::mem::offset_of!(ContextView, schunk) == 872);
const _: () = assert!(std::mem::offset_of!(ContextView, tuner_params) == 896);
const _: () = assert!(std::mem::offset_of!(ContextView, nthreads) == 968);

impl ContextView {
    /// A view with every byte zero.
    pub(crate) fn zeroed() -> ContextView {
        // SAFETY: all fields are integers, byte arrays and raw pointers, for which zero bytes
        // are valid values.
        unsafe { std::mem::zeroed() }
    }

    /// Writes the parameters a tuner may change.
    pub(crate) fn put(&mut self, cp: &CParams) {
        self.compcode = i32::from(cp.compcode);
        self.compcode_meta = cp.compcode_meta;
        self.clevel = i32::from(cp.clevel);
        self.use_dict = i32::from(cp.use_dict);
        self.typesize = cp.typesize;
        self.blocksize = cp.blocksize;
        self.user_blocksize = cp.blocksize;
        self.splitmode = cp.splitmode;
        self.filters = cp.filters;
        self.filters_meta = cp.filters_meta;
        self.nthreads = cp.nthreads;
        self.new_nthreads = cp.nthreads;
        self.filter_flags = filter_flags(&cp.filters);
    }

    /// Reads back the parameters a tuner may have changed; values out of range become
    /// ones the compression refuses (codec 255, level 255).
    pub(crate) fn take(&self, cp: &mut CParams) {
        cp.compcode = u8::try_from(self.compcode).unwrap_or(u8::MAX);
        cp.compcode_meta = self.compcode_meta;
        cp.clevel = u8::try_from(self.clevel).unwrap_or(u8::MAX);
        cp.use_dict = self.use_dict != 0;
        cp.typesize = self.typesize;
        cp.blocksize = self.blocksize;
        cp.splitmode = self.splitmode;
        cp.filters = self.filters;
        cp.filters_meta = self.filters_meta;
        cp.nthreads = if self.new_nthreads != cp.nthreads {
            self.new_nthreads
        } else {
            self.nthreads
        };
    }

    /// Describes the source of the next compression.
    pub(crate) fn set_source(&mut self, src: &[u8], destsize: usize) {
        let n = i32::try_from(src.len()).unwrap_or(i32::MAX);
        self.src = src.as_ptr();
        self.dest = std::ptr::null_mut();
        self.sourcesize = n;
        self.srcsize = n;
        self.destsize = i32::try_from(destsize).unwrap_or(i32::MAX);
        self.output_bytes = 0;
    }

    /// Describes the outcome of a compression of `srcsize` bytes into `cbytes`.
    pub(crate) fn set_outcome(&mut self, srcsize: usize, cbytes: usize, blocksize: i32) {
        let n = i32::try_from(srcsize).unwrap_or(i32::MAX);
        self.src = std::ptr::null();
        self.sourcesize = n;
        self.destsize = i32::try_from(cbytes).unwrap_or(i32::MAX);
        self.output_bytes = self.destsize;
        self.blocksize = blocksize;
        if blocksize > 0 {
            self.nblocks = n / blocksize + i32::from(n % blocksize > 0);
            self.leftover = n % blocksize;
        }
    }
}

/// The filter flags byte of a pipeline (shuffle, bitshuffle, delta bits), as in the header.
fn filter_flags(filters: &[u8; 6]) -> u8 {
    let mut flags = 0;
    for &f in filters {
        flags |= match f {
            1 => 0x1,
            2 => 0x4,
            3 => 0x8,
            _ => 0,
        };
    }
    flags
}
