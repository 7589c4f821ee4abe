//! AVX2 bit-transpose kernels: 256 bytes of a byte plane per step.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::filters::shuffle::avx2::{load, load_lanes, rounds, store};

/// Bytes of a byte plane handled by one step.
const STEP: usize = 256;

/// Swaps, for every register pair `(a, a + H)` with bit `H` of `a` clear, the bits of `a`
/// at positions with bit `H` set against the bits of `a + H` at the positions `H` lower.
#[inline]
#[target_feature(enable = "avx2")]
fn swap_blocks<const H: i32>(mut v: [__m256i; 8], mask: i8) -> [__m256i; 8] {
    let h = H as usize;
    let mask = _mm256_set1_epi8(mask);
    for a in (0..8).filter(|a| a & h == 0) {
        let b = a + h;
        let t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi16::<H>(v[a]), v[b]), mask);
        v[b] = _mm256_xor_si256(v[b], t);
        v[a] = _mm256_xor_si256(v[a], _mm256_slli_epi16::<H>(t));
    }
    v
}

/// Transposes, at every byte position at once, the 8x8 bit matrix whose row `r` is that
/// byte of register `r`: bit `c` of register `r` becomes bit `r` of register `c`.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose_bits(v: [__m256i; 8]) -> [__m256i; 8] {
    let v = swap_blocks::<4>(v, 0x0F);
    let v = swap_blocks::<2>(v, 0x33);
    swap_blocks::<1>(v, 0x55)
}

/// Writes bit `k` of `plane[8q + b]` to bit `b` of `rows[k * row_stride + col + q]` for the
/// largest multiple of 256 bytes of `plane`; returns how many bytes were handled.
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "avx2")]
pub(crate) fn plane_to_rows(plane: &[u8], rows: &mut [u8], row_stride: usize, col: usize) -> usize {
    let steps = plane.len() / STEP;
    if steps == 0 {
        return 0;
    }
    assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
    for step in 0..steps {
        let base = step * STEP;
        let mut x = [_mm256_setzero_si256(); 8];
        for (r, reg) in x.iter_mut().enumerate() {
            // SAFETY: both halves lie below base + 256 <= plane.len().
            *reg = unsafe { load_lanes(plane, base + 16 * r, base + 128 + 16 * r) };
        }
        let bits = transpose_bits(rounds(x, 4));
        for (k, row) in bits.into_iter().enumerate() {
            // SAFETY: k * row_stride + col + 32 * step + 32 <= 7 * row_stride + col +
            // plane.len() / 8 <= rows.len().
            unsafe { store(rows, k * row_stride + col + 32 * step, row) };
        }
    }
    steps * STEP
}

/// Reverses [`plane_to_rows`] for the largest multiple of 256 bytes of `plane`; returns how
/// many bytes were handled.
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "avx2")]
pub(crate) fn rows_to_plane(rows: &[u8], row_stride: usize, col: usize, plane: &mut [u8]) -> usize {
    let steps = plane.len() / STEP;
    if steps == 0 {
        return 0;
    }
    assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
    for step in 0..steps {
        let base = step * STEP;
        let mut x = [_mm256_setzero_si256(); 8];
        for (k, reg) in x.iter_mut().enumerate() {
            // SAFETY: k * row_stride + col + 32 * step + 32 <= 7 * row_stride + col +
            // plane.len() / 8 <= rows.len().
            *reg = unsafe { load(rows, k * row_stride + col + 32 * step) };
        }
        let bytes = rounds(transpose_bits(x), 3);
        // Register r holds plane bytes base + 16r.. (low lane) and base + 128 + 16r.. (high
        // lane): pair registers up so that the 256 bytes are written in order.
        for half in 0..2 {
            for p in 0..4 {
                let v = if half == 0 {
                    _mm256_permute2x128_si256::<0x20>(bytes[2 * p], bytes[2 * p + 1])
                } else {
                    _mm256_permute2x128_si256::<0x31>(bytes[2 * p], bytes[2 * p + 1])
                };
                // SAFETY: base + 128 * half + 32 * p + 32 <= base + 256 <= plane.len().
                unsafe { store(plane, base + 128 * half + 32 * p, v) };
            }
        }
    }
    steps * STEP
}
