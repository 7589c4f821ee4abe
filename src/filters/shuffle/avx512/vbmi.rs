//! AVX-512 VBMI byte-shuffle kernels: 64 elements per step, built from byte permutes that
//! pick any byte of one or two whole registers.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::ops::{aligned_steps, from_bytes, load, store};
use super::STEP;
use crate::filters::shuffle::aligned_start;

/// Byte indexes into a pair of registers: `[0, 2, .., 126]` (the even bytes of the pair)
/// and `[1, 3, .., 127]` (the odd ones).
#[inline]
#[target_feature(enable = "avx512f")]
fn split_indexes() -> (__m512i, __m512i) {
    let even: [u8; 64] = core::array::from_fn(|b| 2 * b as u8);
    let odd: [u8; 64] = core::array::from_fn(|b| 2 * b as u8 + 1);
    (from_bytes(&even), from_bytes(&odd))
}

/// Byte indexes into a pair of registers `(a, b)`: `[a0, b0, a1, b1, .., a31, b31]` and the
/// same for bytes 32 to 63.
#[inline]
#[target_feature(enable = "avx512f")]
fn merge_indexes() -> (__m512i, __m512i) {
    let low: [u8; 64] = core::array::from_fn(|b| (b / 2 + 64 * (b % 2)) as u8);
    let high: [u8; 64] = core::array::from_fn(|b| (32 + b / 2 + 64 * (b % 2)) as u8);
    (from_bytes(&low), from_bytes(&high))
}

/// Splits every register pair `(2k, 2k + 1)` into its even bytes (to register `k`) and odd
/// bytes (to register `k + R/2`).
///
/// Seen as one index `register * 64 + byte`, this rotates the index bits right by one, so
/// `log2(T)` splits of the `T` registers holding 64 elements of `T` bytes leave byte plane
/// `j` in register `j`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn split<const R: usize>(x: [__m512i; R], even: __m512i, odd: __m512i) -> [__m512i; R] {
    let half = R / 2;
    let mut y = x;
    for k in 0..half {
        y[k] = _mm512_permutex2var_epi8(x[2 * k], even, x[2 * k + 1]);
        y[half + k] = _mm512_permutex2var_epi8(x[2 * k], odd, x[2 * k + 1]);
    }
    y
}

/// The inverse of [`split`]: interleaves registers `k` and `k + R/2` into registers `2k`
/// and `2k + 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn merge<const R: usize>(x: [__m512i; R], low: __m512i, high: __m512i) -> [__m512i; R] {
    let half = R / 2;
    let mut y = x;
    for k in 0..half {
        y[2 * k] = _mm512_permutex2var_epi8(x[k], low, x[half + k]);
        y[2 * k + 1] = _mm512_permutex2var_epi8(x[k], high, x[half + k]);
    }
    y
}

/// Shuffles elements of `T` bytes (`T` a power of two up to 16) from element 0 on, in steps
/// of 64; returns how many elements (at most `steps * 64`) were handled.
///
/// After one unaligned step the loop starts, when it can, where plane 0 is 64-byte aligned.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn shuffle_pow2<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let (even, odd) = split_indexes();
    let head = aligned_start(dst.as_ptr() as usize, 1).unwrap_or(0);
    aligned_steps::<true>(steps * STEP, STEP, head, |i| {
        let mut x = [_mm512_setzero_si512(); T];
        for (r, reg) in x.iter_mut().enumerate() {
            // SAFETY: i * T + 64 * r + 64 <= (i + 64) * T <= count * T <= src.len(), as
            // every step lies below steps * 64 <= count.
            *reg = unsafe { load(src, i * T + 64 * r) };
        }
        for _ in 0..T.trailing_zeros() {
            x = split(x, even, odd);
        }
        for (j, plane) in x.into_iter().enumerate() {
            // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= dst.len().
            unsafe { store(dst, j * stride + i, plane) };
        }
    })
}

/// Unshuffles elements of `T` bytes (`T` a power of two up to 16) from element 0 on, in
/// steps of 64; returns how many elements (at most `steps * 64`) were handled.
///
/// After one unaligned step the loop starts, when it can, where the output is 64-byte
/// aligned.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn unshuffle_pow2<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let (low, high) = merge_indexes();
    let head = aligned_start(dst.as_ptr() as usize, T).unwrap_or(0);
    aligned_steps::<true>(steps * STEP, STEP, head, |i| {
        let mut x = [_mm512_setzero_si512(); T];
        for (j, reg) in x.iter_mut().enumerate() {
            // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= src.len(), as every
            // step lies below steps * 64 <= count.
            *reg = unsafe { load(src, j * stride + i) };
        }
        for _ in 0..T.trailing_zeros() {
            x = merge(x, low, high);
        }
        for (r, elems) in x.into_iter().enumerate() {
            // SAFETY: i * T + 64 * r + 64 <= (i + 64) * T <= count * T <= dst.len().
            unsafe { store(dst, i * T + 64 * r, elems) };
        }
    })
}

