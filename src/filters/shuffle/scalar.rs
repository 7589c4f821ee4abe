//! Portable byte-shuffle kernels: the whole job on CPUs without SIMD kernels, and the tails
//! the SIMD kernels leave elsewhere.
//!
//! Common typesizes go through fixed-size tiles of 16 elements, which compilers turn into
//! vector code of their own; other typesizes use a plain strided loop.

/// Elements in a fixed-size tile.
const TILE: usize = 16;

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
    let done = match typesize {
        2 => shuffle_tiles::<2>(src, dst, stride, start, count),
        4 => shuffle_tiles::<4>(src, dst, stride, start, count),
        8 => shuffle_tiles::<8>(src, dst, stride, start, count),
        16 => shuffle_tiles::<16>(src, dst, stride, start, count),
        _ => start,
    };
    shuffle_strided(typesize, src, dst, stride, done, count);
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
    let done = match typesize {
        2 => unshuffle_tiles::<2>(src, dst, stride, start, count),
        4 => unshuffle_tiles::<4>(src, dst, stride, start, count),
        8 => unshuffle_tiles::<8>(src, dst, stride, start, count),
        16 => unshuffle_tiles::<16>(src, dst, stride, start, count),
        _ => start,
    };
    unshuffle_strided(typesize, src, dst, stride, done, count);
}

/// [`shuffle_rows`] for whole tiles of `T`-byte elements from `start` on; returns where it
/// stopped.
fn shuffle_tiles<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) -> usize {
    let mut first = start;
    while first + TILE <= count {
        let mut tile = [[0u8; T]; TILE];
        for (elem, bytes) in tile.iter_mut().zip(src[first * T..].chunks_exact(T)) {
            elem.copy_from_slice(bytes);
        }
        for j in 0..T {
            let plane = &mut dst[j * stride + first..j * stride + first + TILE];
            for (out, elem) in plane.iter_mut().zip(&tile) {
                *out = elem[j];
            }
        }
        first += TILE;
    }
    first
}

/// [`unshuffle_rows`] for whole tiles of `T`-byte elements from `start` on; returns where it
/// stopped.
fn unshuffle_tiles<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) -> usize {
    let mut first = start;
    while first + TILE <= count {
        let mut tile = [[0u8; T]; TILE];
        for j in 0..T {
            let plane = &src[j * stride + first..j * stride + first + TILE];
            for (elem, byte) in tile.iter_mut().zip(plane) {
                elem[j] = *byte;
            }
        }
        for (bytes, elem) in dst[first * T..(first + TILE) * T]
            .chunks_exact_mut(T)
            .zip(&tile)
        {
            bytes.copy_from_slice(elem);
        }
        first += TILE;
    }
    first
}

/// Elements handled per strided pass, chosen so their source bytes stay in the L1 cache
/// while each byte plane is written.
fn strided_elements(typesize: usize) -> usize {
    (4096 / typesize).max(16)
}

/// [`shuffle_rows`] for any typesize, one byte plane at a time.
fn shuffle_strided(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) {
    let tile = strided_elements(typesize);
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

/// [`unshuffle_rows`] for any typesize, one byte plane at a time.
fn unshuffle_strided(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    start: usize,
    count: usize,
) {
    let tile = strided_elements(typesize);
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
