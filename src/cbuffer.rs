//! Header-only queries on compressed buffers (the `blosc*_cbuffer_*` family).
//!
//! These read only the first 16 bytes of a chunk, as the reference does.

use crate::constants::{MAXBLOCKSIZE, MAX_BUFFERSIZE, MIN_HEADER_LENGTH};
use crate::error::{Error, Result};

/// The fields of the 16-byte header common to every chunk version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BasicInfo {
    /// Chunk format version.
    pub version: u8,
    /// Codec format version.
    pub versionlz: u8,
    /// Flags byte.
    pub flags: u8,
    /// Stored typesize.
    pub typesize: u8,
    /// Uncompressed size.
    pub nbytes: i32,
    /// Block size (block count for VL-block chunks).
    pub blocksize: i32,
    /// Compressed size including the header.
    pub cbytes: i32,
}

fn le_i32(b: &[u8]) -> i32 {
    i32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Reads and checks the first 16 bytes of a chunk.
pub fn basic_info(header: &[u8]) -> Result<BasicInfo> {
    let h = header.get(..MIN_HEADER_LENGTH).ok_or(Error::ReadBuffer)?;
    let info = BasicInfo {
        version: h[0],
        versionlz: h[1],
        flags: h[2],
        typesize: h[3],
        nbytes: le_i32(&h[4..8]),
        blocksize: le_i32(&h[8..12]),
        cbytes: le_i32(&h[12..16]),
    };
    if info.cbytes < MIN_HEADER_LENGTH as i32
        || info.blocksize <= 0
        || info.blocksize > MAXBLOCKSIZE
        || info.typesize == 0
    {
        return Err(Error::InvalidHeader);
    }
    Ok(info)
}

/// Checks a chunk header against the compressed size the caller knows; returns nbytes.
pub fn validate(header: &[u8], cbytes: usize) -> Result<usize> {
    if cbytes < MIN_HEADER_LENGTH {
        return Err(Error::WriteBuffer);
    }
    let info = basic_info(header)?;
    if usize::try_from(info.cbytes).ok() != Some(cbytes) {
        return Err(Error::InvalidHeader);
    }
    if i64::from(info.nbytes) > MAX_BUFFERSIZE {
        return Err(Error::MemoryAlloc);
    }
    usize::try_from(info.nbytes).map_err(|_| Error::InvalidHeader)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(ts: u8, nbytes: i32, blocksize: i32, cbytes: i32) -> Vec<u8> {
        let mut h = vec![5, 1, 0x05, ts];
        h.extend_from_slice(&nbytes.to_le_bytes());
        h.extend_from_slice(&blocksize.to_le_bytes());
        h.extend_from_slice(&cbytes.to_le_bytes());
        h
    }

    #[test]
    fn rejects_what_the_reference_rejects() {
        assert_eq!(
            basic_info(&header(4, 100, 100, 15)),
            Err(Error::InvalidHeader)
        );
        assert_eq!(
            basic_info(&header(4, 100, 0, 64)),
            Err(Error::InvalidHeader)
        );
        assert_eq!(
            basic_info(&header(4, 100, MAXBLOCKSIZE + 1, 64)),
            Err(Error::InvalidHeader)
        );
        assert_eq!(
            basic_info(&header(0, 100, 100, 64)),
            Err(Error::InvalidHeader)
        );
        assert_eq!(
            basic_info(&header(4, 100, 100, 64)[..15]),
            Err(Error::ReadBuffer)
        );
        let ok = basic_info(&header(4, 100, 100, 64)).unwrap();
        assert_eq!((ok.nbytes, ok.blocksize, ok.cbytes), (100, 100, 64));
    }

    #[test]
    fn validate_compares_cbytes() {
        let h = header(4, 100, 100, 64);
        assert_eq!(validate(&h, 64), Ok(100));
        assert_eq!(validate(&h, 63), Err(Error::InvalidHeader));
        assert_eq!(validate(&h, 15), Err(Error::WriteBuffer));
    }
}
