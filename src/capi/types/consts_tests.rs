//! The constants against the reference's values (`abi_layout.expected.txt`).

use core::ffi::CStr;

use super::*;

#[test]
fn integer_constants() {
    assert_eq!(BLOSC2_VERSION_MAJOR, 3, "BLOSC2_VERSION_MAJOR");
    assert_eq!(BLOSC2_VERSION_MINOR, 3, "BLOSC2_VERSION_MINOR");
    assert_eq!(BLOSC2_VERSION_RELEASE, 5, "BLOSC2_VERSION_RELEASE");
    assert_eq!(BLOSC1_VERSION_FORMAT_PRE1, 1, "BLOSC1_VERSION_FORMAT_PRE1");
    assert_eq!(BLOSC1_VERSION_FORMAT, 2, "BLOSC1_VERSION_FORMAT");
    assert_eq!(
        BLOSC2_VERSION_FORMAT_ALPHA, 3,
        "BLOSC2_VERSION_FORMAT_ALPHA"
    );
    assert_eq!(
        BLOSC2_VERSION_FORMAT_BETA1, 4,
        "BLOSC2_VERSION_FORMAT_BETA1"
    );
    assert_eq!(
        BLOSC2_VERSION_FORMAT_STABLE, 5,
        "BLOSC2_VERSION_FORMAT_STABLE"
    );
    assert_eq!(
        BLOSC2_VERSION_FORMAT_VL_BLOCKS, 6,
        "BLOSC2_VERSION_FORMAT_VL_BLOCKS"
    );
    assert_eq!(BLOSC2_VERSION_FORMAT, 6, "BLOSC2_VERSION_FORMAT");
    assert_eq!(
        BLOSC2_VERSION_FRAME_FORMAT_BETA2, 1,
        "BLOSC2_VERSION_FRAME_FORMAT_BETA2"
    );
    assert_eq!(
        BLOSC2_VERSION_FRAME_FORMAT_RC1, 2,
        "BLOSC2_VERSION_FRAME_FORMAT_RC1"
    );
    assert_eq!(
        BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS, 3,
        "BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS"
    );
    assert_eq!(
        BLOSC2_VERSION_FRAME_FORMAT, 3,
        "BLOSC2_VERSION_FRAME_FORMAT"
    );
    assert_eq!(BLOSC_MIN_HEADER_LENGTH, 16, "BLOSC_MIN_HEADER_LENGTH");
    assert_eq!(
        BLOSC_EXTENDED_HEADER_LENGTH, 32,
        "BLOSC_EXTENDED_HEADER_LENGTH"
    );
    assert_eq!(BLOSC2_MAX_OVERHEAD, 32, "BLOSC2_MAX_OVERHEAD");
    assert_eq!(BLOSC2_MAX_BUFFERSIZE, 2147483615, "BLOSC2_MAX_BUFFERSIZE");
    assert_eq!(BLOSC_MAX_TYPESIZE, 255, "BLOSC_MAX_TYPESIZE");
    assert_eq!(BLOSC_MIN_BUFFERSIZE, 32, "BLOSC_MIN_BUFFERSIZE");
    assert_eq!(BLOSC2_DEFINED_TUNER_START, 0, "BLOSC2_DEFINED_TUNER_START");
    assert_eq!(BLOSC2_DEFINED_TUNER_STOP, 31, "BLOSC2_DEFINED_TUNER_STOP");
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_TUNER_START, 32,
        "BLOSC2_GLOBAL_REGISTERED_TUNER_START"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_TUNER_STOP, 159,
        "BLOSC2_GLOBAL_REGISTERED_TUNER_STOP"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_TUNERS, 0,
        "BLOSC2_GLOBAL_REGISTERED_TUNERS"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_TUNER_START, 160,
        "BLOSC2_USER_REGISTERED_TUNER_START"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_TUNER_STOP, 255,
        "BLOSC2_USER_REGISTERED_TUNER_STOP"
    );
    assert_eq!(BLOSC_STUNE, 0, "BLOSC_STUNE");
    assert_eq!(BLOSC_LAST_TUNER, 1, "BLOSC_LAST_TUNER");
    assert_eq!(BLOSC_LAST_REGISTERED_TUNE, 31, "BLOSC_LAST_REGISTERED_TUNE");
    assert_eq!(BLOSC_BTUNE, 32, "BLOSC_BTUNE");
    assert_eq!(
        BLOSC2_DEFINED_FILTERS_START, 0,
        "BLOSC2_DEFINED_FILTERS_START"
    );
    assert_eq!(
        BLOSC2_DEFINED_FILTERS_STOP, 31,
        "BLOSC2_DEFINED_FILTERS_STOP"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_FILTERS_START, 32,
        "BLOSC2_GLOBAL_REGISTERED_FILTERS_START"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_FILTERS_STOP, 159,
        "BLOSC2_GLOBAL_REGISTERED_FILTERS_STOP"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_FILTERS, 5,
        "BLOSC2_GLOBAL_REGISTERED_FILTERS"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_FILTERS_START, 160,
        "BLOSC2_USER_REGISTERED_FILTERS_START"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_FILTERS_STOP, 255,
        "BLOSC2_USER_REGISTERED_FILTERS_STOP"
    );
    assert_eq!(BLOSC2_MAX_FILTERS, 6, "BLOSC2_MAX_FILTERS");
    assert_eq!(BLOSC2_MAX_UDFILTERS, 16, "BLOSC2_MAX_UDFILTERS");
    assert_eq!(BLOSC_NOSHUFFLE, 0, "BLOSC_NOSHUFFLE");
    assert_eq!(BLOSC_NOFILTER, 0, "BLOSC_NOFILTER");
    assert_eq!(BLOSC_SHUFFLE, 1, "BLOSC_SHUFFLE");
    assert_eq!(BLOSC_BITSHUFFLE, 2, "BLOSC_BITSHUFFLE");
    assert_eq!(BLOSC_DELTA, 3, "BLOSC_DELTA");
    assert_eq!(BLOSC_TRUNC_PREC, 4, "BLOSC_TRUNC_PREC");
    assert_eq!(BLOSC_LAST_FILTER, 5, "BLOSC_LAST_FILTER");
    assert_eq!(
        BLOSC_LAST_REGISTERED_FILTER, 36,
        "BLOSC_LAST_REGISTERED_FILTER"
    );
    assert_eq!(BLOSC_FILTER_NDCELL, 32, "BLOSC_FILTER_NDCELL");
    assert_eq!(BLOSC_FILTER_NDMEAN, 33, "BLOSC_FILTER_NDMEAN");
    assert_eq!(
        BLOSC_FILTER_BYTEDELTA_BUGGY, 34,
        "BLOSC_FILTER_BYTEDELTA_BUGGY"
    );
    assert_eq!(BLOSC_FILTER_BYTEDELTA, 35, "BLOSC_FILTER_BYTEDELTA");
    assert_eq!(BLOSC_FILTER_INT_TRUNC, 36, "BLOSC_FILTER_INT_TRUNC");
    assert_eq!(BLOSC_DOSHUFFLE, 1, "BLOSC_DOSHUFFLE");
    assert_eq!(BLOSC_MEMCPYED, 2, "BLOSC_MEMCPYED");
    assert_eq!(BLOSC_DOBITSHUFFLE, 4, "BLOSC_DOBITSHUFFLE");
    assert_eq!(BLOSC_DODELTA, 8, "BLOSC_DODELTA");
    assert_eq!(BLOSC2_USEDICT, 1, "BLOSC2_USEDICT");
    assert_eq!(BLOSC2_BIGENDIAN, 2, "BLOSC2_BIGENDIAN");
    assert_eq!(BLOSC2_INSTR_CODEC, 128, "BLOSC2_INSTR_CODEC");
    assert_eq!(BLOSC2_VL_BLOCKS, 1, "BLOSC2_VL_BLOCKS");
    assert_eq!(BLOSC2_MAXDICTSIZE, 32768, "BLOSC2_MAXDICTSIZE");
    assert_eq!(BLOSC2_MINUSEFULDICT, 256, "BLOSC2_MINUSEFULDICT");
    assert_eq!(BLOSC2_MAXBLOCKSIZE, 536866816, "BLOSC2_MAXBLOCKSIZE");
    assert_eq!(BLOSC2_MAXTYPESIZE, 536866816, "BLOSC2_MAXTYPESIZE");
    assert_eq!(
        BLOSC2_DEFINED_CODECS_START, 0,
        "BLOSC2_DEFINED_CODECS_START"
    );
    assert_eq!(BLOSC2_DEFINED_CODECS_STOP, 31, "BLOSC2_DEFINED_CODECS_STOP");
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_CODECS_START, 32,
        "BLOSC2_GLOBAL_REGISTERED_CODECS_START"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_CODECS_STOP, 159,
        "BLOSC2_GLOBAL_REGISTERED_CODECS_STOP"
    );
    assert_eq!(
        BLOSC2_GLOBAL_REGISTERED_CODECS, 5,
        "BLOSC2_GLOBAL_REGISTERED_CODECS"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_CODECS_START, 160,
        "BLOSC2_USER_REGISTERED_CODECS_START"
    );
    assert_eq!(
        BLOSC2_USER_REGISTERED_CODECS_STOP, 255,
        "BLOSC2_USER_REGISTERED_CODECS_STOP"
    );
    assert_eq!(BLOSC_BLOSCLZ, 0, "BLOSC_BLOSCLZ");
    assert_eq!(BLOSC_LZ4, 1, "BLOSC_LZ4");
    assert_eq!(BLOSC_LZ4HC, 2, "BLOSC_LZ4HC");
    assert_eq!(BLOSC_ZLIB, 4, "BLOSC_ZLIB");
    assert_eq!(BLOSC_ZSTD, 5, "BLOSC_ZSTD");
    assert_eq!(BLOSC_LAST_CODEC, 6, "BLOSC_LAST_CODEC");
    assert_eq!(
        BLOSC_LAST_REGISTERED_CODEC, 36,
        "BLOSC_LAST_REGISTERED_CODEC"
    );
    assert_eq!(BLOSC_CODEC_NDLZ, 32, "BLOSC_CODEC_NDLZ");
    assert_eq!(
        BLOSC_CODEC_ZFP_FIXED_ACCURACY, 33,
        "BLOSC_CODEC_ZFP_FIXED_ACCURACY"
    );
    assert_eq!(
        BLOSC_CODEC_ZFP_FIXED_PRECISION, 34,
        "BLOSC_CODEC_ZFP_FIXED_PRECISION"
    );
    assert_eq!(BLOSC_CODEC_ZFP_FIXED_RATE, 35, "BLOSC_CODEC_ZFP_FIXED_RATE");
    assert_eq!(BLOSC_CODEC_OPENHTJ2K, 36, "BLOSC_CODEC_OPENHTJ2K");
    assert_eq!(BLOSC_CODEC_GROK, 37, "BLOSC_CODEC_GROK");
    assert_eq!(BLOSC_CODEC_OPENZL, 38, "BLOSC_CODEC_OPENZL");
    assert_eq!(BLOSC_CODEC_J2K, 39, "BLOSC_CODEC_J2K");
    assert_eq!(BLOSC_CODEC_HTJ2K, 40, "BLOSC_CODEC_HTJ2K");
    assert_eq!(BLOSC_BLOSCLZ_LIB, 0, "BLOSC_BLOSCLZ_LIB");
    assert_eq!(BLOSC_LZ4_LIB, 1, "BLOSC_LZ4_LIB");
    assert_eq!(BLOSC_ZLIB_LIB, 3, "BLOSC_ZLIB_LIB");
    assert_eq!(BLOSC_ZSTD_LIB, 4, "BLOSC_ZSTD_LIB");
    assert_eq!(BLOSC_UDCODEC_LIB, 6, "BLOSC_UDCODEC_LIB");
    assert_eq!(BLOSC_SCHUNK_LIB, 7, "BLOSC_SCHUNK_LIB");
    assert_eq!(BLOSC_BLOSCLZ_FORMAT, 0, "BLOSC_BLOSCLZ_FORMAT");
    assert_eq!(BLOSC_LZ4_FORMAT, 1, "BLOSC_LZ4_FORMAT");
    assert_eq!(BLOSC_LZ4HC_FORMAT, 1, "BLOSC_LZ4HC_FORMAT");
    assert_eq!(BLOSC_ZLIB_FORMAT, 3, "BLOSC_ZLIB_FORMAT");
    assert_eq!(BLOSC_ZSTD_FORMAT, 4, "BLOSC_ZSTD_FORMAT");
    assert_eq!(BLOSC_UDCODEC_FORMAT, 6, "BLOSC_UDCODEC_FORMAT");
    assert_eq!(
        BLOSC_BLOSCLZ_VERSION_FORMAT, 1,
        "BLOSC_BLOSCLZ_VERSION_FORMAT"
    );
    assert_eq!(BLOSC_LZ4_VERSION_FORMAT, 1, "BLOSC_LZ4_VERSION_FORMAT");
    assert_eq!(BLOSC_LZ4HC_VERSION_FORMAT, 1, "BLOSC_LZ4HC_VERSION_FORMAT");
    assert_eq!(BLOSC_ZLIB_VERSION_FORMAT, 1, "BLOSC_ZLIB_VERSION_FORMAT");
    assert_eq!(BLOSC_ZSTD_VERSION_FORMAT, 1, "BLOSC_ZSTD_VERSION_FORMAT");
    assert_eq!(
        BLOSC_UDCODEC_VERSION_FORMAT, 1,
        "BLOSC_UDCODEC_VERSION_FORMAT"
    );
    assert_eq!(BLOSC_ALWAYS_SPLIT, 1, "BLOSC_ALWAYS_SPLIT");
    assert_eq!(BLOSC_NEVER_SPLIT, 2, "BLOSC_NEVER_SPLIT");
    assert_eq!(BLOSC_AUTO_SPLIT, 3, "BLOSC_AUTO_SPLIT");
    assert_eq!(BLOSC_FORWARD_COMPAT_SPLIT, 4, "BLOSC_FORWARD_COMPAT_SPLIT");
    assert_eq!(BLOSC2_CHUNK_VERSION, 0, "BLOSC2_CHUNK_VERSION");
    assert_eq!(BLOSC2_CHUNK_VERSIONLZ, 1, "BLOSC2_CHUNK_VERSIONLZ");
    assert_eq!(BLOSC2_CHUNK_FLAGS, 2, "BLOSC2_CHUNK_FLAGS");
    assert_eq!(BLOSC2_CHUNK_TYPESIZE, 3, "BLOSC2_CHUNK_TYPESIZE");
    assert_eq!(BLOSC2_CHUNK_NBYTES, 4, "BLOSC2_CHUNK_NBYTES");
    assert_eq!(BLOSC2_CHUNK_BLOCKSIZE, 8, "BLOSC2_CHUNK_BLOCKSIZE");
    assert_eq!(BLOSC2_CHUNK_CBYTES, 12, "BLOSC2_CHUNK_CBYTES");
    assert_eq!(BLOSC2_CHUNK_FILTER_CODES, 16, "BLOSC2_CHUNK_FILTER_CODES");
    assert_eq!(BLOSC2_CHUNK_FILTER_META, 24, "BLOSC2_CHUNK_FILTER_META");
    assert_eq!(BLOSC2_CHUNK_BLOSC2_FLAGS2, 30, "BLOSC2_CHUNK_BLOSC2_FLAGS2");
    assert_eq!(BLOSC2_CHUNK_BLOSC2_FLAGS, 31, "BLOSC2_CHUNK_BLOSC2_FLAGS");
    assert_eq!(BLOSC2_NO_SPECIAL, 0, "BLOSC2_NO_SPECIAL");
    assert_eq!(BLOSC2_SPECIAL_ZERO, 1, "BLOSC2_SPECIAL_ZERO");
    assert_eq!(BLOSC2_SPECIAL_NAN, 2, "BLOSC2_SPECIAL_NAN");
    assert_eq!(BLOSC2_SPECIAL_VALUE, 3, "BLOSC2_SPECIAL_VALUE");
    assert_eq!(BLOSC2_SPECIAL_UNINIT, 4, "BLOSC2_SPECIAL_UNINIT");
    assert_eq!(BLOSC2_SPECIAL_LASTID, 4, "BLOSC2_SPECIAL_LASTID");
    assert_eq!(BLOSC2_SPECIAL_MASK, 7, "BLOSC2_SPECIAL_MASK");
    assert_eq!(BLOSC2_ERROR_SUCCESS, 0, "BLOSC2_ERROR_SUCCESS");
    assert_eq!(BLOSC2_ERROR_FAILURE, -1, "BLOSC2_ERROR_FAILURE");
    assert_eq!(BLOSC2_ERROR_STREAM, -2, "BLOSC2_ERROR_STREAM");
    assert_eq!(BLOSC2_ERROR_DATA, -3, "BLOSC2_ERROR_DATA");
    assert_eq!(BLOSC2_ERROR_MEMORY_ALLOC, -4, "BLOSC2_ERROR_MEMORY_ALLOC");
    assert_eq!(BLOSC2_ERROR_READ_BUFFER, -5, "BLOSC2_ERROR_READ_BUFFER");
    assert_eq!(BLOSC2_ERROR_WRITE_BUFFER, -6, "BLOSC2_ERROR_WRITE_BUFFER");
    assert_eq!(BLOSC2_ERROR_CODEC_SUPPORT, -7, "BLOSC2_ERROR_CODEC_SUPPORT");
    assert_eq!(BLOSC2_ERROR_CODEC_PARAM, -8, "BLOSC2_ERROR_CODEC_PARAM");
    assert_eq!(BLOSC2_ERROR_CODEC_DICT, -9, "BLOSC2_ERROR_CODEC_DICT");
    assert_eq!(
        BLOSC2_ERROR_VERSION_SUPPORT, -10,
        "BLOSC2_ERROR_VERSION_SUPPORT"
    );
    assert_eq!(
        BLOSC2_ERROR_INVALID_HEADER, -11,
        "BLOSC2_ERROR_INVALID_HEADER"
    );
    assert_eq!(
        BLOSC2_ERROR_INVALID_PARAM, -12,
        "BLOSC2_ERROR_INVALID_PARAM"
    );
    assert_eq!(BLOSC2_ERROR_FILE_READ, -13, "BLOSC2_ERROR_FILE_READ");
    assert_eq!(BLOSC2_ERROR_FILE_WRITE, -14, "BLOSC2_ERROR_FILE_WRITE");
    assert_eq!(BLOSC2_ERROR_FILE_OPEN, -15, "BLOSC2_ERROR_FILE_OPEN");
    assert_eq!(BLOSC2_ERROR_NOT_FOUND, -16, "BLOSC2_ERROR_NOT_FOUND");
    assert_eq!(BLOSC2_ERROR_RUN_LENGTH, -17, "BLOSC2_ERROR_RUN_LENGTH");
    assert_eq!(
        BLOSC2_ERROR_FILTER_PIPELINE, -18,
        "BLOSC2_ERROR_FILTER_PIPELINE"
    );
    assert_eq!(BLOSC2_ERROR_CHUNK_INSERT, -19, "BLOSC2_ERROR_CHUNK_INSERT");
    assert_eq!(BLOSC2_ERROR_CHUNK_APPEND, -20, "BLOSC2_ERROR_CHUNK_APPEND");
    assert_eq!(BLOSC2_ERROR_CHUNK_UPDATE, -21, "BLOSC2_ERROR_CHUNK_UPDATE");
    assert_eq!(BLOSC2_ERROR_2GB_LIMIT, -22, "BLOSC2_ERROR_2GB_LIMIT");
    assert_eq!(BLOSC2_ERROR_SCHUNK_COPY, -23, "BLOSC2_ERROR_SCHUNK_COPY");
    assert_eq!(BLOSC2_ERROR_FRAME_TYPE, -24, "BLOSC2_ERROR_FRAME_TYPE");
    assert_eq!(
        BLOSC2_ERROR_FILE_TRUNCATE, -25,
        "BLOSC2_ERROR_FILE_TRUNCATE"
    );
    assert_eq!(
        BLOSC2_ERROR_THREAD_CREATE, -26,
        "BLOSC2_ERROR_THREAD_CREATE"
    );
    assert_eq!(BLOSC2_ERROR_POSTFILTER, -27, "BLOSC2_ERROR_POSTFILTER");
    assert_eq!(
        BLOSC2_ERROR_FRAME_SPECIAL, -28,
        "BLOSC2_ERROR_FRAME_SPECIAL"
    );
    assert_eq!(
        BLOSC2_ERROR_SCHUNK_SPECIAL, -29,
        "BLOSC2_ERROR_SCHUNK_SPECIAL"
    );
    assert_eq!(BLOSC2_ERROR_PLUGIN_IO, -30, "BLOSC2_ERROR_PLUGIN_IO");
    assert_eq!(BLOSC2_ERROR_FILE_REMOVE, -31, "BLOSC2_ERROR_FILE_REMOVE");
    assert_eq!(BLOSC2_ERROR_NULL_POINTER, -32, "BLOSC2_ERROR_NULL_POINTER");
    assert_eq!(
        BLOSC2_ERROR_INVALID_INDEX, -33,
        "BLOSC2_ERROR_INVALID_INDEX"
    );
    assert_eq!(
        BLOSC2_ERROR_METALAYER_NOT_FOUND, -34,
        "BLOSC2_ERROR_METALAYER_NOT_FOUND"
    );
    assert_eq!(
        BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED, -35,
        "BLOSC2_ERROR_MAX_BUFSIZE_EXCEEDED"
    );
    assert_eq!(BLOSC2_ERROR_TUNER, -36, "BLOSC2_ERROR_TUNER");
    assert_eq!(BLOSC2_ERROR_LOCK, -37, "BLOSC2_ERROR_LOCK");
    assert_eq!(BLOSC2_IO_FILESYSTEM, 0, "BLOSC2_IO_FILESYSTEM");
    assert_eq!(BLOSC2_IO_FILESYSTEM_MMAP, 1, "BLOSC2_IO_FILESYSTEM_MMAP");
    assert_eq!(
        BLOSC_IO_LAST_BLOSC_DEFINED, 2,
        "BLOSC_IO_LAST_BLOSC_DEFINED"
    );
    assert_eq!(BLOSC_IO_LAST_REGISTERED, 32, "BLOSC_IO_LAST_REGISTERED");
    assert_eq!(BLOSC2_IO_BLOSC_DEFINED, 32, "BLOSC2_IO_BLOSC_DEFINED");
    assert_eq!(BLOSC2_IO_REGISTERED, 160, "BLOSC2_IO_REGISTERED");
    assert_eq!(BLOSC2_IO_USER_DEFINED, 256, "BLOSC2_IO_USER_DEFINED");
    assert_eq!(BLOSC2_MAX_METALAYERS, 16, "BLOSC2_MAX_METALAYERS");
    assert_eq!(
        BLOSC2_METALAYER_NAME_MAXLEN, 31,
        "BLOSC2_METALAYER_NAME_MAXLEN"
    );
    assert_eq!(BLOSC2_MAX_VLMETALAYERS, 8192, "BLOSC2_MAX_VLMETALAYERS");
    assert_eq!(
        BLOSC2_VLMETALAYERS_NAME_MAXLEN, 31,
        "BLOSC2_VLMETALAYERS_NAME_MAXLEN"
    );
    assert_eq!(B2ND_METALAYER_VERSION, 0, "B2ND_METALAYER_VERSION");
    assert_eq!(B2ND_MAX_DIM, 16, "B2ND_MAX_DIM");
    assert_eq!(B2ND_MAX_METALAYERS, 15, "B2ND_MAX_METALAYERS");
    assert_eq!(DTYPE_NUMPY_FORMAT, 0, "DTYPE_NUMPY_FORMAT");
    assert_eq!(B2ND_DEFAULT_DTYPE_FORMAT, 0, "B2ND_DEFAULT_DTYPE_FORMAT");
}

