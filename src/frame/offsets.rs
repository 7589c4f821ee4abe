//! The chunk index: a Blosc2 chunk of little-endian int64 offsets. A negative offset whose
//! top byte has bit 7 set stands for a whole chunk of one special value.

use crate::constants::MAX_OVERHEAD;
use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::special::Special;

/// What an index entry points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A stored chunk at this offset (cframes) or with this file number (sframes).
    Stored(u64),
    /// A chunk of one special value, not stored.
    Special(Special),
}

const SPECIAL_BIT: u8 = 0x80;

/// The index entry for a special chunk.
pub fn special_offset(kind: Special) -> i64 {
    let code: u8 = match kind {
        Special::Zeros => 1,
        Special::Nans => 2,
        Special::Uninit => 4,
    };
    i64::from_le_bytes([0, 0, 0, 0, 0, 0, 0, SPECIAL_BIT | code])
}

/// Interprets an index entry; `Data` for malformed special entries.
pub fn slot(offset: i64) -> Result<Slot> {
    if offset >= 0 {
        return Ok(Slot::Stored(offset as u64));
    }
    let top = offset.to_le_bytes()[7];
    match top & !SPECIAL_BIT {
        1 => Ok(Slot::Special(Special::Zeros)),
        2 => Ok(Slot::Special(Special::Nans)),
        4 => Ok(Slot::Special(Special::Uninit)),
        _ => Err(Error::Data),
    }
}

fn index_cparams() -> CParams {
    CParams {
        typesize: 8,
        nthreads: 1,
        ..CParams::default()
    }
}

/// Compresses the offsets into an index chunk.
pub fn encode(offsets: &[i64]) -> Result<Vec<u8>> {
    let mut raw = Vec::with_capacity(offsets.len() * 8);
    for o in offsets {
        raw.extend_from_slice(&o.to_le_bytes());
    }
    let nbytes = i32::try_from(raw.len()).map_err(|_| Error::TwoGbLimit)?;
    if offsets.len() > 1 && offsets.iter().all(|&o| o == offsets[0]) {
        let mut out = vec![0u8; 40];
        let n = crate::special::repeatval_chunk(&index_cparams(), nbytes, &raw[..8], &mut out)?;
        out.truncate(n);
        return Ok(out);
    }
    let mut out = vec![0u8; raw.len() + MAX_OVERHEAD];
    let mut ctx = Context::compressor(index_cparams());
    let n = ctx.compress(&raw, &mut out)?;
    if n == 0 {
        return Err(Error::WriteBuffer);
    }
    out.truncate(n);
    Ok(out)
}

/// Decodes an index chunk holding exactly `nchunks` offsets.
pub fn decode(chunk: &[u8], nchunks: usize) -> Result<Vec<i64>> {
    let h = crate::chunk::Header::parse(chunk)?;
    let want = nchunks.checked_mul(8).ok_or(Error::InvalidHeader)?;
    if h.nbytes < 0 || h.nbytes as usize != want || h.cbytes as usize > chunk.len() {
        return Err(Error::InvalidHeader);
    }
    let mut raw = vec![0u8; want];
    let mut ctx = Context::decompressor(DParams {
        nthreads: 1,
        typesize: 8,
    });
    let n = ctx.decompress(&chunk[..h.cbytes as usize], &mut raw)?;
    if n != want {
        return Err(Error::Data);
    }
    Ok(raw
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect())
}

/// The number of offsets an index chunk holds, from its header.
pub fn count(chunk: &[u8]) -> Result<usize> {
    let h = crate::chunk::Header::parse(chunk)?;
    if h.nbytes < 0 || h.nbytes % 8 != 0 {
        return Err(Error::InvalidHeader);
    }
    Ok(h.nbytes as usize / 8)
}
