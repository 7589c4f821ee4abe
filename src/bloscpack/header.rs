//! The 32-byte Bloscpack header (format version 3).

use super::checksum::Checksum;
use super::error::{Error, Result};

/// The magic string at the start of every Bloscpack file.
pub const MAGIC: &[u8; 4] = b"blpk";
/// Length of the Bloscpack header.
pub const HEADER_LEN: usize = 32;
/// The format version bloscpack 0.16 reads and writes.
pub const FORMAT_VERSION: u8 = 3;
/// Largest chunk a Blosc1 chunk can hold (python-blosc's `BLOSC_MAX_BUFFERSIZE`).
pub const MAX_CHUNK_SIZE: i32 = i32::MAX - 16;

const OPT_OFFSETS: u8 = 0x01;
const OPT_METADATA: u8 = 0x02;

/// The Bloscpack header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version (3).
    pub format_version: u8,
    /// Whether the offsets table follows the header (and metadata).
    pub offsets: bool,
    /// Whether a metadata section follows the header.
    pub metadata: bool,
    /// Checksum stored after every chunk.
    pub checksum: Checksum,
    /// Typesize the chunks were compressed with.
    pub typesize: u8,
    /// Uncompressed size of every chunk but the last, -1 when unknown.
    pub chunk_size: i32,
    /// Uncompressed size of the last chunk, -1 when unknown.
    pub last_chunk: i32,
    /// Number of chunks, -1 when unknown.
    pub nchunks: i64,
    /// Chunks that can still be appended (offset slots reserved after the used ones).
    pub max_app_chunks: i64,
}

fn le_i32(b: &[u8]) -> i32 {
    i32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn le_i64(b: &[u8]) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    i64::from_le_bytes(a)
}

impl Header {
    /// The header's bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..4].copy_from_slice(MAGIC);
        h[4] = self.format_version;
        h[5] = if self.offsets { OPT_OFFSETS } else { 0 }
            | if self.metadata { OPT_METADATA } else { 0 };
        h[6] = self.checksum.code();
        h[7] = self.typesize;
        h[8..12].copy_from_slice(&self.chunk_size.to_le_bytes());
        h[12..16].copy_from_slice(&self.last_chunk.to_le_bytes());
        h[16..24].copy_from_slice(&self.nchunks.to_le_bytes());
        h[24..32].copy_from_slice(&self.max_app_chunks.to_le_bytes());
        h
    }

    /// Parses and checks a header (every rule bloscpack 0.16 enforces).
    pub fn decode(b: &[u8]) -> Result<Header> {
        let b = b
            .get(..HEADER_LEN)
            .ok_or_else(|| Error::format("shorter than the 32-byte Bloscpack header"))?;
        if &b[..4] != MAGIC {
            return Err(Error::format(format!(
                "bad magic {:?} (a Bloscpack file starts with \"blpk\")",
                String::from_utf8_lossy(&b[..4])
            )));
        }
        if b[4] != FORMAT_VERSION {
            return Err(Error::Unsupported(format!(
                "Bloscpack format version {} (only version {FORMAT_VERSION} is read)",
                b[4]
            )));
        }
        if b[5] & !(OPT_OFFSETS | OPT_METADATA) != 0 {
            return Err(Error::format(format!("unknown option bits {:#04x}", b[5])));
        }
        let checksum = Checksum::from_code(b[6])
            .ok_or_else(|| Error::format(format!("unknown checksum code {}", b[6])))?;
        let h = Header {
            format_version: b[4],
            offsets: b[5] & OPT_OFFSETS != 0,
            metadata: b[5] & OPT_METADATA != 0,
            checksum,
            typesize: b[7],
            chunk_size: le_i32(&b[8..12]),
            last_chunk: le_i32(&b[12..16]),
            nchunks: le_i64(&b[16..24]),
            max_app_chunks: le_i64(&b[24..32]),
        };
        h.check()?;
        Ok(h)
    }

    /// Checks the value ranges and their consistency.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::format(m));
        if !(-1..=MAX_CHUNK_SIZE).contains(&self.chunk_size) {
            return bad(format!("chunk size {} out of range", self.chunk_size));
        }
        if !(-1..=MAX_CHUNK_SIZE).contains(&self.last_chunk) {
            return bad(format!("last chunk size {} out of range", self.last_chunk));
        }
        if self.nchunks < -1 || self.max_app_chunks < 0 {
            return bad(format!(
                "chunk counts out of range (nchunks {}, max_app_chunks {})",
                self.nchunks, self.max_app_chunks
            ));
        }
        if self.nchunks == -1 && self.max_app_chunks != 0 {
            return bad("max_app_chunks is set while nchunks is unknown".into());
        }
        if self.nchunks.checked_add(self.max_app_chunks).is_none() {
            return bad("nchunks + max_app_chunks overflows".into());
        }
        if self.chunk_size != -1 && self.last_chunk != -1 && self.last_chunk > self.chunk_size {
            return bad(format!(
                "last chunk ({}) larger than the chunk size ({})",
                self.last_chunk, self.chunk_size
            ));
        }
        Ok(())
    }

    /// Offset slots in the file (used and reserved), when offsets are stored.
    pub fn offset_slots(&self) -> u64 {
        if self.offsets {
            (self.nchunks.max(0) + self.max_app_chunks) as u64
        } else {
            0
        }
    }

    /// Uncompressed size of chunk `i` the header announces (`None` when unknown).
    pub fn chunk_nbytes(&self, i: i64) -> Option<usize> {
        let n = if i + 1 == self.nchunks {
            self.last_chunk
        } else {
            self.chunk_size
        };
        usize::try_from(n).ok()
    }

    /// Total uncompressed size the header announces (`None` when unknown).
    pub fn total_nbytes(&self) -> Option<u64> {
        if self.nchunks < 1 {
            return (self.nchunks == 0).then_some(0);
        }
        let cs = u64::try_from(self.chunk_size).ok()?;
        let last = u64::try_from(self.last_chunk).ok()?;
        cs.checked_mul(self.nchunks as u64 - 1)?.checked_add(last)
    }
}

/// How bloscpack splits `len` bytes into chunks of `chunk_size`: (nchunks, chunk_size,
/// last_chunk). An empty input is one empty chunk; an input smaller than the chunk size
/// is one chunk of its size.
pub fn split_in_chunks(len: u64, chunk_size: u64) -> Result<(i64, i32, i32)> {
    if len == 0 {
        return Ok((1, 0, 0));
    }
    if chunk_size == 0 || chunk_size > MAX_CHUNK_SIZE as u64 {
        return Err(Error::Unsupported(format!(
            "chunk size {chunk_size} (must be 1..={MAX_CHUNK_SIZE})"
        )));
    }
    if chunk_size > len {
        return Ok((1, len as i32, len as i32));
    }
    let (mut n, mut last) = (len / chunk_size, len % chunk_size);
    if last == 0 {
        last = chunk_size;
    } else {
        n += 1;
    }
    let n = i64::try_from(n).map_err(|_| Error::Unsupported("too many chunks".into()))?;
    Ok((n, chunk_size as i32, last as i32))
}
