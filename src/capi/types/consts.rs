//! Integer constants of the public headers (anonymous `enum`s and `#define`s in C, all of
//! type `int`).

use core::ffi::c_int;

/// Major version of the library.
pub const BLOSC2_VERSION_MAJOR: c_int = 3;
/// Minor version of the library.
pub const BLOSC2_VERSION_MINOR: c_int = 3;
/// Release (patch) version of the library.
pub const BLOSC2_VERSION_RELEASE: c_int = 5;

/// Chunk format of Blosc 1.x before the 1.0 stable release.
pub const BLOSC1_VERSION_FORMAT_PRE1: c_int = 1;
/// Chunk format of Blosc 1.x.
pub const BLOSC1_VERSION_FORMAT: c_int = 2;
/// Chunk format of the Blosc2 alpha releases.
pub const BLOSC2_VERSION_FORMAT_ALPHA: c_int = 3;
/// Chunk format of the Blosc2 beta.1 release.
pub const BLOSC2_VERSION_FORMAT_BETA1: c_int = 4;
/// Chunk format of stable Blosc2 (written for regular chunks).
pub const BLOSC2_VERSION_FORMAT_STABLE: c_int = 5;
/// Chunk format of chunks with variable-length blocks.
pub const BLOSC2_VERSION_FORMAT_VL_BLOCKS: c_int = 6;
/// Highest chunk format this library reads.
pub const BLOSC2_VERSION_FORMAT: c_int = BLOSC2_VERSION_FORMAT_VL_BLOCKS;

/// Frame format of the Blosc2 beta.2 release.
pub const BLOSC2_VERSION_FRAME_FORMAT_BETA2: c_int = 1;
/// Frame format of the Blosc2 release candidate 1.
pub const BLOSC2_VERSION_FRAME_FORMAT_RC1: c_int = 2;
/// Frame format that allows chunks with variable-length blocks.
pub const BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS: c_int = 3;
/// Frame format written by this library.
pub const BLOSC2_VERSION_FRAME_FORMAT: c_int = BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS;

/// Size of the Blosc1 chunk header.
pub const BLOSC_MIN_HEADER_LENGTH: c_int = 16;
/// Size of the Blosc2 (extended) chunk header.
pub const BLOSC_EXTENDED_HEADER_LENGTH: c_int = 32;
/// Largest number of bytes compression can add to its input.
pub const BLOSC2_MAX_OVERHEAD: c_int = BLOSC_EXTENDED_HEADER_LENGTH;
/// Largest uncompressed chunk size (`INT_MAX - BLOSC2_MAX_OVERHEAD`).
pub const BLOSC2_MAX_BUFFERSIZE: c_int = 2147483615;
/// Largest typesize that fits in the chunk header byte.
pub const BLOSC_MAX_TYPESIZE: c_int = 255;
/// Inputs smaller than this are stored without compression.
pub const BLOSC_MIN_BUFFERSIZE: c_int = 32;

/// First id of the tuners defined by the library.
pub const BLOSC2_DEFINED_TUNER_START: c_int = 0;
/// Last id of the tuners defined by the library.
pub const BLOSC2_DEFINED_TUNER_STOP: c_int = 31;
/// First id of the globally registered tuner plugins.
pub const BLOSC2_GLOBAL_REGISTERED_TUNER_START: c_int = 32;
/// Last id of the globally registered tuner plugins.
pub const BLOSC2_GLOBAL_REGISTERED_TUNER_STOP: c_int = 159;
/// Number of globally registered tuner plugins.
pub const BLOSC2_GLOBAL_REGISTERED_TUNERS: c_int = 0;
/// First id available to tuners registered by users.
pub const BLOSC2_USER_REGISTERED_TUNER_START: c_int = 160;
/// Last id available to tuners registered by users.
pub const BLOSC2_USER_REGISTERED_TUNER_STOP: c_int = 255;

