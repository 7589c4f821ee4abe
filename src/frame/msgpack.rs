//! Small msgpack helpers over `rmp`: a bounds-checked reader and the fixed-width writers
//! the frame format needs (`rmp` picks the shortest encoding for bin, map and array
//! lengths, the format wants the 32/16-bit forms).

use rmp::decode;
use rmp::Marker;

use crate::error::{Error, Result};

/// Maps an `rmp` write result to ours.
pub(crate) fn enc<E>(r: std::result::Result<(), E>) -> Result<()> {
    r.map_err(|_| Error::Data)
}

/// Writes `data` as a msgpack bin32.
pub(crate) fn bin32(o: &mut Vec<u8>, data: &[u8]) -> Result<()> {
    let len = u32::try_from(data.len()).map_err(|_| Error::Data)?;
    o.push(Marker::Bin32.to_u8());
    o.extend_from_slice(&len.to_be_bytes());
    o.extend_from_slice(data);
    Ok(())
}

/// A cursor over untrusted msgpack bytes; every read is bounds-checked.
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

fn bad<E>(_: E) -> Error {
    Error::InvalidHeader
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { rest: bytes }
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Takes the next `n` raw bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.rest.len() {
            return Err(Error::InvalidHeader);
        }
        let (a, b) = self.rest.split_at(n);
        self.rest = b;
        Ok(a)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.take(n).map(|_| ())
    }

    /// A msgpack int32 (marker 0xd2).
    pub fn i32(&mut self) -> Result<i32> {
        decode::read_i32(&mut self.rest).map_err(bad)
    }

    /// The next marker, not consumed.
    fn peek_marker(&self) -> Result<Marker> {
        self.rest
            .first()
            .map(|&b| Marker::from_u8(b))
            .ok_or(Error::InvalidHeader)
    }
}

/// Reads a map16 or array16 length (`which` tells which marker is required).
pub(crate) fn read_map_or_array16(r: &mut Reader<'_>, which: Marker) -> Result<usize> {
    if r.peek_marker()? != which {
        return Err(Error::InvalidHeader);
    }
    r.skip(1)?;
    let b = r.take(2)?;
    Ok(usize::from(u16::from_be_bytes([b[0], b[1]])))
}

/// Reads a msgpack str (any width) as bytes (UTF-8 or not, as the reference reads it).
pub(crate) fn read_str<'a>(r: &mut Reader<'a>) -> Result<&'a [u8]> {
    let len = decode::read_str_len(&mut r.rest).map_err(bad)?;
    r.take(len as usize)
}

/// Writes `bytes` as a msgpack str (the shortest width).
pub(crate) fn write_str(o: &mut Vec<u8>, bytes: &[u8]) -> Result<()> {
    let len = u32::try_from(bytes.len()).map_err(|_| Error::Data)?;
    rmp::encode::write_str_len(o, len).map_err(|_| Error::Data)?;
    o.extend_from_slice(bytes);
    Ok(())
}

/// Reads a msgpack bin32 and returns its bytes.
pub(crate) fn read_bin32<'a>(r: &mut Reader<'a>) -> Result<&'a [u8]> {
    if r.peek_marker()? != Marker::Bin32 {
        return Err(Error::InvalidHeader);
    }
    let len = decode::read_bin_len(&mut r.rest).map_err(bad)?;
    r.take(len as usize)
}