/// The register pairs the narrow kernels look bytes up in, for `T` registers: registers
/// `2p` and `2p + 1` (register `T - 1` twice when `T` is odd).
fn pairs<const T: usize>() -> impl Iterator<Item = (usize, usize)> {
    (0..T.div_ceil(2)).map(|p| (2 * p, (2 * p + 1).min(T - 1)))
}

/// Shuffles elements of `T` bytes (3 to 15, not a power of two) from element 0 on, in steps
/// of 64; returns how many elements (at most `steps * 64`) were handled. After one
/// unaligned step the loop starts, when it can, where plane 0 is 64-byte aligned.
///
/// A step loads the `64 * T` bytes of its elements into `T` registers. Plane `j` takes byte
/// `e * T + j` for element `e`, which lies in register `(e * T + j) / 64`, so permute index
/// `(e * T + j) % 128` finds it in the register pair `(e * T + j) / 128`. A plane starts as
/// these indexes and is filled by one permute per register pair, each masked to the
/// elements that pair holds (each byte is replaced exactly once, while it still holds its
/// index).
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn shuffle_narrow<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let first: [u8; 64] = core::array::from_fn(|e| (e * T) as u8);
    let first = from_bytes(&first);
    // masks[j][p]: the elements whose byte j lies in register pair p.
    let mut masks = [[0u64; 8]; T];
    for (j, plane) in masks.iter_mut().enumerate() {
        for e in 0..STEP {
            plane[(e * T + j) / (2 * STEP)] |= 1 << e;
        }
    }
    let head = aligned_start(dst.as_ptr() as usize, 1).unwrap_or(0);
    aligned_steps::<true>(steps * STEP, STEP, head, |i| {
        let mut x = [_mm512_setzero_si512(); T];
        for (r, reg) in x.iter_mut().enumerate() {
            // SAFETY: i * T + 64 * r + 64 <= (i + 64) * T <= count * T <= src.len(), as
            // every step lies below steps * 64 <= count.
            *reg = unsafe { load(src, i * T + 64 * r) };
        }
        for (j, plane_masks) in masks.iter().enumerate() {
            let mut plane = _mm512_add_epi8(first, _mm512_set1_epi8(j as i8));
            for ((a, b), &mask) in pairs::<T>().zip(plane_masks) {
                plane = _mm512_mask2_permutex2var_epi8(x[a], plane, mask, x[b]);
            }
            // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= dst.len().
            unsafe { store(dst, j * stride + i, plane) };
        }
    })
}

/// Unshuffles elements of `T` bytes (3 to 15, not a power of two) from element 0 on, in
/// steps of 64; returns how many elements (at most `steps * 64`) were handled. After one
/// unaligned step the loop starts, when it can, where the output is 64-byte aligned.
///
/// A step loads 64 bytes of each of the `T` planes. Output byte `64 * r + b` of the step is
/// byte `j = (64 * r + b) % T` of element `e = (64 * r + b) / T`, found at permute index
/// `e + 64 * (j % 2)` in the plane pair `j / 2`; as in [`shuffle_narrow`], each output
/// register starts as these indexes and is filled by one masked permute per plane pair.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn unshuffle_narrow<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let mut indexes = [_mm512_setzero_si512(); T];
    // masks[r][p]: the bytes of output register r that come from plane pair p.
    let mut masks = [[0u64; 8]; T];
    for (r, (index, out_masks)) in indexes.iter_mut().zip(&mut masks).enumerate() {
        let bytes: [u8; 64] = core::array::from_fn(|b| {
            let g = STEP * r + b;
            (g / T + STEP * (g % T % 2)) as u8
        });
        *index = from_bytes(&bytes);
        for b in 0..STEP {
            out_masks[(STEP * r + b) % T / 2] |= 1 << b;
        }
    }
    let head = aligned_start(dst.as_ptr() as usize, T).unwrap_or(0);
    aligned_steps::<true>(steps * STEP, STEP, head, |i| {
        let mut x = [_mm512_setzero_si512(); T];
        for (j, reg) in x.iter_mut().enumerate() {
            // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= src.len(), as every
            // step lies below steps * 64 <= count.
            *reg = unsafe { load(src, j * stride + i) };
        }
        for (r, (&index, out_masks)) in indexes.iter().zip(&masks).enumerate() {
            let mut out = index;
            for ((a, b), &mask) in pairs::<T>().zip(out_masks) {
                out = _mm512_mask2_permutex2var_epi8(x[a], out, mask, x[b]);
            }
            // SAFETY: i * T + 64 * r + 64 <= (i + 64) * T <= count * T <= dst.len().
            unsafe { store(dst, i * T + 64 * r, out) };
        }
    })
}
