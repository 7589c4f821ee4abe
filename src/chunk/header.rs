//! The chunk header: the 16-byte Blosc1 header and the 32-byte Blosc2 extended header.

use crate::constants::*;
use crate::error::{Error, Result};

/// Reads a little-endian `i32` at `pos` (the caller guarantees `pos + 4 <= buf.len()`).
pub(crate) fn read_i32(buf: &[u8], pos: usize) -> i32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&buf[pos..pos + 4]);
    i32::from_le_bytes(b)
}

/// Writes a little-endian `i32` at `pos` (the caller guarantees `pos + 4 <= buf.len()`).
pub(crate) fn write_i32(buf: &mut [u8], pos: usize, v: i32) {
    buf[pos..pos + 4].copy_from_slice(&v.to_le_bytes());
}

/// Byte offsets of the header fields.
pub mod offsets {
    /// Format version.
    pub const VERSION: usize = 0;
    /// Codec format version.
    pub const VERSIONLZ: usize = 1;
    /// Flags byte.
    pub const FLAGS: usize = 2;
    /// Stored typesize.
    pub const TYPESIZE: usize = 3;
    /// Uncompressed size.
    pub const NBYTES: usize = 4;
    /// Block size (number of blocks for VL chunks).
    pub const BLOCKSIZE: usize = 8;
    /// Compressed size.
    pub const CBYTES: usize = 12;
    /// Filter pipeline.
    pub const FILTERS: usize = 16;
    /// User codec code.
    pub const UDCODEC: usize = 22;
    /// Codec metadata.
    pub const COMPCODE_META: usize = 23;
    /// Filter metadata.
    pub const FILTERS_META: usize = 24;
    /// Second Blosc2 flags byte.
    pub const BLOSC2_FLAGS2: usize = 30;
    /// Blosc2 flags byte.
    pub const BLOSC2_FLAGS: usize = 31;
}

/// A parsed and validated chunk header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version (byte 0).
    pub version: u8,
    /// Codec format version (byte 1).
    pub versionlz: u8,
    /// Flags byte (byte 2).
    pub flags: u8,
    /// Stored typesize (byte 3), never 0.
    pub typesize: u8,
    /// Uncompressed size.
    pub nbytes: i32,
    /// Block size (clamped to `nbytes` for regular chunks); number of blocks for VL chunks.
    pub blocksize: i32,
    /// Compressed size, header included.
    pub cbytes: i32,
    /// Filter pipeline (derived from the flags for 16-byte headers).
    pub filters: [u8; 6],
    /// User codec code (byte 22).
    pub udcodec: u8,
    /// Codec metadata (byte 23).
    pub compcode_meta: u8,
    /// Filter metadata.
    pub filters_meta: [u8; 6],
    /// Second Blosc2 flags byte (bit 0: VL blocks).
    pub blosc2_flags2: u8,
    /// Blosc2 flags byte (dict, endianness, lazy, special value, instrumented).
    pub blosc2_flags: u8,
}

impl Header {
    /// Parses and validates the header at the start of `src` (`src.len()` is the source
    /// size), following the reference's `read_chunk_header`, including `cbytes` not
    /// exceeding the source size (not checked for lazy chunks).
    pub fn parse(src: &[u8]) -> Result<Header> {
        let h = Header::parse_fields(src)?;
        h.check_source(src.len())?;
        Ok(h)
    }

    /// `cbytes` must not exceed the source size (except for lazy chunks).
    pub fn check_source(&self, srcsize: usize) -> Result<()> {
        if !self.is_lazy() && self.cbytes as usize > srcsize {
            return Err(Error::InvalidHeader);
        }
        Ok(())
    }

    /// Like [`Header::parse`] but without comparing `cbytes` to the source size (the
    /// reference checks the destination size in between).
    pub fn parse_fields(src: &[u8]) -> Result<Header> {
        if src.len() < MIN_HEADER_LENGTH {
            return Err(Error::ReadBuffer);
        }
        let mut h = Header {
            version: src[offsets::VERSION],
            versionlz: src[offsets::VERSIONLZ],
            flags: src[offsets::FLAGS],
            typesize: src[offsets::TYPESIZE],
            nbytes: read_i32(src, offsets::NBYTES),
            blocksize: read_i32(src, offsets::BLOCKSIZE),
            cbytes: read_i32(src, offsets::CBYTES),
            filters: [0; 6],
            udcodec: 0,
            compcode_meta: 0,
            filters_meta: [0; 6],
            blosc2_flags2: 0,
            blosc2_flags: 0,
        };
        if h.cbytes < MIN_HEADER_LENGTH as i32
            || h.blocksize <= 0
            || h.blocksize > MAXBLOCKSIZE
            || h.typesize == 0
        {
            return Err(Error::InvalidHeader);
        }
        if h.is_extended() {
            if h.cbytes < EXTENDED_HEADER_LENGTH as i32 {
                return Err(Error::InvalidHeader);
            }
            if src.len() < EXTENDED_HEADER_LENGTH {
                return Err(Error::ReadBuffer);
            }
            h.filters
                .copy_from_slice(&src[offsets::FILTERS..offsets::FILTERS + 6]);
            h.udcodec = src[offsets::UDCODEC];
            h.compcode_meta = src[offsets::COMPCODE_META];
            h.filters_meta
                .copy_from_slice(&src[offsets::FILTERS_META..offsets::FILTERS_META + 6]);
            h.blosc2_flags2 = src[offsets::BLOSC2_FLAGS2];
            h.blosc2_flags = src[offsets::BLOSC2_FLAGS];
            let special = h.special();
            if h.is_vl() && special != NO_SPECIAL {
                return Err(Error::InvalidHeader);
            }
            if h.version > VERSION_FORMAT && h.blosc2_flags2 & !VL_BLOCKS != 0 {
                return Err(Error::VersionSupport);
            }
            if h.is_vl() && h.is_memcpyed() {
                return Err(Error::InvalidHeader);
            }
            // NaN and uninitialised chunks (and the undefined kinds above) hold whole items.
            let typed = special == SPECIAL_NAN || special >= SPECIAL_UNINIT;
            if typed && h.nbytes % i32::from(h.typesize) != 0 {
                return Err(Error::InvalidHeader);
            }
            if special == SPECIAL_VALUE {
                // The repeated value fills the rest of the chunk: its width is what follows
                // the header, and it must tile nbytes (at least once).
                let width = h.cbytes - EXTENDED_HEADER_LENGTH as i32;
                if width <= 0 || h.nbytes <= 0 || h.nbytes % width != 0 {
                    return Err(Error::InvalidHeader);
                }
            }
            if h.version == 3 {
                // The alpha format did not initialise the last filter slot.
                h.filters[5] = 0;
                h.filters_meta[5] = 0;
            }
        } else {
            h.filters = filters_from_flags(h.flags);
        }
        if !h.is_vl() && h.nbytes > 0 && h.blocksize > h.nbytes {
            h.blocksize = h.nbytes;
        }
        Ok(h)
    }

