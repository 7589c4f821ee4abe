//! AVX-512 F/BW bit-transpose kernels: 512 bytes of a byte plane per step.
//!
//! A step loads 8 registers of 64 consecutive plane bytes. In every 128-bit lane, the
//! unpack network gathers the bytes at the same position of 8-byte groups into one
//! register, a bit-matrix transpose turns these into the bit rows, and a word permute puts
//! each row's bytes in order across the lanes.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::avx2;
use crate::filters::shuffle::avx512::ops::{aligned_steps, from_words, load, rounds, store};

/// Bytes of a byte plane handled by one step.
const STEP: usize = 512;

/// How far ahead of a step [`plane_to_rows`] asks for the plane's bytes.
const PREFETCH_AHEAD: usize = 4 * STEP;

/// The plane length from which the steps start where their stores are 64-byte aligned,
/// after one extra unaligned step.
const ALIGN_FROM: usize = 8 * STEP;

/// Swaps, for every register pair `(a, a + H)` with bit `H` of `a` clear, the bits of `a`
/// at positions with bit `H` set against the bits of `a + H` at the positions `H` lower;
/// `low` has, in every byte, the bits whose position has bit `H` clear.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn swap_blocks<const H: u32>(mut v: [__m512i; 8], low: __m512i) -> [__m512i; 8] {
    // `_mm512_ternarylogic_epi32::<0xE4>(a, b, c)` is `c ? a : b` bitwise.
    for a in 0..8 {
        if a & H as usize == 0 {
            let b = a + H as usize;
            let (x, y) = (v[a], v[b]);
            v[a] = _mm512_ternarylogic_epi32::<0xE4>(x, _mm512_slli_epi16::<H>(y), low);
            v[b] = _mm512_ternarylogic_epi32::<0xE4>(_mm512_srli_epi16::<H>(x), y, low);
        }
    }
    v
}

/// Transposes, at every byte position at once, the 8x8 bit matrix whose row `r` is that
/// byte of register `r`: bit `c` of register `r` becomes bit `r` of register `c`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn transpose_bits(v: [__m512i; 8]) -> [__m512i; 8] {
    let v = swap_blocks::<4>(v, _mm512_set1_epi8(0x0F));
    let v = swap_blocks::<2>(v, _mm512_set1_epi8(0x33));
    swap_blocks::<1>(v, _mm512_set1_epi8(0x55))
}

/// After the unpack network and bit transpose, word `8l + r` of a row register holds bytes
/// `8r + 2l` and `8r + 2l + 1` of the step's part of the row (`l` the lane). This is the
/// permute index putting them in order, and (`inverse`) the one undoing it.
#[inline]
#[target_feature(enable = "avx512f")]
fn row_order(inverse: bool) -> __m512i {
    let words: [u16; 32] = core::array::from_fn(|w| match inverse {
        false => (8 * (w % 4) + w / 4) as u16,
        true => (4 * (w % 8) + w / 8) as u16,
    });
    from_words(&words)
}

/// Writes bit `k` of `plane[8q + b]` to bit `b` of `rows[k * row_stride + col + q]` for the
/// bytes of `plane` from 0 on, in steps of 512 bytes and then of 256 with the AVX2 kernel;
/// returns how many bytes were handled (a multiple of 8, less than 256 short of the end).
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn plane_to_rows(plane: &[u8], rows: &mut [u8], row_stride: usize, col: usize) -> usize {
    let mut done = 0;
    if plane.len() >= STEP {
        assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
        let order = row_order(false);
        // Plane bytes from `head` on fill rows from a 64-byte boundary of row 0; the step
        // this costs is only worth it for long planes.
        let head = match plane.len() >= ALIGN_FROM {
            true => 8 * ((64 - (rows.as_ptr() as usize + col) % 64) % 64),
            false => 0,
        };
        done = aligned_steps::<false>(plane.len(), STEP, head, |base| {
            // Ask for the plane bytes a few steps ahead: a plane fresh from memory is
            // otherwise read at the latency of each miss (the transpose is short).
            let ahead = plane.as_ptr().wrapping_add(base + PREFETCH_AHEAD);
            for line in 0..STEP / 64 {
                // Prefetching never faults, whatever the address.
                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64 * line).cast());
            }
            let mut x = [_mm512_setzero_si512(); 8];
            for (r, reg) in x.iter_mut().enumerate() {
                // SAFETY: base + 64 * r + 64 <= base + 512 <= plane.len().
                *reg = unsafe { load(plane, base + 64 * r) };
            }
            let bits = transpose_bits(rounds(x, 4));
            for (k, row) in bits.into_iter().enumerate() {
                let row = _mm512_permutexvar_epi16(order, row);
                // SAFETY: base is a multiple of 8 and base + 512 <= plane.len(), so
                // k * row_stride + col + base / 8 + 64 <= 7 * row_stride + col +
                // plane.len() / 8 <= rows.len().
                unsafe { store(rows, k * row_stride + col + base / 8, row) };
            }
        });
    }
    done + avx2::plane_to_rows(&plane[done..], rows, row_stride, col + done / 8)
}

/// Reverses [`plane_to_rows`] for the bytes of `plane` from 0 on, in steps of 512 bytes and
/// then of 256 with the AVX2 kernel; returns how many bytes were handled (a multiple of 8,
/// less than 256 short of the end).
///
/// # Panics
/// If `7 * row_stride + col + plane.len() / 8 > rows.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn rows_to_plane(rows: &[u8], row_stride: usize, col: usize, plane: &mut [u8]) -> usize {
    let mut done = 0;
    if plane.len() >= STEP {
        assert!(7 * row_stride + col + plane.len() / 8 <= rows.len());
        let order = row_order(true);
        // Plane bytes from `head` on start at a 64-byte boundary, if a multiple of 8 does;
        // the step this costs is only worth it for long planes.
        let skew = plane.as_ptr() as usize % 64;
        let head = match plane.len() >= ALIGN_FROM && skew.is_multiple_of(8) {
            true => (64 - skew) % 64,
            false => 0,
        };
        done = aligned_steps::<false>(plane.len(), STEP, head, |base| {
            let mut x = [_mm512_setzero_si512(); 8];
            for (k, reg) in x.iter_mut().enumerate() {
                // SAFETY: base is a multiple of 8 and base + 512 <= plane.len(), so
                // k * row_stride + col + base / 8 + 64 <= 7 * row_stride + col +
                // plane.len() / 8 <= rows.len().
                let row = unsafe { load(rows, k * row_stride + col + base / 8) };
                *reg = _mm512_permutexvar_epi16(order, row);
            }
            let bytes = rounds(transpose_bits(x), 3);
            for (r, reg) in bytes.into_iter().enumerate() {
                // SAFETY: base + 64 * r + 64 <= base + 512 <= plane.len().
                unsafe { store(plane, base + 64 * r, reg) };
            }
        });
    }
    done + avx2::rows_to_plane(rows, row_stride, col + done / 8, &mut plane[done..])
}
