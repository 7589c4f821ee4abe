//! Portable bit-transpose kernels, used on every CPU for the parts the SIMD kernels leave.

/// Transposes the 8x8 bit matrix whose row `r` is byte `r` of `x` (little-endian) and whose
/// column `c` is bit `c`: bit `c` of byte `r` becomes bit `r` of byte `c`.
pub(crate) fn transpose8x8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Spreads the bits of the byte plane `plane` over 8 bit rows: bit `k` of `plane[8q + b]`
/// becomes bit `b` of `rows[k * row_stride + col + q]`, for the bytes from `start` on
/// (`start` and `plane.len()` multiples of 8).
pub(crate) fn plane_to_rows(
    plane: &[u8],
    rows: &mut [u8],
    row_stride: usize,
    col: usize,
    start: usize,
) {
    for (q, group) in plane.chunks_exact(8).enumerate().skip(start / 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(group);
        let bits = transpose8x8(u64::from_le_bytes(word)).to_le_bytes();
        for (k, byte) in bits.into_iter().enumerate() {
            rows[k * row_stride + col + q] = byte;
        }
    }
}

/// Reverses [`plane_to_rows`]: rebuilds the bytes of `plane` from `start` on out of the 8
/// bit rows in `rows`.
pub(crate) fn rows_to_plane(
    rows: &[u8],
    row_stride: usize,
    col: usize,
    plane: &mut [u8],
    start: usize,
) {
    for (q, group) in plane.chunks_exact_mut(8).enumerate().skip(start / 8) {
        let mut word = [0u8; 8];
        for (k, byte) in word.iter_mut().enumerate() {
            *byte = rows[k * row_stride + col + q];
        }
        group.copy_from_slice(&transpose8x8(u64::from_le_bytes(word)).to_le_bytes());
    }
}
