//! The frame header: a msgpack array with fixed-width fields, the filter pipeline and the
//! fixed-length metalayers.

use rmp::encode;
use rmp::Marker;

use super::msgpack::{bin32, enc, read_bin32, read_map_or_array16, read_str, write_str, Reader};
use super::MetaName;
use super::MAX_METALAYERS;
use crate::error::{Error, Result};

/// Length of the fixed part of the header (everything before the metalayers).
pub const HEADER_MINLEN: usize = 87;
/// Position of the header length (a big-endian int32 after its marker).
pub const POS_HEADER_LEN: usize = 11;
/// Position of the frame length (a big-endian uint64 after its marker).
pub const POS_FRAME_LEN: usize = 16;
/// Position of the general flags, frame type, codec flags and other flags (4 bytes).
const POS_FLAGS: usize = 25;
/// Position of the uncompressed size (int64).
const POS_NBYTES: usize = 30;
/// Position of the compressed size (int64).
const POS_CBYTES: usize = 39;
/// Position of the typesize (int32).
const POS_TYPESIZE: usize = 48;
/// Position of the block size (int32).
const POS_BLOCKSIZE: usize = 53;
/// Position of the chunk size (int32).
const POS_CHUNKSIZE: usize = 58;
/// Position of the compression thread count (int16).
const POS_NTHREADS_C: usize = 63;
/// Position of the decompression thread count (int16).
const POS_NTHREADS_D: usize = 66;
/// Position of the vlmetalayer flag (a msgpack bool).
const POS_HAS_VLMETA: usize = 68;
/// Position of the filter count, then the filter pipeline's 16 bytes.
const POS_PIPELINE: usize = 70;
/// The magic string.
pub const MAGIC: &[u8; 8] = b"b2frame\0";
/// Frame type of contiguous frames.
pub const TYPE_CONTIGUOUS: u8 = 0;
/// Frame type of sparse (directory) frames.
pub const TYPE_SPARSE: u8 = 1;
/// General-flags bit for variable chunk sizes.
const FLAG_VARIABLE: u8 = 0x40;
/// General-flags bit for chunks with variable-length blocks.
const FLAG_VL_BLOCKS: u8 = 0x80;
/// General-flags bits for 64-bit offsets.
const FLAG_OFFSETS64: u8 = 0x10;
/// Number of filter slots in the header.
const FILTER_SLOTS: usize = 8;
/// Longest metalayer name.
pub const MAX_NAME_LEN: usize = 31;

/// A named metalayer (fixed-length in the header, variable-length in the trailer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// Name (at most 31 bytes when written to a frame).
    pub name: MetaName,
    /// Content bytes (compressed for variable-length metalayers).
    pub content: Vec<u8>,
}

/// The decoded frame header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameHeader {
    /// Header length, metalayers included.
    pub header_len: u64,
    /// Length of the whole frame.
    pub frame_len: u64,
    /// Frame format version (low nibble of the general flags).
    pub version: u8,
    /// Whether chunks have variable sizes.
    pub variable_chunks: bool,
    /// Whether some chunk has variable-length blocks.
    pub vl_blocks: bool,
    /// `TYPE_CONTIGUOUS` or `TYPE_SPARSE`.
    pub frame_type: u8,
    /// Codec code.
    pub compcode: u8,
    /// Compression level.
    pub clevel: u8,
    /// Split mode.
    pub splitmode: u8,
    /// Uncompressed size of the data.
    pub nbytes: i64,
    /// Compressed size of the chunk section.
    pub cbytes: i64,
    /// Item size (an int32: python-blosc2 writes structured items of more than 255 bytes).
    pub typesize: i32,
    /// Block size (0: automatic).
    pub blocksize: i32,
    /// Chunk size (0: variable, -1: no chunk yet).
    pub chunksize: i32,
    /// Compression threads.
    pub nthreads_c: i16,
    /// Decompression threads.
    pub nthreads_d: i16,
    /// Whether the trailer holds variable-length metalayers.
    pub has_vlmeta: bool,
    /// Filter pipeline.
    pub filters: [u8; 6],
    /// Filter metadata.
    pub filters_meta: [u8; 6],
    /// Codec metadata.
    pub compcode_meta: u8,
    /// Whether chunks use dictionaries.
    pub use_dict: bool,
    /// Fixed-length metalayers.
    pub metalayers: Vec<Meta>,
}

