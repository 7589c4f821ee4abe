//! Truncate-precision filter: zeroes low mantissa bits of floats (lossy).

use crate::error::{Error, Result};

#[cfg(test)]
mod tests;

/// Mantissa bits of an IEEE 754 single.
const MANTISSA_F32: i32 = 23;
/// Mantissa bits of an IEEE 754 double.
const MANTISSA_F64: i32 = 52;

/// Truncates the mantissa of the 4- or 8-byte floats in `src` into `dst`, keeping
/// `prec_bits` bits (negative: dropping that many bits). Trailing bytes that do not form a
/// whole element are copied unchanged.
///
/// Fails with [`Error::FilterPipeline`], leaving `dst` untouched, for other typesizes, for
/// `|prec_bits|` above the mantissa width (23 or 52) and when no mantissa bit would be kept.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn truncate(prec_bits: i8, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<()> {
    assert_eq!(
        src.len(),
        dst.len(),
        "trunc_prec: source and destination lengths differ"
    );
    let mantissa = match typesize {
        4 => MANTISSA_F32,
        8 => MANTISSA_F64,
        _ => return Err(Error::FilterPipeline),
    };
    let prec = i32::from(prec_bits);
    if prec.abs() > mantissa {
        return Err(Error::FilterPipeline);
    }
    let zeroed = if prec >= 0 { mantissa - prec } else { -prec };
    if zeroed >= mantissa {
        return Err(Error::FilterPipeline);
    }
    let body = src.len() - src.len() % typesize;
    if typesize == 4 {
        let mask = !((1u32 << zeroed) - 1);
        for (out, elem) in dst[..body].chunks_exact_mut(4).zip(src.chunks_exact(4)) {
            let mut bytes = [0u8; 4];
            bytes.copy_from_slice(elem);
            out.copy_from_slice(&(u32::from_ne_bytes(bytes) & mask).to_ne_bytes());
        }
    } else {
        let mask = !((1u64 << zeroed) - 1);
        for (out, elem) in dst[..body].chunks_exact_mut(8).zip(src.chunks_exact(8)) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(elem);
            out.copy_from_slice(&(u64::from_ne_bytes(bytes) & mask).to_ne_bytes());
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
    Ok(())
}
