//! Format and library constants of c-blosc2 3.3.5 used by the safe core.

/// Library version string reported by `blosc2_get_version_string`.
pub const VERSION_STRING: &str = "3.3.5";
/// Chunk format version written for regular chunks.
pub const VERSION_FORMAT_STABLE: u8 = 5;
/// Chunk format version written for variable-length-block chunks.
pub const VERSION_FORMAT_VL_BLOCKS: u8 = 6;
/// Highest chunk format version understood.
pub const VERSION_FORMAT: u8 = 6;
/// Blosc1 chunk format version (16-byte header).
pub const BLOSC1_VERSION_FORMAT: u8 = 2;

/// Length of the Blosc1 header.
pub const MIN_HEADER_LENGTH: usize = 16;
/// Length of the Blosc2 extended header.
pub const EXTENDED_HEADER_LENGTH: usize = 32;
/// Maximum overhead a compressed chunk can add to its data.
pub const MAX_OVERHEAD: usize = 32;
/// Largest uncompressed chunk size.
pub const MAX_BUFFERSIZE: i64 = i32::MAX as i64 - MAX_OVERHEAD as i64;
/// Largest typesize stored in a chunk header.
pub const MAX_TYPESIZE: i32 = 255;
/// Largest typesize accepted by the API.
pub const MAXTYPESIZE: i32 = 536_866_816;
/// Largest blocksize accepted by the API.
pub const MAXBLOCKSIZE: i32 = 536_866_816;
/// Below this many bytes chunks are always stored memcpyed.
pub const MIN_BUFFERSIZE: i32 = 32;
/// Largest dictionary size.
pub const MAXDICTSIZE: i32 = 32 * 1024;
/// Smallest useful dictionary size.
pub const MINUSEFULDICT: i32 = 256;

/// Codec codes.
pub const BLOSCLZ: u8 = 0;
/// LZ4 codec code.
pub const LZ4: u8 = 1;
/// LZ4HC codec code.
pub const LZ4HC: u8 = 2;
/// zlib codec code.
pub const ZLIB: u8 = 4;
/// Zstd codec code.
pub const ZSTD: u8 = 5;
/// One past the last built-in codec code.
pub const LAST_CODEC: u8 = 6;
/// First id available to user-registered codecs, filters and tuners.
pub const USER_REGISTERED_START: u8 = 160;

/// Codec format numbers stored in header flag bits 5-7.
pub const BLOSCLZ_FORMAT: u8 = 0;
/// LZ4 and LZ4HC format number.
pub const LZ4_FORMAT: u8 = 1;
/// zlib format number.
pub const ZLIB_FORMAT: u8 = 3;
/// Zstd format number.
pub const ZSTD_FORMAT: u8 = 4;
/// User codec format number (real code in header byte 22).
pub const UDCODEC_FORMAT: u8 = 6;

/// Filter ids.
pub const NOFILTER: u8 = 0;
/// Byte shuffle filter id.
pub const SHUFFLE: u8 = 1;
/// Bit shuffle filter id.
pub const BITSHUFFLE: u8 = 2;
/// Delta filter id.
pub const DELTA: u8 = 3;
/// Truncate-precision filter id.
pub const TRUNC_PREC: u8 = 4;
/// Sentinel past the built-in filters.
pub const LAST_FILTER: u8 = 5;
/// Number of filter slots in the pipeline.
pub const MAX_FILTERS: usize = 6;

/// Header flag: byte shuffle applied (Blosc1) / extended-header marker (with bit 2).
pub const DOSHUFFLE: u8 = 0x1;
/// Header flag: chunk stored as a plain copy.
pub const MEMCPYED: u8 = 0x2;
/// Header flag: bit shuffle applied (Blosc1) / extended-header marker (with bit 0).
pub const DOBITSHUFFLE: u8 = 0x4;
/// Header flag: delta applied.
pub const DODELTA: u8 = 0x8;
/// Header flag: blocks are not split into streams.
pub const DONT_SPLIT: u8 = 0x10;

/// blosc2_flags: chunk carries a dictionary.
pub const USEDICT: u8 = 0x1;
/// blosc2_flags: data is big-endian.
pub const BIGENDIAN: u8 = 0x2;
/// blosc2_flags: lazy chunk.
pub const LAZY_CHUNK: u8 = 0x8;
/// blosc2_flags: instrumented codec.
pub const INSTR_CODEC: u8 = 0x80;
/// blosc2_flags2: variable-length blocks.
pub const VL_BLOCKS: u8 = 0x1;

/// Special values stored in blosc2_flags bits 4-6.
pub const NO_SPECIAL: u8 = 0;
/// Chunk of zeros.
pub const SPECIAL_ZERO: u8 = 1;
/// Chunk of NaNs.
pub const SPECIAL_NAN: u8 = 2;
/// Chunk of a repeated value that follows the header.
pub const SPECIAL_VALUE: u8 = 3;
/// Chunk of uninitialised values.
pub const SPECIAL_UNINIT: u8 = 4;
/// Mask of the special-value bits once shifted down by 4.
pub const SPECIAL_MASK: u8 = 7;

/// Split modes.
pub const ALWAYS_SPLIT: i32 = 1;
/// Never split blocks into streams.
pub const NEVER_SPLIT: i32 = 2;
/// Let the library decide.
pub const AUTO_SPLIT: i32 = 3;
/// Split as older readers expect (the default).
pub const FORWARD_COMPAT_SPLIT: i32 = 4;

/// Whether `id` is a filter id compression contexts refuse: 5..=31 and 37..=159 are
/// reserved (neither built in, global plugins nor user-defined).
pub fn filter_id_reserved(id: u8) -> bool {
    (5..=31).contains(&id) || (37..=159).contains(&id)
}