impl FrameHeader {
    /// Serialises the header (metalayers included).
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut o = Vec::with_capacity(HEADER_MINLEN + 64);
        o.push(0x9e);
        o.push(0xa8);
        o.extend_from_slice(MAGIC);
        o.push(Marker::I32.to_u8());
        o.extend_from_slice(&[0; 4]);
        o.push(Marker::U64.to_u8());
        o.extend_from_slice(&self.frame_len.to_be_bytes());
        o.push(0xa4);
        let mut general = self.version | FLAG_OFFSETS64;
        if self.variable_chunks {
            general |= FLAG_VARIABLE;
        }
        if self.vl_blocks {
            general |= FLAG_VL_BLOCKS;
        }
        let codec = if self.compcode >= crate::constants::LAST_CODEC {
            crate::constants::UDCODEC_FORMAT
        } else {
            self.compcode
        };
        o.extend_from_slice(&[
            general,
            self.frame_type,
            codec | (self.clevel << 4),
            self.splitmode.wrapping_sub(1),
        ]);
        enc(encode::write_i64(&mut o, self.nbytes))?;
        enc(encode::write_i64(&mut o, self.cbytes))?;
        enc(encode::write_i32(&mut o, self.typesize))?;
        enc(encode::write_i32(&mut o, self.blocksize))?;
        enc(encode::write_i32(&mut o, self.chunksize))?;
        enc(encode::write_i16(&mut o, self.nthreads_c))?;
        enc(encode::write_i16(&mut o, self.nthreads_d))?;
        encode::write_bool(&mut o, self.has_vlmeta).map_err(|_| Error::Data)?;
        o.push(Marker::FixExt16.to_u8());
        o.push(6);
        let mut pipe = [0u8; 2 * FILTER_SLOTS];
        pipe[..6].copy_from_slice(&self.filters);
        pipe[6] = self.compcode;
        pipe[7] = self.compcode_meta;
        pipe[FILTER_SLOTS..FILTER_SLOTS + 6].copy_from_slice(&self.filters_meta);
        pipe[FILTER_SLOTS + 6] = u8::from(self.use_dict);
        o.extend_from_slice(&pipe);
        debug_assert_eq!(o.len(), HEADER_MINLEN);
        self.encode_metalayers(&mut o)?;
        let hlen = i32::try_from(o.len()).map_err(|_| Error::Data)?;
        o[POS_HEADER_LEN..POS_HEADER_LEN + 4].copy_from_slice(&hlen.to_be_bytes());
        Ok(o)
    }

    fn encode_metalayers(&self, o: &mut Vec<u8>) -> Result<()> {
        let n = self.metalayers.len();
        if n > MAX_METALAYERS {
            return Err(Error::InvalidParam);
        }
        let start = o.len();
        o.push(0x93);
        o.push(Marker::U16.to_u8());
        o.extend_from_slice(&[0, 0]);
        o.push(Marker::Map16.to_u8());
        o.extend_from_slice(&(n as u16).to_be_bytes());
        let mut slots = Vec::with_capacity(n);
        for m in &self.metalayers {
            if m.name.len() > MAX_NAME_LEN {
                return Err(Error::InvalidParam);
            }
            write_str(o, m.name.as_bytes())?;
            o.push(Marker::I32.to_u8());
            slots.push(o.len());
            o.extend_from_slice(&[0; 4]);
        }
        let map_size = u16::try_from(o.len() - start).map_err(|_| Error::InvalidParam)?;
        o[start + 2..start + 4].copy_from_slice(&map_size.to_be_bytes());
        o.push(Marker::Array16.to_u8());
        o.extend_from_slice(&(n as u16).to_be_bytes());
        for (m, slot) in self.metalayers.iter().zip(slots) {
            let pos = i32::try_from(o.len()).map_err(|_| Error::Data)?;
            o[slot..slot + 4].copy_from_slice(&pos.to_be_bytes());
            bin32(o, &m.content)?;
        }
        Ok(())
    }

    /// Reads the header and frame lengths from the first bytes of a frame.
    ///
    /// The fixed fields of a header are read at their fixed offsets whatever their msgpack
    /// marker bytes say (the array and magic-string markers included), as the reference
    /// reads them; the magic string itself must be there.
    pub fn lengths(fixed: &[u8]) -> Result<(u64, u64)> {
        if fixed.get(2..10).ok_or(Error::InvalidHeader)? != MAGIC {
            return Err(Error::FrameType);
        }
        let header_len = i32::from_be_bytes(field(fixed, POS_HEADER_LEN)?);
        let frame_len = u64::from_be_bytes(field(fixed, POS_FRAME_LEN)?);
        if header_len < HEADER_MINLEN as i32 || frame_len < header_len as u64 {
            return Err(Error::InvalidHeader);
        }
        Ok((header_len as u64, frame_len))
    }

    /// Parses a whole header (`bytes` is exactly `header_len` long). What the reference
    /// refuses is refused: a typesize below 1, more than 6 filters, filter ids it does not
    /// define, a negative chunk size or compressed size in a frame holding data, a format
    /// version above 3 (the header's block size, thread counts and vlmetalayer flag are
    /// taken as they are).
    pub fn parse(bytes: &[u8]) -> Result<FrameHeader> {
        let (header_len, frame_len) = FrameHeader::lengths(bytes)?;
        if header_len != bytes.len() as u64 {
            return Err(Error::InvalidHeader);
        }
        let f: [u8; 4] = field(bytes, POS_FLAGS)?;
        let (general, frame_type, codecs, other) = (f[0], f[1], f[2], f[3]);
        let version = general & 0x0f;
        if version > 3 {
            return Err(Error::VersionSupport);
        }
        if frame_type > TYPE_SPARSE {
            return Err(Error::FrameType);
        }
        let nbytes = i64::from_be_bytes(field(bytes, POS_NBYTES)?);
        let cbytes = i64::from_be_bytes(field(bytes, POS_CBYTES)?);
        let typesize = i32::from_be_bytes(field(bytes, POS_TYPESIZE)?);
        let blocksize = i32::from_be_bytes(field(bytes, POS_BLOCKSIZE)?);
        let chunksize = i32::from_be_bytes(field(bytes, POS_CHUNKSIZE)?);
        let nthreads_c = i16::from_be_bytes(field(bytes, POS_NTHREADS_C)?);
        let nthreads_d = i16::from_be_bytes(field(bytes, POS_NTHREADS_D)?);
        let [has_vlmeta] = field(bytes, POS_HAS_VLMETA)?;
        let has_vlmeta = has_vlmeta == 0xc3;
        let [nfilters] = field(bytes, POS_PIPELINE)?;
        let pipe: [u8; 2 * FILTER_SLOTS] = field(bytes, POS_PIPELINE + 1)?;
        let holds_data = nbytes > 0;
        if typesize <= 0
            || usize::from(nfilters) > 6
            || (holds_data && (chunksize < 0 || cbytes < 0))
        {
            return Err(Error::InvalidHeader);
        }
        let mut filters = [0u8; 6];
        let mut filters_meta = [0u8; 6];
        filters[..usize::from(nfilters)].copy_from_slice(&pipe[..usize::from(nfilters)]);
        // The reference opens a frame through a compression context made from these, which
        // refuses filter ids that are neither built in, global plugins nor user ids.
        if filters
            .iter()
            .copied()
            .any(crate::constants::filter_id_reserved)
        {
            return Err(Error::InvalidHeader);
        }
        filters_meta[..usize::from(nfilters)]
            .copy_from_slice(&pipe[FILTER_SLOTS..FILTER_SLOTS + usize::from(nfilters)]);
        let mut compcode = codecs & 0x0f;
        if compcode == crate::constants::UDCODEC_FORMAT {
            compcode = pipe[6];
        }
        let mut r = Reader::new(&bytes[HEADER_MINLEN..]);
        let metalayers = parse_metalayers(&mut r, bytes)?;
        Ok(FrameHeader {
            header_len,
            frame_len,
            version,
            variable_chunks: general & FLAG_VARIABLE != 0,
            vl_blocks: general & FLAG_VL_BLOCKS != 0,
            frame_type,
            compcode,
            clevel: codecs >> 4,
            splitmode: (other & 0x0f) + 1,
            nbytes,
            cbytes,
            typesize,
            blocksize,
            chunksize,
            nthreads_c,
            nthreads_d,
            has_vlmeta,
            filters,
            filters_meta,
            compcode_meta: pipe[7],
            use_dict: pipe[FILTER_SLOTS + 6] & 1 != 0,
            metalayers,
        })
    }
}

