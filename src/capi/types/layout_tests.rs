//! Layout checks of the `repr(C)` mirrors against the reference's numbers for x86_64 Linux
//! (`abi_layout.expected.txt`, produced from the c-blosc2 3.3.5 headers).

use core::mem::{align_of, offset_of, size_of};

use super::*;

/// Size of the field that `get` borrows.
fn field_size<T, F>(_get: fn(&T) -> &F) -> usize {
    size_of::<F>()
}

/// Asserts the size and alignment of a struct and the offset and size of its fields.
macro_rules! check_struct {
    ($t:ty, size = $size:expr, align = $align:expr, { $($field:ident: $off:expr, $fsize:expr;)* }) => {{
        assert_eq!(size_of::<$t>(), $size, concat!("size of ", stringify!($t)));
        assert_eq!(align_of::<$t>(), $align, concat!("align of ", stringify!($t)));
        $(
            assert_eq!(
                offset_of!($t, $field),
                $off,
                concat!("offset of ", stringify!($t), ".", stringify!($field))
            );
            assert_eq!(
                field_size(|s: &$t| &s.$field),
                $fsize,
                concat!("size of ", stringify!($t), ".", stringify!($field))
            );
        )*
    }};
}

#[test]
fn layout_blosc2_instr() {
    check_struct!(blosc2_instr, size = 16, align = 4, {
        cratio: 0, 4;
        cspeed: 4, 4;
        filter_speed: 8, 4;
        flags: 12, 4;
    });
}

#[test]
fn layout_blosc2_io_cb() {
    check_struct!(blosc2_io_cb, size = 80, align = 8, {
        id: 0, 1;
        name: 8, 8;
        is_allocation_necessary: 16, 1;
        open: 24, 8;
        close: 32, 8;
        size: 40, 8;
        write: 48, 8;
        read: 56, 8;
        truncate: 64, 8;
        destroy: 72, 8;
    });
}

#[test]
fn layout_blosc2_io() {
    check_struct!(blosc2_io, size = 24, align = 8, {
        id: 0, 1;
        name: 8, 8;
        params: 16, 8;
    });
}

#[test]
fn layout_blosc2_tuner() {
    check_struct!(blosc2_tuner, size = 56, align = 8, {
        init: 0, 8;
        next_blocksize: 8, 8;
        next_cparams: 16, 8;
        update: 24, 8;
        free: 32, 8;
        id: 40, 4;
        name: 48, 8;
    });
}

#[test]
fn layout_blosc2_prefilter_params() {
    check_struct!(blosc2_prefilter_params, size = 88, align = 8, {
        user_data: 0, 8;
        input: 8, 8;
        output: 16, 8;
        output_size: 24, 4;
        output_typesize: 28, 4;
        output_offset: 32, 4;
        nchunk: 40, 8;
        nblock: 48, 4;
        tid: 52, 4;
        ttmp: 56, 8;
        ttmp_nbytes: 64, 8;
        ctx: 72, 8;
        output_is_disposable: 80, 1;
    });
}

#[test]
fn layout_blosc2_postfilter_params() {
    check_struct!(blosc2_postfilter_params, size = 80, align = 8, {
        user_data: 0, 8;
        input: 8, 8;
        output: 16, 8;
        size: 24, 4;
        typesize: 28, 4;
        offset: 32, 4;
        nchunk: 40, 8;
        nblock: 48, 4;
        tid: 52, 4;
        ttmp: 56, 8;
        ttmp_nbytes: 64, 8;
        ctx: 72, 8;
    });
}

#[test]
fn layout_blosc2_cparams() {
    check_struct!(blosc2_cparams, size = 136, align = 8, {
        compcode: 0, 1;
        compcode_meta: 1, 1;
        clevel: 2, 1;
        use_dict: 4, 4;
        typesize: 8, 4;
        nthreads: 12, 2;
        blocksize: 16, 4;
        splitmode: 20, 4;
        schunk: 24, 8;
        filters: 32, 6;
        filters_meta: 38, 6;
        prefilter: 48, 8;
        preparams: 56, 8;
        tuner_params: 64, 8;
        tuner_id: 72, 4;
        instr_codec: 76, 1;
        codec_params: 80, 8;
        filter_params: 88, 48;
    });
}

