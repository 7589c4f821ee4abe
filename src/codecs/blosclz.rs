//! BloscLZ, the native Blosc codec.

/// Compresses `src` into `dst` at `clevel` (1..=9); returns the compressed size, or 0 when
/// the data is not compressible enough or does not fit in `dst`.
pub fn compress(clevel: i32, src: &[u8], dst: &mut [u8]) -> usize {
    let _ = (clevel, src, dst);
    0
}

/// Decompresses a BloscLZ stream `src` into `dst`; returns the number of bytes written, or
/// `None` when the stream is malformed or would overflow `dst`.
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let _ = (src, dst);
    None
}