/// The built-in tuner.
pub const BLOSC_STUNE: c_int = 0;
/// One past the last built-in tuner.
pub const BLOSC_LAST_TUNER: c_int = 1;
/// Id of the last globally registered tuner plugin.
pub const BLOSC_LAST_REGISTERED_TUNE: c_int =
    BLOSC2_GLOBAL_REGISTERED_TUNER_START + BLOSC2_GLOBAL_REGISTERED_TUNERS - 1;

/// First id of the filters defined by the library.
pub const BLOSC2_DEFINED_FILTERS_START: c_int = 0;
/// Last id of the filters defined by the library.
pub const BLOSC2_DEFINED_FILTERS_STOP: c_int = 31;
/// First id of the globally registered filter plugins.
pub const BLOSC2_GLOBAL_REGISTERED_FILTERS_START: c_int = 32;
/// Last id of the globally registered filter plugins.
pub const BLOSC2_GLOBAL_REGISTERED_FILTERS_STOP: c_int = 159;
/// Number of globally registered filter plugins.
pub const BLOSC2_GLOBAL_REGISTERED_FILTERS: c_int = 5;
/// First id available to filters registered by users.
pub const BLOSC2_USER_REGISTERED_FILTERS_START: c_int = 160;
/// Last id available to filters registered by users.
pub const BLOSC2_USER_REGISTERED_FILTERS_STOP: c_int = 255;
/// Number of slots of the filter pipeline.
pub const BLOSC2_MAX_FILTERS: c_int = 6;
/// Largest number of user-defined filters.
pub const BLOSC2_MAX_UDFILTERS: c_int = 16;

/// No shuffle (for the `doshuffle` arguments).
pub const BLOSC_NOSHUFFLE: c_int = 0;
/// Empty filter slot.
pub const BLOSC_NOFILTER: c_int = 0;
/// Byte shuffle filter.
pub const BLOSC_SHUFFLE: c_int = 1;
/// Bit shuffle filter.
pub const BLOSC_BITSHUFFLE: c_int = 2;
/// Delta filter.
pub const BLOSC_DELTA: c_int = 3;
/// Floating-point precision truncation filter.
pub const BLOSC_TRUNC_PREC: c_int = 4;
/// One past the last built-in filter.
pub const BLOSC_LAST_FILTER: c_int = 5;
/// Id of the last globally registered filter plugin.
pub const BLOSC_LAST_REGISTERED_FILTER: c_int =
    BLOSC2_GLOBAL_REGISTERED_FILTERS_START + BLOSC2_GLOBAL_REGISTERED_FILTERS - 1;

/// Header flag: byte shuffle applied.
pub const BLOSC_DOSHUFFLE: c_int = 0x1;
/// Header flag: data stored as a plain copy.
pub const BLOSC_MEMCPYED: c_int = 0x2;
/// Header flag: bit shuffle applied.
pub const BLOSC_DOBITSHUFFLE: c_int = 0x4;
/// Header flag: delta applied.
pub const BLOSC_DODELTA: c_int = 0x8;

/// Blosc2 header flag: the chunk carries a dictionary.
pub const BLOSC2_USEDICT: c_int = 0x1;
/// Blosc2 header flag: the data is big-endian.
pub const BLOSC2_BIGENDIAN: c_int = 0x2;
/// Blosc2 header flag: the codec output is instrumentation data.
pub const BLOSC2_INSTR_CODEC: c_int = 0x80;
/// Blosc2 second flags byte: the chunk has variable-length blocks.
pub const BLOSC2_VL_BLOCKS: c_int = 0x1;

/// Largest dictionary size.
pub const BLOSC2_MAXDICTSIZE: c_int = 32 * 1024;
/// Smallest dictionary size worth using.
pub const BLOSC2_MINUSEFULDICT: c_int = 256;
/// Largest block size.
pub const BLOSC2_MAXBLOCKSIZE: c_int = 536866816;
/// Largest typesize accepted by the API.
pub const BLOSC2_MAXTYPESIZE: c_int = BLOSC2_MAXBLOCKSIZE;

