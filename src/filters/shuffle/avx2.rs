//! AVX2 byte-shuffle kernels: 32 elements per step, byte transposes built from unpacks.
//!
//! A step loads the 32 elements so that the low 128-bit lane of every register holds data
//! of elements 0..16 and the high lane data of elements 16..32. Unpack instructions work
//! lane by lane, so each lane then runs the same transpose network as the SSE2 kernels.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

mod narrow;
mod ops;
mod wide;

pub(crate) use ops::{load, load_lanes, rounds, store};

/// Elements handled by one step.
const STEP: usize = 32;

/// Writes `dst[j * stride + i] = src[i * typesize + j]` for the elements from 0 on, in steps
/// of 32; returns how many elements were handled (a multiple of 32 not above `count`).
///
/// # Panics
/// If `count > stride`, `count * typesize > src.len()` or
/// `(typesize - 1) * stride + count > dst.len()`.
#[target_feature(enable = "avx2")]
pub(crate) fn shuffle_rows(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let steps = count / STEP;
    if steps == 0 || typesize < 2 {
        return 0;
    }
    assert!(count <= stride && count * typesize <= src.len());
    assert!((typesize - 1) * stride + count <= dst.len());
    match typesize {
        2 => shuffle_pow2::<2>(src, dst, stride, steps),
        4 => shuffle_pow2::<4>(src, dst, stride, steps),
        8 => shuffle_pow2::<8>(src, dst, stride, steps),
        16 => shuffle_pow2::<16>(src, dst, stride, steps),
        wide if wide > 16 => wide::shuffle_wide(wide, src, dst, stride, steps),
        narrow => narrow::shuffle_narrow(narrow, src, dst, stride, count),
    }
}

/// Writes `dst[i * typesize + j] = src[j * stride + i]` for the elements from 0 on, in steps
/// of 32; returns how many elements were handled (a multiple of 32 not above `count`).
/// The inverse of [`shuffle_rows`].
///
/// # Panics
/// If `count > stride`, `count * typesize > dst.len()` or
/// `(typesize - 1) * stride + count > src.len()`.
#[target_feature(enable = "avx2")]
pub(crate) fn unshuffle_rows(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let steps = count / STEP;
    if steps == 0 || typesize < 2 {
        return 0;
    }
    assert!(count <= stride && count * typesize <= dst.len());
    assert!((typesize - 1) * stride + count <= src.len());
    match typesize {
        2 => unshuffle_pow2::<2>(src, dst, stride, steps),
        4 => unshuffle_pow2::<4>(src, dst, stride, steps),
        8 => unshuffle_pow2::<8>(src, dst, stride, steps),
        16 => unshuffle_pow2::<16>(src, dst, stride, steps),
        12 => {
            narrow::unshuffle12(src, dst, stride, steps);
            steps * STEP
        }
        wide if wide > 16 => {
            wide::unshuffle_wide(wide, src, dst, stride, steps);
            steps * STEP
        }
        narrow => narrow::unshuffle_narrow(narrow, src, dst, stride, count),
    }
}