#[test]
fn string_constants() {
    assert_eq!(
        BLOSC2_VERSION_STRING, c"3.3.5" as &CStr,
        "BLOSC2_VERSION_STRING"
    );
    assert_eq!(
        BLOSC_BLOSCLZ_COMPNAME, c"blosclz" as &CStr,
        "BLOSC_BLOSCLZ_COMPNAME"
    );
    assert_eq!(BLOSC_LZ4_COMPNAME, c"lz4" as &CStr, "BLOSC_LZ4_COMPNAME");
    assert_eq!(
        BLOSC_LZ4HC_COMPNAME, c"lz4hc" as &CStr,
        "BLOSC_LZ4HC_COMPNAME"
    );
    assert_eq!(BLOSC_ZLIB_COMPNAME, c"zlib" as &CStr, "BLOSC_ZLIB_COMPNAME");
    assert_eq!(BLOSC_ZSTD_COMPNAME, c"zstd" as &CStr, "BLOSC_ZSTD_COMPNAME");
    assert_eq!(
        BLOSC_BLOSCLZ_LIBNAME, c"BloscLZ" as &CStr,
        "BLOSC_BLOSCLZ_LIBNAME"
    );
    assert_eq!(BLOSC_LZ4_LIBNAME, c"LZ4" as &CStr, "BLOSC_LZ4_LIBNAME");
    assert_eq!(BLOSC_ZLIB_LIBNAME, c"Zlib" as &CStr, "BLOSC_ZLIB_LIBNAME");
    assert_eq!(BLOSC_ZSTD_LIBNAME, c"Zstd" as &CStr, "BLOSC_ZSTD_LIBNAME");
    assert_eq!(B2ND_DEFAULT_DTYPE, c"|u1" as &CStr, "B2ND_DEFAULT_DTYPE");
}

