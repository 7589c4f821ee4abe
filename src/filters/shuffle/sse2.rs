//! SSE2 byte-shuffle kernels: 16 elements per step, byte transposes built from unpacks.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Elements handled by one step.
const STEP: usize = 16;

/// One perfect-shuffle round: register `2i` receives the interleaved low halves, `2i + 1` the
/// interleaved high halves, of registers `i` and `i + R/2` (bytewise).
///
/// Seen as one index `register * 16 + byte`, a round rotates the index bits left by one;
/// `k` rounds over `R = 2^a` registers therefore transpose a `2^k x 2^(a+4-k)` byte matrix.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn round<const R: usize>(x: [__m128i; R]) -> [__m128i; R] {
    let half = R / 2;
    let mut y = x;
    for i in 0..half {
        y[2 * i] = _mm_unpacklo_epi8(x[i], x[i + half]);
        y[2 * i + 1] = _mm_unpackhi_epi8(x[i], x[i + half]);
    }
    y
}

/// `count` successive [`round`]s.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn rounds<const R: usize>(mut x: [__m128i; R], count: u32) -> [__m128i; R] {
    for _ in 0..count {
        x = round(x);
    }
    x
}

/// Loads the 16 bytes at `at`.
///
/// # Safety
/// `at + 16 <= src.len()`.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn load(src: &[u8], at: usize) -> __m128i {
    debug_assert!(at + 16 <= src.len());
    // SAFETY: the caller guarantees the 16 bytes are in bounds; the load is unaligned.
    unsafe { _mm_loadu_si128(src.as_ptr().add(at).cast()) }
}

/// Stores 16 bytes at `at`.
///
/// # Safety
/// `at + 16 <= dst.len()`.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn store(dst: &mut [u8], at: usize, v: __m128i) {
    debug_assert!(at + 16 <= dst.len());
    // SAFETY: the caller guarantees the 16 bytes are in bounds; the store is unaligned.
    unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(at).cast(), v) }
}

/// Writes `dst[j * stride + i] = src[i * typesize + j]` for the elements from 0 on, in steps
/// of 16; returns how many elements were handled (a multiple of 16 not above `count`).
///
/// # Panics
/// If `count > stride`, `count * typesize > src.len()` or
/// `(typesize - 1) * stride + count > dst.len()`.
#[target_feature(enable = "sse2")]
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
        wide if wide > 16 => {
            shuffle_wide(wide, src, dst, stride, steps);
            steps * STEP
        }
        narrow => shuffle_narrow(narrow, src, dst, stride, count),
    }
}

/// Writes `dst[i * typesize + j] = src[j * stride + i]` for the elements from 0 on, in steps
/// of 16; returns how many elements were handled (a multiple of 16 not above `count`).
/// The inverse of [`shuffle_rows`].
///
/// # Panics
/// If `count > stride`, `count * typesize > dst.len()` or
/// `(typesize - 1) * stride + count > src.len()`.
#[target_feature(enable = "sse2")]
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
        wide if wide > 16 => unshuffle_wide(wide, src, dst, stride, steps),
        narrow => return unshuffle_narrow(narrow, src, dst, stride, count),
    }
    steps * STEP
}

/// Shuffles elements of `T` bytes (`T` a power of two up to 16) from element 0 on, in steps
/// of 16 and 64; returns how many elements (at most `steps * 16`) were handled.
///
/// Stores into the byte planes are much faster when each 64-byte run of them fills one
/// cache line, so after a few unaligned steps the loop starts where plane 0 is aligned.
#[inline]
#[target_feature(enable = "sse2")]
fn shuffle_pow2<const T: usize>(src: &[u8], dst: &mut [u8], stride: usize, steps: usize) -> usize {
    let planes_at = |i: usize| {
        let mut x = [_mm_setzero_si128(); T];
        for (r, reg) in x.iter_mut().enumerate() {
            // SAFETY: i * T + 16 * r + 16 <= (i + 16) * T <= count * T <= src.len(), as every
            // step lies below steps * 16 <= count.
            *reg = unsafe { load(src, i * T + 16 * r) };
        }
        rounds(x, 4)
    };
    let single = |dst: &mut [u8], i: usize| {
        for (j, plane) in planes_at(i).into_iter().enumerate() {
            // SAFETY: j * stride + i + 16 <= (T - 1) * stride + count <= dst.len().
            unsafe { store(dst, j * stride + i, plane) };
        }
    };
    let total = steps * STEP;
    let head = super::aligned_start(dst.as_ptr() as usize, 1).unwrap_or(0);
    let mut i = 0;
    if head + 4 * STEP <= total {
        while i < head {
            single(dst, i);
            i += STEP;
        }
        i = head;
        while i + 4 * STEP <= total {
            let quad: [[__m128i; T]; 4] = core::array::from_fn(|q| planes_at(i + q * STEP));
            for j in 0..T {
                for (q, planes) in quad.iter().enumerate() {
                    // SAFETY: j * stride + i + 64 <= (T - 1) * stride + count <= dst.len().
                    unsafe { store(dst, j * stride + i + q * STEP, planes[j]) };
                }
            }
            i += 4 * STEP;
        }
    }
    while i + STEP <= total {
        single(dst, i);
        i += STEP;
    }
    i
}

