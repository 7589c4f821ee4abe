//! Building special-value chunks: header-only chunks that stand for a run of zeros, NaNs,
//! uninitialised values or one repeated value (`blosc2_chunk_zeros` & co).

use crate::chunk::stune::{compute_blocksize, BlocksizeInput};
use crate::constants::{
    EXTENDED_HEADER_LENGTH, MAXTYPESIZE, MAX_BUFFERSIZE, MAX_TYPESIZE, SHUFFLE, SPECIAL_NAN,
    SPECIAL_UNINIT, SPECIAL_VALUE, SPECIAL_ZERO, VERSION_FORMAT_STABLE,
};
use crate::context::CParams;
use crate::error::{Error, Result};

/// The kinds of special chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// Every byte is zero.
    Zeros,
    /// Every item is a NaN (typesize 4 or 8 decode).
    Nans,
    /// The destination is left untouched on decompression.
    Uninit,
}

impl Special {
    fn code(self) -> u8 {
        match self {
            Special::Zeros => SPECIAL_ZERO,
            Special::Nans => SPECIAL_NAN,
            Special::Uninit => SPECIAL_UNINIT,
        }
    }
}

/// Checks the parameters as the reference does and returns the header of a special chunk.
fn header(cparams: &CParams, nbytes: i32, code: u8, cbytes: usize) -> Result<[u8; 32]> {
    if i64::from(nbytes) > MAX_BUFFERSIZE {
        return Err(Error::MaxBufsizeExceeded);
    }
    if cparams.clevel > 9 {
        return Err(Error::CodecParam);
    }
    if cparams.typesize <= 0 || cparams.typesize > MAXTYPESIZE {
        return Err(Error::InvalidParam);
    }
    if nbytes < 0 || nbytes % cparams.typesize != 0 {
        return Err(Error::Data);
    }
    let blocksize = compute_blocksize(&BlocksizeInput {
        nbytes,
        typesize: cparams.typesize,
        clevel: cparams.clevel,
        compcode: cparams.compcode,
        splitmode: cparams.splitmode,
        has_shuffle: cparams.filters.contains(&SHUFFLE),
        forced: cparams.blocksize,
    });
    let stored_typesize = if cparams.typesize > MAX_TYPESIZE {
        1
    } else {
        cparams.typesize as u8
    };
    let mut h = [0u8; 32];
    h[0] = VERSION_FORMAT_STABLE;
    h[1] = 1;
    h[2] = 0x05;
    h[3] = stored_typesize;
    h[4..8].copy_from_slice(&nbytes.to_le_bytes());
    h[8..12].copy_from_slice(&blocksize.to_le_bytes());
    h[12..16].copy_from_slice(&(cbytes as i32).to_le_bytes());
    h[31] = code << 4;
    Ok(h)
}

/// Writes a zeros, NaNs or uninit chunk standing for `nbytes` bytes into `dst`; returns 32.
pub fn special_chunk(
    cparams: &CParams,
    kind: Special,
    nbytes: i32,
    dst: &mut [u8],
) -> Result<usize> {
    let h = header(cparams, nbytes, kind.code(), EXTENDED_HEADER_LENGTH)?;
    let out = dst.get_mut(..EXTENDED_HEADER_LENGTH).ok_or(Error::Data)?;
    out.copy_from_slice(&h);
    Ok(EXTENDED_HEADER_LENGTH)
}

/// Writes a chunk repeating the `typesize`-byte `value` for `nbytes` bytes into `dst`;
/// returns 32 + typesize.
pub fn repeatval_chunk(
    cparams: &CParams,
    nbytes: i32,
    value: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    let width = usize::try_from(cparams.typesize).map_err(|_| Error::InvalidParam)?;
    let total = EXTENDED_HEADER_LENGTH + width;
    let h = header(cparams, nbytes, SPECIAL_VALUE, total)?;
    let value = value.get(..width).ok_or(Error::Data)?;
    let out = dst.get_mut(..total).ok_or(Error::Data)?;
    out[..EXTENDED_HEADER_LENGTH].copy_from_slice(&h);
    out[EXTENDED_HEADER_LENGTH..].copy_from_slice(value);
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{Context, DParams};

    fn cparams8() -> CParams {
        CParams {
            typesize: 8,
            ..CParams::default()
        }
    }

    #[test]
    fn bytes_match_the_measured_reference_chunks() {
        let mut buf = [0u8; 64];
        assert_eq!(
            special_chunk(&cparams8(), Special::Zeros, 8000, &mut buf),
            Ok(32)
        );
        let mut want = vec![
            0x05, 0x01, 0x05, 0x08, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 0x20, 0, 0, 0,
        ];
        want.extend_from_slice(&[0; 15]);
        want.push(0x10);
        assert_eq!(&buf[..32], &want[..]);
        special_chunk(&cparams8(), Special::Nans, 8000, &mut buf).unwrap();
        assert_eq!(buf[31], 0x20);
        special_chunk(&cparams8(), Special::Uninit, 8000, &mut buf).unwrap();
        assert_eq!(buf[31], 0x40);
        let n = repeatval_chunk(&cparams8(), 8000, &3.25f64.to_le_bytes(), &mut buf).unwrap();
        assert_eq!(n, 40);
        assert_eq!(buf[12], 0x28);
        assert_eq!(buf[31], 0x30);
        assert_eq!(&buf[32..40], &[0, 0, 0, 0, 0, 0, 0x0a, 0x40]);
    }

    #[test]
    fn decode_through_the_engine() {
        let mut chunk = [0u8; 64];
        let mut ctx = Context::decompressor(DParams::default());
        let n = repeatval_chunk(&cparams8(), 8000, &3.25f64.to_le_bytes(), &mut chunk).unwrap();
        let mut out = vec![0u8; 8000];
        assert_eq!(ctx.decompress(&chunk[..n], &mut out), Ok(8000));
        assert!(out
            .chunks(8)
            .all(|c| f64::from_le_bytes(c.try_into().unwrap()) == 3.25));
        special_chunk(&cparams8(), Special::Nans, 8000, &mut chunk).unwrap();
        assert_eq!(ctx.decompress(&chunk[..32], &mut out), Ok(8000));
        assert!(out
            .chunks(8)
            .all(|c| f64::from_le_bytes(c.try_into().unwrap()).is_nan()));
    }

    #[test]
    fn errors_follow_the_reference() {
        let mut buf = [0u8; 64];
        assert_eq!(
            special_chunk(&cparams8(), Special::Zeros, 8001, &mut buf),
            Err(Error::Data)
        );
        assert_eq!(
            special_chunk(&cparams8(), Special::Zeros, 8000, &mut buf[..31]),
            Err(Error::Data)
        );
        let bad = CParams {
            clevel: 10,
            ..cparams8()
        };
        assert_eq!(
            special_chunk(&bad, Special::Zeros, 8000, &mut buf),
            Err(Error::CodecParam)
        );
        assert_eq!(
            special_chunk(&cparams8(), Special::Zeros, i32::MAX, &mut buf),
            Err(Error::MaxBufsizeExceeded)
        );
        assert_eq!(
            special_chunk(&cparams8(), Special::Zeros, 0, &mut buf),
            Ok(32)
        );
        assert_eq!(i32::from_le_bytes(buf[8..12].try_into().unwrap()), 1);
    }
}