#[test]
fn cparams_defaults() {
    let c = blosc2_cparams::DEFAULTS;
    assert_eq!(
        (c.compcode, c.compcode_meta, c.clevel, c.use_dict),
        (0, 0, 5, 0)
    );
    assert_eq!(
        (c.typesize, c.nthreads, c.blocksize, c.splitmode),
        (8, 1, 0, 4)
    );
    assert!(c.schunk.is_null());
    assert_eq!(c.filters, [0, 0, 0, 0, 0, 1]);
    assert_eq!(c.filters_meta, [0; 6]);
    assert!(c.prefilter.is_none());
    assert!(c.preparams.is_null() && c.tuner_params.is_null() && c.codec_params.is_null());
    assert_eq!((c.tuner_id, c.instr_codec), (0, false));
    assert!(c.filter_params.iter().all(|p| p.is_null()));
}

#[test]
fn dparams_storage_io_defaults() {
    let d = blosc2_dparams::DEFAULTS;
    assert_eq!((d.nthreads, d.typesize), (1, 8));
    assert!(d.schunk.is_null() && d.postfilter.is_none() && d.postparams.is_null());

    let s = blosc2_storage::DEFAULTS;
    assert!(!s.contiguous);
    assert!(s.urlpath.is_null() && s.cparams.is_null() && s.dparams.is_null() && s.io.is_null());

    let io = blosc2_io::DEFAULTS;
    assert_eq!(io.id, 0);
    // SAFETY: `name` points to a static NUL-terminated literal.
    assert_eq!(unsafe { CStr::from_ptr(io.name) }, c"filesystem");
    assert!(io.params.is_null());
}

#[test]
fn stdio_defaults() {
    assert_eq!(
        blosc2_stdio_params::DEFAULTS,
        blosc2_stdio_params { locking: false }
    );

    let m = blosc2_stdio_mmap::DEFAULTS;
    // SAFETY: `mode` points to a static NUL-terminated literal.
    assert_eq!(unsafe { CStr::from_ptr(m.mode) }, c"r");
    assert_eq!(m.initial_mapping_size, 1_073_741_824);
    assert!(!m.needs_free && !m.is_memory_only);
    assert!(m.addr.is_null() && m.urlpath.is_null() && m.file.is_null());
    assert_eq!((m.file_size, m.mapping_size), (0, 0));
    assert_eq!((m.fd, m.access_flags, m.map_flags), (-1, -1, -1));
}
