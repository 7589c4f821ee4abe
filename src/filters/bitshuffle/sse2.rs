//! SSE2 bit-transpose kernels: 128 bytes of a byte plane per step.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::filters::shuffle::sse2::{load, rounds, store};

/// Bytes of a byte plane handled by one step.
const STEP: usize = 128;

/// Swaps, for every register pair `(a, a + H)` with bit `H` of `a` clear, the bits of `a`
/// at positions with bit `H` set against the bits of `a + H` at the positions `H` lower.
#[inline]
#[target_feature(enable = "sse2")]
fn swap_blocks<const H: i32>(mut v: [__m128i; 8], mask: i8) -> [__m128i; 8] {
    let h = H as usize;
    let mask = _mm_set1_epi8(mask);
    for a in (0..8).filter(|a| a & h == 0) {
        let b = a + h;
        let t = _mm_and_si128(_mm_xor_si128(_mm_srli_epi16::<H>(v[a]), v[b]), mask);
        v[b] = _mm_xor_si128(v[b], t);
        v[a] = _mm_xor_si128(v[a], _mm_slli_epi16::<H>(t));
    }
    v
}

/// Transposes, at every byte position at once, the 8x8 bit matrix whose row `r` is that
/// byte of register `r`: bit `c` of register `r` becomes bit `r` of register `c`.
#[inline]
#[target_feature(enable = "sse2")]
fn transpose_bits(v: [__m128i; 8]) -> [__m128i; 8] {
    let v = swap_blocks::<4>(v, 0x0F);
    let v = swap_blocks::<2>(v, 0x33);
    swap_blocks::<1>(v, 0x55)
}

/// Writes bit `k` of `plane[8q + b]` to bit `b` of `rows[k * row_stride + col + q]` for the
/// largest multiple of 128 bytes of `plane`; returns how many bytes were handled.
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "sse2")]
pub(crate) fn plane_to_rows(plane: &[u8], rows: &mut [u8], row_stride: usize, col: usize) -> usize {
    let steps = plane.len() / STEP;
    if steps == 0 {
        return 0;
    }
    assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
    for step in 0..steps {
        let base = step * STEP;
        let mut x = [_mm_setzero_si128(); 8];
        for (r, reg) in x.iter_mut().enumerate() {
            // SAFETY: base + 16 * r + 16 <= base + 128 <= plane.len().
            *reg = unsafe { load(plane, base + 16 * r) };
        }
        let bits = transpose_bits(rounds(x, 4));
        for (k, row) in bits.into_iter().enumerate() {
            // SAFETY: k * row_stride + col + 16 * step + 16 <= 7 * row_stride + col +
            // plane.len() / 8 <= rows.len().
            unsafe { store(rows, k * row_stride + col + 16 * step, row) };
        }
    }
    steps * STEP
}

/// Reverses [`plane_to_rows`] for the largest multiple of 128 bytes of `plane`; returns how
/// many bytes were handled.
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "sse2")]
pub(crate) fn rows_to_plane(rows: &[u8], row_stride: usize, col: usize, plane: &mut [u8]) -> usize {
    let steps = plane.len() / STEP;
    if steps == 0 {
        return 0;
    }
    assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
    for step in 0..steps {
        let base = step * STEP;
        let mut x = [_mm_setzero_si128(); 8];
        for (k, reg) in x.iter_mut().enumerate() {
            // SAFETY: k * row_stride + col + 16 * step + 16 <= 7 * row_stride + col +
            // plane.len() / 8 <= rows.len().
            *reg = unsafe { load(rows, k * row_stride + col + 16 * step) };
        }
        let bytes = rounds(transpose_bits(x), 3);
        for (r, reg) in bytes.into_iter().enumerate() {
            // SAFETY: base + 16 * r + 16 <= base + 128 <= plane.len().
            unsafe { store(plane, base + 16 * r, reg) };
        }
    }
    steps * STEP
}
