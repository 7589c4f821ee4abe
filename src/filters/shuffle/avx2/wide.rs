//! AVX2 kernels for elements of more than 16 bytes, handled 16 bytes (a column group) at
//! a time.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::ops::{load, load_lanes, rounds, store, store16};
use super::STEP;

/// The first byte of each 16-byte column group of a wide element; the last group is moved
/// back to end at the element's end, overlapping the previous one.
fn column_groups(typesize: usize) -> impl Iterator<Item = usize> {
    (0..typesize.div_ceil(16)).map(move |g| (16 * g).min(typesize - 16))
}

/// Shuffles `steps * 32` elements of more than 16 bytes, 16 bytes of each at a time.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn shuffle_wide(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) {
    for i in (0..steps * STEP).step_by(STEP) {
        for col in column_groups(typesize) {
            let mut x = [_mm256_setzero_si256(); 16];
            for (m, reg) in x.iter_mut().enumerate() {
                let lo = (i + m) * typesize + col;
                // SAFETY: col + 16 <= typesize, so both halves lie below
                // (i + 32) * typesize <= count * typesize <= src.len().
                *reg = unsafe { load_lanes(src, lo, lo + 16 * typesize) };
            }
            for (k, plane) in rounds(x, 4).into_iter().enumerate() {
                // SAFETY: (col + k) * stride + i + 32 <= (typesize - 1) * stride + count.
                unsafe { store(dst, (col + k) * stride + i, plane) };
            }
        }
    }
}

/// Unshuffles `steps * 32` elements of more than 16 bytes, 16 bytes of each at a time; two
/// neighbouring 16-byte column groups are combined into 32-byte stores where possible.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn unshuffle_wide(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) {
    let columns = |i: usize, col: usize| {
        let mut x = [_mm256_setzero_si256(); 16];
        for (k, reg) in x.iter_mut().enumerate() {
            // SAFETY: (col + k) * stride + i + 32 <= (typesize - 1) * stride + count, as
            // col + 16 <= typesize and i + 32 <= count.
            *reg = unsafe { load(src, (col + k) * stride + i) };
        }
        rounds(x, 4)
    };
    for i in (0..steps * STEP).step_by(STEP) {
        let mut col = 0;
        while col + 32 <= typesize {
            let (a, b) = (columns(i, col), columns(i, col + 16));
            for m in 0..16 {
                let v = _mm256_permute2x128_si256::<0x20>(a[m], b[m]);
                // SAFETY: col + 32 <= typesize, so the bytes lie below
                // (i + 16) * typesize <= count * typesize <= dst.len().
                unsafe { store(dst, (i + m) * typesize + col, v) };
            }
            for m in 0..16 {
                let v = _mm256_permute2x128_si256::<0x31>(a[m], b[m]);
                // SAFETY: col + 32 <= typesize, so the bytes lie below
                // (i + 32) * typesize <= count * typesize <= dst.len().
                unsafe { store(dst, (i + 16 + m) * typesize + col, v) };
            }
            col += 32;
        }
        while col < typesize {
            let group = col.min(typesize - 16);
            col += 16;
            let y = columns(i, group);
            for (m, elem) in y.iter().enumerate() {
                let low = _mm256_castsi256_si128(*elem);
                // SAFETY: group + 16 <= typesize, so the bytes lie below
                // (i + 16) * typesize <= count * typesize <= dst.len().
                unsafe { store16(dst, (i + m) * typesize + group, low) };
            }
            for (m, elem) in y.iter().enumerate() {
                let high = _mm256_extracti128_si256::<1>(*elem);
                // SAFETY: group + 16 <= typesize, so the bytes lie below
                // (i + 32) * typesize <= count * typesize <= dst.len().
                unsafe { store16(dst, (i + 16 + m) * typesize + group, high) };
            }
        }
    }
}