/// First id of the codecs defined by the library.
pub const BLOSC2_DEFINED_CODECS_START: c_int = 0;
/// Last id of the codecs defined by the library.
pub const BLOSC2_DEFINED_CODECS_STOP: c_int = 31;
/// First id of the globally registered codec plugins.
pub const BLOSC2_GLOBAL_REGISTERED_CODECS_START: c_int = 32;
/// Last id of the globally registered codec plugins.
pub const BLOSC2_GLOBAL_REGISTERED_CODECS_STOP: c_int = 159;
/// Number of globally registered codec plugins.
pub const BLOSC2_GLOBAL_REGISTERED_CODECS: c_int = 5;
/// First id available to codecs registered by users.
pub const BLOSC2_USER_REGISTERED_CODECS_START: c_int = 160;
/// Last id available to codecs registered by users.
pub const BLOSC2_USER_REGISTERED_CODECS_STOP: c_int = 255;

/// BloscLZ codec.
pub const BLOSC_BLOSCLZ: c_int = 0;
/// LZ4 codec.
pub const BLOSC_LZ4: c_int = 1;
/// LZ4HC codec.
pub const BLOSC_LZ4HC: c_int = 2;
/// zlib codec.
pub const BLOSC_ZLIB: c_int = 4;
/// Zstandard codec.
pub const BLOSC_ZSTD: c_int = 5;
/// One past the last built-in codec.
pub const BLOSC_LAST_CODEC: c_int = 6;
/// Id of the last globally registered codec plugin.
pub const BLOSC_LAST_REGISTERED_CODEC: c_int =
    BLOSC2_GLOBAL_REGISTERED_CODECS_START + BLOSC2_GLOBAL_REGISTERED_CODECS - 1;

/// Library code of BloscLZ.
pub const BLOSC_BLOSCLZ_LIB: c_int = 0;
/// Library code of LZ4 (and LZ4HC).
pub const BLOSC_LZ4_LIB: c_int = 1;
/// Library code of zlib.
pub const BLOSC_ZLIB_LIB: c_int = 3;
/// Library code of Zstandard.
pub const BLOSC_ZSTD_LIB: c_int = 4;
/// Library code of user-defined codecs.
pub const BLOSC_UDCODEC_LIB: c_int = 6;
/// Library code used by super-chunks.
pub const BLOSC_SCHUNK_LIB: c_int = 7;

/// Format code of BloscLZ data (header flag bits 5-7).
pub const BLOSC_BLOSCLZ_FORMAT: c_int = BLOSC_BLOSCLZ_LIB;
/// Format code of LZ4 data.
pub const BLOSC_LZ4_FORMAT: c_int = BLOSC_LZ4_LIB;
/// Format code of LZ4HC data (same as LZ4).
pub const BLOSC_LZ4HC_FORMAT: c_int = BLOSC_LZ4_LIB;
/// Format code of zlib data.
pub const BLOSC_ZLIB_FORMAT: c_int = BLOSC_ZLIB_LIB;
/// Format code of Zstandard data.
pub const BLOSC_ZSTD_FORMAT: c_int = BLOSC_ZSTD_LIB;
/// Format code of user-defined codec data.
pub const BLOSC_UDCODEC_FORMAT: c_int = BLOSC_UDCODEC_LIB;

/// Version of the BloscLZ stream format.
pub const BLOSC_BLOSCLZ_VERSION_FORMAT: c_int = 1;
/// Version of the LZ4 stream format.
pub const BLOSC_LZ4_VERSION_FORMAT: c_int = 1;
/// Version of the LZ4HC stream format.
pub const BLOSC_LZ4HC_VERSION_FORMAT: c_int = 1;
/// Version of the zlib stream format.
pub const BLOSC_ZLIB_VERSION_FORMAT: c_int = 1;
/// Version of the Zstandard stream format.
pub const BLOSC_ZSTD_VERSION_FORMAT: c_int = 1;
/// Version of the user-defined codec stream format.
pub const BLOSC_UDCODEC_VERSION_FORMAT: c_int = 1;

