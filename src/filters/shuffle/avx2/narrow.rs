//! AVX2 kernels for elements of 3 to 15 bytes other than 4 and 8.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::ops::{load, load_lanes, rounds, store, store16};
use super::STEP;

/// Shuffles elements of 3 to 15 bytes (other than 4 and 8) in steps of 32, reading a 16-byte
/// window from the start of each element; returns how many elements were handled.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn shuffle_narrow(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let mut i = 0;
    while i + STEP <= count && (i + STEP - 1) * typesize + 16 <= src.len() {
        let mut x = [_mm256_setzero_si256(); 16];
        for (m, reg) in x.iter_mut().enumerate() {
            let lo = (i + m) * typesize;
            // SAFETY: the furthest window ends at (i + 31) * typesize + 16 <= src.len().
            *reg = unsafe { load_lanes(src, lo, lo + 16 * typesize) };
        }
        for (k, plane) in rounds(x, 4).into_iter().take(typesize).enumerate() {
            // SAFETY: k * stride + i + 32 <= (typesize - 1) * stride + count <= dst.len().
            unsafe { store(dst, k * stride + i, plane) };
        }
        i += STEP;
    }
    i
}

/// Unshuffles elements of 3 to 15 bytes (other than 4 and 8) in steps of 32; returns how many
/// elements were handled.
///
/// Each element is written as a 16-byte window whose tail is rewritten by the elements that
/// follow, so windows are stored in element order and the last one of a step spills
/// `16 - typesize` bytes into the next element (rewritten by the next step or by the caller's
/// scalar tail).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn unshuffle_narrow(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let mut i = 0;
    while i + STEP <= count && (i + STEP - 1) * typesize + 16 <= dst.len() {
        let mut x = [_mm256_setzero_si256(); 16];
        for (k, reg) in x.iter_mut().enumerate().take(typesize) {
            // SAFETY: k * stride + i + 32 <= (typesize - 1) * stride + count <= src.len().
            *reg = unsafe { load(src, k * stride + i) };
        }
        let y = rounds(x, 4);
        for (m, elem) in y.iter().enumerate() {
            // SAFETY: (i + m) * typesize + 16 <= (i + 31) * typesize + 16 <= dst.len().
            unsafe { store16(dst, (i + m) * typesize, _mm256_castsi256_si128(*elem)) };
        }
        for (m, elem) in y.iter().enumerate() {
            let high = _mm256_extracti128_si256::<1>(*elem);
            // SAFETY: (i + 16 + m) * typesize + 16 <= (i + 31) * typesize + 16 <= dst.len().
            unsafe { store16(dst, (i + 16 + m) * typesize, high) };
        }
        i += STEP;
    }
    i
}

/// Unshuffles `steps * 32` elements of 12 bytes: each element is three 4-byte words, so the
/// 4-byte unshuffle network rebuilds the words from planes 0-3, 4-7 and 8-11 and a
/// dword permute plus blends interleave them.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn unshuffle12(src: &[u8], dst: &mut [u8], stride: usize, steps: usize) {
    // Word w of the 8 elements in a register goes to output dword 3w (first words), 3w + 1
    // (second) or 3w + 2 (third) of 24; these put every word in the dword it has in its
    // output register.
    let first = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    let second = _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2);
    let third = _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7);
    for i in (0..steps * STEP).step_by(STEP) {
        let words = |plane: usize| {
            let mut x = [_mm256_setzero_si256(); 4];
            for (j, reg) in x.iter_mut().enumerate() {
                // SAFETY: (plane + j) * stride + i + 32 <= 11 * stride + count <= src.len().
                *reg = unsafe { load(src, (plane + j) * stride + i) };
            }
            rounds(x, 2)
        };
        let (a, b, c) = (words(0), words(4), words(8));
        // Register r holds elements i + 4r.. (low lane) and i + 16 + 4r.. (high lane); its
        // 8 elements become the 96 bytes of `out[r]`.
        let out: [[__m256i; 3]; 4] = core::array::from_fn(|r| {
            let a = _mm256_permutevar8x32_epi32(a[r], first);
            let b = _mm256_permutevar8x32_epi32(b[r], second);
            let c = _mm256_permutevar8x32_epi32(c[r], third);
            [
                _mm256_blend_epi32::<0x92>(_mm256_blend_epi32::<0x49>(c, a), b),
                _mm256_blend_epi32::<0x92>(_mm256_blend_epi32::<0x49>(b, c), a),
                _mm256_blend_epi32::<0x92>(_mm256_blend_epi32::<0x49>(a, b), c),
            ]
        });
        // In address order: first elements i.., then elements i + 16...
        for (r, [first, middle, _]) in out.iter().enumerate() {
            let at = (i + 4 * r) * 12;
            // SAFETY: the 48 bytes from `at` are the elements i + 4r.. below
            // (i + 32) * 12 <= count * 12 <= dst.len().
            unsafe {
                store(dst, at, *first);
                store16(dst, at + 32, _mm256_castsi256_si128(*middle));
            }
        }
        for (r, [_, middle, last]) in out.iter().enumerate() {
            let at = (i + 16 + 4 * r) * 12;
            // SAFETY: the 48 bytes from `at` are the elements i + 16 + 4r.. below
            // (i + 32) * 12 <= count * 12 <= dst.len().
            unsafe {
                store16(dst, at, _mm256_extracti128_si256::<1>(*middle));
                store(dst, at + 16, *last);
            }
        }
    }
}