/// Unshuffles `steps * 16` elements of `T` bytes (`T` a power of two up to 16).
#[inline]
#[target_feature(enable = "sse2")]
fn unshuffle_pow2<const T: usize>(src: &[u8], dst: &mut [u8], stride: usize, steps: usize) {
    for i in (0..steps * STEP).step_by(STEP) {
        let mut x = [_mm_setzero_si128(); T];
        for (j, reg) in x.iter_mut().enumerate() {
            // SAFETY: j * stride + i + 16 <= (T - 1) * stride + count <= src.len().
            *reg = unsafe { load(src, j * stride + i) };
        }
        for (r, elems) in rounds(x, T.trailing_zeros()).into_iter().enumerate() {
            // SAFETY: i * T + 16 * r + 16 <= (i + 16) * T <= count * T <= dst.len().
            unsafe { store(dst, i * T + 16 * r, elems) };
        }
    }
}

/// The first byte of each 16-byte column group of a wide element; the last group is moved
/// back to end at the element's end, overlapping the previous one.
fn column_groups(typesize: usize) -> impl Iterator<Item = usize> {
    (0..typesize.div_ceil(16)).map(move |g| (16 * g).min(typesize - 16))
}

/// Shuffles `steps * 16` elements of more than 16 bytes, 16 bytes of each at a time.
#[inline]
#[target_feature(enable = "sse2")]
fn shuffle_wide(typesize: usize, src: &[u8], dst: &mut [u8], stride: usize, steps: usize) {
    for i in (0..steps * STEP).step_by(STEP) {
        for col in column_groups(typesize) {
            let mut x = [_mm_setzero_si128(); 16];
            for (m, reg) in x.iter_mut().enumerate() {
                // SAFETY: col + 16 <= typesize, so the bytes lie below
                // (i + 16) * typesize <= count * typesize <= src.len().
                *reg = unsafe { load(src, (i + m) * typesize + col) };
            }
            for (k, plane) in rounds(x, 4).into_iter().enumerate() {
                // SAFETY: (col + k) * stride + i + 16 <= (typesize - 1) * stride + count.
                unsafe { store(dst, (col + k) * stride + i, plane) };
            }
        }
    }
}

/// Unshuffles `steps * 16` elements of more than 16 bytes, 16 bytes of each at a time.
#[inline]
#[target_feature(enable = "sse2")]
fn unshuffle_wide(typesize: usize, src: &[u8], dst: &mut [u8], stride: usize, steps: usize) {
    for i in (0..steps * STEP).step_by(STEP) {
        for col in column_groups(typesize) {
            let mut x = [_mm_setzero_si128(); 16];
            for (k, reg) in x.iter_mut().enumerate() {
                // SAFETY: (col + k) * stride + i + 16 <= (typesize - 1) * stride + count.
                *reg = unsafe { load(src, (col + k) * stride + i) };
            }
            for (m, elems) in rounds(x, 4).into_iter().enumerate() {
                // SAFETY: col + 16 <= typesize, so the bytes lie below
                // (i + 16) * typesize <= count * typesize <= dst.len().
                unsafe { store(dst, (i + m) * typesize + col, elems) };
            }
        }
    }
}

/// Shuffles elements of 3 to 15 bytes (other than 4 and 8) in steps of 16, reading a 16-byte
/// window from the start of each element; returns how many elements were handled.
#[inline]
#[target_feature(enable = "sse2")]
fn shuffle_narrow(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let mut i = 0;
    while i + STEP <= count && (i + STEP - 1) * typesize + 16 <= src.len() {
        let mut x = [_mm_setzero_si128(); 16];
        for (m, reg) in x.iter_mut().enumerate() {
            // SAFETY: the furthest window ends at (i + 15) * typesize + 16 <= src.len().
            *reg = unsafe { load(src, (i + m) * typesize) };
        }
        for (k, plane) in rounds(x, 4).into_iter().take(typesize).enumerate() {
            // SAFETY: k * stride + i + 16 <= (typesize - 1) * stride + count <= dst.len().
            unsafe { store(dst, k * stride + i, plane) };
        }
        i += STEP;
    }
    i
}

/// Unshuffles elements of 3 to 15 bytes (other than 4 and 8) in steps of 16; returns how many
/// elements were handled.
///
/// Each element is written as a 16-byte window whose tail is rewritten by the elements that
/// follow, so windows are stored in element order and the last one of a step spills
/// `16 - typesize` bytes into the next element (rewritten by the next step or by the caller's
/// scalar tail).
#[inline]
#[target_feature(enable = "sse2")]
fn unshuffle_narrow(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let mut i = 0;
    while i + STEP <= count && (i + STEP - 1) * typesize + 16 <= dst.len() {
        let mut x = [_mm_setzero_si128(); 16];
        for (k, reg) in x.iter_mut().enumerate().take(typesize) {
            // SAFETY: k * stride + i + 16 <= (typesize - 1) * stride + count <= src.len().
            *reg = unsafe { load(src, k * stride + i) };
        }
        for (m, elem) in rounds(x, 4).into_iter().enumerate() {
            // SAFETY: (i + m) * typesize + 16 <= (i + 15) * typesize + 16 <= dst.len().
            unsafe { store(dst, (i + m) * typesize, elem) };
        }
        i += STEP;
    }
    i
}
