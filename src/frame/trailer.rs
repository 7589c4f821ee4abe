//! The frame trailer: version, variable-length metalayers, trailer length, fingerprint.

use rmp::Marker;

use super::header::{parse_metalayers, Meta, MAX_NAME_LEN};
use super::msgpack::{bin32, write_str, Reader};
use super::MAX_VLMETALAYERS;
use crate::error::{Error, Result};

/// Length of the smallest trailer (and of the tail holding the trailer length).
pub const TRAILER_MINLEN: usize = 25;
/// Distance from the end of the frame to the trailer length.
const LEN_FROM_END: usize = 22;
/// Trailer format version written.
const VERSION: u8 = 1;

/// Serialises a trailer holding `vlmeta` (contents already compressed).
pub fn encode(vlmeta: &[Meta]) -> Result<Vec<u8>> {
    let n = vlmeta.len();
    if n > MAX_VLMETALAYERS {
        return Err(Error::InvalidParam);
    }
    let mut o = vec![0x94, VERSION, 0x93];
    let size_at = o.len();
    o.push(Marker::U16.to_u8());
    o.extend_from_slice(&[0, 0]);
    o.push(Marker::Map16.to_u8());
    o.extend_from_slice(&(n as u16).to_be_bytes());
    let mut slots = Vec::with_capacity(n);
    for m in vlmeta {
        if m.name.len() > MAX_NAME_LEN {
            return Err(Error::InvalidParam);
        }
        write_str(&mut o, m.name.as_bytes())?;
        o.push(Marker::I32.to_u8());
        slots.push(o.len());
        o.extend_from_slice(&[0; 4]);
    }
    let map_size = u16::try_from(o.len() - size_at).map_err(|_| Error::InvalidParam)?;
    o[size_at + 1..size_at + 3].copy_from_slice(&map_size.to_be_bytes());
    o.push(Marker::Array16.to_u8());
    o.extend_from_slice(&(n as u16).to_be_bytes());
    for (m, slot) in vlmeta.iter().zip(slots) {
        let pos = i32::try_from(o.len()).map_err(|_| Error::Data)?;
        o[slot..slot + 4].copy_from_slice(&pos.to_be_bytes());
        bin32(&mut o, &m.content)?;
    }
    let total = u32::try_from(o.len() + 23).map_err(|_| Error::Data)?;
    o.push(Marker::U32.to_u8());
    o.extend_from_slice(&total.to_be_bytes());
    o.push(Marker::FixExt16.to_u8());
    o.push(0);
    o.extend_from_slice(&[0; 16]);
    Ok(o)
}

/// The trailer length stored in the last `TRAILER_MINLEN` bytes of a frame.
pub fn length_from_tail(tail: &[u8]) -> Result<u64> {
    if tail.len() != TRAILER_MINLEN {
        return Err(Error::ReadBuffer);
    }
    let at = TRAILER_MINLEN - LEN_FROM_END;
    // The fingerprint's marker is not checked (the reference does not read it).
    if tail[at - 1] != Marker::U32.to_u8() {
        return Err(Error::InvalidHeader);
    }
    let len = u32::from_be_bytes([tail[at], tail[at + 1], tail[at + 2], tail[at + 3]]);
    if (len as usize) < TRAILER_MINLEN {
        return Err(Error::InvalidHeader);
    }
    Ok(u64::from(len))
}

/// Parses a whole trailer and returns its variable-length metalayers.
pub fn parse(bytes: &[u8]) -> Result<Vec<Meta>> {
    if bytes.len() < TRAILER_MINLEN {
        return Err(Error::InvalidHeader);
    }
    // The section is read within the whole trailer, its last 23 bytes included, as the
    // reference bounds it by the trailer length only (a trailer whose length leaves no
    // room before those bytes must still hold the map marker where the section starts).
    let mut r = Reader::new(bytes);
    // The array marker and the version are skipped unchecked, as the reference does.
    r.skip(2)?;
    let metas = parse_metalayers(&mut r, bytes)?;
    Ok(metas)
}
