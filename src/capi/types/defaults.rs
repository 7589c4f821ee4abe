//! Default values of the parameter structs, identical to the header's `*_DEFAULTS`
//! initialisers and to what `blosc2_get_blosc2_*_defaults` return.

use core::ptr;

use super::{
    blosc2_cparams, blosc2_dparams, blosc2_io, blosc2_stdio_mmap, blosc2_stdio_params,
    blosc2_storage, BLOSC2_IO_FILESYSTEM, BLOSC_BLOSCLZ, BLOSC_FORWARD_COMPAT_SPLIT, BLOSC_SHUFFLE,
};

impl blosc2_cparams {
    /// BloscLZ at level 5, typesize 8, one thread, automatic blocksize, forward-compatible
    /// split and a single SHUFFLE in the last filter slot.
    pub const DEFAULTS: blosc2_cparams = blosc2_cparams {
        compcode: BLOSC_BLOSCLZ as u8,
        compcode_meta: 0,
        clevel: 5,
        use_dict: 0,
        typesize: 8,
        nthreads: 1,
        blocksize: 0,
        splitmode: BLOSC_FORWARD_COMPAT_SPLIT,
        schunk: ptr::null_mut(),
        filters: [0, 0, 0, 0, 0, BLOSC_SHUFFLE as u8],
        filters_meta: [0; 6],
        prefilter: None,
        preparams: ptr::null_mut(),
        tuner_params: ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: ptr::null_mut(),
        filter_params: [ptr::null_mut(); 6],
    };
}

impl blosc2_dparams {
    /// One thread, no postfilter, typesize 8.
    pub const DEFAULTS: blosc2_dparams = blosc2_dparams {
        nthreads: 1,
        schunk: ptr::null_mut(),
        postfilter: None,
        postparams: ptr::null_mut(),
        typesize: 8,
    };
}

impl blosc2_storage {
    /// Non-contiguous, in memory, default parameters and I/O.
    pub const DEFAULTS: blosc2_storage = blosc2_storage {
        contiguous: false,
        urlpath: ptr::null_mut(),
        cparams: ptr::null_mut(),
        dparams: ptr::null_mut(),
        io: ptr::null_mut(),
    };
}

impl blosc2_io {
    /// The file-system backend (`name` points to the static string "filesystem").
    pub const DEFAULTS: blosc2_io = blosc2_io {
        id: BLOSC2_IO_FILESYSTEM as u8,
        name: c"filesystem".as_ptr(),
        params: ptr::null_mut(),
    };
}

impl blosc2_stdio_params {
    /// No locking.
    pub const DEFAULTS: blosc2_stdio_params = blosc2_stdio_params { locking: false };
}

impl blosc2_stdio_mmap {
    /// Read-only mapping with a 1 GiB initial mapping size and no open file.
    pub const DEFAULTS: blosc2_stdio_mmap = blosc2_stdio_mmap {
        mode: c"r".as_ptr(),
        initial_mapping_size: 1 << 30,
        needs_free: false,
        addr: ptr::null_mut(),
        urlpath: ptr::null_mut(),
        file_size: 0,
        mapping_size: 0,
        is_memory_only: false,
        file: ptr::null_mut(),
        fd: -1,
        access_flags: -1,
        map_flags: -1,
    };
}
