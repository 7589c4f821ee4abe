//! Portable byte-shuffle kernels, used on every CPU for the parts the SIMD kernels leave.

/// Elements handled per tile, chosen so a tile of source bytes stays in the L1 cache while
/// each of its byte planes is written.
fn tile_elements(typesize: usize) -> usize {
    (4096 / typesize).max(16)
}

/// Writes `dst[j * stride + i] = src[i * typesize + j]` for the elements `i` in
/// `start..count` and every byte `j` of an element.
pub(crate) fn shuffle_rows(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) {
    let tile = tile_elements(typesize);
    let mut first = start;
    while first < count {
        let last = count.min(first + tile);
        let elements = &src[first * typesize..last * typesize];
        for j in 0..typesize {
            let plane = &mut dst[j * stride + first..j * stride + last];
            for (out, byte) in plane.iter_mut().zip(elements[j..].iter().step_by(typesize)) {
                *out = *byte;
            }
        }
        first = last;
    }
}

/// Writes `dst[i * typesize + j] = src[j * stride + i]` for the elements `i` in
/// `start..count` and every byte `j` of an element (the inverse of [`shuffle_rows`]).
pub(crate) fn unshuffle_rows(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) {
    let tile = tile_elements(typesize);
    let mut first = start;
    while first < count {
        let last = count.min(first + tile);
        let elements = &mut dst[first * typesize..last * typesize];
        for j in 0..typesize {
            let plane = &src[j * stride + first..j * stride + last];
            for (out, byte) in elements[j..].iter_mut().step_by(typesize).zip(plane) {
                *out = *byte;
            }
        }
        first = last;
    }
}
