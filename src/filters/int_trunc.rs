//! Integer truncation filter (plugin filter 36): zeroes the low bits of 1-, 2-, 4- or 8-byte
//! integers (lossy; nothing to undo on decompression).

use crate::error::{Error, Result};

#[cfg(test)]
mod tests;

/// Keeps `prec_bits` high bits of each integer of `typesize` bytes in `src` (negative:
/// clears `-prec_bits` low bits) and writes the result to `dst`. Trailing bytes that do not
/// form a whole integer are copied unchanged.
///
/// Fails with [`Error::Failure`], leaving `dst` untouched, for other typesizes and when no
/// bit would be kept.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn truncate(prec_bits: i8, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<()> {
    assert_eq!(src.len(), dst.len(), "int_trunc: lengths differ");
    if !matches!(typesize, 1 | 2 | 4 | 8) {
        return Err(Error::Failure);
    }
    let bits = 8 * typesize as i32;
    let prec = i32::from(prec_bits);
    let zeroed = if prec >= 0 { bits - prec } else { -prec };
    if !(0..bits).contains(&zeroed) {
        return Err(Error::Failure);
    }
    let mask = !((1u64 << zeroed) - 1);
    let body = src.len() - src.len() % typesize;
    for (out, item) in dst[..body]
        .chunks_exact_mut(typesize)
        .zip(src.chunks_exact(typesize))
    {
        let mut word = [0u8; 8];
        word[..typesize].copy_from_slice(item);
        let kept = (u64::from_le_bytes(word) & mask).to_le_bytes();
        out.copy_from_slice(&kept[..typesize]);
    }
    dst[body..].copy_from_slice(&src[body..]);
    Ok(())
}