/// The `N` bytes at `at` of a header (a fixed field after its marker byte).
fn field<const N: usize>(bytes: &[u8], at: usize) -> Result<[u8; N]> {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .ok_or(Error::InvalidHeader)
}

/// Parses the metalayer section of a header or trailer: `[size, {name: offset}, [bin]]`.
/// Each content is the bin32 at its offset in `whole` (the header or trailer the offsets
/// count from), as the reference reads it: an offset outside `whole` or not at a bin32 is
/// an error. `r` is left after the map.
pub(crate) fn parse_metalayers(r: &mut Reader<'_>, whole: &[u8]) -> Result<Vec<Meta>> {
    if r.remaining() == 0 {
        return Ok(Vec::new());
    }
    // The section's array marker and the index size (a uint16 with its marker) are
    // skipped unchecked, as the reference skips them; so is the contents array after the
    // map, as contents are read at their offsets.
    r.take(4)?;
    let n = read_map_or_array16(r, Marker::Map16)?;
    if n > super::MAX_VLMETALAYERS {
        return Err(Error::InvalidHeader);
    }
    let mut entries: Vec<(MetaName, i32)> = Vec::with_capacity(n);
    for _ in 0..n {
        // A name may repeat: the reference keeps every entry (lookups find the first).
        let name = MetaName::from(read_str(r)?);
        let offset = r.i32()?;
        entries.push((name, offset));
    }
    let mut out = Vec::with_capacity(n);
    for (name, offset) in entries {
        let at = usize::try_from(offset).map_err(|_| Error::InvalidHeader)?;
        let mut at_content = Reader::new(whole.get(at..).ok_or(Error::InvalidHeader)?);
        let content = read_bin32(&mut at_content)?.to_vec();
        out.push(Meta { name, content });
    }
    Ok(out)
}