    /// Whether this is a 32-byte extended (Blosc2) header.
    pub fn is_extended(&self) -> bool {
        self.flags & (DOSHUFFLE | DOBITSHUFFLE) == (DOSHUFFLE | DOBITSHUFFLE)
    }

    /// Header length: 32 for extended headers, 16 otherwise.
    pub fn header_len(&self) -> usize {
        if self.is_extended() {
            EXTENDED_HEADER_LENGTH
        } else {
            MIN_HEADER_LENGTH
        }
    }

    /// Whether the data is stored uncompressed right after the header.
    pub fn is_memcpyed(&self) -> bool {
        self.flags & MEMCPYED != 0
    }

    /// Whether blocks are stored as a single stream each.
    pub fn dont_split(&self) -> bool {
        self.flags & DONT_SPLIT != 0
    }

    /// Codec format number (flags bits 5-7).
    pub fn compformat(&self) -> u8 {
        self.flags >> 5
    }

    /// Special-value kind (`SPECIAL_*`), 0 for regular chunks.
    pub fn special(&self) -> u8 {
        (self.blosc2_flags >> 4) & SPECIAL_MASK
    }

    /// Whether the chunk has variable-length blocks.
    pub fn is_vl(&self) -> bool {
        self.blosc2_flags2 & VL_BLOCKS != 0
    }

    /// Whether the chunk is lazy (data blocks left on disk).
    pub fn is_lazy(&self) -> bool {
        self.is_extended() && self.blosc2_flags & LAZY_CHUNK != 0
    }

    /// Whether a dictionary follows the block starts.
    pub fn uses_dict(&self) -> bool {
        self.is_extended() && self.blosc2_flags & USEDICT != 0
    }

    /// Number of blocks and size of the last one (0 when all blocks are full).
    pub fn nblocks(&self) -> (usize, usize) {
        let nbytes = self.nbytes.max(0) as usize;
        let bs = self.blocksize.max(1) as usize;
        let leftover = nbytes % bs;
        (nbytes / bs + usize::from(leftover > 0), leftover)
    }
}

/// The filter pipeline a 16-byte header's flags imply.
pub fn filters_from_flags(flags: u8) -> [u8; 6] {
    let mut f = [0u8; 6];
    if flags & DOSHUFFLE != 0 {
        f[5] = SHUFFLE;
    }
    if flags & DOBITSHUFFLE != 0 {
        f[5] = BITSHUFFLE;
    }
    if flags & DODELTA != 0 {
        f[4] = DELTA;
    }
    f
}

/// Fields written into a new chunk header.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewHeader {
    pub flags: u8,
    pub versionlz: u8,
    pub typesize: u8,
    pub nbytes: i32,
    pub blocksize: i32,
    pub filters: [u8; 6],
    pub compcode: u8,
    pub compcode_meta: u8,
    pub filters_meta: [u8; 6],
    pub blosc2_flags: u8,
}

impl NewHeader {
    /// Whether the data is stored uncompressed.
    pub fn is_memcpyed(&self) -> bool {
        self.flags & MEMCPYED != 0
    }

    /// Writes the header (32 bytes when `extended`, else 16) with cbytes 0.
    pub fn write(&self, dst: &mut [u8], extended: bool) {
        dst[offsets::VERSION] = VERSION_FORMAT_STABLE;
        dst[offsets::VERSIONLZ] = self.versionlz;
        dst[offsets::FLAGS] = self.flags;
        dst[offsets::TYPESIZE] = self.typesize;
        write_i32(dst, offsets::NBYTES, self.nbytes);
        write_i32(dst, offsets::BLOCKSIZE, self.blocksize);
        write_i32(dst, offsets::CBYTES, 0);
        if extended {
            dst[offsets::FILTERS..offsets::FILTERS + 6].copy_from_slice(&self.filters);
            dst[offsets::UDCODEC] = self.compcode;
            dst[offsets::COMPCODE_META] = self.compcode_meta;
            dst[offsets::FILTERS_META..offsets::FILTERS_META + 6]
                .copy_from_slice(&self.filters_meta);
            dst[offsets::BLOSC2_FLAGS2] = 0;
            dst[offsets::BLOSC2_FLAGS] = self.blosc2_flags;
        }
    }
}