#[test]
fn layout_blosc2_dparams() {
    check_struct!(blosc2_dparams, size = 40, align = 8, {
        nthreads: 0, 2;
        schunk: 8, 8;
        postfilter: 16, 8;
        postparams: 24, 8;
        typesize: 32, 4;
    });
}

#[test]
fn layout_blosc2_storage() {
    check_struct!(blosc2_storage, size = 40, align = 8, {
        contiguous: 0, 1;
        urlpath: 8, 8;
        cparams: 16, 8;
        dparams: 24, 8;
        io: 32, 8;
    });
}

#[test]
fn layout_blosc2_metalayer() {
    check_struct!(blosc2_metalayer, size = 24, align = 8, {
        name: 0, 8;
        content: 8, 8;
        content_len: 16, 4;
    });
}

#[test]
fn layout_blosc2_schunk() {
    check_struct!(blosc2_schunk, size = 65840, align = 8, {
        version: 0, 1;
        compcode: 1, 1;
        compcode_meta: 2, 1;
        clevel: 3, 1;
        splitmode: 4, 1;
        typesize: 8, 4;
        blocksize: 12, 4;
        chunksize: 16, 4;
        flags2: 20, 1;
        use_dict: 21, 1;
        filters: 22, 6;
        filters_meta: 28, 6;
        nchunks: 40, 8;
        current_nchunk: 48, 8;
        nbytes: 56, 8;
        cbytes: 64, 8;
        data: 72, 8;
        data_len: 80, 8;
        storage: 88, 8;
        frame: 96, 8;
        cctx: 104, 8;
        dctx: 112, 8;
        metalayers: 120, 128;
        nmetalayers: 248, 2;
        vlmetalayers: 256, 65536;
        nvlmetalayers: 65792, 2;
        tuner_params: 65800, 8;
        tuner_id: 65808, 4;
        ndim: 65812, 1;
        blockshape: 65816, 8;
        view: 65824, 1;
        change_tick: 65832, 8;
    });
}

#[test]
fn layout_blosc2_codec() {
    check_struct!(blosc2_codec, size = 40, align = 8, {
        compcode: 0, 1;
        compname: 8, 8;
        complib: 16, 1;
        version: 17, 1;
        encoder: 24, 8;
        decoder: 32, 8;
    });
}

#[test]
fn layout_blosc2_filter() {
    check_struct!(blosc2_filter, size = 40, align = 8, {
        id: 0, 1;
        name: 8, 8;
        version: 16, 1;
        forward: 24, 8;
        backward: 32, 8;
    });
}

#[test]
fn layout_blosc2_stdio_file() {
    check_struct!(blosc2_stdio_file, size = 8, align = 8, {
        file: 0, 8;
    });
}

#[test]
fn layout_blosc2_stdio_params() {
    check_struct!(blosc2_stdio_params, size = 1, align = 1, {
        locking: 0, 1;
    });
}

#[test]
fn layout_blosc2_stdio_mmap() {
    check_struct!(blosc2_stdio_mmap, size = 96, align = 8, {
        mode: 0, 8;
        initial_mapping_size: 8, 8;
        needs_free: 16, 1;
        addr: 24, 8;
        urlpath: 32, 8;
        file_size: 40, 8;
        mapping_size: 48, 8;
        is_memory_only: 56, 1;
        file: 64, 8;
        fd: 72, 4;
        access_flags: 80, 8;
        map_flags: 88, 8;
    });
}

#[test]
fn layout_codec_info() {
    check_struct!(codec_info, size = 16, align = 8, {
        encoder: 0, 8;
        decoder: 8, 8;
    });
}

#[test]
fn layout_filter_info() {
    check_struct!(filter_info, size = 16, align = 8, {
        forward: 0, 8;
        backward: 8, 8;
    });
}