/// Always split blocks into one stream per byte of the type.
pub const BLOSC_ALWAYS_SPLIT: c_int = 1;
/// Never split blocks.
pub const BLOSC_NEVER_SPLIT: c_int = 2;
/// Let the library choose whether to split.
pub const BLOSC_AUTO_SPLIT: c_int = 3;
/// Split the way older readers expect (the default).
pub const BLOSC_FORWARD_COMPAT_SPLIT: c_int = 4;

/// Offset of the format version byte in a chunk header.
pub const BLOSC2_CHUNK_VERSION: c_int = 0x0;
/// Offset of the codec format version byte.
pub const BLOSC2_CHUNK_VERSIONLZ: c_int = 0x1;
/// Offset of the flags byte.
pub const BLOSC2_CHUNK_FLAGS: c_int = 0x2;
/// Offset of the typesize byte.
pub const BLOSC2_CHUNK_TYPESIZE: c_int = 0x3;
/// Offset of the uncompressed size (int32).
pub const BLOSC2_CHUNK_NBYTES: c_int = 0x4;
/// Offset of the block size (int32).
pub const BLOSC2_CHUNK_BLOCKSIZE: c_int = 0x8;
/// Offset of the compressed size (int32).
pub const BLOSC2_CHUNK_CBYTES: c_int = 0xc;
/// Offset of the six filter codes.
pub const BLOSC2_CHUNK_FILTER_CODES: c_int = 0x10;
/// Offset of the six filter meta bytes.
pub const BLOSC2_CHUNK_FILTER_META: c_int = 0x18;
/// Offset of the second Blosc2 flags byte.
pub const BLOSC2_CHUNK_BLOSC2_FLAGS2: c_int = 0x1e;
/// Offset of the Blosc2 flags byte.
pub const BLOSC2_CHUNK_BLOSC2_FLAGS: c_int = 0x1f;

/// Regular chunk (no special value).
pub const BLOSC2_NO_SPECIAL: c_int = 0x0;
/// Chunk made of zeros.
pub const BLOSC2_SPECIAL_ZERO: c_int = 0x1;
/// Chunk made of NaNs.
pub const BLOSC2_SPECIAL_NAN: c_int = 0x2;
/// Chunk made of one repeated value stored after the header.
pub const BLOSC2_SPECIAL_VALUE: c_int = 0x3;
/// Chunk of uninitialised values.
pub const BLOSC2_SPECIAL_UNINIT: c_int = 0x4;
/// Highest special-value code.
pub const BLOSC2_SPECIAL_LASTID: c_int = 0x4;
/// Mask of the special-value bits.
pub const BLOSC2_SPECIAL_MASK: c_int = 0x7;

/// Id of the default file-system I/O backend.
pub const BLOSC2_IO_FILESYSTEM: c_int = 0;
/// Id of the memory-mapped file I/O backend.
pub const BLOSC2_IO_FILESYSTEM_MMAP: c_int = 1;
/// One past the last I/O backend defined by the library.
pub const BLOSC_IO_LAST_BLOSC_DEFINED: c_int = 2;
/// One past the last globally registered I/O backend.
pub const BLOSC_IO_LAST_REGISTERED: c_int = 32;
/// End of the ids of the I/O backends defined by the library.
pub const BLOSC2_IO_BLOSC_DEFINED: c_int = 32;
/// End of the ids of the globally registered I/O backends.
pub const BLOSC2_IO_REGISTERED: c_int = 160;
/// End of the ids of the I/O backends registered by users.
pub const BLOSC2_IO_USER_DEFINED: c_int = 256;

/// Largest number of fixed-length metalayers of a super-chunk.
pub const BLOSC2_MAX_METALAYERS: c_int = 16;
/// Longest metalayer name, in bytes.
pub const BLOSC2_METALAYER_NAME_MAXLEN: c_int = 31;
/// Largest number of variable-length metalayers of a super-chunk.
pub const BLOSC2_MAX_VLMETALAYERS: c_int = 8 * 1024;
/// Longest variable-length metalayer name, in bytes.
pub const BLOSC2_VLMETALAYERS_NAME_MAXLEN: c_int = BLOSC2_METALAYER_NAME_MAXLEN;
