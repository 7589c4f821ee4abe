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

/// Shuffles elements of more than 16 bytes, 16 bytes of each at a time, in steps of 32 and
/// 64 from element 0 on; returns how many elements (at most `steps * 32`) were handled.
///
/// For multiples of 16 bytes, as for the power-of-two kernels, plane stores go 64 bytes at a
/// time from a 64-byte boundary of plane 0 whenever the data is long enough.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn shuffle_wide(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let planes_at = |i: usize, col: usize| {
        let mut x = [_mm256_setzero_si256(); 16];
        for (m, reg) in x.iter_mut().enumerate() {
            let lo = (i + m) * typesize + col;
            // SAFETY: col + 16 <= typesize and every step lies below steps * 32 <= count, so
            // both halves lie below (i + 32) * typesize <= count * typesize <= src.len().
            *reg = unsafe { load_lanes(src, lo, lo + 16 * typesize) };
        }
        rounds(x, 4)
    };
    let single = |dst: &mut [u8], i: usize| {
        for col in column_groups(typesize) {
            for (k, plane) in planes_at(i, col).into_iter().enumerate() {
                // SAFETY: (col + k) * stride + i + 32 <= (typesize - 1) * stride + count.
                unsafe { store(dst, (col + k) * stride + i, plane) };
            }
        }
    };
    let total = steps * STEP;
    let mut i = 0;
    // With overlapping column groups some planes are written twice per step; there plain
    // 32-element steps are faster.
    if typesize.is_multiple_of(16) {
        let head = crate::filters::shuffle::aligned_start(dst.as_ptr() as usize, 1).unwrap_or(0);
        if head != 0 && head + 2 * STEP <= total {
            while i < head {
                single(dst, i);
                i += STEP;
            }
            i = head;
        }
        while i + 2 * STEP <= total {
            for col in column_groups(typesize) {
                let (first, second) = (planes_at(i, col), planes_at(i + STEP, col));
                for k in 0..16 {
                    let at = (col + k) * stride + i;
                    // SAFETY: at + 64 <= (typesize - 1) * stride + count <= dst.len().
                    unsafe {
                        store(dst, at, first[k]);
                        store(dst, at + STEP, second[k]);
                    }
                }
            }
            i += 2 * STEP;
        }
    }
    while i + STEP <= total {
        single(dst, i);
        i += STEP;
    }
    i
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