#[test]
fn layout_tuner_info() {
    check_struct!(tuner_info, size = 40, align = 8, {
        init: 0, 8;
        next_blocksize: 8, 8;
        next_cparams: 16, 8;
        update: 24, 8;
        free: 32, 8;
    });
}

#[test]
fn layout_chunk_cache_s() {
    check_struct!(chunk_cache_s, size = 16, align = 8, {
        data: 0, 8;
        nchunk: 8, 8;
    });
}

#[test]
fn layout_b2nd_array_t() {
    check_struct!(b2nd_array_t, size = 1376, align = 8, {
        sc: 0, 8;
        shape: 8, 128;
        chunkshape: 136, 64;
        extshape: 200, 128;
        blockshape: 328, 64;
        extchunkshape: 392, 128;
        nitems: 520, 8;
        chunknitems: 528, 4;
        extnitems: 536, 8;
        blocknitems: 544, 4;
        extchunknitems: 552, 8;
        ndim: 560, 1;
        chunk_cache: 568, 16;
        item_array_strides: 584, 128;
        item_chunk_strides: 712, 128;
        item_extchunk_strides: 840, 128;
        item_block_strides: 968, 128;
        block_chunk_strides: 1096, 128;
        chunk_array_strides: 1224, 128;
        dtype: 1352, 8;
        dtype_format: 1360, 1;
        last_tick: 1368, 8;
    });
}

#[test]
fn layout_typedefs() {
    assert_eq!(
        (
            size_of::<blosc_timestamp_t>(),
            align_of::<blosc_timestamp_t>()
        ),
        (16, 8),
        "blosc_timestamp_t"
    );
    assert_eq!(
        (
            size_of::<blosc_threads_callback>(),
            align_of::<blosc_threads_callback>()
        ),
        (8, 8),
        "blosc_threads_callback"
    );
    assert_eq!(
        (size_of::<blosc2_open_cb>(), align_of::<blosc2_open_cb>()),
        (8, 8),
        "blosc2_open_cb"
    );
    assert_eq!(
        (size_of::<blosc2_close_cb>(), align_of::<blosc2_close_cb>()),
        (8, 8),
        "blosc2_close_cb"
    );
    assert_eq!(
        (size_of::<blosc2_size_cb>(), align_of::<blosc2_size_cb>()),
        (8, 8),
        "blosc2_size_cb"
    );
    assert_eq!(
        (size_of::<blosc2_write_cb>(), align_of::<blosc2_write_cb>()),
        (8, 8),
        "blosc2_write_cb"
    );
    assert_eq!(
        (size_of::<blosc2_read_cb>(), align_of::<blosc2_read_cb>()),
        (8, 8),
        "blosc2_read_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_truncate_cb>(),
            align_of::<blosc2_truncate_cb>()
        ),
        (8, 8),
        "blosc2_truncate_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_destroy_cb>(),
            align_of::<blosc2_destroy_cb>()
        ),
        (8, 8),
        "blosc2_destroy_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_prefilter_fn>(),
            align_of::<blosc2_prefilter_fn>()
        ),
        (8, 8),
        "blosc2_prefilter_fn"
    );
    assert_eq!(
        (
            size_of::<blosc2_postfilter_fn>(),
            align_of::<blosc2_postfilter_fn>()
        ),
        (8, 8),
        "blosc2_postfilter_fn"
    );
    assert_eq!(
        (
            size_of::<blosc2_codec_encoder_cb>(),
            align_of::<blosc2_codec_encoder_cb>()
        ),
        (8, 8),
        "blosc2_codec_encoder_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_codec_decoder_cb>(),
            align_of::<blosc2_codec_decoder_cb>()
        ),
        (8, 8),
        "blosc2_codec_decoder_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_filter_forward_cb>(),
            align_of::<blosc2_filter_forward_cb>()
        ),
        (8, 8),
        "blosc2_filter_forward_cb"
    );
    assert_eq!(
        (
            size_of::<blosc2_filter_backward_cb>(),
            align_of::<blosc2_filter_backward_cb>()
        ),
        (8, 8),
        "blosc2_filter_backward_cb"
    );
}