/// Shuffles elements of `T` bytes (`T` a power of two up to 16) from element 0 on, in steps
/// of 32 and 64; returns how many elements (at most `steps * 32`) were handled.
///
/// Stores into the byte planes are much faster when each 64-byte pair of them fills one
/// cache line, so after one or two unaligned steps the loop starts where plane 0 is aligned.
#[inline]
#[target_feature(enable = "avx2")]
fn shuffle_pow2<const T: usize>(src: &[u8], dst: &mut [u8], stride: usize, steps: usize) -> usize {
    let planes_at = |i: usize| {
        let mut raw = [_mm256_setzero_si256(); T];
        for (q, reg) in raw.iter_mut().enumerate() {
            // SAFETY: i * T + 32 * q + 32 <= (i + 32) * T <= count * T <= src.len(), as every
            // step lies below steps * 32 <= count.
            *reg = unsafe { load(src, i * T + 32 * q) };
        }
        // Low lanes from elements i.., high lanes from elements i + 16..
        let mut x = [_mm256_setzero_si256(); T];
        for p in 0..T / 2 {
            let (a, b) = (raw[p], raw[T / 2 + p]);
            x[2 * p] = _mm256_permute2x128_si256::<0x20>(a, b);
            x[2 * p + 1] = _mm256_permute2x128_si256::<0x31>(a, b);
        }
        rounds(x, 4)
    };
    let total = steps * STEP;
    let head = super::aligned_start(dst.as_ptr() as usize, 1).unwrap_or(0);
    let mut i = 0;
    if head != 0 && head + 2 * STEP <= total {
        while i < head {
            for (j, plane) in planes_at(i).into_iter().enumerate() {
                // SAFETY: j * stride + i + 32 <= (T - 1) * stride + count <= dst.len().
                unsafe { store(dst, j * stride + i, plane) };
            }
            i += STEP;
        }
        i = head;
    }
    while i + 2 * STEP <= total {
        let (first, second) = (planes_at(i), planes_at(i + STEP));
        for j in 0..T {
            // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= dst.len().
            unsafe {
                store(dst, j * stride + i, first[j]);
                store(dst, j * stride + i + STEP, second[j]);
            }
        }
        i += 2 * STEP;
    }
    // Elements left: steps ending at `total` at the latest, the last one overlapping the one
    // before it (which it rewrites with the same bytes).
    while i < total {
        i = i.min(total - STEP);
        for (j, plane) in planes_at(i).into_iter().enumerate() {
            // SAFETY: j * stride + i + 32 <= (T - 1) * stride + count <= dst.len().
            unsafe { store(dst, j * stride + i, plane) };
        }
        i += STEP;
    }
    i
}

/// Unshuffles elements of `T` bytes (`T` a power of two up to 16) from element 0 on, in
/// steps of 32; returns how many elements (at most `steps * 32`) were handled.
///
/// After one unaligned step the loop starts, when it can, where the output is 64-byte
/// aligned, so that every pair of stores fills one cache line.
#[inline]
#[target_feature(enable = "avx2")]
fn unshuffle_pow2<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    steps: usize,
) -> usize {
    let head = super::aligned_start(dst.as_ptr() as usize, T);
    let mut step = |i: usize| {
        let mut x = [_mm256_setzero_si256(); T];
        for (j, reg) in x.iter_mut().enumerate() {
            // SAFETY: j * stride + i + 32 <= (T - 1) * stride + count <= src.len(), as every
            // step lies below steps * 32 <= count.
            *reg = unsafe { load(src, j * stride + i) };
        }
        let y = rounds(x, T.trailing_zeros());
        // Register r holds bytes 16r.. of elements i.. (low lane) and i + 16.. (high lane):
        // pair registers up so that the 32 * T output bytes are written in order.
        for half in 0..2 {
            for p in 0..T / 2 {
                let v = if half == 0 {
                    _mm256_permute2x128_si256::<0x20>(y[2 * p], y[2 * p + 1])
                } else {
                    _mm256_permute2x128_si256::<0x31>(y[2 * p], y[2 * p + 1])
                };
                // SAFETY: (i + 16 * half) * T + 32 * p + 32 <= (i + 32) * T <= count * T
                // <= dst.len().
                unsafe { store(dst, (i + 16 * half) * T + 32 * p, v) };
            }
        }
    };
    let total = steps * STEP;
    let mut i = 0;
    if let Some(head) = head {
        if head != 0 && head + STEP <= total {
            step(0);
            i = head;
        }
    }
    while i + STEP <= total {
        step(i);
        i += STEP;
    }
    // Elements left after the aligned steps: one more step ending at `total`, overlapping
    // the one before it (which it rewrites with the same bytes).
    if i < total {
        step(total - STEP);
        i = total;
    }
    i
}
